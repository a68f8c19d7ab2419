//go:build unix

package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// copilotFamilies are the scenario families beyond the pre-tool guard for
// Copilot CLI 1.0.102 (issue 15), each with its native oracle: a Copilot
// hook in Copilot, and the same effect through hookx, either a Claude
// project migrated with `hookx migrate --from claude --to copilot`, or a
// hand-written `hookx wrap --from claude --host-event E` entry in
// .github/hooks running a Claude hook (needed where migrate writes no copy
// because Copilot runs the hooks of .claude/settings.json itself).
//
//   - file-guard: a guard on the file tools (create/edit; Write/Edit)
//     denies a write to .env, with its reason reaching the model, while a
//     write and an edit of another file go through;
//   - posttool: context after a tool reaches the model beside its result;
//   - prompt: a submitted prompt is refused (no model turn), or gets
//     context;
//   - context: session-start context reaches the first model request;
//   - session-end: the hook runs at the end of a -p run and sees its own
//     agent's fields;
//   - stop-once / stop-always: a stop hook continues the agent once, or
//     always (Copilot and Claude both cap at 8 continuations);
//   - posttool-failure: context after a failed tool call.
func copilotFamilies() []*scenario {
	cp := driver.Copilot
	toCopilot := []driver.Agent{cp}
	toClaude := []driver.Agent{driver.Claude}
	claudeRef := `"$COPILOT_PROJECT_DIR"/.github/hooks/`
	// wrapped is a hand-written entry running a Claude hook script (kept
	// under .github/hooks with the Copilot-dialect scenario's scripts).
	wrapped := func(ev, script string) hookDef {
		return hookDef{event: ev, raw: "hookx wrap --from claude --host-event " + ev + " -- " + claudeRef + script + ".sh"}
	}

	// file-guard: the model writes .env (blocked), writes and edits notes.txt.
	fileSteps := []action{write(".env", "TOKEN=leaked\n"), write("notes.txt", "alpha\n"), edit("notes.txt", "alpha", "beta")}
	claudeEnvGuard := readInput + "case \"$input\" in *'\"file_path\":\"'*'/.env\"'*)\n" +
		"echo 'ENV-GUARD-C: .env is off limits' >&2; exit 2;;\nesac\nexit 0\n"
	copilotEnvGuard := readInput + "case \"$input\" in *'\"path\":\"'*'/.env\"'*)\n" +
		emit(`{"permissionDecision":"deny","permissionDecisionReason":"ENV-GUARD-P: .env is off limits"}`) + ";;\nesac\nexit 0\n"

	// posttool: a shell call whose output must still reach the model, with
	// the hook's context.
	postSteps := []action{shell("printf POST%s -OUT")}

	// stop: continue once, unless the stop is already a continuation.
	claudeStopOnce := readInput + "case \"$input\" in *'\"stop_hook_active\":true'*|*'\"stop_hook_active\": true'*) exit 0;; esac\n" +
		emit(`{"decision":"block","reason":"ONE-MORE-CW: add a summary"}`)
	// Copilot's camelCase payload names it stop_hook_active, as Claude
	// does (seen live; the SDK's type says stopHookActive).
	copilotStopOnce := readInput + "case \"$input\" in *'\"stop_hook_active\":true'*) exit 0;; esac\n" +
		emit(`{"decision":"block","reason":"ONE-MORE-P: add a summary"}`)

	logAs := func(label string) string { return readInput + "LABEL=" + label + "\n" + logInput }

	return []*scenario{
		// file-guard
		{
			name: "file-guard/copilot-deny-env", dialect: cp, steps: fileSteps, to: toClaude,
			hooks:   []hookDef{{event: "preToolUse", script: "guard"}},
			scripts: map[string]string{"guard": copilotEnvGuard},
			check:   envGuardCheck("ENV-GUARD-P"),
		},
		{
			// The migrated copy blocks; Copilot's own run of the same Claude
			// hook sees "path", not "file_path", and lets the write through.
			name: "file-guard/claude-exit2-to-copilot", dialect: driver.Claude, steps: fileSteps, to: toCopilot, noPeer: true,
			hooks:   []hookDef{{event: "PreToolUse", matcher: "Write|Edit", script: "guard"}},
			scripts: map[string]string{"guard": claudeEnvGuard},
			check:   envGuardCheck("ENV-GUARD-C"),
		},
		{
			// Claude's Edit|Write matcher becomes Copilot's edit|create. Only
			// hookx's copy runs: Copilot's own run of the same hook would
			// fire it twice (migrate warns so).
			name: "file-matcher/claude-Edit|Write-to-copilot", dialect: driver.Claude, to: toCopilot, noPeer: true, removeSource: true,
			steps:   []action{shell("echo shell-step"), write("notes.txt", "alpha\n"), read("notes.txt"), edit("notes.txt", "alpha", "beta")},
			hooks:   []hookDef{{event: "PreToolUse", matcher: "Edit|Write", script: "files"}},
			scripts: map[string]string{"files": logAs("files")},
			check:   toolsSeen("files.", "Edit", "Write"),
		},
		{
			name: "file-guard/copilot-wrap-from-claude", dialect: cp, steps: fileSteps, to: []driver.Agent{}, needsHookx: true,
			hooks:   []hookDef{wrapped("preToolUse", "guard")},
			scripts: map[string]string{"guard": claudeEnvGuard},
			check:   envGuardCheck("ENV-GUARD-C"),
		},

		// posttool
		{
			name: "posttool/copilot-additionalContext", dialect: cp, steps: postSteps, to: toClaude,
			hooks: []hookDef{{event: "postToolUse", script: "post"}},
			scripts: map[string]string{"post": logAs("post") +
				emit(`{"additionalContext":"POST-CTX-P"}`)},
			check: postContextCheck("POST-CTX-P"),
		},
		{
			// Copilot's own run of the Claude hook drops its context (seen
			// live): hookx writes its copy all the same, and the hook runs
			// twice there; only the copy runs here, to count its runs.
			name: "posttool/claude-additionalContext-to-copilot", dialect: driver.Claude, steps: postSteps, to: toCopilot, noPeer: true, removeSource: true,
			hooks: []hookDef{{event: "PostToolUse", matcher: "Bash", script: "post"}},
			scripts: map[string]string{"post": logAs("post") +
				emit(`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"POST-CTX-C"}}`)},
			check: postContextCheck("POST-CTX-C"),
		},
		{
			// A Claude PostToolUse block feeds its reason to the model;
			// Copilot reads no block there: hookx sends it as context.
			name: "posttool/copilot-wrap-from-claude-block", dialect: cp, steps: postSteps, to: []driver.Agent{}, needsHookx: true,
			hooks: []hookDef{wrapped("postToolUse", "post")},
			scripts: map[string]string{"post": logAs("post") +
				emit(`{"decision":"block","reason":"POST-BLOCK-CW: check the output"}`)},
			check: postContextCheck("POST-BLOCK-CW"),
		},
		{
			name: "posttool/copilot-wrap-from-claude-fields", dialect: cp, steps: postSteps, to: []driver.Agent{}, needsHookx: true,
			hooks:   []hookDef{wrapped("postToolUse", "post")},
			scripts: map[string]string{"post": logAs("post")},
			check: postCheck(map[string]string{
				"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input.command": "printf POST%s -OUT",
			}, "tool_response.stdout"),
		},

		// prompt
		{
			name: "prompt/copilot-decision-block", dialect: cp, steps: []action{say("PROMPT-ANSWERED")}, to: toClaude,
			hooks:   []hookDef{{event: "userPromptSubmitted", script: "prompt"}},
			scripts: map[string]string{"prompt": logAs("prompt") + emit(`{"decision":"block","reason":"PROMPT-BLOCK-P: not this prompt"}`)},
			check:   promptBlocked, anyExit: true,
		},
		{
			// The migrated copy refuses the prompt; Copilot's own run of the
			// Claude hook ignores a top-level decision "block".
			name: "prompt/claude-decision-block-to-copilot", dialect: driver.Claude, steps: []action{say("PROMPT-ANSWERED")}, to: toCopilot, noPeer: true,
			hooks:   []hookDef{{event: "UserPromptSubmit", script: "prompt"}},
			scripts: map[string]string{"prompt": logAs("prompt") + emit(`{"decision":"block","reason":"PROMPT-BLOCK-C: not this prompt"}`)},
			check:   promptBlocked, anyExit: true,
		},
		{
			// Copilot's own run of the Claude hook logs its exit-2 stderr as
			// "[WARNING] [rust:hooks] Hook warning: …" (seen live), which the
			// driver counts as a settings warning: only hookx's copy runs.
			name: "prompt/claude-exit2-to-copilot", dialect: driver.Claude, steps: []action{say("PROMPT-ANSWERED")}, to: toCopilot, noPeer: true, removeSource: true,
			hooks:   []hookDef{{event: "UserPromptSubmit", script: "prompt"}},
			scripts: map[string]string{"prompt": logAs("prompt") + "echo 'PROMPT-EXIT2-C: not this prompt' >&2; exit 2\n"},
			check:   promptBlocked, anyExit: true,
		},

		// context: session start and prompt
		{
			name: "context/copilot-additionalContext", dialect: cp, steps: []action{say("hello")}, to: toClaude,
			hooks: []hookDef{{event: "sessionStart", script: "session-start"}, {event: "userPromptSubmitted", script: "prompt"}},
			scripts: map[string]string{
				"session-start": "cat >/dev/null\n" + emit(`{"additionalContext":"P-SS-CTX-MARKER"}`),
				"prompt":        "cat >/dev/null\n" + emit(`{"additionalContext":"P-UPS-CTX-MARKER"}`),
			},
			check: firstRequestHas("P-SS-CTX-MARKER", "P-UPS-CTX-MARKER"),
		},
		{
			// Claude's plain stdout is context on SessionStart and
			// UserPromptSubmit; Copilot ignores plain stdout: hookx turns it
			// into additionalContext.
			name: "context/copilot-wrap-from-claude-plain-stdout", dialect: cp, steps: []action{say("hello")}, to: []driver.Agent{}, needsHookx: true,
			hooks: []hookDef{wrapped("sessionStart", "session-start"), wrapped("userPromptSubmitted", "prompt")},
			scripts: map[string]string{
				"session-start": "cat >/dev/null\necho 'CW-SS-PLAIN-MARKER'\n",
				"prompt":        "cat >/dev/null\necho 'CW-UPS-PLAIN-MARKER'\n",
			},
			check: firstRequestHas("CW-SS-PLAIN-MARKER", "CW-UPS-PLAIN-MARKER"),
		},

		// session end
		{
			name: "session-end/copilot-fields", dialect: cp, steps: []action{say("bye")}, to: []driver.Agent{},
			hooks:   []hookDef{{event: "sessionEnd", script: "end"}},
			scripts: map[string]string{"end": logAs("end")},
			check:   sessionEndCheck(map[string]string{"reason": "complete"}, "sessionId"),
		},
		{
			// Claude Code -p ends with reason "other". Copilot runs the
			// Claude hook itself (migrate writes no copy, with a note that
			// says how its reading differs): the hook runs, in Claude's
			// payload form, but with Copilot's own reason "complete" (seen
			// live), which no Claude hook has seen from Claude Code.
			name: "session-end/claude-fields", dialect: driver.Claude, steps: []action{say("bye")}, to: toCopilot, noPeer: true,
			hooks:   []hookDef{{event: "SessionEnd", script: "end"}},
			scripts: map[string]string{"end": logAs("end")},
			check: func(o *outcome) []string {
				reason := "other"
				if o.host == driver.Copilot {
					reason = "complete"
				}
				return sessionEndCheck(map[string]string{"hook_event_name": "SessionEnd", "reason": reason}, "session_id")(o)
			},
		},
		{
			name: "session-end/copilot-wrap-from-claude-fields", dialect: cp, steps: []action{say("bye")}, to: []driver.Agent{}, needsHookx: true,
			hooks:   []hookDef{wrapped("sessionEnd", "end")},
			scripts: map[string]string{"end": logAs("end")},
			check:   sessionEndCheck(map[string]string{"hook_event_name": "SessionEnd", "reason": "other"}, "session_id"),
		},

		// agent stop
		{
			name: "stop-once/copilot-decision-block", dialect: cp, steps: []action{say("first answer")}, to: toClaude,
			hooks:   []hookDef{{event: "agentStop", script: "stop"}},
			scripts: map[string]string{"stop": copilotStopOnce},
			check:   oneMoreTurn("ONE-MORE-P"),
		},
		{
			name: "stop-once/copilot-wrap-from-claude", dialect: cp, steps: []action{say("first answer")}, to: []driver.Agent{}, needsHookx: true,
			hooks:   []hookDef{wrapped("agentStop", "stop")},
			scripts: map[string]string{"stop": claudeStopOnce},
			check:   oneMoreTurn("ONE-MORE-CW"),
		},
		{
			name: "stop-always/copilot-decision-block", dialect: cp, steps: []action{say("answer")}, to: toClaude, maxMain: 15,
			hooks:   []hookDef{{event: "agentStop", script: "stop"}},
			scripts: map[string]string{"stop": "cat >/dev/null\n" + emit(`{"decision":"block","reason":"ALWAYS-BLOCK-P: keep going"}`)},
			check:   modelCalls(9),
		},

		// error: the model call fails (HTTP 400).
		{
			name: "error/copilot-errorOccurred", dialect: cp, steps: []action{fail("FAKE-MODEL-FAILURE")}, to: []driver.Agent{}, anyExit: true,
			hooks:   []hookDef{{event: "errorOccurred", script: "err"}},
			scripts: map[string]string{"err": logAs("err")},
			check:   errorHookCheck(map[string]string{"errorContext": "model_call"}, "error", nil),
		},
		{
			name: "error/copilot-wrap-from-claude-StopFailure", dialect: cp, steps: []action{fail("FAKE-MODEL-FAILURE")}, to: []driver.Agent{}, anyExit: true, needsHookx: true,
			hooks:   []hookDef{wrapped("errorOccurred", "err")},
			scripts: map[string]string{"err": logAs("err")},
			// The Claude hook gets Claude's StopFailure keys only, not
			// Copilot's errorContext and recoverable; its error is still
			// Copilot's object {message, name, stack}, where Claude Code
			// sends a string (a known limit).
			check: errorHookCheck(map[string]string{"hook_event_name": "StopFailure"}, "error",
				[]string{"hook_event_name", "session_id", "transcript_path", "cwd", "permission_mode", "error", "error_details", "last_assistant_message"}),
		},

		// post-tool failure: a view of a missing file fails.
		{
			name: "posttool-failure/copilot-additionalContext", dialect: cp, steps: []action{read("missing.txt")}, to: toClaude,
			hooks: []hookDef{{event: "postToolUseFailure", script: "failed"}},
			scripts: map[string]string{"failed": logAs("failed") +
				emit(`{"additionalContext":"FAIL-CTX-P"}`)},
			check: failureContextCheck("FAIL-CTX-P"),
		},
		{
			name: "posttool-failure/claude-additionalContext-to-copilot", dialect: driver.Claude, steps: []action{read("missing.txt")}, to: toCopilot, noPeer: true, removeSource: true,
			hooks: []hookDef{{event: "PostToolUseFailure", script: "failed"}},
			scripts: map[string]string{"failed": logAs("failed") +
				emit(`{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"FAIL-CTX-C"}}`)},
			check: failureContextCheck("FAIL-CTX-C"),
		},
	}
}

