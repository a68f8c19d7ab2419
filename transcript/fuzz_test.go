package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// Every dialect's transcript format is one this package reads, or none;
// the package writes it exactly when the table says it is not read only.
func TestEveryDialectsTranscriptFormatIsKnown(t *testing.T) {
	for _, d := range mappings.Default().Dialects {
		f := d.Transcript.Format
		if f == "" {
			continue
		}
		switch ft := formats[f]; {
		case ft == nil || ft.read == nil:
			t.Errorf("%s: transcript.format %q is not one of package transcript's formats", d.Name, f)
		case (ft.write != nil) != d.Transcript.Writable():
			t.Errorf("%s: transcript.readOnly is %v, but package transcript writes %q: %v", d.Name, d.Transcript.ReadOnly, f, ft.write != nil)
		}
	}
}

// FuzzConvert: any input converts without a panic, in both directions, into
// lines that each parse as a JSON object; converting twice gives the same
// bytes.
func FuzzConvert(f *testing.F) {
	for _, g := range []struct{ file, sec string }{
		{"claude-ralph-loop.txtar", "real-claude.jsonl"},
		{"gemini-ralph-loop.txtar", "real-gemini.jsonl"},
		{"qwen-read-write.txtar", "real-qwen.jsonl"},
		{"codex-read-write.txtar", "real-codex.jsonl"},
		{"droid-read-write.txtar", "real-droid.jsonl"},
		{"copilot-read-write.txtar", "real-copilot.jsonl"},
	} {
		for _, l := range strings.Split(string(golden(f, g.file, g.sec)), "\n") {
			f.Add(l + "\n")
		}
	}
	f.Add(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"x","content":[{"type":"text","text":"a"}]}]}}` + "\n")
	f.Add(`{"id":"a","type":"gemini","content":"x","toolCalls":[{"id":"c","name":"nope","args":null}]}` + "\n" + `{"id":"a","type":"gemini","content":"y"}` + "\n")
	f.Add(`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"c","response":{"error":7}}}]},"toolCallResult":{"status":"cancelled"}}` + "\n")
	f.Add(`{"type":"assistant","message":{"parts":[{"text":"a","thought":true},{"functionCall":{"id":"c","name":"write_file","args":{"file_path":1}}}]}}` + "\n")
	f.Add(`{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n","call_id":"c"}}` + "\n" + `{"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c","output":{"content":"x","success":false}}}` + "\n")
	f.Add(`{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":[1]}","call_id":"c"}}` + "\n")
	var convs []*Converter
	for _, from := range mappings.Default().Dialects {
		for _, to := range mappings.Default().Dialects {
			if from != to && formats[from.Transcript.Format] != nil && to.Transcript.Writable() {
				convs = append(convs, converter(f, from.Name, to.Name))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, c := range convs {
			out, _ := c.Convert([]byte(src), "tail")
			again, _ := c.Convert([]byte(src), "tail")
			if !bytes.Equal(out, again) {
				t.Fatalf("not deterministic")
			}
			if len(out) > 0 && out[len(out)-1] != '\n' {
				t.Fatalf("output does not end in a newline: %q", out)
			}
			for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
				if len(out) == 0 {
					break
				}
				var m map[string]any
				if err := json.Unmarshal(l, &m); err != nil {
					t.Fatalf("output line is not a JSON object: %v: %s", err, l)
				}
			}
		}
	})
}
