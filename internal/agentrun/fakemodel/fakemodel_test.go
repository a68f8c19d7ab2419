package fakemodel

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func post(t *testing.T, url, body string) (string, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Header.Get("Content-Type"), string(b)
}

func TestGemini(t *testing.T) {
	f := NewGemini(Script{Steps: []Step{
		Tool("run_shell_command", map[string]any{"command": "echo hi"}),
		Say("second"),
	}, MaxMain: 3})
	defer f.Close()
	tools := `"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]`
	tests := []struct {
		name, path, body string
		wantType         string
		wantIn           string
	}{
		{"router", "/v1beta/models/flash-lite:generateContent", `{"contents":[{"role":"user","parts":[{"text":"x"}]}]}`, "application/json", `complexity_score`},
		{"step 0", "/v1beta/models/m:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"x"}]}],` + tools + `}`, "text/event-stream", `data: {"candidates":[{"content":{"parts":[{"functionCall":{"args":{"command":"echo hi"},"name":"run_shell_command"}}]`},
		{"step 1", "/v1beta/models/m:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"x"}]},{"role":"model","parts":[{"functionCall":{}}]},{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"hi"}}}]}],` + tools + `}`, "text/event-stream", `"text":"second"`},
		{"past the script", "/v1beta/models/m:generateContent", `{"contents":[{"role":"model"},{"role":"model"}],` + tools + `}`, "application/json", `"text":"Done."`},
		{"count", "/v1beta/models/m:countTokens", `{}`, "application/json", `"totalTokens":10`},
		{"unknown", "/v1beta/other", ``, "application/json", `NOT_FOUND`},
	}
	for _, tt := range tests {
		ct, body := post(t, f.URL+tt.path, tt.body)
		if ct != tt.wantType || !strings.Contains(body, tt.wantIn) {
			t.Errorf("%s: got %s %s, want %s containing %s", tt.name, ct, body, tt.wantType, tt.wantIn)
		}
	}
	if got := len(f.Main()); got != 3 {
		t.Errorf("main requests = %d, want 3", got)
	}
	got := f.Main()[1].ToolResults()
	want := []ToolResult{{Name: "run_shell_command", Text: `{"output":"hi"}`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ToolResults (-want +got):\n%s", diff)
	}
	select {
	case <-f.Exceeded():
		t.Error("Exceeded closed after 3 of MaxMain 3")
	default:
	}
	post(t, f.URL+"/v1beta/models/m:generateContent", `{`+tools+`}`)
	select {
	case <-f.Exceeded():
	default:
		t.Error("Exceeded not closed after 4 of MaxMain 3")
	}
}

func TestAnthropic(t *testing.T) {
	f := NewAnthropic(Script{Steps: []Step{
		Tool("Bash", map[string]any{"command": "echo hi"}),
	}})
	defer f.Close()
	tools := `"tools":[{"name":"Bash"}]`
	tests := []struct {
		name, path, body string
		want             []string
	}{
		{"stream tool", "/v1/messages?beta=true", `{"stream":true,"model":"m","messages":[{"role":"user","content":"x"}],` + tools + `}`, []string{
			"event: message_start\n", `"content_block":{"id":"toolu_fake_0_0","input":{},"name":"Bash","type":"tool_use"}`,
			`"partial_json":"{\"command\":\"echo hi\"}"`, `"stop_reason":"tool_use"`, "event: message_stop\n",
		}},
		{"json final", "/v1/messages", `{"model":"m","messages":[{"role":"user","content":"x"},{"role":"assistant","content":[]},{"role":"user","content":[{"type":"tool_result","content":[{"type":"text","text":"hi"}],"is_error":true}]}],` + tools + `}`, []string{
			`"text":"Done."`, `"stop_reason":"end_turn"`,
		}},
		{"no tools", "/v1/messages", `{"model":"m","messages":[]}`, []string{`"text":"ok"`}},
		{"count", "/v1/messages/count_tokens", `{}`, []string{`"input_tokens":10`}},
	}
	for _, tt := range tests {
		_, body := post(t, f.URL+tt.path, tt.body)
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: body %s\nlacks %s", tt.name, body, w)
			}
		}
	}
	got := f.LastMain().ToolResults()
	want := []ToolResult{{Text: "hi", IsError: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ToolResults (-want +got):\n%s", diff)
	}
	if c := f.LastMain().Conversation(); !strings.Contains(c, "hi") {
		t.Errorf("Conversation %q lacks the tool result", c)
	}
}

// A step with text and calls says the text first, then calls the tools, in
// both APIs: what a model that explains before acting sends.
func TestTextBeforeCall(t *testing.T) {
	step := Step{Text: "INTRO", Calls: []Call{{Name: "run_shell_command", Args: map[string]any{"command": "x"}}}}
	g := NewGemini(Script{Steps: []Step{step}})
	defer g.Close()
	_, body := post(t, g.URL+"/v1beta/models/m:generateContent", `{"contents":[{"role":"user","parts":[{"text":"x"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`)
	if i, j := strings.Index(body, `"text":"INTRO"`), strings.Index(body, `"functionCall"`); i < 0 || j < 0 || i > j {
		t.Errorf("gemini: want the text part then the call, got %s", body)
	}
	a := NewAnthropic(Script{Steps: []Step{step}})
	defer a.Close()
	_, body = post(t, a.URL+"/v1/messages", `{"messages":[{"role":"user","content":"x"}],"tools":[{"name":"run_shell_command"}]}`)
	if i, j := strings.Index(body, `"text":"INTRO"`), strings.Index(body, `"tool_use"`); i < 0 || j < 0 || i > j || !strings.Contains(body, `"stop_reason":"tool_use"`) {
		t.Errorf("anthropic: want a text block then a tool_use, stop_reason tool_use, got %s", body)
	}
}

func TestOpenAIChat(t *testing.T) {
	f := NewOpenAI(Script{Steps: []Step{
		Tool("bash", map[string]any{"command": "echo hi", "description": "d"}),
	}, Quote: true})
	defer f.Close()
	tools := `"tools":[{"type":"function","function":{"name":"bash"}}]`
	tests := []struct {
		name, body string
		want       []string
	}{
		{"stream tool", `{"stream":true,"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"x"}],` + tools + `}`, []string{
			`data: {"choices":[{"delta":{"content":"","role":"assistant"}`,
			`"tool_calls":[{"function":{"arguments":"{\"command\":\"echo hi\",\"description\":\"d\"}","name":"bash"},"id":"call_fake_0_0","index":0,"type":"function"}]`,
			`"finish_reason":"tool_calls"`, `"usage":{`, "data: [DONE]\n\n",
		}},
		{"json final quotes the result", `{"model":"m","messages":[{"role":"user","content":"x"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_fake_0_0","type":"function","function":{"name":"bash","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_fake_0_0","content":"HOOK SAID NO"}],` + tools + `}`, []string{
			`"object":"chat.completion"`, `"content":"Done. The tool said: HOOK SAID NO"`, `"finish_reason":"stop"`,
		}},
		{"no tools", `{"model":"m","messages":[{"role":"user","content":"title?"}]}`, []string{`"content":"ok"`}},
	}
	for _, tt := range tests {
		_, body := post(t, f.URL+"/v1/chat/completions", tt.body)
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: body %s\nlacks %s", tt.name, body, w)
			}
		}
	}
	if got := len(f.Main()); got != 2 {
		t.Errorf("main requests = %d, want 2", got)
	}
	want := []ToolResult{{Name: "bash", Text: "HOOK SAID NO"}}
	if diff := cmp.Diff(want, f.LastMain().ToolResults()); diff != "" {
		t.Errorf("ToolResults (-want +got):\n%s", diff)
	}
}

