package translate

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

// Output is a hook's raw result, or what the host must receive.
type Output struct {
	Stdout, Stderr []byte
	ExitCode       int
	TimedOut       bool // killed by hookx's own timeout
	Signaled       bool // killed by a signal: there is no exit code
	Failed         bool // could not start, or output over the bound
	// Overflow is set when stdout or stderr was over hookx's bound: the
	// stream over it is left out (nil), the other is kept.
	Overflow bool
	// Held is set when the hook exited while something it started still
	// held its stdout or stderr open, past the wait its own agent allows
	// (mappings.HeldOutput): the output is what arrived until then.
	Held       bool
	FailReason string // why, when Failed or TimedOut
}

// ResultContext says where a hook result is going.
type ResultContext struct {
	HookEvent   string // the event name in the hook's dialect
	HostEvent   string // the host's event name
	HostPayload []byte // the host's original stdin, for rebuilding tool input
	// HookTool is the tool_name the hook was given (EventResult.Tool): the
	// tool whose arguments a rewrite is in. "": the primary counterpart.
	HookTool   string
	FailClosed bool // every failure of the hook is a block
	// Ask is how an ask or defer renders on a host whose ask cannot be
	// answered headless: "deny" (the default) or "ask".
	Ask string
}

// Verdict is a hook's answer read with its own dialect's rules, before it is
// rendered for the host.
type Verdict struct {
	Block         bool
	Reason        string
	Ask           bool
	Defer         bool
	AskReason     string
	Allow         bool
	Context       []string
	SystemMessage string
	Stop          bool
	StopReason    string
	NewInput      map[string]any  // in the hook dialect's argument names
	NewOutput     json.RawMessage // a replacement tool result (Claude updatedToolOutput)
	NewPrompt     *string         // a replacement prompt (Droid's updatedInput.prompt)
	// Model holds the model hook fields the hook's agent acts on
	// (mappings.Output.ModelFields), as the hook wrote them.
	Model map[string]json.RawMessage
	// Failure is set when the hook failed in a way its own agent ignores
	// (fail open); it is reported and, with FailClosed, becomes a block.
	Failure string
}

// Result translates a hook's output written for tr.From (the hook's dialect)
// into what the host, tr.To, must receive: always exit 0, with one JSON
// object for a Gemini host and a {-first object or nothing for a Claude host.
// Findings list everything that was not carried exactly; none of them change
// the decision.
func (tr *Translator) Result(ctx ResultContext, out Output) (Output, []Finding) {
	var fs findings
	hookEv := tr.From.Event(ctx.HookEvent)
	hostEv := tr.To.Event(ctx.HostEvent)
	if hookEv == nil || hostEv == nil {
		err := fmt.Errorf("unknown event %q/%q", ctx.HookEvent, ctx.HostEvent)
		return FailureOutput(tr.To, ctx.HostEvent, err), []Finding{{What: "event", Mark: mappings.None, Why: err.Error()}}
	}
	if in, err := inbound(tr.To, ctx.HostPayload, ctx.HostEvent); err == nil {
		ctx.HostPayload = in
	}
	v := readOutput(tr.From, hookEv, out, &fs)
	if v.Failure != "" {
		// Fail closed only where a block guards something: on Stop a block
		// means "keep going" (Claude ignores onFailure there, CC§2.2).
		guard := hookEv.Output.Block == "deny" || hookEv.Output.Block == "feedback" || hookEv.Output.Block == "hide_output"
		if ctx.FailClosed && guard && !v.Block {
			v = Verdict{Block: true, Reason: "hook failed (fail-closed): " + v.Failure}
		} else if !v.Block {
			fs.add(mappings.Approximate, "hook failure", "%s; %s fails open, so nothing is blocked", v.Failure, tr.From.Agent)
		}
	}
	if v.NewPrompt != nil && !v.Block {
		// No host takes a rewritten prompt: the prompt as typed would
		// reach the model, which the hook did not let through.
		if orig := parseFields(ctx.HostPayload).str("prompt"); ctx.HostPayload == nil || *v.NewPrompt != orig {
			v.Block, v.Reason = true, fmt.Sprintf("hookx cannot carry this hook's prompt rewrite (%s replaces the prompt with hookSpecificOutput.updatedInput.prompt); the prompt is refused rather than sent unrewritten", tr.From.Agent)
			fs.add(mappings.None, "updatedInput.prompt", "%s cannot replace the prompt; refused rather than sent unrewritten", tr.To.Agent)
		}
	}
	return tr.render(ctx, hookEv, hostEv, v, &fs), fs
}

// readOutput reads a hook's output with the rules of its own dialect.
func readOutput(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	if out.TimedOut {
		return Verdict{Failure: cmp.Or(out.FailReason, "timed out")}
	}
	if out.Overflow {
		return overflowVerdict(d, ev, out, fs)
	}
	if out.Failed {
		return Verdict{Failure: cmp.Or(out.FailReason, "failed")}
	}
	if out.Held && d.HeldOutput.Refuse {
		if why := heldRefusal(d, ev, out); why != "" {
			if ev.Output.HeldBlocks {
				return Verdict{Block: true, Reason: why}
			}
			return Verdict{Failure: why}
		}
	}
	switch d.Protocol {
	case "gemini":
		return readGemini(d, ev, out, fs)
	case "copilot":
		return readCopilot(ev, out, fs)
	}
	if d.StderrAsOutput && trimJS(out.Stdout) == "" && out.ExitCode != 2 {
		// The agent reads stderr as the output when stdout is empty.
		out.Stdout, out.Stderr = out.Stderr, nil
	}
	return readClaude(ev, out, fs)
}

