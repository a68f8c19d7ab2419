//go:build unix

package conformance

import (
	"fmt"
	"os"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/mappings"
)

// stopLoopScenarios are the stop-loop scenarios of issue 23 item 5.
//
// A Claude Stop hook that blocks ten times while every continuation uses a
// tool: Claude Code resets its count of consecutive blocks when the model
// uses a tool (stopHookBlockingCount is 0 again on a next_turn with tool
// use, claude 2.1.330), so it honours all ten blocks: 21 model calls. A
// hookx that never reset the count ended the loop after 8 blocks on a host
// without a cap (17 calls; live: 9 stops and 17 calls where Claude ran 50
// and 91). Hosts with their own cap that counts across tool round trips
// (Qwen Code's, documented; Copilot CLI's, live here) end the turn
// themselves, which wrap reports; the hooks of those agents are ended at
// their cap through hookx on the hosts that would go on.
//
// Two Stop hooks in one project, one that blocks once unless
// stop_hook_active and one that checkpoints unless stop_hook_active: after
// the block, the agent tells every stop hook of the next stop that a stop
// hook is active (Claude also after a tool-using continuation, Gemini not).
// Claude: one checkpoint; Gemini: two (its flag is false again after the
// tool, and the blocker blocks a second time). Through hookx each hook must
// see its own agent's flag although another hook blocked: a hookx that kept
// the flag per hook told the checkpointer false (Claude's hook on Gemini:
// two checkpoints) or the host's true (Gemini's on Claude: one).
func stopLoopScenarios() []*scenario {
	var list []*scenario

	const blocks = 10
	var steps []action
	for i := 1; i <= blocks; i++ {
		steps = append(steps, say(fmt.Sprintf("answer %d", i)), shell(fmt.Sprintf("printf LOOP%%s -%d", i)))
	}
	steps = append(steps, say("last answer"))
	blockTimes := fmt.Sprintf("n=$(cat \"$HOME/stop-blocks\" 2>/dev/null || echo 0)\n"+
		"[ \"$n\" -ge %d ] && exit 0\necho $((n+1)) > \"$HOME/stop-blocks\"\n", blocks)
	// honoured is how many of the hook's blocks run: all of them, unless
	// the hook's agent or the host has a cap that counts across tools.
	honoured := func(agents ...driver.Agent) int {
		n := blocks
		for _, a := range agents {
			ev, _ := mappings.Default().MustDialect(string(a)).EventFor("agent.stop")
			if c := ev.Output.BlockCap; c > 0 && !ev.Output.BlockCapResetByTools && c < n {
				n = c
			}
		}
		return n
	}
	loop := func(d driver.Agent, event string, to ...driver.Agent) *scenario {
		return &scenario{
			name: "stop-always/" + string(d) + "-tools-between-blocks", dialect: d, steps: steps,
			hooks:   []hookDef{{event: event, script: "stop"}},
			scripts: map[string]string{"stop": "cat >/dev/null\n" + blockTimes + emit(`{"decision":"block","reason":"TOOLS-LOOP: run the next check"}`)},
			to:      to,
			maxMain: 30,
			check: func(o *outcome) []string {
				n := honoured(d, o.host)
				return modelCallsWhy(2*n+1, fmt.Sprintf("%d honoured blocks, a tool call after each", n))(o)
			},
		}
	}
	list = append(list,
		// Copilot CLI runs the Claude hook itself (.claude/settings.json).
		loop(driver.Claude, "Stop", driver.Gemini, driver.Codex, driver.Droid, driver.Qwen, driver.Copilot),
		// Qwen Code honours 7 blocks whatever the model did (its docs:
		// "keep counting across tool round trips"), Copilot CLI 8 (live).
		loop(driver.Qwen, "Stop", driver.Claude, driver.Gemini, driver.Codex, driver.Droid),
		loop(driver.Copilot, "agentStop", driver.Claude, driver.Gemini, driver.Codex, driver.Droid),
	)

	twoSteps := []action{say("first answer"), shell("printf CONT%s -RAN"), say("second answer")}
	active := "case \"$input\" in *'\"stop_hook_active\":true'*|*'\"stop_hook_active\": true'*) exit 0;; esac\n"
	checkpoint := readInput + active + "echo checkpoint >> \"$HOME/checkpoints\"\n"
	checkpoints := func(calls, want int) func(o *outcome) []string {
		return func(o *outcome) []string {
			p := modelCalls(calls)(o)
			b, _ := os.ReadFile(o.sb.Home + "/checkpoints")
			if got := strings.Count(string(b), "checkpoint"); got != want {
				p = append(p, fmt.Sprintf("the checkpointing hook checkpointed %d times, want %d", got, want))
			}
			return p
		}
	}
	list = append(list,
		&scenario{
			name: "stop-tools/claude-two-hooks-checkpoint", dialect: driver.Claude, steps: twoSteps,
			hooks: []hookDef{{event: "Stop", script: "block"}, {event: "Stop", script: "checkpoint"}},
			scripts: map[string]string{
				"block":      readInput + active + emit(`{"decision":"block","reason":"TWO-HOOKS-C: run the check"}`),
				"checkpoint": checkpoint,
			},
			to:      []driver.Agent{driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen, driver.Droid},
			maxMain: 15,
			check:   checkpoints(3, 1),
		},
		&scenario{
			name: "stop-tools/gemini-two-hooks-checkpoint", dialect: driver.Gemini, steps: twoSteps,
			hooks: []hookDef{{event: "AfterAgent", script: "block"}, {event: "AfterAgent", script: "checkpoint"}},
			scripts: map[string]string{
				"block":      readInput + active + emit(`{"decision":"deny","reason":"TWO-HOOKS-G: run the check"}`),
				"checkpoint": checkpoint,
			},
			to:      []driver.Agent{driver.Claude, driver.Codex, driver.Copilot, driver.Qwen, driver.Droid},
			maxMain: 15,
			check:   checkpoints(4, 2),
		},
	)
	return list
}
