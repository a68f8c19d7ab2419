package translate

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

// The copilot protocol family: GitHub Copilot CLI's camelCase hooks. This
// file is the family's reader and renderer of hook output and the two ends
// of its payload form; the rest of the package dispatches to it on
// Dialect.Protocol. What Copilot CLI 1.0.102 does, seen live on 2026-11-23:
//
//   - The payload is camelCase (sessionId, toolName, toolArgs as an object,
//     toolResult, a timestamp in milliseconds) and names no event: the event
//     is the one the handler was registered on.
//   - preToolUse: a top-level permissionDecision "deny" blocks, with
//     permissionDecisionReason reaching the model; "ask" in -p denies with
//     its reason. hookSpecificOutput, a top-level decision and updatedInput
//     (top-level or in hookSpecificOutput) are ignored. modifiedArgs is
//     what runs: an object, or a string holding one; anything else (null,
//     an array, a string of something else) fails the call ("Invalid
//     input: Expected JSON object but got null"), which runs nothing.
//   - userPromptSubmitted, agentStop, postToolUse: a top-level decision
//     "block" with a non-empty reason refuses the prompt / continues the
//     turn / replaces the tool's result ("Tool result blocked: <reason>");
//     without a reason it is ignored. On userPromptSubmitted, handled true
//     with a non-empty responseContent answers the prompt with no model
//     call, and a non-empty modifiedPrompt replaces the prompt the model
//     gets. postToolUse's modifiedResult replaces the tool's result.
//   - additionalContext reaches the model on preToolUse, postToolUse,
//     userPromptSubmitted and sessionStart.
//   - Exit 2 denies a tool call whatever stdout says, and its stderr is
//     dropped: the model gets "hook exited with code 2". Every other
//     non-zero exit (1, 3, 127) denies it too ("hook errored"), also over a
//     JSON deny on stdout. On every other event exit 2 logs stderr as a
//     warning and reads stdout as at exit 0; any other non-zero exit is
//     logged, stdout ignored. Plain text and invalid JSON at exit 0 are
//     ignored. A timeout lets the tool run.

// copilotOutputKeys are the output fields Copilot CLI reads on some event
// (SDK types.d.ts, 1.0.102).
var copilotOutputKeys = keySet("permissionDecision", "permissionDecisionReason", "modifiedArgs", "updatedInput",
	"additionalContext", "suppressOutput", "modifiedResult", "decision", "reason", "modifiedPrompt",
	"modifiedConfig", "cleanupActions", "sessionSummary", "errorHandling", "retryCount", "userNotification",
	"modifiedResponse", "modifiedTransformedPrompt", "metaToUse", "handled", "responseContent")

