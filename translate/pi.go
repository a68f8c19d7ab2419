package translate

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

// The pi protocol family: the plugin host. Pi (1.6.0) has no command
// hooks; the extension hookx generates (migrate/piplugin, hookx.ts) runs
// hookx on Pi's tool_call event and reads its answer, so the answer is the
// extension's, and this file reads and writes it exactly as hookx.ts does:
//
//   - exit 0 and one JSON object on stdout (JSON.parse of the whole text);
//     anything else — a non-zero exit, a signal, no answer, text, an
//     array — refuses the tool: the extension fails closed;
//   - {"block": true, "reason"}: the tool is refused, the reason (String of
//     it, "blocked by a hook" when empty) is the tool's error result, which
//     the model reads; a block that is neither true nor false refuses too;
//   - {"input": {...}}: the tool runs with these arguments (an input that
//     is not an object refuses);
//   - {}: the tool runs.

// A plugin host's answer: block and reason, and the key that carries new
// arguments (Pi's extension: input; OpenCode's and Kilo's plugin: args,
// translate/opencode.go). The plugins read the same answer otherwise.
type pluginHostFamily struct {
	argsKey string
}

// piFamily is the plugin host's protocol of Pi's extension (hookx.ts).
var piFamily = pluginHostFamily{argsKey: "input"}

// jsonSpace is the white space JSON.parse skips around a value.
const jsonSpace = " \t\n\r"

// readPlugin reads an answer as the plugin of d (hookx.ts, hookx.js) does
// on ev.
func (f pluginHostFamily) readPlugin(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	if out.Signaled || out.ExitCode != 0 {
		why := fmt.Sprintf("hook exited with code %d", out.ExitCode)
		if out.Signaled {
			why = cmp.Or(out.FailReason, "killed by a signal")
		}
		if s := strings.TrimSpace(string(out.Stderr)); s != "" {
			why += ": " + s
		}
		return Verdict{Block: true, Reason: "hookx guard failed closed: " + why}
	}
	text := strings.Trim(string(out.Stdout), jsonSpace)
	obj, ok := singleObject(text)
	if !ok || text != strings.Trim(string(obj), jsonSpace) {
		return Verdict{Block: true, Reason: "hookx guard failed closed: unreadable answer: " + truncate(text, 200)}
	}
	o := parseFields(obj)
	if unknown := o.unknown(keySet("block", "reason", f.argsKey)); len(unknown) > 0 {
		// The plugin refuses an answer with a key it does not read
		// (another agent's {"decision":"deny"} must not pass as {}).
		return Verdict{Block: true, Reason: "hookx guard failed closed: unreadable answer: unknown " + strings.Join(unknown, ", ")}
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
		return Verdict{Block: true, Reason: "hookx guard failed closed: unreadable block: " + truncate(b, 200)}
	}
	var v Verdict
	if raw, ok := o[f.argsKey]; ok {
		in, err := o.inputObject(f.argsKey)
		if in == nil || err != nil {
			return Verdict{Block: true, Reason: "hookx guard failed closed: unreadable " + f.argsKey}
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

// answer is the plugin's answer for r on ev: always one object, since
// the plugin refuses anything else.
func (f pluginHostFamily) answer(ev *mappings.Event, r rendered) []byte {
	o := newObject()
	switch {
	case r.block:
		o.set("block", true)
		o.set("reason", cmp.Or(r.reason, "Blocked by hook"))
	case r.newInput != nil && ev != nil && ev.Output.RewriteInput:
		o.set(f.argsKey, r.newInput)
	}
	return o.bytes()
}

func (f pluginHostFamily) read(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict {
	return f.readPlugin(d, ev, out, fs)
}

// exitBlocks: the plugin refuses the tool on every non-zero exit.
func (pluginHostFamily) exitBlocks(_ *mappings.Dialect, _ *mappings.Event, exit int) bool {
	return exit != 0
}

// readWhole: the plugin refuses an answer over its own bound (1 MiB),
// and reads nothing but stdout: an answer hookx could not read whole is a
// refusal.
func (pluginHostFamily) readWhole(_ *mappings.Dialect, _ *mappings.Event, _ Output, _ bool, why string, _ *findings) (Verdict, bool) {
	return Verdict{Block: true, Reason: "hookx guard failed closed: " + why}, true
}

func (f pluginHostFamily) render(tr *Translator, _ ResultContext, ev *mappings.Event, r rendered, fs *findings) Output {
	if len(r.context) > 0 {
		fs.add(mappings.None, "additionalContext", "%s's %s has no place for context; not passed on", tr.To.Agent, ev.Name)
	}
	if r.systemMessage != "" {
		fs.add(mappings.None, "systemMessage", "%s's plugin from hookx shows no message from a hook; not passed on", tr.To.Agent)
	}
	r.newOutputLost(tr.To, fs)
	return Output{Stdout: f.answer(ev, r)}
}

func (f pluginHostFamily) failure(_ *mappings.Dialect, ev *mappings.Event, r rendered, reason string) Output {
	if ev == nil {
		// hookx could not tell the event: the extension asks on tool
		// calls only, so refuse.
		r.block, r.reason = true, reason
	}
	return Output{Stdout: f.answer(ev, r)}
}

func (pluginHostFamily) carriesModel() bool { return false }
