package translate

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

// The pi protocol family: the plugin host. Pi (1.6.0) has no command
// hooks; the extension hookx generates (migrate/piplugin, hookx.ts) runs
// hookx on Pi's events and reads its answer, so the answer is the
// extension's, and this file reads and writes it exactly as hookx.ts does:
//
//   - exit 0 and one JSON object on stdout (JSON.parse of the whole text),
//     with only the keys the event reads (piOutputKeys); anything else — a
//     non-zero exit, a signal, no answer, text, an array, another key —
//     fails closed where the event guards or sends the model something
//     (a tool is refused, a prompt dropped, a tool's result carries why),
//     and is only shown elsewhere (session_start, agent_before_settle);
//   - {"block": true, "reason"}: the reason (String of it, "blocked by a
//     hook" when empty) is the tool's error result (tool_call), is added
//     to the tool's result (tool_result), drops the prompt (input) or
//     makes one more turn (agent_before_settle); a block that is neither
//     true nor false fails;
//   - {"input": {...}}: the tool runs with these arguments (tool_call; an
//     input that is not an object fails);
//   - {"context": "text"}: the model reads it (tool_result: added to the
//     result; input and session_start: sent with the prompt);
//   - {"output": "text"}: the tool's result is this text (tool_result);
//   - {}: nothing.

// A plugin host's answer: what the plugin reads of it on each event, and
// the key that carries new arguments (Pi's extension: input; OpenCode's
// and Kilo's plugin: args, translate/opencode.go). The plugins read the
// same answer otherwise.
type pluginHostFamily struct {
	argsKey string
	// keys are what the plugin reads of an answer on each event (hookx.ts
	// KEYS, hookx.js); an event not named reads those of toolEvent.
	keys      map[string]map[string]bool
	toolEvent string
}

// piFamily is the plugin host's protocol of Pi's extension (hookx.ts).
var piFamily = pluginHostFamily{argsKey: "input", keys: piOutputKeys, toolEvent: "tool_call"}

// piOutputKeys are what the extension reads of an answer on each event
// (hookx.ts KEYS).
var piOutputKeys = map[string]map[string]bool{
	"tool_call":           keySet("block", "reason", "input"),
	"tool_result":         keySet("block", "reason", "context", "output"),
	"input":               keySet("block", "reason", "context"),
	"session_start":       keySet("context"),
	"agent_before_settle": keySet("block", "reason"),
}

// piFails is what the extension does when hookx fails on ev: a guard's
// and a result's failure is a block (a refusal, or the reason added to the
// tool's result); at the start of a session and the end of a run it is
// only shown (a failure there must not loop the run).
func piFails(ev *mappings.Event, why string) Verdict {
	if ev == nil || ev.Output.BlocksOnFailure() {
		return Verdict{Block: true, Reason: why}
	}
	return Verdict{SystemMessage: why}
}

// pluginMaxOutput is the plugins' MAX_OUTPUT (hookx.ts, hookx.js): more
// answer than this is refused.
const pluginMaxOutput = 1 << 20

// jsonSpace is the white space JSON.parse skips around a value.
const jsonSpace = " \t\n\r"

