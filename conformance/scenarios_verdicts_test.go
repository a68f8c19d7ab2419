//go:build unix

package conformance

import "github.com/hookx-dev/hookx/conformance/internal/driver"

// verdictScenarios pin what the host does with a hook's answer (issue 8,
// "Verdicts"). Each runs natively, the oracle, and through hookx.
func verdictScenarios() []*scenario {
	steps := []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN")}
	guard := func(name string, dialect driver.Agent, body, marker string) *scenario {
		event, matcher := "PreToolUse", "Bash"
		if dialect == driver.Gemini {
			event, matcher = "BeforeTool", "run_shell_command"
		}
		return &scenario{
			name: name, dialect: dialect, steps: steps, noPeer: true,
			hooks:   []hookDef{{event: event, matcher: matcher, script: "guard"}},
			scripts: map[string]string{"guard": onDangerous(body)},
			files:   map[string]string{"build/keep.txt": "keep\n"},
			check:   guardCheck(marker),
		}
	}
	return []*scenario{
		// Held output (item 9). A Claude hook that grants, then leaves a
		// background process holding its stdout: Claude Code refuses the
		// capture and blocks (live-findings-2026-11-23.md); through hookx
		// on Gemini it must block too, with Claude's reason.
		guard("held-output/claude-grant-refused", driver.Claude,
			emit(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"looks fine"}}`)+"sleep 3 &\n",
			"refusing to honor the suspect capture"),
		// A Gemini hook whose verdict comes from a background process after
		// the hook exited: Gemini CLI waits for end of file and reads it;
		// through hookx on Claude the verdict must still be read.
		guard("held-output/gemini-late-verdict", driver.Gemini,
			`(sleep 1; echo '{"decision":"deny","reason":"HELD-G-LATE: rm -rf build is forbidden"}') &`,
			"HELD-G-LATE"),
	}
}
