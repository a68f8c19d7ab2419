package translate

// Output forms: an agent's own answer, given to its family's reader in the
// family's terms (mappings.Dialect.OutputForm names one).

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

// outputForm puts a hook's JSON answer, written for d's agent, into the
// terms of d's protocol family, keeping only what the agent reads. ignored
// names a deny or a stop the hook wrote that the agent does not act on
// ("" when none).
type outputForm func(d *mappings.Dialect, ev *mappings.Event, o fields, fs *findings) (out fields, ignored string)

// outputForms are the named output forms.
var outputForms = map[string]outputForm{
	"crush": crushForm,
}

// outputTrims are how the agents of named output forms trim a hook's
// stdout and stderr before reading them, where it is not JavaScript's
// trim (trimJS): Crush, in Go, trims with strings.TrimSpace
// (internal/hooks/input.go, parseStdout), which strips U+0085 and keeps
// U+FEFF, where JavaScript does the reverse; a deny wrapped in U+0085
// blocks in Crush.
var outputTrims = map[string]func([]byte) string{
	"crush": func(b []byte) string { return strings.TrimSpace(decodeJS(b)) },
}

// trimFor is d's agent's trim of a hook's output.
func trimFor(d *mappings.Dialect) func([]byte) string {
	if t := outputTrims[d.OutputForm]; t != nil {
		return t
	}
	return trimJS
}

// crushForm reads an answer as Crush does (internal/hooks/input.go:78-211
// at charmbracelet/crush@37f36e93), in Claude Code's terms. With a
// hookSpecificOutput member, that alone is read (Claude Code's form, with
// no hookEventName check); otherwise Crush's own envelope {decision,
// reason, halt, context, updated_input}, whose decision is allow or deny in
// any case: "block" and "approve" are no decision. encoding/json matches
// the envelope's keys in any case, and one member of the wrong type voids
// the whole answer.
func crushForm(d *mappings.Dialect, ev *mappings.Event, o fields, fs *findings) (fields, string) {
	if _, ok := o["hookSpecificOutput"]; ok {
		return crushClaudeForm(d, ev, o, fs)
	}
	type member struct {
		key  string
		kind byte // 's' string, 'b' boolean, 'n' number, 0 anything
	}
	got := map[string]json.RawMessage{}
	for _, m := range []member{{"version", 'n'}, {"decision", 's'}, {"halt", 'b'}, {"reason", 's'}, {"context", 0}, {"updated_input", 0}} {
		raw, ok := foldKey(o, m.key)
		if m.key == "decision" || m.key == "halt" {
			raw, ok = foldStrictest(o, m.key, raw, ok)
		}
		if !ok || string(raw) == "null" {
			continue
		}
		if m.kind != 0 && !isKind(raw, m.kind) {
			fs.add(mappings.None, m.key, "is not a %s; %s discards the whole answer", kindName(m.kind), d.Agent)
			return fields{}, crushVoided(o)
		}
		got[m.key] = raw
	}
	for _, k := range o.unknown(nil) {
		if slices.ContainsFunc([]string{"version", "decision", "halt", "reason", "context", "updated_input"}, func(n string) bool { return strings.EqualFold(n, k) }) {
			continue // read above, its case folded
		}
		fs.add(mappings.None, "output key "+k, "not read by %s; ignored as %s would", d.Agent, d.Agent)
	}
	out := fields{}
	hs := map[string]any{"hookEventName": ev.Name}
	var ignored string
	reason := fields(got).str("reason")
	switch dec := strings.ToLower(fields(got).str("decision")); dec {
	case "":
	case "deny":
		hs["permissionDecision"], hs["permissionDecisionReason"] = "deny", reason
	case "allow":
		hs["permissionDecision"] = "allow"
	default:
		fs.add(mappings.None, fmt.Sprintf("decision %q", fields(got).str("decision")), "%s reads only allow or deny; no decision", d.Agent)
		if dec == "block" || dec == "ask" {
			ignored = fmt.Sprintf(`decision %q is no decision to %s (only allow or deny)`, fields(got).str("decision"), d.Agent)
		}
	}
	if string(got["halt"]) == "true" {
		// A halt refuses the call and ends the turn (hooked_tool.go:62-73).
		hs["permissionDecision"], hs["permissionDecisionReason"] = "deny", reason
		out["continue"], out["stopReason"] = json.RawMessage("false"), rawJSON(reason)
		ignored = ""
	}
	if c := crushContext(got["context"]); c != "" {
		hs["additionalContext"] = c
	}
	if raw := got["updated_input"]; raw != nil {
		if raw[0] == '"' {
			var s string
			_ = json.Unmarshal(raw, &s)
			raw = json.RawMessage(s)
		}
		if len(raw) > 0 && raw[0] == '{' && json.Valid(raw) {
			hs["updatedInput"] = raw
		} else {
			fs.add(mappings.None, "updated_input", "is not a JSON object; %s ignores it", d.Agent)
		}
	}
	if hs["permissionDecision"] == "deny" {
		ignored = ""
	}
	if len(hs) > 1 {
		out["hookSpecificOutput"] = rawJSON(hs)
	}
	return out, ignored
}

