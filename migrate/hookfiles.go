package migrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate/clinehooks"
	"github.com/tailscale/hujson"
	"mvdan.cc/sh/v3/syntax"
)

// HookFile is one dispatcher hookx writes for an agent that runs one
// executable file per event (Cline): Name beside the entries file, what it
// holds now (Before, nil: missing) and what hookx writes (After).
type HookFile struct {
	Event, Name   string
	Path, Shown   string // set by the caller: where it is, and as shown
	Before, After []byte
}

// HookFiles lists the dispatchers a planned migration into d (whose
// Settings.HookFiles is set) needs beside res's target: one per event
// the entries file holds entries for, with only those to create or
// update. A file of that name that hookx did not write (no
// clinehooks.Marker) is the user's own: it is left alone and res gets an
// item saying so, and how to run the migrated hooks from it. hookx is how
// the dispatcher calls hookx (quoted for sh), version stamps it;
// anyHookx: a dispatcher that differs only in how it calls hookx, or in
// the hookx version that wrote it, is current (--check on another
// machine).
func HookFiles(d *mappings.Dialect, res *Result, hookx, version string, anyHookx bool) ([]HookFile, error) {
	after := res.After
	if after == nil {
		after = res.Before
	}
	events, err := entryEvents(d, after)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", res.Target, err)
	}
	if !res.Wrapped {
		// With no hookx wrap --match, nothing applies the hook's matcher:
		// the dispatcher runs every entry of the event for every tool.
		for _, e := range res.Entries {
			if e.Matcher != nil && *e.Matcher != "" && *e.Matcher != "*" {
				res.Items = append(res.Items, Item{Level: Approximate, Source: e.Source, Event: e.Event, Matcher: *e.Matcher, Command: e.Command,
					What: "matcher " + strconv.Quote(*e.Matcher), Reason: d.Agent + " has no matcher, and copied as it is (--no-wrap) no hookx wrap --match applies it: the hook runs for every tool",
					Fix: "run without --no-wrap"})
			}
		}
	}
	dir := filepath.Dir(res.RealTarget)
	var out []HookFile
	for _, ev := range events {
		e := d.Event(ev)
		guard := e != nil && e.Output.BlocksOnFailure()
		hf := HookFile{Event: ev, Name: ev, After: clinehooks.Render(hookx, version, ev, guard)}
		old, err := safefile.ReadRegular(filepath.Join(dir, ev), MaxFileSize)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			hf.Before = old
		}
		switch {
		case hf.Before == nil:
		case !clinehooks.Owned(hf.Before):
			it := Item{Level: NotCarried, Guard: guard, Source: filepath.Join(filepath.Dir(res.Target), ev), Event: ev,
				What:   fmt.Sprintf("%s hooks not run: %s is your own file", ev, filepath.Join(filepath.Dir(res.Target), ev)),
				Reason: fmt.Sprintf("hookx writes its %s dispatcher there and never replaces a file it did not write; %s runs yours, not the entries of %s", ev, d.Agent, clinehooks.DataFile),
				Fix: fmt.Sprintf("rename your file (to write yours as a hook of the source agent, or to run it from elsewhere) and migrate again; or, in your file, run the migrated hooks first with the same stdin, `hookx dispatch --host %s --event %s -- \"$0\"`, and print its answer and stop when it prints one",
					d.Name, ev)}
			res.Items = append(res.Items, it)
			continue
		case string(hf.Before) == string(hf.After):
			continue
		case anyHookx && DispatcherCurrent(hf.Before, ev, guard):
			continue
		}
		out = append(out, hf)
	}
	return out, nil
}

// DispatcherCurrent reports whether a dispatcher is what
// clinehooks.Render writes for event, but for how it calls hookx, the
// hookx version it is stamped with, and CRLF line endings throughout.
func DispatcherCurrent(script []byte, event string, guard bool) bool {
	script = clinehooks.LF(script) // checked out with CRLF, it does the same
	_, v, ok := clinehooks.Stamp(script)
	if !ok {
		return false
	}
	for _, line := range strings.Split(string(script), "\n") {
		if h, _, ok := strings.Cut(line, " dispatch --host "); ok && !strings.HasPrefix(line, "#") {
			return hookxWord(h) && string(script) == string(clinehooks.Render(h, v, event, guard))
		}
	}
	return false
}

// hookxWord reports whether h is how migrate calls hookx in a dispatcher:
// hookx, or an absolute path to a program named for hookx (hookx,
// hookx-0.1.0, …), as HostQuote writes it (one shell word, no expansion).
// Any other text there is a command hookx did not write, which the
// dispatcher would run before hookx (or instead of it): /bin/sh would run
// a file named dispatch from the project.
func hookxWord(h string) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader(h), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 1 || len(call.Assigns) != 0 || len(f.Stmts[0].Redirs) != 0 {
		return false
	}
	for _, p := range call.Args[0].Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		default:
			return false
		}
	}
	v, err := wordValue(call.Args[0])
	return err == nil && HostQuote(v) == h && (v == "hookx" || filepath.IsAbs(v) && strings.Contains(strings.ToLower(filepath.Base(v)), "hookx") && !relativeAbs(v))
}

// relativeAbs reports whether an absolute path is one no hookx is
// installed as, which may still name a file of the project: one that is
// not clean (/usr/bin/../../proc/self/cwd/hookx), or one under /proc or
// /dev, whose /proc/self/cwd/… and /dev/fd/… are relative to the process
// that runs it (the dispatcher runs in the project).
func relativeAbs(v string) bool {
	if path.Clean(v) != v {
		return true
	}
	for _, dir := range []string{"/proc/", "/dev/"} {
		if strings.HasPrefix(v, dir) {
			return true
		}
	}
	return false
}

// HookFileEvents are the events of d's entries file data that hold at
// least one entry: those that need a dispatcher.
func HookFileEvents(d *mappings.Dialect, data []byte) ([]string, error) { return entryEvents(d, data) }

// entryEvents are the events of an entries file (events at the root) that
// hold at least one entry, in the order the table's events come in a
// file: sorted, for stable output.
func entryEvents(d *mappings.Dialect, data []byte) ([]string, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var all map[string]json.RawMessage
	std, err := hujson.Standardize(slices.Clone(data))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(std, &all); err != nil {
		return nil, err
	}
	var evs []string
	for k, v := range all {
		var list []json.RawMessage
		// Only the table's events name a file: a key such as ../x in an
		// edited entries file names none (doctor reports it).
		if d.Event(k) != nil && json.Unmarshal(v, &list) == nil && len(list) > 0 {
			evs = append(evs, k)
		}
	}
	slices.Sort(evs)
	return evs, nil
}
