package transcript

import (
	"strings"
	"testing"
)

// What Droid's session file records besides the conversation is left out,
// and the conversation reads as Claude's, whose blocks it uses: the context
// Droid gives the model (id context-…) and its hook-run records (visibility
// user_only) are not prompts; a hook-run record with no content gives
// nothing; string content is text; a tool_result in an assistant message
// or a tool_use in a user one is not a call or result; Droid's tools keep
// their names where the table maps none; Execute is Bash, Create is Write.
func TestReadDroidRecords(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"context, prompt and hook run", []string{
			`{"type":"session_start","id":"s","title":"x","cwd":"/p"}`,
			`{"type":"message","id":"context-1","timestamp":"t0","message":{"role":"user","content":[{"type":"text","text":"<system-reminder>tools</system-reminder>"}]}}`,
			`{"type":"message","id":"1","parentId":"context-1","timestamp":"t1","message":{"role":"user","content":[{"type":"text","text":"do it"}]}}`,
			`{"type":"message","id":"2","timestamp":"t2","message":{"role":"user","content":[],"visibility":"user_only","hookEventName":"Stop"}}`,
			`{"type":"message","id":"3","timestamp":"t3","message":{"role":"user","content":"as a string","visibility":"user_only"}}`,
			`{"type":"agent_turn_outcome","turnId":"1","reason":"completed"}`,
		}, `user meta "<system-reminder>tools</system-reminder>"
user "do it"
user meta "as a string"`},
		{"calls and results", []string{
			`{"type":"message","id":"a","timestamp":"t1","message":{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"c1","name":"Execute","input":{"command":"ls","summary":"s","riskLevel":"low","riskLevelReason":"r"}},{"type":"tool_use","id":"c2","name":"Create","input":{"file_path":"/p/a","content":"x"}},{"type":"tool_result","tool_use_id":"c9","content":"no"}],"modelId":"m"}}`,
			`{"type":"message","id":"b","timestamp":"t2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","is_error":true,"content":[{"type":"text","text":"bad"}]},{"type":"tool_use","id":"c8","name":"Execute","input":{}}]}}`,
		}, `assistant a m text "ok"
assistant a m tool_use c1 Bash {"command":"ls","description":"s","risk_level":"low","risk_level_reason":"r"}
assistant a m tool_use c2 Write {"content":"x","file_path":"/p/a"}
user tool_result c1 "bad" true`},
		{"garbled", []string{
			`{"type":"message","id":"a","message":{"role":"assistant","content":{"type":"text"}}}`,
			`{"type":"message","id":"b","message":{"role":"system","content":[{"type":"text","text":"x"}]}}`,
			`{"type":"message",`,
		}, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conv := converter(t, "droid", "claude")
			out, _ := conv.Convert([]byte(strings.Join(tc.lines, "\n")+"\n"), "")
			if got := summarizeClaude(t, out); got != tc.want {
				t.Errorf("Claude copy:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
