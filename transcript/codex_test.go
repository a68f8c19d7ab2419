package transcript

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// What a Codex rollout records besides the conversation is left out, and
// what it records of the conversation reads as Codex's hooks see it: a user
// message Codex injected (its provenance is not the user's, or, without
// provenance, it opens as the environment context or instructions do) is
// isMeta; developer messages, reasoning and bookkeeping records give
// nothing; a reply's text and calls are one message; the model's shell
// calls are Bash {command} and its other arguments dropped; a freeform
// apply_patch is apply_patch {command}, which a Claude hook sees as the Write
// or Edit it makes; tool outputs are text in each of the shapes Codex has
// written, an older {success:false} one an error; arguments that do not
// parse give a call without them.
func TestReadCodexRecords(t *testing.T) {
	rec := func(ts, typ, payload string) string {
		return `{"timestamp":"` + ts + `","type":"` + typ + `","payload":` + payload + `}`
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  string // the Claude copy's records, type and content only
	}{
		{"typed and injected prompts", []string{
			rec("t1", "response_item", `{"type":"message","id":"a","role":"user","content":[{"type":"input_text","text":"<environment_context>x"}],"internal_chat_message_metadata_passthrough":{"content_item_metadata":[{"provenance":{"type":"harness"}}]}}`),
			rec("t2", "response_item", `{"type":"message","id":"b","role":"user","content":[{"type":"input_text","text":"do it"}],"internal_chat_message_metadata_passthrough":{"content_item_metadata":[{"provenance":{"type":"user"}}]}}`),
			rec("t3", "response_item", `{"type":"message","id":"c","role":"user","content":[{"type":"input_text","text":"# AGENTS.md instructions for /p"}]}`),
			rec("t4", "response_item", `{"type":"message","id":"d","role":"user","content":[{"type":"input_text","text":"plain"}]}`),
			rec("t5", "response_item", `{"type":"message","id":"e","role":"developer","content":[{"type":"input_text","text":"rules"}]}`),
		}, `user meta "<environment_context>x"
user "do it"
user meta "# AGENTS.md instructions for /p"
user "plain"`},
		{"a reply with reasoning, text and a shell call", []string{
			rec("t0", "turn_context", `{"model":"gpt-x","cwd":"/p"}`),
			rec("t1", "response_item", `{"type":"reasoning","id":"r1","summary":[]}`),
			rec("t2", "response_item", `{"type":"message","id":"m1","role":"assistant","content":[{"type":"output_text","text":"let me"}]}`),
			rec("t3", "response_item", `{"type":"function_call","id":"f1","name":"exec_command","arguments":"{\"cmd\":\"ls\",\"workdir\":\"/p\",\"yield_time_ms\":10}","call_id":"c1"}`),
			rec("t4", "event_msg", `{"type":"item_completed","item":{"type":"AgentMessage"}}`),
			rec("t5", "response_item", `{"type":"function_call_output","call_id":"c1","output":"a\nb"}`),
			rec("t6", "response_item", `{"type":"message","id":"m2","role":"assistant","content":[{"type":"output_text","text":"done"}]}`),
		}, `assistant r1 gpt-x text "let me"
assistant r1 gpt-x tool_use c1 Bash {"command":"ls"}
user tool_result c1 "a\nb" false
assistant m2 gpt-x text "done"`},
		{"freeform apply_patch", []string{
			rec("t1", "response_item", `{"type":"custom_tool_call","id":"f1","name":"apply_patch","input":"*** Begin Patch\n*** Add File: /p/a.txt\n+hi\n*** End Patch\n","call_id":"c1"}`),
			rec("t2", "response_item", `{"type":"custom_tool_call_output","call_id":"c1","output":[{"type":"input_text","text":"Success"},{"type":"input_image","image_url":"x"}]}`),
		}, `assistant f1 text-less tool_use c1 Write {"content":"hi\n","file_path":"/p/a.txt"}
user tool_result c1 "Success" false`},
		{"freeform apply_patch changing a file", []string{
			rec("t1", "response_item", `{"type":"custom_tool_call","id":"f1","name":"apply_patch","input":"*** Begin Patch\n*** Update File: a.txt\n@@\n-hi\n+ho\n*** End Patch\n","call_id":"c1"}`),
		}, `assistant f1 text-less tool_use c1 Edit {"file_path":"a.txt","new_string":"ho","old_string":"hi"}`},
		{"older outputs and garbled arguments", []string{
			rec("t1", "response_item", `{"type":"function_call","id":"f1","name":"shell_command","arguments":"{not json","call_id":"c1"}`),
			rec("t2", "response_item", `{"type":"function_call_output","call_id":"c1","output":{"content":"denied","success":false}}`),
		}, `assistant f1 text-less tool_use c1 Bash {}
user tool_result c1 "denied" true`},
		{"garbled and unknown records", []string{
			`{"timestamp":"t1","type":"response_item","payload":`,
			rec("t2", "response_item", `{"type":"web_search_call","id":"w"}`),
			rec("t3", "compacted", `{"message":"summary","replacement_history":[{"type":"message","role":"user","content":[{"type":"input_text","text":"old"}]}]}`),
			rec("t4", "response_item", `"not an object"`),
		}, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conv := converter(t, "codex", "claude")
			out, _ := conv.Convert([]byte(strings.Join(tc.lines, "\n")+"\n"), "")
			if diff := cmp.Diff(tc.want, summarizeClaude(t, out)); diff != "" {
				t.Errorf("Claude copy (-want +got):\n%s", diff)
			}
		})
	}
}

// summarizeClaude prints a Claude transcript's records one per line: type,
// isMeta, message id and model, and each content block.
func summarizeClaude(t *testing.T, out []byte) string {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l == "" {
			continue
		}
		var r struct {
			Type    string `json:"type"`
			IsMeta  bool   `json:"isMeta"`
			Message struct {
				ID      string          `json:"id"`
				Model   string          `json:"model"`
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("not a JSON record: %v: %s", err, l)
		}
		head := r.Type
		if r.IsMeta {
			head += " meta"
		}
		if r.Message.ID != "" {
			head += " " + r.Message.ID
		}
		if r.Message.Model != "" {
			head += " " + r.Message.Model
		}
		var s string
		if json.Unmarshal(r.Message.Content, &s) == nil {
			lines = append(lines, head+" "+strconv.Quote(s))
			continue
		}
		var blocks []map[string]any
		_ = json.Unmarshal(r.Message.Content, &blocks)
		for _, b := range blocks {
			switch b["type"] {
			case "text":
				lines = append(lines, head+" text "+strconv.Quote(b["text"].(string)))
			case "tool_use":
				in, _ := json.Marshal(b["input"])
				if r.Message.Model == "" && r.Type == "assistant" {
					head += " text-less"
				}
				lines = append(lines, head+" tool_use "+b["id"].(string)+" "+b["name"].(string)+" "+string(in))
			case "tool_result":
				lines = append(lines, fmt.Sprintf("%s tool_result %s %q %v", head, b["tool_use_id"], b["content"], b["is_error"]))
			}
		}
	}
	return strings.Join(lines, "\n")
}
