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
	Touches  string `json:"touches"` // path, directory, workdir, pattern, command, or url (a tool with no counterpart that acts)
	// Acts says the argument makes the tool run commands ("shell") or
	// change files ("write", "edit"): canonical tools with an acts phrase.
	Acts     []string `json:"acts"`
	Evidence string   `json:"evidence"`
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
	if e.Touches == "command" {
		if tool.Canonical == "shell" || slices.Contains(tool.Acts, "shell") {
			return nil
		}
		return fmt.Errorf("the tool runs it, but is neither the shell tool nor marked \"acts\": [\"shell\"]: a shell guard of another agent never sees it")
	}
	if tool.Canonical == "" {
		if len(tool.Acts) == 0 {
			return fmt.Errorf("the tool has no counterpart (\"only\") and is not marked \"acts\": it never reaches another dialect's hook, and no guard fails closed on it")
		}
		return nil // every guard of its kind fails closed on it (Table.Unjudged)
	}
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
		_, resolved := tool.Paths[e.Argument]
		if !resolved && !inFields && refused(conv, e.Argument) {
			return nil // the converter refuses a call holding it: a guard fails closed
		}
		if !resolved && !(d.AbsolutePaths && inFields) {
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
		return fmt.Errorf("touches %q is none of path, directory, workdir, pattern, command", e.Touches)
	}
	return nil
}

// refused reports whether conv refuses (its Uncarried) every call that
// holds arg, as a path or as a list of paths.
func refused(conv *InputConverter, arg string) bool {
	if conv == nil || conv.Uncarried == nil {
		return false
	}
	for _, v := range []any{"/p", []any{"/p"}, []any{map[string]any{"path": "/p"}}} {
		if conv.Uncarried(map[string]any{arg: v}) == "" {
			return false
		}
	}
	return true
}

// TestEvidenceInputsHeldByTheTable holds the table against each agent's
// list of the tool arguments that change what its tools touch (every
// dialect of the table, but those in inputsNotEnumerated) (the cure
// for issue 23's class: a path, directory or working directory that
// reaches another dialect's hook as written, or not at all, turns its
// guard's block into an allow). Every listed argument is carried (a path
// resolver, the working directory as the hook's cwd, a pattern in fields)
// or marked failClosed or hidden; and every such declaration of the table
// is in the list, with its evidence. On b20418e Gemini's and TerminaI's
// dir_path, Qwen's directory and Codex's apply_patch paths were not.
func TestEvidenceInputsHeldByTheTable(t *testing.T) {
	for name := range inputsNotEnumerated {
		if _, err := Default().Dialect(name); err != nil {
			t.Errorf("inputsNotEnumerated names %s, which the table does not have", name)
		}
	}
	tbl := Default()
	for _, d := range tbl.Dialects {
		name := d.Name
		t.Run(name, func(t *testing.T) {
			if why, ok := inputsNotEnumerated[name]; ok {
				t.Logf("%s: its tools' inputs are not enumerated yet: %s", name, why)
				return
			}
			d, err := tbl.Dialect(name)
			if err != nil {
				t.Fatal(err)
			}
			listed := map[[2]string]bool{}
			actsListed := map[string][]string{}
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
				for _, a := range e.Acts {
					if c := tbl.Canonical.Tool(a); c == nil || c.Acts == "" {
						t.Errorf("%s %s: acts %q is no canonical tool with an acts phrase", e.Tool, e.Argument, a)
					}
				}
				// Where another agent has no counterpart for the tool, its
				// guards fail closed on it only if the row says what it does.
				for _, other := range tbl.Dialects {
					if other == d || tbl.counterpart(d, other, tool) {
						continue
					}
					for _, a := range e.Acts {
						if !slices.Contains(tool.Acts, a) {
							t.Errorf("%s %s acts as %s, and %s has no counterpart for %s, but the table's row has no \"acts\": [%q]: a %s guard of that kind never sees the call", e.Tool, e.Argument, a, other.Agent, e.Tool, a, other.Agent)
						}
					}
				}
				actsListed[e.Tool] = append(actsListed[e.Tool], e.Acts...)
			}
			for _, tool := range d.Tools {
				for _, a := range tool.Acts {
					if !slices.Contains(actsListed[tool.Name], a) {
						t.Errorf("the table marks %s as acting as %s, but data/evidence/%s-inputs.jsonc lists no argument of it that does, with its evidence", tool.Name, a, name)
					}
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

// inputsNotEnumerated are the dialects with no <dialect>-inputs.jsonc yet,
// each with why: a new dialect is held to the list unless it is named here.
var inputsNotEnumerated = map[string]string{}
