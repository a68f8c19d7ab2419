package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

// TestReadCline holds hookx's reader of a Cline hook to what Cline 3.0.65's
// runner does (evidence/cline-output.jsonc): cancel refuses the call and
// ends the task, the exit code and stderr count for nothing, a field of the
// wrong type drops the whole answer, the last HOOK_CONTROL line is the
// answer. Fails on 4db2ced, which has no cline dialect.
func TestReadCline(t *testing.T) {
	d, err := mappings.Default().Dialect("cline")
	if err != nil {
		t.Fatal(err)
	}
	pre := d.Event("PreToolUse")
	cases := []struct {
		name string
		out  Output
		want Verdict
	}{
		{"cancel", Output{Stdout: []byte(`{"cancel":true,"errorMessage":"no rm"}`)},
			Verdict{Block: true, Reason: "no rm", Stop: true, StopReason: "no rm"}},
		{"cancel, reason from context", Output{Stdout: []byte(`{"cancel":true,"context":"ctx"}`)},
			Verdict{Block: true, Reason: "ctx", Stop: true, StopReason: "ctx"}},
		{"exit 2 is nothing", Output{ExitCode: 2, Stderr: []byte("no rm")}, Verdict{}},
		{"exit 2 with Claude's block", Output{ExitCode: 2, Stdout: []byte(`{"decision":"block","reason":"x"}`)}, Verdict{}},
		{"context", Output{Stdout: []byte(`{"context":"note"}`)}, Verdict{Context: []string{"note"}}},
		{"contextModification", Output{Stdout: []byte(`{"contextModification":"note"}`)}, Verdict{Context: []string{"note"}}},
		{"errorMessage without cancel is context", Output{Stdout: []byte(`{"errorMessage":"why"}`)}, Verdict{Context: []string{"why"}}},
		{"wrong type drops it all", Output{Stdout: []byte(`{"cancel":"true","context":"x"}`)}, Verdict{}},
		{"last control line", Output{Stdout: []byte("log\nHOOK_CONTROL\t{\"context\":\"a\"}\nHOOK_CONTROL\t{\"cancel\":true,\"errorMessage\":\"b\"}\n")},
			Verdict{Block: true, Reason: "b", Stop: true, StopReason: "b"}},
		{"overrideInput", Output{Stdout: []byte(`{"overrideInput":{"commands":["echo hi"]}}`)},
			Verdict{NewInput: map[string]any{"commands": []any{"echo hi"}}}},
		{"overrideInput not an object", Output{Stdout: []byte(`{"overrideInput":"rm -rf /"}`)},
			Verdict{Block: true, Reason: "the hook replaced the tool's input with something that is not an object"}},
		{"not JSON fails closed", Output{Stdout: []byte(`cancel`)},
			Verdict{Block: true, Reason: "hook produced invalid control JSON", Failure: "the hook's output is not JSON (Cline: invalid control JSON)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var fs findings
			got := readCline(pre, c.out, &fs)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClinePayload: a Cline PreToolUse payload reaches a Claude hook as
// Claude's Bash call, whatever form of run_commands' input the model used
// (Cline's schema takes a list, one string, or a bare string); and a Claude
// payload reaches a Cline hook with the input in tool_call.input and every
// parameter a string in preToolUse.parameters, as Cline sends it
// (core@707599). Fails on 4db2ced, which has no cline dialect.
func TestClinePayload(t *testing.T) {
	envelope := `{"clineVersion":"3.0.65","hookName":"tool_call","timestamp":"2026-11-27T10:00:00.000Z","taskId":"t1","workspaceRoots":["/p"],"userId":"u","agent_id":"a","parent_agent_id":null,"iteration":1,"tool_call":{"id":"c1","name":"run_commands","input":INPUT},"preToolUse":{"toolName":"run_commands","parameters":{}}}`
	for _, c := range []struct{ input, want string }{
		{`{"commands":["rm -rf /x"]}`, "rm -rf /x"},
		{`{"commands":["ls","rm -rf /x"]}`, "ls\nrm -rf /x"},
		{`{"commands":"rm -rf /x"}`, "rm -rf /x"},
		{`{"command":"rm -rf /x"}`, "rm -rf /x"},
		{`"rm -rf /x"`, "rm -rf /x"},
		{`["rm -rf /x"]`, "rm -rf /x"},
	} {
		tr := newTr(t, "cline", "claude")
		res, err := tr.Event([]byte(strings.Replace(envelope, "INPUT", c.input, 1)))
		if err != nil {
			t.Fatalf("%s: %v", c.input, err)
		}
		var got struct {
			Event string         `json:"hook_event_name"`
			Tool  string         `json:"tool_name"`
			Input map[string]any `json:"tool_input"`
			Cwd   string         `json:"cwd"`
		}
		if err := json.Unmarshal(res.Payload, &got); err != nil {
			t.Fatal(err)
		}
		if got.Event != "PreToolUse" || got.Tool != "Bash" || got.Input["command"] != c.want || got.Cwd != "/p" {
			t.Errorf("%s: got %s, want Bash with command %q in /p", c.input, res.Payload, c.want)
		}
	}

	tr := newTr(t, "claude", "cline")
	res, err := tr.Event([]byte(`{"hook_event_name":"PreToolUse","session_id":"s1","cwd":"/p","tool_name":"Bash","tool_input":{"command":"rm -rf /x"},"tool_use_id":"tu1"}`))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(res.Payload, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"hookName":       "tool_call",
		"taskId":         "s1",
		"workspaceRoots": []any{"/p"},
		"tool_call":      map[string]any{"name": "run_commands", "input": map[string]any{"commands": []any{"rm -rf /x"}}},
		"preToolUse":     map[string]any{"toolName": "run_commands", "parameters": map[string]any{"commands": `["rm -rf /x"]`}},
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			delete(got, k)
		}
	}
	if call, ok := got["tool_call"].(map[string]any); ok {
		if id, _ := call["id"].(string); id == "" {
			t.Errorf("tool_call.id is empty: %s", res.Payload)
		}
		delete(call, "id")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Cline payload (-want +got):\n%s\n%s", diff, res.Payload)
	}
}

// TestClineHostAnswer: a guard's deny reaches Cline as cancel (Cline reads
// no exit code: exit 2 would let the command run), and context as context.
// Fails on 4db2ced, which has no cline dialect.
func TestClineHostAnswer(t *testing.T) {
	for _, c := range []struct {
		from, event string
		out         Output
		want        string
	}{
		{"claude", "PreToolUse", Output{ExitCode: 2, Stderr: []byte("no rm")}, `{"cancel":true,"errorMessage":"no rm"}`},
		{"gemini", "BeforeTool", Output{Stdout: []byte(`{"decision":"deny","reason":"no rm"}`)}, `{"cancel":true,"errorMessage":"no rm"}`},
		{"codex", "PreToolUse", Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`)}, `{"cancel":true,"errorMessage":"no rm"}`},
		{"claude", "PreToolUse", Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"note"}}`)}, `{"context":"note"}`},
	} {
		tr := newTr(t, c.from, "cline")
		got, _ := tr.Result(ResultContext{HookEvent: c.event, HostEvent: "PreToolUse"}, c.out)
		if string(got.Stdout) != c.want || got.ExitCode != 0 {
			t.Errorf("%s %s %+v: Cline gets stdout %s exit %d, want %s", c.from, c.event, c.out, got.Stdout, got.ExitCode, c.want)
		}
	}
}

// TestClineEditorIsAWrite: Cline's editor writes new_text as the whole file
// when the file does not exist, with or without old_text (r4,
// core@213001), so a Claude Write guard under Cline checks new_text as its
// content; only insert_line makes it an insert, with no content. And a
// Claude Write reaches a Cline hook as the editor call Cline would send to
// create the file, its content as new_text. Fails on i30-cline3 (a46bf16),
// where the Write guard got no content and the Cline hook no new_text.
func TestClineEditorIsAWrite(t *testing.T) {
	envelope := `{"clineVersion":"3.0.65","hookName":"tool_call","taskId":"t1","workspaceRoots":["/p"],"tool_call":{"id":"c1","name":"editor","input":INPUT},"preToolUse":{"toolName":"editor","parameters":{}}}`
	for _, c := range []struct {
		input   string
		content any // nil: no content
	}{
		{`{"path":"/p/.env","new_text":"API_KEY=1"}`, "API_KEY=1"},
		{`{"path":"/p/.env","old_text":null,"new_text":"API_KEY=1"}`, "API_KEY=1"},
		{`{"path":"/p/.env","old_text":"x","new_text":"API_KEY=1"}`, "API_KEY=1"},
		{`{"path":"/p/.env","new_text":"API_KEY=1","insert_line":null}`, "API_KEY=1"},
		{`{"path":"/p/.env","new_text":"API_KEY=1","insert_line":2}`, nil},
	} {
		tr := newTr(t, "cline", "claude")
		m, err := tr.To.ToolMatcher("Write")
		if err != nil {
			t.Fatal(err)
		}
		tr.Match = m
		res, err := tr.Event([]byte(strings.Replace(envelope, "INPUT", c.input, 1)))
		if err != nil {
			t.Fatalf("%s: %v", c.input, err)
		}
		var got struct {
			Tool  string         `json:"tool_name"`
			Input map[string]any `json:"tool_input"`
		}
		if err := json.Unmarshal(res.Payload, &got); err != nil {
			t.Fatal(err)
		}
		if got.Tool != "Write" || got.Input["file_path"] != "/p/.env" || got.Input["content"] != c.content {
			t.Errorf("%s: a Claude Write guard got %s, want Write of /p/.env with content %v", c.input, res.Payload, c.content)
		}
	}

	tr := newTr(t, "claude", "cline")
	res, err := tr.Event([]byte(`{"hook_event_name":"PreToolUse","session_id":"s1","cwd":"/p","tool_name":"Write","tool_input":{"file_path":"/p/.env","content":"API_KEY=1"},"tool_use_id":"tu1"}`))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Call struct {
			Name  string         `json:"name"`
			Input map[string]any `json:"input"`
		} `json:"tool_call"`
		Pre struct {
			Parameters map[string]any `json:"parameters"`
		} `json:"preToolUse"`
	}
	if err := json.Unmarshal(res.Payload, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"path": "/p/.env", "new_text": "API_KEY=1"}
	if got.Call.Name != "editor" || !cmp.Equal(got.Call.Input, want) || !cmp.Equal(got.Pre.Parameters, want) {
		t.Errorf("a Cline hook got %s, want editor with input and parameters %v", res.Payload, want)
	}
}
