package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// What Qwen's recording holds besides the conversation is left out, and
// what it says of a record is kept: a user record is a typed prompt only
// with provenance real_user (or, from before provenance, no subtype), else
// injected context (Claude's isMeta); thought parts are not text; a tool
// result whose call failed or was cancelled is an error even when its
// response says "output"; telemetry, garbled and unknown records give
// nothing.
func TestReadQwenRecords(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       []Message
	}{
		{"typed prompt", `{"uuid":"u","type":"user","provenance":"real_user","message":{"role":"user","parts":[{"text":"a"},{"text":"b"}]}}`,
			[]Message{{Role: "user", ID: "u", Text: "ab"}}},
		{"legacy prompt", `{"uuid":"u","type":"user","message":{"parts":[{"text":"a"}]}}`,
			[]Message{{Role: "user", ID: "u", Text: "a"}}},
		{"legacy mid-turn prompt", `{"uuid":"u","type":"user","subtype":"mid_turn_user_message","message":{"parts":[{"text":"a"}]}}`,
			[]Message{{Role: "user", ID: "u", Text: "a"}}},
		{"cron prompt", `{"uuid":"u","type":"user","subtype":"cron","message":{"parts":[{"text":"a"}]}}`,
			[]Message{{Role: "user", ID: "u", Text: "a", Meta: true}}},
		{"goal runtime", `{"uuid":"u","type":"user","provenance":"goal_runtime","message":{"parts":[{"text":"a"}]}}`,
			[]Message{{Role: "user", ID: "u", Text: "a", Meta: true}}},
		{"thoughts", `{"uuid":"m","type":"assistant","model":"x","message":{"role":"model","parts":[{"text":"hmm","thought":true},{"text":"hi"}]}}`,
			[]Message{{Role: "assistant", ID: "m", Model: "x", Text: "hi"}}},
		{"only thoughts", `{"uuid":"m","type":"assistant","message":{"parts":[{"text":"hmm","thought":true}]}}`, nil},
		{"cancelled call", `{"uuid":"r","type":"tool_result","message":{"parts":[{"functionResponse":{"id":"c","name":"write_file","response":{"output":"no"}}}]},"toolCallResult":{"status":"cancelled"}}`,
			[]Message{{Role: "user", ID: "r", Results: []Result{{ID: "c", Name: "write_file", Output: "no", IsError: true}}}}},
		{"error response", `{"uuid":"r","type":"tool_result","message":{"parts":[{"functionResponse":{"id":"c","name":"x","response":{"error":"bad"}}}]},"toolCallResult":{"status":"success"}}`,
			[]Message{{Role: "user", ID: "r", Results: []Result{{ID: "c", Name: "x", Output: "bad", IsError: true}}}}},
		{"telemetry", `{"uuid":"s","type":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"type":"user"}}}`, nil},
		{"garbled", `{"uuid":"s","type":"user","message":{"parts":"x"}`, nil},
		{"unknown type", `{"uuid":"s","type":"user_v2","message":{"parts":[{"text":"a"}]}}`, nil},
		{"parts not a list", `{"uuid":"s","type":"user","message":{"parts":{"text":"a"}}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var st readState
			if diff := cmp.Diff(tc.want, readQwen([]byte(tc.line), &st)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Qwen runs its Stop hooks before it records the reply they stop on (seen
// live): a Claude hook's copy gets the reply from the Stop event's
// last_assistant_message, and when Qwen's record arrives its text is not
// written twice.
func TestQwenLastReplyAheadOfItsRecord(t *testing.T) {
	data := golden(t, "qwen-read-write.txtar", "real-qwen.jsonl")
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	last := len(lines) - 1
	if !strings.Contains(lines[last], "FINAL-TEXT") {
		t.Fatalf("the recording's last record is not the final reply: %s", lines[last])
	}
	conv := converter(t, "qwen", "claude")
	dir := t.TempDir()
	src := filepath.Join(dir, "src.jsonl")
	cache := &Cache{Dir: filepath.Join(dir, "cache")}
	os.WriteFile(src, []byte(strings.Join(lines[:last], "")), 0o600)
	res, err := cache.Sync(conv, src, "all done FINAL-TEXT")
	if err != nil {
		t.Fatal(err)
	}
	ahead, _ := os.ReadFile(res.Path)
	if n := strings.Count(string(ahead), "FINAL-TEXT"); n != 1 {
		t.Fatalf("before Qwen records it, the copy holds the reply %d times, want 1:\n%s", n, ahead)
	}
	// Twice: the tail is written once.
	if _, err := cache.Sync(conv, src, "all done FINAL-TEXT"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(src, data, 0o600)
	if res, err = cache.Sync(conv, src, "all done FINAL-TEXT"); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(res.Path)
	if n := strings.Count(string(after), "FINAL-TEXT"); n != 1 {
		t.Errorf("once Qwen records it, the copy holds the reply %d times, want 1:\n%s", n, after)
	}
	if !strings.HasPrefix(string(after), string(ahead)) {
		t.Errorf("the copy was rewritten, not appended to")
	}
}

// Qwen records its last records behind its Stop hooks (seen live: a stop
// found the file ending at the first tool result): on a stop, Settle waits
// until the recording holds, as a whole line, an assistant record whose text
// opens as the stop's last_assistant_message does, and no longer than it is
// allowed; the text in a telemetry record does not count.
func TestQwenSettleWaitsForTheLastReply(t *testing.T) {
	data := golden(t, "qwen-read-write.txtar", "real-qwen.jsonl")
	lines := strings.SplitAfter(string(data), "\n")
	last := len(lines) - 1
	for last >= 0 && !strings.Contains(lines[last], `"type":"assistant"`) {
		last--
	}
	conv := converter(t, "qwen", "claude")
	src := filepath.Join(t.TempDir(), "chat.jsonl")
	reply := Mark{LastReply: "all done FINAL-TEXT"}
	for _, tc := range []struct {
		name, content string
		m             Mark
		want          bool
	}{
		{"recorded", string(data), reply, true},
		{"not yet (its telemetry is)", strings.Join(lines[:last], ""), reply, false},
		{"half a line", strings.Join(lines[:last], "") + lines[last][:len(lines[last])-5], reply, false},
		{"another reply", string(data), Mark{LastReply: "all gone"}, false},
		{"its opening, trimmed", string(data), Mark{LastReply: " all done FINAL"}, true},
		{"a long reply's first 32 bytes", strings.Replace(string(data), "all done FINAL-TEXT", "all done FINAL-TEXT, and a long tail after it", -1), Mark{LastReply: "all done FINAL-TEXT, and a long tail after it, recorded in another part"}, true},
		{"nothing to wait for", strings.Join(lines[:last], ""), Mark{}, true},
		// A turn that ended on a tool call has no reply: no wait, no
		// warning (a timestamp alone says nothing Qwen records).
		{"an empty reply", strings.Join(lines[:last], ""), Mark{Stamp: `"2026-11-27T00:00:00Z"`, LastReply: " "}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.WriteFile(src, []byte(tc.content), 0o600)
			if got := conv.Settle(src, tc.m, 60*time.Millisecond); got != tc.want {
				t.Errorf("Settle = %v, want %v", got, tc.want)
			}
		})
	}
}

// Claude Code writes its transcript asynchronously too: Settle waits for
// an assistant record whose text opens as the stop's last reply, as a
// whole line; a user record quoting it does not count.
func TestClaudeSettleWaitsForTheLastReply(t *testing.T) {
	user := `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"second answer, please"}]}}` + "\n"
	reply := `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"second answer"}]}}` + "\n"
	src := filepath.Join(t.TempDir(), "t.jsonl")
	m := Mark{LastReply: "second answer"}
	for _, tc := range []struct {
		name, content string
		want          bool
	}{
		{"recorded", user + reply, true},
		{"not yet", user, false},
		{"half a line", user + reply[:len(reply)-4], false},
	} {
		os.WriteFile(src, []byte(tc.content), 0o600)
		if got := SettleFile("claude", src, m, 60*time.Millisecond); got != tc.want {
			t.Errorf("%s: SettleFile = %v, want %v", tc.name, got, tc.want)
		}
	}
}
