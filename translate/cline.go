package translate

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hookx-dev/hookx/mappings"
	"mvdan.cc/sh/v3/syntax"
)

// The cline protocol family: Cline 3.0.65's hook files. What its hook runner
// does, read from @cline/core's dist/index.js ("core@N" is a byte offset;
// every field with its evidence: mappings/data/evidence/cline-output.jsonc):
//
//   - stdout is JSON: the last line starting "HOOK_CONTROL<TAB>", else the
//     whole stdout, trimmed (core@703349). Output that does not parse is an
//     error of the hook call ("produced invalid control JSON").
//   - The object is checked with zod (core@706419): cancel and review
//     booleans, context, contextModification and errorMessage strings; a
//     value of another type drops the whole answer, and so does an object
//     with none of those keys nor overrideInput (core@706910).
//   - cancel true stops the tool and ends the whole task, its reason
//     errorMessage, else context; the model never sees it (live).
//     Otherwise context, else contextModification, else errorMessage, is
//     context for the model, cut at 50,000 characters.
//   - overrideInput replaces the tool's input on tool_call (core@708938),
//     whole: @cline/agents' tool loop sets the input to it (agents@425653,
//     "if(c?.input!==void 0)n=c.input").
//   - The exit code is never read (core@704656): exit 2 does not block.
//
// So a deny, which means "not this call, go on", has no answer of its own.
// For the shell tool hookx answers overrideInput with a command that only
// prints the reason (clineDenyCommand), plus the reason as context: the
// call does not run, the model learns why, the task goes on (seen live,
// ../shared/reference/plugin-agents-offline.md). For any other tool there
// is no harmless replacement: cancel, which ends the task.

// clineContextLimit is where Cline cuts a hook's context (core@706400,
// JV=50000).
const clineContextLimit = 50000

// clineOutputKeys are the output fields Cline's zod schema names.
var clineOutputKeys = keySet("cancel", "review", "context", "contextModification", "errorMessage", "overrideInput")

// clineControl is the text Cline parses of a hook's stdout.
func clineControl(stdout string) string {
	text := strings.TrimSpace(stdout)
	last := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if c, ok := strings.CutPrefix(line, "HOOK_CONTROL\t"); ok {
			last = c
		}
	}
	return cmp.Or(last, text)
}

// readCline applies Cline's rules to a hook's output on ev.
func readCline(ev *mappings.Event, out Output, fs *findings) Verdict {
	var v Verdict
	if out.Signaled || out.ExitCode != 0 {
		fs.add(mappings.None, "exit code", "Cline never reads a hook's exit code; only its stdout counts")
	}
	if trimJS(out.Stderr) != "" {
		fs.add(mappings.None, "stderr", "Cline does not read a hook's stderr; not passed on")
	}
	text := clineControl(string(out.Stdout))
	if text == "" {
		return v
	}
	if !json.Valid([]byte(text)) {
		// Cline fails the hook call; whether the tool then runs was not
		// seen: a guard fails closed.
		v.Failure = "the hook's output is not JSON (Cline: invalid control JSON)"
		if ev.Output.Guard {
			v.Block, v.Reason = true, "hook produced invalid control JSON"
		}
		return v
	}
	obj, ok := singleObject(text)
	if !ok {
		fs.add(mappings.None, "output", "not a JSON object; Cline ignores it")
		return v
	}
	o := parseFields(obj)
	for _, k := range o.unknown(clineOutputKeys) {
		fs.add(mappings.None, "output key "+k, "not part of Cline's output; ignored as Cline would")
	}
	for k, want := range map[string]byte{"cancel": 't', "review": 't', "context": '"', "contextModification": '"', "errorMessage": '"'} {
		raw, has := o[k]
		if !has || len(raw) == 0 {
			continue
		}
		got := raw[0]
		if got == 'f' {
			got = 't'
		}
		if got != want {
			fs.add(mappings.None, k, "of the wrong type: Cline's schema rejects the whole answer and ignores it")
			return v
		}
	}
	_, hasOverride := o["overrideInput"]
	if !hasOverride && !hasAny(o, "cancel", "review", "context", "contextModification", "errorMessage") {
		return v
	}
	ctx := cmp.Or(o.str("context"), o.str("contextModification"))
	errMsg := o.str("errorMessage")
	if strings.TrimSpace(errMsg) == "" {
		errMsg = ""
	}
	if o.isTrue("review") {
		fs.add(mappings.None, "review", "Cline's review flag is not carried")
	}
	if o.isTrue("cancel") {
		// The tool does not run and the task ends: a deny here, and the
		// end of the turn where the host can end it.
		reason := cmp.Or(errMsg, ctx, "Cancelled by a Cline hook")
		if ev.Output.Block != "none" {
			v.Block, v.Reason = true, reason
		}
		v.Stop, v.StopReason = true, reason
		return v
	}
	if c := cmp.Or(ctx, errMsg); strings.TrimSpace(c) != "" {
		if len(c) > clineContextLimit {
			c = c[:clineContextLimit] + fmt.Sprintf("\n[hook context truncated: exceeded %d characters]", clineContextLimit)
		}
		if ev.Output.Context == "model" {
			v.Context = append(v.Context, c)
		} else {
			fs.add(mappings.None, "context", "Cline does not read it on %s; ignored", ev.Name)
		}
	}
	if cmds := clineOverrideCommands(o); len(cmds) == 1 && ev.Output.Guard && ev.Output.RewriteInput {
		if text, ok := clineDenyText(cmds[0]); ok {
			// hookx's own deny of a shell call (clineFamily.render): the
			// call does not run, the model gets the reason, the task goes
			// on.
			return Verdict{Block: true, Reason: cmp.Or(ctx, errMsg, text)}
		}
	}
	if hasOverride && ev.Output.RewriteInput {
		var val any
		_ = json.Unmarshal(o["overrideInput"], &val)
		in, isObject := val.(map[string]any)
		if !isObject {
			// What the tool makes of another value was not seen: nothing
			// of the original call runs.
			v.Block, v.Reason = true, "the hook replaced the tool's input with something that is not an object"
			fs.add(mappings.Approximate, "overrideInput", "not an object; blocked rather than guess what Cline runs")
			return v
		}
		v.NewInput = in
	}
	return v
}

