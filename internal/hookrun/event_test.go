package hookrun

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

// TestBuildEventTool holds the tool of every host's built event to the
// host's own name for the action's tool: doctor --probe matches a hook's
// matcher against it and names it in its output. The probe's own builder
// read a "tool_name" field, which Copilot CLI, Pi, OpenCode and Kilo Code
// name otherwise, so it probed none of their hooks with a matcher.
func TestBuildEventTool(t *testing.T) {
	tbl := mappings.Default()
	proj := t.TempDir()
	for _, tc := range []struct {
		action    Action
		canonical string // the tool's canonical id
	}{
		{Action{Name: "shell", Command: "rm -rf /"}, "shell"},
		{Action{Name: "write", Path: ".env", Content: "K=1\n"}, "write"},
	} {
		built := 0
		for _, host := range tbl.Dialects {
			ev, err := BuildEvent(tbl, host, proj, tc.action)
			if err != nil || ev.Payload == nil {
				continue // the host has no such tool: covered by the translation's tests
			}
			built++
			if ev.Canonical != "tool.before" {
				t.Errorf("%s %s: event %s is %s, want tool.before", host.Name, tc.action.Name, ev.Name, ev.Canonical)
			}
			tool := host.Tool(ev.Tool)
			if tool == nil || tool.Canonical != tc.canonical && !slices.Contains(tool.Also, tc.canonical) {
				t.Errorf("%s %s: tool %q, want %s's tool for %s", host.Name, tc.action.Name, ev.Tool, host.Agent, tc.canonical)
			}
		}
		if built < 10 {
			t.Errorf("%s: built on %d hosts, want most of them", tc.action.Name, built)
		}
	}
}

// TestBuildEventOwnDialect holds an event written in the host's own
// dialect to the host's event as written: Claude Code sends permission_mode
// and the call's tool_use_id, which a translation into Claude's own dialect
// dropped (they mean nothing to another agent) and re-derived.
func TestBuildEventOwnDialect(t *testing.T) {
	tbl := mappings.Default()
	proj := t.TempDir()
	claude := tbl.MustDialect("claude")
	inline := `{"session_id":"s","cwd":"/p","permission_mode":"plan","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_01"}`
	for _, tc := range []struct {
		name   string
		action Action
		want   map[string]any // fields of the payload
	}{
		{"named", Action{Name: "shell", Command: "ls"}, map[string]any{"permission_mode": "default", "tool_use_id": "toolu_hookx_test", "cwd": proj,
			"tool_input": map[string]any{"command": "ls", "description": "hookx test"}}},
		{"inline", Action{Dialect: "claude", Payload: []byte(inline)}, map[string]any{"permission_mode": "plan", "tool_use_id": "toolu_01", "cwd": proj,
			"tool_input": map[string]any{"command": "ls"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := BuildEvent(tbl, claude, proj, tc.action)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(ev.Payload, &m); err != nil {
				t.Fatal(err)
			}
			got := map[string]any{}
			for k := range tc.want {
				got[k] = m[k]
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("payload (-want +got):\n%s", d)
			}
			if ev.Name != "PreToolUse" || ev.Tool != "Bash" {
				t.Errorf("event %s, tool %s; want PreToolUse, Bash", ev.Name, ev.Tool)
			}
		})
	}
}

// TestInlineEventCwd holds an inline event's cwd to the project's copy on
// every host, as a named event's: the author's cwd ("/p") reached the hook
// as written, and on Codex, which sets no project variable, wrap found the
// hook's project there (live: Codex ran the guard in the project and
// denied; the fast path's hook was not found and Codex let the call run).
func TestInlineEventCwd(t *testing.T) {
	tbl := mappings.Default()
	proj := t.TempDir()
	a := Action{Dialect: "gemini", Payload: []byte(`{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-22T16:47:36.498Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build"}}`)}
	for _, host := range []string{"codex", "claude", "gemini", "copilot"} {
		ev, err := BuildEvent(tbl, tbl.MustDialect(host), proj, a)
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		var m map[string]any
		if err := json.Unmarshal(ev.Payload, &m); err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		if m["cwd"] != proj {
			t.Errorf("%s: cwd %v, want the project's copy %s", host, m["cwd"], proj)
		}
	}
}

// TestBuildEventUnknown refuses an action with no name it knows, rather
// than build an empty event.
func TestBuildEventUnknown(t *testing.T) {
	tbl := mappings.Default()
	if _, err := BuildEvent(tbl, tbl.MustDialect("claude"), t.TempDir(), Action{Name: "read"}); err == nil {
		t.Error("no error for the unknown action read")
	}
}
