//go:build unix

package conformance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/hooktest"
	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/hookx-dev/hookx/mappings"
)

// TestHookxTestLive holds hookx test's fast path (wrap and each host's
// reader, no agent) against the real agents: a small test file of a
// project's Claude Code guard (rm -rf build is denied, a harmless command
// runs) is run by hooktest.Run, and the same hook, migrated by hookx to
// each of the six agents, is run by that agent with a fake model making the
// same two calls. What the agent really did (build/ still there; the
// harmless command's output reached the model) must equal the fast path's
// cell on every host; where they differ, the fast path is wrong.
//
// Two guards: one in Claude Code's exit-2 idiom, which every agent blocks,
// and one answering {"decision":"deny"}, which Claude Code ignores (the
// call runs) and wrap reads as the deny it plainly means on other hosts:
// the cells differ by host, and each must still be what the agent did.
func TestHookxTestLive(t *testing.T) {
	p := requireAgents(t)
	bin := requireHookx(t)
	for _, g := range []struct{ name, body string }{
		{"exit2", "echo 'HXTEST-DENY: rm -rf build is forbidden' >&2; exit 2"},
		{"ignored-idiom", emit(`{"decision":"deny","reason":"HXTEST-DENY: rm -rf build is forbidden"}`)},
	} {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			hookxTestLive(t, p, bin, g.body)
		})
	}
}

func hookxTestLive(t *testing.T, p agents.Paths, bin, guardBody string) {
	file := &hooktest.File{Cases: []hooktest.Case{
		{Name: "rm -rf build", Hook: hooktest.Hook{Settings: ".claude/settings.json", Event: "PreToolUse", Matcher: ptr("Bash")},
			Event: hooktest.Event{Name: "shell", Command: "rm -rf build"}, Expect: hooktest.Expect{Outcome: "deny"}},
		{Name: "harmless", Hook: hooktest.Hook{Settings: ".claude/settings.json", Event: "PreToolUse", Matcher: ptr("Bash")},
			Event: hooktest.Event{Name: "shell", Command: "printf ALLOW%s -RAN"}, Expect: hooktest.Expect{Outcome: "allow"}},
	}}
	newScenario := func(host driver.Agent) *scenario {
		return &scenario{
			name: "hookx-test/" + string(host), dialect: driver.Claude,
			steps:   []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN")},
			hooks:   []hookDef{{event: "PreToolUse", matcher: "Bash", script: "guard"}},
			scripts: map[string]string{"guard": onDangerous(guardBody)},
			files:   map[string]string{"build/keep.txt": "keep\n"},
			to:      []driver.Agent{host},
		}
	}

	// The fast path, on the project as the scenario writes it.
	sb := newSandbox(t, p, "")
	if err := newScenario(driver.Claude).writeProject(sb); err != nil {
		t.Fatal(err)
	}
	opts := hooktest.Options{Table: mappings.Default(), Dir: sb.Project, Wrap: []string{bin, "wrap"}}
	if confine.Available() == nil {
		opts.Exec = []string{bin, confine.HelperName}
	} else {
		opts.Unconfined = true // hookx's own guard script, written above
	}
	cells, err := hooktest.Run(file, opts)
	if err != nil {
		t.Fatal(err)
	}
	fast := map[[2]string]string{}
	for _, c := range cells {
		fast[[2]string{c.Case, c.Host}] = c.Did
	}

	for _, host := range []driver.Agent{driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen, driver.Droid} {
		t.Run(string(host), func(t *testing.T) {
			t.Parallel()
			sc := newScenario(host)
			live := map[string]string{}
			sc.check = func(o *outcome) []string {
				live["rm -rf build"] = "allow"
				if o.exists("build/keep.txt") {
					live["rm -rf build"] = "deny"
				}
				live["harmless"] = "deny"
				if rs := lastResults(o); len(rs) == 2 && (strings.Contains(rs[1].Text, "ALLOW-RAN") || lostFastOutput(o.host, rs[1].Text, "printf ALLOW%s -RAN")) {
					live["harmless"] = "allow"
				}
				var problems []string
				for _, c := range file.Cases {
					if f := fast[[2]string{c.Name, string(host)}]; f != live[c.Name] {
						problems = append(problems, fmt.Sprintf("%s on %s: the agent did %s, hookx test's fast path says %s", c.Name, host, live[c.Name], f))
					}
				}
				return problems
			}
			path := pathHookx
			if host == driver.Claude {
				path = pathNative
			}
			r := runScenario(t, p, sc, path, host)
			for _, pr := range r.problems {
				t.Error(pr)
			}
			t.Logf("%s: live %v, fast path rm=%s harmless=%s, agent run %s", host, live, fast[[2]string{"rm -rf build", string(host)}], fast[[2]string{"harmless", string(host)}], r.took)
			if r.problems != nil {
				t.Logf("evidence:\n%s", r.evidence)
			}
		})
	}
}

func ptr(s string) *string { return &s }
