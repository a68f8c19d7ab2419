package migrate

import (
	"strconv"
	"strings"

	"github.com/hookx-dev/hookx/internal/findings"
)

// severities maps the levels of the report to the findings schema's
// severities: error is what --strict refuses.
var severities = map[Level]findings.Severity{
	NotCarried:  findings.Error,
	Weakened:    findings.Error,
	Approximate: findings.Warning,
	Warning:     findings.Warning,
	Note:        findings.Note,
}

// Findings returns the report's items as findings of the one schema
// (internal/findings): the level is the rule id, "what; why" the problem,
// the item's file:line the file and line, the source's dialect the agent
// (the target's for an item about the target file) and the target's the
// host. Never nil.
func (r *Result) Findings() []findings.Finding {
	fs := make([]findings.Finding, 0, len(r.Items))
	for _, it := range r.Items {
		file, line := splitWhere(it.Source)
		f := findings.Finding{
			RuleID: string(it.Level), Severity: severities[it.Level], Problem: it.What, Fix: it.Fix,
			File: file, Line: line, Host: r.toName,
			Event: it.Event, Matcher: it.Matcher, Command: it.Command, Guard: it.Guard,
		}
		if it.Reason != "" {
			f.Problem += "; " + it.Reason
		}
		if file != "" {
			f.Agent = r.fromName
			if file == r.Target {
				f.Agent = r.toName
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// splitWhere splits an item's or entry's "file:line" (or "file") into the
// file and the line (0: none). The files hookx reads have fixed names
// (settings.json, hooks.json, ...), so a trailing ":digits" is a line.
func splitWhere(where string) (string, int) {
	i := strings.LastIndexByte(where, ':')
	if i <= 0 {
		return where, 0
	}
	n, err := strconv.Atoi(where[i+1:])
	if err != nil || n <= 0 || strings.ContainsAny(where[i+1:], "+-") {
		return where, 0
	}
	return where[:i], n
}

// TargetJSON is one target of migrate --json (the document's
// migrate.targets); the report's items are the document's findings.
type TargetJSON struct {
	From       string       `json:"from"` // the dialects' names
	To         string       `json:"to"`
	Sources    []SourceJSON `json:"sources"`
	Target     string       `json:"target"`
	RealTarget string       `json:"realTarget,omitempty"`
	Created    bool         `json:"created"`
	Wrapped    bool         `json:"wrapped"`
	Entries    []EntryJSON  `json:"entries"`
	Removed    []string     `json:"removed"`
	Changed    bool         `json:"changed"`
	Written    bool         `json:"written"`
	Diff       string       `json:"diff"`
}

// SourceJSON is one source read.
type SourceJSON struct {
	File     string `json:"file"`
	Scope    string `json:"scope"`
	Handlers int    `json:"handlers"`
}

// EntryJSON is one entry hookx owns in the target.
type EntryJSON struct {
	ID          string  `json:"id"`
	Event       string  `json:"event"` // the target's
	File        string  `json:"file"`  // of the source hook
	Line        int     `json:"line,omitempty"`
	Agent       string  `json:"agent"`       // the source's dialect
	SourceEvent string  `json:"sourceEvent"` // in Agent's names
	Matcher     *string `json:"matcher,omitempty"`
	Command     string  `json:"command"`
	Timeout     int64   `json:"timeout"`
	Change      string  `json:"change"`
}

// JSON returns r as a target of migrate --json; lists are [] when empty.
func (r *Result) JSON(written bool, diff string) TargetJSON {
	t := TargetJSON{
		From: r.fromName, To: r.toName, Target: r.Target, RealTarget: r.RealTarget,
		Created: r.Created, Wrapped: r.Wrapped, Changed: r.Changed(), Written: written, Diff: diff,
		Sources: []SourceJSON{}, Entries: []EntryJSON{}, Removed: append([]string{}, r.Removed...),
	}
	for _, s := range r.Sources {
		t.Sources = append(t.Sources, SourceJSON{File: s.Path, Scope: s.Scope, Handlers: s.Handlers})
	}
	for _, e := range r.Entries {
		file, line := splitWhere(e.Source)
		t.Entries = append(t.Entries, EntryJSON{ID: e.ID, Event: e.Event, File: file, Line: line, Agent: r.fromName,
			SourceEvent: e.SourceEvent, Matcher: e.Matcher, Command: e.Command, Timeout: e.Timeout, Change: e.Change})
	}
	return t
}
