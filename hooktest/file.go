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
	"regexp"
	"slices"

	"github.com/hookx-dev/hookx/mappings"
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
func Parse(name string, data []byte, tbl *mappings.Table) (*File, error) {
	std, err := hujson.Standardize(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(std))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
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
