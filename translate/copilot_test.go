package translate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

// The copilot family's traps, both ways: what Copilot CLI 1.0.102 does with
// a hook's answer (seen live, 2026-11-23) against what the hook's own agent
// would do.

// copilotResult runs a hook's output written for hook through to host.
func copilotResult(t *testing.T, hook, host, hookEv, hostEv string, out Output) (string, []Finding) {
	t.Helper()
	tr := newTr(t, hook, host)
	payload := `{"hook_event_name":"` + hostEv + `","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	if tr.To.Payload.Own() {
		payload = `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":{"command":"rm -rf /","description":"d"}}`
	}
	res, fs := tr.Result(ResultContext{HookEvent: hookEv, HostEvent: hostEv, HostPayload: []byte(payload)}, out)
	if res.ExitCode != 0 {
		t.Errorf("%s hook under %s: exit %d, want 0 (hookx always answers with exit 0)", hook, host, res.ExitCode)
	}
	return string(res.Stdout), fs
}

// blocks reports whether host blocks the tool call on this answer, by the
// host's own rules (read back with its own reader).
func blocks(t *testing.T, host, event, stdout string) (bool, string) {
	t.Helper()
	d := mappings.Default().MustDialect(host)
	v, _, err := ReadOutput(d, event, Output{Stdout: []byte(stdout)})
	if err != nil {
		t.Fatal(err)
	}
	return v.Block, v.Reason
}

// A Claude hook's exit 1 is a non-blocking error in Claude Code; Copilot
// denies on any non-zero exit, so hookx must not pass it on as one.
func TestClaudeExitOneIsNotADenyUnderCopilot(t *testing.T) {
	for _, code := range []int{1, 3, 126, 127} {
		got, _ := copilotResult(t, "claude", "copilot", "PreToolUse", "preToolUse", Output{ExitCode: code, Stderr: []byte("oops\n")})
		if strings.Contains(got, "deny") {
			t.Errorf("Claude exit %d under Copilot: %s, want no deny (Claude Code goes ahead)", code, got)
		}
	}
}

// A Copilot hook's non-zero exit denies a tool call in Copilot: under any
// other host it must stay a deny, with a reason.
func TestCopilotNonZeroExitStaysADenyUnderEveryHost(t *testing.T) {
	for _, host := range mappings.Default().Dialects {
		if host.Name == "copilot" {
			continue
		}
		hostEv, _ := host.EventFor("tool.before")
		for _, code := range []int{1, 2, 3, 127} {
			got, _ := copilotResult(t, "copilot", host.Name, "preToolUse", hostEv.Name, Output{ExitCode: code})
			if ok, reason := blocks(t, host.Name, hostEv.Name, got); !ok || reason == "" {
				t.Errorf("Copilot exit %d under %s: %s, want a deny with a reason", code, host.Name, got)
			}
		}
	}
}

// Copilot drops a hook's exit-2 stderr: the reason of a Claude exit-2 block
// must reach Copilot in JSON, which it passes to the model.
func TestClaudeExitTwoReasonTravelsInJSONUnderCopilot(t *testing.T) {
	got, _ := copilotResult(t, "claude", "copilot", "PreToolUse", "preToolUse", Output{ExitCode: 2, Stderr: []byte("rm -rf is not allowed\n")})
	want := `{"permissionDecision":"deny","permissionDecisionReason":"rm -rf is not allowed"}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// Every deny form of every dialect is a deny Copilot honours (a top-level
// permissionDecision), and Copilot's deny is a deny everywhere.
func TestDenyInDenyOutWithCopilot(t *testing.T) {
	denies := map[string][]Output{
		"claude": {
			{ExitCode: 2, Stderr: []byte("no")},
			{Stdout: []byte(`{"decision":"block","reason":"no"}`)},
			{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`)},
		},
		"gemini": {
			{Stdout: []byte(`{"decision":"deny","reason":"no"}`)},
			{ExitCode: 3, Stderr: []byte("no")},
		},
		"copilot": {
			{Stdout: []byte(`{"permissionDecision":"deny","permissionDecisionReason":"no"}`)},
			{ExitCode: 2},
		},
	}
	tab := mappings.Default()
	for hook, outs := range denies {
		for _, host := range tab.Dialects {
			if host.Name == hook || (hook != "copilot" && host.Name != "copilot") {
				continue
			}
			hookEv, _ := tab.MustDialect(hook).EventFor("tool.before")
			hostEv, _ := host.EventFor("tool.before")
			for _, out := range outs {
				got, _ := copilotResult(t, hook, host.Name, hookEv.Name, hostEv.Name, out)
				if ok, _ := blocks(t, host.Name, hostEv.Name, got); !ok {
					t.Errorf("%s deny %q/%q under %s: %s, not a deny there", hook, out.Stdout, out.Stderr, host.Name, got)
				}
			}
		}
	}
}