func TestOpenAIResponses(t *testing.T) {
	f := NewOpenAI(Script{Steps: []Step{
		Tool("exec_command", map[string]any{"cmd": "echo hi"}),
	}, Quote: true})
	defer f.Close()
	tools := `"tools":[{"type":"function","name":"exec_command"}]`
	_, body := post(t, f.URL+"/v1/responses", `{"model":"m","stream":true,"instructions":"be good","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"x"}]}],`+tools+`}`)
	for _, w := range []string{
		"event: response.created\n",
		`"item":{"arguments":"{\"cmd\":\"echo hi\"}","call_id":"call_fake_0_0","id":"fc_fake_0_0","name":"exec_command","status":"completed","type":"function_call"}`,
		"event: response.output_item.done\n", "event: response.completed\n", `"usage":{`,
	} {
		if !strings.Contains(body, w) {
			t.Errorf("turn 0: body %s\nlacks %s", body, w)
		}
	}
	_, body = post(t, f.URL+"/v1/responses", `{"model":"m","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"x"}]},`+
		`{"type":"reasoning","summary":[]},{"type":"function_call","call_id":"call_fake_0_0","name":"exec_command","arguments":"{}"},`+
		`{"type":"function_call_output","call_id":"call_fake_0_0","output":"Command blocked by PreToolUse hook: NO"}],`+tools+`}`)
	for _, w := range []string{`"delta":"Done. The tool said: Command blocked by PreToolUse hook: NO"`, `"type":"output_text"`} {
		if !strings.Contains(body, w) {
			t.Errorf("turn 1: body %s\nlacks %s", body, w)
		}
	}
	last := f.LastMain()
	if last.Turn != 1 {
		t.Errorf("turn = %d, want 1 (reasoning and call are one model turn)", last.Turn)
	}
	want := []ToolResult{{Name: "exec_command", Text: "Command blocked by PreToolUse hook: NO"}}
	if diff := cmp.Diff(want, last.ToolResults()); diff != "" {
		t.Errorf("ToolResults (-want +got):\n%s", diff)
	}
	if !strings.Contains(last.AllText(), "be good") && !strings.Contains(f.Main()[0].AllText(), "be good") {
		t.Errorf("AllText lacks the instructions")
	}
}

// A Fail step answers a main request of either OpenAI API with that HTTP
// status and an OpenAI error object carrying its text; the request is still
// recorded as a main request, and the next turn's step follows.
func TestOpenAIFailStep(t *testing.T) {
	for _, path := range []string{"/v1/chat/completions", "/v1/responses"} {
		f := NewOpenAI(Script{Steps: []Step{{Fail: http.StatusBadRequest, Text: "FAKE-FAILURE"}}})
		body := `{"model":"m","messages":[{"role":"user","content":"x"}],"input":[],"tools":[{"type":"function","function":{"name":"bash"}}]}`
		resp, err := http.Post(f.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `"message":"FAKE-FAILURE"`) {
			t.Errorf("%s: status %d, body %s; want 400 with the step's message", path, resp.StatusCode, b)
		}
		if n := len(f.Main()); n != 1 {
			t.Errorf("%s: %d main requests recorded, want 1", path, n)
		}
		f.Close()
	}
}