// cline renders r as Cline's answer on ev: one JSON object, or nothing. A
// block is cancel:true, which ends Cline's whole task: stronger than a
// deny of one call, never weaker (the reason goes in errorMessage, which
// the model does not see); a shell call's block, where the caller found
// one (shellDeny), replaces the call with one that only prints the reason.
func (r rendered) cline(ev *mappings.Event, shellDeny bool) []byte {
	o := newObject()
	if ev != nil {
		reason := cmp.Or(r.reason, r.stopReason, "Blocked by hook")
		switch {
		case r.stop && ev.Output.Stop, r.block && ev.Output.Block != "none" && !shellDeny:
			o.set("cancel", true)
			o.set("errorMessage", reason)
			return o.bytes()
		case r.block && ev.Output.Block != "none":
			o.set("overrideInput", map[string]any{"commands": []string{clineDenyCommand(reason)}})
			o.set("context", strings.Join(append([]string{reason}, r.context...), "\n"))
			return o.bytes()
		}
		if r.newInput != nil && ev.Output.RewriteInput {
			o.set("overrideInput", r.newInput)
		}
		if len(r.context) > 0 && ev.Output.Context == "model" {
			o.set("context", strings.Join(r.context, "\n"))
		}
	}
	if o.len() == 0 {
		return nil
	}
	return o.bytes()
}

// clineFamily is Cline's protocol.
type clineFamily struct{}

func (clineFamily) read(_ *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	return readCline(ev, out, fs)
}

// exitBlocks: Cline reads no exit code.
func (clineFamily) exitBlocks(*mappings.Dialect, *mappings.Event, int) bool { return false }

// readWhole: Cline reads stdout only.
func (clineFamily) readWhole(_ *mappings.Dialect, ev *mappings.Event, out Output, _ bool, why string, fs *findings) (Verdict, bool) {
	if out.Stdout == nil {
		return Verdict{}, false
	}
	fs.add(mappings.None, "stderr", "%s; Cline does not read it", why)
	return readCline(ev, Output{Stdout: out.Stdout}, fs), true
}

