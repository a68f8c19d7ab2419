// Package ocplugin is the plugin hookx migrate writes for OpenCode
// (.opencode/plugins/hookx.js) and Kilo Code (.kilo/plugins/hookx.js),
// which share OpenCode's plugin API: a small generated plugin that runs a
// project's hooks through hookx wrap on tool.execute.before (refuses a call
// by throwing the reason, rewrites one by changing output.args in place),
// tool.execute.after (adds context to the result the model reads, or
// replaces it) and chat.message (drops a prompt by throwing, adds context to
// it as a part of its own), and fails closed (hookx.js says how). Its hooks live beside it in
// hookx.hooks.json, in the format of Pi's (migrate/piplugin), so that one
// writer serves the three plugin hosts.
package ocplugin

import (
	_ "embed"
	"strings"

	"github.com/hookx-dev/hookx/migrate/piplugin"
)

//go:embed hookx.js
var source string

// Host is one agent that loads the plugin: its name for hookx (migrate
// --to, wrap --host), its own name, and where the plugin and its hooks go,
// relative to the project.
type Host struct {
	Name      string
	Agent     string
	Path      string
	HooksPath string
}

// The two hosts. OpenCode loads every {plugin,plugins}/*.{ts,js} of
// .opencode/, Kilo those of .kilo/ and .kilocode/
// (mappings/data/evidence/opencode-tools.jsonc, kilo-tools.jsonc).
var (
	OpenCode = Host{Name: "opencode", Agent: "OpenCode", Path: ".opencode/plugins/hookx.js", HooksPath: ".opencode/plugins/hookx.hooks.json"}
	Kilo     = Host{Name: "kilo", Agent: "Kilo Code", Path: ".kilo/plugins/hookx.js", HooksPath: ".kilo/plugins/hookx.hooks.json"}
)

// Event is the plugin event of a tool call, the guard the plugin runs
// hooks on; Events are all it runs hooks on (hookx.js KEYS; the dialects'
// pluginHost.events).
const Event = "tool.execute.before"

// Events are the plugin events the hooks file's entries may name.
var Events = []string{Event, "tool.execute.after", "chat.message"}

// Render is the plugin for h, stamped with hookx's version, which doctor
// compares with its own to find a stale plugin (as piplugin.Check does).
func Render(h Host, version string) string {
	return strings.NewReplacer("HOOKX_VERSION", version, "HOOKX_HOST", h.Name, "HOOKX_AGENT", h.Agent).Replace(source)
}

// Hook and Hooks are hookx.hooks.json, Pi's format: an entry's Tools are the
// agent's tool names ("*": every tool, MCP tools included), its Argv the
// arguments of hookx (wrap --from D --host <Host.Name> -- command...), so
// that the command line is written in one place, the data file.
type (
	Hook  = piplugin.Hook
	Hooks = piplugin.Hooks
)
