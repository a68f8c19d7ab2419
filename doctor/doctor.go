// Package doctor finds the hooks of a project that will never fire, will fail
// open, or whose settings file the agent rejects. It reads every settings
// file of every dialect in the mapping table with the rules of the agent
// that loads it, checks each hook against the table (event and tool names,
// matcher kinds, timeout units, environment, output contracts), and with
// Probe runs each pre-tool guard against canned events of its own agent.
//
// It has no CLI dependencies: Check takes options and returns findings.
package doctor

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/hookx-dev/hookx/internal/findings"
	"github.com/hookx-dev/hookx/mappings"
)

// Severity says how bad a finding is.
type Severity = findings.Severity

// The severities, from worst to mildest.
const (
	// Error: the hook will never fire, will fail open, or the agent rejects
	// the file.
	Error = findings.Error
	// Warning: the hook fires, but not as its author probably meant.
	Warning = findings.Warning
	// Note: for information.
	Note = findings.Note
)

// Finding is one problem with one hook or settings file: RuleID is the id
// of its rule (HX201; Rules lists them), Problem says "what; why", and
// Silenced what silences it (--ignore HX201, or a hookx-ignore comment and
// its reason; "" when nothing does).
type Finding = findings.Finding

// Options configure Check.
type Options struct {
	Table *mappings.Table // nil: mappings.Default()
	// Dir is the project directory; "" is the current directory.
	Dir string
	// Home is the user's home directory, for the user settings (with User)
	// and for what the agents keep there (Gemini's trusted folders, the
	// settings that switch hooks off). Empty: no home is read.
	Home string
	// User also checks the hooks of the user settings files.
	User bool
	// Probe runs each pre-tool hook against canned events of its agent.
	Probe bool
	// ProbeExec confines each probed hook: the program and first
	// arguments of a helper that takes confine.Args (hookx probe-exec).
	// With Probe and no ProbeExec, Check refuses unless ProbeUnconfined.
	ProbeExec []string
	// ProbeUnconfined lets Probe run hooks with no confinement (but still
	// with a throwaway HOME and a minimal environment).
	ProbeUnconfined bool
	// ProbeWrap is how to run hookx wrap, which runs each probed hook as
	// its agent would (package hookrun, hookx test's runner): the program
	// and its first arguments. Nil: this executable's "wrap".
	ProbeWrap []string
	// Getenv reads the environment the agents start in; nil: os.Getenv.
	Getenv func(string) string
	// Ignore lists the rules (ids or names) whose findings are silenced:
	// Check still returns them, with Silenced set.
	Ignore []string
	// NoInlineIgnore disregards the hookx-ignore comments of the settings
	// files: for CI on changes from people the project does not trust,
	// where a comment in the change could silence what the change breaks.
	NoInlineIgnore bool
	// HookxVersion is this hookx's version, which what hookx migrate
	// generates is stamped with (Cline's dispatchers, Pi's extension);
	// "": dispatchers' stamps are not compared.
	HookxVersion string
}

func (o *Options) getenv(k string) string {
	if o.Getenv == nil {
		return os.Getenv(k)
	}
	return o.Getenv(k)
}

// lookPath finds a program on the PATH the agent's hooks get, which is the
// PATH the agent starts with.
func (o *Options) lookPath(name string) (string, error) {
	path := o.getenv("PATH")
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// Check reads the settings files of every dialect in the project (and the
// user's, with opts.User) and returns the findings, sorted by file and
// position; never nil. It reads files only, except with opts.Probe, which
// runs pre-tool hooks in a temporary copy of the project. The error is set
// only when the project directory cannot be read at all.
func Check(opts Options) ([]Finding, error) {
	if opts.Table == nil {
		opts.Table = mappings.Default()
	}
	if opts.Dir == "" {
		opts.Dir = "."
	}
	if fi, err := os.Stat(opts.Dir); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", opts.Dir)
	}
	if opts.Probe && opts.ProbeExec == nil && !opts.ProbeUnconfined {
		return nil, ErrUnconfined
	}
	ignore := make([]string, 0, len(opts.Ignore))
	for _, id := range opts.Ignore {
		r, ok := LookupRule(id)
		if !ok {
			return nil, fmt.Errorf("%s: no such rule (hookx doctor --rules lists them)", id)
		}
		ignore = append(ignore, r.ID)
	}
	opts.Ignore = ignore
	c := &checker{opts: opts, tbl: opts.Table}
	c.run()
	c.silenceFindings()
	fs := c.findings
	if fs == nil {
		fs = []Finding{}
	}
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	return fs, nil
}

// Count returns how many findings have severity s.
func Count(fs []Finding, s Severity) int {
	n := 0
	for _, f := range fs {
		if f.Severity == s {
			n++
		}
	}
	return n
}

type checker struct {
	opts     Options
	found    map[string]error // lookPath results, by program name
	tbl      *mappings.Table
	files    []*file
	findings []Finding
	origin   []*file // the file of each finding, by index (nil: none)
}

// lookPath is opts.lookPath, remembered: many hooks name the same program.
func (c *checker) lookPath(name string) error {
	if err, ok := c.found[name]; ok {
		return err
	}
	if c.found == nil {
		c.found = map[string]error{}
	}
	_, err := c.opts.lookPath(name)
	c.found[name] = err
	return err
}

func (c *checker) run() {
	c.files = c.readFiles()
	for _, f := range c.files {
		c.checkFile(f)
	}
	c.checkSwitches()
	c.checkTrust()
	c.checkPluginHosts()
	c.checkHookxEntries()
	c.checkHookFiles()
	if c.opts.Probe {
		c.probeAll()
	}
}

// add records a finding of rule r about a hook.
func (c *checker) add(h *hook, off int, r *Rule, problem, fix string) {
	f := Finding{RuleID: r.ID, Severity: r.Severity, Problem: problem, Fix: fix}
	if h != nil {
		f.File, f.Agent, f.Event, f.Command = h.f.shown, h.f.d.Name, h.event, h.command
		if h.matcher != nil {
			f.Matcher = *h.matcher
		}
		f.Line, f.Column = h.f.lineCol(off)
	}
	c.findings = append(c.findings, f)
	var of *file
	if h != nil {
		of = h.f
	}
	c.origin = append(c.origin, of)
}

// addFile records a finding of rule r about a file, at the byte offset off
// (-1: the file as a whole).
func (c *checker) addFile(f *file, off int, r *Rule, problem, fix string) {
	c.addFileAt(f, r, 0, 0, problem, fix)
	if off >= 0 {
		fd := &c.findings[len(c.findings)-1]
		fd.Line, fd.Column = f.lineCol(off)
	}
}

// addFileAt records a finding of rule r about a file at a line and column
// (0: the file as a whole).
func (c *checker) addFileAt(f *file, r *Rule, line, col int, problem, fix string) {
	c.findings = append(c.findings, Finding{RuleID: r.ID, Severity: r.Severity, File: f.shown, Agent: f.d.Name, Line: line, Column: col, Problem: problem, Fix: fix})
	c.origin = append(c.origin, f)
}

func didYouMean(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("did you mean %q?", s)
}
