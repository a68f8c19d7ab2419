package migrate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate/ocplugin"
	"github.com/hookx-dev/hookx/migrate/piplugin"
)

// TestPluginFormatsAreTheTables holds each plugin host of the table to its
// generator: the format it names exists, and the plugin's own idea of where
// its files go (piplugin's paths, ocplugin's hosts, which its tests and the
// live runs use) is where the table, and so migrate and doctor, put them.
func TestPluginFormatsAreTheTables(t *testing.T) {
	tbl := mappings.Default()
	used := map[string]bool{}
	for _, d := range tbl.Dialects {
		ph := d.PluginHost
		if ph == nil {
			continue
		}
		if _, ok := pluginFormats[ph.Format]; !ok {
			t.Errorf("%s: no plugin format %q", d.Name, ph.Format)
		}
		used[ph.Format] = true
		if d.Settings.Project != ph.Hooks {
			t.Errorf("%s: settings.project %q is not the plugin's hooks file %q", d.Name, d.Settings.Project, ph.Hooks)
		}
	}
	for name := range pluginFormats {
		if !used[name] {
			t.Errorf("plugin format %s is named by no dialect", name)
		}
	}
	pi := tbl.MustDialect("pi").PluginHost
	if diff := cmp.Diff([2]string{piplugin.Path, piplugin.HooksPath}, [2]string{pi.Extension, pi.Hooks}); diff != "" {
		t.Errorf("pi (-piplugin +table):\n%s", diff)
	}
	for _, h := range []ocplugin.Host{ocplugin.OpenCode, ocplugin.Kilo} {
		d := tbl.MustDialect(h.Name)
		if d.PluginHost == nil || d.PluginHost.Format != "ocPlugin" {
			t.Errorf("%s: not an ocPlugin host", h.Name)
			continue
		}
		if diff := cmp.Diff(h, OCHost(d)); diff != "" {
			t.Errorf("%s (-ocplugin +table):\n%s", h.Name, diff)
		}
	}
}

// TestPlanToOpenCodeAndKilo: a Claude guard migrated to OpenCode or Kilo
// Code is one entry of the plugin's hooks file, run on tool.execute.before
// for the host's bash through hookx wrap --host <host> (the hook's own
// timeout, the plugin's limit past it), and the plugin is
// the one rendered for that host.
func TestPlanToOpenCodeAndKilo(t *testing.T) {
	settings := []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./guard.sh","timeout":5}]}]}}`)
	// Kilo's tools that run commands are named with its bash: a Bash
	// guard fails closed on them rather than let them by.
	for _, tc := range []struct {
		to, plugin, host string
		tools            []string
	}{
		{"opencode", ".opencode/plugins/hookx.js", `for OpenCode.`, []string{"bash"}},
		{"kilo", ".kilo/plugins/hookx.js", `for Kilo Code.`, []string{"bash", "background_process", "notebook_execute"}},
	} {
		res, err := Plan(Options{From: "claude", To: tc.to, Wrap: true, Hookx: "hookx", Version: "9.9.9"},
			[]Source{{Path: ".claude/settings.json", Scope: "project", Data: settings}},
			Source{Path: mappings.Default().MustDialect(tc.to).PluginHost.Hooks})
		if err != nil {
			t.Fatalf("%s: %v", tc.to, err)
		}
		hooks, err := readHostHooks(res.After)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.to, err, res.After)
		}
		if len(hooks) != 1 {
			t.Fatalf("%s: hooks %+v", tc.to, hooks)
		}
		h := hooks[0]
		h.ID = ""
		want := hooks[0]
		want.ID, want.From, want.Event, want.Tools, want.TimeoutMs = "", "claude", "tool.execute.before", tc.tools, 10000
		want.Argv = []string{"wrap", "--from", "claude", "--host", tc.to, "--timeout", "5s", "--match", "Bash", "--", "./guard.sh"}
		if diff := cmp.Diff(want, h); diff != "" {
			t.Errorf("%s: hook (-want +got):\n%s", tc.to, diff)
		}
		if res.Plugin == nil || res.Plugin.Path != tc.plugin {
			t.Fatalf("%s: plugin %+v", tc.to, res.Plugin)
		}
		for _, s := range []string{`const VERSION = "9.9.9";`, tc.host, "--host " + tc.to} {
			if !strings.Contains(string(res.Plugin.Data), s) {
				t.Errorf("%s: the plugin lacks %q", tc.to, s)
			}
		}
		again, err := Plan(Options{From: "claude", To: tc.to, Wrap: true, Hookx: "hookx", Version: "9.9.9"},
			[]Source{{Path: ".claude/settings.json", Scope: "project", Data: settings}},
			Source{Path: mappings.Default().MustDialect(tc.to).PluginHost.Hooks, Data: res.After})
		if err != nil || again.Changed() {
			t.Errorf("%s: a second run: %v, changed %v", tc.to, err, again != nil && again.Changed())
		}
	}
}
