package doctor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/hookx-dev/hookx/migrate/clinehooks"
	"github.com/tailscale/hujson"
)

// file is one settings file as its agent reads it.
type file struct {
	d     *mappings.Dialect
	scope string // "project", "local" or "user"
	path  string // on disk
	shown string // in findings
	data  []byte
	root  *hujson.Value // nil when it does not parse at all
	hooks []*hook
}

func (f *file) lineCol(off int) (line, col int) {
	off = min(max(off, 0), len(f.data))
	line = 1 + bytes.Count(f.data[:off], []byte("\n"))
	col = 1 + off - (bytes.LastIndexByte(f.data[:off], '\n') + 1)
	return line, col
}

// hook is one handler of a settings file, with where each part is written.
type hook struct {
	f          *file
	event      string
	ev         *mappings.Event // nil: the agent does not know the event
	matcher    *string
	matcherOff int
	off        int // the handler object
	typ        string
	command    string
	cmdOff     int
	name       string
	timeout    *float64
	timeoutOff int
	env        map[string]string
	cond       string // the "if" field, when present
	condOff    int
	hookx      string            // how the entry calls hookx, for "hookx wrap" entries
	hookxFrom  *mappings.Dialect // the dialect its hookx wrap --from names
	inner      *mappings.Event   // set while judging the command hookx wraps: its own event
}

// readFiles reads every settings file of every dialect that exists.
func (c *checker) readFiles() []*file {
	var files []*file
	for _, d := range c.tbl.Dialects {
		if d.PluginHost != nil {
			continue // hookx's own files: checkPluginHosts
		}
		type loc struct{ rel, scope string }
		locs := []loc{{d.Settings.Project, "project"}}
		if g := d.Settings.ProjectGlob; g != "" {
			// Every file the agent reads (Copilot CLI: .github/hooks/*.json).
			matches, _ := filepath.Glob(filepath.Join(c.opts.Dir, filepath.FromSlash(g)))
			locs = locs[:0]
			for _, m := range matches {
				if r, err := filepath.Rel(c.opts.Dir, m); err == nil {
					locs = append(locs, loc{filepath.ToSlash(r), "project"})
				}
			}
		}
		if d.Settings.Local != "" {
			locs = append(locs, loc{d.Settings.Local, "local"})
		}
		if c.opts.User && c.opts.Home != "" && d.Settings.User != "" {
			locs = append(locs, loc{d.Settings.User, "user"})
		}
		for _, l := range locs {
			if l.rel == "" {
				continue
			}
			var path, shown string
			if rest, ok := strings.CutPrefix(l.rel, "~/"); ok {
				path, shown = filepath.Join(c.opts.Home, filepath.FromSlash(rest)), l.rel
			} else {
				path = filepath.Join(c.opts.Dir, filepath.FromSlash(l.rel))
				shown = path
			}
			data, err := safefile.ReadRegular(path, migrate.MaxFileSize)
			if err != nil {
				continue // absent (or unreadable, or not a regular file): the agent has no hooks there either
			}
			f := &file{d: d, scope: l.scope, path: path, shown: shown, data: data}
			files = append(files, f)
		}
	}
	return files
}

// parse parses a file the way its agent does and reports what makes the
// agent reject it.
func (c *checker) parse(f *file) {
	if len(bytes.TrimSpace(f.data)) == 0 {
		c.addFile(f, -1, ruleEmptyFile, "the file is empty; "+f.d.Agent+" reads it as invalid JSON and loads none of its settings", "write {} or delete it")
		return
	}
	v, err := migrate.ParseJSONC(f.shown, f.data)
	if err != nil {
		var ie *migrate.InputError
		if !errors.As(err, &ie) {
			c.addFile(f, -1, ruleInvalidJSON, "the file does not parse; "+f.d.Agent+" rejects it and none of its hooks run", "fix the JSON syntax")
			return
		}
		if msg, ok := strings.CutPrefix(ie.Msg, "does not parse: "); ok {
			c.addFileAt(f, ruleInvalidJSON, ie.Line, ie.Col, "the file does not parse ("+msg+"); "+f.d.Agent+" rejects it and none of its hooks run", "fix the JSON syntax")
		} else {
			// Past hookx's bounds (size, nesting): no agent's settings
			// come near them.
			c.addFileAt(f, ruleUnreadableFile, ie.Line, ie.Col, "hookx does not read this file: "+ie.Msg, "check that this is really a settings file")
		}
		return
	}
	f.root = &v
	rules := " reads settings as strict JSON"
	if !f.d.Settings.StrictJSON {
		rules = " strips comments, then parses strict JSON"
	}
	if off := migrate.TrailingComma(&v); off >= 0 {
		c.addFile(f, off, ruleTrailingComma, "trailing comma; "+f.d.Agent+rules+", so it rejects the whole file and none of its hooks run", "delete the comma")
	}
	if f.d.Settings.StrictJSON {
		if off := migrate.CommentAt(&v); off >= 0 {
			fix := "delete the comment (keep notes in a README)"
			if bytes.Contains(f.data, []byte(IgnoreDirective)) {
				fix = "delete the comment: this file cannot carry " + IgnoreDirective + "; silence with hookx doctor --ignore"
			}
			c.addFile(f, off, ruleStrictComment, "comment in a strict JSON file; "+f.d.Agent+" rejects the whole file and none of its hooks run", fix)
		}
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		c.addFile(f, v.StartOffset, ruleRootNotObject, "the top level is not an object; "+f.d.Agent+" loads no settings from it", "wrap the settings in {}")
		f.root = nil
	}
}

