package migrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate/ocplugin"
	"github.com/hookx-dev/hookx/migrate/piplugin"
	"mvdan.cc/sh/v3/syntax"
)

// A plugin host (Pi, OpenCode, Kilo Code) has no command hooks: hookx writes a plugin that runs
// them through hookx wrap, and a data file beside it with the hooks. The
// entries are planned as for any target (translate); planPluginHost then
// writes them into the data file, and the plugin itself is rendered for
// the caller to write beside it.

// HostPlugin is the generated plugin a plugin host's target needs beside
// its hooks file: Path is relative to the project.
type HostPlugin struct {
	Path string
	Data []byte
}

// pluginFormat writes a plugin host's two files: the plugin, rendered
// for the host d (whose pluginHost names where both go), and its hooks file.
type pluginFormat struct {
	plugin func(d *mappings.Dialect, version string) string
	hooks  func(version string, hooks []piplugin.Hook) []byte
	read   func(data []byte) ([]piplugin.Hook, error)
}

// pluginFormats are the generators named by mappings.PluginHost.Format.
// The plugins share one hooks file format (Pi's, hookx.hooks.json).
var pluginFormats = map[string]pluginFormat{
	"piExtension": {
		plugin: func(_ *mappings.Dialect, version string) string { return piplugin.Render(version) },
		hooks:  writeHostHooks, read: readHostHooks,
	},
	// OpenCode's and Kilo Code's plugin (migrate/ocplugin): one plugin,
	// rendered for each host.
	"ocPlugin": {
		plugin: func(d *mappings.Dialect, version string) string { return ocplugin.Render(OCHost(d), version) },
		hooks:  writeHostHooks, read: readHostHooks,
	},
}

// OCHost is the host of migrate/ocplugin's plugin that d, a dialect of the
// ocPlugin format, is: its names and the files its pluginHost names.
func OCHost(d *mappings.Dialect) ocplugin.Host {
	return ocplugin.Host{Name: d.Name, Agent: d.Agent, Path: d.PluginHost.Extension, HooksPath: d.PluginHost.Hooks}
}

// writeHostHooks is a plugin's hookx.hooks.json.
func writeHostHooks(version string, hooks []piplugin.Hook) []byte {
	if hooks == nil {
		hooks = []piplugin.Hook{}
	}
	b, _ := json.MarshalIndent(piplugin.Hooks{Hookx: version, Hooks: hooks}, "", "  ")
	return append(b, '\n')
}

// readHostHooks reads a plugin's hookx.hooks.json.
func readHostHooks(data []byte) ([]piplugin.Hook, error) {
	var h piplugin.Hooks
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&h); err != nil {
		return nil, err
	}
	return h.Hooks, nil
}

