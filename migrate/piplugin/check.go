package piplugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/hookx-dev/hookx/internal/pitrust"
)

// Problem is one reason a Pi project's guards will not run as migrated.
type Problem struct {
	// Kind is "missing-plugin", "missing-hooks", "stale-plugin" or
	// "untrusted".
	Kind string
	// Text says what is wrong and what to do, in one sentence.
	Text string
}

var stampRE = regexp.MustCompile(`(?m)^const VERSION = "([^"\n]*)";$`)

// Check reads a project's Pi plugin files and Pi's trust decision for the
// project (agentDir: pitrust.AgentDir), as doctor reports them. version is
// this hookx's version. A project with neither file has nothing to check.
func Check(project, agentDir, version string) ([]Problem, error) {
	plugin, perr := os.ReadFile(filepath.Join(project, Path))
	hooks, herr := os.ReadFile(filepath.Join(project, HooksPath))
	if perr != nil && !errors.Is(perr, fs.ErrNotExist) {
		return nil, perr
	}
	if herr != nil && !errors.Is(herr, fs.ErrNotExist) {
		return nil, herr
	}
	if perr != nil && herr != nil {
		return nil, nil
	}
	var out []Problem
	switch {
	case perr != nil:
		out = append(out, Problem{"missing-plugin", fmt.Sprintf("%s has hooks but %s is missing: Pi runs none of them; run hookx migrate --to pi", HooksPath, Path)})
	case herr != nil:
		out = append(out, Problem{"missing-hooks", fmt.Sprintf("%s is missing: the plugin refuses every tool call; run hookx migrate --to pi", HooksPath)})
	}
	if perr == nil {
		if m := stampRE.FindSubmatch(plugin); m == nil {
			out = append(out, Problem{"stale-plugin", fmt.Sprintf("%s carries no hookx version stamp (edited, or not written by hookx); run hookx migrate --to pi", Path)})
		} else if string(m[1]) != version {
			out = append(out, Problem{"stale-plugin", fmt.Sprintf("%s was written by hookx %q, this is hookx %q; run hookx migrate --to pi to update it", Path, m[1], version)})
		} else if string(plugin) != Render(version) {
			// This hookx's stamp on code it does not write: an edited
			// extension may guard nothing.
			out = append(out, Problem{"stale-plugin", fmt.Sprintf("%s is not the extension this hookx writes (edited?); run hookx migrate --to pi", Path)})
		}
	}
	if herr == nil {
		if why := Unreadable(hooks); why != "" {
			out = append(out, Problem{"missing-hooks", fmt.Sprintf("%s does not read as the extension reads it (%s): it refuses every tool call and prompt; run hookx migrate --to pi", HooksPath, why)})
		}
	}
	r, err := pitrust.Resolve(project, agentDir)
	if err != nil {
		out = append(out, Problem{"untrusted", fmt.Sprintf("Pi cannot read its trust store, so it may not load %s: %v", Path, err)})
	} else if r.Verdict != pitrust.Trusted {
		out = append(out, Problem{"untrusted", fmt.Sprintf("Pi will not load %s in this project (%s): the guards do not run", Path, r.Why)})
	}
	return out, nil
}

// Unreadable says why the plugins' reading of a hooks file (hookx.ts,
// ocplugin's hookx.js) throws on data, which makes them refuse every tool
// call, or "" when they read it.
func Unreadable(data []byte) string {
	var f struct {
		Hooks *[]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return err.Error()
	}
	if f.Hooks == nil {
		return "no hooks array"
	}
	for _, raw := range *f.Hooks {
		var h struct {
			Event *string   `json:"event"`
			Tools *[]string `json:"tools"`
			Argv  *[]string `json:"argv"`
		}
		if json.Unmarshal(raw, &h) != nil || h.Event == nil || h.Tools == nil || h.Argv == nil {
			return "a hook it cannot read: " + string(raw)
		}
	}
	return ""
}
