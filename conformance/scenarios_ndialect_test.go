//go:build unix

package conformance

import (
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// ndialectScenarios are issue 15's five checks for each agent X that is a
// data file of the table (Qwen Code, Factory Droid), through hookx:
//   - a Claude guard project migrated to X blocks `rm -rf` in X, with the
//     reason reaching the model (claude-guard-to-X, on host X);
//   - X's own guard migrated to Claude blocks in Claude (X-guard-to-claude);
//   - a hand-written `hookx wrap --from claude` entry in X's own
//     configuration blocks (X-handwritten-wrap, native on X, host detected);
//   - the harmless command still runs, and no settings warnings (every
//     guardCheck and commonProblems).
func ndialectScenarios() []*scenario {
	steps := []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN; sleep 0.3")}
	exit2 := func(marker string) string { return "echo '" + marker + ": rm -rf build is forbidden' >&2; exit 2" }
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
	// handwritten is X's own configuration holding a Claude guard behind
	// "hookx wrap --from claude" with no --host: wrap tells the host from
	// the agent's own variable.
	handwritten := func(name string, x driver.Agent, marker string) *scenario {
		sc := guard(name, x, []driver.Agent{}, exit2(marker), marker)
		sc.hooks[0].raw = "hookx wrap --from claude -- " + sc.command(hookDef{script: "guard"})
		sc.needsHookx = true
		return sc
	}
	var list []*scenario
	list = append(list,
		guard("ndialect/claude-guard-to-qwen-and-droid", driver.Claude, []driver.Agent{driver.Qwen, driver.Droid},
			exit2("GUARD-C-TO-X"), "GUARD-C-TO-X"),
		guard("ndialect/claude-permission-deny-to-qwen-and-droid", driver.Claude, []driver.Agent{driver.Qwen, driver.Droid},
			emit(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"GUARD-C-PD: rm -rf build is forbidden"}}`), "GUARD-C-PD"),
		guard("ndialect/qwen-guard-to-claude", driver.Qwen, []driver.Agent{driver.Claude}, exit2("GUARD-Q-TO-C"), "GUARD-Q-TO-C"),
		guard("ndialect/droid-guard-to-claude", driver.Droid, []driver.Agent{driver.Claude}, exit2("GUARD-D-TO-C"), "GUARD-D-TO-C"),
		handwritten("ndialect/qwen-handwritten-wrap", driver.Qwen, "GUARD-Q-WRAP"),
		handwritten("ndialect/droid-handwritten-wrap", driver.Droid, "GUARD-D-WRAP"),
	)
	for _, sc := range list {
		if sc.needsHookx && !strings.Contains(sc.hooks[0].raw, "hookx wrap --from claude -- ") {
			panic("handwritten scenario without its wrap entry")
		}
	}
	return list
}
