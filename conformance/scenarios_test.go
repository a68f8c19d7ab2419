//go:build unix

package conformance

import (
	"encoding/json"
	"fmt"
	"github.com/hookx-dev/hookx/mappings"
	"os"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
)

// A scenario is a project whose hooks are written for one agent (dialect),
// a scripted model conversation, and checks of what must happen. The checks
// read only effects every host shares (files, what reached the model, the
// number of model turns), so the same scenario runs natively on its own
// agent, through hookx on other agents, and (Claude dialect) through
// Gemini's own migrator.
type scenario struct {
	name    string
	dialect driver.Agent
	prompt  string
	steps   []action
	hooks   []hookDef
	// scripts are hook scripts by name, written to <hookDir>/<name>.sh
	// (hosts[dialect].hookDir, e.g. .claude/hooks); "#!/bin/sh" is prepended.
	scripts map[string]string
	// config, when set, is written verbatim as the dialect's hook
	// configuration (hosts[dialect].settings) instead of rendering hooks:
	// for shapes the renderer would not produce (negative controls).
	config string
	// files are other project files to create.
	files map[string]string
	// to are the hosts the hookx path runs on (hookx migrate --from dialect
	// --to host, then host). Default: the other of Claude and Gemini for
	// those two dialects, none for the others; set it to []driver.Agent{} to
	// run natively only.
	to []driver.Agent
	// removeSource removes the dialect's own configuration after hookx
	// migrate, so that only the migrated one can act on the host: Copilot
	// CLI also runs .claude/settings.json itself.
	removeSource bool
	// wantWarning, when set, is a settings warning the native run must
	// report (driver.Sandbox.SettingsWarnings), for a negative control.
	wantWarning string
	// okWarning, when set, is a host log line that is no problem in any
	// run: Copilot CLI logs every postToolUse block it honours as a
	// "[WARNING] [rust:hooks] Tool result blocked by hook".
	okWarning string
	// anyExit accepts a non-zero exit of the agent: Copilot CLI ends a -p
	// run whose prompt a hook refused, or whose model call failed, with
	// exit 1 (seen live, 2026-11-27).
	anyExit bool
	// wrapFlags are inserted after every "hookx wrap" in the migrated
	// settings (e.g. --fail-closed); such a scenario has no native run.
	wrapFlags string
	noPeer    bool
	// noNative leaves out the native run where the dialect's agent never
	// fires the hook's event headless (Droid's UserPromptSubmit in droid
	// exec): its oracle is then the agent's source or binary.
	noNative bool
	// needsHookx puts hookx on the agent's PATH in the native run too: the
	// scenario's own configuration calls hookx wrap by hand.
	needsHookx bool
	// relaunch runs Gemini CLI and Qwen Code as a user's run starts them,
	// relaunching themselves (driver.Sandbox.Relaunch): for a scenario that
	// looks at every variable the agent gives its hooks.
	relaunch bool
	// alsoFrom are further source dialects whose settings the scenario's
	// files hold: after hookx migrate from dialect, the hookx path also
	// migrates from each of these into the same host, which must keep the
	// first source's entries (issue 24).
	alsoFrom []driver.Agent
	// hideHookx takes hookx off the host's PATH after hookx migrate wrote
	// its settings, so that the host cannot start it (fail-closed cases).
	hideHookx bool
	// projectName names the project directory (default "project").
	projectName string
	// maxMain caps main-model requests (default 20); past it the run is
	// killed and fails.
	maxMain int
	check   func(o *outcome) []string
}

// hookDef is one hook entry in the scenario's settings.
type hookDef struct {
	event, matcher string
	script         string // a name in scripts
	raw            string // a literal command instead of a script
}

// targets are the hosts of the scenario's hookx path.
func (s *scenario) targets() []driver.Agent {
	if s.to != nil {
		return s.to
	}
	if s.dialect == driver.Claude || s.dialect == driver.Gemini {
		return []driver.Agent{s.dialect.Other()}
	}
	return nil
}

