// Package migrate moves hook settings from one agent's settings file to
// another's (Claude Code ⇄ Gemini CLI), driven by the mapping table in
// package mappings.
//
// Plan reads the source settings (bytes, JSONC accepted), translates every
// hook it can (events, matchers, timeouts, environment references, handler
// fields), wraps each command in `hookx wrap` unless told not to, and edits
// the target settings in place: only the entries hookx owns are added,
// replaced or removed; every other byte of the target is kept. Everything it
// cannot carry, or carries only approximately, is listed in the Result's
// report. Plan is pure: it reads and returns bytes. WriteFile and
// UnifiedDiff do the rest.
package migrate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
	"github.com/tailscale/hujson"
)

// Level says how much of an item reached the target.
type Level string

// The report levels. NotCarried and Weakened make --strict fail.
const (
	NotCarried  Level = "not-carried" // lost on the target; --strict refuses the run
	Approximate Level = "approximate" // carried with a stated difference
	Warning     Level = "warning"     // carried, but something the user should check
	Note        Level = "note"        // for information
	// Weakened: a guard would become weaker than the target has it (an
	// entry of a source not read removed, a hand-made change undone), or
	// than its own agent has it (a block the target cannot honour, a
	// matcher that misses calls it covered); --strict refuses the run.
	Weakened Level = "weakened"
)

// Item is one line of the report.
type Item struct {
	Level Level `json:"level"`
	// Guard: the item is about a hook whose block guards something (an
	// event whose Output.BlocksOnFailure: a pre-tool or prompt hook, a
	// post-tool hook whose block hides or answers the tool's result). A
	// guard that is NotCarried or Weakened is named in every report, the
	// one-line report of an up-to-date target included, and --strict
	// refuses the run.
	Guard   bool   `json:"guard,omitempty"`
	Source  string `json:"source,omitempty"` // file:line of the hook or file
	Event   string `json:"event,omitempty"`
	Matcher string `json:"matcher,omitempty"`
	Command string `json:"command,omitempty"`
	What    string `json:"what"`
	Reason  string `json:"reason,omitempty"`
	Fix     string `json:"fix,omitempty"`
}

// Source is one settings file to migrate from.
type Source struct {
	Path  string // as shown to the user
	Scope string // "project", "local", "user" or "plugin"
	// Origin names a plugin's or extension's absolute directory, which the
	// ids of the entries made from it record as plugin:<dir>. Empty: the
	// ids record Scope (for a plugin, plugin:<Path>).
	Origin string
	Data   []byte
}

// Options configure Plan.
type Options struct {
	Table    *mappings.Table // nil: mappings.Default()
	From, To string          // dialect names
	// Wrap runs every migrated command through `hookx wrap`, so that the
	// hook keeps its meaning on the new host.
	Wrap bool
	// Project is the project's absolute directory when the target is its
	// project settings ("" for user settings or a plugin), for the
	// target's notices.
	Project string
	// Hookx is how the target host should invoke hookx: "hookx" when it is
	// on PATH, otherwise an absolute path.
	Hookx string
	// Margin is added to a wrapped hook's own timeout, in seconds, for
	// hookx's own work. Zero means 5.
	Margin float64
	// AnyHookxPath counts an existing entry that differs only in how it
	// invokes hookx (another machine's path to it) as unchanged: --check
	// must not call a project stale because hookx lives elsewhere.
	AnyHookxPath bool
	// PluginRoot resolves the source's plugin-root variable (a plugin's
	// hooks.json); empty when the sources are no plugin.
	PluginRoot string
	// PluginOut: the target is the hooks/hooks.json of a plugin or
	// extension of the target dialect, so the source's plugin-root variable
	// becomes the target's (${extensionPath}, ${CLAUDE_PLUGIN_ROOT}).
	PluginOut bool
	// Prune removes hookx entries whose source this run did not read
	// (reported as Weakened); without it they are kept, with a warning.
	Prune bool
	// FailClosed adds --fail-closed to every wrapped entry of a target
	// event whose answer can block (a guard): a guard that errors or times
	// out then blocks, whatever its source says.
	FailClosed bool
	// Version is hookx's version, stamped on the plugin of a plugin host
	// (Pi's extension), which doctor compares with its own.
	Version string
}

// Entry is one hookx-owned target entry that Plan wants in the target.
type Entry struct {
	Event       string  `json:"event"`
	ID          string  `json:"id"`
	Source      string  `json:"source"`
	SourceEvent string  `json:"sourceEvent"`
	Matcher     *string `json:"matcher,omitempty"`
	Command     string  `json:"command"`
	Timeout     int64   `json:"timeout"`
	// Change is "add", "update" or "unchanged".
	Change string `json:"change"`

	group []byte // the JSON object to write, indented with two spaces
}

// SourceSummary says what was read from one source.
type SourceSummary struct {
	Path     string `json:"path"`
	Scope    string `json:"scope"`
	Handlers int    `json:"handlers"`
}

// Result is a planned migration.
type Result struct {
	From    string          `json:"from"`
	To      string          `json:"to"`
	Sources []SourceSummary `json:"sources"`
	Target  string          `json:"target"`
	// RealTarget is the file actually written, symlinks resolved; the
	// caller sets it (Plan reads only bytes).
	RealTarget string   `json:"realTarget,omitempty"`
	Created    bool     `json:"created"` // the target did not exist
	Wrapped    bool     `json:"wrapped"` // commands run through hookx wrap
	Entries    []Entry  `json:"entries"`
	Removed    []string `json:"removed"` // ids of stale hookx entries removed
	Items      []Item   `json:"items"`
	Before     []byte   `json:"-"`
	After      []byte   `json:"-"`
	// Plugin is the plugin a plugin host (Pi) needs beside the target, its
	// hooks file; the caller writes it. nil for other targets.
	Plugin *HostPlugin `json:"-"`

	fromName, toName string // the dialects' names, for Findings and JSON
}

// Changed reports whether the target would change.
func (r *Result) Changed() bool { return r.Created || !bytes.Equal(r.Before, r.After) }

// Count returns the number of report items of a level.
func (r *Result) Count(l Level) int {
	n := 0
	for _, it := range r.Items {
		if it.Level == l {
			n++
		}
	}
	return n
}

// OwnedPrefix starts the name (Gemini) or command marker (Claude) of every
// entry hookx owns.
const OwnedPrefix = "hookx:"

// maxTimerMS is the longest delay a JavaScript timer holds (2^31-1 ms).
const maxTimerMS = 1<<31 - 1

// unitPerSecond is how many of a dialect's timeout units make a second.
func unitPerSecond(d *mappings.Dialect) float64 {
	if d.Timeout.Unit == "ms" {
		return 1000
	}
	return 1
}

// knownHandlerKeys are the handler fields Plan reads; others are reported.
var knownHandlerKeys = []string{"type", "command", "args", "shell", "if", "timeout", "async", "asyncRewake",
	"statusMessage", "description", "name", "env", "onFailure", "once"}

