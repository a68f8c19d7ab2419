package doctor

import (
	"fmt"
	"os"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
)

// checkHookx checks an entry that runs "hookx wrap": hookx must be where
// the agent looks for it, and the wrapped command must exist.
func (c *checker) checkHookx(h *hook, args []word, inner string) {
	d := h.f.d
	prog := args[0].s
	h.hookx = prog
	if strings.Contains(prog, "/") {
		fi, err := os.Stat(c.resolve(prog))
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			c.add(h, h.cmdOff, ruleHookxNotFound, fmt.Sprintf("hookx is not at %s; %s", prog, c.consequence(h, d, 127, prog+": not found")),
				"install hookx (go install ./cmd/hookx) and run hookx migrate again")
			return
		}
	} else if err := c.lookPath(prog); err != nil {
		c.add(h, h.cmdOff, ruleHookxNotFound, fmt.Sprintf("hookx is not on the PATH the agent passes to hooks; %s", c.consequence(h, d, 127, "hookx: not found")),
			"install hookx on that PATH (go install ./cmd/hookx), or run hookx migrate again from the installed binary to write its full path")
	}
	from := d
	for i, a := range args {
		if a.s == "--from" && i+1 < len(args) {
			if o, err := c.tbl.Dialect(args[i+1].s); err == nil {
				from, h.hookxFrom = o, o
			}
		}
	}
	if inner == "" {
		return
	}
	f, err := shParser().Parse(strings.NewReader(inner), "")
	if err != nil {
		return
	}
	// The wrapped hook is judged by its own agent's rules: wrap reads its
	// answer the way that agent would.
	ih := *h
	ih.inner = nil
	if m, err := c.tbl.MapEvent(d, from, h.event); err == nil && m.To != nil {
		ih.inner = m.To
	}
	for _, st := range f.Stmts {
		if call := firstCall(st.Cmd); call != nil {
			c.checkProgram(&ih, from, c.words(from, call.Args))
		}
	}
}

// owned reports whether a hook is an entry hookx migrate wrote: named
// "hookx:..." (Gemini) or with the command marker "# hookx:..." (Claude).
func owned(h *hook) bool {
	if migrate.IsOwnedID(h.name) {
		return true
	}
	i := strings.LastIndex(h.command, "# "+migrate.OwnedPrefix)
	return i > 0 && migrate.IsOwnedID(h.command[i+2:])
}

// checkHookxEntries reports hookx entries that are stale against their
// source: what hookx migrate --check would say; and each guard of the
// source that migrate does not carry, or carries weaker (what its default
// report names and --strict refuses).
func (c *checker) checkHookxEntries() {
	for _, f := range c.files {
		var first *hook
		for _, h := range f.hooks {
			if owned(h) {
				first = h
				break
			}
		}
		if first == nil || first.hookx == "" {
			continue
		}
		src := c.sourceDialect(f, first)
		res, from := c.stale(f, src, first.hookx, "")
		if res == nil || res.Changed() {
			c.add(first, first.off, ruleStaleEntries, fmt.Sprintf("hookx's entries are stale against %s; they do not run what the source says now", from),
				fmt.Sprintf("run hookx migrate --from %s --to %s%s", src.Name, f.d.Name, userFlag(f)))
		}
		if res == nil || res.Changed() {
			// Stale: migrate will say it all when it is run again.
			continue
		}
		for _, it := range res.Items {
			if !it.GuardLost() {
				continue
			}
			c.add(first, first.off, ruleGuardNotCarried, guardLost(src, f.d, it), it.Fix)
		}
	}
}

func userFlag(f *file) string {
	if f.scope == "user" {
		return " --user"
	}
	return ""
}

// sourceDialect is the dialect hookx migrated f's entries from: the one
// its first entry's hookx wrap --from names, else another one whose
// settings exist in the same scope.
func (c *checker) sourceDialect(f *file, first *hook) *mappings.Dialect {
	if first.hookxFrom != nil && first.hookxFrom != f.d {
		return first.hookxFrom
	}
	for _, g := range c.files {
		if g.d != f.d && (g.scope == "user") == (f.scope == "user") {
			return g.d
		}
	}
	for _, d := range c.tbl.Dialects {
		if d != f.d {
			return d
		}
	}
	return f.d
}

// stale plans the migration into f again, as migrate --check does: the
// plan (nil: no source left, or it does not plan) and the sources read.
func (c *checker) stale(f *file, src *mappings.Dialect, hookx, version string) (*migrate.Result, string) {
	var sources []migrate.Source
	var names []string
	for _, g := range c.files {
		if g.d != src || (g.scope == "user") != (f.scope == "user") {
			continue
		}
		sources = append(sources, migrate.Source{Path: g.shown, Scope: g.scope, Data: g.data})
		names = append(names, g.shown)
	}
	if len(sources) == 0 {
		return nil, "a source that no longer exists (no " + src.Agent + " settings)"
	}
	res, err := migrate.Plan(migrate.Options{Table: c.tbl, From: src.Name, To: f.d.Name, Wrap: true, Hookx: hookx, Version: version},
		sources, migrate.Source{Path: f.shown, Data: f.data})
	if err != nil {
		return &migrate.Result{}, ""
	}
	return res, strings.Join(names, " and ")
}

// guardLost says that a guard of src, in a migrate report item, is not
// carried to host, or is carried weaker (HX417).
func guardLost(src, host *mappings.Dialect, it migrate.Item) string {
	how := "is not carried to"
	if it.Level == migrate.Weakened {
		how = "is weaker on"
	}
	return fmt.Sprintf("the %s guard at %s (%s: %s) %s %s: %s", src.Agent, it.Source, it.Event, it.What, how, host.Agent, it.Reason)
}
