package translate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// TestCapturedStopFlagsAreDeclared: every captured payload of a turn's stop
// (agent.stop) that carries a stop-active flag (a field some dialect's
// stopActive names) is of an event whose own dialect declares that flag, and every declared flag is in the
// event's captured payloads. wrap corrects the flag between agents only
// where both declare it: Droid's Stop sent stop_hook_active but declared
// none, and a Gemini hook there was told Droid's true where Gemini says
// false (conformance stop-tools/gemini-deny-unless-active).
func TestCapturedStopFlagsAreDeclared(t *testing.T) {
	tab := mappings.Default()
	flags := map[string]bool{}
	for _, d := range tab.Dialects {
		for _, e := range d.Events {
			if e.StopActive != nil {
				flags[e.StopActive.Field] = true
			}
		}
	}
	seen := map[string]bool{} // dialect/event with a captured payload
	n := 0
	for _, d := range tab.Dialects {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", d.Name+"-"+d.Version, "*.json"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var p map[string]any
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			name, _, _ := strings.Cut(filepath.Base(f), ".")
			e := d.Event(name)
			if e == nil || e.Canonical != "agent.stop" {
				continue // a subagent's stop (Claude's sends the flag) has no Gemini counterpart to correct
			}
			seen[d.Name+"/"+e.Name] = true
			for field := range flags {
				if _, ok := p[field].(bool); !ok {
					continue
				}
				n++
				if e.StopActive == nil || e.StopActive.Field != field {
					t.Errorf("%s: %s's %s sends %s, but its table entry declares no stopActive with it", f, d.Agent, e.Name, field)
				}
			}
			if e.StopActive != nil {
				if _, ok := p[e.StopActive.Field].(bool); !ok {
					t.Errorf("%s: %s's %s declares stopActive %q, not in this captured payload", f, d.Agent, e.Name, e.StopActive.Field)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no captured payload carries a stop-active flag")
	}
	for _, want := range []string{"claude/Stop", "gemini/AfterAgent", "qwen/Stop", "droid/Stop"} {
		if !seen[want] {
			t.Errorf("no captured payload of %s", want)
		}
	}
}