// overflowVerdict reads a result whose output was over hookx's bound, so
// cannot be read whole. Where the hook's own agent would block whatever the
// output says (Claude's exit 2; a Gemini exit status of 2 or more, which
// blocks unless JSON on stdout says otherwise; TerminaI's exit 2 with its
// stderr, which is not empty when it overflowed), it blocks, as it does on
// an event where a failure blocks (BlocksOnFailure). Elsewhere it is a
// failure that fails open. Copilot CLI reads no stderr: with its stdout
// whole, a Copilot hook is read exactly.
func overflowVerdict(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	why := cmp.Or(out.FailReason, "hook output over hookx's bound")
	exit := out.ExitCode
	effect := ev.Output.ExitEffect(exit)
	blockingExit := exit == 2 || effect == "block" || effect == "stop"
	switch d.Protocol {
	case "gemini":
		blockingExit = exit != 0 && d.Reading.Blocks(exit)
	case "copilot":
		// Every non-zero exit denies a tool call; elsewhere no exit blocks
		// by itself (exit 2 reads stdout, which is lost here).
		blockingExit = exit != 0 && ev.Output.Ask
	}
	if out.Signaled {
		blockingExit = false
	}
	byExit := d.Protocol == "gemini" && d.Reading.ByExit()
	switch {
	case d.Protocol == "copilot" && out.Stdout != nil:
		// Copilot reads stdout and the exit code only, never stderr: with
		// stdout whole the reading is exact, at every exit.
		fs.add(mappings.None, "stderr", "%s; Copilot CLI does not read it", why)
		return readCopilot(ev, Output{Stdout: out.Stdout, ExitCode: exit, Signaled: out.Signaled, FailReason: out.FailReason}, fs)
	case ev.Output.Block == "none" || ev.Output.Block == "":
		return Verdict{Failure: why}
	case byExit && (exit == 0 && !out.Signaled && out.Stdout != nil || (exit != 0 || out.Signaled) && out.Stderr != nil):
		// The one stream the exit code says is read is whole.
		return readGemini(d, ev, out, fs)
	case byExit && blockingExit:
		fs.add(mappings.Approximate, "output bound", "%s; exit %d with text on stderr is a block in %s: blocked", why, exit, d.Agent)
		return Verdict{Block: true, Reason: fmt.Sprintf("%s; it exited %d with text on stderr, a block in %s, so hookx blocks", why, exit, d.Agent)}
	case byExit && (exit != 0 || out.Signaled):
		return Verdict{Failure: why} // a warning in its own agent, whatever the text
	case d.Protocol == "gemini" && !byExit && out.Stdout != nil && trimJS(out.Stdout) != "":
		// Gemini reads stdout, which is whole, and only falls back to stderr.
		return readGemini(d, ev, Output{Stdout: out.Stdout, ExitCode: exit}, fs)
	case d.Protocol == "claude" && out.Stdout != nil && !blockingExit && !(d.StderrAsOutput && trimJS(out.Stdout) == ""):
		// Stdout, whole, decides; stderr would only be shown (an agent
		// that reads stderr as the output when stdout is empty would have
		// read the stderr that is lost: that falls through).
		fs.add(mappings.Approximate, "stderr", "%s; not shown", why)
		return readClaude(ev, Output{Stdout: out.Stdout, ExitCode: exit}, fs)
	case blockingExit && d.Protocol == "claude" && out.Stderr != nil:
		// Exit 2 decides whatever stdout says; stderr, the reason, is whole.
		return readClaude(ev, Output{Stderr: out.Stderr, ExitCode: exit}, fs)
	case blockingExit && effect == "stop":
		fs.add(mappings.Approximate, "output bound", "%s; exit %d stops the agent in %s: stopped", why, exit, d.Agent)
		reason := fmt.Sprintf("%s; it exited %d, which stops the agent in %s, so hookx stops it", why, exit, d.Agent)
		return Verdict{Stop: true, StopReason: reason, Block: ev.Output.Block == "deny", Reason: reason}
	case blockingExit:
		fs.add(mappings.Approximate, "output bound", "%s; exit %d is a block in %s: blocked", why, exit, d.Agent)
		return Verdict{Block: true, Reason: fmt.Sprintf("%s; it exited %d, a block in %s, so hookx blocks", why, exit, d.Agent)}
	case ev.Output.BlocksOnFailure():
		fs.add(mappings.Approximate, "output bound", "%s; the verdict cannot be read on %s, which fails closed: blocked", why, ev.Name)
		return Verdict{Block: true, Reason: fmt.Sprintf("%s; its verdict cannot be read, so hookx blocks (%s %s fails closed)", why, d.Agent, ev.Name)}
	}
	return Verdict{Failure: why}
}

// heldRefusal is why an agent with HeldOutput.Refuse (Claude Code) refuses
// a capture whose stdio was still open when it stopped waiting, or "": it
// refuses an unfinished JSON object and a document that grants, rewrites
// or injects; exit 2 always stands.
func heldRefusal(d *mappings.Dialect, ev *mappings.Event, out Output) string {
	if out.ExitCode == 2 && !out.Signaled {
		return ""
	}
	text := trimJS(out.Stdout)
	obj, isJSON := singleObject(text)
	switch {
	case isJSON && heldHarmless(d, ev, parseFields(obj), out.ExitCode):
		return ""
	case isJSON:
		return "hook output parsed as a document that grants, rewrites or injects, but its stdio went quiet before end-of-stream and a dropped later document could have changed it; refusing to honor the suspect capture"
	case strings.HasPrefix(text, "{"):
		return "hook output opens a JSON payload that never completed before its stdio went quiet; refusing to read the partial capture as a verdict"
	}
	return ""
}

var (
	heldTopKeys  = keySet("continue", "suppressOutput", "stopReason", "decision", "systemMessage", "terminalSequence", "reason", "metrics", "rewakeSummary", "hookSpecificOutput")
	heldHookKeys = keySet("hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext", "decision", "action", "content", "suppressOriginalPrompt", "retry")
)

