package mappings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tailscale/hujson"
)

// inputEvidence is one argument that changes what a tool touches, with
// where that was read (data/evidence/<dialect>-inputs.jsonc).
type inputEvidence struct {
	Tool     string `json:"tool"`
	Argument string `json:"argument"`
	Touches  string `json:"touches"` // path, directory, workdir or pattern
	Evidence string `json:"evidence"`
}

func readInputEvidence(t *testing.T, dialect string) []inputEvidence {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("data", "evidence", dialect+"-inputs.jsonc"))
	if err != nil {
		t.Fatalf("%s: every dialect lists what its tools touch: %v", dialect, err)
	}
	std, err := hujson.Standardize(b)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Inputs []inputEvidence `json:"inputs"`
	}
	dec := json.NewDecoder(bytes.NewReader(std))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("%s-inputs.jsonc: %v", dialect, err)
	}
	return f.Inputs
}

// carried says how the table carries one argument that changes what the
// tool touches to another dialect's hook, or why it does not.
func carried(d *Dialect, tool *Tool, e inputEvidence) error {
	if _, ok := tool.Hidden[e.Argument]; ok {
		return nil // the agent never shows it to its hooks
	}
	if _, ok := tool.FailClosed[e.Argument]; ok {
		return nil // a guard of another dialect fails closed on it
	}
	_, inFields := tool.Fields[e.Argument]
	conv := inputConverters()[tool.Convert]
	inConv := conv != nil && slices.Contains(conv.Args, e.Argument)
	switch e.Touches {
	case "workdir":
		if tool.Cwd != e.Argument {
			return fmt.Errorf("the directory the tool runs in is neither the tool's cwd nor hidden nor failClosed: a hook of an agent whose tool has no such argument keeps the project as its cwd")
		}
	case "path", "directory":
		if _, ok := tool.Paths[e.Argument]; !ok && !(d.AbsolutePaths && inFields) {
			return fmt.Errorf("no path resolver in the tool's paths (and %s does not send it absolute): a hook that gets absolute paths sees it as written", d.Agent)
		}
		if !inFields && !inConv {
			return fmt.Errorf("not in the tool's fields: it never reaches another dialect's hook")
		}
	case "pattern":
		if !inFields && !inConv {
			return fmt.Errorf("not in the tool's fields: it never reaches another dialect's hook")
		}
	default:
		return fmt.Errorf("touches %q is none of path, directory, workdir, pattern", e.Touches)
	}
	return nil
}

// TestEvidenceInputsHeldByTheTable holds the table against each agent's
// list of the tool arguments that change what its tools touch (the cure
// for issue 23's class: a path, directory or working directory that
// reaches another dialect's hook as written, or not at all, turns its
// guard's block into an allow). Every listed argument is carried (a path
// resolver, the working directory as the hook's cwd, a pattern in fields)
// or marked failClosed or hidden; and every such declaration of the table
// is in the list, with its evidence. On b20418e Gemini's and TerminaI's
// dir_path, Qwen's directory and Codex's apply_patch paths were not.
func TestEvidenceInputsHeldByTheTable(t *testing.T) {
	tbl := Default()
	for _, name := range []string{"claude", "gemini", "codex", "copilot", "qwen", "droid", "terminai"} {
		t.Run(name, func(t *testing.T) {
			d, err := tbl.Dialect(name)
			if err != nil {
				t.Fatal(err)
			}
			listed := map[[2]string]bool{}
			for _, e := range readInputEvidence(t, name) {
				listed[[2]string{e.Tool, e.Argument}] = true
				if e.Evidence == "" {
					t.Errorf("%s %s: no evidence", e.Tool, e.Argument)
				}
				tool := d.Tool(e.Tool)
				if tool == nil {
					t.Errorf("%s %s: the table has no tool %s", e.Tool, e.Argument, e.Tool)
					continue
				}
				if err := carried(d, tool, e); err != nil {
					t.Errorf("%s %s (%s): %v", e.Tool, e.Argument, e.Touches, err)
				}
			}
			for _, tool := range d.Tools {
				var declared []string
				for arg := range tool.Paths {
					declared = append(declared, arg)
				}
				for arg := range tool.Hidden {
					declared = append(declared, arg)
				}
				for arg := range tool.FailClosed {
					declared = append(declared, arg)
				}
				if tool.Cwd != "" {
					declared = append(declared, tool.Cwd)
				}
				for _, arg := range declared {
					if !listed[[2]string{tool.Name, arg}] {
						t.Errorf("the table declares %s %s as touching something, but data/evidence/%s-inputs.jsonc does not list it with its evidence", tool.Name, arg, name)
					}
				}
			}
		})
	}
}
