package translate

// Output whose stdio stayed open after the hook exited (mappings.HeldOutput).

import (
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

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