// envGuardCheck: the write to .env was blocked with the hook's reason
// reaching the model, and notes.txt was written and edited.
func envGuardCheck(marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		if b, err := os.ReadFile(o.sb.Path(".env")); err == nil {
			p = append(p, fmt.Sprintf("the guard did not block: .env = %q", b))
		}
		if b, _ := os.ReadFile(o.sb.Path("notes.txt")); string(b) != "beta\n" {
			p = append(p, fmt.Sprintf("notes.txt = %q after the write and edit, want %q", b, "beta\n"))
		}
		var blocked bool
		for _, r := range o.srv.Main() {
			for _, tr := range r.ToolResults() {
				blocked = blocked || strings.Contains(tr.Text, marker) && (!hosts[o.host].errorFlag || tr.IsError)
			}
		}
		if !blocked {
			p = append(p, fmt.Sprintf("no tool result carries the guard's reason %s (as an error where the API has the flag)", marker))
		}
		return p
	}
}

// postContextCheck: the hook ran once, and the request after the tool call
// carries both the tool's output and the hook's context.
func postContextCheck(marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		if n := len(o.hookLogs("post.")); n != 1 {
			p = append(p, fmt.Sprintf("the post-tool hook ran %d times, want 1", n))
		}
		last := o.srv.LastMain()
		if last == nil {
			return append(p, "no main-model request")
		}
		if !strings.Contains(last.AllText(), "POST-OUT") {
			p = append(p, "the tool's output POST-OUT did not reach the model")
		}
		if !strings.Contains(last.AllText(), marker) {
			p = append(p, fmt.Sprintf("the hook's context %s did not reach the model after the tool", marker))
		}
		return p
	}
}

