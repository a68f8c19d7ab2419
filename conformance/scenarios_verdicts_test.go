//go:build unix

package conformance

import "github.com/hookx-dev/hookx/internal/agentrun/driver"

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
	// The Claude guard's stdout is held by a background process until the
	// host has gone on to the harmless command (which creates
	// held.released), so it is still held whenever the host looks, however
	// late a loaded machine lets it look (it was `sleep 3`). A host that
	// waited for end of file instead would wait past its 30 s hook timeout
	// (the holder gives up after at least 60 s) and fail the check, as
	// before.
	held := guard("held-output/claude-grant-refused", driver.Claude,
		emit(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"looks fine"}}`)+
			`(i=0; while [ ! -e "$HOME/project/held.released" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done) &`+"\n",
		"refusing to honor the suspect capture")
	held.steps = []action{shell("rm -rf build"), shell("touch held.released; printf ALLOW%s -RAN")}
	held.check = guardCheckCmd("refusing to honor the suspect capture", "touch held.released; printf ALLOW%s -RAN")
	return []*scenario{
		// Held output (item 9). A Claude hook that grants, then leaves a
		// background process holding its stdout: Claude Code refuses the
		// capture and blocks (live-findings-2026-11-23.md); through hookx
		// on Gemini it must block too, with Claude's reason.
		held,
		// A Gemini hook whose verdict comes from a background process after
		// the hook exited: Gemini CLI waits for end of file and reads it;
		// through hookx on Claude the verdict must still be read. The
		// background process prints a second after the hook's shell has
		// exited (gone, or a zombie in /proc), so the verdict comes after
		// the exit and after any short wait for quiet output, however the
		// machine schedules them (a bare `sleep 1` could end before a
		// starved shell exited, and test nothing).
		guard("held-output/gemini-late-verdict", driver.Gemini,
			`(while [ -e /proc/$$ ] && ! grep -q '^State:[[:space:]]*Z' /proc/$$/status 2>/dev/null; do sleep 0.05; done; sleep 1; `+
				`echo '{"decision":"deny","reason":"HELD-G-LATE: rm -rf build is forbidden"}') &`,
			"HELD-G-LATE"),
	}
}
