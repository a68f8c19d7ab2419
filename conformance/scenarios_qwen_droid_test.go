//go:build unix

package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
	"github.com/hookx-dev/hookx/mappings"
)

// qwenDroidScenarios are issue 15's scenario families beyond the pre-tool
// guard for Qwen Code 0.24.4 and Factory Droid 0.225.2. Both speak Claude
// Code's protocol (its event names, its configuration shape), so each family
// is one hook written three times, in Claude's, Qwen's and Droid's idiom:
//
//   - <family>/qwen and <family>/droid run the agent's own hook natively:
//     the oracle of what the agent does;
//   - <family>/claude runs a Claude hook natively on Claude Code and, through
//     `hookx migrate --from claude --to qwen|droid`, on Qwen and Droid, where
//     it must behave as the oracle did.
//
// The families: context after a tool (PostToolUse additionalContext), a
// block after a tool (the reason reaches the model), a blocked prompt
// (UserPromptSubmit), session and prompt context (SessionStart,
// UserPromptSubmit), a Stop hook that asks for one more turn and one that
// always asks, SessionEnd, and guards on the file tools (a write to .env and
// an edit of it denied, another write let through), the last also from a
// Gemini hook migrated to Qwen.
//
// What the agents do differently, seen here (2026-11-27) and recorded in
// the mapping table, where hookx migrate and wrap report it:
//
//   - Qwen reads no block on PostToolUse (a decision, or exit 2, which it
//     turns into one): hookx sends a Claude hook's reason as
//     additionalContext. Droid reads exit 2 there, not the decision.
//   - Droid does not fire UserPromptSubmit in droid exec, and Qwen does not
//     fire SessionEnd in qwen -p: those runs show the hook never ran.
//   - Qwen honours 7 Stop blocks in a row (its cap of 8 counts the one it
//     ignores), Claude 8; Droid has no cap, and hookx wrap keeps Claude's 8
//     there.
func qwenDroidScenarios() []*scenario {
	both := []driver.Agent{driver.Qwen, driver.Droid}
	var list []*scenario
	// family writes the scenario once per dialect: Claude's migrated to
	// Qwen and Droid, Qwen's and Droid's natively. mk fills one in for its
	// dialect.
	family := func(name string, mk func(d driver.Agent) *scenario) {
		for _, d := range []driver.Agent{driver.Claude, driver.Qwen, driver.Droid} {
			sc := mk(d)
			if sc == nil {
				continue
			}
			sc.name = name + "/" + string(d)
			sc.noPeer = true
			if d == driver.Claude {
				sc.to = both
			} else {
				sc.to = []driver.Agent{}
			}
			list = append(list, sc)
		}
	}

	// PostToolUse: additionalContext after the shell tool reaches the model
	// with the tool's output.
	family("posttool-context", func(d driver.Agent) *scenario {
		return &scenario{
			dialect: d, steps: []action{shell("printf POST%s -OUT; sleep 0.3")},
			hooks: []hookDef{{event: "PostToolUse", matcher: hosts[d].shellMatcher, script: "post"}},
			scripts: map[string]string{"post": "cat >/dev/null\n" +
				emit(`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"POST-CTX-MARKER"}}`)},
			check: afterTool("POST-CTX-MARKER"),
		}
	})
	// PostToolUse: a block after the tool ran gives the model the reason.
	// Droid reads no decision on PostToolUse (droid.jsonc decisionIgnored):
	// its own hook blocks with exit 2; hookx writes Claude's decision so.
	family("posttool-block", func(d driver.Agent) *scenario {
		if d == driver.Qwen {
			return nil // Qwen has no block here: see posttool-block/qwen-decision-ignored
		}
		body := emit(`{"decision":"block","reason":"POST-BLOCK-MARKER: look again"}`)
		if d == driver.Droid {
			body = "echo 'POST-BLOCK-MARKER: look again' >&2; exit 2\n"
		}
		return &scenario{
			dialect: d, steps: []action{shell("printf POST%s -OUT; sleep 0.3")},
			hooks:   []hookDef{{event: "PostToolUse", matcher: hosts[d].shellMatcher, script: "post"}},
			scripts: map[string]string{"post": "cat >/dev/null\n" + body},
			check:   afterTool("POST-BLOCK-MARKER"),
		}
	})
	// Droid's and Qwen's own PostToolUse hook answering decision "block":
	// both ignore it, the reason never reaches the model (Qwen reads no
	// decision there at all, and turns exit 2 into one). Through hookx a
	// Claude block becomes exit 2 on Droid and additionalContext on Qwen.
	for _, d := range both {
		list = append(list, &scenario{
			name: "posttool-block/" + string(d) + "-decision-ignored", dialect: d, to: []driver.Agent{}, noPeer: true,
			steps:   []action{shell("printf POST%s -OUT; sleep 0.3")},
			hooks:   []hookDef{{event: "PostToolUse", matcher: hosts[d].shellMatcher, script: "post"}},
			scripts: map[string]string{"post": "cat >/dev/null\n" + emit(`{"decision":"block","reason":"POST-IGNORED-MARKER: look again"}`)},
			check: func(o *outcome) []string {
				p := reasonAbsent(o, "POST-IGNORED-MARKER")
				if !outputReached(o, "POST-OUT", "printf POST%s -OUT") {
					p = append(p, "the tool's output POST-OUT did not reach the model")
				}
				return p
			},
		})
	}

	// Which post-tool event fires for a shell command that fails (exit 3):
	// as in Claude (posttool-kind/claude-success-and-failure, which also
	// runs through hookx on Qwen), Qwen fires PostToolUse for the success
	// and PostToolUseFailure for the failure; Droid, which has no
	// PostToolUseFailure (migrate reports a hook on it as not carried),
	// fires PostToolUse for the success only.
	kindSteps := []action{shell("printf OK%s -RAN; sleep 0.3"), shell("printf FAIL%s -RAN; sleep 0.3; exit 3")}
	for _, d := range both {
		sc := &scenario{
			name: "posttool-kind/" + string(d) + "-success-and-failure", dialect: d, to: []driver.Agent{}, noPeer: true,
			steps:   kindSteps,
			hooks:   []hookDef{{event: "PostToolUse", matcher: hosts[d].shellMatcher, script: "ok"}},
			scripts: map[string]string{"ok": readInput + "LABEL=ok\n" + logInput, "failed": readInput + "LABEL=failed\n" + logInput},
			check:   func(o *outcome) []string { return firedFor(o, "ok", kindSteps[0].text) },
		}
		if d == driver.Qwen {
			sc.hooks = append(sc.hooks, hookDef{event: "PostToolUseFailure", matcher: hosts[d].shellMatcher, script: "failed"})
			sc.check = func(o *outcome) []string {
				return append(firedFor(o, "ok", kindSteps[0].text), firedFor(o, "failed", kindSteps[1].text)...)
			}
		}
		list = append(list, sc)
	}

	// A Claude PostToolUseFailure hook's exit 2 shows its stderr to the
	// model (Claude natively, the oracle). Qwen Code reads only
	// additionalContext there (firePostToolUseFailureHook,
	// chunk-DPEB6S2R.js:39955-39998): hookx sends the reason as that.
	failSteps := []action{shell("printf FAIL%s -RAN; sleep 0.3; exit 3"), say("done")}
	list = append(list, &scenario{
		name: "posttool-failure/claude-exit2-to-qwen", dialect: driver.Claude, to: []driver.Agent{driver.Qwen}, noPeer: true, removeSource: true,
		steps:   failSteps,
		hooks:   []hookDef{{event: "PostToolUseFailure", matcher: "Bash", script: "failed"}},
		scripts: map[string]string{"failed": readInput + "LABEL=failed\n" + logInput + "echo 'FAIL-FEEDBACK-CQ: the command failed, check it' >&2; exit 2\n"},
		check: func(o *outcome) []string {
			p := firedFor(o, "failed", failSteps[0].text)
			m := o.srv.Main()
			if len(m) < 2 || !strings.Contains(m[1].Conversation(), "FAIL-FEEDBACK-CQ") {
				p = append(p, "the model request after the failed command lacks the hook's reason FAIL-FEEDBACK-CQ")
			}
			return p
		},
	})

	// stop_hook_active after a continuation that used a tool: a Stop hook
	// that blocks unless it is set blocks once, as in Claude
	// (stop-tools/claude-block-unless-active: 3 model calls), where Gemini
	// says false again and the hook blocks twice. Through hookx on every
	// other host with a stop flag too: on Gemini hookx tells the hook true
	// after the tool-using continuation, as its own agent does (Droid's hook
	// was told Gemini's false, and blocked twice, while Droid's Stop
	// declared no stopActive in the table).
	for _, d := range both {
		list = append(list, &scenario{
			name: "stop-tools/" + string(d) + "-block-unless-active", dialect: d, to: []driver.Agent{driver.Gemini, driver.Claude, driver.Codex, driver.Copilot}, noPeer: true,
			steps: []action{say("first answer"), shell("printf CONT%s -RAN; sleep 0.3"), say("second answer")},
			hooks: []hookDef{{event: "Stop", script: "stop"}},
			scripts: map[string]string{"stop": readInput + "LABEL=stop\n" + logInput +
				"case \"$input\" in *'\"stop_hook_active\":true'*|*'\"stop_hook_active\": true'*) exit 0;; esac\n" +
				emit(`{"decision":"block","reason":"STOP-TOOLS-QD: run the check"}`)},
			maxMain: 15, check: modelCallsWhy(3, "one block: the flag stays true after a tool-using continuation"),
		})
	}

	// UserPromptSubmit: exit 2 blocks the prompt; the model never sees it.
	family("prompt-block", func(d driver.Agent) *scenario {
		return &scenario{
			dialect: d, prompt: "PROMPT-SECRET-91 do the task", steps: []action{say("answered")},
			hooks: []hookDef{{event: "UserPromptSubmit", script: "prompt"}},
			scripts: map[string]string{"prompt": readInput + "LABEL=prompt\n" + logInput +
				"case \"$input\" in *PROMPT-SECRET*) echo 'PROMPT-BLOCKED: no secrets in prompts' >&2; exit 2;; esac\n"},
			check: func(o *outcome) []string {
				var p []string
				reached := slices.ContainsFunc(o.srv.Requests(), func(r fakemodel.Request) bool {
					return strings.Contains(string(r.Body), "PROMPT-SECRET-91")
				})
				n := len(o.hookLogs("prompt."))
				if silent(o.host, "UserPromptSubmit") {
					if n != 0 || !reached {
						p = append(p, fmt.Sprintf("the prompt hook ran %d times and the prompt reached the model: %v; %s fires no UserPromptSubmit headless", n, reached, o.host))
					}
					return p
				}
				if n != 1 {
					p = append(p, fmt.Sprintf("the prompt hook ran %d times, want 1", n))
				}
				if reached {
					p = append(p, "the blocked prompt reached the model")
				}
				return p
			},
		}
	})

	// SessionStart (plain stdout) and UserPromptSubmit (JSON) context in
	// the first model request.
	family("context", func(d driver.Agent) *scenario {
		return &scenario{
			dialect: d, steps: []action{say("hello")},
			hooks: []hookDef{{event: "SessionStart", script: "session-start"}, {event: "UserPromptSubmit", script: "prompt"}},
			scripts: map[string]string{
				"session-start": "cat >/dev/null\necho 'SS-PLAIN-MARKER'\n",
				"prompt":        "cat >/dev/null\n" + emit(`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"UPS-JSON-MARKER"}}`),
			},
			check: func(o *outcome) []string {
				if silent(o.host, "UserPromptSubmit") {
					return append(firstRequestHas("SS-PLAIN-MARKER")(o), reasonAbsent(o, "UPS-JSON-MARKER")...)
				}
				return firstRequestHas("SS-PLAIN-MARKER", "UPS-JSON-MARKER")(o)
			},
		}
	})

	// Stop asking for one more turn, once (the hook keeps its own count:
	// whether an agent sets stop_hook_active is not what is checked here).
	family("stop-once", func(d driver.Agent) *scenario {
		return &scenario{
			dialect: d, steps: []action{say("first answer")},
			hooks: []hookDef{{event: "Stop", script: "stop"}},
			scripts: map[string]string{"stop": readInput + "LABEL=stop\n" + logInput +
				"[ -e \"$HOME/stop.once\" ] && exit 0\ntouch \"$HOME/stop.once\"\n" +
				emit(`{"decision":"block","reason":"ONE-MORE-QD: add a summary"}`)},
			check: func(o *outcome) []string {
				m := o.srv.Main()
				var p []string
				if len(m) != 2 {
					p = append(p, fmt.Sprintf("the model was called %d times, want 2 (one extra turn)", len(m)))
				}
				if len(m) >= 2 && !strings.Contains(m[1].Conversation(), "ONE-MORE-QD") {
					p = append(p, "the second model request lacks the hook's reason ONE-MORE-QD")
				}
				return p
			},
		}
	})
	// Qwen Code reads a Stop hook's continue:false as a block, not a stop
	// (isBlockingDecision() || shouldStopExecution(), its bundle's
	// chunk-DPEB6S2R.js:83061, 83137): the reason is the next prompt. Qwen
	// natively is the oracle; through hookx every host takes one more turn.
	list = append(list, &scenario{
		name: "stop-once/qwen-continue-false", dialect: driver.Qwen, noPeer: true,
		to:    []driver.Agent{driver.Claude, driver.Gemini, driver.Codex},
		steps: []action{say("first answer")},
		hooks: []hookDef{{event: "Stop", script: "stop"}},
		scripts: map[string]string{"stop": readInput + "LABEL=stop\n" + logInput +
			"[ -e \"$HOME/stop.once\" ] && exit 0\ntouch \"$HOME/stop.once\"\n" +
			emit(`{"continue":false,"stopReason":"ONE-MORE-CF: add a summary"}`)},
		check: func(o *outcome) []string {
			m := o.srv.Main()
			var p []string
			if len(m) != 2 {
				p = append(p, fmt.Sprintf("the model was called %d times, want 2 (continue:false is one more turn in Qwen Code)", len(m)))
			}
			if len(m) >= 2 && !strings.Contains(m[1].Conversation(), "ONE-MORE-CF") {
				p = append(p, "the second model request lacks the hook's reason ONE-MORE-CF")
			}
			return p
		},
	})
	// The other way: a Claude Stop hook's continue:false ends the turn
	// (Claude natively, the oracle: one model call). Written for Qwen Code
	// as continue:false it would start another turn; hookx writes no stop
	// there (Qwen cannot stop on Stop) and the turn ends as it would.
	list = append(list, &scenario{
		name: "stop-once/claude-continue-false-to-qwen", dialect: driver.Claude, noPeer: true,
		to:    []driver.Agent{driver.Qwen},
		steps: []action{say("first answer")},
		hooks: []hookDef{{event: "Stop", script: "stop"}},
		scripts: map[string]string{"stop": readInput + "LABEL=stop\n" + logInput +
			emit(`{"continue":false,"stopReason":"STOP-NOW-CF: done"}`)},
		// Qwen Code may make a side request of its own after the turn
		// (its memory extractor): what must not happen is a turn that
		// carries the stop reason as its prompt.
		check: func(o *outcome) []string {
			var p []string
			if len(o.hookLogs("stop.")) == 0 {
				p = append(p, "the Stop hook never ran")
			}
			for i, r := range o.srv.Main() {
				if strings.Contains(r.Conversation(), "STOP-NOW-CF") {
					p = append(p, fmt.Sprintf("model request %d carries the stop reason: continue:false started another turn", i))
				}
			}
			return p
		},
	})
	// Qwen Code refuses the prompt on a UserPromptSubmit hook's
	// continue:false, as on a block (chunk-DPEB6S2R.js:82313): natively the
	// model is never called, and through hookx on the other hosts neither.
	list = append(list, &scenario{
		name: "prompt/qwen-continue-false", dialect: driver.Qwen, noPeer: true, anyExit: true,
		to:      []driver.Agent{driver.Claude, driver.Gemini, driver.Codex, driver.Copilot},
		steps:   []action{say("PROMPT-ANSWERED")},
		hooks:   []hookDef{{event: "UserPromptSubmit", script: "prompt"}},
		scripts: map[string]string{"prompt": readInput + "LABEL=prompt\n" + logInput + emit(`{"continue":false,"stopReason":"PROMPT-STOP-Q: not this prompt"}`)},
		check:   promptBlocked,
	})
	// A Stop hook that always blocks: Claude Code and Qwen Code honour 8
	// blocks (9 model calls). Droid has no cap of its own (its native run
	// shows it); through hookx, wrap keeps Claude's 8.
	family("stop-always", func(d driver.Agent) *scenario {
		sc := &scenario{
			dialect: d, steps: []action{say("answer")}, maxMain: 15,
			hooks:   []hookDef{{event: "Stop", script: "stop"}},
			scripts: map[string]string{"stop": "cat >/dev/null\n" + emit(`{"decision":"block","reason":"ALWAYS-BLOCK-QD: keep going"}`)},
			check: func(o *outcome) []string {
				// Claude honours 8 blocks, Qwen 7; through hookx the lower
				// cap of the two holds (wrap keeps Claude's on Droid).
				honoured := stopCap(d)
				if c := stopCap(o.host); c > 0 && (honoured == 0 || c < honoured) {
					honoured = c
				}
				return modelCallsWhy(honoured+1, fmt.Sprintf("%d honoured blocks", honoured))(o)
			},
		}
		if d == driver.Droid {
			// Droid would loop until killed: its own hook stops after 10
			// blocks, and all 10 are honoured.
			sc.scripts["stop"] = "cat >/dev/null\nn=$(cat \"$HOME/stop.count\" 2>/dev/null || echo 0)\n" +
				"[ \"$n\" -ge 10 ] && exit 0\necho $((n+1)) > \"$HOME/stop.count\"\n" +
				emit(`{"decision":"block","reason":"ALWAYS-BLOCK-QD: keep going"}`)
			sc.check = modelCallsWhy(11, "Droid has no cap: all 10 blocks honoured")
		}
		return sc
	})

	// SessionEnd fires at the end of a headless run, with its event name.
	family("session-end", func(d driver.Agent) *scenario {
		return &scenario{
			dialect: d, steps: []action{say("bye")},
			hooks:   []hookDef{{event: "SessionEnd", script: "end"}},
			scripts: map[string]string{"end": readInput + "LABEL=end\n" + logInput},
			check: func(o *outcome) []string {
				logs := o.hookLogs("end.")
				if silent(o.host, "SessionEnd") {
					if len(logs) != 0 {
						return []string{fmt.Sprintf("the SessionEnd hook ran %d times; %s fires none headless", len(logs), o.host)}
					}
					return nil
				}
				if len(logs) != 1 {
					return []string{fmt.Sprintf("the SessionEnd hook ran %d times, want 1", len(logs))}
				}
				b, _ := os.ReadFile(logs[0])
				var in map[string]any
				if err := json.Unmarshal(b, &in); err != nil {
					return []string{fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b)}
				}
				if in["hook_event_name"] != "SessionEnd" {
					return []string{fmt.Sprintf("hook_event_name = %v, want SessionEnd", in["hook_event_name"])}
				}
				return nil
			},
		}
	})

	// File-tool guards: a write to .env and an edit of it are denied through
	// the agent's own file tools, a write elsewhere goes through and is read
	// back.
	fileMatcher := map[driver.Agent]string{
		driver.Claude: "Write|Edit", driver.Qwen: "write_file|edit", driver.Droid: "Create|Edit", driver.Gemini: "write_file|replace",
	}
	fileGuard := func(d driver.Agent, event, deny, file string) *scenario {
		return &scenario{
			dialect: d,
			steps:   []action{write(file, "SECRET=stolen\n"), edit(file, "SECRET=kept", "SECRET=edited"), write("ok.txt", "fine\n"), read("ok.txt")},
			files:   map[string]string{file: "SECRET=kept\n"},
			hooks:   []hookDef{{event: event, matcher: fileMatcher[d], script: "guard"}},
			scripts: map[string]string{"guard": readInput + "LABEL=guard\n" + logInput + "case \"$input\" in *'.env\"'*)\n" + emit(deny) + ";;\nesac\nexit 0\n"},
			check:   fileGuardCheck(file, "FILE-GUARD"),
		}
	}
	denyPre := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"FILE-GUARD: .env is off limits"}}`
	family("file-guard", func(d driver.Agent) *scenario { return fileGuard(d, "PreToolUse", denyPre, ".env") })
	// Gemini CLI refuses a path with a .env (or .git, node_modules) segment
	// in its file tools itself, before any hook (hasBlockedPathSegment): its
	// guard protects prod.env, which it would let through.
	g := fileGuard(driver.Gemini, "BeforeTool", `{"decision":"deny","reason":"FILE-GUARD: .env is off limits"}`, "prod.env")
	g.name, g.to, g.noPeer = "file-guard/gemini", []driver.Agent{driver.Qwen}, true
	list = append(list, g)
	return list
}

// silent names the events an agent has but does not fire in a headless run
// (seen live 2026-11-27; the mapping table marks them, so that hookx
// migrate reports them): Droid's UserPromptSubmit in droid exec, Qwen's
// SessionEnd in qwen -p.
func silent(a driver.Agent, event string) bool {
	return a == driver.Droid && event == "UserPromptSubmit" || a == driver.Qwen && event == "SessionEnd"
}

// stopCap is the number of consecutive Stop blocks the agent honours, by
// the mapping table (0: no cap).
func stopCap(a driver.Agent) int {
	ev, _ := mappings.Default().MustDialect(string(a)).EventFor("agent.stop")
	if ev == nil {
		return 0
	}
	return ev.Output.BlockCap
}

// firedFor checks that the hook logged under label ran for exactly the
// shell commands cmds.
func firedFor(o *outcome, label string, cmds ...string) []string {
	var got []string
	for _, f := range o.hookLogs(label + ".") {
		var in struct {
			ToolInput struct {
				Command string `json:"command"`
			} `json:"tool_input"`
		}
		b, _ := os.ReadFile(f)
		if err := json.Unmarshal(b, &in); err != nil {
			return []string{fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b)}
		}
		got = append(got, in.ToolInput.Command)
	}
	slices.Sort(got)
	if !slices.Equal(got, cmds) {
		return []string{fmt.Sprintf("the %s hook fired for %q, want %q", label, got, cmds)}
	}
	return nil
}

// modelCallsWhy checks the number of main-model requests.
func modelCallsWhy(want int, why string) func(o *outcome) []string {
	return func(o *outcome) []string {
		if n := len(o.srv.Main()); n != want {
			return []string{fmt.Sprintf("the model was called %d times, want %d (%s)", n, want, why)}
		}
		return nil
	}
}

// afterTool checks that the shell's output POST-OUT and the post-tool
// hook's marker both reached the model after the tool ran.
func afterTool(marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		last := o.srv.LastMain()
		if len(o.srv.Main()) < 2 || last == nil {
			return []string{fmt.Sprintf("the model was called %d times, want 2", len(o.srv.Main()))}
		}
		var p []string
		if !outputReached(o, "POST-OUT", "printf POST%s -OUT") {
			p = append(p, "the tool's output POST-OUT did not reach the model")
		}
		if !strings.Contains(last.AllText(), marker) {
			p = append(p, fmt.Sprintf("the post-tool hook's %s did not reach the model", marker))
		}
		return p
	}
}

// fileGuardCheck: the protected file is unchanged, both calls on it were refused with the
// guard's reason, ok.txt was written and read back (the read tool, which the
// guard's matcher leaves out), and the guard ran for the three others.
func fileGuardCheck(file, marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		if b, _ := os.ReadFile(o.sb.Path(file)); string(b) != "SECRET=kept\n" {
			p = append(p, fmt.Sprintf("%s = %q: the guard did not hold", file, b))
		}
		if b, _ := os.ReadFile(o.sb.Path("ok.txt")); string(b) != "fine\n" {
			p = append(p, fmt.Sprintf("ok.txt = %q, want the harmless write to go through", b))
		}
		rs := lastResults(o)
		if len(rs) != 4 {
			return append(p, fmt.Sprintf("the model got %d tool results, want 4", len(rs)))
		}
		if !strings.Contains(rs[3].Text, "fine") {
			p = append(p, fmt.Sprintf("reading ok.txt gave the model %q, want its content", rs[3].Text))
		}
		for i := range 2 {
			if !strings.Contains(rs[i].Text, marker) || (hosts[o.host].errorFlag && !rs[i].IsError) {
				p = append(p, fmt.Sprintf("refused call %d's result (error=%v) %q lacks the guard's reason %s", i, rs[i].IsError, rs[i].Text, marker))
			}
		}
		if n := len(o.hookLogs("guard.")); n != 3 {
			p = append(p, fmt.Sprintf("the guard ran %d times, want 3", n))
		}
		return p
	}
}

// alsoToOtherHosts runs scenarios defined for one or two hosts through hookx
// on every other host that has their events, tools and semantics (the
// map's hosts; why a host is left out is said beside it): which post-tool
// event fires for a failed command (Qwen only: Droid has no
// PostToolUseFailure), and a Stop hook that blocks unless stop_hook_active,
// after a continuation that used a tool: Claude's (one block) and Gemini's
// (two: Gemini says false again after a tool-using continuation, which
// hookx reads in the host's own transcript); and the Gemini families: its
// guards, one more turn, rewrites (a deny on Qwen, which applies none),
// post-tool fields, context, and an AfterTool deny that hides the output
// (Qwen; Droid shows the output with the reason); and the other agents'
// own hooks (Codex, Qwen, Droid and Copilot guards, Copilot's safety and
// context families) on every other host that has their tools and events.
func alsoToOtherHosts(list []*scenario) {
	to := map[string][]driver.Agent{
		"posttool-kind/claude-success-and-failure":           {driver.Qwen},
		"stop-tools/claude-block-unless-active":              {driver.Qwen, driver.Droid},
		"stop-tools/gemini-deny-unless-active":               {driver.Qwen, driver.Droid},
		"guard/gemini-decision-deny":                         {driver.Qwen, driver.Droid},
		"guard/gemini-decision-block":                        {driver.Qwen, driver.Droid},
		"guard/gemini-text-exit3":                            {driver.Qwen, driver.Droid},
		"misspelled/gemini-blocks":                           {driver.Qwen, driver.Droid},
		"stop-once/gemini-decision-deny":                     {driver.Qwen, driver.Droid},
		"rewrite/gemini-tool_input":                          {driver.Qwen, driver.Droid},
		"rewrite/claude-updatedInput":                        {driver.Qwen, driver.Droid},
		"posttool/gemini-fields":                             {driver.Qwen, driver.Droid},
		"context/gemini-additionalContext":                   {driver.Qwen}, // Droid: no UserPromptSubmit headless
		"hide-output/gemini-deny-shell":                      {driver.Qwen},
		"guard/claude-permissionDecision-deny":               {driver.Qwen, driver.Droid, driver.Codex, driver.Copilot},
		"misspelled/claude-fails-open":                       {driver.Qwen, driver.Droid}, // Copilot runs .claude hooks itself, failing closed
		"misspelled/claude-wrap-fail-closed":                 {driver.Qwen, driver.Droid, driver.Codex, driver.Copilot},
		"held-output/claude-grant-refused":                   {driver.Qwen, driver.Droid, driver.Codex, driver.Copilot},
		"file-matcher/claude-Edit|Write":                     {driver.Qwen, driver.Droid},                 // Copilot: its own variant; Codex: no read tool
		"matcher-js/claude-lookahead-guard":                  {driver.Qwen, driver.Droid, driver.Copilot}, // Codex has no Read tool
		"file-matcher/gemini-replace|write_file":             {driver.Qwen, driver.Droid, driver.Copilot}, // Codex has no read tool
		"held-output/gemini-late-verdict":                    {driver.Qwen, driver.Droid, driver.Codex, driver.Copilot},
		"guard/codex-permissionDecision-deny":                {driver.Claude, driver.Gemini, driver.Copilot, driver.Qwen, driver.Droid},
		"guard/codex-exit2":                                  {driver.Claude, driver.Gemini, driver.Copilot, driver.Qwen, driver.Droid},
		"guard/codex-decision-block":                         {driver.Claude, driver.Gemini, driver.Copilot, driver.Qwen, driver.Droid},
		"guard/qwen-permissionDecision-deny":                 {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Droid},
		"guard/qwen-exit2":                                   {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Droid},
		"guard/copilot-permissionDecision-deny":              {driver.Claude, driver.Gemini, driver.Codex, driver.Qwen, driver.Droid},
		"guard/droid-exit2":                                  {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen},
		"guard/droid-permissionDecision-deny":                {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen},
		"copilot/copilot-guard-to-claude":                    {driver.Gemini, driver.Codex, driver.Qwen, driver.Droid},
		"copilot/copilot-guard-exit1-fails-closed-in-claude": {driver.Gemini, driver.Codex, driver.Qwen, driver.Droid},
		"file-guard/copilot-deny-env":                        {driver.Qwen, driver.Droid}, // Codex: no edit tool; Gemini refuses the .env path itself
		"stop-once/copilot-decision-block":                   {driver.Gemini, driver.Codex, driver.Qwen, driver.Droid},
		"copilot-safety/prompt-exit2-block":                  {driver.Gemini, driver.Codex, driver.Qwen}, // Droid: no UserPromptSubmit headless
		"copilot-safety/stop-exit2-block":                    {driver.Gemini, driver.Codex, driver.Qwen, driver.Droid},
		"copilot-safety/post-block-hides":                    {driver.Gemini, driver.Codex, driver.Qwen}, // Droid cannot hide a tool output (reported)
		"copilot-safety/post-exit2-block-hides":              {driver.Gemini, driver.Codex, driver.Qwen}, // Droid cannot hide a tool output (reported)
		"copilot-safety/pre-modifiedArgs-null-runs-nothing":  {driver.Gemini, driver.Codex, driver.Qwen, driver.Droid},
		"copilot-safety/pre-updatedInput-not-read":           {driver.Gemini, driver.Codex, driver.Qwen, driver.Droid},
		"prompt/copilot-decision-block":                      {driver.Gemini, driver.Codex, driver.Qwen}, // Droid: no UserPromptSubmit headless
		"posttool/copilot-additionalContext":                 {driver.Gemini, driver.Codex, driver.Qwen, driver.Droid},
		"stop-once/qwen":                                     {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Droid},
		"stop-once/droid":                                    {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen},
		"stop-always/qwen":                                   {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Droid},
		"stop-always/droid":                                  {driver.Gemini, driver.Codex},                 // the hosts without a cap: the others end the turn at theirs (reported)
		"file-guard/qwen":                                    {driver.Claude, driver.Copilot, driver.Droid}, // Codex: no edit tool; Gemini refuses the .env path itself
		"file-guard/droid":                                   {driver.Claude, driver.Copilot, driver.Qwen},  // Codex: no edit tool; Gemini refuses the .env path itself
		"posttool-context/qwen":                              {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Droid},
		"posttool-context/droid":                             {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen},
		"context/qwen":                                       {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Droid},
		"context/droid":                                      {driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen},
	}
	for _, sc := range list {
		if hs, ok := to[sc.name]; ok {
			sc.to = append(sc.targets(), hs...)
		}
	}
}

// A passing run of a scenario whose hook's event its host does not fire
// headless shows the event silent, not working: it must not mark it seen
// live in the README's results.
func TestSilentEventsAreNotProven(t *testing.T) {
	n := 0
	for _, sc := range scenarios() {
		for _, h := range sc.hooks {
			for _, host := range append([]driver.Agent{sc.dialect}, sc.targets()...) {
				path := pathHookx
				if host == sc.dialect {
					path = pathNative
				}
				for _, ev := range provenEvents(sc, path, host) {
					if silent(host, ev) {
						t.Errorf("%s on %s (%s): proves %s, which %s never fires headless", sc.name, host, path, ev, host)
					}
				}
				if silent(host, h.event) {
					n++
				}
			}
		}
	}
	if n == 0 {
		t.Error("no scenario has a hook on an event its host does not fire headless: the test checks nothing")
	}
}