// readCopilot applies Copilot CLI's rules to a hook's output on ev.
func readCopilot(ev *mappings.Event, out Output, fs *findings) Verdict {
	var v Verdict
	exit := out.ExitCode
	guardsAction := ev.Output.Block == "deny" && ev.Output.Ask
	if out.Signaled || exit != 0 {
		why := fmt.Sprintf("hook exited with code %d", exit)
		if out.Signaled {
			why = cmp.Or(out.FailReason, "killed by a signal")
		}
		if stderr := trimJS(out.Stderr); stderr != "" {
			fs.add(mappings.None, "stderr", "Copilot CLI drops a failing hook's stderr; not passed on")
		}
		if guardsAction {
			// Every non-zero exit denies the tool call, whatever stdout
			// says: Copilot fails closed.
			v.Block, v.Reason = true, why
			return v
		}
		if out.Signaled || exit != 2 {
			v.Failure = why
			return v
		}
		// Exit 2 elsewhere: Copilot logs stderr and reads stdout as at
		// exit 0 (live: a block refused the prompt, continued the turn).
	}
	obj, ok := singleObject(trimJS(out.Stdout))
	if !ok {
		if text := trimJS(out.Stdout); text != "" {
			fs.add(mappings.None, "plain stdout", "Copilot CLI ignores output that is not one JSON object; not passed on")
		}
		return v
	}
	o := parseFields(obj)
	for _, k := range o.unknown(copilotOutputKeys) {
		fs.add(mappings.None, "output key "+k, "not part of Copilot CLI's output; ignored as Copilot CLI would")
	}
	if ev.Output.Ask {
		reason := cmp.Or(o.str("permissionDecisionReason"), "No reason provided")
		switch pd := o.str("permissionDecision"); pd {
		case "":
		case "deny":
			v.Block, v.Reason = true, reason
		case "ask":
			v.Ask, v.AskReason = true, o.str("permissionDecisionReason")
		case "allow":
			v.Allow = true
		default:
			fs.add(mappings.None, fmt.Sprintf("permissionDecision %q", pd), "invalid in Copilot CLI; ignored")
		}
		if !v.Block && !v.Ask {
			v.Ignored = copilotIgnoredDeny(o)
		}
		if ev.Output.RewriteInput {
			copilotModifiedArgs(&v, o, fs)
		}
	} else if d := o.str("decision"); d != "" {
		switch {
		case d == "block" && copilotNeedsReason(ev) && o.str("reason") == "":
			fs.add(mappings.None, `decision "block"`, "Copilot CLI blocks on %s only with a non-empty reason and goes ahead without one; nothing is blocked", ev.Name)
		case d == "block" && slices.Contains([]string{"deny", "continue", "hide_output"}, ev.Output.Block):
			v.Block, v.Reason = true, cmp.Or(o.str("reason"), "Blocked by hook")
		case d == "allow":
		default:
			fs.add(mappings.None, fmt.Sprintf("decision %q", d), "Copilot CLI does not read it on %s; ignored", ev.Name)
		}
	}
	if o.isTrue("handled") && ev.Output.Guard && !ev.Output.Ask {
		// The prompt is answered by the hook and never reaches the model:
		// a block, whose reason (the answer) the host shows.
		if text := o.str("responseContent"); text != "" {
			if !v.Block {
				v.Block, v.Reason = true, text
			}
			fs.add(mappings.Approximate, "handled", "Copilot CLI answers the prompt with responseContent and calls no model; read as a block with the answer as its reason")
		} else {
			fs.add(mappings.None, "handled", "Copilot CLI ignores handled without a non-empty responseContent and sends the prompt to the model")
		}
	}
	if c := o.str("additionalContext"); c != "" {
		if ev.Output.Context == "model" {
			v.Context = append(v.Context, c)
		} else {
			fs.add(mappings.None, "additionalContext", "Copilot CLI does not read it on %s; ignored", ev.Name)
		}
	}
	if r := o["modifiedResult"]; r != nil {
		mr := o.object("modifiedResult")
		switch {
		case !ev.Output.ReplaceOutput:
			fs.add(mappings.None, "modifiedResult", "Copilot CLI does not read it on %s; ignored", ev.Name)
		case string(r) == "null":
			fs.add(mappings.None, "modifiedResult", "null replaces nothing; ignored")
		case mr != nil:
			// The model gets the replacement, never the tool's output
			// (live): a block that hides the output, with the
			// replacement as its reason.
			if !v.Block {
				v.Block, v.Reason = true, cmp.Or(mr.str("textResultForLlm"), "The hook replaced the tool's result")
			}
			fs.add(mappings.Approximate, "modifiedResult", "read as a block that hides the tool's output, with textResultForLlm as the reason")
		default:
			// How Copilot reads a replacement that is not an object was
			// not seen: the output may be replaced there, so it is not
			// shown here either.
			if !v.Block {
				v.Block, v.Reason = true, "The hook replaced the tool's result"
			}
			fs.add(mappings.Approximate, "modifiedResult", "not an object, which hookx cannot read as Copilot CLI would: read as a block that hides the tool's output")
		}
	}
	if p, isString := rawString(o["modifiedPrompt"]); isString && p != "" && ev.Output.Guard && !ev.Output.Ask {
		// The model gets the replacement, never the prompt (live). No
		// other agent takes a replaced prompt from a hook; sending the
		// original would send what the hook kept from the model.
		if !v.Block {
			v.Block, v.Reason = true, "the hook replaced the prompt (modifiedPrompt), which hookx cannot carry to this agent; blocked rather than sending the original prompt"
		}
		fs.add(mappings.None, "modifiedPrompt", "the host cannot take a replaced prompt from a hook; blocked rather than sending the original")
	}
	for _, k := range []string{"modifiedConfig", "modifiedResponse", "modifiedTransformedPrompt"} {
		if o[k] != nil {
			fs.add(mappings.None, k, "the host cannot take it from a hook")
		}
	}
	return v
}