func (clineFamily) render(tr *Translator, ctx ResultContext, ev *mappings.Event, r rendered, fs *findings) Output {
	shellDeny := false
	if ev != nil && r.block && ev.Output.Block != "none" && !(r.stop && ev.Output.Stop) {
		p, _ := readHostCall(ctx.HostPayload)
		tool := tr.To.Tool(p.ToolName)
		switch {
		case ev.Output.Guard && ev.Output.RewriteInput && tool != nil && tool.Canonical == "shell":
			shellDeny = true
			fs.add(mappings.Approximate, "block", "Cline cannot refuse one call: %s is replaced by a command that only prints the reason, which is also sent as context; the task goes on", p.ToolName)
		case p.ToolName != "":
			fs.add(mappings.Approximate, "block", "Cline cannot refuse one call, and %s has no harmless replacement: answered cancel, which ends the whole task (stronger than the deny) and keeps the reason from the model", p.ToolName)
		default:
			fs.add(mappings.Approximate, "block", "Cline refuses a call only with cancel, which ends the whole task and keeps the reason from the model")
		}
	}
	if r.systemMessage != "" {
		fs.add(mappings.None, "systemMessage", "Cline shows no message from a hook; not passed on")
	}
	r.newOutputLost(&mappings.Dialect{Agent: "Cline"}, fs)
	return Output{Stdout: r.cline(ev, shellDeny)}
}

func (clineFamily) failure(host *mappings.Dialect, ev *mappings.Event, r rendered, reason string) Output {
	if ev == nil {
		r.block, r.reason = true, reason
		ev, _ = host.EventFor("tool.before")
	}
	return Output{Stdout: r.cline(ev, false)}
}

// clineDenyFormat is printf's format in the command that replaces a shell
// call hookx refuses on Cline; its one argument is the reason.
const clineDenyFormat = `A hook refused this command; it did not run: %s\n`

// clinePrintLimit bounds the reason the replacement prints, in bytes (the
// whole reason goes as context; a command line has a limit).
const clinePrintLimit = 4000

// clineDenyCommand is the shell command that replaces a refused call: printf
// with a fixed format and the reason, and nothing else. Cline runs it with
// /bin/bash -c (@cline/shared getDefaultShell and getShellInvocation,
// "/bin/bash" and ["-c", script], PowerShell on Windows). The reason is
// printed as one literal word: control characters, line and paragraph
// separators and every other rune that does not print become spaces, a
// quote ' becomes ’ (so that the word is single-quoted and stays literal in
// every shell's single quotes, PowerShell's too), and it is cut at
// clinePrintLimit bytes; then syntax.Quote quotes it for bash. Nothing of
// the refused call is in it: it is a function of the reason alone.
func clineDenyCommand(reason string) string {
	var b strings.Builder
	for _, r := range reason {
		switch {
		case r == '\'':
			r = '’'
		case r == utf8.RuneError || !unicode.IsPrint(r):
			r = ' '
		}
		if b.Len()+utf8.RuneLen(r) > clinePrintLimit {
			break
		}
		b.WriteRune(r)
	}
	format, err1 := syntax.Quote(clineDenyFormat, syntax.LangBash)
	text, err2 := syntax.Quote(b.String(), syntax.LangBash)
	if err1 != nil || err2 != nil {
		// Unreachable: only NUL, invalid UTF-8 and out-of-range runes fail
		// to quote, and none is left. Print the format alone.
		return "printf " + format + " ''"
	}
	return "printf " + format + " " + text
}

// clineDenyText is the text a command written by clineDenyCommand prints;
// ok is false for any other command.
func clineDenyText(cmd string) (text string, ok bool) {
	rest, ok := strings.CutPrefix(cmd, strings.TrimSuffix(clineDenyCommand(""), "''"))
	if !ok {
		return "", false
	}
	text = rest
	if len(rest) >= 2 && rest[0] == '\'' && rest[len(rest)-1] == '\'' {
		text = rest[1 : len(rest)-1]
	}
	return text, clineDenyCommand(text) == cmd
}

// clineOverrideCommands is overrideInput's commands when it is
// {"commands": [strings]} and nothing else.
func clineOverrideCommands(o fields) []string {
	var in map[string]json.RawMessage
	if json.Unmarshal(o["overrideInput"], &in) != nil || len(in) != 1 {
		return nil
	}
	var cmds []string
	_ = json.Unmarshal(in["commands"], &cmds)
	return cmds
}

func (clineFamily) carriesModel() bool { return false }

