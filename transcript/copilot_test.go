package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What Copilot's session events record besides the conversation is left
// out, and the conversation reads as Copilot's hooks see it: a user message
// Copilot injected (a source that is not the user's, autopilot's
// continuation) is isMeta; a subagent's events (agentId, or the older
// parentToolCallId) are not the conversation; a failed tool call is an
// error, its error message the output when it has no result; create is
// Write with Claude's arguments.
func TestReadCopilotRecords(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"prompts", []string{
			`{"type":"user.message","data":{"content":"do it","transformedContent":"<current_datetime>x</current_datetime>\n\ndo it"},"id":"u1","timestamp":"t1"}`,
			`{"type":"user.message","data":{"content":"skill text","source":"skill-pdf"},"id":"u2","timestamp":"t2"}`,
			`{"type":"user.message","data":{"content":"go on","isAutopilotContinuation":true},"id":"u3","timestamp":"t3"}`,
			`{"type":"system.message","data":{"role":"system","content":"You are"},"id":"s","timestamp":"t4"}`,
		}, `user "do it"
user meta "skill text"
user meta "go on"`},
		{"calls, results, subagents", []string{
			`{"type":"assistant.message","data":{"messageId":"m1","model":"x","content":"ok","toolRequests":[{"toolCallId":"c1","name":"create","arguments":{"path":"/p/a","file_text":"hi"},"type":"function"}]},"id":"e1","timestamp":"t1"}`,
			`{"type":"assistant.message","agentId":"sub","data":{"messageId":"m2","content":"sub says"},"id":"e2","timestamp":"t2"}`,
			`{"type":"tool.execution_complete","data":{"toolCallId":"c9","parentToolCallId":"c0","success":true,"result":{"content":"sub result"}},"id":"e3","timestamp":"t3"}`,
			`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":false,"error":{"message":"exists","code":"x"}},"id":"e4","timestamp":"t4"}`,
			`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":false,"result":{"content":"partial"}},"id":"e5","timestamp":"t5"}`,
		}, `assistant m1 x text "ok"
assistant m1 x tool_use c1 Write {"content":"hi","file_path":"/p/a"}
user tool_result c1 "exists" true
user tool_result c1 "partial" true`},
		{"garbled", []string{
			`{"type":"assistant.message","data":{"content":7},"id":"e1"}`,
			`{"type":"tool.execution_complete","data":`,
			`{"type":"user.message","data":{"content":""},"id":"u"}`,
		}, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conv := converter(t, "copilot", "claude")
			out, _ := conv.Convert([]byte(strings.Join(tc.lines, "\n")+"\n"), "")
			if got := summarizeClaude(t, out); got != tc.want {
				t.Errorf("Claude copy:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// Copilot records its events about 100 ms behind its hooks (seen live): on
// a stop, Settle waits until the transcript records the start of this very
// hook (its input's timestamp), and no longer than it is allowed; a
// record of another hook's start, or this one's not written whole, does not
// count; a host that does not lag is not waited for.
func TestSettleWaitsForTheHooksOwnStart(t *testing.T) {
	data := golden(t, "copilot-read-write.txtar", "real-copilot.jsonl")
	lines := strings.SplitAfter(string(data), "\n")
	var at int
	for i, l := range lines {
		if strings.Contains(l, `"type":"hook.start"`) {
			at = i
		}
	}
	const stamp = "1795755362651"
	if !strings.Contains(lines[at], `"timestamp":`+stamp) {
		t.Fatalf("the recording's hook.start has not the stamp %s: %s", stamp, lines[at])
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "events.jsonl")
	conv := converter(t, "copilot", "claude")
	for _, tc := range []struct {
		name, content, stamp string
		want                 bool
	}{
		{"recorded", string(data), stamp, true},
		{"not yet", strings.Join(lines[:at], ""), stamp, false},
		{"half a line", strings.Join(lines[:at], "") + lines[at][:len(lines[at])-10], stamp, false},
		{"another hook", string(data), "1795755362650", false},
		{"no stamp", strings.Join(lines[:at], ""), "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.WriteFile(src, []byte(tc.content), 0o600)
			t0 := time.Now()
			got := conv.Settle(src, Mark{Stamp: tc.stamp}, 100*time.Millisecond)
			if got != tc.want {
				t.Errorf("Settle = %v, want %v", got, tc.want)
			}
			if took := time.Since(t0); tc.want && took > 50*time.Millisecond {
				t.Errorf("a settled transcript took %v", took)
			}
		})
	}
	// It returns once the record arrives.
	os.WriteFile(src, []byte(strings.Join(lines[:at], "")), 0o600)
	go func() {
		time.Sleep(50 * time.Millisecond)
		f, _ := os.OpenFile(src, os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString(strings.Join(lines[at:], ""))
		f.Close()
	}()
	if !conv.Settle(src, Mark{Stamp: stamp}, 5*time.Second) {
		t.Errorf("Settle did not see the record written while it waited")
	}
	if !converter(t, "droid", "claude").Settle(filepath.Join(dir, "none"), Mark{Stamp: stamp, LastReply: "x"}, time.Hour) {
		t.Errorf("a host that does not lag was waited for")
	}
}