func str(v *hujson.Value) (string, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return "", false
	}
	return lit.String(), true
}

func member(o *hujson.Object, name string) *hujson.ObjectMember {
	for i := range o.Members {
		if s, _ := str(&o.Members[i].Name); s == name {
			return &o.Members[i]
		}
	}
	return nil
}

// walk reads the hooks of a parsed file, reporting the shapes the agent
// discards.
func (c *checker) walk(f *file) {
	shape := f.d.Settings.Shape
	if len(shape.RootKeys) > 0 {
		if root, ok := f.root.Value.(*hujson.Object); ok {
			for i := range root.Members {
				name, _ := str(&root.Members[i].Name)
				if !shape.RootKeyAllowed(name) {
					c.addFile(f, root.Members[i].Name.StartOffset, ruleRootKey,
						fmt.Sprintf("root key %q: %s accepts only %s at the root of this file and drops the whole file, so none of its hooks run", name, f.d.Agent, strings.Join(shape.RootKeys, ", ")),
						"remove "+strconv.Quote(name))
				}
			}
		}
	}
	hv := f.root.Find(shape.HooksPointer())
	if hv == nil {
		return
	}
	key := shape.Hooks()
	prefix := key + "."
	if key == "" {
		prefix = ""
	}
	obj, ok := hv.Value.(*hujson.Object)
	if !ok {
		c.addFile(f, hv.StartOffset, ruleHooksNotObject, "\""+key+"\" is not an object of event names; "+f.d.Agent+" runs none of them", `write "`+key+`": {"<Event>": [...]}`)
		return
	}
	c.duplicates(f, hv)
	for i := range obj.Members {
		m := &obj.Members[i]
		name, _ := str(&m.Name)
		if slices.Contains(f.d.Settings.Shape.Reserved, name) {
			continue // no event (TerminaI's hooks.disabled)
		}
		if repl, ok := f.d.Settings.LegacyHookKeys[name]; ok {
			c.addFile(f, m.Name.StartOffset, ruleLegacyKey, prefix+name+" is a legacy key; "+f.d.Agent+" reads the switch from "+repl+" and skips this one", "move it to "+repl+" (hooks are on by default)")
			continue
		}
		if _, isObj := m.Value.Value.(*hujson.Object); isObj && key == "" {
			// The events wrapped in an object, as other agents keep them.
			c.addFile(f, m.Name.StartOffset, ruleEventsNested, fmt.Sprintf("%q is no event: %s reads the events at the root of %s and silently ignores every hook under %q", name, f.d.Agent, f.d.Settings.Project, name),
				"move the events out of \""+name+"\" to the root of the file")
			continue
		}
		ev := f.d.Event(name)
		if !c.checkEventName(f, name, m.Name.StartOffset, hookCommands(&m.Value)) {
			ev = nil
		}
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			c.addFile(f, m.Value.StartOffset, ruleEventNotArray, prefix+name+" is not an array of matcher groups; "+f.d.Agent+" runs none of its hooks", `write "`+name+`": [{"matcher": "...", "hooks": [...]}]`)
			continue
		}
		for j := range arr.Elements {
			c.walkGroup(f, name, ev, &arr.Elements[j])
		}
	}
}

