//go:build unix

package hooktest

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

// TestLiveEvent holds the inline events hookx test --live runs: each is
// the named event it is (a shell call, a write, a prompt, a stop), read by
// translating it to Claude Code's payload; one no model or user can make
// happen is refused with why, never run as something else.
func TestLiveEvent(t *testing.T) {
	opts := Options{Table: mappings.Default(), Dir: t.TempDir()}
	for _, tc := range []struct {
		name, dialect, payload string
		want                   Event
		wantErr                bool
	}{
		{"gemini shell", "gemini", `{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-22T16:47:36.106Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf 'a b'; x","description":"d"}}`,
			Event{Name: "shell", Command: "rm -rf 'a b'; x"}, false},
		{"claude write", "claude", `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/p/.env","content":"K=1\n"}}`,
			Event{Name: "write", Path: ".env", Content: "K=1\n"}, false},
		{"write outside the project", "claude", `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/p/../etc/x","content":"K=1\n"}}`,
			Event{}, true},
		{"gemini prompt", "gemini", `{"session_id":"s","cwd":"/p","hook_event_name":"BeforeAgent","timestamp":"2026-11-22T16:47:36.106Z","prompt":"my key is HXTEST-SECRET"}`,
			Event{Name: "prompt", Prompt: "my key is HXTEST-SECRET"}, false},
		{"claude stop", "claude", `{"session_id":"s","cwd":"/p","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"all done"}`,
			Event{Name: "stop", Message: "all done"}, false},
		{"claude read", "claude", `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/p/a"}}`,
			Event{}, true},
		{"shell without a command", "claude", `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":7}}`,
			Event{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := liveEvent(Event{Dialect: tc.dialect, Payload: json.RawMessage(tc.payload)}, opts)
			if (err != nil) != tc.wantErr {
				t.Fatalf("liveEvent: %v, want error %v", err, tc.wantErr)
			}
			if err != nil {
				t.Log(err)
				return
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("liveEvent (-want +got):\n%s", d)
			}
		})
	}
}
