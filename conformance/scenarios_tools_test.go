//go:build unix

package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
)

// The search tools (glob, grep) of Claude Code, Gemini CLI, Qwen Code and
// Factory Droid, as each offers them to the model (their tool schemas in
// the model request; testdata/payloads/qwen-0.24.4 and droid-0.225.2 for
// the hook payloads, 2026-11-27). action.text is the pattern, action.path
// the directory (project-relative), action.content the file filter ("" for
// none).
func init() {
	search := map[driver.Agent]map[string]func(a action, abs string) fakemodel.Call{
		driver.Claude: {
			"glob": func(a action, abs string) fakemodel.Call {
				return call("Glob", map[string]any{"pattern": a.text, "path": abs})
			},
			"grep": func(a action, abs string) fakemodel.Call {
				return call("Grep", withFilter(map[string]any{"pattern": a.text, "path": abs}, "glob", a.content))
			},
		},
		driver.Gemini: {
			"glob": func(a action, abs string) fakemodel.Call {
				return call("glob", map[string]any{"pattern": a.text, "dir_path": abs})
			},
			"grep": func(a action, abs string) fakemodel.Call {
				return call("grep_search", withFilter(map[string]any{"pattern": a.text, "dir_path": abs}, "include_pattern", a.content))
			},
		},
		driver.Qwen: {
			"glob": func(a action, abs string) fakemodel.Call {
				return call("glob", map[string]any{"pattern": a.text, "path": abs})
			},
			"grep": func(a action, abs string) fakemodel.Call {
				return call("grep_search", withFilter(map[string]any{"pattern": a.text, "path": abs}, "glob", a.content))
			},
		},
		driver.Droid: {
			"glob": func(a action, abs string) fakemodel.Call {
				return call("Glob", map[string]any{"patterns": []any{a.text}, "folder": abs})
			},
			"grep": func(a action, abs string) fakemodel.Call {
				return call("Grep", withFilter(map[string]any{"pattern": a.text, "path": abs}, "glob_pattern", a.content))
			},
		},
	}
	for host, kinds := range search {
		for kind, f := range kinds {
			hosts[host].tools[kind] = f
		}
	}
}

func withFilter(args map[string]any, key, filter string) map[string]any {
	if filter != "" {
		args[key] = filter
	}
	return args
}

func globFiles(pattern, dir string) action { return action{kind: "glob", text: pattern, path: dir} }
func grepFiles(pattern, dir, filter string) action {
	return action{kind: "grep", text: pattern, path: dir, content: filter}
}

// searchArgs are the argument names each dialect's search tools are called
// with, by tool: what a hook of that dialect must see, under any host.
var searchArgs = map[driver.Agent]map[string][]string{
	driver.Claude: {"Glob": {"pattern", "path"}, "Grep": {"pattern", "path", "glob"}},
	driver.Gemini: {"glob": {"pattern", "dir_path"}, "grep_search": {"pattern", "dir_path", "include_pattern"}},
	driver.Qwen:   {"glob": {"pattern", "path"}, "grep_search": {"pattern", "path", "glob"}},
	driver.Droid:  {"Glob": {"patterns", "folder"}, "Grep": {"pattern", "path", "glob_pattern"}},
}

// searchDirArg is the directory argument of each dialect's search tools.
var searchDirArg = map[driver.Agent]map[string]string{
	driver.Claude: {"Glob": "path", "Grep": "path"},
	driver.Gemini: {"glob": "dir_path", "grep_search": "dir_path"},
	driver.Qwen:   {"glob": "path", "grep_search": "path"},
	driver.Droid:  {"Glob": "folder", "Grep": "path"},
}

// hostArgs are the extra arguments of the scenario's run on host: Claude
// Code 2.1.330 offers Glob and Grep only when --allowedTools or --tools
// names them (the launch option searchToolsOptIn, read in its binary;
// permissions.allow in the settings does not do it, tried 2026-11-27).
func (s *scenario) hostArgs(host driver.Agent) []string {
	if host == driver.Claude && strings.HasPrefix(s.name, "search-guard/") {
		return []string{"--allowedTools", "Glob,Grep"}
	}
	if host == driver.Codex && strings.HasPrefix(s.name, "patch-guard/") {
		return codexPatchArgs
	}
	return nil
}