// planPluginHost finishes res for a plugin host target: its hooks file
// (target) holds this run's entries, updated in place by id, beside the
// hooks other dialects migrated there; res.Plugin is the plugin.
func (p *planner) planPluginHost(res *Result, target Source) (*Result, error) {
	ph := p.to.PluginHost
	format, ok := pluginFormats[ph.Format]
	if !ok {
		return nil, fmt.Errorf("migrate: %s: unknown plugin format %q", p.to.Name, ph.Format)
	}
	if !p.opts.Wrap {
		return nil, &InputError{Path: target.Path, Msg: p.to.Agent + " runs hooks only through the plugin hookx writes, which runs each through hookx wrap: --no-wrap (or \"wrap\": false) cannot be used"}
	}
	var old []piplugin.Hook
	if target.Data != nil {
		var err error
		if old, err = format.read(target.Data); err != nil {
			p.add(Item{Level: Warning, Source: target.Path, What: "replaced", Reason: "the hooks file does not read (" + err.Error() + "); hookx writes it anew, and the plugin refuses every tool call until it does"})
			old = nil
		}
	}
	byID := map[string]piplugin.Hook{}
	for _, h := range old {
		byID[h.ID] = h
	}
	var hooks []piplugin.Hook
	for i, e := range res.Entries {
		argv, err := wrapArgv(e.Command)
		if err != nil {
			return nil, fmt.Errorf("internal error: %s entry %s: %w", p.to.Agent, e.ID, err)
		}
		h := piplugin.Hook{ID: e.ID, From: p.from.Name, Event: e.Event, Tools: pluginTools(p.to, e.Matcher), Argv: argv, TimeoutMs: int(e.Timeout)}
		was, had := byID[e.ID]
		switch {
		case !had:
			res.Entries[i].Change = "add"
		case hookEqual(was, h):
			res.Entries[i].Change = "unchanged"
		default:
			res.Entries[i].Change = "update"
		}
		hooks = append(hooks, h)
	}
	// In the file's order: this run's hooks replace theirs in place, hooks
	// of other dialects stay, this dialect's hooks that this run no longer
	// writes go, and new ones come last. A rerun is a no-op.
	fresh := map[string]piplugin.Hook{}
	for _, h := range hooks {
		fresh[h.ID] = h
	}
	var all []piplugin.Hook
	placed := map[string]bool{}
	for _, h := range old {
		switch n, ok := fresh[h.ID]; {
		case ok && !placed[h.ID]:
			all = append(all, n)
			placed[h.ID] = true
		case ok:
		case h.From != p.from.Name:
			all = append(all, h)
		default:
			res.Removed = append(res.Removed, h.ID)
		}
	}
	for _, h := range hooks {
		if !placed[h.ID] {
			all = append(all, h)
		}
	}
	res.Before = target.Data
	if target.Data == nil && len(all) == 0 {
		res.Items = p.guardFixes(p.items)
		return res, nil
	}
	res.Created = target.Data == nil
	res.After = format.hooks(p.opts.Version, all)
	res.Plugin = &HostPlugin{Path: ph.Extension, Data: []byte(format.plugin(p.to, p.opts.Version))}
	p.notices(len(all) > 0)
	res.Items = p.guardFixes(p.items)
	return res, nil
}

func hookEqual(a, b piplugin.Hook) bool {
	return a.Event == b.Event && a.From == b.From && a.TimeoutMs == b.TimeoutMs && slices.Equal(a.Tools, b.Tools) && slices.Equal(a.Argv, b.Argv)
}

// pluginTools is the plugin's list of the host's tools for a target
// matcher: the names of an exact list, or "*" (every tool) for no matcher
// or a regex, where hookx wrap --match, in the hook's own dialect, decides.
func pluginTools(d *mappings.Dialect, matcher *string) []string {
	if matcher == nil || *matcher == "" || !d.IsExactList(*matcher) {
		return []string{"*"}
	}
	var out []string
	for _, t := range strings.Split(*matcher, "|") {
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// wrapArgv is the argument array of a planned `hookx wrap …` command for
// a plugin that starts hookx itself: the words after hookx, with the
// shell's quoting removed and the id comment dropped.
func wrapArgv(cmd string) ([]string, error) {
	f, err := syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil, err
	}
	if len(f.Stmts) != 1 {
		return nil, fmt.Errorf("not one command: %q", cmd)
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(f.Stmts[0].Redirs) > 0 || len(call.Args) < 2 {
		return nil, fmt.Errorf("not a hookx wrap call: %q", cmd)
	}
	words := make([]string, len(call.Args))
	for i, w := range call.Args {
		if words[i], err = wordValue(w); err != nil {
			return nil, fmt.Errorf("word %d of %q: %w", i, cmd, err)
		}
	}
	// words[0] is the hookx migrate was given (any name, any path): the
	// plugin runs the hookx on its PATH, and fails closed without one.
	if words[1] != "wrap" {
		return nil, fmt.Errorf("not a hookx wrap call: %q", cmd)
	}
	return words[1:], nil
}