// failureContextCheck: the failure hook ran once and its context reached
// the model after the failed call.
func failureContextCheck(marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		if n := len(o.hookLogs("failed.")); n != 1 {
			p = append(p, fmt.Sprintf("the failure hook ran %d times, want 1", n))
		}
		if last := o.srv.LastMain(); last == nil || !strings.Contains(last.AllText(), marker) {
			p = append(p, fmt.Sprintf("the hook's context %s did not reach the model after the failed call", marker))
		}
		return p
	}
}

// promptBlocked: the prompt hook ran (so a run that died before it cannot
// pass), the prompt never reached the model, and the scripted answer was
// never printed.
func promptBlocked(o *outcome) []string {
	var p []string
	if len(o.hookLogs("prompt.")) == 0 {
		p = append(p, "the prompt hook never ran")
	}
	if n := len(o.srv.Main()); n != 0 {
		p = append(p, fmt.Sprintf("the model was called %d times, want 0 (the prompt refused)", n))
	}
	if strings.Contains(o.res.Stdout+o.res.Stderr, "PROMPT-ANSWERED") {
		p = append(p, "the model's answer was printed")
	}
	return p
}

// sessionEndCheck: the session-end hook ran once, with these fields and a
// non-empty session field named as its own agent names it.
func sessionEndCheck(want map[string]string, session string) func(o *outcome) []string {
	return func(o *outcome) []string {
		logs := o.hookLogs("end.")
		if len(logs) != 1 {
			return []string{fmt.Sprintf("the session-end hook ran %d times, want 1", len(logs))}
		}
		b, _ := os.ReadFile(logs[0])
		var in map[string]any
		if err := json.Unmarshal(b, &in); err != nil {
			return []string{fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b)}
		}
		var p []string
		for k, v := range want {
			if got := dig(in, k); got != v {
				p = append(p, fmt.Sprintf("hook stdin %s = %q, want %q (stdin %s)", k, got, v, b))
			}
		}
		if dig(in, session) == "" {
			p = append(p, fmt.Sprintf("hook stdin has no %s (stdin %s)", session, b))
		}
		return p
	}
}

