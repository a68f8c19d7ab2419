//go:build unix

package conformance

import (
	"os"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
)

// acting: a host tool that runs commands with no tool of its own in the
// hook's agent. A Gemini guard on run_shell_command refuses "touch pwned",
// natively (the model runs it with run_shell_command) and through hookx on
// Claude Code, where the model runs it with Monitor (a watch command, which
// Gemini CLI has not). Claude Code shows the Monitor call to its
// PreToolUse hooks as Bash {command} (seen here live, 2026-11-28), so the
// guard judges its command, as natively; the scenario holds that. It passes
// on b20418e too: Monitor needs no "acts" mark (the tools that do, TerminaI's
// and Codex's, and Copilot's write_bash, offered in no -p run, cannot be
// run here).

func init() {
	hosts[driver.Gemini].tools["monitor"] = func(a action, _ string) fakemodel.Call {
		return call("run_shell_command", map[string]any{"command": a.text, "description": "fake call"})
	}
	// Claude Code 2.1.330 offers Monitor in a -p run and runs its command
	// (live, 2026-11-28: "Monitor started (task …)", the file created).
	hosts[driver.Claude].tools["monitor"] = func(a action, _ string) fakemodel.Call {
		return call("Monitor", map[string]any{"command": a.text, "description": "fake call"})
	}
}

func actingScenarios() []*scenario {
	guard := readInput + "LABEL=guard\n" + logInput +
		"case \"$input\" in *pwned*) echo 'ACT-GUARD: no pwned' >&2; exit 2;; esac\nexit 0\n"
	return []*scenario{{
		name: "acting/gemini-shell-guard-claude-monitor", dialect: driver.Gemini, to: []driver.Agent{driver.Claude}, noPeer: true,
		steps:   []action{{kind: "monitor", text: "touch pwned; echo done"}, shell("sleep 3")},
		hooks:   []hookDef{{event: "BeforeTool", matcher: "run_shell_command", script: "guard"}},
		scripts: map[string]string{"guard": guard},
		check: func(o *outcome) []string {
			var p []string
			if _, err := os.Stat(o.sb.Path("pwned")); err == nil {
				p = append(p, "pwned was created: the command ran unguarded")
			}
			var blocked bool
			for _, r := range o.srv.Main() {
				for _, tr := range r.ToolResults() {
					blocked = blocked || strings.Contains(tr.Text, "ACT-GUARD")
				}
			}
			if !blocked {
				p = append(p, "no tool result carries the guard's reason ACT-GUARD")
			}
			return p
		},
	}}
}
