package doctor

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/internal/pitrust"
	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/hookx-dev/hookx/migrate/ocplugin"
	"github.com/hookx-dev/hookx/migrate/piplugin"
	"github.com/tailscale/hujson"
)

// pluginProblem is one reason a plugin host's guards will not run as
// migrated: Kind is "missing-plugin", "missing-hooks", "stale-plugin" or
// "untrusted" (the kinds of piplugin.Problem and ocplugin.Problem).
type pluginProblem struct{ Kind, Text string }

// pluginChecks read a plugin host's files by the format its pluginHost
// names (mappings.PluginHost.Format, migrate's pluginFormats): Pi's
// extension with Pi's project trust, and OpenCode's and Kilo Code's plugin.
// trusted is false where the check cannot know whether the agent loads the
// plugin (no home read).
var pluginChecks = map[string]func(c *checker, d *mappings.Dialect) (problems []pluginProblem, trusted bool, err error){
	"piExtension": func(c *checker, _ *mappings.Dialect) ([]pluginProblem, bool, error) {
		agentDir := ""
		if c.opts.Home != "" {
			getenv := c.opts.Getenv
			if getenv == nil {
				getenv = func(string) string { return "" }
			}
			agentDir = pitrust.AgentDir(getenv, c.opts.Home)
		}
		ps, err := piplugin.Check(c.opts.Dir, agentDir, c.opts.HookxVersion)
		out := make([]pluginProblem, len(ps))
		for i, p := range ps {
			out[i] = pluginProblem{p.Kind, p.Text}
		}
		return out, agentDir != "", err
	},
	"ocPlugin": func(c *checker, d *mappings.Dialect) ([]pluginProblem, bool, error) {
		ps, err := ocplugin.Check(migrate.OCHost(d), c.opts.Dir, c.opts.HookxVersion)
		out := make([]pluginProblem, len(ps))
		for i, p := range ps {
			out[i] = pluginProblem{p.Kind, p.Text}
		}
		return out, true, err
	},
}

// checkPluginHosts reads the plugin hookx generates for an agent with no
// command hooks (Pi's .pi/extensions/hookx.ts, OpenCode's and Kilo Code's
// hookx.js, and their hooks files) and the agent's decision to load it: a
// missing or stale plugin, and an untrusted project, where Pi 1.6 skips
// the plugin without a word.
func (c *checker) checkPluginHosts() {
	for _, d := range c.tbl.Dialects {
		ph := d.PluginHost
		if ph == nil {
			continue
		}
		check, ok := pluginChecks[ph.Format]
		if !ok {
			panic("doctor: no check of plugin format " + ph.Format + " for " + d.Name)
		}
		problems, knowsTrust, err := check(c, d)
		f := &file{d: d, scope: "project", path: filepath.Join(c.opts.Dir, filepath.FromSlash(ph.Hooks)), shown: ph.Hooks}
		if err != nil {
			c.addFileAt(f, rulePluginMissing, 1, 1, "cannot read "+d.Agent+"'s plugin files: "+err.Error(), "make them readable")
			continue
		}
		fix := "hookx migrate --to " + d.Name
		for _, p := range problems {
			switch p.Kind {
			case "missing-plugin":
				c.addFileAt(f, rulePluginMissing, 1, 1, p.Text, fix)
			case "missing-hooks":
				f.shown = ph.Extension
				c.addFileAt(f, rulePluginMissing, 1, 1, p.Text, fix)
			case "stale-plugin":
				f.shown = ph.Extension
				c.addFileAt(f, rulePluginStale, 1, 1, p.Text, fix)
			case "untrusted":
				if !knowsTrust {
					continue // no home read: the agent's trust store is not known
				}
				f.shown = ph.Extension
				c.addFileAt(f, rulePluginUntrusted, 1, 1, p.Text, "trust the project in "+d.Agent+", or add it to its trust.json")
			}
		}
		c.checkPluginEvents(&file{d: d, scope: "project", path: f.path, shown: d.PluginHost.Hooks})
		c.checkPluginHostEntries(&file{d: d, scope: "project", path: f.path, shown: d.PluginHost.Hooks})
	}
}