// copilotIgnoredDeny names a deny written on preToolUse in a form Copilot
// CLI does not read there (live, 1.0.102: only a top-level
// permissionDecision denies), or "".
func copilotIgnoredDeny(o fields) string {
	switch {
	case o.object("hookSpecificOutput").str("permissionDecision") == "deny":
		return `hookSpecificOutput.permissionDecision "deny" is ignored by Copilot CLI, which reads a top-level permissionDecision`
	case o.str("decision") == "deny" || o.str("decision") == "block":
		return fmt.Sprintf(`decision %q is ignored by Copilot CLI on preToolUse, which reads a top-level permissionDecision`, o.str("decision"))
	}
	return ""
}

// copilotNeedsReason reports whether Copilot CLI ignores a decision "block"
// without a reason on ev: seen live on userPromptSubmitted, agentStop and
// postToolUse, the SDK's type for subagentStop. permissionRequest's reading
// was not seen: its reasonless block stays a block, the safe side.
func copilotNeedsReason(ev *mappings.Event) bool {
	o := ev.Output
	return o.Block == "continue" || o.Block == "hide_output" || (o.Block == "deny" && o.Guard && !o.Ask)
}

// copilotModifiedArgs reads preToolUse's modifiedArgs as Copilot CLI runs
// it (live): an object, or a string holding one, replaces the tool's
// arguments; any other value fails the call with "Invalid input", which
// runs nothing, so hookx blocks. updatedInput is not read, top-level or in
// hookSpecificOutput.
func copilotModifiedArgs(v *Verdict, o fields, fs *findings) {
	for _, k := range []string{"updatedInput", "hookSpecificOutput"} {
		if _, ok := o[k]; ok {
			fs.add(mappings.None, k, "Copilot CLI reads only a top-level modifiedArgs as a rewrite; ignored as Copilot CLI would")
		}
	}
	raw, ok := o["modifiedArgs"]
	if !ok {
		return
	}
	var val any
	if err := json.Unmarshal(raw, &val); err != nil {
		unreadableRewrite(v, fmt.Errorf("modifiedArgs cannot be carried: %w", err), fs)
		return
	}
	if s, isString := val.(string); isString {
		// Copilot parses a string as JSON.
		if err := json.Unmarshal([]byte(s), &val); err != nil {
			val = s
		}
	}
	in, isObject := val.(map[string]any)
	if !isObject {
		if !v.Block {
			v.Block, v.Reason = true, fmt.Sprintf("Invalid input: Expected JSON object but got %s", jsonKind(val))
		}
		fs.add(mappings.Approximate, "modifiedArgs", "not an object: Copilot CLI fails the call and runs nothing; blocked")
		return
	}
	v.NewInput = in
}

// rawString decodes a JSON string value.
func rawString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// jsonKind names a decoded JSON value's type as Copilot CLI's message does.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		return "number"
	}
	return "object"
}

// copilot renders a verdict for a Copilot CLI host on ev: one JSON object,
// or nothing. A tool call is denied with a top-level permissionDecision (the
// only form it reads); a block elsewhere is a top-level decision "block";
// where Copilot reads no block (postToolUse), the reason goes to the model
// as additional context, which it does read. Never "allow": it would skip
// Copilot's approval prompt.
func (r rendered) copilot(ev *mappings.Event) []byte {
	o := newObject()
	ctx := slices.Clone(r.context)
	if ev != nil {
		switch {
		case ev.Output.Ask:
			switch {
			case r.block:
				o.set("permissionDecision", "deny")
				o.set("permissionDecisionReason", cmp.Or(r.reason, "Blocked by hook"))
			case r.ask:
				o.set("permissionDecision", "ask")
				o.set("permissionDecisionReason", cmp.Or(r.askReason, "The hook asked for confirmation"))
			}
		case r.block && (ev.Output.Block == "deny" || ev.Output.Block == "continue" || ev.Output.Block == "hide_output"):
			o.set("decision", "block")
			o.set("reason", cmp.Or(r.reason, "Blocked by hook"))
		case r.block && ev.Output.Block == "feedback":
			ctx = append([]string{cmp.Or(r.reason, "Blocked by hook")}, ctx...)
		}
		switch {
		case r.replaceOutput && ev.Output.ReplaceOutput:
			// The model gets the reason instead of the tool's result.
			o.set("modifiedResult", map[string]any{"resultType": "success", "textResultForLlm": cmp.Or(r.reason, "Blocked by hook")})
		case r.newOutput != nil && !r.block && ev.Output.ReplaceOutput:
			// The hook replaced the result (Claude's updatedToolOutput):
			// so does modifiedResult.
			o.set("modifiedResult", map[string]any{"resultType": "success", "textResultForLlm": resultText(r.newOutput)})
		}
		if r.newInput != nil && !r.block && ev.Output.RewriteInput {
			o.set("modifiedArgs", r.newInput)
		}
		if len(ctx) > 0 && ev.Output.Context == "model" {
			o.set("additionalContext", strings.Join(ctx, "\n"))
		}
	}
	if o.len() == 0 {
		return nil
	}
	return o.bytes()
}