// heldHarmless reports whether Claude Code reads a held capture anyway: the
// document neither grants, nor rewrites, nor injects (2.1.330 binary).
func heldHarmless(d *mappings.Dialect, ev *mappings.Event, o fields, exit int) bool {
	if _, ok := o["async"]; ok {
		return true
	}
	switch o.str("decision") {
	case "approve":
		return false
	case "block":
		if slices.Contains(d.HeldOutput.BlockNotHarmless, ev.Name) {
			return false
		}
	}
	if len(o.unknown(heldTopKeys)) > 0 {
		return false
	}
	if _, ok := o["hookSpecificOutput"]; !ok {
		return true
	}
	hs := o.object("hookSpecificOutput")
	if hs == nil {
		// Claude's check throws on null or a scalar (the in operator) and
		// counts an array's indexes as unknown keys: not read as harmless.
		return false
	}
	if pd := hs.str("permissionDecision"); pd == "allow" || pd == "defer" {
		return false
	}
	if hs.object("decision").str("behavior") == "allow" || hs.str("action") == "accept" || hs.isTrue("retry") {
		return false
	}
	if _, ok := hs["additionalContext"]; ok && !(exit == 0 && slices.Contains(d.HeldOutput.ContextHarmlessAtExit0, ev.Name)) {
		return false
	}
	return len(hs.unknown(heldHookKeys)) == 0
}

// fields is a JSON object read the way both agents read hook output:
// JSON.parse, exact keys, the last duplicate wins, and a field of the wrong
// type is skipped rather than voiding the rest.
type fields map[string]json.RawMessage

func parseFields(obj []byte) fields { return jsFields(string(obj)) }

// str returns a string field; a number or boolean gives its JSON text, as
// JavaScript would print it.
func (f fields) str(key string) string {
	raw := f[key]
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		s, _ := jsString(string(raw))
		return s
	}
	switch raw[0] {
	case '"', '{', '[', 'n':
		return ""
	}
	return string(raw)
}

// isFalse reports whether a field is the boolean false.
func (f fields) isFalse(key string) bool { return string(f[key]) == "false" }

func (f fields) isTrue(key string) bool { return string(f[key]) == "true" }

func (f fields) object(key string) fields {
	raw := f[key]
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	return parseFields(raw)
}

// inputObject returns an object field as Go values. An object JSON.parse
// read that Go cannot hold (nested past encoding/json's 10,000 levels, a
// number out of float64 range) is an error: the hook's agent would have used
// it.
func (f fields) inputObject(key string) (map[string]any, error) {
	raw := f[key]
	if len(raw) == 0 || raw[0] != '{' {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s cannot be carried: %w", key, err)
	}
	return m, nil
}