func (c *checker) walkGroup(f *file, event string, ev *mappings.Event, g *hujson.Value) {
	obj, ok := g.Value.(*hujson.Object)
	if !ok {
		c.addFile(f, g.StartOffset, ruleGroupNotObject, "a matcher group of "+event+" is not an object; "+f.d.Agent+" discards it", `write {"matcher": "...", "hooks": [...]}`)
		return
	}
	proto := &hook{f: f, event: event, ev: ev, matcherOff: g.StartOffset}
	if m := member(obj, "matcher"); m != nil {
		if s, ok := str(&m.Value); ok {
			proto.matcher, proto.matcherOff = &s, m.Value.StartOffset
		} else {
			c.add(proto, m.Value.StartOffset, ruleMatcherNotString, "the matcher is not a string; "+f.d.Agent+" discards the group", "write the matcher as a string")
			return
		}
	}
	hm := member(obj, "hooks")
	shape := f.d.Settings.Shape
	var handlers []hujson.Value
	switch {
	case hm == nil && !shape.Grouped():
		// A list of handlers (Copilot CLI): the entry is the handler.
		handlers = []hujson.Value{*g}
	case hm == nil:
		if cm := member(obj, "command"); cm != nil {
			proto.command, _ = str(&cm.Value)
			c.add(proto, g.StartOffset, ruleFlatShape, "flat matcher+command shape; "+f.d.Agent+" reads commands only from a nested \"hooks\" array and silently discards this entry, so it never fires",
				`nest it: {"matcher": ..., "hooks": [{"type": "command", "command": ...}]}`)
			return
		}
		c.add(proto, g.StartOffset, ruleGroupNoHooks, "the group has no \"hooks\" array; "+f.d.Agent+" discards it", `add "hooks": [{"type": "command", "command": ...}]`)
		return
	default:
		arr, ok := hm.Value.Value.(*hujson.Array)
		if !ok {
			c.add(proto, hm.Value.StartOffset, ruleGroupHooksArray, "\"hooks\" in the group is not an array; "+f.d.Agent+" discards the group", `write "hooks": [{"type": "command", "command": ...}]`)
			return
		}
		handlers = arr.Elements
	}
	// The handler's command and timeout, under the shape's names (Copilot
	// CLI: bash, timeoutSec), or the names the agent also takes.
	cmdField := func(o *hujson.Object) *hujson.ObjectMember {
		if m := member(o, shape.CommandField); m != nil {
			return m
		}
		return member(o, "command")
	}
	if ev != nil {
		// A finding about the matcher names the command when there is one.
		mp := *proto
		if len(handlers) == 1 {
			if o, ok := handlers[0].Value.(*hujson.Object); ok {
				if m := cmdField(o); m != nil {
					mp.command, _ = str(&m.Value)
				}
			}
		}
		c.checkMatcher(&mp)
	}
	for k := range handlers {
		hv := &handlers[k]
		h := *proto
		h.off = hv.StartOffset
		ho, ok := hv.Value.(*hujson.Object)
		if !ok {
			c.add(&h, hv.StartOffset, ruleHandlerNotObject, "a handler is not an object; "+f.d.Agent+" discards it", `write {"type": "command", "command": ...}`)
			continue
		}
		if m := member(ho, "type"); m != nil {
			h.typ, _ = str(&m.Value)
		}
		if m := cmdField(ho); m != nil {
			h.command, _ = str(&m.Value)
			h.cmdOff = m.Value.StartOffset
		} else {
			h.cmdOff = hv.StartOffset
		}
		if m := member(ho, "name"); m != nil {
			h.name, _ = str(&m.Value)
		}
		if m := member(ho, "if"); m != nil {
			h.cond, h.condOff = "set", m.Name.StartOffset
			if s, ok := str(&m.Value); ok {
				h.cond = s
			}
		}
		tm := member(ho, shape.TimeoutField)
		if tm == nil {
			tm = member(ho, "timeout")
		}
		if m := tm; m != nil {
			if lit, ok := m.Value.Value.(hujson.Literal); ok && lit.Kind() == '0' {
				if t, err := strconv.ParseFloat(string(lit), 64); err == nil {
					h.timeout, h.timeoutOff = &t, m.Value.StartOffset
				}
			}
		}
		for i := range ho.Members {
			name, _ := str(&ho.Members[i].Name)
			if why, ok := f.d.Settings.Shape.Unread[name]; ok {
				c.add(&h, ho.Members[i].Name.StartOffset, ruleUnreadField, why,
					fmt.Sprintf("write %q instead (%s)", f.d.Settings.Shape.TimeoutField, timeoutUnitName(f.d.Timeout.Unit)))
			}
		}
		if m := member(ho, "env"); m != nil {
			c := m.Value.Clone()
			c.Standardize()
			_ = json.Unmarshal(c.Pack(), &h.env)
		}
		f.hooks = append(f.hooks, &h)
	}
}

