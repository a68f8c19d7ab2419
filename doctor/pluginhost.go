package doctor

import (
	"path/filepath"

	"github.com/hookx-dev/hookx/internal/pitrust"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/hookx-dev/hookx/migrate/ocplugin"
	"github.com/hookx-dev/hookx/migrate/piplugin"
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
	}
}
