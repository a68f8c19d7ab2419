package mappings

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ForeignSettings is another dialect's settings files that an agent runs
// hooks from itself, in that dialect's own form, its own way.
type ForeignSettings struct {
	Dialect string   `json:"dialect"`
	Files   []string `json:"files"` // project-relative
	// Events are the source dialect's events the agent fires from them.
	Events []string `json:"events"`
	// Guards are those of Events on which hookx writes its own copy of a
	// hook all the same (it then runs twice): the agent's own reading of
	// the hook fails open where its own agent's would block.
	Guards []string `json:"guards"`
	// Loses are those of Events whose output the agent's own reading drops
	// (event → what is lost): hookx writes its own copy of a hook on them
	// too (it then runs twice), so that what its own agent would deliver
	// is delivered.
	Loses map[string]string `json:"loses"`
	// Differs says how the agent's own reading differs from the dialect's
	// agent's, for the report.
	Differs string `json:"differs"`
	// Twice is what the user can do about the hooks that then run twice
	// (those on Guards and Loses): the fix migrate and doctor recommend,
	// once per file.
	Twice string `json:"twice"`
}

// ReadsNatively returns what the dialect reads itself of the settings of
// dialect from at file (project-relative, slash-separated), or nil.
func (d *Dialect) ReadsNatively(from, file string) *ForeignSettings {
	for i, r := range d.ReadsSettings {
		if r.Dialect != from {
			continue
		}
		for _, f := range r.Files {
			if file == f || strings.HasSuffix(file, "/"+f) {
				return &d.ReadsSettings[i]
			}
		}
	}
	return nil
}

// PayloadShape is the form of an agent's own hook payload where it differs
// from the snake_case form translation works on (hook_event_name,
// session_id, tool_name, tool_input, tool_response).
type PayloadShape struct {
	// Fields renames the agent's payload fields (key) to the names
	// translation uses (value); the rename is undone for the agent's hooks.
	Fields map[string]string `json:"fields"`
	// TimestampMs is set where timestamp is a number of milliseconds.
	TimestampMs bool `json:"timestampMs"`
	// Events tells events apart by the payload fields (in the agent's
	// names) each one has, for a payload that names no event: the event
	// whose fields are all there, and the most of them, is the one.
	Events map[string][]string `json:"events"`
	// Convert names the converter between the agent's payload and the
	// flat one translation reads, where renames cannot say it (Cline's
	// nested tool_call and preToolUse objects, translate/cline.go); the
	// converter then writes the event field too.
	Convert string `json:"convert"`
	// EventField names the payload field that names the event where it is
	// not hook_event_name: Crush's "event", which holds the event's name,
	// and Cline's "hookName", which holds the agent's own word for it,
	// mapped to the dialect's event names by EventNames.
	EventField string            `json:"eventField"`
	EventNames map[string]string `json:"eventNames"`
}

// Own reports whether the payload form is the agent's own (it renames
// fields): the payload then names no event, and the family's code says
// which event it is.
func (p PayloadShape) Own() bool { return len(p.Fields) > 0 || p.EventField != "" || p.Convert != "" }

// NamesNoEvent reports whether the agent's payload names no event (Copilot
// CLI): the event is the one the handler was registered on.
func (p PayloadShape) NamesNoEvent() bool { return p.Own() && p.EventField == "" }

// EventOf is the dialect's event named by the agent's own word for it (a
// value of EventField), or "".
func (p PayloadShape) EventOf(word string) string { return p.EventNames[word] }

// WordOf is the agent's own word for the dialect's event, or "".
func (p PayloadShape) WordOf(event string) string {
	for w, e := range p.EventNames {
		if e == event {
			return w
		}
	}
	return ""
}

// Inverse returns the renames from translation's names to the agent's.
func (p PayloadShape) Inverse() map[string]string {
	out := make(map[string]string, len(p.Fields))
	for k, v := range p.Fields {
		out[v] = k
	}
	return out
}

func (p PayloadShape) validate(dialect string) error {
	var errs []error
	seen := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(p.Fields)) {
		v := p.Fields[k]
		if prev, dup := seen[v]; dup {
			errs = append(errs, fmt.Errorf("%s: payload.fields: %s and %s both rename to %q", dialect, prev, k, v))
		}
		seen[v] = k
		if _, clash := p.Fields[v]; clash && v != k {
			errs = append(errs, fmt.Errorf("%s: payload.fields: %q is both renamed and a rename's target", dialect, v))
		}
	}
	return errors.Join(errs...)
}
