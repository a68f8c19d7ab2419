package migrate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

// The target entries hookx owns that no entry of this run replaces: which
// are stale (their source was read and no longer gives them) and go, which
// are another source's and stay, and what the report says of each. A run
// never removes what it cannot prove stale, and never removes or weakens a
// hook that can block without naming it (Weakened: --strict refuses it).

// sourceRead records a source of this run: its origin (sourceOrigin), the
// path shown, and the setting that switches its hooks off, if it does.
func (p *planner) sourceRead(origin, path, off string) {
	if p.readPaths == nil {
		p.readPaths, p.off = map[string][]string{}, map[string]string{}
	}
	p.read[origin] = true
	if !slices.Contains(p.readPaths[origin], path) {
		p.readPaths[origin] = append(p.readPaths[origin], path)
	}
	if off != "" {
		p.off[origin] = off
	}
}

// targetBlocks reports whether a hook of the target's event can block
// something (its block is more than nothing, or hookx fails closed there):
// removing or weakening such an entry is never quiet.
func (p *planner) targetBlocks(event string) bool {
	e := p.to.Event(event)
	return e != nil && (e.Output.BlocksOnFailure() || e.Output.Block != "" && e.Output.Block != "none")
}

// originText names an origin (dialect:scope) for people: the files read for
// it in this run, else the file its dialect keeps that scope in.
func (p *planner) originText(key string) string {
	name, scope, _ := strings.Cut(key, ":")
	d, err := p.tbl.Dialect(name)
	if err != nil {
		return unescapeOrigin(key)
	}
	if paths := p.readPaths[key]; len(paths) > 0 {
		return fmt.Sprintf("%s's %s", d.Agent, strings.Join(paths, " and "))
	}
	scope = unescapeOrigin(scope)
	var file string
	switch {
	case scope == "project":
		file = d.Settings.Project
		if d.Settings.ProjectGlob != "" {
			file = d.Settings.ProjectGlob
		}
	case scope == "local":
		file = d.Settings.Local
	case scope == "user":
		file = d.Settings.User
	case strings.HasPrefix(scope, "plugin:"):
		return fmt.Sprintf("the %s plugin %s", d.Agent, strings.TrimPrefix(scope, "plugin:"))
	}
	if file == "" {
		return fmt.Sprintf("%s's %s settings", d.Agent, scope)
	}
	return fmt.Sprintf("%s's %s settings (%s)", d.Agent, scope, file)
}

// rerun is the command that migrates an origin's entries again.
func (p *planner) rerun(key string) string {
	name, scope, _ := strings.Cut(key, ":")
	cmd := fmt.Sprintf("hookx migrate --from %s --to %s", name, p.to.Name)
	switch scope = unescapeOrigin(scope); {
	case scope == "user":
		cmd += " --user"
	case strings.HasPrefix(scope, "plugin:"):
		cmd += " --plugin " + HostQuote(strings.TrimPrefix(scope, "plugin:"))
	}
	return cmd
}

// keptGroup counts the entries of another agent's source that a run left
// alone, for one line of the report.
type keptGroup struct {
	origin string // dialect:scope, or the dialect alone
	n      int
}

// staleOwned decides on an owned entry of the target event ev that no
// entry of this run replaces, and reports it; true: remove it.
func (p *planner) staleOwned(ev string, x ownedEntry) bool {
	o := x.origin
	key := o.key()
	v, _ := p.readGroupView(x.std)
	blocks := p.targetBlocks(ev)
	base := Item{Guard: blocks, Event: ev, Matcher: deref(v.matcher), Command: v.command, What: "removed " + x.id}
	switch {
	case key != "" && p.read[key]:
		// Its source was read, and no hook there gives it any more.
		if blocks {
			it := base
			it.Level = Weakened
			if off := p.off[key]; off != "" {
				it.Reason = fmt.Sprintf("%s turns all its hooks off (%s), so this run carries none of them; %s no longer runs this guard", p.originText(key), off, p.to.Agent)
				it.Fix = "turn the hooks of that file back on and migrate again, if the guard must stay"
			} else {
				it.Reason = fmt.Sprintf("no hook in %s gives this entry any more: its hook was removed, moved to another event, or can no longer be carried (see the items above); %s no longer runs this guard", p.originText(key), p.to.Agent)
				it.Fix = "if the guard must stay, put its hook back in the source (or fix what the items above name) and migrate again"
			}
			p.add(it)
		}
		return true
	case o.dialect != "" && o.dialect != p.from.Name:
		// Another agent's source: not this run's to judge.
		g := key
		if g == "" {
			g = o.dialect
		}
		if i := slices.IndexFunc(p.kept, func(k keptGroup) bool { return k.origin == g }); i >= 0 {
			p.kept[i].n++
		} else {
			p.kept = append(p.kept, keptGroup{origin: g, n: 1})
		}
		return false
	case o.dialect == "":
		// An older hookx's --no-wrap entry: neither its id nor its command
		// says which agent's settings it came from.
		it := base
		it.Guard, it.Level, it.What = false, Warning, "kept "+x.id
		it.Reason = "an older hookx wrote it, and neither its id nor its command says which agent's settings it came from; no hook this run read gives it, and hookx removes only what it can prove stale"
		it.Fix = "if its hook is still in an agent's settings, migrate from there (hookx migrate --from AGENT --to " + p.to.Name + "): the entry is updated in place and gets an id that names its source; if not, delete it by hand"
		p.add(it)
		return false
	}
	// A source of this run's dialect that it did not read (a plugin, a
	// local file), or one an older hookx's id does not name.
	shown := "a source an older hookx's id does not name (project or local)"
	fix := "migrate its source again to update it (for a plugin, with --plugin), or run with --prune to remove it"
	if key != "" {
		shown, fix = p.originText(key), "run "+p.rerun(key)+" to update it, or run with --prune to remove it"
	}
	if !p.opts.Prune {
		it := base
		it.Guard, it.Level, it.What = false, Warning, "kept "+x.id
		it.Reason = "it came from " + shown + ", which this run did not read"
		it.Fix = fix
		p.add(it)
		return false
	}
	it := base
	it.Level = Weakened
	it.Reason = "--prune: it came from " + shown + ", which this run did not read; the hook no longer runs"
	p.add(it)
	return true
}

