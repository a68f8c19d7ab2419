package mappings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
			tools := readToolsEvidence(t, name)
			if len(tools) == 0 {
				t.Fatalf("%s-tools.jsonc lists no tools", name)
			}
			listed := map[string]map[string]string{}
			for _, e := range tools {
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

// toolEvidence is one entry of data/evidence/<dialect>-tools.jsonc: a tool
// the agent registers, its arguments and where the agent defines it.
type toolEvidence struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments"`
	Evidence  string            `json:"evidence"`
}

// readToolsEvidence reads data/evidence/<name>-tools.jsonc.
func readToolsEvidence(t *testing.T, name string) []toolEvidence {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("data", "evidence", name+"-tools.jsonc"))
	if err != nil {
		t.Fatal(err)
	}
	std, err := hujson.Standardize(b)
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Tools []toolEvidence `json:"tools"`
	}
	if err := json.Unmarshal(std, &ev); err != nil {
		t.Fatal(err)
	}
	return ev.Tools
}
