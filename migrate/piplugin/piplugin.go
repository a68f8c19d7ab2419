// Package piplugin is the Pi extension hookx migrate writes to
// .pi/extensions/hookx.ts: a small generated plugin that runs a project's
// hooks through hookx wrap --host pi on Pi's tool_call, tool_result,
// input, session_start and agent_before_settle events and fails closed
// (hookx.ts says how). Its hooks live beside it in hookx.hooks.json.
package piplugin

import (
	_ "embed"
	"strings"
)

//go:embed hookx.ts
var source string

// Path and HooksPath are where migrate writes the plugin and its hooks,
// relative to the project.
const (
	Path      = ".pi/extensions/hookx.ts"
	HooksPath = ".pi/extensions/hookx.hooks.json"
)

// Render is the plugin stamped with hookx's version, which doctor compares
// with its own to find a stale plugin.
func Render(version string) string {
	return strings.ReplaceAll(source, "HOOKX_VERSION", version)
}

// Hook is one entry of hookx.hooks.json: the Pi event, the Pi tool names
// its matcher names ("*": every tool, hookx wrap --match filtering; on
// session_start, the reasons), the arguments of hookx (wrap --from D --host pi ...)
// and how long the plugin waits before it refuses the tool.
type Hook struct {
	// ID is the migrated hook's id and From its dialect: migrate
	// updates its own hooks in place and keeps those of other dialects.
	ID        string   `json:"id,omitempty"`
	From      string   `json:"from,omitempty"`
	Event     string   `json:"event"`
	Tools     []string `json:"tools"`
	Argv      []string `json:"argv"`
	TimeoutMs int      `json:"timeoutMs"`
}

// Hooks is hookx.hooks.json.
type Hooks struct {
	Hookx string `json:"hookx"`
	Hooks []Hook `json:"hooks"`
}