// crushClaudeForm reads hookSpecificOutput as Crush does
// (parseClaudeCodeOutput, input.go:157-182): permissionDecision allow or
// deny in any case, its reason, updatedInput and additionalContext; nothing
// else of the answer.
func crushClaudeForm(d *mappings.Dialect, ev *mappings.Event, o fields, fs *findings) (fields, string) {
	var ignored string
	for _, k := range o.unknown(keySet("hookSpecificOutput")) {
		fs.add(mappings.None, "output key "+k, "not read by %s beside hookSpecificOutput; ignored as %s would", d.Agent, d.Agent)
		if dec := strings.ToLower(o.str(k)); strings.EqualFold(k, "decision") && (dec == "deny" || dec == "block") || strings.EqualFold(k, "halt") && o.isTrue(k) {
			ignored = fmt.Sprintf("%s is not read by %s beside hookSpecificOutput", k, d.Agent)
		}
	}
	hs := o.object("hookSpecificOutput")
	if hs == nil {
		if raw := o["hookSpecificOutput"]; string(raw) != "null" {
			fs.add(mappings.None, "hookSpecificOutput", "is not an object; %s reads no decision", d.Agent)
		}
		return fields{}, ignored
	}
	for _, k := range []string{"permissionDecision", "permissionDecisionReason", "additionalContext"} {
		if raw, ok := foldKey(hs, k); ok && string(raw) != "null" && !isKind(raw, 's') {
			fs.add(mappings.None, "hookSpecificOutput."+k, "is not a string; %s discards the whole answer", d.Agent)
			if strings.EqualFold(hs.str("permissionDecision"), "deny") {
				ignored = fmt.Sprintf("hookSpecificOutput.%s is not a string, and %s discards the deny with it", k, d.Agent)
			}
			return fields{}, ignored
		}
	}
	out := map[string]any{"hookEventName": ev.Name}
	pdRaw, ok := foldKey(hs, "permissionDecision")
	pdRaw, _ = foldStrictest(hs, "permissionDecision", pdRaw, ok)
	switch pd := strings.ToLower(fields{"v": pdRaw}.str("v")); pd {
	case "":
	case "allow", "deny":
		out["permissionDecision"] = pd
		if raw, ok := foldKey(hs, "permissionDecisionReason"); ok {
			out["permissionDecisionReason"] = raw
		}
	default:
		fs.add(mappings.None, fmt.Sprintf("permissionDecision %q", pd), "%s reads only allow or deny; no decision", d.Agent)
	}
	if raw, ok := foldKey(hs, "additionalContext"); ok && string(raw) != "null" {
		out["additionalContext"] = raw
	}
	if raw, ok := foldKey(hs, "updatedInput"); ok && string(raw) != "null" {
		if raw[0] == '{' {
			out["updatedInput"] = raw
		} else {
			fs.add(mappings.None, "hookSpecificOutput.updatedInput", "is not a JSON object; %s ignores it", d.Agent)
		}
	}
	if out["permissionDecision"] == "deny" {
		ignored = ""
	}
	return fields{"hookSpecificOutput": rawJSON(out)}, ignored
}

// crushVoided is the ignored deny of an answer Crush discards whole.
func crushVoided(o fields) string {
	for k := range o {
		if dec := strings.ToLower(o.str(k)); strings.EqualFold(k, "decision") && dec == "deny" || strings.EqualFold(k, "halt") && o.isTrue(k) {
			return "a member of the wrong type voids the whole answer, its " + k + " with it"
		}
	}
	return ""
}

// crushContext is Crush's context: a string, or the non-empty strings of
// an array, one a line (parseContext, input.go:126-155).
func crushContext(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var items []string
	if json.Unmarshal(raw, &items) != nil {
		return ""
	}
	return strings.Join(slices.DeleteFunc(items, func(s string) bool { return s == "" }), "\n")
}

// foldKey finds key in o as encoding/json does for a struct field: the
// exact name first, else any name equal under case folding.
func foldKey(o fields, key string) (json.RawMessage, bool) {
	if raw, ok := o[key]; ok {
		return raw, true
	}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range o {
			if !yield(k) {
				return
			}
		}
	}) {
		if strings.EqualFold(k, key) {
			return o[k], true
		}
	}
	return nil, false
}

// foldStrictest is, where o has key in several cases, the one that denies
// or halts if any does. encoding/json gives the field the last of them in
// the text, which a parsed object no longer tells: a deny is never lost.
func foldStrictest(o fields, key string, raw json.RawMessage, ok bool) (json.RawMessage, bool) {
	for k, v := range o {
		if !strings.EqualFold(k, key) {
			continue
		}
		if s := strings.ToLower(fields{"v": v}.str("v")); isKind(v, 's') && s == "deny" || string(v) == "true" {
			return v, true
		}
	}
	return raw, ok
}

// isKind reports whether raw is a JSON value of kind: 's' a string,
// 'b' a boolean, 'n' a number.
func isKind(raw json.RawMessage, kind byte) bool {
	if len(raw) == 0 {
		return false
	}
	switch kind {
	case 's':
		return raw[0] == '"'
	case 'b':
		return string(raw) == "true" || string(raw) == "false"
	case 'n':
		return raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'
	}
	return true
}

func kindName(kind byte) string {
	return map[byte]string{'s': "string", 'b': "boolean", 'n': "number"}[kind]
}

func rawJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