func toolScenarios() []*scenario {
	// A guard on the search tools, written in one agent's idiom with its
	// own tool names: a glob of the project runs, a grep for the secret's
	// prefix is denied. Through hookx (Claude and Gemini guards on Qwen
	// Code and Factory Droid, and the other way) the hook must see its own
	// agent's tool names and argument names (the project directory
	// absolute, as the model gave it), and its block must hold. Each
	// native run is the oracle of its agent's own names and arguments.
	steps := []action{globFiles("**/*.txt", "."), grepFiles("9917", ".", "*.txt")}
	search := func(dialect driver.Agent, matcher string, to ...driver.Agent) *scenario {
		var names []string
		for n := range searchArgs[dialect] {
			names = append(names, n)
		}
		slices.Sort(names)
		return &scenario{
			name: fmt.Sprintf("search-guard/%s-%s", dialect, matcher), dialect: dialect, steps: steps, to: to,
			files: map[string]string{"notes.txt": "alpha\n", "vault/key.txt": "hidden 9917-XYZ\n"},
			hooks: []hookDef{{event: "PreToolUse", matcher: matcher, script: "search"}},
			scripts: map[string]string{"search": readInput + "LABEL=search\n" + logInput +
				"case \"$input\" in *9917*) echo 'GUARD-SEARCH: no searching for the vault key' >&2; exit 2;; esac\nexit 0\n"},
			check: searchCheck(dialect, names),
		}
	}
	claude := search(driver.Claude, "Glob|Grep", driver.Qwen, driver.Droid)
	gemini := search(driver.Gemini, "glob|grep_search", driver.Qwen, driver.Droid)
	gemini.hooks[0].event = "BeforeTool"
	// The other way: Qwen's and Droid's own guards, under Claude Code and
	// Gemini CLI through hookx.
	qwen := search(driver.Qwen, "glob|grep_search", driver.Claude, driver.Gemini)
	droid := search(driver.Droid, "Glob|Grep", driver.Claude, driver.Gemini)
	return []*scenario{claude, gemini, qwen, droid}
}

// searchCheck: the hook (of dialect) ran once for each search tool, seeing
// its own agent's tool name and argument names, the directory absolute; the
// glob's result reached the model, the grep was blocked with the hook's
// reason, and the secret never reached the model.
func searchCheck(dialect driver.Agent, want []string) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		var got []string
		for _, f := range o.hookLogs("search.") {
			b, _ := os.ReadFile(f)
			var in struct {
				ToolName  string         `json:"tool_name"`
				ToolInput map[string]any `json:"tool_input"`
			}
			if err := json.Unmarshal(b, &in); err != nil {
				p = append(p, fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b))
				continue
			}
			got = append(got, in.ToolName)
			args, ok := searchArgs[dialect][in.ToolName]
			if !ok {
				continue // reported below
			}
			var keys []string
			for k := range in.ToolInput {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range args {
				if _, ok := in.ToolInput[k]; !ok {
					p = append(p, fmt.Sprintf("the hook's %s input lacks %s's argument %q: %s", in.ToolName, dialect, k, b))
				}
			}
			for _, k := range keys {
				if !slices.Contains(args, k) {
					p = append(p, fmt.Sprintf("the hook's %s input has %q, not an argument the scenario's %s call has: %s", in.ToolName, k, dialect, b))
				}
			}
			if dir := in.ToolInput[searchDirArg[dialect][in.ToolName]]; dir != o.sb.Path(".") {
				p = append(p, fmt.Sprintf("the hook's %s directory is %v, want the project %s", in.ToolName, dir, o.sb.Path(".")))
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			p = append(p, fmt.Sprintf("the hook ran for tools %q, want %q", got, want))
		}
		rs := lastResults(o)
		if len(rs) != 2 {
			return append(p, fmt.Sprintf("the model got %d tool results, want 2", len(rs)))
		}
		if !strings.Contains(rs[0].Text, "notes.txt") {
			p = append(p, fmt.Sprintf("the glob's result lacks notes.txt: %q", rs[0].Text))
		}
		if !strings.Contains(rs[1].Text, "GUARD-SEARCH") || (hosts[o.host].errorFlag && !rs[1].IsError) {
			p = append(p, fmt.Sprintf("the blocked grep's result (error=%v) %q lacks the hook's reason GUARD-SEARCH", rs[1].IsError, rs[1].Text))
		}
		for _, r := range o.srv.Main() {
			if strings.Contains(r.AllText(), "9917-XYZ") {
				p = append(p, "the secret 9917-XYZ reached the model")
				break
			}
		}
		return p
	}
}
