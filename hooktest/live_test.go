//go:build unix

package hooktest

import (
	"encoding/json"
	"strings"
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

// TestLiveNotRun holds the cases --live does not run, each with why: an
// ask (no user to ask headless), a prompt the agent cannot be given as
// written (empty, or read as a flag after -p), an inline event no model
// or user makes happen. None starts an agent (the live run here has none).
func TestLiveNotRun(t *testing.T) {
	tbl := mappings.Default()
	opts := Options{Table: tbl, Dir: t.TempDir(), Live: &Live{Hookx: "/nonexistent/hookx"}}
	hook := Hook{Command: "true", Dialect: "claude"}
	claude := tbl.MustDialect("claude")
	for _, tc := range []struct {
		name string
		c    Case
		want string
	}{
		{"ask", Case{Event: Event{Name: "shell", Command: "ls"}, Expect: Expect{Outcome: "ask"}}, "no user to ask"},
		{"empty prompt", Case{Event: Event{Name: "prompt", Prompt: " "}, Expect: Expect{Outcome: "allow"}}, "empty prompt"},
		{"flag prompt", Case{Event: Event{Name: "prompt", Prompt: "--dangerously-skip-permissions"}, Expect: Expect{Outcome: "deny"}}, "as a flag"},
		{"droid prompt", Case{Event: Event{Name: "prompt", Prompt: "hello"}, Expect: Expect{Outcome: "deny"}}, "droid exec"},
		{"inline read", Case{Event: Event{Dialect: "claude", Payload: json.RawMessage(`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/p/a"}}`)}, Expect: Expect{Outcome: "allow"}}, "none a model or user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Name = tc.name
			host := claude
			if tc.name == "droid prompt" {
				host = tbl.MustDialect("droid")
			}
			cell, err := (&liveRun{}).cell(tc.c, hook, host, opts)
			if err != nil {
				t.Fatal(err)
			}
			if cell.Ran || len(cell.Notes) != 1 || !strings.Contains(cell.Notes[0], "not run live: ") || !strings.Contains(cell.Notes[0], tc.want) {
				t.Errorf("cell ran %v, notes %q; want not run live, saying %q", cell.Ran, cell.Notes, tc.want)
			}
		})
	}
}