// modelCalls: the model was called exactly n times.
func modelCalls(n int) func(o *outcome) []string {
	return func(o *outcome) []string {
		if got := len(o.srv.Main()); got != n {
			return []string{fmt.Sprintf("the model was called %d times, want %d", got, n)}
		}
		return nil
	}
}

// alsoToCopilot runs Claude scenario families, and a Gemini AfterAgent hook
// that denies unless stop_hook_active (wrap reads Copilot's own payload
// names and waits for its events file: without either the hook was told
// true after tool use), through hookx on Copilot too.
// Copilot also runs .claude/settings.json itself: on Stop, whose reading
// there matches Claude Code's, migrate writes no copy and Copilot's own run
// is what is judged; on SessionStart, UserPromptSubmit and PostToolUse,
// whose context Copilot's own run drops, migrate writes its copy and both
// run.
func alsoToCopilot(list []*scenario) {
	names := map[string]bool{
		"context/claude-plain-stdout-and-json":  true,
		"context/claude-json-and-plain-stdout":  true,
		"stop-once/claude-decision-block":       true,
		"stop-always/claude-decision-block":     true,
		"posttool/claude-fields":                true,
		"stop-tools/claude-block-unless-active": true,
		"stop-tools/gemini-deny-unless-active":  true,
		"guard/gemini-decision-deny":            true,
		"guard/gemini-decision-block":           true,
		"guard/gemini-text-exit3":               true,
		"misspelled/gemini-blocks":              true,
		"stop-once/gemini-decision-deny":        true,
		"rewrite/gemini-tool_input":             true,
		"rewrite/claude-updatedInput":           true,
		"posttool/gemini-fields":                true,
		"context/gemini-additionalContext":      true,
	}
	for _, sc := range list {
		if names[sc.name] {
			sc.to = append(sc.targets(), driver.Copilot)
		}
		// It counts the hook's runs: only hookx's copy runs (the other
		// targets do not read .claude/settings.json).
		if sc.name == "posttool/claude-fields" {
			sc.removeSource = true
		}
	}
}

