package doctor

import (
	"path/filepath"

	"github.com/hookx-dev/hookx/internal/pitrust"
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
	}
}