// clineInbound puts Cline's payload into the flat form: the event named by
// hookName, tool_call's name, input and id as tool_name, tool_input and
// tool_use_id, the first workspace root as cwd, postToolUse's result as
// tool_response, userPromptSubmit's prompt as prompt; preToolUse and
// postToolUse (the input again, as strings) are dropped. A tool input that is not an object (Cline's run_commands
// takes a bare string or list too) is given as {"commands": input}.
func clineInbound(raw map[string]json.RawMessage, keys []string) ([]string, map[string]json.RawMessage) {
	var call struct {
		ID    json.RawMessage `json:"id"`
		Name  json.RawMessage `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	out := map[string]json.RawMessage{}
	var order []string
	put := func(k string, v json.RawMessage) {
		if v == nil {
			return
		}
		if _, dup := out[k]; !dup {
			order = append(order, k)
		}
		out[k] = v
	}
	for _, k := range keys {
		switch k {
		case "tool_call", "tool_result":
			if json.Unmarshal(raw[k], &call) == nil {
				put("tool_name", call.Name)
				in := call.Input
				if t := strings.TrimSpace(string(in)); t != "" && t[0] != '{' {
					in = json.RawMessage(`{"commands":` + t + `}`)
				}
				put("tool_input", in)
				put("tool_use_id", call.ID)
			}
		case "preToolUse":
		case "userPromptSubmit":
			var sub struct {
				Prompt json.RawMessage `json:"prompt"`
			}
			if json.Unmarshal(raw[k], &sub) == nil {
				put("prompt", sub.Prompt)
			}
		case "postToolUse":
			var post struct {
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(raw[k], &post) == nil {
				put(responseField, post.Result)
			}
		case "workspaceRoots":
			var roots []json.RawMessage
			if json.Unmarshal(raw[k], &roots) == nil && len(roots) > 0 {
				put("cwd", roots[0])
			}
			put(k, raw[k])
		default:
			put(k, raw[k])
		}
	}
	return order, out
}

// clineOutbound puts a flat payload on event into Cline's form: hookName,
// tool_call {id, name, input} and preToolUse / postToolUse {toolName,
// parameters} with every parameter a string (core@707599), workspaceRoots.
func clineOutbound(d *mappings.Dialect, event string, raw map[string]json.RawMessage, keys []string) ([]string, map[string]json.RawMessage) {
	out := map[string]json.RawMessage{}
	var order []string
	put := func(k string, v any) {
		b, ok := v.(json.RawMessage)
		if !ok {
			b, _ = json.Marshal(v)
		}
		if _, dup := out[k]; !dup {
			order = append(order, k)
		}
		out[k] = b
	}
	word := d.Payload.WordOf(event)
	put(d.Payload.EventField, word)
	for _, k := range keys {
		switch k {
		case "tool_name", "tool_input", "tool_use_id", responseField:
		case "cwd":
			put("workspaceRoots", []json.RawMessage{raw[k]})
		case "prompt":
			put("userPromptSubmit", map[string]any{"prompt": raw[k], "attachments": []any{}})
		default:
			put(k, raw[k])
		}
	}
	name, input := raw["tool_name"], raw["tool_input"]
	if name == nil {
		return order, out
	}
	var params map[string]any
	_ = json.Unmarshal(input, &params)
	strs := map[string]string{}
	for k, v := range params {
		if s, isString := v.(string); isString {
			strs[k] = s
		} else {
			b, _ := json.Marshal(v)
			strs[k] = string(b)
		}
	}
	call := map[string]json.RawMessage{"id": rawOr(raw["tool_use_id"], `""`), "name": name, "input": rawOr(input, `{}`)}
	side := map[string]any{"toolName": name, "parameters": strs}
	if word == "tool_result" {
		put("tool_result", call)
		if r := raw[responseField]; r != nil {
			side["result"] = r
		}
		put("postToolUse", side)
	} else {
		put("tool_call", call)
		put("preToolUse", side)
	}
	return order, out
}

// hasAny reports whether o has one of keys.
func hasAny(o fields, keys ...string) bool {
	for _, k := range keys {
		if _, ok := o[k]; ok {
			return true
		}
	}
	return false
}

// rawOr is v, or def when v is absent.
func rawOr(v json.RawMessage, def string) json.RawMessage {
	if v == nil {
		return json.RawMessage(def)
	}
	return v
}

// payloadConverter converts between an agent's own payload and the flat
// form (mappings.PayloadShape.Convert names one).
type payloadConverter struct {
	in  func(raw map[string]json.RawMessage, keys []string) ([]string, map[string]json.RawMessage)
	out func(d *mappings.Dialect, event string, raw map[string]json.RawMessage, keys []string) ([]string, map[string]json.RawMessage)
}

// payloadConverters are the named payload converters; a test holds the
// table's names against them.
var payloadConverters = map[string]payloadConverter{
	"cline": {in: clineInbound, out: clineOutbound},
}
