package mappings

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/tailscale/hujson"
)

// toolsEnumerated are the dialects whose agent's every tool is enumerated
// in data/evidence/<dialect>-tools.jsonc, read from the agent itself (its
// tool registry), each with its arguments.
var toolsEnumerated = []string{"opencode", "kilo"}

// TestToolsEvidenceHeldByTheTable holds the table against each enumerated
// agent's list of tools, both ways: every tool the agent registers has a
// row (a tool without one never reaches another dialect's hook, and no
// guard fails closed on it), every row is a tool the agent registers, and
// the arguments a row names (fields, required, paths, cwd) are arguments
// of that tool. On 5a008d0 Kilo Code's own tools (goal, cron_*, board_*,
// repo_clone, agent_manager, ...) and OpenCode's invalid and execute had
// no row.
func TestToolsEvidenceHeldByTheTable(t *testing.T) {
	tbl := Default()
	for _, name := range toolsEnumerated {
		t.Run(name, func(t *testing.T) {
			d, err := tbl.Dialect(name)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join("data", "evidence", name+"-tools.jsonc"))
			if err != nil {
				t.Fatal(err)
			}
			std, err := hujson.Standardize(b)
			if err != nil {
				t.Fatal(err)
			}
			var ev struct {
				Tools []struct {
					Name      string            `json:"name"`
					Arguments map[string]string `json:"arguments"`
					Evidence  string            `json:"evidence"`
				} `json:"tools"`
			}
			if err := json.Unmarshal(std, &ev); err != nil {
				t.Fatal(err)
			}
			if len(ev.Tools) == 0 {
				t.Fatalf("%s-tools.jsonc lists no tools", name)
			}
			listed := map[string]map[string]string{}
			for _, e := range ev.Tools {
				if strings.ContainsAny(e.Name, ", ") || e.Name == "" {
					t.Errorf("%q: one tool an entry, by the name the plugin's input.tool gives it", e.Name)
					continue
				}
				if _, dup := listed[e.Name]; dup {
					t.Errorf("%s is listed twice", e.Name)
				}
				if e.Evidence == "" {
					t.Errorf("%s: no evidence", e.Name)
				}
				listed[e.Name] = e.Arguments
				if d.Tool(e.Name) == nil {
					t.Errorf("%s registers %s, and the table has no row for it: it never reaches another dialect's hook, and no guard fails closed on it", d.Agent, e.Name)
				}
			}
			for _, tool := range d.Tools {
				args, ok := listed[tool.Name]
				if !ok {
					t.Errorf("the table has %s, which data/evidence/%s-tools.jsonc does not list", tool.Name, name)
					continue
				}
				var named []string
				for a := range tool.Fields {
					named = append(named, a)
				}
				for a := range tool.Paths {
					named = append(named, a)
				}
				named = append(named, tool.Required...)
				if tool.Cwd != "" {
					named = append(named, tool.Cwd)
				}
				slices.Sort(named)
				for _, a := range slices.Compact(named) {
					if _, ok := args[a]; !ok {
						t.Errorf("the table's %s names argument %s, which %s's %s does not take (evidence: %v)", tool.Name, a, d.Agent, tool.Name, args)
					}
				}
			}
		})
	}
}

// registryDefines are how Kilo Code 7.7.9's bundle defines a tool: the
// minified Tool.define (a_) and Kilo's own define (xu.define), each
// followed by the tool's id. registryOthers are the tools its registry
// adds otherwise, with how: the list reads the rest from the binary.
var (
	registryDefines = []string{`a_("`, `xu.define("`}
	registryOthers  = map[string]string{
		"bash":                        "ShellID.ToolID (@108863720)",
		"task":                        "the task tool's own define (@110020335)",
		"execute":                     "code mode's FfL (@113950513)",
		"list_mcp_resources":          "wWH.list (@113996334)",
		"list_mcp_resource_templates": "wWH.listTemplates (@113996334)",
		"read_mcp_resource":           "wWH.read (@113996334)",
	}
)

// TestKiloToolsAreTheBinarysRegistry reads the tool ids Kilo Code's own
// binary defines (the agents cache of the conformance suite, or
// $HOOKX_KILO_BIN) and holds data/evidence/kilo-tools.jsonc to them both
// ways: a tool the binary defines that the list lacks is a tool the table
// may lack. Skipped where the binary is not installed.
func TestKiloToolsAreTheBinarysRegistry(t *testing.T) {
	bin := os.Getenv("HOOKX_KILO_BIN")
	if bin == "" {
		dir, err := agents.DefaultDir()
		if err != nil {
			t.Skip(err)
		}
		bin = filepath.Join(dir, "node_modules", "@kilocode", "cli-linux-x64", "bin", "kilo")
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Skipf("Kilo Code's binary is not installed here: %v", err)
	}
	defined := map[string]bool{}
	for _, prefix := range registryDefines {
		for rest := data; ; {
			i := bytes.Index(rest, []byte(prefix))
			if i < 0 {
				break
			}
			rest = rest[i+len(prefix):]
			j := bytes.IndexByte(rest, '"')
			if j <= 0 || j > 64 {
				continue
			}
			if id := string(rest[:j]); strings.Trim(id, "abcdefghijklmnopqrstuvwxyz_") == "" {
				defined[id] = true
			}
		}
	}
	if len(defined) < 20 {
		t.Fatalf("found %d tool definitions in %s: the bundle's form changed (registryDefines)", len(defined), bin)
	}
	for id := range registryOthers {
		defined[id] = true
	}
	b, err := os.ReadFile(filepath.Join("data", "evidence", "kilo-tools.jsonc"))
	if err != nil {
		t.Fatal(err)
	}
	std, err := hujson.Standardize(b)
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(std, &ev); err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, e := range ev.Tools {
		listed[e.Name] = true
		if !defined[e.Name] {
			t.Errorf("kilo-tools.jsonc lists %s, which %s does not define", e.Name, bin)
		}
	}
	for id := range defined {
		if !listed[id] {
			t.Errorf("%s defines the tool %s, which kilo-tools.jsonc does not list", bin, id)
		}
	}
}
