//go:build unix

package conformance

import (
	"os"
	"path/filepath"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// awkwardProject is a project directory name with a space, a quote and a ;
// that would run a command if a host or hookx let the shell read the name
// as code. Not a double quote: Gemini CLI's shell tool refuses to run in a
// directory whose path holds one ("Path contains suspicious characters"),
// hooks or not.
const awkwardProject = `My Project's; touch INJECTED;`

// commandScenarios run hooks in the awkward project directory, written the
// way their authors write them: the command must run exactly as its own
// agent runs it (issue 9). Guards block, harmless commands run, and nothing
// else runs: no INJECTED file appears anywhere.
func commandScenarios() []*scenario {
	guard := func(name string, dialect driver.Agent, raw, body, marker string) *scenario {
		event, matcher := "PreToolUse", "Bash"
		if dialect == driver.Gemini {
			event, matcher = "BeforeTool", "run_shell_command"
		}
		check := guardCheck(marker)
		// Every host hookx writes commands for runs the migrated guard.
		var to []driver.Agent
		for _, h := range []driver.Agent{driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen, driver.Droid, driver.Cline} {
			if h != dialect {
				to = append(to, h)
			}
		}
		return &scenario{
			name: name, dialect: dialect, projectName: awkwardProject, to: to,
			steps:   []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN; sleep 0.3")},
			hooks:   []hookDef{{event: event, matcher: matcher, raw: raw}},
			scripts: map[string]string{"guard": onDangerous(body)},
			files:   map[string]string{"build/keep.txt": "keep\n"},
			check: func(o *outcome) []string {
				p := check(o)
				for _, dir := range []string{o.sb.Project, o.sb.Home, filepath.Dir(o.sb.Project)} {
					if _, err := os.Stat(filepath.Join(dir, "INJECTED")); err == nil {
						p = append(p, "the project directory's name ran as code: "+filepath.Join(dir, "INJECTED")+" exists")
					}
				}
				return p
			},
		}
	}
	return []*scenario{
		// The first defect: cd "$CLAUDE_PROJECT_DIR" inside a bash -c
		// string, single-quoted.
		guard("awkward-dir/claude-bash-c-cd", driver.Claude,
			`bash -c 'cd "$CLAUDE_PROJECT_DIR" && ./.claude/hooks/guard.sh'`,
			"echo 'GUARD-AWK-C1: rm -rf build is forbidden' >&2; exit 2", "GUARD-AWK-C1"),
		// The form Claude's docs use.
		guard("awkward-dir/claude-quoted-var", driver.Claude,
			`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`,
			emit(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"GUARD-AWK-C2: rm -rf build is forbidden"}}`), "GUARD-AWK-C2"),
		// The form Gemini's docs use: bare, which Gemini itself substitutes
		// with a quoted value before bash runs.
		guard("awkward-dir/gemini-bare-var", driver.Gemini,
			`$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh`,
			emit(`{"decision":"deny","reason":"GUARD-AWK-G1: rm -rf build is forbidden"}`), "GUARD-AWK-G1"),
	}
}
