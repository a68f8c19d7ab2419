package translate

// The claude protocol family: Claude Code's hook output, and that of the
// agents that read it as Claude Code does (Codex, Qwen Code, Factory Droid).

import (
	"cmp"
	"fmt"
	"maps"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

var claudeKnownKeys = keySet("continue", "stopReason", "systemMessage", "decision", "reason", "suppressOutput", "hookSpecificOutput", "terminalSequence", "async", "asyncTimeout")

// readClaude applies Claude Code's rules (CC§2, T§9.2).
func readClaude(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	var v Verdict
	trim := trimFor(d)
	text := trim(out.Stdout)
	stderr := trim(out.Stderr)
	obj, isJSON := singleObject(text)
	if isJSON && d.Reading.ByExit() && (out.ExitCode != 0 || out.Signaled) {
		// The agent reads stdout only at exit 0 (Crush, runner.go:220-258).
		isJSON = false
		fs.add(mappings.None, "stdout", "%s reads it only at exit 0; ignored", d.Agent)
	}
	if isJSON {
		o, ignored := parseFields(obj), ""
		if form := outputForms[d.OutputForm]; form != nil {
			o, ignored = form(d, ev, o, fs)
		}
		v = claudeVerdict(d, ev, o, fs)
		if ignored != "" && v.Ignored == "" && !v.Block {
			v.Ignored = ignored
		}
	}
	exit := out.ExitCode
	if out.Signaled {
		exit = -1 // no exit code: a non-blocking error unless the JSON decides
	}
	switch {
	case exit == 2 && ev.Output.Block == "none" && ev.Output.StderrShown && stderr != "":
		// Events that cannot block show a failing hook's stderr to the user.
		v.SystemMessage = stderr
	case exit == 2:
		// Exit 2 blocks whatever the JSON says (CC§2.2).
		v.Block, v.Allow, v.Ignored = true, false, ""
		if v.Reason == "" {
			v.Reason = cmp.Or(stderr, "No stderr output")
		}
	case ev.Output.ExitEffect(exit) == "block":
		// An exit code of the agent's own that blocks whatever the JSON
		// says (Factory Droid's exit 3 on UserPromptSubmit).
		v.Block, v.Allow, v.Ask, v.Defer, v.Ignored = true, false, false, false, ""
		v.Reason = cmp.Or(stderr, v.Reason, fmt.Sprintf("Blocked by %s hook (exit %d)", ev.Name, exit))
	case ev.Output.ExitEffect(exit) == "stop":
		// An exit code that stops the agent whatever the JSON says
		// (Factory Droid's exit 3 on PreToolUse: AgentAbortError); where
		// a block denies, the action does not run either.
		v.Ignored = ""
		if !v.Stop {
			v.Stop, v.StopReason = true, cmp.Or(stderr, fmt.Sprintf("Agent aborted by %s hook", ev.Name))
		}
		if ev.Output.Block == "deny" {
			v.Block, v.Allow, v.Ask, v.Defer = true, false, false, false
			v.Reason = cmp.Or(v.StopReason, v.Reason)
		}
	case isJSON:
		// The JSON decides, whatever the exit code.
	case exit == 0:
		switch {
		case text == "":
		case strings.HasPrefix(text, "{"):
			// Invalid JSON: Claude logs a validation error and goes on;
			// onFailure:"block" would make it a block.
			v.Failure = "printed output that starts with { but is not one valid JSON object"
		case ev.Output.PlainText == "context":
			v.Context = append(v.Context, text)
		default:
			fs.add(mappings.Approximate, "plain stdout", "Claude Code sends it to the debug log only on %s; not passed on", ev.Name)
		}
	default:
		// Any other exit code is a non-blocking error: the action goes ahead.
		first, _, _ := strings.Cut(stderr, "\n")
		if ev.Output.StderrShown && stderr != "" {
			v.SystemMessage = stderr // shown to the user as a hook error
		}
		if out.Signaled {
			v.Failure = cmp.Or(out.FailReason, "killed by a signal")
		} else {
			v.Failure = fmt.Sprintf("exited %d", exit)
		}
		if first != "" {
			v.Failure += ": " + first
		}
	}
	if ev.Output.ExitEffect(exit) == "context" && stderr != "" && !v.Block {
		// The agent hands a failing hook's stderr to the model beside the
		// result (Factory Droid's PreToolUse at exit 1).
		v.Context = append(v.Context, stderr)
	}
	return v
}

func claudeVerdict(d *mappings.Dialect, ev *mappings.Event, o fields, fs *findings) (v Verdict) {
	acts := false // the agent blocks or asks by a form it reads itself
	defer func() {
		if acts {
			v.Ignored = ""
		}
	}()
	for _, k := range o.unknown(claudeKnownKeys) {
		fs.add(mappings.None, "output key "+k, "not part of Claude Code's output; ignored as Claude Code would")
		if dec := o.str(k); strings.EqualFold(k, "decision") && (dec == "deny" || dec == "block") {
			v.Ignored = fmt.Sprintf(`%q is not "decision" to %s, which reads keys as written`, k, d.Agent)
		}
	}
	reason := o.str("reason")
	if dec := o.str("decision"); dec != "" && ev.Output.DecisionIgnored {
		fs.add(mappings.None, fmt.Sprintf("decision %q", dec), "not read on %s by the hook's own agent; it blocks nothing", ev.Name)
		if dec == "deny" || dec == "block" {
			v.Ignored = fmt.Sprintf(`decision %q is not read on %s by %s`, dec, ev.Name, d.Agent)
		}
		o = maps.Clone(o)
		delete(o, "decision")
	}
	switch dec := o.str("decision"); dec {
	case "":
	case "block":
		v.Block, v.Reason = true, cmp.Or(reason, "Blocked by hook")
		acts = true
	case "approve":
		v.Allow = true
	case "deny":
		// Claude rejects this value and the action proceeds; the intent is
		// plainly a deny, and reading it as one grants less (T§1 Invariant 2).
		v.Block, v.Reason = true, cmp.Or(reason, "Blocked by hook")
		fs.add(mappings.Approximate, `decision "deny"`, "invalid in Claude Code (only approve or block); read as a block, the stricter reading")
		v.Ignored = fmt.Sprintf(`{"decision":"deny"} is invalid in %s (only approve or block)`, d.Agent)
	case "ask":
		v.Ask, v.AskReason = true, reason
		fs.add(mappings.Approximate, `decision "ask"`, "invalid in Claude Code; read as ask, the stricter reading")
		v.Ignored = fmt.Sprintf(`{"decision":"ask"} is invalid in %s (only approve or block)`, d.Agent)
	default:
		fs.add(mappings.None, fmt.Sprintf("decision %q", dec), "invalid in Claude Code; ignored")
	}
	if o.isFalse("continue") {
		if !ev.Output.Stop && (ev.Output.Block == "deny" || ev.Output.StopReplacesOutput || ev.Output.StopBlocks) {
			// The agent cannot stop here; it refuses the action with the
			// stop reason (Qwen Code's PreToolUse), replaces the tool's
			// output with it (Codex's PostToolUse), or goes on with it as
			// the next prompt (Qwen Code's Stop): its block.
			v.Block, v.Reason = true, cmp.Or(o.str("stopReason"), reason, "Stopped by hook")
			acts = true
		} else {
			v.Stop, v.StopReason = true, o.str("stopReason")
		}
	}
	v.SystemMessage = o.str("systemMessage")
	if ev.Output.SystemMessage == "discarded" && v.SystemMessage != "" {
		v.SystemMessage = ""
		fs.add(mappings.None, "systemMessage", "Claude Code discards it on %s", ev.Name)
	}
	hs := o.object("hookSpecificOutput")
	if hs == nil {
		if raw := o["hookSpecificOutput"]; len(raw) > 0 && string(raw) != "null" {
			fs.add(mappings.None, "hookSpecificOutput", "is not an object; ignored")
		}
		return v
	}
	pd, pdReason := hs.str("permissionDecision"), hs.str("permissionDecisionReason")
	if name := hs.str("hookEventName"); name != ev.Name {
		// Claude ignores the whole object (T§15 S1). Honour a deny anyway:
		// that grants less than native Claude would.
		fs.add(mappings.Approximate, "hookSpecificOutput", "hookEventName %q is not %q; Claude Code would ignore it; only a deny is kept", name, ev.Name)
		if pd == "deny" {
			v.Block, v.Reason = true, cmp.Or(pdReason, "Blocked by hook")
			named := "missing"
			if _, ok := hs["hookEventName"]; ok {
				named = fmt.Sprintf("%q", name)
			}
			if v.Ignored == "" {
				v.Ignored = fmt.Sprintf("permissionDecision deny with hookEventName %s, not %q, which %s ignores", named, ev.Name, d.Agent)
			}
		}
		return v
	}
	if dec := hs.object("decision"); ev.Output.BehaviorDecision && dec != nil {
		switch b := dec.str("behavior"); b {
		case "allow":
			v.Allow = true
		case "deny":
			v.Block, v.Reason = true, cmp.Or(dec.str("message"), "Blocked by hook")
			acts = true
		default:
			// Qwen Code denies on any decision object that does not
			// allow (firePermissionRequestHook, chunk-DPEB6S2R.js:
			// 40111-40123); Claude Code and Codex refuse such an answer
			// and their dialog goes on. A deny grants less.
			v.Block, v.Reason = true, cmp.Or(dec.str("message"), "Blocked by hook")
			fs.add(mappings.Approximate, fmt.Sprintf("decision.behavior %q", b), "not allow: read as a deny, as Qwen Code reads it (the stricter reading)")
			acts = true
		}
	}
	switch pd {
	case "":
	case "deny":
		v.Block, v.Reason = true, cmp.Or(pdReason, "Blocked by hook")
		acts = true
	case "ask":
		v.Ask, v.AskReason = true, pdReason
		acts = true
	case "defer":
		v.Defer = true
	case "allow":
		// Where allow skips nothing (Codex: it only carries a rewrite),
		// it grants nothing either.
		v.Allow = ev.Output.Allow != "none"
	default:
		fs.add(mappings.None, fmt.Sprintf("permissionDecision %q", pd), "invalid; ignored")
	}
	if !ev.Output.RewriteInput {
		// The hook's own agent reads no rewrite here (Qwen Code's
		// PreToolUse): the original input runs, as it would there.
		if hs["updatedInput"] != nil && ev.Output.Guard {
			fs.add(mappings.None, "updatedInput", "the hook's agent does not rewrite tool input on %s: the original input runs, as it would there", ev.Name)
		}
	} else if in, err := hs.inputObject("updatedInput"); err != nil {
		unreadableRewrite(&v, err, fs)
	} else {
		v.NewInput = in
	}
	if c := hs.str("additionalContext"); c != "" {
		v.Context = append(v.Context, c)
	}
	if ev.Output.RewritePrompt {
		if raw := hs.object("updatedInput")["prompt"]; len(raw) > 0 && raw[0] == '"' {
			p := hs.object("updatedInput").str("prompt")
			v.NewPrompt = &p
		}
	}
	if r := hs["updatedToolOutput"]; r != nil {
		v.NewOutput = r
	} else if r := hs["updatedMCPToolOutput"]; r != nil {
		v.NewOutput = r
	}
	return v
}

// claudeOutput is the Claude-family answer: the JSON of claudeObject (the
// keys the host does not accept are passed to dropped), and where the
// event's agent reads no top-level decision and the block cannot be a
// permissionDecision, exit 2 with the reason on stderr.
func (r rendered) claudeOutput(ev *mappings.Event, repl *replacement, dropped func([]string)) Output {
	var out Output
	if r.stop && ev != nil && ev.Output.StopByExit {
		// The agent reads no continue:false: its exit code of "stop"
		// (Crush's 49) halts, the reason on stderr; where the event's
		// block denies, the action does not run either.
		if code := ev.Output.StopExit(); code != 0 {
			out.Stderr, out.ExitCode = []byte(nonBlank(cmp.Or(r.stopReason, r.reason), "Stopped by hook")+"\n"), code
			return out
		}
	}
	if r.block && ev != nil && ev.Output.DecisionIgnored && !ev.Output.PermissionDecision {
		out.Stderr, out.ExitCode = []byte(nonBlank(r.reason, "Blocked by hook")+"\n"), 2
		r.block = false
	}
	o, left := r.claudeObject(ev, repl)
	if dropped != nil {
		dropped(left)
	}
	if o != nil {
		out.Stdout = o.bytes()
	}
	return out
}

// claude renders for a Claude-family host; ev is nil for an event the host
// lacks.
func (r rendered) claude(ev *mappings.Event, repl *replacement) []byte {
	o, _ := r.claudeObject(ev, repl)
	if o == nil {
		return nil
	}
	return o.bytes()
}

// claudeObject renders for a Claude-family host, leaving out the keys the
// host does not accept on ev (dropped names them); nil when nothing is left.
func (r rendered) claudeObject(ev *mappings.Event, repl *replacement) (o *object, dropped []string) {
	o = newObject()
	hs := newObject()
	// A blank reason is no reason to a host that trims it (Codex fails the
	// hook, and the action runs).
	reason := nonBlank(r.reason, "Blocked by hook")
	rewrite := r.newInput != nil && !r.block
	if ev != nil && ev.Output.PermissionDecision {
		// Never "allow" where it would skip the permission prompt.
		switch {
		case r.block:
			hs.set("permissionDecision", "deny")
			hs.set("permissionDecisionReason", reason)
		case r.ask:
			hs.set("permissionDecision", "ask")
			hs.set("permissionDecisionReason", r.askReason)
		case rewrite && ev.Output.RewriteNeedsAllow:
			hs.set("permissionDecision", "allow")
		}
	} else if r.block && ev != nil && ev.Output.BehaviorDecision {
		hs.set("decision", map[string]any{"behavior": "deny", "message": reason})
	} else if r.block {
		o.set("decision", "block")
		o.set("reason", reason)
	}
	if r.stop {
		o.set("continue", false)
		o.set("stopReason", nonBlank(r.stopReason, "Stopped by hook"))
	}
	if r.systemMessage != "" {
		o.set("systemMessage", r.systemMessage)
	}
	if len(r.context) > 0 {
		hs.set("additionalContext", strings.Join(r.context, "\n"))
	}
	if rewrite {
		hs.set("updatedInput", r.newInput)
	}
	if repl != nil {
		hs.set(repl.key, repl.value)
	}
	if ev != nil && ev.Output.Keys != nil {
		o, dropped = o.keep(func(k string) bool { return ev.Output.Accepts(k) }, "")
		hs, dropped = hs.keepAppend(func(k string) bool { return ev.Output.Accepts("hookSpecificOutput." + k) }, "hookSpecificOutput.", dropped)
		if hs.len() > 0 && !ev.Output.Accepts("hookSpecificOutput.hookEventName") {
			dropped = append(dropped, "hookSpecificOutput")
			hs = newObject()
		}
	}
	if hs.len() > 0 && ev != nil {
		o.set("hookSpecificOutput", hs.withFirst("hookEventName", ev.Name))
	}
	if o.len() == 0 {
		return nil, dropped
	}
	return o, dropped
}

// replacement is a tool result that replaces the real one on Claude.
type replacement struct {
	key   string // updatedToolOutput, or updatedMCPToolOutput for MCP tools
	value any
}

// toolResultReplacement builds the tool result that hides a tool's output on
// Claude, shaped like the tool's own output: Claude ignores any other shape
// and the output leaks (T§15 S2). Only Bash's shape was seen to work live.
func (tr *Translator) toolResultReplacement(ctx ResultContext, r rendered, fs *findings) *replacement {
	if !r.replaceOutput {
		return nil
	}
	p, _ := readHostCall(ctx.HostPayload)
	if _, _, ok := tr.To.SplitMCP(p.ToolName, nil); ok {
		fs.add(mappings.Approximate, "hidden output", "updatedMCPToolOutput for %s is UNVERIFIED in the real agent; if Claude Code ignores it, the output reaches the model", p.ToolName)
		return &replacement{"updatedMCPToolOutput", []any{map[string]any{"type": "text", "text": r.reason}}}
	}
	tool := tr.To.Tool(p.ToolName)
	switch {
	case tool != nil && tool.OutputReplace == "applied":
	case tool != nil && tool.OutputReplace == "ignored":
		fs.add(mappings.None, "hidden output", "%s ignores a replaced %s result (seen live): the model gets its own result, and the reason only as a message beside it", tr.To.Agent, p.ToolName)
	default:
		fs.add(mappings.Approximate, "hidden output", "the updatedToolOutput shape for %q is UNVERIFIED in the real agent (Bash's and Read's are applied); if Claude Code ignores it, the output reaches the model", p.ToolName)
	}
	resp := tr.responseConverter(tr.To, tool)
	zero := 0
	v, _ := resp.FromCanonical(mappings.ToolResult{Output: r.reason, Stdout: r.reason, Display: r.reason, ExitCode: &zero}, p.ToolInput)
	return &replacement{"updatedToolOutput", v}
}

// singleObject reports whether Claude Code reads text (already trimmed) as
// its JSON output: it starts with { and JSON.parse accepts all of it.
func singleObject(text string) ([]byte, bool) {
	if !strings.HasPrefix(text, "{") {
		return nil, false
	}
	if kind, ok := jsParse(text); !ok || kind != '{' {
		return nil, false
	}
	return []byte(text), true
}

// claudeFamily is Claude Code's protocol (CC§2) and its readers'.
type claudeFamily struct{}

func (claudeFamily) read(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	if d.StderrAsOutput && trimJS(out.Stdout) == "" && out.ExitCode != 2 {
		// The agent reads stderr as the output when stdout is empty.
		out.Stdout, out.Stderr = out.Stderr, nil
	}
	return readClaude(d, ev, out, fs)
}

// exitBlocks: exit 2, and an exit code of the agent's own that blocks or
// stops (output.exits).
func (claudeFamily) exitBlocks(_ *mappings.Dialect, ev *mappings.Event, exit int) bool {
	effect := ev.Output.ExitEffect(exit)
	return exit == 2 || effect == "block" || effect == "stop"
}

func (claudeFamily) readWhole(d *mappings.Dialect, ev *mappings.Event, out Output, blocking bool, why string, fs *findings) (Verdict, bool) {
	if ev.Output.Block == "none" || ev.Output.Block == "" {
		return Verdict{}, false // nothing is guarded: a failure
	}
	switch {
	case out.Stdout != nil && !blocking && !(d.StderrAsOutput && trimJS(out.Stdout) == ""):
		// Stdout, whole, decides; stderr would only be shown (an agent
		// that reads stderr as the output when stdout is empty would have
		// read the stderr that is lost: that is left to the shared rules).
		fs.add(mappings.Approximate, "stderr", "%s; not shown", why)
		return readClaude(d, ev, Output{Stdout: out.Stdout, ExitCode: out.ExitCode}, fs), true
	case blocking && out.Stderr != nil:
		// Exit 2 decides whatever stdout says; stderr, the reason, is whole.
		return readClaude(d, ev, Output{Stderr: out.Stderr, ExitCode: out.ExitCode}, fs), true
	}
	return Verdict{}, false
}

func (claudeFamily) render(tr *Translator, ctx ResultContext, ev *mappings.Event, r rendered, fs *findings) Output {
	r.newOutputLost(tr.To, fs)
	return r.claudeOutput(ev, tr.toolResultReplacement(ctx, r, fs), func(dropped []string) {
		for _, k := range dropped {
			fs.add(mappings.None, k, "%s fails a hook that answers with it on %s; left out", tr.To.Agent, ev.Name)
		}
	})
}

func (claudeFamily) failure(_ *mappings.Dialect, ev *mappings.Event, r rendered, _ string) Output {
	return r.claudeOutput(ev, nil, nil)
}

func (claudeFamily) carriesModel() bool { return false }
