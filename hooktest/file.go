// Package hooktest is hookx test: files of cases that say what a hook must
// make each agent do, run through wrap as each host would run the hook, and
// judged by each host's own reader (package translate).
package hooktest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/tailscale/hujson"
)

// Schema is the JSON Schema of a test file (hookx test --schema).
//
//go:embed schema.json
var Schema []byte

// File is a test file: JSONC, one object with its cases.
type File struct {
	Schema string `json:"$schema,omitempty"`
	Cases  []Case `json:"cases"`
}

// Case is one hook, one event, one expected outcome, on some hosts.
type Case struct {
	Name   string   `json:"name"`
	Hook   Hook     `json:"hook"`
	Event  Event    `json:"event"`
	Expect Expect   `json:"expect"`
	Hosts  []string `json:"hosts,omitempty"`
}

// Hook names the hook under test: a command and the dialect it was written
// for, or a hook of a settings file (by path, event and matcher).
type Hook struct {
	// Command is the hook's command; with Settings, it picks one of
	// several hooks on the same event and matcher.
	Command  string `json:"command,omitempty"`
	Dialect  string `json:"dialect,omitempty"`
	Settings string `json:"settings,omitempty"`
	// Event is the event the hook is registered on, in its dialect;
	// default: its dialect's event for the test's event.
	Event   string  `json:"event,omitempty"`
	Matcher *string `json:"matcher,omitempty"`

	cond    string            // a settings hook's "if" condition (Claude Code)
	timeout *float64          // a settings hook's timeout, in its agent's unit
	env     map[string]string // a settings hook's own variables (its "env")
}