// command is how the hook's author would refer to the script: through the
// agent's project-directory variable, or (Codex, which has none) relative
// to the project, where the agent runs its hooks.
func (s *scenario) command(h hookDef) string {
	if h.raw != "" {
		return h.raw
	}
	hs := hosts[s.dialect]
	if hs.projectRef == "" {
		return "./" + hs.hookDir + "/" + h.script + ".sh"
	}
	return hs.projectRef + "/" + hs.hookDir + "/" + h.script + ".sh"
}

// writeProject writes the scenario's settings, hook scripts and files in the
// dialect's own idiom. Timeouts are explicit, in the dialect's unit (30 s),
// so a migration that copies the number unchanged shows up.
func (s *scenario) writeProject(sb *driver.Sandbox) error {
	hs := hosts[s.dialect]
	switch {
	case s.config != "":
		if err := sb.WriteFile(hs.settings, s.config); err != nil {
			return err
		}
	case hs.hookFiles:
		// The scripts are the hook files; nothing else to write.
	default:
		if err := sb.WriteJSON(hs.settings, hs.render(s.hooks, s.command, hs.timeout)); err != nil {
			return err
		}
	}
	for name, body := range s.scripts {
		if err := sb.WriteFile(hs.hookDir+"/"+name+".sh", "#!/bin/sh\n"+body); err != nil {
			return err
		}
	}
	for rel, content := range s.files {
		if err := sb.WriteFile(rel, content); err != nil {
			return err
		}
	}
	return nil
}

// Shell snippets shared by the hook scripts.
const (
	readInput = "input=$(cat)\n"
	// logInput saves stdin to $HOME/hooklog/<label>.<pid>.json.
	logInput = "mkdir -p \"$HOME/hooklog\"\nprintf '%s' \"$input\" > \"$HOME/hooklog/${LABEL}.$$.json\"\n"
)

// onDangerous runs body when the tool input contains `rm -rf build`.
func onDangerous(body string) string {
	return readInput + "case \"$input\" in\n*'rm -rf build'*)\n" + body + "\n;;\nesac\nexit 0\n"
}

// emit prints a fixed JSON object (no shell quoting inside the heredoc).
func emit(json string) string { return "cat <<'JSON'\n" + json + "\nJSON\n" }