// keptReport says, once per source, that a run left another agent's
// entries alone.
func (p *planner) keptReport() {
	for _, k := range p.kept {
		what := fmt.Sprintf("kept %d entr%s of %s", k.n, pluralY(k.n), p.originText(k.origin))
		fix := p.rerun(k.origin) + " updates or removes them"
		if !strings.Contains(k.origin, ":") {
			d := p.tbl.MustDialect(k.origin)
			what = fmt.Sprintf("kept %d entr%s of %s, written by an older hookx", k.n, pluralY(k.n), d.Agent)
			fix = fmt.Sprintf("hookx migrate --from %s --to %s updates those its source still has; delete the others by hand", k.origin, p.to.Name)
		}
		p.add(Item{Level: Note, What: what,
			Reason: fmt.Sprintf("this run migrates %s's settings only; the entries of other agents' sources are left as they are", p.from.Agent),
			Fix:    fix})
	}
	p.kept = nil
}

// sourceChanged reports an update, made because the source hook changed,
// that weakens an entry that can block: it takes --fail-closed off, or its
// matcher no longer covers calls it covered.
func (p *planner) sourceChanged(prev []byte, en *Entry) {
	old, ok := p.readGroupView(prev)
	if !ok {
		return
	}
	blocks := p.targetBlocks(en.Event)
	base := Item{Guard: blocks, Source: en.Source, Event: en.Event, Matcher: deref(en.Matcher), Command: en.Command}
	has := func(cmd string) bool {
		w, ok := parseWrap(cmd)
		return ok && slices.ContainsFunc(w.flags, func(f wrapFlag) bool { return f.name == "--fail-closed" })
	}
	if has(old.command) && !has(en.Command) {
		it := base
		it.Level, it.What = Warning, "drops --fail-closed"
		if blocks {
			it.Level = Weakened
		}
		it.Reason = "the source hook changed and no longer fails closed (onFailure \"block\"): the guard now fails open when it errors or times out"
		it.Fix = "put onFailure \"block\" back in the source hook if the guard must fail closed"
		p.add(it)
	}
	if !blocks {
		return
	}
	if was, now, lost := p.narrowed(old, en); len(lost) > 0 {
		it := base
		it.Level, it.What = Weakened, "matcher narrowed"
		it.Reason = fmt.Sprintf("the source hook's matcher went from %s to %s: the guard no longer runs for %s", shownMatcher(was), shownMatcher(now), strings.Join(lost, ", "))
		it.Fix = "if it should still guard those, widen the matcher in the source hook and migrate again"
		p.add(it)
	}
}

func shownMatcher(m string) string {
	if m == "" {
		return "every tool"
	}
	return fmt.Sprintf("%q", m)
}

// narrowed compares the tool matcher of an owned entry before and after a
// source change: the --match of its hookx wrap command (the source's tool
// names) or, for an unwrapped entry, the target's own matcher. It returns
// both and the tools the old one covered and the new one does not.
func (p *planner) narrowed(old groupView, en *Entry) (was, now string, lost []string) {
	d := p.to
	was, now = deref(old.matcher), deref(en.Matcher)
	ow, ok1 := parseWrap(old.command)
	nw, ok2 := parseWrap(en.Command)
	switch {
	case ok1 && ok2:
		d = p.from
		was, _ = ow.value("--match")
		now, _ = nw.value("--match")
	case ok1 || ok2:
		return was, now, nil // a wrapped and an unwrapped entry: not comparable
	default:
		if e := d.Event(en.Event); e == nil || e.Matcher != "tool" {
			return was, now, nil
		}
	}
	if was == now {
		return was, now, nil
	}
	return was, now, lostTools(d, was, now)
}

// lostTools lists the tools of d that matcher was covers and now does not;
// "tools hookx cannot name (MCP tools …)" when was matches every name and
// now does not, and a matcher hookx cannot evaluate counts as covering
// nothing it can vouch for.
func lostTools(d *mappings.Dialect, was, now string) []string {
	tw, err1 := d.ToolMatcher(was)
	tn, err2 := d.ToolMatcher(now)
	if err1 != nil || err2 != nil {
		return []string{"calls hookx cannot judge (it cannot evaluate one of the matchers)"}
	}
	var lost []string
	for _, t := range d.Tools {
		a, errA := tw.Match(t.Name)
		b, errB := tn.Match(t.Name)
		if errA == nil && a && (errB != nil || !b) {
			lost = append(lost, t.Name)
		}
	}
	if tw.MatchesEveryName() && !tn.MatchesEveryName() {
		lost = append(lost, "tools outside "+d.Agent+"'s built-in list (MCP tools)")
	}
	return lost
}
