package transcript

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// big makes a transcript of about size bytes from the real one: its
// conversational records repeated with fresh ids.
func big(tb testing.TB, file, section string, size int) []byte {
	data := golden(tb, file, section)
	var conv []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, `"type":"user"`) || strings.Contains(l, `"type":"assistant"`) || strings.Contains(l, `"type":"gemini"`) {
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
			for i := 0; b.Loop(); i++ {
				cache := &Cache{Dir: filepath.Join(dir, fmt.Sprint("c", i))}
				if _, err := cache.Sync(conv, src, ""); err != nil {
					b.Fatal(err)
				}
			}
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
				line := `{"parentUuid":null,"type":"assistant","message":{"id":"msg_new_%d","role":"assistant","content":[{"type":"text","text":"a new reply"}]},"uuid":"u%d","timestamp":"t"}` + "\n"
				if d.from == "gemini" {
					line = `{"id":"new-%d-%d","timestamp":"t","type":"gemini","content":"a new reply"}` + "\n"
				}
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
			})
		}
	}
}