type planner struct {
	opts     Options
	tbl      *mappings.Table
	from, to *mappings.Dialect
	items    []Item
	seenEv   map[string]bool
	seenBlk  map[string]bool // source and target event pairs whose block was reported
	read     map[string]bool // the origins of the sources read
	// readPaths are the paths read for each origin; off, the setting
	// that switches an origin's hooks off; kept, the entries of other
	// agents' sources left alone (identity.go).
	readPaths map[string][]string
	off       map[string]string
	kept      []keptGroup
	// twice and already are the hooks the target agent also runs itself
	// from their source file (Copilot CLI runs .claude/settings.json):
	// those copied all the same (they run twice) and those not written.
	// Each list is reported once (nativeRunItems), not once per hook.
	twice, already []srcHandler
}

func (p *planner) add(it Item) { p.items = append(p.items, it) }

// srcHandler is one handler of the merged sources.
type srcHandler struct {
	file    string // the source file, as shown
	scope   string
	where   string
	origin  string // the source's origin, for the id
	event   string
	ordinal int // its position among the handlers of its event
	matcher *string
	seq     *bool
	h       rawHandler
}

// Plan plans the migration of sources into target (target.Data nil: the
// file does not exist). It returns an *InputError for input it refuses
// (unparsable, duplicate keys, a shape the agents reject, a target the
// target agent would not load). Planning twice with the same inputs gives
// the same bytes; planning against its own output gives no change.
func Plan(opts Options, sources []Source, target Source) (*Result, error) {
	p := &planner{opts: opts, tbl: opts.Table, seenEv: map[string]bool{}, seenBlk: map[string]bool{}, read: map[string]bool{}}
	if p.tbl == nil {
		p.tbl = mappings.Default()
	}
	if p.opts.Margin == 0 {
		p.opts.Margin = 5
	}
	var err error
	if p.from, err = p.tbl.Dialect(opts.From); err != nil {
		return nil, err
	}
	if p.to, err = p.tbl.Dialect(opts.To); err != nil {
		return nil, err
	}
	if p.from.Settings.HookFiles {
		// Its hooks are files of any language, with no matcher: nothing to
		// read entries from (its entries file is hookx's own, from another
		// agent's hooks).
		return nil, fmt.Errorf("%s runs one executable file per event from %s, which hookx migrate does not read as a source", p.from.Agent, path.Dir(p.from.Settings.Project))
	}
	if p.opts.Wrap && p.opts.Hookx == "" {
		return nil, errors.New("migrate: Options.Hookx is empty")
	}
	res := &Result{From: p.from.Agent + " " + p.from.Version, To: p.to.Agent + " " + p.to.Version, Target: target.Path, Wrapped: opts.Wrap,
		fromName: p.from.Name, toName: p.to.Name}

	handlers, err := p.readSources(sources, res)
	if err != nil {
		return nil, err
	}
	for _, sh := range handlers {
		res.Entries = append(res.Entries, p.translate(sh)...)
	}
	p.nativeRunItems()
	if p.to.PluginHost != nil {
		return p.planPluginHost(res, target)
	}

	res.Before = target.Data
	base := target.Data
	if base == nil && len(res.Entries) == 0 {
		res.Items = p.guardFixes(p.items)
		return res, nil // nothing to write, and no file to create
	}
	if base == nil {
		res.Created = true
		base = p.newFile()
	}
	tdoc, err := parseDoc(target.Path, base)
	if err != nil {
		return nil, err
	}
	if err := p.acceptable(tdoc); err != nil {
		return nil, err
	}
	if _, _, err := tdoc.readHooks(p.to.Settings.Shape); err != nil && target.Data != nil {
		return nil, err
	}
	p.checkRootKeys(tdoc)
	after, removed, err := p.apply(tdoc, res.Entries)
	if err != nil {
		return nil, err
	}
	if len(res.Entries) > 0 {
		if after, err = p.switchOn(target.Path, after); err != nil {
			return nil, err
		}
	}
	res.After, res.Removed = after, removed
	// Validate what would be written exactly as the target agent reads it.
	check, err := parseDoc(target.Path, after)
	if err == nil {
		err = p.acceptable(check)
	}
	if err == nil && target.Data == nil {
		_, _, err = check.readHooks(p.to.Settings.Shape) // a new file: check the shape we wrote
	}
	if err == nil {
		err = p.rootKeysKept(tdoc, check)
	}
	if err != nil {
		return nil, fmt.Errorf("internal error: the edited %s would not load: %w", target.Path, err)
	}
	p.switchedOff(check, res.Entries)
	p.notices(len(res.Entries) > 0)
	res.Items = p.guardFixes(p.items)
	return res, nil
}

// switchedOff names each entry that the target file itself keeps its agent
// from running: a switch that turns every hook of the file off
// (hooksConfig.enabled false), or the entry's name (or, without names, its
// command) in the file's list of disabled hooks. The entry is written and
// up to date, yet its agent never runs it: a guard there is lost, and no
// run, --check included, may say the target is in step without saying so.
func (p *planner) switchedOff(d *doc, entries []Entry) {
	if len(entries) == 0 {
		return
	}
	key, off := hooksSwitchedOff(p.to, &d.root)
	disabled := map[string]bool{}
	list := strings.ReplaceAll(strings.TrimPrefix(p.to.Settings.DisabledList, "/"), "/", ".")
	if dv := d.root.Find(p.to.Settings.DisabledList); dv != nil && p.to.Settings.DisabledList != "" {
		var names []string
		if json.Unmarshal(standardJSON(dv), &names) == nil {
			for _, n := range names {
				disabled[n] = true
			}
		}
	}
	for _, e := range entries {
		name := e.Command
		if p.to.Settings.Shape.NameField != "" {
			name = e.ID
		}
		it := Item{Level: NotCarried, Guard: p.targetGuard(e.Event), Source: e.Source, Event: e.Event, Matcher: deref(e.Matcher), Command: e.Command}
		switch {
		case key != "":
			it.What = fmt.Sprintf("entry %s (%s): switched off in the target", e.ID, e.Event)
			it.Reason = fmt.Sprintf("the target sets %s to %s: %s runs none of its hooks, this one included", key, off, p.to.Agent)
			it.Fix = switchFix(p.to, key) + " in the target"
		case disabled[name]:
			it.What = fmt.Sprintf("entry %s (%s): switched off in the target", e.ID, e.Event)
			it.Reason = fmt.Sprintf("the target's %s names it: %s never runs it", list, p.to.Agent)
			it.Fix = "remove it from " + list + " in the target"
		default:
			continue
		}
		p.add(it)
	}
}

// guardFixes gives every guard that is not carried or is weakened a fix
// the user can apply, where the item has none of its own: a guard named
// without one leaves the user nothing to do but guess.
func (p *planner) guardFixes(items []Item) []Item {
	for i, it := range items {
		if it.GuardLost() && it.Fix == "" {
			items[i].Fix = fmt.Sprintf("keep this guard in %s only, or write the %s entry by hand (hookx wrap --from %s --host %s --fail-closed -- COMMAND) and check that it blocks there",
				p.from.Agent, p.to.Agent, p.from.Name, p.to.Name)
		}
	}
	return items
}

// GuardLost reports whether the item is a guard that the target does not
// get, or gets weaker: what --strict refuses and every report names.
func (it Item) GuardLost() bool { return it.Guard && (it.Level == NotCarried || it.Level == Weakened) }

// sourceGuard reports whether a hook of the source's event guards
// something (mappings.Output.BlocksOnFailure).
func (p *planner) sourceGuard(event string) bool {
	e := p.from.Event(event)
	return e != nil && e.Output.BlocksOnFailure()
}