// checkPluginHostEntries is checkHookxEntries for a plugin host's hooks
// file, which holds argument arrays rather than commands: the entries
// stale against the source they were migrated from (the first entry's
// "from"), and each guard of that source that migrate does not carry, or
// carries weaker (what migrate's report names and --strict refuses).
func (c *checker) checkPluginHostEntries(f *file) {
	data, err := os.ReadFile(f.path)
	if err != nil {
		return // missing: piplugin.Check says so
	}
	var hf piplugin.Hooks
	if json.Unmarshal(data, &hf) != nil {
		return
	}
	var src *mappings.Dialect
	for _, h := range hf.Hooks {
		// "from" is what migrate noted; the argv's --from is what the
		// plugin runs (an entry stripped of "from" hid every guard it
		// dropped from doctor).
		from := cmp.Or(h.From, argvFrom(h.Argv))
		if d, err := c.tbl.Dialect(from); err == nil && from != "" && d != f.d {
			src = d
			break
		}
	}
	if src == nil {
		return
	}
	f.data = data
	// The plugin runs the hookx on its PATH, whatever migrate was run as;
	// the file's own stamp keeps a stale plugin (piplugin.Check) from
	// counting as stale entries too.
	res, from := c.stale(f, src, "hookx", hf.Hookx)
	if res == nil || res.Changed() {
		c.addFileAt(f, ruleStaleEntries, 1, 1, fmt.Sprintf("hookx's entries are stale against %s; they do not run what the source says now", from),
			fmt.Sprintf("run hookx migrate --from %s --to %s", src.Name, f.d.Name))
		return
	}
	for _, it := range res.Items {
		if !it.GuardLost() {
			continue
		}
		c.addFileAt(f, ruleGuardNotCarried, 1, 1, guardLost(src, f.d, it), it.Fix)
	}
}

// checkPluginEvents reports each entry of a plugin host's hooks file whose
// event the generated plugin does not run (mappings.PluginHost.Events):
// the plugin skips it without a word, so a guard written there (by hand,
// or for another agent's event) never runs, whatever its "from" says.
func (c *checker) checkPluginEvents(f *file) {
	data, err := safefile.ReadRegular(f.path, migrate.MaxFileSize)
	if err != nil {
		return // missing: the plugin's check says so
	}
	root, err := migrate.ParseJSONC(f.shown, data)
	if err != nil {
		return // unreadable: the plugin refuses every call (the plugin's check)
	}
	f.data = data
	obj, ok := root.Value.(*hujson.Object)
	if !ok {
		return
	}
	ph := f.d.PluginHost
	// The last "hooks" is the one JSON.parse keeps.
	var hooks *hujson.ObjectMember
	for j := range obj.Members {
		if name, _ := str(&obj.Members[j].Name); name == "hooks" {
			hooks = &obj.Members[j]
		}
	}
	if hooks == nil {
		return
	}
	arr, ok := hooks.Value.Value.(*hujson.Array)
	if !ok {
		return
	}
	for i, el := range arr.Elements {
		entry, ok := el.Value.(*hujson.Object)
		if !ok {
			continue // the plugin refuses every call (the plugin's check)
		}
		// The last "event" is the one JSON.parse keeps.
		var em *hujson.ObjectMember
		for j := range entry.Members {
			if name, _ := str(&entry.Members[j].Name); name == "event" {
				em = &entry.Members[j]
			}
		}
		if em == nil {
			continue // the plugin refuses every call (the plugin's check)
		}
		if ev, ok := str(&em.Value); ok && !slices.Contains(ph.Events, ev) {
			what := fmt.Sprintf("hook %d of %s is for event %q, which hookx's %s plugin does not run (it runs %s): it skips the hook, which never runs", i+1, ph.Hooks, ev, f.d.Agent, strings.Join(ph.Events, ", "))
			if f.d.Event(ev) != nil {
				what = fmt.Sprintf("hook %d of %s is for %s's event %q, on which hookx's plugin runs no hooks yet (it runs %s): it skips the hook, which never runs", i+1, ph.Hooks, f.d.Agent, ev, strings.Join(ph.Events, ", "))
			} else if other := c.eventOwner(ev); other != nil {
				what = fmt.Sprintf("hook %d of %s is for %q, an event of %s, not %s; hookx's plugin runs %s: it skips the hook, which never runs", i+1, ph.Hooks, ev, other.Agent, f.d.Agent, strings.Join(ph.Events, ", "))
			}
			c.addFile(f, int(em.Value.StartOffset), rulePluginEvent, what,
				fmt.Sprintf("migrate the hook's source with hookx migrate --to %s, or remove the entry", f.d.Name))
		}
	}
}

// eventOwner is a dialect of the table with an event named ev, or nil.
func (c *checker) eventOwner(ev string) *mappings.Dialect {
	for _, d := range c.tbl.Dialects {
		if d.Event(ev) != nil {
			return d
		}
	}
	return nil
}

// argvFrom is the dialect a plugin host's hook entry runs its hook as: the
// value of hookx wrap's --from, before the hook's command.
func argvFrom(argv []string) string {
	for i, a := range argv {
		switch {
		case a == "--":
			return ""
		case a == "--from" && i+1 < len(argv):
			return argv[i+1]
		case strings.HasPrefix(a, "--from="):
			return strings.TrimPrefix(a, "--from=")
		}
	}
	return ""
}