func (f fields) unknown(known map[string]bool) []string {
	var out []string
	for k := range f {
		if !known[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

var claudeKnownKeys = keySet("continue", "stopReason", "systemMessage", "decision", "reason", "suppressOutput", "hookSpecificOutput", "terminalSequence", "async", "asyncTimeout")

// readClaude applies Claude Code's rules (CC§2, T§9.2).
func readClaude(ev *mappings.Event, out Output, fs *findings) Verdict {
	var v Verdict
	text := trimJS(out.Stdout)
	stderr := trimJS(out.Stderr)
	obj, isJSON := singleObject(text)
	if isJSON {
		v = claudeVerdict(ev, parseFields(obj), fs)
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
		v.Block, v.Allow = true, false
		if v.Reason == "" {
			v.Reason = cmp.Or(stderr, "No stderr output")
		}
	case ev.Output.ExitEffect(exit) == "block":
		// An exit code of the agent's own that blocks whatever the JSON
		// says (Factory Droid's exit 3 on UserPromptSubmit).
		v.Block, v.Allow, v.Ask, v.Defer = true, false, false, false
		v.Reason = cmp.Or(stderr, v.Reason, fmt.Sprintf("Blocked by %s hook (exit %d)", ev.Name, exit))
	case ev.Output.ExitEffect(exit) == "stop":
		// An exit code that stops the agent whatever the JSON says
		// (Factory Droid's exit 3 on PreToolUse: AgentAbortError); where
		// a block denies, the action does not run either.
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

func claudeVerdict(ev *mappings.Event, o fields, fs *findings) Verdict {
	var v Verdict
	for _, k := range o.unknown(claudeKnownKeys) {
		fs.add(mappings.None, "output key "+k, "not part of Claude Code's output; ignored as Claude Code would")
	}
	reason := o.str("reason")
	if d := o.str("decision"); d != "" && ev.Output.DecisionIgnored {
		fs.add(mappings.None, fmt.Sprintf("decision %q", d), "not read on %s by the hook's own agent; it blocks nothing", ev.Name)
		o = maps.Clone(o)
		delete(o, "decision")
	}
	switch d := o.str("decision"); d {
	case "":
	case "block":
		v.Block, v.Reason = true, cmp.Or(reason, "Blocked by hook")
	case "approve":
		v.Allow = true
	case "deny":
		// Claude rejects this value and the action proceeds; the intent is
		// plainly a deny, and reading it as one grants less (T§1 Invariant 2).
		v.Block, v.Reason = true, cmp.Or(reason, "Blocked by hook")
		fs.add(mappings.Approximate, `decision "deny"`, "invalid in Claude Code (only approve or block); read as a block, the stricter reading")
	case "ask":
		v.Ask, v.AskReason = true, reason
		fs.add(mappings.Approximate, `decision "ask"`, "invalid in Claude Code; read as ask, the stricter reading")
	default:
		fs.add(mappings.None, fmt.Sprintf("decision %q", d), "invalid in Claude Code; ignored")
	}
	if o.isFalse("continue") {
		if !ev.Output.Stop && (ev.Output.Block == "deny" || ev.Output.StopReplacesOutput || ev.Output.StopBlocks) {
			// The agent cannot stop here; it refuses the action with the
			// stop reason (Qwen Code's PreToolUse), replaces the tool's
			// output with it (Codex's PostToolUse), or goes on with it as
			// the next prompt (Qwen Code's Stop): its block.
			v.Block, v.Reason = true, cmp.Or(o.str("stopReason"), reason, "Stopped by hook")
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
		}
		return v
	}
	if dec := hs.object("decision"); ev.Output.BehaviorDecision && dec != nil {
		switch b := dec.str("behavior"); b {
		case "allow":
			v.Allow = true
		case "deny":
			v.Block, v.Reason = true, cmp.Or(dec.str("message"), "Blocked by hook")
		default:
			// Qwen Code denies on any decision object that does not
			// allow (firePermissionRequestHook, chunk-DPEB6S2R.js:
			// 40111-40123); Claude Code and Codex refuse such an answer
			// and their dialog goes on. A deny grants less.
			v.Block, v.Reason = true, cmp.Or(dec.str("message"), "Blocked by hook")
			fs.add(mappings.Approximate, fmt.Sprintf("decision.behavior %q", b), "not allow: read as a deny, as Qwen Code reads it (the stricter reading)")
		}
	}
	switch pd {
	case "":
	case "deny":
		v.Block, v.Reason = true, cmp.Or(pdReason, "Blocked by hook")
	case "ask":
		v.Ask, v.AskReason = true, pdReason
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

var geminiKnownKeys = keySet("decision", "reason", "continue", "stopReason", "systemMessage", "suppressOutput", "hookSpecificOutput")

// readGemini applies Gemini CLI's rules (GC§2, T§9.2), and those of the
// forks that read the exit code first (d.Reading).
func readGemini(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	if d.Reading.ByExit() && (out.ExitCode != 0 || out.Signaled) {
		return readNonZeroByExit(d, ev, out, fs)
	}
	var v Verdict
	exit := out.ExitCode
	if d.Reading.ByExit() {
		// Exit 0: stdout alone is read; stderr is not even a fallback.
		if stderr := trimJS(out.Stderr); stderr != "" {
			fs.add(mappings.None, "stderr", "%s reads no stderr at exit 0; not passed on", d.Agent)
		}
		out.Stderr = nil
	}
	if out.Signaled {
		// The exit code is null and read as 0; the output still decides.
		exit = 0
		v.Failure = cmp.Or(out.FailReason, "killed by a signal")
	}
	text := trimJS(out.Stdout)
	if text == "" {
		text = trimJS(out.Stderr)
	}
	if text == "" {
		if exit == 126 || exit == 127 {
			v.Failure = fmt.Sprintf("exited %d without output", exit)
		}
		return v // no output at all: nothing blocks, whatever the exit code
	}
	obj, ok := geminiObject(text)
	if ok && obj == nil {
		return v // JSON but no object: Gemini CLI reads no output
	}
	if !ok {
		switch {
		case exit == 0:
			v.SystemMessage = text
		case d.Reading.Blocks(exit):
			v.Block, v.Reason = true, text
		default:
			v.SystemMessage = "Warning: " + text
		}
		return v
	}
	o := parseFields(obj)
	for _, k := range o.unknown(geminiKnownKeys) {
		fs.add(mappings.None, "output key "+k, "not part of %s's output; ignored as %s would", d.Agent, d.Agent)
	}
	reason := o.str("reason")
	switch dec := o.str("decision"); dec {
	case "", "allow", "approve":
		// Gemini's allow never skips confirmation: it grants nothing.
	case "deny", "block":
		v.Block, v.Reason = true, cmp.Or(reason, "Blocked by hook")
	case "ask":
		if ev.Output.Ask {
			v.Ask, v.AskReason = true, cmp.Or(o.str("systemMessage"), reason)
		} else if ev.Output.Guard {
			fs.add(mappings.None, `decision "ask"`, "%s does not ask on %s: it goes ahead, and so does hookx", d.Agent, ev.Name)
		}
	default:
		fs.add(mappings.None, fmt.Sprintf("decision %q", dec), "unknown to %s; ignored", d.Agent)
	}
	if v.Block || v.Ask {
		v.Failure = "" // the hook decided; a signal after it does not matter
	}
	if o.isFalse("continue") {
		if !ev.Output.Stop && ev.Output.Block == "deny" {
			// The agent cannot stop here and skips the action instead
			// (TerminaI's BeforeModel, geminiChatHookTriggers.ts:99-112).
			v.Block, v.Reason = true, cmp.Or(o.str("stopReason"), reason, "No reason provided")
		} else {
			v.Stop, v.StopReason = true, cmp.Or(o.str("stopReason"), reason, "No reason provided")
		}
	}
	v.SystemMessage = o.str("systemMessage")
	if v.Ask && v.AskReason == v.SystemMessage {
		v.SystemMessage = "" // Gemini shows it in the confirmation dialog
	}
	hs := o.object("hookSpecificOutput")
	if hs == nil {
		return v
	}
	if c := hs.str("additionalContext"); c != "" && ev.Output.Context != "none" {
		v.Context = append(v.Context, c)
	}
	if ev.Output.RewriteInput {
		if in, err := hs.inputObject("tool_input"); err != nil {
			unreadableRewrite(&v, err, fs)
		} else if in != nil {
			v.NewInput = in
		}
	} else if hs["tool_input"] != nil && ev.Output.Guard {
		fs.add(mappings.None, "tool_input", "%s does not rewrite tool input on %s: the original input runs, as it would there", d.Agent, ev.Name)
	}
	if hs.isTrue("clearContext") {
		fs.add(mappings.None, "clearContext", "the host cannot clear the conversation from a hook")
	}
	if hs["tailToolCallRequest"] != nil {
		fs.add(mappings.None, "tailToolCallRequest", "the host cannot run another tool in place of this one")
	}
	for _, name := range []string{"llm_request", "llm_response", "toolConfig"} {
		switch raw := hs[name]; {
		case raw == nil:
		case slices.Contains(ev.Output.ModelFields, name):
			if v.Model == nil {
				v.Model = map[string]json.RawMessage{}
			}
			v.Model[name] = raw
		default:
			fs.add(mappings.None, name, "%s does not act on it on %s; ignored as it would", d.Agent, ev.Name)
		}
	}
	return v
}

// readNonZeroByExit reads a result with a non-zero exit (or a signal, which
// such an agent reads as exit 1) by the rules of an agent that reads the
// exit code first (TerminaI, hookRunner.ts:300-323, 374-396): stdout is
// ignored, stderr is plain text, never JSON; it is a block at a blocking
// exit and a warning at any other.
func readNonZeroByExit(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	var v Verdict
	exit := out.ExitCode
	if out.Signaled {
		exit = 1 // no exit code: `exitCode || 1`
		v.Failure = cmp.Or(out.FailReason, "killed by a signal")
	}
	text := trimJS(out.Stderr)
	if stdout := trimJS(out.Stdout); stdout != "" {
		what := "its stdout"
		if obj, ok := geminiObject(stdout); ok && obj != nil && parseFields(obj).str("decision") != "" {
			what = fmt.Sprintf("its decision %q on stdout", parseFields(obj).str("decision"))
		}
		fs.add(mappings.None, "stdout", "exited %d: %s reads stdout only at exit 0, so %s counts for nothing, and hookx does the same", exit, d.Agent, what)
	}
	switch {
	case text == "":
		if exit == 126 || exit == 127 {
			v.Failure = fmt.Sprintf("exited %d without output", exit)
		}
	case !out.Signaled && d.Reading.Blocks(exit):
		v.Block, v.Reason = true, text
	default:
		v.SystemMessage = "Warning: " + text
		if exit == 126 || exit == 127 {
			first, _, _ := strings.Cut(text, "\n")
			v.Failure = fmt.Sprintf("exited %d: %s", exit, first)
		}
	}
	if v.Block {
		v.Failure = ""
	}
	return v
}

// render writes the verdict in the host's dialect.
func (tr *Translator) render(ctx ResultContext, hookEv, hostEv *mappings.Event, v Verdict, fs *findings) Output {
	ho, out := hookEv.Output, hostEv.Output
	var r rendered

	// Ask and defer: the host's ask, or a deny (never an allow).
	if (v.Ask || v.Defer) && !v.Block {
		reason := v.AskReason
		what := "ask"
		if v.Defer {
			what = "defer"
			reason = cmp.Or(reason, "The hook deferred this decision")
		}
		reason = cmp.Or(reason, "The hook asked for confirmation")
		switch {
		case !out.Ask && out.Block == "deny":
			// The host would run the action unasked: a deny never grants
			// more than the hook did.
			v.Block, v.Reason = true, reason
			fs.add(mappings.Approximate, what, "rendered as a deny: %s cannot ask on %s", tr.To.Agent, hostEv.Name)
		case !out.Ask:
			fs.add(mappings.None, what, "%s cannot ask on %s", tr.To.Agent, hostEv.Name)
		case out.AskHangs && ctx.Ask != "ask":
			// Gemini's ask hangs a headless run for ever (T§15 S3); Claude
			// itself denies an ask in -p. A deny never grants more.
			v.Block, v.Reason = true, reason
			fs.add(mappings.Approximate, what, "rendered as a deny: %s's ask never returns in a headless run (use --ask ask for interactive use)", tr.To.Agent)
		default:
			r.ask, r.askReason = true, reason
			if v.Defer {
				fs.add(mappings.Approximate, "defer", "rendered as ask, the conservative choice")
			}
		}
	}

	if v.Allow && !v.Block {
		if out.Allow == "skips_prompt" {
			// Never grant more than the hook did (T§1 Invariant 2).
		} else if ho.Allow == "skips_prompt" {
			fs.add(mappings.Approximate, "allow", "%s has no auto-approval; the normal confirmation still applies", tr.To.Agent)
		}
	}

	if v.Block {
		tr.renderBlock(ho, out, hostEv, v, &r, fs)
	}

	for _, c := range v.Context {
		switch {
		case ho.Context == "continue" && out.Context != "continue" && out.Block == "continue":
			// Claude's Stop additionalContext keeps the turn going: the
			// host's way to do that is a block with the text as the reason.
			if !r.block {
				r.block, r.reason = true, c
			} else {
				r.reason += "\n\n" + c
			}
		case out.Context == "model" || out.Context == "continue":
			r.context = append(r.context, c)
		default:
			fs.add(mappings.None, "additionalContext", "%s ignores it on %s", tr.To.Agent, hostEv.Name)
		}
	}

	if v.SystemMessage != "" {
		if out.SystemMessage == "discarded" {
			fs.add(mappings.None, "systemMessage", "%s discards it on %s", tr.To.Agent, hostEv.Name)
		} else {
			r.systemMessage = v.SystemMessage
		}
	}

	if v.Stop {
		if out.Stop {
			r.stop, r.stopReason = true, v.StopReason
			toolGuard := ho.Block == "deny" && hookEv.Matcher == "tool"
			if (ho.StopFailsAction || toolGuard) && !out.StopFailsAction && out.Block == "deny" && !r.block {
				// A deny beside the stop keeps the tool from running on
				// every host, whichever of the two it reads first (issue
				// 23, item 8). Claude Code itself runs the tool and then
				// stops (live, conformance stop-guard/claude-continue-false):
				// this grants less, never more. A prompt keeps its stop
				// alone: a block would erase a prompt that a stop keeps.
				r.block, r.reason = true, cmp.Or(v.StopReason, "Stopped by hook")
			}
		} else if out.Block == "deny" && ho.Block == "deny" {
			// The hook's agent would stop, so the action would not run:
			// the host's nearest answer that grants no more is a deny.
			if !r.block {
				r.block, r.reason = true, cmp.Or(v.StopReason, "Stopped by hook")
			}
			fs.add(mappings.Approximate, "continue:false", "%s cannot stop the agent from %s; rendered as a deny", tr.To.Agent, hostEv.Name)
		} else if out.StopReplacesOutput {
			// The hook's agent stops, so the model never sees the tool's
			// result: the host's continue:false at least replaces it.
			r.stop, r.stopReason = true, v.StopReason
			fs.add(mappings.Approximate, "continue:false", "%s cannot stop the agent from %s; its continue:false replaces the tool's output, and the turn goes on", tr.To.Agent, hostEv.Name)
		} else if out.Block == "hide_output" {
			if !r.block {
				r.block, r.reason = true, cmp.Or(v.StopReason, "Stopped by hook")
			}
			fs.add(mappings.Approximate, "continue:false", "%s cannot stop the agent from %s; rendered as a block that hides the tool's output", tr.To.Agent, hostEv.Name)
		} else {
			fs.add(mappings.None, "continue:false", "%s cannot stop the agent from %s", tr.To.Agent, hostEv.Name)
		}
	}

	if v.NewInput != nil {
		switch {
		case r.block:
			// A deny wins; the rewrite does not matter.
		case !out.RewriteInput && out.Block == "deny" && hostEv.Output.Guard:
			// The host would run the original input, which the hook did
			// not approve: block instead.
			r.block, r.reason = true, fmt.Sprintf("%s cannot rewrite tool input on %s, and this hook allowed the call only rewritten", tr.To.Agent, hostEv.Name)
			fs.add(mappings.None, "input rewrite", "%s cannot rewrite tool input on %s; blocked rather than running the original input", tr.To.Agent, hostEv.Name)
		case !out.RewriteInput:
			fs.add(mappings.None, "input rewrite", "%s cannot rewrite tool input on %s", tr.To.Agent, hostEv.Name)
		default:
			if in, err := tr.rebuildInput(ctx.HostPayload, ctx.HookTool, v.NewInput, fs); err != nil {
				if out.Block == "deny" {
					// The host would run the original input, which the
					// hook did not approve: block instead.
					r.block, r.reason = true, "hookx cannot carry this hook's tool input rewrite: "+err.Error()
					fs.add(mappings.None, "input rewrite", "%v; blocked rather than running the original input", err)
				} else {
					fs.add(mappings.None, "input rewrite", "%v", err)
				}
			} else {
				r.newInput = in
				switch {
				case out.RewriteAnnounced && !ho.RewriteAnnounced:
					fs.add(mappings.Approximate, "input rewrite", "%s tells the model that a hook modified the tool input (a [System] note after the tool's result); %s would not", tr.To.Agent, tr.From.Agent)
				case ho.RewriteAnnounced && !out.RewriteAnnounced:
					fs.add(mappings.Approximate, "input rewrite", "%s does not tell the model that a hook modified the tool input; %s would (a [System] note after the tool's result)", tr.To.Agent, tr.From.Agent)
				}
			}
		}
	}

	r.newOutput = v.NewOutput
	for _, name := range slices.Sorted(maps.Keys(v.Model)) {
		if tr.To.Protocol == "gemini" && slices.Contains(out.ModelFields, name) {
			if r.model == nil {
				r.model = map[string]json.RawMessage{}
			}
			r.model[name] = v.Model[name]
			continue
		}
		fs.add(mappings.None, name, "%s does not act on it on %s; not carried", tr.To.Agent, hostEv.Name)
	}

	switch tr.To.Protocol {
	case "gemini":
		r.newOutputLost(tr.To, fs)
		return Output{Stdout: r.gemini()}
	case "copilot":
		copilotRenderFindings(hostEv, r, fs)
		return Output{Stdout: r.copilot(hostEv)}
	}
	r.newOutputLost(tr.To, fs)
	return r.claudeOutput(hostEv, tr.toolResultReplacement(ctx, r, fs), func(dropped []string) {
		for _, k := range dropped {
			fs.add(mappings.None, k, "%s fails a hook that answers with it on %s; left out", tr.To.Agent, hostEv.Name)
		}
	})
}

// renderBlock carries a block across, by what a block does on each side.
func (tr *Translator) renderBlock(ho, out mappings.Output, hostEv *mappings.Event, v Verdict, r *rendered, fs *findings) {
	switch {
	case ho.Block == "none" || ho.Block == "":
		// The hook's own agent ignores a block here: so do we.
	case ho.Block == out.Block:
		r.block, r.reason = true, v.Reason
		switch {
		case ho.BlockCap > 0 && out.BlockCap == 0:
			fs.add(mappings.Approximate, "block", "%s has no cap on consecutive %s blocks; hookx wrap enforces %s's cap of %d%s", tr.To.Agent, hostEv.Name, tr.From.Agent, ho.BlockCap, mappings.CapScope(ho.BlockCapResetByTools))
		case out.BlockCap > 0 && (ho.BlockCap != out.BlockCap || ho.BlockCapResetByTools != out.BlockCapResetByTools):
			fs.add(mappings.Approximate, "block", "%s, and the hook is not told", mappings.StopCapText(tr.To.Agent, hostEv.Name, out.BlockCap, out.BlockCapResetByTools))
		}
	case ho.Block == "feedback" && out.Block == "hide_output":
		// Claude's PostToolUse block keeps the output visible; a Gemini deny
		// would hide it. Send the reason as context instead (T§9.3).
		r.context = append(r.context, v.Reason)
		fs.add(mappings.Approximate, "block", "sent as additional context: a deny on %s would hide the tool's output", hostEv.Name)
	case ho.Block == "hide_output" && out.Block == "feedback":
		r.block, r.reason = true, "Tool result blocked: "+v.Reason
		if out.ReplaceOutput {
			r.replaceOutput = true
		} else {
			fs.add(mappings.None, "block", "%s cannot hide the tool's output on %s; the reason is sent, the output stays visible", tr.To.Agent, hostEv.Name)
		}
	case ho.Block == "hide_output" && out.StopReplacesOutput:
		// The host ignores a block here, but continue:false replaces the
		// tool's result: the output stays hidden from the model.
		r.stop, r.stopReason = true, v.Reason
		fs.add(mappings.Approximate, "block", "%s ignores a block on %s: sent as continue:false, which replaces the tool's output with the reason and may also end the turn", tr.To.Agent, hostEv.Name)
	case ho.Block == "feedback" && (out.Block == "none" || out.Block == "") && out.Context == "model":
		// The reason reaches the model beside the output, as the hook's
		// agent would send it.
		r.context = append(r.context, v.Reason)
		fs.add(mappings.Approximate, "block", "%s ignores a block on %s: the reason is sent as additional context", tr.To.Agent, hostEv.Name)
	case out.Block == "none" || out.Block == "":
		r.systemMessage = joinText(r.systemMessage, v.Reason)
		fs.add(mappings.None, "block", "%s cannot block on %s; the reason is shown as a message only", tr.To.Agent, hostEv.Name)
	default:
		r.block, r.reason = true, v.Reason
		fs.add(mappings.Approximate, "block", "a block means %q for the hook and %q on %s", ho.Block, out.Block, hostEv.Name)
	}
}

// rendered is a verdict in the host's terms.
type rendered struct {
	block         bool
	reason        string
	ask           bool
	askReason     string
	context       []string
	systemMessage string
	stop          bool
	stopReason    string
	newInput      map[string]any
	replaceOutput bool
	newOutput     json.RawMessage // the hook's replacement tool result
	// model holds the model hook fields the host acts on, passed on as
	// the hook wrote them (Gemini CLI's hook LLM format on both sides).
	model map[string]json.RawMessage
}

// newOutputLost reports the hook's replacement of a tool's result, which the
// Claude and Gemini families' renderers do not carry.
func (r rendered) newOutputLost(host *mappings.Dialect, fs *findings) {
	if r.newOutput != nil && !r.replaceOutput {
		fs.add(mappings.None, "updatedToolOutput", "%s cannot replace a tool's output; the original output stays", host.Agent)
	}
}

func (r rendered) gemini() []byte {
	o := newObject()
	if r.block {
		o.set("decision", "deny")
		o.set("reason", cmp.Or(r.reason, "Blocked by hook"))
	} else if r.ask {
		o.set("decision", "ask")
		o.set("systemMessage", joinText(r.askReason, r.systemMessage))
		r.systemMessage = ""
	}
	if r.stop {
		o.set("continue", false)
		o.set("stopReason", cmp.Or(r.stopReason, "Stopped by hook"))
	}
	if r.systemMessage != "" {
		o.set("systemMessage", r.systemMessage)
	}
	hs := newObject()
	if len(r.context) > 0 {
		hs.set("additionalContext", strings.Join(r.context, "\n"))
	}
	if r.newInput != nil && !r.block {
		hs.set("tool_input", r.newInput)
	}
	for _, name := range slices.Sorted(maps.Keys(r.model)) {
		hs.set(name, r.model[name])
	}
	if hs.len() > 0 {
		o.set("hookSpecificOutput", hs)
	}
	return o.bytes()
}

// claudeOutput is the Claude-family answer: the JSON of claudeObject (the
// keys the host does not accept are passed to dropped), and where the
// event's agent reads no top-level decision and the block cannot be a
// permissionDecision, exit 2 with the reason on stderr.
func (r rendered) claudeOutput(ev *mappings.Event, repl *replacement, dropped func([]string)) Output {
	var out Output
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

// nonBlank returns s, or def when s is empty or only white space.
func nonBlank(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
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

// rebuildInput builds the host's complete tool input from a hook's rewrite
// (T§6.1): start from the host's original input, take every field the hook's
// dialect has a counterpart for from the rewrite, keep host-only fields.
func (tr *Translator) rebuildInput(hostPayload []byte, hookToolName string, hookInput map[string]any, fs *findings) (map[string]any, error) {
	p, err := readHostCall(hostPayload)
	if err != nil || p.ToolName == "" {
		return nil, fmt.Errorf("the host's payload has no tool to rewrite")
	}
	hostTool := tr.To.Tool(p.ToolName)
	if hostTool == nil {
		if _, _, ok := tr.To.SplitMCP(p.ToolName, nil); ok {
			return hookInput, nil // MCP arguments are the server's own
		}
		return nil, fmt.Errorf("unknown %s tool %q", tr.To.Agent, p.ToolName)
	}
	if hostTool.Canonical == "" {
		return nil, fmt.Errorf("%s has no counterpart in %s", p.ToolName, tr.From.Agent)
	}
	hookTool, reason := tr.From.ToolFor(hostTool.Canonical)
	if t := tr.From.Tool(hookToolName); t != nil && t.Canonical == hostTool.Canonical {
		hookTool = t // the tool the hook was shown (LS, MultiEdit)
	}
	if hookTool == nil {
		return nil, fmt.Errorf("%s has no counterpart in %s: %s", p.ToolName, tr.From.Agent, reason)
	}
	// What the hook was shown, to tell an argument it changed from one it
	// only echoed back.
	shown := convertInput(p.ToolInput, hostTool, hookTool, forHost, &findings{})
	if tr.To.AbsolutePaths && len(hookTool.Paths) > 0 {
		// The hook wrote its paths for its own agent, which resolves
		// relative ones; the host takes them as they are.
		hookInput = maps.Clone(hookInput)
		for _, u := range resolvePaths(hookInput, hookTool, mappings.PathContext{Cwd: p.Cwd, Exists: tr.exists}, fs) {
			fs.add(mappings.Approximate, "input rewrite", "%s; the likeliest path is used", u)
		}
	}
	if why := lineBreakArg(hookInput, hookTool, hostTool); why != "" {
		// Written into one line of the host's call (a patch's header),
		// the rest would be other lines: operations the hook never gave.
		return nil, fmt.Errorf("the rewrite %s, which %s's %s writes in one line of its text", why, tr.To.Agent, p.ToolName)
	}
	converted := convertInput(hookInput, hookTool, hostTool, forHost, fs)
	out := make(map[string]any, len(p.ToolInput)+len(converted))
	// Host fields the hook's dialect cannot express keep their original value.
	for k, v := range p.ToolInput {
		canon, known := hostTool.Fields[k]
		if !known {
			if !slices.Contains(converter(hostTool).Args, k) {
				out[k] = v // a host argument the table does not list: host-only
			}
			continue
		}
		if _, ok := hookTool.ArgFor(canon); !ok && !slices.Contains(converter(hookTool).Canonical, canon) {
			out[k] = v
		}
	}
	convArgs := converter(hostTool).Args
	for _, k := range slices.Sorted(maps.Keys(converted)) { // findings in a stable order
		v := converted[k]
		if _, known := hostTool.Fields[k]; !known && len(hostTool.Fields) > 0 && !slices.Contains(convArgs, k) {
			if hv, ok := hookInput[k]; ok && !reflect.DeepEqual(hv, shown[k]) && !slices.Contains(hookTool.Descriptive, hookArg(hookTool, k)) {
				// The hook set this argument: running the call without it
				// would run what the hook did not ask for.
				return nil, fmt.Errorf("%s has no argument for the rewritten %s", p.ToolName, k)
			}
			fs.add(mappings.None, "tool_input."+k, "%s has no such argument; dropped from the rewrite", p.ToolName)
			continue
		}
		out[k] = v
	}
	for _, req := range hostTool.Required {
		if _, ok := out[req]; !ok {
			if v, ok := p.ToolInput[req]; ok {
				out[req] = v
			} else if v, ok := hostTool.Defaults[req]; ok {
				out[req] = v
			} else {
				fs.add(mappings.None, "tool_input."+req, "required by %s and missing from the rewrite; %s will reject the call", p.ToolName, tr.To.Agent)
			}
		}
	}
	return out, nil
}

// hostCall is the tool call in the host's payload.
type hostCall struct {
	Cwd, ToolName string
	ToolInput     map[string]any
}

// readHostCall reads the host's tool call as Event does: at any depth, as
// the agents' JSON.parse reads it (a model chooses the tool's input).
func readHostCall(payload []byte) (hostCall, error) {
	_, raw, err := mappings.SplitObject(payload)
	if err != nil {
		var m map[string]json.RawMessage
		if json.Unmarshal(payload, &m) != nil {
			return hostCall{}, err
		}
		raw = m // a duplicate key, which encoding/json reads: the last counts
	}
	var c hostCall
	_ = json.Unmarshal(raw["cwd"], &c.Cwd)
	_ = json.Unmarshal(raw["tool_name"], &c.ToolName)
	if in, ok := raw["tool_input"]; ok {
		v, _, err := mappings.DecodeJSON(in)
		if err != nil {
			return hostCall{}, err
		}
		c.ToolInput, _ = v.(map[string]any)
	}
	return c, nil
}

// converter is a tool's input converter, or an empty one.
func converter(t *mappings.Tool) *mappings.InputConverter {
	if c := mappings.InputConverterByName(t.Convert); c != nil {
		return c
	}
	return &mappings.InputConverter{}
}

// FailureOutput answers the host when hookx itself failed (its stdin does not
// parse or is over the bound, the event is nested past the limits, the event
// is unknown, an internal error): a block, with the error as the reason, on
// every event where a block keeps something from happening or from the model
// (output.guard and output.failClosed), so a hook is never silently switched
// off by its translator; a warning elsewhere.
func FailureOutput(host *mappings.Dialect, hostEvent string, err error) Output {
	reason := "hookx could not translate this hook call: " + err.Error()
	ev := host.Event(hostEvent)
	var r rendered
	if ev != nil && ev.Output.BlocksOnFailure() {
		r.block, r.reason = true, reason
	} else {
		r.systemMessage = reason
	}
	stderr := []byte("hookx: " + err.Error() + "\n")
	switch host.Protocol {
	case "gemini":
		return Output{Stdout: r.gemini(), Stderr: stderr}
	case "copilot":
		if ev == nil {
			// Its payload names no event and hookx could not tell which
			// it is: a permissionDecision deny blocks a tool call and is
			// ignored by every other event.
			r.block, r.reason = true, reason
			ev, _ = host.EventFor("tool.before")
		}
		return Output{Stdout: r.copilot(ev), Stderr: stderr}
	}
	out := r.claudeOutput(ev, nil, nil)
	out.Stderr = append(out.Stderr, stderr...)
	return out
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

// geminiObject parses text (already trimmed) the way Gemini CLI's hook
// runner does: JSON.parse, and JSON.parse again when that gives a string.
// Text JSON.parse rejects is plain text (ok false). A value that is not an
// object, or is null, is no output at all: obj is nil and ok true. An array
// is an object without fields.
func geminiObject(text string) (obj []byte, ok bool) {
	kind, parsed := jsParse(text)
	if !parsed {
		return nil, false
	}
	if kind == '"' {
		inner, err := jsString(text)
		if err != nil {
			return nil, false
		}
		if kind, parsed = jsParse(inner); !parsed {
			return nil, false // the second JSON.parse throws: plain text
		}
		text = inner
	}
	switch kind {
	case '{':
		return []byte(text), true
	case '[':
		return []byte("{}"), true
	}
	return nil, true
}

// hookArg is the hook tool's own name for an argument that convertInput
// kept under its canonical or source name (it has no counterpart).
func hookArg(t *mappings.Tool, k string) string {
	if arg, ok := t.ArgFor(k); ok {
		return arg
	}
	return k
}

// unreadableRewrite blocks when a tool-input rewrite cannot be carried:
// running the original input would grant what the hook took away.
func unreadableRewrite(v *Verdict, err error, fs *findings) {
	if !v.Block {
		v.Block, v.Reason = true, "hookx cannot carry this hook's tool input rewrite: "+err.Error()
	}
	fs.add(mappings.None, "input rewrite", "%v; blocked rather than running the original input", err)
}

func keySet(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