// toolsSeen: the hooks logging under prefix saw exactly these tool names
// (sorted), and notes.txt was edited.
func toolsSeen(prefix string, want ...string) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p, got []string
		for _, f := range o.hookLogs(prefix) {
			var in map[string]any
			b, _ := os.ReadFile(f)
			if err := json.Unmarshal(b, &in); err != nil {
				p = append(p, fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b))
				continue
			}
			got = append(got, fmt.Sprint(in["tool_name"]))
		}
		slices.Sort(got)
		if !slices.Equal(want, got) {
			p = append(p, fmt.Sprintf("the hook fired for tools %q, want %q", got, want))
		}
		if b, _ := os.ReadFile(o.sb.Path("notes.txt")); string(b) != "beta\n" {
			p = append(p, fmt.Sprintf("notes.txt = %q after the edit, want %q", b, "beta\n"))
		}
		return p
	}
}

// errorHookCheck: the error hook ran at least once (a failed model call may
// be retried), each time with these fields, a non-empty field that carries
// the failure, and (allowed set) no other keys than allowed.
func errorHookCheck(want map[string]string, errField string, allowed []string) func(o *outcome) []string {
	return func(o *outcome) []string {
		logs := o.hookLogs("err.")
		if len(logs) == 0 {
			return []string{"the error hook never ran"}
		}
		var p []string
		for _, f := range logs {
			b, _ := os.ReadFile(f)
			var in map[string]any
			if err := json.Unmarshal(b, &in); err != nil {
				p = append(p, fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b))
				continue
			}
			for k, v := range want {
				if got := dig(in, k); got != v {
					p = append(p, fmt.Sprintf("hook stdin %s = %q, want %q (stdin %s)", k, got, v, b))
				}
			}
			if in[errField] == nil || in[errField] == "" {
				p = append(p, fmt.Sprintf("hook stdin has no %s (stdin %s)", errField, b))
			}
			for k := range in {
				if allowed != nil && !slices.Contains(allowed, k) {
					p = append(p, fmt.Sprintf("hook stdin has %q, which its own agent never sends", k))
				}
			}
		}
		return p
	}
}
