package hooktest

import (
	"encoding/json"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// TestInlineEventCwd holds an inline event's cwd to the project's copy on
// every host, as a named event's: the author's cwd ("/p") reached the hook
// as written, and on Codex, which sets no project variable, wrap found the
// hook's project there (live: Codex ran the guard in the project and
// denied; the fast path's hook was not found and Codex let the call run).
func TestInlineEventCwd(t *testing.T) {
	tbl := mappings.Default()
	proj := t.TempDir()
	e := Event{Dialect: "gemini", Payload: json.RawMessage(`{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-22T16:47:36.498Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build"}}`)}
	for _, host := range []string{"codex", "claude", "gemini", "copilot"} {
		payload, _, _, _, err := buildEvent(e, tbl.MustDialect(host), proj, tbl)
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		var m map[string]any
		if err := json.Unmarshal(payload, &m); err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		if m["cwd"] != proj {
			t.Errorf("%s: cwd %v, want the project's copy %s", host, m["cwd"], proj)
		}
	}
}