// Copilot reads only a top-level permissionDecision on preToolUse: a
// Copilot hook's hookSpecificOutput or decision "block" lets the tool run
// in Copilot, so it does elsewhere (the hook's own agent is the judge).
func TestCopilotHookIgnoredFormsStayIgnored(t *testing.T) {
	for _, out := range []string{
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`,
		`{"decision":"block","reason":"no"}`,
		`{"decision":"deny","reason":"no"}`,
		`plain text`,
		`{not json`,
	} {
		got, _ := copilotResult(t, "copilot", "claude", "preToolUse", "PreToolUse", Output{Stdout: []byte(out)})
		if ok, _ := blocks(t, "claude", "PreToolUse", got); ok {
			t.Errorf("Copilot hook printing %s: %s under Claude, a deny; Copilot lets the tool run", out, got)
		}
	}
}

// Never grant more: an allow skips Copilot's approval prompt, so no other
// dialect's answer becomes one; an ask stays an ask.
func TestNothingGrantedOnCopilot(t *testing.T) {
	for _, out := range []string{
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`,
		`{"decision":"approve"}`,
	} {
		got, _ := copilotResult(t, "claude", "copilot", "PreToolUse", "preToolUse", Output{Stdout: []byte(out)})
		if strings.Contains(got, "allow") {
			t.Errorf("Claude %s under Copilot: %s grants", out, got)
		}
	}
	got, _ := copilotResult(t, "claude", "copilot", "PreToolUse", "preToolUse",
		Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`)})
	if want := `{"permissionDecision":"ask","permissionDecisionReason":"sure?"}`; got != want {
		t.Errorf("ask under Copilot: %s, want %s", got, want)
	}
}

// A block on the other events is Copilot's decision "block" where it reads
// one, and the reason as context where it reads none.
func TestBlocksOnCopilotEvents(t *testing.T) {
	for _, c := range []struct {
		hook, hookEv, hostEv string
		out                  Output
		want                 string
	}{
		{"claude", "Stop", "agentStop", Output{Stdout: []byte(`{"decision":"block","reason":"run the tests"}`)}, `{"decision":"block","reason":"run the tests"}`},
		{"claude", "UserPromptSubmit", "userPromptSubmitted", Output{ExitCode: 2, Stderr: []byte("no secrets")}, `{"decision":"block","reason":"no secrets"}`},
		{"claude", "PostToolUse", "postToolUse", Output{Stdout: []byte(`{"decision":"block","reason":"lint failed"}`)}, `{"additionalContext":"lint failed"}`},
		// A Gemini AfterTool deny hides the output: Copilot's decision
		// "block" replaces it with "Tool result blocked: <reason>" (live).
		{"gemini", "AfterTool", "postToolUse", Output{Stdout: []byte(`{"decision":"deny","reason":"secret in output"}`)},
			`{"decision":"block","reason":"secret in output"}`},
		{"claude", "SessionStart", "sessionStart", Output{Stdout: []byte("remember this\n")}, `{"additionalContext":"remember this"}`},
	} {
		got, _ := copilotResult(t, c.hook, "copilot", c.hookEv, c.hostEv, c.out)
		if got != c.want {
			t.Errorf("%s %s under Copilot %s: %s, want %s", c.hook, c.hookEv, c.hostEv, got, c.want)
		}
	}
	// And back: Copilot's agentStop block continues Claude's turn.
	got, _ := copilotResult(t, "copilot", "claude", "agentStop", "Stop", Output{Stdout: []byte(`{"decision":"block","reason":"again"}`)})
	if want := `{"decision":"block","reason":"again"}`; got != want {
		t.Errorf("Copilot agentStop under Claude: %s, want %s", got, want)
	}
}

func readCopilotPayload(t *testing.T, event string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "copilot", event+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Each captured Copilot payload names no event: its fields tell which it
// is.
func TestCopilotHostEventFromFields(t *testing.T) {
	d := mappings.Default().MustDialect("copilot")
	files, _ := filepath.Glob("testdata/copilot/*.json")
	if len(files) < 6 {
		t.Fatalf("%d captured payloads, want 6", len(files))
	}
	for _, f := range files {
		want := strings.TrimSuffix(filepath.Base(f), ".json")
		got, err := HostEvent(d, readCopilotPayload(t, want), "")
		if err != nil || got != want {
			t.Errorf("%s: HostEvent %q, %v; want %q", f, got, err, want)
		}
		if host, err := DetectHost(mappings.Default(), readCopilotPayload(t, want), func(string) string { return "" }); host != "copilot" {
			t.Errorf("%s: DetectHost %q, %v; want copilot", f, host, err)
		}
	}
	// --host-event decides; a payload that fits no event is an error.
	if got, _ := HostEvent(d, []byte(`{"sessionId":"s","toolName":"bash","toolArgs":{}}`), "permissionRequest"); got != "permissionRequest" {
		t.Errorf("--host-event permissionRequest: got %q", got)
	}
	if _, err := HostEvent(d, []byte(`{"sessionId":"s"}`), ""); err == nil {
		t.Error("a payload with no event's fields: no error")
	}
}

// A Claude hook under Copilot sees what Claude Code would send: Claude's
// tool and argument names, absolute paths, snake_case fields; a Copilot hook
// under Claude sees Copilot's camelCase form, with no event name.
func TestCopilotPayloadBothWays(t *testing.T) {
	tr := newTr(t, "copilot", "claude")
	res, err := tr.Event([]byte(`{"sessionId":"s1","timestamp":1795459168198,"cwd":"/p","toolName":"edit","toolArgs":{"path":"a.go","old_str":"x","new_str":"y"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(res.Payload, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": "/p", "tool_name": "Edit",
		"tool_input": map[string]any{"file_path": "/p/a.go", "old_string": "x", "new_string": "y"}}
	delete(got, "tool_use_id") // derived
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Copilot edit to Claude (-want +got):\n%s", diff)
	}

	back := newTr(t, "claude", "copilot")
	res, err = back.Event([]byte(`{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/p/b.txt","content":"hi"},"tool_use_id":"toolu_1"}`))
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	if err := json.Unmarshal(res.Payload, &got); err != nil {
		t.Fatal(err)
	}
	if res.Event != "preToolUse" {
		t.Errorf("event %q, want preToolUse", res.Event)
	}
	if _, ok := got["hook_event_name"]; ok {
		t.Errorf("a Copilot hook's payload names its event: %s", res.Payload)
	}
	if _, ok := got["timestamp"].(float64); !ok {
		t.Errorf("timestamp %v, want a number of milliseconds", got["timestamp"])
	}
	if got["toolName"] != "create" || got["sessionId"] != "s1" {
		t.Errorf("payload %s, want toolName create, sessionId s1", res.Payload)
	}
	if diff := cmp.Diff(map[string]any{"path": "/p/b.txt", "file_text": "hi"}, got["toolArgs"]); diff != "" {
		t.Errorf("toolArgs (-want +got):\n%s", diff)
	}
}

// Every captured Copilot payload goes to every other dialect and back to
// the same event and tool.
func TestCopilotCapturedPayloadsRoundTrip(t *testing.T) {
	tab := mappings.Default()
	files, _ := filepath.Glob("testdata/copilot/*.json")
	for _, f := range files {
		event := strings.TrimSuffix(filepath.Base(f), ".json")
		for _, other := range tab.Dialects {
			if other.Name == "copilot" {
				continue
			}
			res, err := newTr(t, "copilot", other.Name).Event(readCopilotPayload(t, event))
			if err != nil {
				t.Errorf("%s to %s: %v", event, other.Name, err)
				continue
			}
			if res.Skip {
				continue
			}
			back, err := newTr(t, other.Name, "copilot").Event(res.Payload)
			if err != nil {
				t.Errorf("%s to %s and back: %v", event, other.Name, err)
				continue
			}
			if back.Event != event {
				t.Errorf("%s to %s (%s) and back: %s", event, other.Name, res.Event, back.Event)
			}
		}
	}
}