// guardEvents names d's events whose hook's failure refuses the call.
func guardEvents(d *mappings.Dialect) string {
	var names []string
	for _, e := range d.Events {
		if e.Output.BlocksOnFailure() {
			names = append(names, e.Name)
		}
	}
	return strings.Join(names, ", ")
}

// duplicates reports keys written twice in the hooks object: both agents
// parse with JSON.parse, which keeps only the last, so the hooks under the
// earlier one never fire.
func (c *checker) duplicates(f *file, v *hujson.Value) {
	switch x := v.Value.(type) {
	case *hujson.Object:
		key := func(name string) string { return name }
		if f.d.Settings.HookFiles {
			key = clinehooks.FoldKey // hookx dispatch's reading: in any case
		}
		last := map[string]int{}
		for i := range x.Members {
			name, _ := str(&x.Members[i].Name)
			last[key(name)] = i
		}
		for i := range x.Members {
			name, _ := str(&x.Members[i].Name)
			if j := last[key(name)]; j != i {
				line, _ := f.lineCol(x.Members[j].Name.StartOffset)
				msg := fmt.Sprintf("%q is written again at line %d; %s keeps only the last one, so what is written here is ignored", name, line, f.d.Agent)
				if f.d.Settings.HookFiles {
					// The entries file is hookx dispatch's, not the
					// agent's: it refuses the whole file
					// (clinehooks.readEntries).
					msg = fmt.Sprintf("%q is written again at line %d; hookx dispatch, which reads this file, refuses it (a key written twice, in any case): none of its hooks runs, and every %s call is refused", name, line, guardEvents(f.d))
				}
				c.addFile(f, x.Members[i].Name.StartOffset, ruleDuplicateKey, msg, "merge the two into one")
			}
			c.duplicates(f, &x.Members[i].Value)
		}
	case *hujson.Array:
		for i := range x.Elements {
			c.duplicates(f, &x.Elements[i])
		}
	}
}

func timeoutUnitName(unit string) string {
	if unit == "ms" {
		return "milliseconds"
	}
	return "seconds"
}

// Settings returns the settings files of every dialect doctor looks for
// under opts (the table's project, local and, with User, user files; a
// glob as the agent reads it) and reports whether any of them exists.
func Settings(opts Options) (lookedFor []string, found bool) {
	if opts.Table == nil {
		opts.Table = mappings.Default()
	}
	if opts.Dir == "" {
		opts.Dir = "."
	}
	c := &checker{opts: opts, tbl: opts.Table}
	for _, d := range c.tbl.Dialects {
		files := []string{cmpOr(d.Settings.ProjectGlob, d.Settings.Project), d.Settings.Local}
		for _, dir := range d.Settings.HookDirs { // and the files it runs, one per event
			files = append(files, dir+"/<Event>")
		}
		for _, p := range files {
			if p != "" && !slices.Contains(lookedFor, p) {
				lookedFor = append(lookedFor, p)
			}
		}
		if opts.User && opts.Home != "" && d.Settings.User != "" && !slices.Contains(lookedFor, d.Settings.User) {
			lookedFor = append(lookedFor, d.Settings.User)
		}
	}
	found = len(c.readFiles()) > 0
	for _, d := range c.tbl.Dialects {
		for _, dir := range hookFileDirs(d, opts) {
			found = found || len(agentHookFiles(d, dir.path, true)) > 0 // Cline's hook files, hookx's or not
		}
	}
	for _, d := range c.tbl.Dialects {
		if ph := d.PluginHost; ph != nil && !found {
			for _, rel := range []string{ph.Hooks, ph.Extension} {
				if _, err := os.Lstat(filepath.Join(opts.Dir, filepath.FromSlash(rel))); err == nil {
					found = true
				}
			}
		}
	}
	return lookedFor, found
}

// hookCommands are the commands of the hooks under v (an event key's
// value), for a finding about the key to name the hooks it affects.
func hookCommands(v *hujson.Value) []string {
	var out []string
	var walk func(v *hujson.Value)
	walk = func(v *hujson.Value) {
		switch x := v.Value.(type) {
		case *hujson.Object:
			for i := range x.Members {
				m := &x.Members[i]
				if n, _ := str(&m.Name); n == "command" || n == "bash" {
					if s, ok := str(&m.Value); ok {
						out = append(out, s)
						continue
					}
				}
				walk(&m.Value)
			}
		case *hujson.Array:
			for i := range x.Elements {
				walk(&x.Elements[i])
			}
		}
	}
	walk(v)
	return out
}