// targetGuard is sourceGuard for an event of the target (the entries of
// the target that a run removes or changes).
func (p *planner) targetGuard(event string) bool {
	e := p.to.Event(event)
	return e != nil && e.Output.BlocksOnFailure()
}

// notices reports the steps the target's agent needs before it runs the
// entries (its trust gates), when the target holds any.
func (p *planner) notices(entries bool) {
	if !entries {
		return
	}
	for _, n := range p.to.Settings.Notices {
		if n.Scope == "project" && p.opts.Project == "" {
			continue
		}
		p.add(Item{Level: Note, What: n.What, Reason: n.Why, Fix: strings.ReplaceAll(n.Fix, "{project}", p.opts.Project)})
	}
}

// acceptable refuses a file the target agent would not load.
func (p *planner) acceptable(d *doc) error {
	if p.to.Settings.StrictJSON && CommentAt(&d.root) >= 0 {
		return &InputError{Path: d.path, Msg: fmt.Sprintf("has comments, which %s rejects (its settings are strict JSON); remove them first", p.to.Agent)}
	}
	if off := TrailingComma(&d.root); off >= 0 {
		return d.errAt(off, "trailing comma, which %s rejects; remove it first", p.to.Agent)
	}
	return nil
}

func (p *planner) readSources(sources []Source, res *Result) ([]srcHandler, error) {
	type evHandlers struct {
		name string
		list []srcHandler
	}
	var order []*evHandlers
	byEvent := map[string]*evHandlers{}
	seen := map[string]string{}
	for _, s := range sources {
		d, err := parseDoc(s.Path, s.Data)
		if err != nil {
			return nil, err
		}
		origin := sourceOrigin(p.from.Name, s)
		p.sourceRead(origin, s.Path, "")
		if p.from.Settings.StrictJSON && CommentAt(&d.root) >= 0 {
			p.add(Item{Level: Warning, Source: s.Path, What: "comments in the source file",
				Reason: fmt.Sprintf("%s's settings are strict JSON, so %s itself rejects this file; hookx read it anyway", p.from.Agent, p.from.Agent),
				Fix:    "remove the comments so that " + p.from.Agent + " loads the file"})
		}
		if off := TrailingComma(&d.root); off >= 0 {
			line, _ := lineCol(d.data, off)
			p.add(Item{Level: Warning, Source: fmt.Sprintf("%s:%d", s.Path, line), What: "trailing comma in the source file",
				Reason: p.from.Agent + " rejects trailing commas; hookx read the file anyway", Fix: "remove the trailing comma"})
		}
		disabled := map[string]bool{}
		if dv := d.root.Find(p.from.Settings.DisabledList); dv != nil && p.from.Settings.DisabledList != "" {
			var list []string
			if json.Unmarshal(standardJSON(dv), &list) == nil {
				for _, n := range list {
					disabled[n] = true
				}
			}
		}
		if key, off := hooksSwitchedOff(p.from, &d.root); key != "" {
			p.sourceRead(origin, s.Path, key+" is "+off)
			// Migrating hooks that never ran would switch them on.
			p.add(Item{Level: NotCarried, Source: s.Path, What: "every hook in this file",
				Reason: fmt.Sprintf("%s is %s: %s runs none of these hooks, and migrating them would switch them on", key, off, p.from.Agent),
				Fix:    switchFix(p.from, key) + " if the hooks should run, then migrate again"})
			continue
		}
		evs, others, err := d.readHooks(p.from.Settings.Shape)
		if err != nil {
			return nil, err
		}
		for _, k := range others {
			p.add(Item{Level: NotCarried, Source: s.Path, What: "the root key " + strconv.Quote(k),
				Reason: fmt.Sprintf("%s reads the events at the root of this file; %s is no list of hooks, and %s runs nothing from it", p.from.Agent, k, p.from.Agent),
				Fix:    "move its events to the root of the file, then migrate again"})
		}
		sum := SourceSummary{Path: s.Path, Scope: s.Scope}
		for _, ev := range evs {
			eh := byEvent[ev.name]
			if eh == nil {
				eh = &evHandlers{name: ev.name}
				byEvent[ev.name] = eh
				order = append(order, eh)
			}
			for _, g := range ev.groups {
				for _, h := range g.handlers {
					line, _ := lineCol(d.data, h.off)
					where := fmt.Sprintf("%s:%d", s.Path, line)
					sum.Handlers++
					it := Item{Source: where, Event: ev.name, Matcher: deref(g.matcher), Command: h.fields.Command}
					if owned(h.fields) {
						it.Level, it.What = Note, "skipped a hookx-owned entry"
						it.Reason = "it was written by an earlier hookx migrate in the other direction"
						it.Fix = "edit the original hook and migrate again"
						p.add(it)
						continue
					}
					if disabled[h.fields.Name] || disabled[h.fields.Command] {
						it.Level, it.What = Note, "skipped a disabled hook"
						it.Reason = "it is listed in hooksConfig.disabled"
						p.add(it)
						continue
					}
					key := ev.name + "\x00" + deref(g.matcher) + "\x00" + string(h.raw)
					if g.matcher == nil {
						key = ev.name + "\x01\x00" + string(h.raw)
					}
					if first, dup := seen[key]; dup {
						it.Level, it.What = Note, "identical handler merged"
						it.Reason = fmt.Sprintf("the same handler is already defined at %s; %s runs it once", first, p.from.Agent)
						p.add(it)
						continue
					}
					seen[key] = where
					eh.list = append(eh.list, srcHandler{file: s.Path, scope: s.Scope, where: where, origin: origin, event: ev.name, ordinal: len(eh.list),
						matcher: g.matcher, seq: g.sequential, h: h})
				}
			}
		}
		res.Sources = append(res.Sources, sum)
	}
	var out []srcHandler
	for _, eh := range order {
		out = append(out, eh.list...)
	}
	return out, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// targetEvent is the target's name for a source event, or "".
func (p *planner) targetEvent(name string) string {
	if m, err := p.tbl.MapEvent(p.from, p.to, name); err == nil && m.To != nil {
		return m.To.Name
	}
	return ""
}

// hooksSwitchedOff reports the setting that turns every hook of a file of
// d off (settings.off: Gemini's hooksConfig.enabled, Claude's
// disableAllHooks; settings.on: TerminaI's tools.enableHooks when it holds
// another value), and its value, when the file sets it so. A setting that
// must be on and is absent from the file is not reported: another scope
// (the user's file) may turn it on.
func hooksSwitchedOff(d *mappings.Dialect, root *hujson.Value) (key, value string) {
	for _, sw := range d.Settings.Off {
		if v := root.Find(sw.Pointer); v != nil {
			if lit, ok := v.Value.(hujson.Literal); ok && string(lit) == sw.Value {
				return sw.Key, sw.Value
			}
		}
	}
	if sw := d.Settings.On; sw != nil {
		if v, key := SwitchValue(sw, root); v != nil {
			if lit, ok := v.Value.(hujson.Literal); !ok || string(lit) != sw.Value {
				return key, string(hujson.Value{Value: v.Value}.Pack())
			}
		}
	}
	return "", ""
}

// SwitchValue is the value of a file that decides sw, and its key as a
// person writes it: sw's own place, else the first of its older places
// (TerminaI's top-level enableHooks, which it moves to tools.enableHooks
// when it loads a file without that). nil when the file sets none.
func SwitchValue(sw *mappings.Switch, root *hujson.Value) (*hujson.Value, string) {
	if v := root.Find(sw.Pointer); v != nil {
		return v, sw.Key
	}
	// A container of the pointer that is not an object replaces what the
	// agent made of the older key (TerminaI merges "tools": 5 over the
	// tools.enableHooks it moved there): that value decides.
	keys := pointerKeys(sw.Pointer)
	ptr := ""
	for _, k := range keys[:len(keys)-1] {
		ptr += "/" + escapePtr(k)
		if v := root.Find(ptr); v != nil {
			if _, ok := v.Value.(*hujson.Object); !ok {
				return v, sw.Key
			}
		}
	}
	for _, pl := range sw.Legacy {
		if v := root.Find(pl.Pointer); v != nil {
			return v, pl.Key
		}
	}
	return nil, ""
}

// switchFix says how to turn a dialect's hooks back on from the setting
// key that turned them off.
func switchFix(d *mappings.Dialect, key string) string {
	if sw := d.Settings.On; sw != nil && slices.ContainsFunc(sw.Places(), func(p mappings.LegacyKey) bool { return p.Key == key }) {
		return "set " + sw.Key + " to " + sw.Value
	}
	return "remove " + key
}

// pointerKeys splits a JSON pointer into its member names.
func pointerKeys(ptr string) []string {
	keys := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, k := range keys {
		keys[i] = strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~")
	}
	return keys
}

// switchOn turns the target's hooks on where its agent runs none unless a
// key says so (settings.switch with "on": TerminaI's tools.enableHooks),
// editing only that key, and says that it did: the entries just written
// would protect nothing. It is a no-op when the key is already on.
func (p *planner) switchOn(path string, b []byte) ([]byte, error) {
	sw := p.to.Settings.On
	if sw == nil {
		return b, nil
	}
	d, err := parseDoc(path, b)
	if err != nil {
		return nil, err
	}
	if v, key := SwitchValue(sw, &d.root); v != nil && key != sw.Key {
		if lit, ok := v.Value.(hujson.Literal); ok && string(lit) == sw.Value {
			return b, nil // on, by the older key its agent still reads
		}
	}
	e := newEditor(d)
	keys := pointerKeys(sw.Pointer)
	ptr, was := "", "absent"
	for i, k := range keys {
		v := e.root.Find(ptr + "/" + escapePtr(k))
		last := i == len(keys)-1
		if v == nil {
			var val any = json.RawMessage(sw.Value)
			for j := len(keys) - 1; j > i; j-- {
				val = map[string]any{keys[j]: val}
			}
			if err := e.addMember(ptr, k, val); err != nil {
				return nil, err
			}
			break
		}
		if last {
			if lit, ok := v.Value.(hujson.Literal); ok && string(lit) == sw.Value {
				return b, nil
			}
			was = string(hujson.Value{Value: v.Value}.Pack())
			if err := e.patch("replace", ptr+"/"+escapePtr(k), []byte(sw.Value)); err != nil {
				return nil, err
			}
			break
		}
		if _, ok := v.Value.(*hujson.Object); !ok {
			return nil, &InputError{Path: path, Msg: fmt.Sprintf("%s is not an object, so hookx cannot set %s, without which %s runs no hooks", strings.Join(keys[:i+1], "."), sw.Key, p.to.Agent)}
		}
		ptr += "/" + escapePtr(k)
	}
	p.add(Item{Level: Note, Source: path, What: sw.Key + " set to " + sw.Value,
		Reason: fmt.Sprintf("%s runs no hooks unless %s is %s (it was %s in this file); without it the entries above would protect nothing", p.to.Agent, sw.Key, sw.Value, was)})
	return e.root.Pack(), nil
}

// owned reports whether a source handler was written by hookx: its id
// together with hookx's command form.
func owned(f handlerFields) bool {
	return exactOwned(f.Name, f.Command) || exactOwned(claudeMarker(f.Command), f.Command)
}

// claudeMarker returns the owned id at the end of a command, written as a
// trailing shell comment " # hookx:<id>" (or "\n# hookx:<id>" after a
// multi-line command, so that a here-doc's terminator stays alone on its
// line), or "".
func claudeMarker(cmd string) string {
	i := strings.LastIndex(cmd, "# "+OwnedPrefix)
	if i < 1 || (cmd[i-1] != ' ' && cmd[i-1] != '\n') {
		return ""
	}
	if id := cmd[i+2:]; IsOwnedID(id) {
		return id
	}
	return ""
}

// nativeRun says what the target agent runs itself of a project source
// (Copilot CLI runs .claude/settings.json's hooks), or nil.
func (p *planner) nativeRun(sh srcHandler) *mappings.ForeignSettings {
	if sh.scope != "project" && sh.scope != "local" {
		return nil
	}
	r := p.to.ReadsNatively(p.from.Name, filepath.ToSlash(sh.file))
	if r == nil || !slices.Contains(r.Events, sh.event) {
		return nil
	}
	return r
}

// nativeRunItems reports, once each, the hooks the target agent also runs
// itself (planner.twice, planner.already): one warning naming every hook
// that runs twice, what the agent's own run does differently and what to
// do about it, and one note naming every hook not written. Said once per
// hook, the same paragraph repeated for every hook of the file.
func (p *planner) nativeRunItems() {
	if len(p.twice) > 0 {
		native := p.nativeRun(p.twice[0])
		var lost []string
		seen := map[string]bool{}
		for _, sh := range p.twice {
			if l, ok := native.Loses[sh.event]; ok && !seen[sh.event] {
				seen[sh.event] = true
				lost = append(lost, fmt.Sprintf("on %s, %s", sh.event, l))
			}
		}
		reason := fmt.Sprintf("%s also runs the hooks of %s itself, reading them its own way: %s",
			p.to.Agent, nativeFiles(p.twice), native.Differs)
		if len(lost) > 0 {
			reason += "; " + strings.Join(lost, "; ")
		}
		reason += fmt.Sprintf(". The copies written here act as %s would", p.from.Agent)
		p.add(Item{Level: Warning, Source: nativeFiles(p.twice),
			What:   fmt.Sprintf("runs twice in %s: %s", p.to.Agent, nativeHooks(p.twice)),
			Reason: reason, Fix: native.Twice})
	}
	if len(p.already) > 0 {
		native := p.nativeRun(p.already[0])
		p.add(Item{Level: Note, Source: nativeFiles(p.already),
			What: fmt.Sprintf("not written: %s already runs %s", p.to.Agent, nativeHooks(p.already)),
			Reason: fmt.Sprintf("%s runs the hooks of %s itself; a copy would run them twice. Its own reading differs: %s",
				p.to.Agent, nativeFiles(p.already), native.Differs)})
	}
}

// nativeFiles names the source files of hs, in order, once each.
func nativeFiles(hs []srcHandler) string {
	var files []string
	for _, sh := range hs {
		if f := filepath.ToSlash(sh.file); !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return strings.Join(files, " and ")
}

// nativeHooks lists hs as "N hooks (Event file:line, …)".
func nativeHooks(hs []srcHandler) string {
	var each []string
	for _, sh := range hs {
		each = append(each, sh.event+" "+filepath.ToSlash(sh.where))
	}
	if len(hs) == 1 {
		return "1 hook (" + each[0] + ")"
	}
	return fmt.Sprintf("%d hooks (%s)", len(hs), strings.Join(each, ", "))
}

// withMarker appends the owned id to a Claude command as a shell comment.
func withMarker(cmd, id string) string {
	if strings.Contains(cmd, "\n") {
		return cmd + "\n# " + id
	}
	return cmd + " # " + id
}

func (p *planner) translate(sh srcHandler) []Entry {
	f := sh.h.fields
	base := Item{Source: sh.where, Event: sh.event, Matcher: deref(sh.matcher), Command: f.Command}
	note := func(l Level, what, reason string) {
		it := base
		it.Level, it.What, it.Reason = l, what, reason
		p.add(it)
	}
	lost := func(what, reason, fix string) []Entry {
		it := base
		it.Level, it.What, it.Reason, it.Fix = NotCarried, what, reason, fix
		p.add(it)
		return nil
	}
	em, err := p.tbl.MapEvent(p.from, p.to, sh.event)
	if err != nil {
		return lost("the "+sh.event+" hook", fmt.Sprintf("%s is not a %s %s event", sh.event, p.from.Agent, p.from.Version),
			"check the event name: "+p.from.Agent+" ignores it too")
	}
	base.Guard = em.From.Output.BlocksOnFailure()
	if em.To == nil {
		return lost("the "+sh.event+" hook", em.Note, "no "+p.to.Agent+" event fires at this point; keep this hook in "+p.from.Agent+" only")
	}
	if native := p.nativeRun(sh); native != nil {
		if _, loses := native.Loses[sh.event]; !loses && !slices.Contains(native.Guards, sh.event) {
			p.already = append(p.already, sh)
			return nil
		}
		p.twice = append(p.twice, sh)
	}
	if em.Mark != mappings.Exact && em.Note != "" && !p.seenEv[sh.event] {
		p.seenEv[sh.event] = true
		p.add(Item{Level: Approximate, Event: sh.event, What: fmt.Sprintf("%s → %s", sh.event, em.To.Name), Reason: em.Note})
	}
	if c := em.From.Output.Context; c != "" && c != "none" && em.To.Output.Discarded {
		// The hook still runs (its side effects carry), but what it says
		// for the model goes nowhere (TerminaI's SessionStart).
		it := base
		it.Level, it.What = NotCarried, "the context it gives the model"
		it.Reason = fmt.Sprintf("%s reads no context from a %s hook: what this hook prints for the model never reaches it (the hook still runs)", p.to.Agent, em.To.Name)
		it.Fix = "keep the hook in " + p.from.Agent + " only if the model needs its context"
		if pe, _ := p.to.EventFor("prompt.submit"); pe != nil && pe.Output.Context == "model" {
			it.Fix += ", or give it from a " + pe.Name + " hook, whose context " + p.to.Agent + " does read"
		}
		p.add(it)
	}
	if f.Type != "command" {
		return lost(fmt.Sprintf("a %q handler", f.Type), p.to.Agent+" runs only command hooks from settings",
			"rewrite it as a command hook that does the same work, then migrate again")
	}
	async := f.Async && !f.AsyncRewake && p.to.Settings.Shape.AsyncField != ""
	if (f.Async || f.AsyncRewake) && !async {
		return lost("an async hook", p.to.Agent+" runs hooks synchronously; an async hook can never block or delay "+p.from.Agent+", a synchronous copy could",
			"make the command detach itself (e.g. end it with &) and drop async, then migrate again")
	}
	if f.If != "" {
		return lost(fmt.Sprintf("the if condition %q", f.If),
			p.to.Agent+" cannot express it and hookx wrap does not evaluate it; without it the hook would fire on more calls (and a guard would block more)",
			"fold the condition into the matcher or the script, remove if, and migrate again")
	}
	if f.Shell != "" && f.Shell != "bash" && f.Shell != "sh" {
		return lost(fmt.Sprintf("a %s hook", f.Shell), p.to.Agent+" runs hook commands with "+p.to.Shell, "port the command to "+p.to.Shell)
	}
	if strings.TrimSpace(f.Command) == "" {
		return lost("a command hook without a command", "there is nothing to run", "")
	}
	fromShape := p.from.Settings.Shape
	for _, k := range sh.h.keys {
		read := k == fromShape.CommandField || k == fromShape.TimeoutField || k == "matcher" && !fromShape.Grouped()
		if why, ok := p.from.Settings.Shape.Unread[k]; ok {
			note(Note, "field "+k+" not carried", why+"; the migrated hook gets the same")
		} else if !slices.Contains(knownHandlerKeys, k) && !read {
			note(Note, "field "+k+" not carried", "hookx does not know this "+p.from.Agent+" handler field")
		}
	}
	if f.Once {
		note(Note, "once not carried", "once is honoured only in skill frontmatter, not in settings")
	}

	mp := p.translateMatcher(em.From, em.To, sh.matcher)
	if len(mp.outs) == 0 && mp.inert {
		note(Note, "skipped an entry that never fires", mp.drop)
		return nil
	}
	if len(mp.outs) == 0 {
		return lost("the matcher "+strconv.Quote(deref(sh.matcher)), mp.drop,
			fmt.Sprintf("name the %s tools the hook guards in its matcher (hookx mappings --format table lists each tool's counterpart), or write the %s entry by hand with hookx wrap", p.from.Agent, p.to.Agent))
	}
	narrowed := "matcher " + strconv.Quote(deref(sh.matcher)) + " narrowed"
	switch rest := append(slices.Clone(mp.narrow), mp.differ...); {
	case len(mp.weaker) > 0 && base.Guard:
		// The guard does not run for calls its own agent shows it.
		it := base
		it.Level, it.What = Weakened, narrowed
		it.Reason = strings.Join(mp.weaker, "; ") + "; the guard does not run for the others"
		it.Fix = fmt.Sprintf("name the MCP tools the guard covers in its matcher (%s…), or write the %s entry by hand with hookx wrap --match",
			p.from.MCP.Prefix, p.to.Agent)
		p.add(it)
		if len(rest) > 0 {
			note(Approximate, narrowed, strings.Join(rest, "; "))
		}
	case len(mp.weaker)+len(rest) > 0:
		note(Approximate, narrowed, strings.Join(append(mp.weaker, rest...), "; "))
	}
	if len(mp.notes) > 0 {
		note(Note, "matcher "+strconv.Quote(deref(sh.matcher)), strings.Join(mp.notes, "; "))
	}

	// The command itself.
	cmd, args, failClosed := f.Command, f.Args, f.OnFailure == "block"
	var wrapEnv []string
	native := false            // the command already is the target's own hook
	var wrappedTimeout float64 // its --timeout in seconds, when it had one
	if wc, ok := parseWrapCall(cmd, p.from.Shell); ok && len(args) == 0 {
		unwrapped := true
		switch {
		case wc.from == p.to.Name && len(wc.command) == 1 && len(wc.extra) == 0 && len(wc.env) == 0 && !wc.failClosed:
			cmd, native = wc.command[0], true
			note(Note, "unwrapped", fmt.Sprintf("it called hookx wrap to run a %s hook, which %s now runs itself, with no hop through hookx", p.to.Agent, p.to.Agent))
		case wc.from == p.from.Name && len(wc.extra) == 0:
			cmd, args = wc.command[0], wc.command[1:]
			failClosed = failClosed || wc.failClosed
			wrapEnv = wc.env
			note(Note, "hookx wrap replaced", "it already called hookx wrap; it is wrapped once, not twice")
		default:
			unwrapped = false
		}
		if d, err := time.ParseDuration(wc.timeout); err == nil && d > 0 && unwrapped {
			wrappedTimeout = d.Seconds()
		}
	}
	tf := p.to.Settings.Shape
	if !native {
		var ok bool
		if cmd, args, wrapEnv, ok = p.commandForm(sh, cmd, args, wrapEnv, f.Env, note); !ok {
			return nil
		}
	}
	if sh.seq != nil && *sh.seq && !tf.Sequential {
		note(Approximate, "sequential", p.to.Agent+" runs the hooks of a group in parallel")
	}
	if f.Name != "" && tf.NameField == "" {
		note(Note, "name "+strconv.Quote(f.Name), p.to.Agent+" handlers have no name")
	}

	// Timeouts: the hook keeps the time it had (T§11).
	inner := p.from.Timeout.Default
	if d, ok := p.from.Timeout.PerEvent[sh.event]; ok {
		inner = d
	}
	innerSec := p.from.Timeout.Seconds(inner)
	if wrappedTimeout > 0 {
		// The hook's own time, without the margin the wrap entry had.
		innerSec = wrappedTimeout
	} else if f.Timeout != nil {
		switch {
		case *f.Timeout > 0:
			inner = *f.Timeout
			innerSec = p.from.Timeout.Seconds(inner)
		default:
			note(Approximate, "timeout "+strconv.FormatFloat(*f.Timeout, 'g', -1, 64),
				p.from.Agent+" needs a positive timeout; the default ("+strconv.FormatFloat(inner, 'g', -1, 64)+p.from.Timeout.Unit+") was written instead")
		}
	}
	// Node's timers overflow past 2^31-1 ms and fire at once: clamp, with
	// room for wrap's margin.
	if limit := maxTimerMS/1000 - p.opts.Margin - 1; innerSec > limit {
		note(Approximate, "timeout "+strconv.FormatFloat(inner, 'g', -1, 64),
			"longer than the agents' timers can hold; clamped to "+strconv.FormatFloat(limit, 'f', 0, 64)+"s")
		innerSec = limit
	}
	// A wrapped hook gets wrap's margin on top of its own time, so that
	// wrap's own timeout fires first and answers the host.
	wrapped := p.opts.Wrap && !native
	margin := 0.0
	if wrapped {
		margin = p.opts.Margin
	}
	// The target may cap an event's time: keep wrap's margin inside it.
	if cap, ok := p.to.Timeout.MaxPerEvent[p.targetEvent(sh.event)]; ok {
		cap /= unitPerSecond(p.to)
		// A cap at or under the margin (Codex gives SessionEnd hooks 3 s)
		// would leave the hook no time: the margin shrinks to half the cap.
		if wrapped && cap/2 < margin {
			margin = cap / 2
			note(Approximate, "timeout", fmt.Sprintf("%s gives these hooks at most %gs: wrap's own limit comes %gs before the host's, not %gs, so a hook that ignores SIGTERM may be stopped by %s first", p.to.Agent, cap, margin, p.opts.Margin, p.to.Agent))
		}
		if innerSec+margin > cap {
			note(Approximate, "timeout", fmt.Sprintf("%s gives these hooks at most %gs; the hook gets %gs", p.to.Agent, cap, cap-margin))
			innerSec = cap - margin
		}
	}
	hostSec := innerSec + margin
	if wrapped {
		words := []string{HostQuote(p.opts.Hookx), "wrap", "--from", p.from.Name, "--host", p.to.Name,
			"--timeout", strconv.FormatFloat(innerSec, 'f', -1, 64) + "s"}
		if len(em.To.Also) > 0 {
			// The target's event also fires where the hook's own agent
			// would send another event (Gemini's AfterTool for Claude's
			// PostToolUse and PostToolUseFailure): wrap runs the hook only
			// for its own.
			words = append(words, "--event", sh.event)
		}
		if failClosed || p.opts.FailClosed && p.targetGuard(em.To.Name) {
			words = append(words, "--fail-closed")
		}
		if em.From.Matcher == "tool" && !matchesAll(p.from, sh.matcher) {
			// wrap presents the host's tool as the one this names (LS for
			// list_directory) and skips the hook where it names none.
			words = append(words, "--match", HostQuote(*sh.matcher))
		}
		for _, w := range wrapEnv {
			words = append(words, "--env", w) // quoted by commandForm
		}
		words = append(words, "--", HostQuote(cmd))
		for _, a := range args {
			words = append(words, HostQuote(a))
		}
		cmd = strings.Join(words, " ")
	} else {
		if failClosed {
			it := base
			it.Level, it.What = NotCarried, "onFailure \"block\""
			it.Reason = p.to.Agent + " cannot fail closed; the hook fails open when it errors or times out"
			it.Fix = "migrate without --no-wrap: hookx wrap --fail-closed keeps it"
			p.add(it)
		}
		if !native && f.Shell == "" && tf.ShellField && p.from.Shell == "bash" {
			f.Shell = "bash"
		}
		if !native {
			p.idiomWarning(base, em)
		}
	}
	timeout, inMS := p.to.Timeout.Value(hostSec)
	if inMS {
		note(Note, fmt.Sprintf("timeout %d written in milliseconds", timeout),
			fmt.Sprintf("%s reads a timeout of %g or more as milliseconds, so %gs is written as %d", p.to.Agent, p.to.Timeout.MsFrom, hostSec, timeout))
	}

	label := f.StatusMessage
	if label == "" {
		label = f.Description
	}

	// A source event that also carries other canonical events fires where
	// the target has several events (Gemini's AfterTool: Claude's
	// PostToolUse and PostToolUseFailure): register the hook on each.
	targets := []*mappings.Event{em.To}
	for _, c := range em.From.Also {
		if t, _ := p.to.EventFor(c); t != nil && !slices.Contains(targets, t) {
			targets = append(targets, t)
		}
	}
	if len(targets) > 1 {
		names := make([]string, len(targets))
		for i, t := range targets {
			names[i] = t.Name
		}
		note(Note, "registered on "+strings.Join(names, " and "), sh.event+" fires for each of them in "+p.from.Agent)
	}
	if wrapped && len(mp.closed) > 0 && base.Guard {
		note(Approximate, "blocks "+strings.Join(mp.closed, ", "),
			fmt.Sprintf("%s runs it for these tools, which have no %s counterpart; the hook cannot judge them, so hookx wrap blocks them (say which you allow in the hook's own matcher, or write the %s entry by hand)",
				p.to.Agent, p.from.Agent, p.to.Agent))
	}
	if wrapped {
		p.blockReport(base, targets)
		p.envFileReport(base, sh, targets)
	}
	var out []Entry
	for _, target := range targets {
		for _, mo := range mp.outs {
			out = append(out, p.entry(sh, f, native, target, em.To, mo, cmd, timeout, label, tf))
		}
	}
	return out
}

// entry is one target handler of a migrated source handler. The id of the
// event the source maps to is kept as it was before extra events existed,
// so reruns stay no-ops.
func (p *planner) entry(sh srcHandler, f handlerFields, native bool, target, primary *mappings.Event, mo matchOut, cmd string, timeout int64, label string, tf mappings.Shape) Entry {
	key := sh.event + "\x00" + deref(sh.matcher) + "\x00" + string(sh.h.raw) + "\x00" + mo.value
	if target != primary {
		key += "\x00" + target.Name
	}
	sum := sha256.Sum256([]byte(key))
	id := fmt.Sprintf("%s%s:%d:%s@%s", OwnedPrefix, sh.event, sh.ordinal, hex.EncodeToString(sum[:])[:8], sh.origin)
	command := cmd
	if p.to.Payload.NamesNoEvent() && p.opts.Wrap && !native {
		// The host's payload names no event (Copilot CLI): wrap is told
		// which one this entry is registered on.
		hostFlag := " wrap --from " + p.from.Name + " --host " + p.to.Name + " "
		command = strings.Replace(command, hostFlag, hostFlag+"--host-event "+target.Name+" ", 1)
	}
	if tf.NameField == "" {
		command = withMarker(command, id)
	}
	// The handler's members in the order hookx has always written them.
	var h object
	accepts := func(k string) bool { return len(tf.HandlerKeys) == 0 || slices.Contains(tf.HandlerKeys, k) }
	put := func(k string, v any, what string) {
		if accepts(k) {
			h = append(h, member{k, v})
			return
		}
		p.add(Item{Level: NotCarried, Guard: p.sourceGuard(sh.event), Source: sh.where, Event: sh.event, Matcher: deref(sh.matcher), Command: f.Command,
			What: what + " not written", Reason: p.to.Agent + " handlers have no " + k + " field"})
	}
	if tf.NameField != "" {
		put(tf.NameField, id, "the name")
	}
	if accepts("type") || !tf.TypeOptional {
		put("type", "command", "the type")
	}
	put(tf.CommandField, command, "the command")
	if tf.ShellField && (!p.opts.Wrap || native) && f.Shell != "" {
		put("shell", f.Shell, "the shell "+strconv.Quote(f.Shell))
	}
	put(tf.TimeoutField, timeout, "the timeout")
	if f.Async && !f.AsyncRewake && tf.AsyncField != "" {
		// Both agents run it in the background and let it decide nothing.
		put(tf.AsyncField, true, "async")
	}
	if label != "" && tf.LabelField != "" {
		put(tf.LabelField, label, "the label "+strconv.Quote(label))
	} else if label != "" {
		p.add(Item{Level: Note, Source: sh.where, Event: sh.event, Matcher: deref(sh.matcher), Command: f.Command,
			What: "label " + strconv.Quote(label) + " not carried", Reason: p.to.Agent + " handlers have no field for it"})
	}
	var g object
	if !tf.Grouped() {
		// A list of handlers (Copilot CLI): the handler is the entry, with
		// the matcher in it where the agent takes one; wrap --match
		// filters in any case.
		g = h
		if mo.matcher != nil && accepts("matcher") {
			g = append(g, member{"matcher", *mo.matcher})
		}
		return Entry{Event: target.Name, ID: id, Source: sh.where, SourceEvent: sh.event,
			Matcher: mo.matcher, Command: command, Timeout: timeout, group: compact(marshal(g))}
	}
	if mo.matcher != nil {
		g = append(g, member{"matcher", *mo.matcher})
	}
	if tf.Sequential && sh.seq != nil && *sh.seq {
		g = append(g, member{"sequential", true})
	}
	g = append(g, member{"hooks", []object{h}})
	return Entry{Event: target.Name, ID: id, Source: sh.where, SourceEvent: sh.event,
		Matcher: mo.matcher, Command: command, Timeout: timeout, group: compact(marshal(g))}
}

// member is one member of an object written in the order given.
type member struct {
	key   string
	value any
}

// object is a JSON object whose members keep their order.
type object []member

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshalPlain(m.key)
		if err != nil {
			return nil, err
		}
		v, err := marshalPlain(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalPlain encodes v without HTML escaping and without a newline.
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// newFile is the text of a new target file: the shape's envelope, and
// nothing else.
func (p *planner) newFile() []byte {
	env := p.to.Settings.Shape.Envelope
	if len(env) == 0 {
		return []byte("{\n}\n")
	}
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var o object
	for _, k := range keys {
		o = append(o, member{k, env[k]})
	}
	return append(marshal(o), '\n')
}

// checkRootKeys reports the root keys of the target that its agent does
// not accept (where the shape lists the only ones it does).
func (p *planner) checkRootKeys(d *doc) {
	shape := p.to.Settings.Shape
	if len(shape.RootKeys) == 0 {
		return
	}
	for _, k := range rootKeys(d) {
		if !shape.RootKeyAllowed(k) {
			p.add(Item{Level: Warning, Source: d.path, What: "the root key " + strconv.Quote(k),
				Reason: fmt.Sprintf("%s accepts only %s at the root of this file; with another key it may refuse the whole file", p.to.Agent, strings.Join(shape.RootKeys, ", ")),
				Fix:    "remove " + strconv.Quote(k) + " by hand"})
		}
	}
}

// rootKeysKept refuses an edit that would add a root key the target's
// agent does not accept: migrate writes none, whatever it was given.
func (p *planner) rootKeysKept(before, after *doc) error {
	shape := p.to.Settings.Shape
	if len(shape.RootKeys) == 0 {
		return nil
	}
	had := rootKeys(before)
	for _, k := range rootKeys(after) {
		if !shape.RootKeyAllowed(k) && !slices.Contains(had, k) {
			return after.errAt(0, "would add the root key %q, which %s does not accept", k, p.to.Agent)
		}
	}
	return nil
}

// rootKeys lists the keys of a document's root object.
func rootKeys(d *doc) []string {
	obj, _ := d.root.Value.(*hujson.Object)
	if obj == nil {
		return nil
	}
	keys := make([]string, 0, len(obj.Members))
	for i := range obj.Members {
		keys = append(keys, litString(obj.Members[i].Name.Value.(hujson.Literal)))
	}
	return keys
}

// idiomWarning tells, for an unwrapped hook, which of its output idioms the
// target host reads differently (from the table's output contracts).
func (p *planner) idiomWarning(base Item, em mappings.EventMapping) {
	var diffs []string
	if p.from.Protocol != p.to.Protocol {
		diffs = append(diffs, fmt.Sprintf("exit codes and JSON decisions are read by %s's rules, not %s's", p.to.Agent, p.from.Agent))
	} else if p.from.OutputForm != p.to.OutputForm {
		// One family, but one agent reads an answer form of its own
		// (Crush: stdout at exit 0 only, decision allow or deny, halt; no
		// block, no continue); its exit codes are named below.
		diffs = append(diffs, fmt.Sprintf("%s and %s read a hook's JSON answer differently (when stdout is read, which top-level decisions count, how to stop)", p.to.Agent, p.from.Agent))
	} else if p.from.Reading.ByExit() != p.to.Reading.ByExit() || !slices.Equal(p.from.Reading.BlockingExits, p.to.Reading.BlockingExits) {
		// One family, read differently (TerminaI: the exit code first).
		diffs = append(diffs, fmt.Sprintf("%s %s, where %s %s", p.to.Agent, p.to.Reading, p.from.Agent, p.from.Reading))
	}

	so, do := em.From.Output, em.To.Output
	var lostBlocks []string
	for _, code := range slices.Sorted(maps.Keys(mergeKeys(so.Exits, do.Exits))) {
		n, _ := strconv.Atoi(code)
		from, to := so.ExitEffect(n), do.ExitEffect(n)
		if from == to {
			continue
		}
		// One protocol, but an exit code with an effect of one agent's
		// own (Factory Droid's exit 3 aborts): the other reads it as a
		// non-blocking error, or as something else.
		diffs = append(diffs, fmt.Sprintf("exit %s %s in %s, %s in %s", code, exitEffectText(from), p.from.Agent, exitEffectText(to), p.to.Agent))
	}
	lostBlocks = lostExitBlocks(p.from, p.to, em)
	if len(lostBlocks) > 0 && p.sourceGuard(base.Event) {
		it := base
		it.Guard, it.Level, it.What = true, Weakened, "exit codes that block"
		it.Reason = strings.Join(lostBlocks, "; ") + ": the action goes ahead where " + p.from.Agent + " would stop it"
		it.Fix = "run without --no-wrap: hookx wrap reads the exit code as " + p.from.Agent + " does"
		p.add(it)
	}
	if so.PlainText != do.PlainText && so.PlainText != "" && do.PlainText != "" {
		diffs = append(diffs, fmt.Sprintf("plain stdout becomes %s (was %s)", do.PlainText, so.PlainText))
	}
	if so.Block != do.Block && so.Block != "" && do.Block != "" {
		diffs = append(diffs, fmt.Sprintf("a block means %s (was %s)", do.Block, so.Block))
	}
	if em.From.Matcher == "tool" {
		diffs = append(diffs, fmt.Sprintf("the hook receives %s tool names and arguments", p.to.Agent))
	}
	if len(diffs) == 0 {
		return
	}
	base.Level, base.What = Warning, "unwrapped hook"
	base.Reason = strings.Join(diffs, "; ")
	base.Fix = "run without --no-wrap unless the command already speaks " + p.to.Agent + "'s protocol"
	p.add(base)
}

// lostExitBlocks names the exit codes at which the source's agent blocks
// (or stops) with a reason on stderr and the target's agent, running the
// same command unwrapped, does not: both read by wrap's reader
// (translate.ReadOutput), so each family's own exit rules count (Gemini's
// 2 and up, Copilot's every non-zero exit on preToolUse, Droid's exit 3),
// not only the exit codes the table lists (output.exits).
func lostExitBlocks(from, to *mappings.Dialect, em mappings.EventMapping) []string {
	codes := map[int]bool{1: true, 2: true, 3: true}
	for _, exits := range []map[string]string{em.From.Output.Exits, em.To.Output.Exits} {
		for k := range exits {
			if n, err := strconv.Atoi(k); err == nil {
				codes[n] = true
			}
		}
	}
	for _, n := range from.Reading.BlockingExits {
		codes[n] = true
	}
	// One code no row names, for "2 and up" (Gemini CLI).
	codes[slices.Max(slices.Collect(maps.Keys(codes)))+1] = true
	var lost []string
	for _, n := range slices.Sorted(maps.Keys(codes)) {
		withReason := exitBlockLost(from, to, em, translate.Output{Stderr: []byte("reason"), ExitCode: n})
		silent := exitBlockLost(from, to, em, translate.Output{ExitCode: n})
		switch {
		case withReason != "" && silent != "":
			lost = append(lost, fmt.Sprintf("exit %d %s in %s, not in %s", n, withReason, from.Agent, to.Agent))
		case withReason != "":
			lost = append(lost, fmt.Sprintf("exit %d with a reason on stderr %s in %s, not in %s", n, withReason, from.Agent, to.Agent))
		case silent != "":
			lost = append(lost, fmt.Sprintf("exit %d with nothing on stderr %s in %s, not in %s", n, silent, from.Agent, to.Agent))
		}
	}
	return lost
}

// exitBlockLost is what out does in from's agent on em.From ("blocks",
// "stops the agent") where em.To's agent, reading the same out, neither
// blocks nor stops; "" otherwise.
func exitBlockLost(from, to *mappings.Dialect, em mappings.EventMapping, out translate.Output) string {
	fv, _, ferr := translate.ReadOutput(from, em.From.Name, out)
	tv, _, terr := translate.ReadOutput(to, em.To.Name, out)
	switch {
	case ferr != nil || terr != nil || fv.Ignored != "" || tv.Block || tv.Stop:
		return ""
	case fv.Stop:
		return "stops the agent"
	case fv.Block:
		return "blocks"
	}
	return ""
}

// mergeKeys is the set of keys of a and b.
func mergeKeys(a, b map[string]string) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// exitEffectText says what an exit code's effect (mappings.Output.Exits)
// does.
func exitEffectText(effect string) string {
	switch effect {
	case "block":
		return "blocks"
	case "stop":
		return "stops the agent"
	case "context":
		return "hands stderr to the model"
	case "":
		return "is a non-blocking error"
	}
	return effect
}

// envRules maps the source's variables to the target's (T§12).
func (p *planner) envRules() map[string]envRule {
	r := map[string]envRule{}
	fe, te := p.from.Env, p.to.Env
	if fe.ProjectDir != "" && te.ProjectDir != "" {
		r[fe.ProjectDir] = envRule{to: te.ProjectDir, quote: true}
	}
	if fe.Cwd != "" {
		to := te.Cwd
		if to == "" {
			to = te.ProjectDir
		}
		r[fe.Cwd] = envRule{to: to, quote: true}
	}
	if fe.SessionID != "" && te.SessionID != "" {
		r[fe.SessionID] = envRule{to: te.SessionID}
	}
	var rootVars []string
	if p.from.Plugin != nil {
		rootVars = []string{p.from.Plugin.RootVar}
	}
	for _, v := range rootVars {
		switch {
		case p.opts.PluginOut:
			// Into the target's own plugin or extension: its placeholder.
			r[v] = envRule{to: PluginRootVar(p.to), quote: true}
		case p.opts.PluginRoot != "":
			r[v] = envRule{literal: p.opts.PluginRoot}
		}
	}
	return r
}

// isSourceVar reports a variable the source agent sets for its hooks that the
// rules do not carry: one with the source's prefix (CLAUDE_, GEMINI_).
func (p *planner) isSourceVar(name string) bool {
	prefix, _, ok := strings.Cut(p.from.Env.ProjectDir, "_")
	if !ok || !strings.HasPrefix(name, prefix+"_") {
		return false
	}
	if _, set := p.from.Env.Set[name]; set {
		return false
	}
	// The target exports some of the source's names itself (Gemini sets
	// CLAUDE_PROJECT_DIR); those are fine.
	return name != p.to.Env.ProjectDir
}

// marshal encodes v indented by two spaces, without HTML escaping (hook
// commands are full of & and >).
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