func scenarios() []*scenario {
	var list []*scenario

	// Guards: one per blocking idiom. The model first runs `rm -rf build`
	// (must be blocked, the reason must reach the model), then a harmless
	// command (must run, its output must reach the model).
	guardSteps := []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN")}
	guard := func(name string, dialect driver.Agent, body, marker string) *scenario {
		event, matcher := "PreToolUse", "Bash"
		if dialect == driver.Gemini {
			event, matcher = "BeforeTool", "run_shell_command"
		}
		return &scenario{
			name: name, dialect: dialect, steps: guardSteps,
			hooks:   []hookDef{{event: event, matcher: matcher, script: "guard"}},
			scripts: map[string]string{"guard": onDangerous(body)},
			files:   map[string]string{"build/keep.txt": "keep\n"},
			check:   guardCheck(marker),
		}
	}
	list = append(list,
		guard("guard/claude-exit2", driver.Claude,
			"echo 'GUARD-C-EXIT2: rm -rf build is forbidden' >&2; exit 2", "GUARD-C-EXIT2"),
		guard("guard/claude-permissionDecision-deny", driver.Claude,
			emit(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"GUARD-C-DENY: rm -rf build is forbidden"}}`), "GUARD-C-DENY"),
		guard("guard/claude-legacy-block", driver.Claude,
			emit(`{"decision":"block","reason":"GUARD-C-BLOCK: rm -rf build is forbidden"}`), "GUARD-C-BLOCK"),
		guard("guard/gemini-decision-deny", driver.Gemini,
			emit(`{"decision":"deny","reason":"GUARD-G-DENY: rm -rf build is forbidden"}`), "GUARD-G-DENY"),
		guard("guard/gemini-decision-block", driver.Gemini,
			emit(`{"decision":"block","reason":"GUARD-G-BLOCK: rm -rf build is forbidden"}`), "GUARD-G-BLOCK"),
		guard("guard/gemini-text-exit3", driver.Gemini,
			"echo 'GUARD-G-EXIT3: rm -rf build is forbidden' >&2; exit 3", "GUARD-G-EXIT3"),
	)

	// Rewrites: the hook replaces the command; the rewritten one must run
	// and the original must not.
	rewrite := func(name string, dialect driver.Agent, out string) *scenario {
		event, matcher := "PreToolUse", "Bash"
		if dialect == driver.Gemini {
			event, matcher = "BeforeTool", "run_shell_command"
		}
		return &scenario{
			name: name, dialect: dialect, steps: []action{shell("printf ORIG%s -RAN")},
			hooks:   []hookDef{{event: event, matcher: matcher, script: "rewrite"}},
			scripts: map[string]string{"rewrite": readInput + "case \"$input\" in *ORIG*) " + emit(out) + ";; esac\n"},
			check: func(o *outcome) []string {
				var p []string
				rs := lastResults(o)
				if len(rs) != 1 {
					return []string{fmt.Sprintf("the model got %d tool results, want 1", len(rs))}
				}
				if strings.Contains(rs[0].Text, "ORIG-RAN") {
					p = append(p, "the original command ran")
				}
				if ev, _ := mappings.Default().MustDialect(string(o.host)).EventFor("tool.before"); !ev.Output.RewriteInput {
					// A host that cannot apply a rewrite: hookx denies the
					// call (a rewrite that cannot be carried blocks).
					if strings.Contains(rs[0].Text, "REWR-OK") {
						p = append(p, fmt.Sprintf("the rewrite ran on %s, whose table entry says it cannot apply one", o.host))
					}
					return p
				}
				if !strings.Contains(rs[0].Text, "REWR-OK") {
					p = append(p, fmt.Sprintf("the rewritten command's output REWR-OK did not reach the model; it got %q", rs[0].Text))
				}
				return p
			},
		}
	}
	list = append(list,
		rewrite("rewrite/claude-updatedInput", driver.Claude,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"printf REWR%s -OK","description":"rewritten"}}}`),
		rewrite("rewrite/gemini-tool_input", driver.Gemini,
			`{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"printf REWR%s -OK","description":"rewritten"}}}`),
	)

	// Context: SessionStart and UserPromptSubmit/BeforeAgent context must be
	// in the first model request.
	contextScenario := func(name string, dialect driver.Agent, ss, ups string, markers ...string) *scenario {
		prompt := "UserPromptSubmit"
		if dialect == driver.Gemini {
			prompt = "BeforeAgent"
		}
		return &scenario{
			name: name, dialect: dialect, steps: []action{say("hello")},
			hooks:   []hookDef{{event: "SessionStart", script: "session-start"}, {event: prompt, script: "prompt"}},
			scripts: map[string]string{"session-start": ss, "prompt": ups},
			check:   firstRequestHas(markers...),
		}
	}
	list = append(list,
		contextScenario("context/claude-plain-stdout-and-json", driver.Claude,
			"echo 'C-SS-PLAIN-MARKER'\n",
			emit(`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"C-UPS-JSON-MARKER"}}`),
			"C-SS-PLAIN-MARKER", "C-UPS-JSON-MARKER"),
		contextScenario("context/claude-json-and-plain-stdout", driver.Claude,
			emit(`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"C-SS-JSON-MARKER"}}`),
			"cat >/dev/null; echo 'C-UPS-PLAIN-MARKER'\n",
			"C-SS-JSON-MARKER", "C-UPS-PLAIN-MARKER"),
		contextScenario("context/gemini-additionalContext", driver.Gemini,
			emit(`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"G-SS-CTX-MARKER"}}`),
			emit(`{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"G-BA-CTX-MARKER"}}`),
			"G-SS-CTX-MARKER", "G-BA-CTX-MARKER"),
	)

	// Stop/AfterAgent asking for exactly one more turn.
	once := func(name string, dialect driver.Agent, out, marker string) *scenario {
		event := "Stop"
		if dialect == driver.Gemini {
			event = "AfterAgent"
		}
		return &scenario{
			name: name, dialect: dialect, steps: []action{say("first answer")},
			hooks: []hookDef{{event: event, script: "stop"}},
			scripts: map[string]string{"stop": readInput +
				"case \"$input\" in *'\"stop_hook_active\":true'*|*'\"stop_hook_active\": true'*) exit 0;; esac\n" + emit(out)},
			check: oneMoreTurn(marker),
		}
	}
	list = append(list,
		once("stop-once/claude-decision-block", driver.Claude, `{"decision":"block","reason":"ONE-MORE-C: add a summary"}`, "ONE-MORE-C"),
		once("stop-once/gemini-decision-deny", driver.Gemini, `{"decision":"deny","reason":"ONE-MORE-G: add a summary"}`, "ONE-MORE-G"),
	)

	// A Claude Stop hook that always blocks: Claude honours 8 blocks (9
	// model calls) and then ends; through hookx Gemini must end the same way
	// although its AfterAgent has no cap.
	list = append(list, &scenario{
		name: "stop-always/claude-decision-block", dialect: driver.Claude, steps: []action{say("answer")},
		hooks:   []hookDef{{event: "Stop", script: "stop"}},
		scripts: map[string]string{"stop": "cat >/dev/null\n" + emit(`{"decision":"block","reason":"ALWAYS-BLOCK: keep going"}`)},
		maxMain: 15,
		check: func(o *outcome) []string {
			if n := len(o.srv.Main()); n != 9 {
				return []string{fmt.Sprintf("the model was called %d times, want 9 (8 honoured blocks)", n)}
			}
			return nil
		},
	})

	// PostToolUse/AfterTool sees the tool's output in the fields its own
	// dialect defines.
	postCmd := "printf POST%s -OUT"
	list = append(list,
		&scenario{
			name: "posttool/claude-fields", dialect: driver.Claude, steps: []action{shell(postCmd)},
			hooks:   []hookDef{{event: "PostToolUse", matcher: "Bash", script: "post"}},
			scripts: map[string]string{"post": readInput + "LABEL=post\n" + logInput},
			check: postCheck(map[string]string{
				"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input.command": postCmd,
			}, "tool_response.stdout"),
		},
		&scenario{
			name: "posttool/gemini-fields", dialect: driver.Gemini, steps: []action{shell(postCmd)},
			hooks:   []hookDef{{event: "AfterTool", matcher: "run_shell_command", script: "post"}},
			scripts: map[string]string{"post": readInput + "LABEL=post\n" + logInput},
			check: postCheck(map[string]string{
				"hook_event_name": "AfterTool", "tool_name": "run_shell_command", "tool_input.command": postCmd,
			}, "tool_response.llmContent"),
		},
	)

	// A Gemini AfterTool deny hides the tool's output from the model. Through
	// hookx on Claude it must stay hidden (T§1 Invariant 1, §9.4), which
	// Claude only does when updatedToolOutput has the tool's own shape; a
	// wrong shape is ignored and the output leaks (T§15 S2).
	// replacedOnClaude is false where Claude Code ignores a replaced result
	// (Edit, live): the model then gets the reason as a system message.
	hide := func(name string, step action, tool, secret string, replacedOnClaude bool) *scenario {
		return &scenario{
			name: name, dialect: driver.Gemini, steps: []action{step},
			files:   map[string]string{"secret.txt": "alpha " + secret + "\n"},
			hooks:   []hookDef{{event: "AfterTool", matcher: tool, script: "hide"}},
			scripts: map[string]string{"hide": "cat >/dev/null\n" + emit(`{"decision":"deny","reason":"HIDDEN-BY-HOOK"}`)},
			check: func(o *outcome) []string {
				var p []string
				for _, r := range o.srv.Main() {
					if strings.Contains(r.AllText(), secret) {
						p = append(p, "the tool's output "+secret+" reached the model")
						break
					}
				}
				if o.host == driver.Claude && !replacedOnClaude {
					if last := o.srv.LastMain(); last == nil || !strings.Contains(last.AllText(), "HIDDEN-BY-HOOK") {
						p = append(p, "the hook's reason HIDDEN-BY-HOOK did not reach the model")
					}
					return p
				}
				// The tool result itself must be the replacement, not just
				// carry a note beside it.
				replaced := false
				for _, r := range lastResults(o) {
					replaced = replaced || strings.Contains(r.Text, "HIDDEN-BY-HOOK")
				}
				if !replaced {
					p = append(p, fmt.Sprintf("no tool result carries the hook's reason HIDDEN-BY-HOOK; the model got %+v", lastResults(o)))
				}
				return p
			},
		}
	}
	list = append(list,
		hide("hide-output/gemini-deny-shell", shell("cat secret.txt"), "run_shell_command", "SECRET-SHELL-42", true),
		hide("hide-output/gemini-deny-read", read("secret.txt"), "read_file", "SECRET-READ-42", true),
		hide("hide-output/gemini-deny-replace", edit("secret.txt", "alpha", "beta"), "replace", "SECRET-EDIT-42", false),
	)

	// A file-tool matcher fires on Write and Edit (write_file and replace)
	// and not on the shell or on Read.
	fileSteps := []action{shell("echo shell-step"), write("notes.txt", "alpha\n"), read("notes.txt"), edit("notes.txt", "alpha", "beta")}
	fileTools := func(name string, dialect driver.Agent, event, matcher string, want []string) *scenario {
		return &scenario{
			name: name, dialect: dialect, steps: fileSteps,
			hooks:   []hookDef{{event: event, matcher: matcher, script: "files"}},
			scripts: map[string]string{"files": readInput + "LABEL=files\n" + logInput},
			check: func(o *outcome) []string {
				var p []string
				var got []string
				for _, f := range o.hookLogs("files.") {
					var in map[string]any
					b, _ := os.ReadFile(f)
					if err := json.Unmarshal(b, &in); err != nil {
						p = append(p, fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b))
						continue
					}
					got = append(got, fmt.Sprint(in["tool_name"]))
				}
				slices.Sort(got)
				if diff := cmp.Diff(want, got); diff != "" {
					p = append(p, fmt.Sprintf("the hook fired for tools (-want +got):\n%s", diff))
				}
				if b, _ := os.ReadFile(o.sb.Path("notes.txt")); string(b) != "beta\n" {
					p = append(p, fmt.Sprintf("notes.txt = %q after the edit, want %q", b, "beta\n"))
				}
				return p
			},
		}
	}
	list = append(list,
		fileTools("file-matcher/claude-Edit|Write", driver.Claude, "PreToolUse", "Edit|Write", []string{"Edit", "Write"}),
		fileTools("file-matcher/gemini-replace|write_file", driver.Gemini, "BeforeTool", "replace|write_file", []string{"replace", "write_file"}),
	)

	// A misspelled hook command (exit 127) behaves as its author's agent
	// would: Claude fails open, Gemini blocks; hookx wrap --fail-closed
	// blocks.
	missSteps := []action{shell("touch ran.marker; printf MISS%s -RAN")}
	ran := func(want bool) func(o *outcome) []string {
		return func(o *outcome) []string {
			rs := lastResults(o)
			if len(rs) != 1 {
				return []string{fmt.Sprintf("the model got %d tool results, want 1", len(rs))}
			}
			switch got := o.exists("ran.marker"); {
			case want && !got:
				return []string{fmt.Sprintf("the command did not run (fail-open expected); the model got %q", rs[0].Text)}
			case !want && got:
				return []string{fmt.Sprintf("the command ran (a block expected); the model got %q", rs[0].Text)}
			case !want && hosts[o.host].errorFlag && !rs[0].IsError:
				return []string{fmt.Sprintf("the model's tool result is not an error: %q", rs[0].Text)}
			}
			return nil
		}
	}
	list = append(list,
		&scenario{
			name: "misspelled/claude-fails-open", dialect: driver.Claude, steps: missSteps,
			hooks: []hookDef{{event: "PreToolUse", matcher: "Bash", raw: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-such-guard.sh`}},
			check: ran(true),
		},
		&scenario{
			name: "misspelled/gemini-blocks", dialect: driver.Gemini, steps: missSteps,
			hooks: []hookDef{{event: "BeforeTool", matcher: "run_shell_command", raw: `"${GEMINI_PROJECT_DIR}"/.gemini/hooks/no-such-guard.sh`}},
			check: ran(false),
		},
		&scenario{
			name: "misspelled/claude-wrap-fail-closed", dialect: driver.Claude, steps: missSteps, wrapFlags: "--fail-closed", noPeer: true,
			hooks: []hookDef{{event: "PreToolUse", matcher: "Bash", raw: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-such-guard.sh`}},
			check: ran(false),
		},
	)
	list = append(list, verdictScenarios()...)
	list = append(list, transcriptScenarios()...)
	list = append(list, hostTranscriptScenarios()...)
	list = append(list, matcherScenarios()...)
	list = append(list, jsMatcherScenarios()...)
	list = append(list, eventScenarios()...)
	list = append(list, wrapsemScenarios()...)
	list = append(list, commandScenarios()...)
	list = append(list, agentScenarios()...)
	list = append(list, codexScenarios()...)
	alsoToCodex(list)
	list = append(list, copilotScenarios()...)
	list = append(list, copilotFamilies()...)
	alsoToCopilot(list)
	list = append(list, ndialectScenarios()...)
	list = append(list, copilotSafetyScenarios()...)
	list = append(list, qwenDroidScenarios()...)
	list = append(list, deepInputScenarios()...)
	alsoToOtherHosts(list)
	list = append(list, envScenarios()...)
	list = append(list, observeScenarios()...)
	list = append(list, toolScenarios()...)
	list = append(list, touchesScenarios()...)
	list = append(list, exitScenarios()...)
	list = append(list, stopLoopScenarios()...)
	list = append(list, actingScenarios()...)
	list = append(list, clineScenarios()...)
	list = append(list, pluginHostScenarios(driver.Pi)...)
	alsoToOpenCodeKilo(list)
	return list
}

