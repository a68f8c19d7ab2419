//go:build unix

package conformance

import (
	"fmt"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/mappings"
)

// exitScenarios are the exit codes to which an agent gives an effect of its
// own (mappings output.exits; issue 23, item 1): Factory Droid aborts the
// agent when a PreToolUse hook exits 3 ("Hook returned exit code 3,
// throwing AgentAbortError") and refuses the prompt when a UserPromptSubmit
// hook does. Through hookx on every other host the tool must not run and the
// agent must stop where the host can stop it on that event (elsewhere the
// deny's reason reaches the model); the prompt must not reach the model.
//
// Droid does not fire UserPromptSubmit in droid exec, so the prompt family
// has no native run: its oracle is Droid's binary
// (mappings/data/evidence/droid-output.jsonc).
func exitScenarios() []*scenario {
	others := []driver.Agent{driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen}
	d := hosts[driver.Droid]
	return []*scenario{
		{
			name: "abort/droid-exit3", dialect: driver.Droid, to: others, anyExit: true,
			steps:   []action{shell("rm -rf build"), shell("touch after-abort; printf ALLOW%s -RAN; sleep 0.3")},
			hooks:   []hookDef{{event: "PreToolUse", matcher: d.shellMatcher, script: "guard"}},
			scripts: map[string]string{"guard": onDangerous("echo 'ABORT-D-EXIT3: rm -rf build aborts the agent' >&2; exit 3")},
			files:   map[string]string{"build/keep.txt": "keep\n"},
			check:   abortCheck("ABORT-D-EXIT3"),
		},
		{
			// Claude's continue:false on PreToolUse stops the agent. Claude
			// Code 2.1.330 still runs the tool first (live 2026-11-28: build/
			// removed, then no further model request). Through hookx every
			// host that reads a deny gets one beside the stop (issue 23,
			// item 8), so there the tool does not run, which grants less;
			// where the host can stop on the event, it stops too. Copilot
			// runs .claude hooks itself, so only hookx's copy is left there.
			name: "stop-guard/claude-continue-false", dialect: driver.Claude, noPeer: true, removeSource: true, anyExit: true,
			to:      []driver.Agent{driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen, driver.Droid},
			steps:   []action{shell("rm -rf build"), shell("touch after-abort; printf ALLOW%s -RAN; sleep 0.3")},
			hooks:   []hookDef{{event: "PreToolUse", matcher: "Bash", script: "guard"}},
			scripts: map[string]string{"guard": onDangerous(emit(`{"continue":false,"stopReason":"STOP-C-GUARD: rm -rf build stops the agent"}`))},
			files:   map[string]string{"build/keep.txt": "keep\n"},
			check: func(o *outcome) []string {
				var p []string
				if o.host != driver.Claude && !o.exists("build/keep.txt") {
					p = append(p, "no deny beside continue:false: the command ran (build/ was removed)")
				}
				if hostStopsTool(o.host) && o.exists("after-abort") {
					p = append(p, "the agent went on after continue:false: the next command ran")
				}
				return p
			},
		},
		{
			// Exit 3 after a tool aborts Droid before the tool's result is
			// recorded: the model never sees it. Hosts that cannot stop
			// there hide it instead (Codex's continue:false, Copilot's
			// block).
			name: "abort/droid-posttool-exit3", dialect: driver.Droid, to: others, anyExit: true,
			okWarning: "Tool result blocked by hook", // Copilot logs every block it honours
			steps:     []action{shell("printf POST%s -OUT; sleep 0.3"), shell("touch after-abort")},
			hooks:     []hookDef{{event: "PostToolUse", matcher: d.shellMatcher, script: "post"}},
			scripts:   map[string]string{"post": "cat >/dev/null\necho 'ABORT-D-POST3: stop here' >&2; exit 3\n"},
			check: func(o *outcome) []string {
				for _, r := range o.srv.Main() {
					if strings.Contains(r.AllText(), "POST-OUT") {
						return []string{"the tool's output POST-OUT reached the model after the hook's exit 3"}
					}
				}
				return nil
			},
		},
		{
			name: "prompt/droid-exit3", dialect: driver.Droid, to: others, anyExit: true, noNative: true,
			steps:   []action{say("PROMPT-ANSWERED")},
			hooks:   []hookDef{{event: "UserPromptSubmit", script: "prompt"}},
			scripts: map[string]string{"prompt": readInput + "LABEL=prompt\n" + logInput + "echo 'PROMPT-EXIT3-D: not this prompt' >&2; exit 3\n"},
			check:   promptBlocked,
		},
	}
}

// abortCheck: the command the hook aborted on did not run; where the host
// can stop the agent on its pre-tool event (the table's output.stop), the
// agent stopped there, so the next command never ran; elsewhere the hook's
// reason reached the model with the deny.
func abortCheck(marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		if !o.exists("build/keep.txt") {
			p = append(p, "the hook's exit 3 did not stop the command: build/ was removed")
		}
		if hostStopsTool(o.host) {
			if o.exists("after-abort") {
				p = append(p, "the agent went on after the hook's exit 3: the next command ran")
			}
			return p
		}
		reached := false
		for _, r := range o.srv.Main() {
			reached = reached || strings.Contains(r.AllText(), marker)
		}
		if !reached {
			p = append(p, fmt.Sprintf("%s cannot stop the agent before a tool, and the hook's reason %s did not reach the model", o.host, marker))
		}
		return p
	}
}

// hostStopsTool reports whether the table says the host's agent stops on
// its pre-tool event (continue:false).
func hostStopsTool(host driver.Agent) bool {
	d, err := mappings.Default().Dialect(string(host))
	if err != nil {
		return false
	}
	ev := d.Event(hosts[host].preTool)
	return ev != nil && ev.Output.Stop
}
