package translate

import (
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// A hook's replacement of a tool's result (Claude's updatedToolOutput)
// reaches the host, or a finding says that the original output stays: for
// every hook dialect that reads one and every host with an event after a
// tool, from the table alone. Never dropped silently, never reported lost
// when it was carried.
func TestReplacedToolOutputCarriedOrReported(t *testing.T) {
	const secret = "REPLACED-BY-HOOK"
	tab := mappings.Default()
	n := 0
	for _, hook := range tab.Dialects {
		hookEv, _ := hook.EventFor("tool.after")
		if hookEv == nil {
			continue
		}
		out := Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"` + hookEv.Name + `","updatedToolOutput":"` + secret + `"}}`)}
		var own findings
		if v := readOutput(hook, hookEv, out, &own); v.NewOutput == nil {
			continue // this dialect's hooks cannot replace a tool's result so
		}
		for _, host := range tab.Dialects {
			hostEv, _ := host.EventFor("tool.after")
			if host == hook || hostEv == nil {
				continue
			}
			n++
			tr := newTr(t, hook.Name, host.Name)
			res, fs := tr.Result(ResultContext{HookEvent: hookEv.Name, HostEvent: hostEv.Name}, out)
			carried := strings.Contains(string(res.Stdout), secret)
			lost := false
			for _, f := range fs {
				if f.What == "updatedToolOutput" && f.Mark == mappings.None {
					lost = true
				}
			}
			if carried == lost {
				t.Errorf("%s hook on %s %s: output %s (carried: %v), findings %v (reported lost: %v)", hook.Name, host.Name, hostEv.Name, res.Stdout, carried, fs, lost)
			}
		}
	}
	if n == 0 {
		t.Fatal("no dialect's hook replaces a tool's result")
	}
}
