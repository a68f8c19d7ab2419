package translate

import (
	"cmp"
	"encoding/json"
	"fmt"

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
	// Ignored names a deny or an ask the hook wrote in a form its own
	// agent does not act on, so that the agent runs the action (doctor's
	// "ignored idiom"); "" when there is none, or when the agent blocks
	// anyway (exit 2). Block may still be set: hookx reads some such forms
	// as the deny they plainly mean, the stricter reading wrap carries.
	Ignored string
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
	return familyOf(d).read(d, ev, out, fs)
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
	f := familyOf(d)
	blockingExit := !out.Signaled && f.exitBlocks(d, ev, exit)
	if v, ok := f.readWhole(d, ev, out, blockingExit, why, fs); ok {
		return v
	}
	switch {
	case ev.Output.Block == "none" || ev.Output.Block == "":
		return Verdict{Failure: why}
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