// Event is what happens: a named event with its fields, or an inline
// payload in any dialect.
type Event struct {
	Name    string `json:"name,omitempty"` // shell, write, prompt, stop
	Command string `json:"command,omitempty"`
	Path    string `json:"path,omitempty"`
	Content string `json:"content,omitempty"`
	Prompt  string `json:"prompt,omitempty"`
	Message string `json:"message,omitempty"` // stop: the agent's last message

	Dialect string          `json:"dialect,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// Expect is the outcome the author expects, in the author's terms.
type Expect struct {
	Outcome string         `json:"outcome"`
	Reason  string         `json:"reason,omitempty"`  // deny, ask, continue: a regular expression the reason matches
	Context string         `json:"context,omitempty"` // context: text the added context contains
	Input   map[string]any `json:"input,omitempty"`   // rewrite: the fields of the new tool input
}

// Outcomes are the expected outcomes a case may name.
var Outcomes = []string{"deny", "allow", "ask", "context", "rewrite", "continue"}

// Parse reads a test file (JSONC) and checks what the schema cannot: the
// dialects, the hosts and the patterns. name is for errors.
//
// The file is JSONC as hujson reads it: comments, trailing commas and CRLF
// line ends are accepted, and so is a leading UTF-8 byte order mark (some
// editors write one). Refused, with the line and column: a syntax error,
// a key written twice anywhere (encoding/json would keep the last one
// silently, so a case's second "expect" would hide its first), a key of the
// format in other case than the schema's ("Name": encoding/json would take
// it for "name"), and anything after the top-level object.
func Parse(name string, data []byte, tbl *mappings.Table) (*File, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	v, err := migrate.ParseJSONC(name, data)
	if err != nil {
		return nil, err
	}
	if err := checkKeys(name, data, &v, false); err != nil {
		return nil, err
	}
	v.Standardize() // same length: json's offsets are the file's
	std := v.Pack()
	dec := json.NewDecoder(bytes.NewReader(std))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			line, col := lineCol(data, int(te.Offset))
			return nil, fmt.Errorf("%s:%d:%d: %s is %s, want %s", name, line, col, te.Field, te.Value, te.Type)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var errs []error
	if len(f.Cases) == 0 {
		errs = append(errs, errors.New("no cases"))
	}
	seen := map[string]bool{}
	for i, c := range f.Cases {
		if seen[c.Name] {
			errs = append(errs, fmt.Errorf("case %d: the name %q is taken by an earlier case", i+1, c.Name))
		}
		seen[c.Name] = true
		at := fmt.Sprintf("case %d (%s)", i+1, c.Name)
		bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(at+": "+format, a...)) }
		if c.Name == "" {
			bad("needs a name")
		}
		switch h := c.Hook; {
		case h.Settings != "" && h.Event == "":
			bad("hook: a settings hook needs its event")
		case h.Settings == "" && h.Command == "":
			bad("hook: needs command (and dialect) or settings")
		case h.Command != "" && h.Settings == "" && h.Dialect == "":
			bad("hook: command needs the dialect it was written for")
		}
		if c.Hook.Dialect != "" {
			if _, err := tbl.Dialect(c.Hook.Dialect); err != nil {
				bad("hook.dialect: %v", err)
			}
		}
		switch e := c.Event; {
		case e.Name != "" && e.Payload != nil:
			bad("event: give name or payload, not both")
		case e.Payload != nil && e.Dialect == "":
			bad("event: an inline payload needs its dialect")
		case e.Payload == nil && !slices.Contains(eventNames(), e.Name):
			bad("event.name: %q is none of %v", e.Name, eventNames())
		}
		if e := c.Event; e.Dialect != "" {
			if _, err := tbl.Dialect(e.Dialect); err != nil {
				bad("event.dialect: %v", err)
			}
		}
		for _, h := range c.Hosts {
			if _, err := tbl.Dialect(h); err != nil {
				bad("hosts: %v", err)
			}
		}
		if !slices.Contains(Outcomes, c.Expect.Outcome) {
			bad("expect.outcome: %q is none of %v", c.Expect.Outcome, Outcomes)
		}
		if _, err := regexp.Compile(c.Expect.Reason); err != nil {
			bad("expect.reason: %v", err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &f, nil
}

// keys are the keys of the format outside payloads and inputs (which are
// the author's JSON, not the format's).
var keys = map[string]string{}

func init() {
	for _, t := range []reflect.Type{reflect.TypeFor[File](), reflect.TypeFor[Case](), reflect.TypeFor[Hook](), reflect.TypeFor[Event](), reflect.TypeFor[Expect]()} {
		for f := range t.Fields() {
			if k, _, _ := strings.Cut(f.Tag.Get("json"), ","); k != "" {
				keys[foldKey(k)] = k
			}
		}
	}
}

// checkKeys refuses every key written twice in an object of v (as
// encoding/json matches keys: case-insensitively) and, outside the
// author's own JSON (free), a key of the format in other case.
func checkKeys(name string, data []byte, v *hujson.Value, free bool) error {
	at := func(off int, format string, a ...any) error {
		line, col := lineCol(data, off)
		return fmt.Errorf("%s:%d:%d: %s", name, line, col, fmt.Sprintf(format, a...))
	}
	var errs []error
	switch c := v.Value.(type) {
	case *hujson.Object:
		seen := map[string]int{} // folded key → offset of its first use
		for i := range c.Members {
			m := &c.Members[i]
			k := m.Name.Value.(hujson.Literal).String()
			folded := foldKey(k)
			if first, ok := seen[folded]; ok {
				line, _ := lineCol(data, first)
				errs = append(errs, at(m.Name.StartOffset, "the key %q is written again (first at line %d); one of them would be ignored", k, line))
			} else {
				seen[folded] = m.Name.StartOffset
			}
			if want, ok := keys[folded]; ok && !free && want != k {
				errs = append(errs, at(m.Name.StartOffset, "the key %q is %q (keys are case-sensitive)", k, want))
			}
			errs = append(errs, checkKeys(name, data, &m.Value, free || k == "payload" || k == "input"))
		}
	case *hujson.Array:
		for i := range c.Elements {
			errs = append(errs, checkKeys(name, data, &c.Elements[i], free))
		}
	}
	return errors.Join(errs...)
}

// foldKey is k folded as encoding/json matches keys (Unicode simple case
// folding, bytes.EqualFold): each rune is the least of its folding orbit,
// so "ſ" (U+017F) is "s" and the Kelvin sign "K" is "k", which
// strings.ToLower keeps apart ("deciſion" set "decision").
func foldKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

func lineCol(b []byte, off int) (line, col int) {
	off = min(max(off, 0), len(b))
	line = 1 + bytes.Count(b[:off], []byte("\n"))
	col = 1 + off - (bytes.LastIndexByte(b[:off], '\n') + 1)
	return line, col
}
