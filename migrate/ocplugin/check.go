package ocplugin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/hookx-dev/hookx/migrate/piplugin"
)

// Problem is one reason a project's guards will not run in h as migrated.
type Problem struct {
	// Kind is "missing-plugin", "missing-hooks" or "stale-plugin" (the
	// kinds of piplugin.Problem).
	Kind string
	// Text says what is wrong and what to do, in one sentence.
	Text string
}

var stampRE = regexp.MustCompile(`(?m)^const VERSION = "([^"\n]*)";$`)

// Check reads a project's plugin files for h, as doctor is to report them.
// version is this hookx's version. A project with neither file has nothing
// to check. Neither binary was seen asking to trust a project before it
// loads its plugins (Pi does: piplugin.Check). Both skip a project's
// configuration when OPENCODE_DISABLE_PROJECT_CONFIG /
// KILO_DISABLE_PROJECT_CONFIG is set (OpenCode's bundled guide, @104033022;
// Kilo @97288466, where that list holds .kilo): whether the plugin is then
// skipped was not run, and a project's files cannot show it.
func Check(h Host, project, version string) ([]Problem, error) {
	plugin, perr := os.ReadFile(filepath.Join(project, h.Path))
	hooks, herr := os.ReadFile(filepath.Join(project, h.HooksPath))
	if perr != nil && !errors.Is(perr, fs.ErrNotExist) {
		return nil, perr
	}
	if herr != nil && !errors.Is(herr, fs.ErrNotExist) {
		return nil, herr
	}
	if perr != nil && herr != nil {
		return nil, nil
	}
	fix := "run hookx migrate --to " + h.Name
	var out []Problem
	switch {
	case perr != nil:
		out = append(out, Problem{"missing-plugin", fmt.Sprintf("%s has hooks but %s is missing: %s runs none of them; %s", h.HooksPath, h.Path, h.Agent, fix)})
	case herr != nil:
		out = append(out, Problem{"missing-hooks", fmt.Sprintf("%s is missing: the plugin refuses every tool call; %s", h.HooksPath, fix)})
	}
	if perr == nil {
		if m := stampRE.FindSubmatch(plugin); m == nil {
			out = append(out, Problem{"stale-plugin", fmt.Sprintf("%s carries no hookx version stamp (edited, or not written by hookx); %s", h.Path, fix)})
		} else if string(m[1]) != version {
			out = append(out, Problem{"stale-plugin", fmt.Sprintf("%s was written by hookx %q, this is hookx %q; %s to update it", h.Path, m[1], version, fix)})
		} else if string(plugin) != Render(h, version) {
			// The stamp is this hookx's but the code is not what it writes:
			// an edited plugin may guard nothing (migrate --check says
			// stale too).
			out = append(out, Problem{"stale-plugin", fmt.Sprintf("%s is not the plugin this hookx writes (edited?); %s", h.Path, fix)})
		}
	}
	if herr == nil {
		if why := piplugin.Unreadable(hooks); why != "" {
			out = append(out, Problem{"missing-hooks", fmt.Sprintf("%s does not read as the plugin reads it (%s): the plugin refuses every tool call; %s", h.HooksPath, why, fix)})
		}
	}
	return out, nil
}