// resultText is the text of a replacement tool result: a string, a Bash
// result's stdout (and stderr), MCP content blocks' text, or else the JSON
// itself.
func resultText(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		if out, ok := x["stdout"].(string); ok {
			if errText, _ := x["stderr"].(string); errText != "" {
				return joinText(out, errText)
			}
			return out
		}
	case []any:
		var parts []string
		for _, b := range x {
			if m, ok := b.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					parts = append(parts, t)
				}
			}
		}
		if len(parts) == len(x) && len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	return string(raw)
}

// copilotRenderFindings says what a verdict carries that Copilot CLI has no
// place for on ev.
func copilotRenderFindings(ev *mappings.Event, r rendered, fs *findings) {
	if r.newOutput != nil && !r.replaceOutput && (ev == nil || !ev.Output.ReplaceOutput) {
		fs.add(mappings.None, "updatedToolOutput", "Copilot CLI cannot replace a tool's output; the original output stays")
	}
	if r.systemMessage != "" {
		fs.add(mappings.None, "systemMessage", "Copilot CLI shows no message from a hook; not passed on")
	}
	if r.replaceOutput && (ev == nil || !ev.Output.ReplaceOutput) {
		fs.add(mappings.None, "hidden output", "Copilot CLI cannot replace the tool's result here; the reason is sent as context, the output stays visible")
	}
	if ev != nil && r.newOutput != nil && !r.block && ev.Output.ReplaceOutput {
		fs.add(mappings.Approximate, "updatedToolOutput", "sent as modifiedResult, as text")
	}
	if ev != nil && r.block && ev.Output.Block == "feedback" {
		fs.add(mappings.Approximate, "block", "Copilot CLI cannot block on %s; the reason is sent to the model as additional context", ev.Name)
	}
}

// HostEvent names the event of a host payload: its hook_event_name, or,
// for an agent whose payload names none (Copilot CLI), hint (the event the
// handler was registered on, wrap --host-event), or else the one event of
// host whose payload keys (payload.events) the payload has and no other
// more specific one matches. It returns an error when none or several fit.
func HostEvent(host *mappings.Dialect, payload []byte, hint string) (string, error) {
	_, raw, err := mappings.SplitObject(payload)
	if err != nil {
		return "", fmt.Errorf("event payload: %w", describeJSONError(payload, err))
	}
	name := stringField(raw, "hook_event_name")
	if f := host.Payload.EventField; name == "" && f != "" {
		word := stringField(raw, f)
		switch {
		case len(host.Payload.EventNames) == 0:
			name = word // the event's own name (Crush)
		case word != "" || hint == "":
			if name = host.Payload.EventOf(word); name == "" {
				return "", fmt.Errorf("a %s payload's %s %q names no event hookx knows", host.Agent, f, word)
			}
		}
	}
	if name != "" || !host.Payload.NamesNoEvent() {
		if hint != "" && name != "" && name != hint {
			return "", fmt.Errorf("the payload's event %q is not --host-event %q", name, hint)
		}
		return cmp.Or(name, hint), nil
	}
	if hint != "" {
		if host.Event(hint) == nil {
			return "", fmt.Errorf("unknown %s event %q%s", host.Agent, hint, mappings.DidYouMean(hint, host.EventNames()))
		}
		return hint, nil
	}
	best, bestKeys, tie := "", -1, false
	for _, name := range slices.Sorted(maps.Keys(host.Payload.Events)) {
		keys := host.Payload.Events[name]
		if !slices.ContainsFunc(keys, func(k string) bool { _, ok := raw[k]; return !ok }) {
			switch {
			case len(keys) > bestKeys:
				best, bestKeys, tie = name, len(keys), false
			case len(keys) == bestKeys:
				tie = true
			}
		}
	}
	if best == "" || tie {
		return "", fmt.Errorf("a %s payload names no event and its fields do not tell which it is; pass --host-event", host.Agent)
	}
	return best, nil
}

