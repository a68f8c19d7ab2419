//go:build unix

package conformance

import (
	"fmt"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// copilotSafetyScenarios pin down how Copilot CLI 1.0.102 reads a command
// hook's answer where hookx read it otherwise (found 2026-11-27, fixed in
// translate/copilot.go): each runs natively in Copilot (the oracle) and
// through hookx on Claude Code, with the same check.
//
//   - exit 2 off preToolUse reads stdout as at exit 0: a decision "block"
//     refuses the prompt and continues the turn (hookx read a failure and
//     let the prompt through); any other non-zero exit ignores stdout;
//   - a decision "block" without a reason is ignored (hookx blocked);
//   - postToolUse's block and modifiedResult hide the tool's output (hookx
//     dropped both);
//   - a handled prompt never reaches the model (hookx ignored it), nor
//     does one the hook replaced with modifiedPrompt (hookx sent it);
//   - modifiedArgs null fails the call (hookx ran the sibling updatedInput),
//     and a top-level updatedInput is not read (hookx ran it);
//
// and, the other way, a Claude guard's exit 1 (Claude Code goes ahead) lets
// the tool run under Copilot, which denies on its own reading of an exit 1.
func copilotSafetyScenarios() []*scenario {
	hello := []action{say("hello")}
	toClaude := []driver.Agent{driver.Claude}
	copilotHook := func(name, event string, steps []action, body string, check func(o *outcome) []string) *scenario {
		return &scenario{
			name: "copilot-safety/" + name, dialect: driver.Copilot, steps: steps, to: toClaude,
			hooks: []hookDef{{event: event, script: "h"}}, scripts: map[string]string{"h": "cat >/dev/null\n" + body},
			check: check,
		}
	}
	noModelCall := func(o *outcome) []string {
		if n := len(o.srv.Main()); n != 0 {
			return []string{fmt.Sprintf("the prompt reached the model (%d main requests), want it refused", n)}
		}
		return nil
	}
	modelCalled := func(o *outcome) []string {
		if len(o.srv.Main()) == 0 {
			return []string{"the prompt never reached the model: the hook blocked it"}
		}
		return nil
	}
	refused := func(sc *scenario) *scenario { sc.anyExit = true; return sc }
	warns := func(w string, sc *scenario) *scenario { sc.wantWarning = w; return sc }

	// The shell step's result, for the tool-call scenarios.
	result := func(o *outcome) (string, []string) {
		rs := lastResults(o)
		if len(rs) != 1 {
			return "", []string{fmt.Sprintf("the model got %d tool results, want 1", len(rs))}
		}
		return rs[0].Text, nil
	}
	orig := []action{shell("touch ran.marker; printf ORIG%s -RAN")}
	rewrite := `"updatedInput":{"command":"printf REWR%s -OK","description":"rewritten"}`

	secret := "SECRET-POST-42"
	hidden := func(marker string) func(o *outcome) []string {
		return func(o *outcome) []string {
			var p []string
			for _, r := range o.srv.Main() {
				if strings.Contains(r.AllText(), secret) {
					p = append(p, "the tool's output "+secret+" reached the model")
					break
				}
			}
			if last := o.srv.LastMain(); last == nil || !strings.Contains(last.AllText(), marker) {
				p = append(p, "the hook's reason "+marker+" did not reach the model")
			}
			return p
		}
	}
	shown := func(o *outcome) []string {
		for _, r := range o.srv.Main() {
			if strings.Contains(r.AllText(), secret) {
				return nil
			}
		}
		return []string{"the tool's output " + secret + " never reached the model: the hook hid it"}
	}
	post := func(name, body string, check func(o *outcome) []string) *scenario {
		sc := copilotHook(name, "postToolUse", []action{shell("cat secret.txt")}, body, check)
		sc.files = map[string]string{"secret.txt": "alpha " + secret + "\n"}
		return sc
	}

	return []*scenario{
		refused(copilotHook("prompt-exit2-block", "userPromptSubmitted", hello,
			emit(`{"decision":"block","reason":"UPS-E2: not this prompt"}`)+"exit 2\n", noModelCall)),
		warns("Hook command failed with code 1", copilotHook("prompt-exit1-block-goes-ahead", "userPromptSubmitted", hello,
			emit(`{"decision":"block","reason":"UPS-E1: ignored at exit 1"}`)+"exit 1\n", modelCalled)),
		copilotHook("prompt-block-without-reason", "userPromptSubmitted", hello, emit(`{"decision":"block"}`), modelCalled),
		refused(copilotHook("prompt-handled", "userPromptSubmitted", hello,
			emit(`{"handled":true,"responseContent":"HANDLED-BY-HOOK"}`), noModelCall)),
		// modifiedPrompt: the model gets the replacement, never the
		// original (live); Claude cannot take a replaced prompt, so hookx
		// refuses the prompt rather than sending the original.
		func() *scenario {
			sc := copilotHook("prompt-modified-original-never-sent", "userPromptSubmitted", hello,
				emit(`{"modifiedPrompt":"a prompt without the secret"}`), func(o *outcome) []string {
					for _, r := range o.srv.Main() {
						if strings.Contains(r.AllText(), "ORIGINAL-PROMPT-SECRET") {
							return []string{"the original prompt reached the model"}
						}
					}
					return nil
				})
			sc.prompt, sc.anyExit = "ORIGINAL-PROMPT-SECRET: do the task", true
			return sc
		}(),
		func() *scenario {
			sc := copilotHook("stop-exit2-block", "agentStop", hello, emit(`{"decision":"block","reason":"STOP-E2: one more turn"}`)+"exit 2\n",
				func(o *outcome) []string {
					m := o.srv.Main()
					if len(m) < 2 || !strings.Contains(m[1].Conversation(), "STOP-E2") {
						return []string{fmt.Sprintf("the turn did not continue with the hook's reason STOP-E2 (%d main requests)", len(m))}
					}
					return nil
				})
			sc.maxMain = 15
			return sc
		}(),
		// The other way: a Gemini AfterTool deny reaches Copilot as the
		// decision "block" that replaces the tool's result.
		{
			name: "copilot-safety/gemini-aftertool-deny-hides-in-copilot", dialect: driver.Gemini, to: []driver.Agent{driver.Copilot},
			noPeer: true, steps: []action{shell("cat secret.txt")}, okWarning: "Tool result blocked by hook",
			files:   map[string]string{"secret.txt": "alpha " + secret + "\n"},
			hooks:   []hookDef{{event: "AfterTool", matcher: "run_shell_command", script: "h"}},
			scripts: map[string]string{"h": "cat >/dev/null\n" + emit(`{"decision":"deny","reason":"G-HIDDEN: secret in output"}`)},
			check:   hidden("G-HIDDEN"),
		},
		// An agentStop hook that always blocks: Copilot honours 8 blocks (9
		// model calls); through hookx Codex, which has no cap, ends the same
		// way.
		func() *scenario {
			sc := copilotHook("stop-always-capped-on-codex", "agentStop", hello, emit(`{"decision":"block","reason":"ALWAYS-CP: keep going"}`),
				func(o *outcome) []string {
					if n := len(o.srv.Main()); n != 9 {
						return []string{fmt.Sprintf("the model was called %d times, want 9 (8 honoured blocks)", n)}
					}
					return nil
				})
			sc.to, sc.maxMain = []driver.Agent{driver.Codex}, 15
			return sc
		}(),
		warns("Tool result blocked by hook", post("post-block-hides", emit(`{"decision":"block","reason":"POST-HIDDEN: secret in output"}`), hidden("POST-HIDDEN"))),
		warns("Tool result blocked by hook", post("post-exit2-block-hides", emit(`{"decision":"block","reason":"POST-E2-HIDDEN: secret in output"}`)+"exit 2\n", hidden("POST-E2-HIDDEN"))),
		post("post-modifiedResult-hides", emit(`{"modifiedResult":{"resultType":"success","textResultForLlm":"REDACTED-BY-HOOK"}}`), hidden("REDACTED-BY-HOOK")),
		post("post-block-without-reason-shows", emit(`{"decision":"block"}`), shown),
		copilotHook("pre-modifiedArgs-null-runs-nothing", "preToolUse", orig, emit(`{"modifiedArgs":null,`+rewrite+`}`),
			func(o *outcome) []string {
				text, p := result(o)
				if o.exists("ran.marker") || strings.Contains(text, "ORIG-RAN") {
					p = append(p, "the original command ran")
				}
				if strings.Contains(text, "REWR-OK") {
					p = append(p, "updatedInput's command ran")
				}
				return p
			}),
		copilotHook("pre-updatedInput-not-read", "preToolUse", orig, emit(`{`+rewrite+`}`),
			func(o *outcome) []string {
				text, p := result(o)
				// ran.marker proves the original ran; Qwen may lose a fast
				// command's output (lostFastOutput), as in the guard families.
				if !o.exists("ran.marker") || (!strings.Contains(text, "ORIG-RAN") && !lostFastOutput(o.host, text, "touch ran.marker")) {
					p = append(p, fmt.Sprintf("the original command did not run; the model got %q", text))
				}
				if strings.Contains(text, "REWR-OK") {
					p = append(p, "updatedInput's command ran")
				}
				return p
			}),
		// A Claude PostToolUse hook's updatedToolOutput (Bash's shape, which
		// Claude Code applies) keeps the output from the model in Copilot
		// too: modifiedResult. migrate writes no copy of a Claude
		// PostToolUse hook for Copilot (Copilot runs .claude/settings.json
		// itself), so the entry is hand-written.
		{
			name: "copilot-safety/claude-updatedToolOutput-hides-in-copilot", dialect: driver.Copilot, to: []driver.Agent{}, needsHookx: true,
			steps:   []action{shell("cat secret.txt")},
			files:   map[string]string{"secret.txt": "alpha " + secret + "\n"},
			hooks:   []hookDef{{event: "postToolUse", raw: `hookx wrap --from claude -- "$COPILOT_PROJECT_DIR"/.github/hooks/h.sh`}},
			scripts: map[string]string{"h": "cat >/dev/null\n" + emit(`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"C-REDACTED","stderr":"","interrupted":false,"isImage":false}}}`)},
			check:   hidden("C-REDACTED"),
		},
		{
			name: "copilot-safety/claude-exit1-runs-under-copilot", dialect: driver.Claude, to: []driver.Agent{driver.Copilot},
			noPeer: true, removeSource: true, steps: []action{shell("touch ran.marker; printf ALLOW%s -RAN")},
			hooks:   []hookDef{{event: "PreToolUse", matcher: "Bash", script: "h"}},
			scripts: map[string]string{"h": "cat >/dev/null\necho 'a broken linter' >&2\nexit 1\n"},
			check: func(o *outcome) []string {
				text, p := result(o)
				if !o.exists("ran.marker") || !strings.Contains(text, "ALLOW-RAN") {
					p = append(p, fmt.Sprintf("the command did not run (Claude Code goes ahead on exit 1); the model got %q", text))
				}
				return p
			},
		},
	}
}
