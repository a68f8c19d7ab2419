package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookx-dev/hookx/internal/pitrust"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/hookx-dev/hookx/migrate/piplugin"
)

// checkPluginHosts reads the plugin hookx generates for an agent with no
// command hooks (Pi's .pi/extensions/hookx.ts and its hooks file) and the
// agent's decision to load it: a missing or stale plugin, and an untrusted
// project, where Pi 1.6 skips the plugin without a word.
func (c *checker) checkPluginHosts() {
	for _, d := range c.tbl.Dialects {
		if d.PluginHost == nil {
			continue
		}
		agentDir := ""
		if c.opts.Home != "" {
			getenv := c.opts.Getenv
			if getenv == nil {
				getenv = func(string) string { return "" }
			}
			agentDir = pitrust.AgentDir(getenv, c.opts.Home)
		}
		problems, err := piplugin.Check(c.opts.Dir, agentDir, c.opts.HookxVersion)
		f := &file{d: d, scope: "project", path: filepath.Join(c.opts.Dir, filepath.FromSlash(d.PluginHost.Hooks)), shown: d.PluginHost.Hooks}
		if err != nil {
			c.addFileAt(f, rulePluginMissing, 1, 1, "cannot read "+d.Agent+"'s plugin files: "+err.Error(), "make them readable")
			continue
		}
		for _, p := range problems {
			switch p.Kind {
			case "missing-plugin":
				c.addFileAt(f, rulePluginMissing, 1, 1, p.Text, "hookx migrate --to "+d.Name)
			case "missing-hooks":
				f.shown = d.PluginHost.Extension
				c.addFileAt(f, rulePluginMissing, 1, 1, p.Text, "hookx migrate --to "+d.Name)
			case "stale-plugin":
				f.shown = d.PluginHost.Extension
				c.addFileAt(f, rulePluginStale, 1, 1, p.Text, "hookx migrate --to "+d.Name)
			case "untrusted":
				if agentDir == "" {
					continue // no home read: Pi's trust store is not known
				}
				f.shown = d.PluginHost.Extension
				c.addFileAt(f, rulePluginUntrusted, 1, 1, p.Text, "trust the project in Pi, or add it to its trust.json")
			}
		}
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
		if d, err := c.tbl.Dialect(h.From); err == nil && h.From != "" && d != f.d {
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
		how := "is not carried to"
		if it.Level == migrate.Weakened {
			how = "is weaker on"
		}
		c.addFileAt(f, ruleGuardNotCarried, 1, 1, fmt.Sprintf("the %s guard at %s (%s: %s) %s %s: %s", src.Agent, it.Source, it.Event, it.What, how, f.d.Agent, it.Reason), it.Fix)
	}
}