// Inbound puts a payload of d's own form (Copilot CLI's camelCase, which
// names no event; Crush's, which names it "event") into the snake_case form translation and its tests read:
// fields renamed, hook_event_name set to event, first. A payload of any
// other dialect, or already in that form, is returned unchanged.
func Inbound(d *mappings.Dialect, payload []byte, event string) ([]byte, error) {
	return inbound(d, payload, event)
}

func inbound(d *mappings.Dialect, payload []byte, event string) ([]byte, error) {
	if !d.Payload.Own() {
		return payload, nil
	}
	order, raw, err := mappings.SplitObject(payload)
	if err != nil {
		return nil, fmt.Errorf("event payload: %w", describeJSONError(payload, err))
	}
	if _, ok := raw["hook_event_name"]; ok {
		return payload, nil
	}
	if d.Payload.Convert != "" {
		order, raw = payloadConverters[d.Payload.Convert].in(raw, order)
	}
	name, _ := json.Marshal(event)
	keys := []string{"hook_event_name"}
	vals := map[string]json.RawMessage{"hook_event_name": name}
	for _, k := range order {
		if k == d.Payload.EventField {
			continue // named above as hook_event_name
		}
		nk := k
		if to, ok := d.Payload.Fields[k]; ok {
			if _, clash := raw[to]; clash {
				return nil, fmt.Errorf("event payload: both %s and %s", k, to)
			}
			nk = to
		}
		keys = append(keys, nk)
		vals[nk] = raw[k]
	}
	return mappings.JoinObject(keys, vals), nil
}

// outbound puts a translated payload into d's own form: hook_event_name
// dropped or renamed to its own event field, fields renamed back, a timestamp as d sends it.
func outbound(d *mappings.Dialect, payload []byte) ([]byte, error) {
	if !d.Payload.Own() {
		return payload, nil
	}
	order, raw, err := mappings.SplitObject(payload)
	if err != nil {
		return nil, err
	}
	if d.Payload.Convert != "" {
		event := stringField(raw, "hook_event_name")
		order, raw = payloadConverters[d.Payload.Convert].out(d, event, raw, order)
	}
	inv := d.Payload.Inverse()
	var keys []string
	vals := map[string]json.RawMessage{}
	for _, k := range order {
		nk := cmp.Or(inv[k], k)
		if k == "hook_event_name" {
			if d.Payload.EventField == "" || d.Payload.Convert != "" {
				continue // none, or the converter wrote it
			}
			nk = d.Payload.EventField
		}
		keys = append(keys, nk)
		vals[nk] = raw[k]
	}
	return mappings.JoinObject(keys, vals), nil
}

// copilotFamily is Copilot CLI's protocol.
type copilotFamily struct{}

func (copilotFamily) read(_ *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	return readCopilot(ev, out, fs)
}

// exitBlocks: every non-zero exit denies a tool call; elsewhere no exit
// blocks by itself (exit 2 reads stdout).
func (copilotFamily) exitBlocks(_ *mappings.Dialect, ev *mappings.Event, exit int) bool {
	return exit != 0 && ev.Output.Ask
}

// readWhole: Copilot CLI reads stdout and the exit code only, never stderr:
// with stdout whole the reading is exact, at every exit and on every event.
func (copilotFamily) readWhole(_ *mappings.Dialect, ev *mappings.Event, out Output, _ bool, why string, fs *findings) (Verdict, bool) {
	if out.Stdout == nil {
		return Verdict{}, false
	}
	fs.add(mappings.None, "stderr", "%s; Copilot CLI does not read it", why)
	return readCopilot(ev, Output{Stdout: out.Stdout, ExitCode: out.ExitCode, Signaled: out.Signaled, FailReason: out.FailReason}, fs), true
}

func (copilotFamily) render(_ *Translator, _ ResultContext, ev *mappings.Event, r rendered, fs *findings) Output {
	copilotRenderFindings(ev, r, fs)
	return Output{Stdout: r.copilot(ev)}
}

func (copilotFamily) failure(host *mappings.Dialect, ev *mappings.Event, r rendered, reason string) Output {
	if ev == nil {
		// Its payload names no event and hookx could not tell which it
		// is: a permissionDecision deny blocks a tool call and is ignored
		// by every other event.
		r.block, r.reason = true, reason
		ev, _ = host.EventFor("tool.before")
	}
	return Output{Stdout: r.copilot(ev)}
}

func (copilotFamily) carriesModel() bool { return false }
