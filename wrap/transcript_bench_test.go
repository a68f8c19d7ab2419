//go:build unix

package wrap

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/mappings"
)

// bigClaudeTranscript is the real Claude transcript of testdata/transcripts
// grown to about size bytes by repeating its conversation with fresh ids.
func bigClaudeTranscript(tb testing.TB, size int) []byte {
	data, err := os.ReadFile("../testdata/transcripts/claude-ralph-loop.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	var conv []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, `"type":"user"`) || strings.Contains(l, `"type":"assistant"`) {
			conv = append(conv, l)
		}
	}
	var b bytes.Buffer
	b.Write(data)
	for i := 0; b.Len() < size; i++ {
		for _, l := range conv {
			b.WriteString(strings.ReplaceAll(l, "msg_fake_", fmt.Sprintf("msg_%d_", i)))
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// BenchmarkTranscriptStop10MB is what the transcript adds to one wrapped
// call: a Gemini AfterAgent hook on a Claude Stop whose transcript is 10 MB,
// on first use (nothing cached) and warm (one new turn since the last
// call: a prompt and its reply), including the prompt/prompt_response fill.
func BenchmarkTranscriptStop10MB(b *testing.B) {
	table := mappings.Default()
	claude, gemini := table.MustDialect("claude"), table.MustDialect("gemini")
	dir := b.TempDir()
	src := filepath.Join(dir, "session.jsonl")
	data := bigClaudeTranscript(b, 10<<20)
	if err := os.WriteFile(src, data, 0o600); err != nil {
		b.Fatal(err)
	}
	host := []byte(`{"session_id":"s1","transcript_path":"` + src + `","cwd":"/p","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"a new reply"}`)
	hook := []byte(`{"session_id":"s1","transcript_path":"` + src + `","cwd":"/p","hook_event_name":"AfterAgent","prompt":"","prompt_response":"a new reply","stop_hook_active":false}`)
	run := func(b *testing.B, cacheDir string) {
		r := &runner{Options: Options{Table: table, TranscriptDir: cacheDir, Stderr: io.Discard}, host: claude, hook: gemini}
		out := r.withTranscript(host, hook)
		if !bytes.Contains(out, []byte(`"prompt":"RALPH-TASK: finish the job"`)) {
			b.Fatalf("prompt not filled: %s", out)
		}
	}
	b.Run("first-use", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		cpu := cpuTime()
		for i := 0; b.Loop(); i++ {
			run(b, filepath.Join(dir, fmt.Sprint("first", i)))
		}
		reportCPU(b, cpu)
	})
	b.Run("warm-one-new-turn", func(b *testing.B) {
		cache := filepath.Join(dir, "warm")
		run(b, cache)
		f, err := os.OpenFile(src, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		cpu := cpuTime()
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			// A new turn: Claude's records of a prompt and its reply.
			fmt.Fprintf(f, `{"parentUuid":null,"type":"user","message":{"role":"user","content":"RALPH-TASK: finish the job"},"uuid":"p%d","timestamp":"t"}`+"\n", i)
			fmt.Fprintf(f, `{"parentUuid":null,"type":"assistant","message":{"id":"msg_new_%d","role":"assistant","content":[{"type":"text","text":"a new reply"}]},"uuid":"u%d","timestamp":"t"}`+"\n", i, i)
			b.StartTimer()
			run(b, cache)
		}
		reportCPU(b, cpu)
	})
}

// cpuTime is the process's CPU time so far: on a loaded machine the wall
// time per call says more about the load than about hookx.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkTranscriptBigPayload is what the transcript adds to a wrapped
// PostToolUse whose payload carries 10 MB of tool output (warm cache): the
// payloads are split once, not decoded.
func BenchmarkTranscriptBigPayload(b *testing.B) {
	table := mappings.Default()
	claude, gemini := table.MustDialect("claude"), table.MustDialect("gemini")
	dir := b.TempDir()
	src := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(src, bigClaudeTranscript(b, 0), 0o600); err != nil {
		b.Fatal(err)
	}
	out := strings.Repeat("x", 10<<20)
	host := []byte(`{"session_id":"s1","transcript_path":"` + src + `","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"x"},"tool_response":{"stdout":"` + out + `","stderr":""}}`)
	hook := []byte(`{"session_id":"s1","transcript_path":"` + src + `","cwd":"/p","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"x"},"tool_response":{"llmContent":"` + out + `"}}`)
	r := &runner{Options: Options{Table: table, TranscriptDir: filepath.Join(dir, "cache"), Stderr: io.Discard}, host: claude, hook: gemini}
	r.withTranscript(host, hook)
	b.SetBytes(int64(len(host)))
	cpu := cpuTime()
	for b.Loop() {
		if got := r.withTranscript(host, hook); len(got) < len(hook) {
			b.Fatal("payload lost")
		}
	}
	reportCPU(b, cpu)
}
