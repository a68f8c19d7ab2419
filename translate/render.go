package translate

// Rendering a verdict in the host's terms, whichever the host's family.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/hookx-dev/hookx/mappings"
)

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
		if familyOf(tr.To).carriesModel() && slices.Contains(out.ModelFields, name) {
			if r.model == nil {
				r.model = map[string]json.RawMessage{}
			}
			r.model[name] = v.Model[name]
			continue
		}
		fs.add(mappings.None, name, "%s does not act on it on %s; not carried", tr.To.Agent, hostEv.Name)
	}

	return familyOf(tr.To).render(tr, ctx, hostEv, r, fs)
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
	out := familyOf(host).failure(host, ev, r, reason)
	out.Stderr = append(out.Stderr, stderr...)
	return out
}
