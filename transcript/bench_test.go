//go:build unix

package transcript

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// big makes a transcript of about size bytes from the real one: its
// conversational records repeated with fresh ids.
func big(tb testing.TB, file, section string, size int) []byte {
	data := golden(tb, file, section)
	var conv []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, `"type":"user"`) || strings.Contains(l, `"type":"assistant"`) || strings.Contains(l, `"type":"gemini"`) ||
			strings.Contains(l, `"type":"tool_result"`) || strings.Contains(l, `"type":"response_item"`) || strings.Contains(l, `"type":"message"`) ||
			strings.Contains(l, `"type":"user.message"`) || strings.Contains(l, `"type":"assistant.message"`) || strings.Contains(l, `"type":"tool.execution_complete"`) {
			conv = append(conv, l)
		}
	}
	var b bytes.Buffer
	b.Write(data)
	for i := 0; b.Len() < size; i++ {
		for _, l := range conv {
			// Every id-like value gets the round's suffix.
			l = strings.ReplaceAll(l, `-`, fmt.Sprintf("-%d", i%10))
			l = strings.ReplaceAll(l, `msg_fake_`, fmt.Sprintf("msg_%d_", i))
			l = strings.ReplaceAll(l, `"id":"`, fmt.Sprintf(`"id":"r%d`, i))
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

var directions = []struct{ name, file, src, from, to string }{
	{"claude-to-gemini", "claude-ralph-loop.txtar", "real-claude.jsonl", "claude", "gemini"},
	{"gemini-to-claude", "gemini-ralph-loop.txtar", "real-gemini.jsonl", "gemini", "claude"},
	{"qwen-to-claude", "qwen-read-write.txtar", "real-qwen.jsonl", "qwen", "claude"},
	{"codex-to-claude", "codex-read-write.txtar", "real-codex.jsonl", "codex", "claude"},
	{"droid-to-claude", "droid-read-write.txtar", "real-droid.jsonl", "droid", "claude"},
	{"copilot-to-claude", "copilot-read-write.txtar", "real-copilot.jsonl", "copilot", "claude"},
}

// newReply is one new assistant reply in each source format, with %d, %d
// for unique ids.
var newReply = map[string]string{
	"claude":  `{"parentUuid":null,"type":"assistant","message":{"id":"msg_new_%d","role":"assistant","content":[{"type":"text","text":"a new reply"}]},"uuid":"u%d","timestamp":"t"}` + "\n",
	"gemini":  `{"id":"new-%d-%d","timestamp":"t","type":"gemini","content":"a new reply"}` + "\n",
	"qwen":    `{"uuid":"new-%d-%d","timestamp":"t","type":"assistant","provenance":"assistant_output","message":{"role":"model","parts":[{"text":"a new reply"}]}}` + "\n",
	"droid":   `{"type":"message","id":"new-%d-%d","timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":"a new reply"}]}}` + "\n",
	"copilot": `{"type":"assistant.message","data":{"messageId":"new-%d-%d","content":"a new reply","toolRequests":[]},"id":"e","timestamp":"t"}` + "\n",
	"codex":   `{"timestamp":"t","type":"response_item","payload":{"type":"message","id":"msg_new_%d_%d","role":"assistant","content":[{"type":"output_text","text":"a new reply"}]}}` + "\n",
}

// BenchmarkSyncFirstUse10MB is a hook's first call in a session whose
// transcript is already 10 MB: the whole file is converted.
func BenchmarkSyncFirstUse10MB(b *testing.B) {
	for _, d := range directions {
		b.Run(d.name, func(b *testing.B) {
			dir := b.TempDir()
			src := filepath.Join(dir, "src.jsonl")
			data := big(b, d.file, d.src, 10<<20)
			os.WriteFile(src, data, 0o600)
			conv := converter(b, d.from, d.to)
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; b.Loop(); i++ {
				cache := &Cache{Dir: filepath.Join(dir, fmt.Sprint("c", i))}
				if _, err := cache.Sync(conv, src, ""); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkSyncWarm10MB is a later call on a 10 MB transcript: nothing new,
// or one new record (an assistant reply) since the last call.
func BenchmarkSyncWarm10MB(b *testing.B) {
	for _, d := range directions {
		for _, add := range []bool{false, true} {
			name := d.name + "/unchanged"
			if add {
				name = d.name + "/one-new-record"
			}
			b.Run(name, func(b *testing.B) {
				dir := b.TempDir()
				src := filepath.Join(dir, "src.jsonl")
				data := big(b, d.file, d.src, 10<<20)
				os.WriteFile(src, data, 0o600)
				conv := converter(b, d.from, d.to)
				cache := &Cache{Dir: filepath.Join(dir, "cache")}
				if _, err := cache.Sync(conv, src, ""); err != nil {
					b.Fatal(err)
				}
				f, _ := os.OpenFile(src, os.O_WRONLY|os.O_APPEND, 0)
				defer f.Close()
				line := newReply[d.from]
				cpu := cpuTime()
				for i := 0; b.Loop(); i++ {
					if add {
						b.StopTimer()
						fmt.Fprintf(f, line, i, i)
						b.StartTimer()
					}
					if _, err := cache.Sync(conv, src, ""); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu)
			})
		}
	}
}

// cpuTime is the process's CPU time so far (user and system). On a shared
// machine the wall time per call depends on the load; the CPU time much
// less, so both are reported.
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

// BenchmarkConvert10MB is the conversion alone, in memory: no cache, no
// file I/O.
func BenchmarkConvert10MB(b *testing.B) {
	for _, d := range directions {
		b.Run(d.name, func(b *testing.B) {
			data := big(b, d.file, d.src, 10<<20)
			conv := converter(b, d.from, d.to)
			b.SetBytes(int64(len(data)))
			cpu := cpuTime()
			for b.Loop() {
				conv.Convert(data, "")
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkSyncNoTranscript is a call on a host that has not written its
// transcript (or has none): what every translated call pays for it, in a
// new session (nothing cached yet) and in one where the first call was
// already made.
func BenchmarkSyncNoTranscript(b *testing.B) {
	for _, d := range directions {
		b.Run(d.name, func(b *testing.B) {
			dir := b.TempDir()
			src := filepath.Join(dir, "not-written-yet.jsonl")
			conv := converter(b, d.from, d.to)
			cache := &Cache{Dir: filepath.Join(dir, "cache")}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				conv.Session = fmt.Sprintf("s%d", i%2) // two sessions, each synced again and again
				if _, err := cache.Sync(conv, src, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
