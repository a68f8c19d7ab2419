package translate

import (
	"encoding/json"
	"strings"
	"testing"
)

func goldenInput(b *testing.B, name string) []byte {
	b.Helper()
	ar, err := parseGolden("testdata/events/" + name + ".txtar")
	if err != nil {
		b.Fatal(err)
	}
	return ar.Files[0].Data
}

// BenchmarkEventPreToolUse translates a typical PreToolUse payload for a
// Gemini hook. Target: well under 100 µs.
func BenchmarkEventPreToolUse(b *testing.B) {
	in := goldenInput(b, "claude.PreToolUse.Bash")
	benchEvent(b, "claude", "gemini", in)
}

// BenchmarkEventBeforeTool is the other direction: a Gemini BeforeTool for
// a Claude hook.
func BenchmarkEventBeforeTool(b *testing.B) {
	in := goldenInput(b, "gemini.BeforeTool.run_shell_command")
	benchEvent(b, "gemini", "claude", in)
}

// bigAfterTool is a Gemini AfterTool payload with a 10 MB shell output.
func bigAfterTool(b *testing.B) []byte {
	var p map[string]any
	if err := json.Unmarshal(goldenInput(b, "gemini.AfterTool.run_shell_command"), &p); err != nil {
		b.Fatal(err)
	}
	out := strings.Repeat("0123456789abcdef ~ \"quoted\" \t line of build output\n", 10<<20/52)
	p["tool_response"] = map[string]any{
		"llmContent":    "<untrusted_context>\nOutput: " + out + "\nProcess Group PGID: 1\n</untrusted_context>",
		"returnDisplay": out,
	}
	in, err := json.Marshal(p)
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// BenchmarkEventAfterTool10MB translates an AfterTool whose tool_response
// holds 10 MB of output, for a Claude hook. Target: ≥ 200 MB/s.
func BenchmarkEventAfterTool10MB(b *testing.B) {
	in := bigAfterTool(b)
	benchEvent(b, "gemini", "claude", in)
}

// BenchmarkResultPreToolUseDeny translates a Claude deny for a Gemini host.
func BenchmarkResultPreToolUseDeny(b *testing.B) {
	tr := newTr(b, "claude", "gemini")
	out := Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`)}
	ctx := ResultContext{HookEvent: "PreToolUse", HostEvent: "BeforeTool"}
	b.ReportAllocs()
	for b.Loop() {
		tr.Result(ctx, out)
	}
}

// BenchmarkEventPostToolUse10MB is the other direction: a Claude PostToolUse
// with 10 MB of Bash output, for a Gemini hook.
func BenchmarkEventPostToolUse10MB(b *testing.B) {
	var p map[string]any
	if err := json.Unmarshal(goldenInput(b, "claude.PostToolUse.Bash"), &p); err != nil {
		b.Fatal(err)
	}
	out := strings.Repeat("0123456789abcdef ~ \"quoted\" \t line of build output\n", 10<<20/52)
	p["tool_response"] = map[string]any{"stdout": out, "stderr": "", "interrupted": false, "isImage": false}
	in, err := json.Marshal(p)
	if err != nil {
		b.Fatal(err)
	}
	benchEvent(b, "claude", "gemini", in)
}

// benchEvent measures translating one payload from one dialect to another.
func benchEvent(b *testing.B, from, to string, in []byte) {
	tr := newTr(b, from, to)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.Event(in); err != nil {
			b.Fatal(err)
		}
	}
}