// oneMoreTurn: the model was called twice, the second time with the stop
// hook's reason.
func oneMoreTurn(marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		m := o.srv.Main()
		var p []string
		if len(m) != 2 {
			p = append(p, fmt.Sprintf("the model was called %d times, want 2 (one extra turn)", len(m)))
		}
		if len(m) >= 2 && !strings.Contains(m[1].Conversation(), marker) {
			p = append(p, fmt.Sprintf("the second model request lacks the hook's reason %s", marker))
		}
		return p
	}
}

// firstRequestHas: every marker is in the first main-model request.
func firstRequestHas(markers ...string) func(o *outcome) []string {
	return func(o *outcome) []string {
		m := o.srv.Main()
		if len(m) == 0 {
			return []string{"no main-model request"}
		}
		var p []string
		for _, mk := range markers {
			if !strings.Contains(m[0].AllText(), mk) {
				p = append(p, fmt.Sprintf("context %s did not reach the model", mk))
			}
		}
		return p
	}
}

// lastResults are the tool results in the last main-model request.
func lastResults(o *outcome) []fakemodel.ToolResult {
	last := o.srv.LastMain()
	if last == nil {
		return nil
	}
	return last.ToolResults()
}

// lostFastOutput reports whether text is the host's own record of a command
// starting cmd run to exit 0 with its output lost. Qwen Code's shell tool
// collects output until the child's "exit" event, not "close", and under
// load drops what a command printed just before it exited ("Output:
// (empty)", seen 2026-11-23, and in CI 2026-11-27 on a harmless command
// run through hookx). The command ran, unchanged and not blocked; only the
// host lost what it printed. Scenarios still give such commands a short
// sleep after their output, which makes the loss rare, not impossible.
func lostFastOutput(host driver.Agent, text, cmd string) bool {
	return hosts[host].losesFastOutput && strings.HasPrefix(text, "Command: "+cmd) &&
		strings.Contains(text, "\nOutput: (empty)\n") && strings.Contains(text, "\nExit Code: 0\n")
}