// readPlugin reads an answer as the plugin of d (hookx.ts, hookx.js) does
// on ev.
func (f pluginHostFamily) readPlugin(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	if len(out.Stdout) > pluginMaxOutput {
		// The plugin kills hookx and refuses once its answer's text is
		// over MAX_OUTPUT, counted in UTF-16 units of what it decoded (as
		// it came, in chunks), never more than the bytes: past that many
		// bytes it may, and hookx cannot tell how the chunks fell. hookx's
		// own bound (16 MiB) let a hook's {"reason": <1 MiB>} through as {}.
		return piFails(ev, fmt.Sprintf("hookx guard failed closed: answer too long (%d bytes; the plugin reads at most %d)", len(out.Stdout), pluginMaxOutput))
	}
	if out.Signaled || out.ExitCode != 0 {
		why := fmt.Sprintf("hook exited with code %d", out.ExitCode)
		if out.Signaled {
			why = cmp.Or(out.FailReason, "killed by a signal")
		}
		if s := strings.TrimSpace(string(out.Stderr)); s != "" {
			why += ": " + s
		}
		return piFails(ev, "hookx guard failed closed: "+why)
	}
	text := strings.Trim(string(out.Stdout), jsonSpace)
	obj, ok := singleObject(text)
	if !ok || text != strings.Trim(string(obj), jsonSpace) {
		return piFails(ev, strings.TrimSpace("hookx guard failed closed: unreadable answer: "+truncate(text, 200)))
	}
	o := parseFields(obj)
	keys := f.keys[f.toolEvent]
	if ev != nil && f.keys[ev.Name] != nil {
		keys = f.keys[ev.Name]
	}
	if unknown := o.unknown(keys); len(unknown) > 0 {
		// The extension refuses an answer with a key it does not read
		// (another agent's {"decision":"deny"} must not pass as {}).
		return piFails(ev, "hookx guard failed closed: unreadable answer: unknown "+strings.Join(unknown, ", "))
	}
	switch b := string(o["block"]); b {
	case "true":
		reason := "blocked by a hook"
		if r := o["reason"]; len(r) > 0 && string(r) != "null" && string(r) != `""` && string(r) != "false" && string(r) != "0" {
			reason = cmp.Or(o.str("reason"), string(r))
		}
		return Verdict{Block: true, Reason: reason}
	case "", "false":
	default:
		return piFails(ev, "hookx guard failed closed: unreadable block: "+truncate(b, 200))
	}
	var v Verdict
	if raw, ok := o["context"]; ok {
		c, isString := o.str("context"), len(raw) > 0 && raw[0] == '"'
		if !isString {
			return piFails(ev, "hookx guard failed closed: unreadable context")
		}
		if c != "" {
			v.Context = []string{c}
		}
	}
	if raw, ok := o["output"]; ok {
		if len(raw) == 0 || raw[0] != '"' {
			return piFails(ev, "hookx guard failed closed: unreadable output")
		}
		v.NewOutput = raw
	}
	if raw, ok := o[f.argsKey]; ok {
		in, err := o.inputObject(f.argsKey)
		if in == nil || err != nil {
			return piFails(ev, "hookx guard failed closed: unreadable "+f.argsKey)
		}
		if ev.Output.RewriteInput {
			v.NewInput = in
		} else {
			fs.add(mappings.None, f.argsKey, "%s cannot take new arguments on %s; ignored (%d bytes)", d.Agent, ev.Name, len(raw))
		}
	}
	return v
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// answer is the plugin's answer for r on ev: always one object, since the
// plugin refuses anything else.
func (f pluginHostFamily) answer(ev *mappings.Event, r rendered) []byte {
	o := newObject()
	replace := ev != nil && ev.Output.ReplaceOutput
	switch {
	case r.replaceOutput && replace:
		// The model gets the reason instead of the tool's result.
		o.set("output", cmp.Or(r.reason, "Blocked by hook"))
	case r.block:
		o.set("block", true)
		o.set("reason", cmp.Or(r.reason, "Blocked by hook"))
	case r.newInput != nil && ev != nil && ev.Output.RewriteInput:
		o.set(f.argsKey, r.newInput)
	}
	if r.newOutput != nil && !r.block && replace {
		// The hook replaced the result (Claude's updatedToolOutput).
		o.set("output", resultText(r.newOutput))
	}
	if len(r.context) > 0 && ev != nil && ev.Output.Context == "model" {
		o.set("context", strings.Join(r.context, "\n\n"))
	}
	return o.bytes()
}

func (f pluginHostFamily) read(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	return f.readPlugin(d, ev, out, fs)
}

// exitBlocks: the extension fails on every non-zero exit, a block where
// the event fails closed.
func (pluginHostFamily) exitBlocks(_ *mappings.Dialect, ev *mappings.Event, exit int) bool {
	return exit != 0 && (ev == nil || ev.Output.BlocksOnFailure())
}

// readWhole: the extension refuses an answer over its own bound (1 MiB),
// and reads nothing but stdout: an answer hookx could not read whole fails.
func (pluginHostFamily) readWhole(_ *mappings.Dialect, ev *mappings.Event, _ Output, _ bool, why string, _ *findings) (Verdict, bool) {
	return piFails(ev, "hookx guard failed closed: "+why), true
}

func (f pluginHostFamily) render(tr *Translator, _ ResultContext, ev *mappings.Event, r rendered, fs *findings) Output {
	if len(r.context) > 0 && (ev == nil || ev.Output.Context != "model") {
		fs.add(mappings.None, "additionalContext", "%s's plugin from hookx has no place for context on %s; not passed on", tr.To.Agent, evName(ev))
	}
	if r.systemMessage != "" {
		fs.add(mappings.None, "systemMessage", "%s's plugin from hookx shows no message from a hook; not passed on", tr.To.Agent)
	}
	if ev == nil || !ev.Output.ReplaceOutput {
		r.newOutputLost(tr.To, fs)
	} else if r.newOutput != nil && !r.block {
		fs.add(mappings.Approximate, "updatedToolOutput", "sent as the tool's result, as text")
	}
	return Output{Stdout: f.answer(ev, r)}
}

func evName(ev *mappings.Event) string {
	if ev == nil {
		return "this event"
	}
	return ev.Name
}

func (f pluginHostFamily) failure(_ *mappings.Dialect, ev *mappings.Event, r rendered, reason string) Output {
	if ev == nil {
		// hookx could not tell the event: refuse.
		r.block, r.reason = true, reason
	}
	return Output{Stdout: f.answer(ev, r)}
}

func (pluginHostFamily) carriesModel() bool { return false }
