//go:build unix

package conformance

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// observeScenarios show events that only observe firing in a headless run,
// natively and through hookx: each hook logs its stdin, which must name its
// own agent's event and carry a session id. Nothing can be blocked there.
func observeScenarios() []*scenario {
	observe := func(name string, dialect driver.Agent, events []string, to ...driver.Agent) *scenario {
		sc := &scenario{
			name: name, dialect: dialect, steps: []action{say("done")}, to: to,
			scripts: map[string]string{},
			check: func(o *outcome) []string {
				var p []string
				for _, ev := range events {
					p = append(p, observed(o, ev)...)
				}
				return p
			},
		}
		for _, ev := range events {
			sc.hooks = append(sc.hooks, hookDef{event: ev, script: ev})
			sc.scripts[ev] = readInput + "LABEL=" + ev + "\n" + logInput
		}
		return sc
	}
	return []*scenario{
		// SessionEnd: the same name in Claude, Gemini and Codex. Codex caps
		// its time at 3 s, under wrap's usual margin of 5 s.
		observe("session-end/claude-log", driver.Claude, []string{"SessionEnd"}, driver.Gemini, driver.Codex),
		observe("session-end/gemini-log", driver.Gemini, []string{"SessionEnd"}, driver.Claude, driver.Codex),
		observe("session-end/codex-log", driver.Codex, []string{"SessionEnd"}, driver.Claude, driver.Gemini),
		// Codex fires these around every model request; they observe only.
		observe("model-request/codex-log", driver.Codex, []string{"PreModelRequest", "PostModelRequest"}),
	}
}

// observed checks that the hook on event ran, and that its stdin named
// event and a session.
func observed(o *outcome, event string) []string {
	logs := o.hookLogs(event + ".")
	if len(logs) == 0 {
		return []string{fmt.Sprintf("the %s hook did not run", event)}
	}
	var p []string
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		var in struct {
			Event   string `json:"hook_event_name"`
			Session string `json:"session_id"`
		}
		if err := json.Unmarshal(b, &in); err != nil {
			return []string{fmt.Sprintf("%s hook stdin is not JSON: %v: %q", event, err, b)}
		}
		if in.Event != event {
			p = append(p, fmt.Sprintf("%s hook: hook_event_name = %q", event, in.Event))
		}
		if in.Session == "" {
			p = append(p, event+" hook: no session_id")
		}
	}
	return p
}
