package translate

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// actingCase is one host tool that runs commands or changes files (its
// table row's acts) with no counterpart in a hook's dialect, and a matcher
// of that dialect.
type actingCase struct {
	host, hook *mappings.Dialect
	tool       *mappings.Tool
	matcher    string // "" for every tool
	guards     bool   // the matcher names a hook tool of the kind the tool acts as
}

// actingCases enumerates, from the table, every host tool marked acts and
// every hook dialect with no counterpart for it: a matcher for each hook
// tool of the kinds it acts as, every tool, and a read tool's.
func actingCases(t *testing.T, tbl *mappings.Table) []actingCase {
	t.Helper()
	var out []actingCase
	for _, host := range tbl.Dialects {
		for _, tool := range host.Tools {
			if len(tool.Acts) == 0 {
				continue
			}
			for _, hook := range tbl.Dialects {
				if hook == host {
					continue
				}
				if tm, err := tbl.MapTool(host, hook, tool.Name); err == nil && tm.To != nil {
					continue
				}
				out = append(out, actingCase{host, hook, tool, "", true})
				for _, a := range tool.Acts {
					for _, c := range hook.ToolsFor(a) {
						out = append(out, actingCase{host, hook, tool, c.Name, true})
					}
				}
				if r, _ := hook.ToolFor("read"); r != nil && !slices.Contains(tool.Acts, r.Canonical) {
					out = append(out, actingCase{host, hook, tool, r.Name, false})
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no tool of the table acts with no counterpart")
	}
	return out
}

// TestActingToolWithNoCounterpartFailsAGuardClosed: a host's tool that runs
// commands or changes files and has no counterpart in the hook's dialect
// (TerminaI's manage_processes, Codex's write_stdin, Copilot's write_bash,
// Claude's and Qwen's notebook edits...) reaches a guard of that kind of
// action (a shell guard, a write or edit guard), or one of every tool, as a
// block with the reason, on every pair of dialects of the table: the guard
// would be shown a tool it does not know, or nothing, and let it run. A
// guard of another kind (a read guard) is not run, as before. On b20418e every call ran unguarded
// (the hook skipped: its matcher names no tool that stands for it; or shown
// the host's tool name, which a shell guard does not check).
func TestActingToolWithNoCounterpartFailsAGuardClosed(t *testing.T) {
	tbl := mappings.Default()
	for _, c := range actingCases(t, tbl) {
		ev, _ := c.host.EventFor("tool.before")
		if ev == nil {
			continue
		}
		name := c.host.Name + "/" + c.tool.Name + "→" + c.hook.Name + "/" + cmp.Or(c.matcher, "*")
		t.Run(name, func(t *testing.T) {
			tr, err := New(tbl, c.host.Name, c.hook.Name)
			if err != nil {
				t.Fatal(err)
			}
			if c.matcher != "" {
				if tr.Match, err = c.hook.ToolMatcher(c.matcher); err != nil {
					t.Fatal(err)
				}
			}
			// No operation: where the tool acts only on some (actsWhen),
			// a call that does not say which acts.
			payload := toolEvent(ev.Name, "/p", c.tool.Name, map[string]any{"command": "rm -rf ~", "path": "/p/.env"})
			res, err := tr.Event(payload)
			if !c.guards {
				if err != nil || !res.Skip {
					t.Fatalf("a %s hook on %s got %v, %+v; want it not run", c.hook.Agent, c.matcher, err, res)
				}
				return
			}
			want := c.host.Agent + " tool " + c.tool.Name + " "
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "has no "+c.hook.Agent+" counterpart; the guard cannot judge it") {
				t.Fatalf("got %v (skip %v); want the guard failed closed with %q… has no %s counterpart", err, res != nil && res.Skip, want, c.hook.Agent)
			}
		})
	}
}

// TestActsWhenOperation: TerminaI's manage_processes, file_operations and
// agent_control act on some operations only (process-manager.ts:746-790,
// file-ops.ts:171-185, agent-control.ts:135-170 at 4b816c7a, exact switches
// on the schema's enum): a Claude guard fails closed on each operation the
// row lists, and on a call whose operation is missing or not a string; an
// operation that runs and changes nothing (list, list_tree, status) is not
// shown to a Bash or Write guard, as before.
func TestActsWhenOperation(t *testing.T) {
	tbl := mappings.Default()
	inert := map[string]string{"manage_processes": "list", "file_operations": "list_tree", "agent_control": "status"}
	host, _ := tbl.Dialect("terminai")
	hook, _ := tbl.Dialect("claude")
	seen := 0
	for _, tool := range host.Tools {
		if len(tool.ActsWhen) == 0 {
			continue
		}
		seen++
		none, ok := inert[tool.Name]
		if !ok {
			t.Errorf("%s: actsWhen, and no operation of it that does nothing in this test", tool.Name)
			continue
		}
		matcher := "Bash"
		if slices.Contains(tool.Acts, "write") {
			matcher = "Write"
		}
		values := map[string]any{"missing": nil, "number": 1, "list": []any{none}, none: none}
		for _, v := range tool.ActsWhen["operation"] {
			values[v] = v
		}
		for name, v := range values {
			t.Run(tool.Name+"/"+name, func(t *testing.T) {
				tr, err := New(tbl, host.Name, hook.Name)
				if err != nil {
					t.Fatal(err)
				}
				if tr.Match, err = hook.ToolMatcher(matcher); err != nil {
					t.Fatal(err)
				}
				input := map[string]any{"command": "rm -rf ~", "path": ".env"}
				if v != nil {
					input["operation"] = v
				}
				res, err := tr.Event(toolEvent("BeforeTool", "/p", tool.Name, input))
				if name == none {
					if err != nil || !res.Skip {
						t.Fatalf("operation %s: got %v; want the %s guard not run", none, err, matcher)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), "the guard cannot judge it") {
					t.Fatalf("operation %v: got %v; want the guard failed closed", v, err)
				}
			})
		}
	}
	if seen == 0 {
		t.Fatal("no tool of the table has actsWhen")
	}
}
