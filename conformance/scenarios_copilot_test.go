//go:build unix

package conformance

import (
	"fmt"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// copilotScenarios are issue 15's scenarios for Copilot CLI 1.0.102 through
// hookx, each with its native oracle:
//
//   - a Claude guard project migrated to Copilot blocks `rm -rf` with the
//     reason reaching the model. The project keeps its .claude/settings.json,
//     which Copilot also runs itself: with a decision "block" (which Copilot's
//     own reading ignores) only hookx's copy can block; with exit 2 (whose
//     stderr Copilot drops) only hookx's copy can carry the reason;
//   - Copilot's own guard migrated to Claude blocks in Claude, also a guard
//     that denies by failing (Copilot fails closed on every non-zero exit);
//   - a hand-written `hookx wrap --from claude` entry in .github/hooks blocks;
//   - the harmless command still runs (guardCheck's second step), and no
//     settings warnings (commonProblems; Copilot logs config errors in
//     ~/.copilot/logs, which the driver reads).
func copilotScenarios() []*scenario {
	steps := []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN; sleep 0.3")}
	files := map[string]string{"build/keep.txt": "keep\n"}
	claudeGuard := func(name, body, marker string) *scenario {
		return &scenario{
			name: name, dialect: driver.Claude, steps: steps, to: []driver.Agent{driver.Copilot}, noPeer: true,
			hooks:   []hookDef{{event: "PreToolUse", matcher: "Bash", script: "guard"}},
			scripts: map[string]string{"guard": onDangerous(body)},
			files:   files, check: guardCheck(marker),
		}
	}
	exit1 := func(sc *scenario) *scenario {
		// Copilot logs a failing hook where it logs config errors (seen
		// live): the native run must say so; the hookx run has no warning.
		sc.wantWarning = "Hook command failed with code 1"
		return sc
	}
	copilotGuard := func(name, body string, check func(o *outcome) []string) *scenario {
		return &scenario{
			name: name, dialect: driver.Copilot, steps: steps, to: []driver.Agent{driver.Claude},
			hooks:   []hookDef{{event: "preToolUse", script: "guard"}},
			scripts: map[string]string{"guard": onDangerous(body)},
			files:   files, check: check,
		}
	}
	return []*scenario{
		claudeGuard("copilot/claude-guard-decision-block", emit(`{"decision":"block","reason":"GUARD-CP-BLOCK: rm -rf build is forbidden"}`), "GUARD-CP-BLOCK"),
		claudeGuard("copilot/claude-guard-exit2", "echo 'GUARD-CP-EXIT2: rm -rf build is forbidden' >&2; exit 2", "GUARD-CP-EXIT2"),
		copilotGuard("copilot/copilot-guard-to-claude",
			emit(`{"permissionDecision":"deny","permissionDecisionReason":"GUARD-PC-DENY: rm -rf build is forbidden"}`), guardCheck("GUARD-PC-DENY")),
		// Copilot's reason for a failing hook is its own ("hook errored"),
		// hookx's is the exit code: the block is what must hold.
		exit1(copilotGuard("copilot/copilot-guard-exit1-fails-closed-in-claude", "exit 1", blockedAndHarmlessRan)),
		{
			name: "copilot/hand-written-wrap-from-claude", dialect: driver.Copilot, steps: steps, to: []driver.Agent{}, needsHookx: true,
			hooks:   []hookDef{{event: "preToolUse", raw: `hookx wrap --from claude -- "$COPILOT_PROJECT_DIR"/.github/hooks/guard.sh`}},
			scripts: map[string]string{"guard": onDangerous("echo 'GUARD-HW-EXIT2: rm -rf build is forbidden' >&2; exit 2")},
			files:   files, check: guardCheck("GUARD-HW-EXIT2"),
		},
	}
}

// blockedAndHarmlessRan is guardCheck without the reason: the dangerous
// call was blocked and the harmless one ran.
func blockedAndHarmlessRan(o *outcome) []string {
	var p []string
	if !o.exists("build/keep.txt") {
		p = append(p, "the guard did not block: build/ was removed")
	}
	rs := lastResults(o)
	if len(rs) != 2 {
		return append(p, fmt.Sprintf("the model got %d tool results, want 2", len(rs)))
	}
	if rs[0].Text == "" || (hosts[o.host].errorFlag && !rs[0].IsError) {
		p = append(p, fmt.Sprintf("the blocked call's result (error=%v) %q says nothing", rs[0].IsError, rs[0].Text))
	}
	return p
}
