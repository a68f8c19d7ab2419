package translate

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// deepArg is a tool argument nested past encoding/json's 10,000 levels, as
// a model may choose one; the agents' JSON.parse reads it.
var deepArg = strings.Repeat(`{"a":[`, 5001) + `"x<&>"` + strings.Repeat(`]}`, 5001)

// The hook gets a deep argument exactly as its agent would send it (an MCP
// tool's arguments pass unchanged). On b20418e the event did not translate
// ("exceeded max depth").
func TestDeepToolInputReachesTheHook(t *testing.T) {
	for _, c := range []struct{ from, to, payload string }{
		{"claude", "gemini", `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"mcp__tiny__echo","tool_input":{"text":` + deepArg + `}}`},
		{"gemini", "claude", `{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"mcp_tiny_echo","tool_input":{"text":` + deepArg + `},"mcp_context":{"server_name":"tiny","tool_name":"echo"}}`},
		{"copilot", "claude", `{"sessionId":"s","cwd":"/w","toolName":"tiny-echo","toolArgs":{"text":` + deepArg + `}}`},
		{"gemini", "codex", `{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","description":` + deepArg + `}}`},
	} {
		t.Run(c.from+"-"+c.to, func(t *testing.T) {
			tr := newTr(t, c.from, c.to)
			if c.from == "copilot" {
				tr.HostEvent = "preToolUse"
			}
			res, err := tr.Event([]byte(c.payload))
			if err != nil {
				t.Fatal(err)
			}
			if res.Skip {
				t.Fatalf("skipped: %s", res.SkipReason)
			}
			if !mappings.ValidJSON(res.Payload) {
				t.Fatalf("the hook's payload is not JSON: %.300s", res.Payload)
			}
			if c.to != "codex" && !bytes.Contains(res.Payload, []byte(deepArg)) {
				t.Errorf("the hook's payload lost the argument: %.300s…", res.Payload)
			}
		})
	}
}

// A hook's rewrite of a deep tool call is carried, with the host's own
// argument kept as the model sent it; on b20418e the call was blocked
// ("the host's payload has no tool to rewrite").
func TestRewriteOfADeepToolCall(t *testing.T) {
	tr := newTr(t, "gemini", "claude")
	host := `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf x","extra":` + deepArg + `}}`
	out, fs := tr.Result(ResultContext{HookEvent: "BeforeTool", HostEvent: "PreToolUse", HostPayload: []byte(host)},
		Output{Stdout: []byte(`{"hookSpecificOutput":{"tool_input":{"command":"echo safe"}}}`)})
	want := `"updatedInput":{"command":"echo safe","extra":` + deepArg + `}`
	if !bytes.Contains(out.Stdout, []byte(want)) || !mappings.ValidJSON(out.Stdout) {
		t.Errorf("got %.400s…\nfindings: %v", out.Stdout, fs)
	}
}
