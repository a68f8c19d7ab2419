package transcript

import (
	"bytes"
	"testing"
)

// HasToolCalls finds the tool calls of every format hookx reads, in the
// real agents' transcripts, and none in the records before the first call.
func TestHasToolCallsInEveryFormat(t *testing.T) {
	for _, tc := range []struct{ file, src, format string }{
		{"claude-ralph-loop.txtar", "real-claude.jsonl", "claude"},
		{"gemini-ralph-loop.txtar", "real-gemini.jsonl", "gemini"},
		{"qwen-read-write.txtar", "real-qwen.jsonl", "qwen"},
		{"codex-read-write.txtar", "real-codex.jsonl", "codex"},
		{"droid-read-write.txtar", "real-droid.jsonl", "droid"},
		{"copilot-read-write.txtar", "real-copilot.jsonl", "copilot"},
	} {
		data := golden(t, tc.file, tc.src)
		if found, ok := HasToolCalls(tc.format, data); !found || !ok {
			t.Errorf("%s: HasToolCalls(whole) = %v, %v; want true, true", tc.format, found, ok)
			continue
		}
		// The lines before the first that holds a call.
		var before []byte
		for rest := data; len(rest) > 0; {
			line, next, _ := bytes.Cut(rest, []byte("\n"))
			if found, _ := HasToolCalls(tc.format, append(append([]byte{}, line...), '\n')); found {
				break
			}
			before = append(append(before, line...), '\n')
			rest = next
		}
		if len(before) == 0 {
			t.Errorf("%s: the first record already holds a call", tc.format)
		}
		if found, _ := HasToolCalls(tc.format, before); found {
			t.Errorf("%s: HasToolCalls(before the first call) = true", tc.format)
		}
	}
	if _, ok := HasToolCalls("nobody", nil); ok {
		t.Error("an unknown format: ok = true")
	}
}
