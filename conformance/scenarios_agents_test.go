//go:build unix

package conformance

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// agentScenarios are the native oracles of the four agents of issue 15:
// each agent's own guard, in its own configuration format, blocks
// `rm -rf build` with its reason reaching the model, and the harmless
// command still runs with the hook present, with no settings warnings.
// Each agent also has a negative control: a deliberately wrong-shaped
// configuration that the agent does not load, which must make the guard
// check fail and the agent's warning channel say so, so the oracle cannot
// pass vacuously.
//
// Codex refuses `rm -rf` itself whatever the hooks say (its exec policy),
// so a Codex block is judged by the hook's reason reaching the model, which
// guardCheck checks for every agent.
func agentScenarios() []*scenario {
	// The harmless command waits a little after its output: Qwen Code's
	// shell tool collects output until the child's "exit" event, not
	// "close", and under load it lost the output of a command that exited at
	// once ("Output: (empty)", seen 2026-11-23).
	guardSteps := []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN; sleep 0.3")}
	guard := func(name string, a driver.Agent, body, marker string) *scenario {
		hs := hosts[a]
		return &scenario{
			name: name, dialect: a, steps: guardSteps,
			hooks:   []hookDef{{event: hs.preTool, matcher: hs.shellMatcher, script: "guard"}},
			scripts: map[string]string{"guard": onDangerous(body)},
			files:   map[string]string{"build/keep.txt": "keep\n"},
			check:   guardCheck(marker),
		}
	}
	// control is guard with a wrong-shaped configuration, config(command)
	// being its text given the guard's command: the agent must report
	// warning, and the guard must not have blocked.
	control := func(name string, a driver.Agent, body, marker, warning string, config func(command string) string) *scenario {
		sc := guard(name, a, body, marker)
		sc.config = config(sc.command(sc.hooks[0]))
		sc.wantWarning = warning
		sc.check = notBlocked(marker)
		return sc
	}
	exit2 := func(marker string) string { return "echo '" + marker + ": rm -rf build is forbidden' >&2; exit 2" }
	denyJSON := func(marker string) string {
		return emit(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + marker + `: rm -rf build is forbidden"}}`)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	// Facts the translations rely on, seen in the agents themselves: what
	// each does with an answer that blocks in Claude Code.
	verdict := func(name string, a driver.Agent, body, marker string, check func(marker string) func(*outcome) []string) *scenario {
		sc := guard(name, a, body, marker)
		sc.check = check(marker)
		return sc
	}
	return []*scenario{
		// Droid ignores a top-level decision:block, where Claude blocks.
		verdict("verdict/droid-decision-block-ignored", driver.Droid,
			emit(`{"decision":"block","reason":"GUARD-D-TOPBLOCK: rm -rf build is forbidden"}`), "GUARD-D-TOPBLOCK", ranAnyway),
		// Copilot denies on exit 2 but drops the hook's stderr: the model
		// learns only the exit code.
		verdict("verdict/copilot-exit2-reason-dropped", driver.Copilot, exit2("GUARD-P-EXIT2"), "GUARD-P-EXIT2", blockedWithout("hook exited with code 2")),
		guard("guard/codex-permissionDecision-deny", driver.Codex, denyJSON("GUARD-X-DENY"), "GUARD-X-DENY"),
		guard("guard/codex-exit2", driver.Codex, exit2("GUARD-X-EXIT2"), "GUARD-X-EXIT2"),
		guard("guard/codex-decision-block", driver.Codex, emit(`{"decision":"block","reason":"GUARD-X-BLOCK: rm -rf build is forbidden"}`), "GUARD-X-BLOCK"),
		control("control/codex-extra-root-key-drops-file", driver.Codex, exit2("GUARD-X-ROOTKEY"), "GUARD-X-ROOTKEY",
			"failed to parse hooks config", func(cmd string) string {
				return `{"version":1,"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":` + q(cmd) + `,"timeout":30}]}]}}` + "\n"
			}),
		guard("guard/qwen-permissionDecision-deny", driver.Qwen, denyJSON("GUARD-Q-DENY"), "GUARD-Q-DENY"),
		guard("guard/qwen-exit2", driver.Qwen, exit2("GUARD-Q-EXIT2"), "GUARD-Q-EXIT2"),
		control("control/qwen-invalid-handler-type", driver.Qwen, exit2("GUARD-Q-SHELLTYPE"), "GUARD-Q-SHELLTYPE",
			"Invalid hook PreToolUse", func(cmd string) string {
				return `{"hooks":{"PreToolUse":[{"matcher":"run_shell_command","hooks":[{"type":"shell","command":` + q(cmd) + `,"timeout":30}]}]}}` + "\n"
			}),
		guard("guard/copilot-permissionDecision-deny", driver.Copilot,
			emit(`{"permissionDecision":"deny","permissionDecisionReason":"GUARD-P-DENY: rm -rf build is forbidden"}`), "GUARD-P-DENY"),
		control("control/copilot-handlers-not-a-list", driver.Copilot,
			emit(`{"permissionDecision":"deny","permissionDecisionReason":"GUARD-P-NOTLIST: rm -rf build is forbidden"}`), "GUARD-P-NOTLIST",
			"Invalid hook configuration", func(cmd string) string {
				return `{"version":1,"hooks":{"preToolUse":{"type":"command","bash":` + q(cmd) + `,"timeoutSec":30}}}` + "\n"
			}),
		guard("guard/droid-exit2", driver.Droid, exit2("GUARD-D-EXIT2"), "GUARD-D-EXIT2"),
		guard("guard/droid-permissionDecision-deny", driver.Droid, denyJSON("GUARD-D-DENY"), "GUARD-D-DENY"),
		control("control/droid-hooks-wrapper-ignored", driver.Droid, exit2("GUARD-D-WRAPPED"), "GUARD-D-WRAPPED",
			"Ignoring unknown hook event keys", func(cmd string) string {
				return `{"hooks":{"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":` + q(cmd) + `,"timeout":30}]}]}}` + "\n"
			}),
	}
}

// ranAnyway checks that the hook's answer did not block: the destructive
// command ran, and the hook's reason did not reach the model.
func ranAnyway(marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		if o.exists("build/keep.txt") {
			p = append(p, "build/ is still there: the answer blocked")
		}
		return append(p, reasonAbsent(o, marker)...)
	}
}

