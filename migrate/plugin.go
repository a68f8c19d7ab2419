package migrate

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
)

// pluginFormat is how a dialect packages hooks for others to install: a
// Claude Code plugin or a Gemini CLI extension. Both keep their hooks in
// hooks/hooks.json, shaped like a settings file's hooks object, and name
// their own directory in a command with a placeholder.
type pluginFormat struct {
	manifest string // the manifest's path inside the directory
	rootVar  string // the placeholder (as a variable name) for the directory
	what     string
}

var pluginFormats = map[string]pluginFormat{
	"claude": {manifest: filepath.Join(".claude-plugin", "plugin.json"), rootVar: "CLAUDE_PLUGIN_ROOT", what: "Claude Code plugin"},
	"gemini": {manifest: "gemini-extension.json", rootVar: "extensionPath", what: "Gemini CLI extension"},
}

// PluginHooks is where a plugin or extension keeps its hooks, relative to
// its directory.
var PluginHooks = filepath.Join("hooks", "hooks.json")

// pluginRootVars name the variables that hold a plugin's directory.
var pluginRootVars = map[string][]string{"claude": {"CLAUDE_PLUGIN_ROOT"}, "gemini": {"extensionPath"}}

// PluginManifest returns the manifest path (relative to the directory) of
// a dialect's plugin or extension, and what the dialect calls it.
func PluginManifest(dialect string) (path, what string) {
	f := pluginFormats[dialect]
	return f.manifest, f.what
}

// PluginRootVar is the variable a dialect's plugin or extension commands
// use for their own directory.
func PluginRootVar(dialect string) string { return pluginFormats[dialect].rootVar }

var unsafeName = regexp.MustCompile(`[^a-z0-9-]+`)

// NewManifest returns the manifest for a plugin or extension in dialect to
// that holds the hooks converted from a plugin or extension of dialect
// from, whose manifest is src (nil if it has none) and directory is named
// dir. Name, version and description are carried; the name is reduced to
// lowercase letters, digits and dashes, which both agents accept.
func NewManifest(from, to string, src []byte, dir string) []byte {
	var m struct {
		Name        string `json:"name"`
		Version     string `json:"version,omitempty"`
		Description string `json:"description,omitempty"`
	}
	_ = json.Unmarshal(src, &m) // an unreadable manifest: the directory's name
	name := strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(m.Name), "-"), "-")
	if name == "" {
		name = strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(filepath.Base(dir)), "-"), "-")
	}
	if name == "" {
		name = "hooks"
	}
	m.Name = name
	if m.Version == "" {
		m.Version = "1.0.0"
	}
	if m.Description == "" {
		m.Description = "Hooks converted by hookx migrate from a " + pluginFormats[from].what
	}
	return append(marshal(m), '\n')
}
