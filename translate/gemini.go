package translate

// The gemini protocol family: Gemini CLI's hook output, and that of the
// forks that read it (TerminaI, which reads the exit code first).

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

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
		if !out.Signaled && exit != 0 && d.Reading.Blocks(exit) {
			v.Ignored = nothingPrinted(d, exit)
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
	if !v.Block && (o.str("permissionDecision") == "deny" || hs.str("permissionDecision") == "deny") {
		v.Ignored = fmt.Sprintf(`permissionDecision "deny" is ignored by %s`, d.Agent)
	}
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
	stdout := trimJS(out.Stdout)
	if stdout != "" {
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
		if stdout == "" && !out.Signaled && d.Reading.Blocks(exit) {
			v.Ignored = nothingPrinted(d, exit)
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
	} else if stdout != "" {
		// What the hook meant on stdout, which is read only at exit 0.
		switch at0 := readGemini(d, ev, Output{Stdout: out.Stdout}, &findings{}); {
		case at0.Block:
			v.Ignored = fmt.Sprintf("a deny on stdout with exit %d; %s reads stdout only at exit 0 (and stderr at any other)", exit, d.Agent)
		case at0.Ignored != "":
			v.Ignored = at0.Ignored
		}
	}
	return v
}

// nothingPrinted is the ignored idiom of a blocking exit with nothing
// printed: the agent has no reason to show, and runs the action.
func nothingPrinted(d *mappings.Dialect, exit int) string {
	return fmt.Sprintf("exit %d with nothing printed does not block in %s", exit, d.Agent)
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

// geminiFamily is Gemini CLI's protocol (GC§2) and its forks'.
type geminiFamily struct{}

func (geminiFamily) read(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	return readGemini(d, ev, out, fs)
}

// exitBlocks: an exit status the dialect reads as a block (reading.blocks;
// 2 and above in Gemini CLI).
func (geminiFamily) exitBlocks(d *mappings.Dialect, _ *mappings.Event, exit int) bool {
	return exit != 0 && d.Reading.Blocks(exit)
}

func (geminiFamily) readWhole(d *mappings.Dialect, ev *mappings.Event, out Output, blocking bool, why string, fs *findings) (Verdict, bool) {
	if ev.Output.Block == "none" || ev.Output.Block == "" {
		return Verdict{}, false // nothing is guarded: a failure
	}
	exit := out.ExitCode
	if !d.Reading.ByExit() {
		if out.Stdout != nil && trimJS(out.Stdout) != "" {
			// Gemini reads stdout, which is whole, and only falls back to stderr.
			return readGemini(d, ev, Output{Stdout: out.Stdout, ExitCode: exit}, fs), true
		}
		return Verdict{}, false
	}
	switch {
	case exit == 0 && !out.Signaled && out.Stdout != nil || (exit != 0 || out.Signaled) && out.Stderr != nil:
		// The one stream the exit code says is read is whole.
		return readGemini(d, ev, out, fs), true
	case blocking:
		fs.add(mappings.Approximate, "output bound", "%s; exit %d with text on stderr is a block in %s: blocked", why, exit, d.Agent)
		return Verdict{Block: true, Reason: fmt.Sprintf("%s; it exited %d with text on stderr, a block in %s, so hookx blocks", why, exit, d.Agent)}, true
	case exit != 0 || out.Signaled:
		return Verdict{Failure: why}, true // a warning in its own agent, whatever the text
	}
	return Verdict{}, false
}

func (geminiFamily) render(tr *Translator, _ ResultContext, _ *mappings.Event, r rendered, fs *findings) Output {
	r.newOutputLost(tr.To, fs)
	return Output{Stdout: r.gemini()}
}

func (geminiFamily) failure(_ *mappings.Dialect, _ *mappings.Event, r rendered, _ string) Output {
	return Output{Stdout: r.gemini()}
}

// carriesModel: Gemini CLI's hook LLM format, on both sides.
func (geminiFamily) carriesModel() bool { return true }