// blockedWithout checks a block whose reason did not reach the model: the
// destructive command did not run, the blocked call's result says want, and
// the harmless command ran.
func blockedWithout(want string) func(marker string) func(o *outcome) []string {
	return func(marker string) func(o *outcome) []string {
		return func(o *outcome) []string {
			p := reasonAbsent(o, marker)
			if !o.exists("build/keep.txt") {
				p = append(p, "the hook did not block: build/ was removed")
			}
			rs := lastResults(o)
			if len(rs) != 2 {
				return append(p, fmt.Sprintf("the model got %d tool results, want 2", len(rs)))
			}
			if !strings.Contains(rs[0].Text, want) {
				p = append(p, fmt.Sprintf("the blocked call's result %q lacks %q", rs[0].Text, want))
			}
			if !strings.Contains(rs[1].Text, "ALLOW-RAN") {
				p = append(p, fmt.Sprintf("the harmless command's output ALLOW-RAN did not reach the model; it got %q", rs[1].Text))
			}
			return p
		}
	}
}

func reasonAbsent(o *outcome, marker string) []string {
	for _, r := range o.srv.Main() {
		if strings.Contains(r.AllText(), marker) {
			return []string{fmt.Sprintf("the hook's reason %s reached the model", marker)}
		}
	}
	return nil
}

// notBlocked is a negative control's check: the guard check must fail (the
// hook did not run), and the hook's reason must not have reached the model.
func notBlocked(marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		if len(guardCheck(marker)(o)) == 0 {
			p = append(p, "the guard check passed: the hook ran although its configuration is wrong-shaped")
		}
		return append(p, reasonAbsent(o, marker)...)
	}
}
