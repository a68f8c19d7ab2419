package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/hookx-dev/hookx/migrate/clinehooks"
)

// checkHookFiles reads what hookx migrate wrote for an agent that runs one
// executable file per event (Cline): beside its entries file
// (hookx.hooks.json), a dispatcher per event that has entries. An event
// whose file is missing or is the user's own runs none of hookx's
// entries; a dispatcher whose entries file is gone refuses every call; a
// dispatcher of another hookx version, or edited, is stale.
func (c *checker) checkHookFiles() {
	for _, d := range c.tbl.Dialects {
		if !d.Settings.HookFiles {
			continue
		}
		rels := []struct{ rel, base string }{{d.Settings.Project, c.opts.Dir}}
		if c.opts.User && c.opts.Home != "" && d.Settings.User != "" {
			rels = append(rels, struct{ rel, base string }{strings.TrimPrefix(d.Settings.User, "~/"), c.opts.Home})
		}
		for _, r := range rels {
			c.checkHookDir(d, filepath.Join(r.base, filepath.FromSlash(r.rel)))
		}
	}
}

func (c *checker) checkHookDir(d *mappings.Dialect, entries string) {
	dir := filepath.Dir(entries)
	data, err := safefile.ReadRegular(entries, migrate.MaxFileSize)
	haveEntries := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		haveEntries = false
	}
	withEntries := map[string]bool{}
	if haveEntries {
		evs, _ := migrate.HookFileEvents(d, data) // one that does not parse: checkFile says so
		for _, ev := range evs {
			withEntries[ev] = true
		}
	}
	for _, e := range d.Events {
		p := filepath.Join(dir, e.Name)
		f := &file{d: d, scope: "project", path: p, shown: p}
		guard := e.Output.BlocksOnFailure()
		script, err := safefile.ReadRegular(p, migrate.MaxFileSize)
		fix := "run hookx migrate --to " + d.Name
		switch {
		case err != nil && withEntries[e.Name]:
			c.addFile(f, -1, ruleDispatcherMissing, fmt.Sprintf("%s has %s entries, but there is no %s dispatcher beside it: %s runs none of them", entries, e.Name, e.Name, d.Agent), fix)
		case err != nil:
		case !clinehooks.Owned(script):
			if withEntries[e.Name] {
				c.addFile(f, -1, ruleDispatcherNotHookx, fmt.Sprintf("this is not the dispatcher hookx writes: %s runs it, and none of the %s entries of %s", d.Agent, e.Name, entries),
					fmt.Sprintf("rename it and %s; or run the entries from it: hookx dispatch --host %s --event %s -- \"$0\", with the same stdin, and print its answer", fix, d.Name, e.Name))
			}
		case !haveEntries && guard:
			c.addFile(f, -1, ruleDispatcherNoEntries, fmt.Sprintf("a dispatcher hookx wrote, but %s is missing: it refuses every call (it fails closed)", entries), fix+", or delete the dispatcher")
		case !haveEntries:
			c.addFile(f, -1, ruleDispatcherStale, fmt.Sprintf("a dispatcher hookx wrote, but %s is missing: it runs nothing", entries), fix+", or delete the dispatcher")
		default:
			_, v, _ := clinehooks.Stamp(script)
			switch {
			case !migrate.DispatcherCurrent(script, e.Name, guard):
				c.addFile(f, -1, ruleDispatcherStale, "the dispatcher was edited, or written by a hookx that wrote another script: what it runs is not what hookx migrate writes", fix+" (it is updated in place)")
			case c.opts.HookxVersion != "" && v != c.opts.HookxVersion:
				c.addFile(f, -1, ruleDispatcherStale, fmt.Sprintf("the dispatcher was written by hookx %s; this is hookx %s", v, c.opts.HookxVersion), fix+" (it is updated in place)")
			case !withEntries[e.Name]:
				c.addFile(f, -1, ruleDispatcherStale, fmt.Sprintf("%s has no %s entries any more: the dispatcher runs nothing", path.Base(filepath.ToSlash(entries)), e.Name), "delete it")
			}
		}
	}
}
