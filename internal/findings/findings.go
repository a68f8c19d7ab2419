// Package findings is the one JSON shape of what hookx's commands find
// (migrate --json, doctor --json, test --json): a Document with a
// schemaVersion, the tool and command, the findings in a list that is
// never null, and each command's own extras under a field named after the
// command. A Finding names the same things with the same names whatever the
// command: file, line, column, agent, event, matcher, command, ruleId,
// severity, problem, fix.
//
// The JSON Schema of the Document is Schema (findings.schema.json in this
// directory, embedded; docs/findings.schema.json is a copy a test keeps
// equal). A change that a consumer could notice (a field renamed, removed,
// made optional, or a value's meaning changed) raises SchemaVersion; a new
// optional field does not.
//
// The findingstest package validates
// output against the schema in tests.
package findings

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"

	"github.com/hookx-dev/hookx/internal/printable"
)

// SchemaVersion is the version of the document's shape, in every
// document's schemaVersion.
const SchemaVersion = 1

// Tool is every document's tool.
const Tool = "hookx"

// Schema is the JSON Schema (draft 2020-12) of a Document.
//
//go:embed findings.schema.json
var Schema []byte

// SchemaID is Schema's $id.
const SchemaID = "https://github.com/hookx-dev/hookx/docs/findings.schema.json"

// Severity says how bad a finding is: the same three levels as SARIF's
// error, warning and note.
type Severity string

// The severities, from worst to mildest.
const (
	// Error: the hook will not do what its author meant (doctor: it never
	// fires, fails open, or its file is rejected; migrate: not carried or
	// weakened, which --strict refuses; test: a case fails).
	Error Severity = "error"
	// Warning: it works, but not as its author probably meant.
	Warning Severity = "warning"
	// Note: for information.
	Note Severity = "note"
)

// Finding is one thing a command found about one hook, one settings file,
// or the run as a whole. RuleID, Severity and Problem are always set; the
// other fields are omitted when the finding is not about such a thing (a
// finding about a whole file has no line; one about the run has no file).
type Finding struct {
	// RuleID names the kind of finding: doctor's rule ids (HX201),
	// migrate's levels (not-carried, weakened, approximate, warning,
	// note), test's case outcome.
	RuleID   string   `json:"ruleId"`
	Severity Severity `json:"severity"`
	// Problem says what is wrong and why ("what; why").
	Problem string `json:"problem"`
	// Fix says what to do about it.
	Fix string `json:"fix,omitempty"`

	// File is the settings file as shown to the user (relative to the
	// project, or ~/ for the user's home).
	File string `json:"file,omitempty"`
	// Line and Column are 1-based; Column counts bytes. 0 (omitted): the
	// file as a whole, or the line only.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`

	// Agent is the dialect (mappings name: claude, gemini, ...) the hook
	// was written for, whose file File is.
	Agent string `json:"agent,omitempty"`
	// Host is the dialect that would run the hook when it is not Agent:
	// migrate's target, test's host.
	Host    string `json:"host,omitempty"`
	Event   string `json:"event,omitempty"` // in Agent's names
	Matcher string `json:"matcher,omitempty"`
	Command string `json:"command,omitempty"`
	// Guard says the hook's block stops something (a pre-tool or prompt
	// hook, or a post-tool hook whose block hides the tool's result).
	Guard bool `json:"guard,omitempty"`
	// Silenced says what silences the finding (doctor: "--ignore HX201",
	// or a hookx-ignore comment and its reason); omitted when nothing does.
	Silenced string `json:"silenced,omitempty"`
}

// String renders a finding for people, in the style of go vet:
// "file:line:column: severity RULE: problem; fix", printable whatever the
// settings hold.
func (f Finding) String() string {
	pos := f.File
	if f.Line > 0 {
		pos = fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)
	}
	s := fmt.Sprintf("%s: %s %s: %s", pos, f.Severity, f.RuleID, f.Problem)
	if f.Fix != "" {
		s += "; " + f.Fix
	}
	return printable.String(s)
}

// Document is the --json output of a command. Exactly one of Migrate,
// Doctor and Test is set: the one named by Command.
type Document struct {
	SchemaVersion int    `json:"schemaVersion"`
	Tool          string `json:"tool"`
	// Command is the hookx command that wrote the document: migrate,
	// doctor or test.
	Command  string    `json:"command"`
	Findings []Finding `json:"findings"`
	Migrate  any       `json:"migrate,omitempty"`
	Doctor   any       `json:"doctor,omitempty"`
	Test     any       `json:"test,omitempty"`
}

// New returns the document of command with findings fs (nil: none).
func New(command string, fs []Finding) *Document {
	if fs == nil {
		fs = []Finding{}
	}
	return &Document{SchemaVersion: SchemaVersion, Tool: Tool, Command: command, Findings: fs}
}

// Write writes d as indented JSON (HTML characters unescaped) and a
// newline. Findings is written as [] when nil.
func (d *Document) Write(w io.Writer) error {
	if d.Findings == nil {
		d.Findings = []Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

// Count returns how many of fs have severity s.
func Count(fs []Finding, s Severity) int {
	n := 0
	for _, f := range fs {
		if f.Severity == s {
			n++
		}
	}
	return n
}