// outputReached reports whether the last model request holds marker, the
// output of a command starting cmd, or the host's record of having lost it
// (lostFastOutput).
func outputReached(o *outcome, marker, cmd string) bool {
	last := o.srv.LastMain()
	if last == nil {
		return false
	}
	if strings.Contains(last.AllText(), marker) {
		return true
	}
	for _, r := range last.ToolResults() {
		if lostFastOutput(o.host, r.Text, cmd) {
			return true
		}
	}
	return false
}

func guardCheck(marker string) func(o *outcome) []string {
	return guardCheckCmd(marker, "printf ALLOW%s -RAN")
}

// guardCheckCmd is guardCheck where the harmless command is allowCmd.
func guardCheckCmd(marker, allowCmd string) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		if !o.exists("build/keep.txt") {
			p = append(p, "the guard did not block: build/ was removed")
		}
		rs := lastResults(o)
		if len(rs) != 2 {
			return append(p, fmt.Sprintf("the model got %d tool results, want 2", len(rs)))
		}
		if !strings.Contains(rs[0].Text, marker) || (hosts[o.host].errorFlag && !rs[0].IsError) {
			p = append(p, fmt.Sprintf("the blocked call's result (error=%v) %q lacks the hook's reason %s", rs[0].IsError, rs[0].Text, marker))
		}
		if !strings.Contains(rs[1].Text, "ALLOW-RAN") && !lostFastOutput(o.host, rs[1].Text, allowCmd) {
			p = append(p, fmt.Sprintf("the harmless command's output ALLOW-RAN did not reach the model; it got %q", rs[1].Text))
		}
		return p
	}
}

// postCheck reads the one logged post-tool stdin and checks fields (dotted
// paths) for equality and outputField for the command's output.
func postCheck(want map[string]string, outputField string) func(o *outcome) []string {
	return func(o *outcome) []string {
		logs := o.hookLogs("post.")
		if len(logs) != 1 {
			return []string{fmt.Sprintf("the post-tool hook ran %d times, want 1", len(logs))}
		}
		b, _ := os.ReadFile(logs[0])
		var in map[string]any
		if err := json.Unmarshal(b, &in); err != nil {
			return []string{fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b)}
		}
		var p []string
		for k, v := range want {
			if got := dig(in, k); got != v {
				p = append(p, fmt.Sprintf("hook stdin %s = %q, want %q", k, got, v))
			}
		}
		if got := dig(in, outputField); !strings.Contains(got, "POST-OUT") {
			p = append(p, fmt.Sprintf("hook stdin %s = %q, want it to hold the output POST-OUT", outputField, got))
		}
		return p
	}
}

// dig returns the string at a dotted path, or "" when absent.
func dig(m map[string]any, path string) string {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		mm, _ := v.(map[string]any)
		v = mm[k]
	}
	s, _ := v.(string)
	return s
}
