//go:build unix

package conformance

import (
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// codexScenarios are issue 15's proofs for Codex CLI 0.169.0, each with its
// native oracle: the guard's own agent runs the same project first.
//
//   - A Claude guard project migrated to Codex blocks `rm -rf build`, and
//     the guard's reason reaches the model. Codex's own exec policy refuses
//     `rm -rf` whatever the hooks say, so guardCheck's reason check is the
//     judge here, not build/ surviving. The guard names its script through
//     $CLAUDE_PROJECT_DIR, which Codex does not set: hookx wrap supplies it.
//     A Gemini guard (${GEMINI_PROJECT_DIR}) migrated to Codex does too.
//   - Codex's own guard migrated to Claude blocks in Claude.
//   - A hand-written `hookx wrap --from claude` entry in .codex/hooks.json
//     blocks, with an answer Codex itself would refuse (suppressOutput
//     fails a Codex PreToolUse hook, and the command runs).
//   - Its control runs the same answer without hookx wrap: Codex fails the
//     hook and its reason never reaches the model.
//   - In each, the harmless command still runs (guardCheck), and no run
//     has a settings warning (commonProblems).
func codexScenarios() []*scenario {
	steps := []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN")}
	guard := func(name string, dialect driver.Agent, to []driver.Agent, body, marker string) *scenario {
		hs := hosts[dialect]
		return &scenario{
			name: name, dialect: dialect, steps: steps, to: to, noPeer: true,
			hooks:   []hookDef{{event: hs.preTool, matcher: hs.shellMatcher, script: "guard"}},
			scripts: map[string]string{"guard": onDangerous(body)},
			files:   map[string]string{"build/keep.txt": "keep\n"},
			check:   guardCheck(marker),
		}
	}
	exit2 := func(marker string) string { return "echo '" + marker + ": rm -rf build is forbidden' >&2; exit 2" }
	codex := []driver.Agent{driver.Codex}
	claude := []driver.Agent{driver.Claude}

	handWritten := guard("codex/hand-written-wrap-from-claude", driver.Codex, []driver.Agent{},
		emit(`{"decision":"block","reason":"GUARD-XW-BLOCK: rm -rf build is forbidden","suppressOutput":true}`), "GUARD-XW-BLOCK")
	handWritten.hooks[0].raw = "hookx wrap --from claude --host codex -- ./.codex/hooks/guard.sh"
	handWritten.needsHookx = true

	// Its control: the same guard without hookx wrap. Codex fails a
	// PreToolUse hook that answers with suppressOutput and runs the
	// command, so the reason must not reach the model.
	unwrapped := guard("codex/control-claude-answer-unwrapped", driver.Codex, []driver.Agent{},
		emit(`{"decision":"block","reason":"GUARD-XU-BLOCK: rm -rf build is forbidden","suppressOutput":true}`), "GUARD-XU-BLOCK")
	unwrapped.check = notBlocked("GUARD-XU-BLOCK")

	// A second source migrated into the same .codex/hooks.json keeps the
	// first one's guard (issue 24: the Gemini run removed the Claude
	// guard's entry, both ids being @project, and rm -rf build ran).
	twoSources := guard("codex/claude-guard-kept-after-gemini-migrate", driver.Claude, codex, exit2("GUARD-CX-TWO"), "GUARD-CX-TWO")
	twoSources.files[".gemini/settings.json"] = `{"hooks": {"SessionStart": [{"hooks": [{"name": "hello", "type": "command", "command": "true"}]}]}}` + "\n"
	twoSources.alsoFrom = []driver.Agent{driver.Gemini}

	return []*scenario{
		twoSources,
		guard("codex/claude-exit2-to-codex", driver.Claude, codex, exit2("GUARD-CX-EXIT2"), "GUARD-CX-EXIT2"),
		guard("codex/claude-deny-to-codex", driver.Claude, codex,
			emit(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"GUARD-CX-DENY: rm -rf build is forbidden"}}`), "GUARD-CX-DENY"),
		guard("codex/gemini-deny-to-codex", driver.Gemini, codex,
			emit(`{"decision":"deny","reason":"GUARD-GX-DENY: rm -rf build is forbidden"}`), "GUARD-GX-DENY"),
		guard("codex/codex-exit2-to-claude", driver.Codex, claude, exit2("GUARD-XC-EXIT2"), "GUARD-XC-EXIT2"),
		guard("codex/codex-block-to-claude", driver.Codex, claude,
			emit(`{"decision":"block","reason":"GUARD-XC-BLOCK: rm -rf build is forbidden"}`), "GUARD-XC-BLOCK"),
		handWritten,
		unwrapped,
	}
}

// alsoToCodex runs the other scenario families through hookx on Codex too,
// where Codex has the event: a rewrite (Codex applies it only beside an
// allow), prompt and session context, a Stop hook asking for one more turn,
// one that always asks (Codex has no cap; hookx wrap keeps Claude's 8), a
// Claude Stop hook that blocks unless stop_hook_active, and a Gemini
// AfterAgent hook that denies unless it, which hookx must answer from
// Codex's own transcript.
func alsoToCodex(list []*scenario) {
	names := map[string]bool{
		"rewrite/claude-updatedInput":            true,
		"rewrite/gemini-tool_input":              true,
		"context/claude-plain-stdout-and-json":   true,
		"context/claude-json-and-plain-stdout":   true,
		"context/gemini-additionalContext":       true,
		"stop-once/claude-decision-block":        true,
		"stop-once/gemini-decision-deny":         true,
		"stop-tools/gemini-deny-unless-active":   true,
		"stop-tools/claude-block-unless-active":  true,
		"stop-always/claude-decision-block":      true,
		"guard/claude-exit2":                     true,
		"guard/claude-legacy-block":              true,
		"guard/gemini-decision-block":            true,
		"guard/gemini-decision-deny":             true,
		"guard/gemini-text-exit3":                true,
		"hide-output/gemini-deny-shell":          true,
		"posttool/claude-fields":                 true,
		"posttool/gemini-fields":                 true,
		"misspelled/claude-fails-open":           true,
		"misspelled/gemini-blocks":               true,
		"async/claude-first-line-not-waited-for": true,
	}
	for _, sc := range list {
		if names[sc.name] {
			sc.to = append(sc.targets(), driver.Codex)
		}
	}
}
