//go:build unix

package conformance

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
)

// hostSpec is what a scenario needs to know about one agent: where its
// project hook configuration lives and in which shape, how a hook author
// refers to a script beside it, how its model calls the shell, and whether
// its tool results carry an error flag. One entry per agent; everything
// agent-specific in the harness is here or in the driver.
type hostSpec struct {
	// settings is the project hook configuration file, project-relative
	// (Copilot: any .github/hooks/*.json; hookx migrate writes hookx.json).
	settings string
	// hookDir is where a scenario's scripts go, project-relative.
	hookDir string
	// projectRef is how the agent's own hook authors refer to the project
	// directory in a command ("" for Codex, which sets no such variable and
	// runs hooks in the project directory: scripts are named relatively).
	projectRef string
	// timeout is 30 s in the agent's unit.
	timeout int
	// render turns the scenario's hooks into the configuration file's
	// content, in the agent's own shape.
	render func(hooks []hookDef, command func(hookDef) string, timeout int) any
	// preTool and shellMatcher name the pre-tool event and the shell tool's
	// matcher in the agent's own dialect ("" matcher: it has none).
	preTool, shellMatcher string
	// shell is the model's call of the agent's shell tool.
	shell func(cmd string) fakemodel.Call
	// tools are the model's calls of the agent's other built-in tools, by
	// action kind (write, read, edit, ls), given the action and its absolute
	// path. A scenario that needs a kind an agent lacks here panics, naming it.
	tools map[string]func(a action, abs string) fakemodel.Call
	// errorFlag says tool results carry an error flag (fakemodel.ToolResult
	// IsError): the Anthropic and Gemini APIs do, the OpenAI APIs do not.
	errorFlag bool
	// exe is the agent's executable.
	exe func(agents.Paths) string
	// runTimeout is the hard timeout of one agent run (default
	// driver.DefaultTimeout).
	runTimeout time.Duration
	// transcripts globs the agent's own session transcripts, relative to
	// HOME (recorded by saveTranscripts).
	transcripts string
	// losesFastOutput says the agent's shell tool can lose the output of a
	// command that exits at once (see lostFastOutput).
	losesFastOutput bool
	// hookFiles says the agent's hooks are executable files named after
	// their event in the directory of settings (Cline): render is nil, a
	// scenario's scripts are the hook files (hookDir/<Event>.sh).
	hookFiles bool
	// noMigrateFrom says hookx migrate does not read this agent's hooks
	// (Cline's hook files, issue 30): the hookx path from it writes the
	// entries by hand, as the agent's docs page tells users to (handWrap).
	// Onto it, hookx migrate runs as for any other host.
	noMigrateFrom bool
	// entries is the file hookx migrate writes its entries into, when not
	// settings (Cline: hookx.hooks.json beside the dispatchers, which are
	// the hook files the agent runs).
	entries string
	// leavesDaemon says a run leaves a detached process behind, which the
	// driver ends by its PID (driver.Cmd.EndLeftovers).
	leavesDaemon bool
	// plugin says the agent has no command hooks, only the in-process
	// plugin hookx migrate writes (settings), which runs hookx with an
	// argument array from entries (Pi, OpenCode, Kilo: issue 29). It is
	// only ever a host of the hookx path.
	plugin bool
}

var hosts = map[driver.Agent]hostSpec{
	driver.Claude: {
		settings: ".claude/settings.json", hookDir: ".claude/hooks", projectRef: `"$CLAUDE_PROJECT_DIR"`, timeout: 30,
		render: groupsUnder("hooks"), preTool: "PreToolUse", shellMatcher: "Bash",
		shell: func(cmd string) fakemodel.Call {
			return fakemodel.Call{Name: "Bash", Args: map[string]any{"command": cmd, "description": "fake call"}}
		},
		tools: map[string]func(action, string) fakemodel.Call{
			"write": func(a action, abs string) fakemodel.Call {
				return call("Write", map[string]any{"file_path": abs, "content": a.content})
			},
			"read": func(a action, abs string) fakemodel.Call { return call("Read", map[string]any{"file_path": abs}) },
			"edit": func(a action, abs string) fakemodel.Call {
				return call("Edit", map[string]any{"file_path": abs, "old_string": a.old, "new_string": a.new})
			},
			"ls": func(a action, abs string) fakemodel.Call { return call("LS", map[string]any{"path": abs}) },
		},
		errorFlag: true, exe: func(p agents.Paths) string { return p.Claude },
		transcripts: ".claude/projects/*/*.jsonl",
	},
	driver.Gemini: {
		settings: ".gemini/settings.json", hookDir: ".gemini/hooks", projectRef: `"${GEMINI_PROJECT_DIR}"`, timeout: 30000,
		render: groupsUnder("hooks"), preTool: "BeforeTool", shellMatcher: "run_shell_command",
		shell: func(cmd string) fakemodel.Call {
			return fakemodel.Call{Name: "run_shell_command", Args: map[string]any{"command": cmd, "description": "fake call"}}
		},
		tools: map[string]func(action, string) fakemodel.Call{
			"write": func(a action, abs string) fakemodel.Call {
				return call("write_file", map[string]any{"file_path": abs, "content": a.content})
			},
			"read": func(a action, abs string) fakemodel.Call { return call("read_file", map[string]any{"file_path": abs}) },
			"edit": func(a action, abs string) fakemodel.Call {
				return call("replace", map[string]any{"file_path": abs, "instruction": "fake edit", "old_string": a.old, "new_string": a.new})
			},
			"ls": func(a action, abs string) fakemodel.Call {
				return call("list_directory", map[string]any{"dir_path": abs})
			},
		},
		errorFlag: true, exe: func(p agents.Paths) string { return p.Gemini },
		transcripts: ".gemini/tmp/*/chats/*.json*",
	},
	// Codex 0.169.0: Claude's shape; only the root keys description and
	// hooks (another drops the whole file, with a stderr warning).
	driver.Codex: {
		settings: ".codex/hooks.json", hookDir: ".codex/hooks", projectRef: "", timeout: 30,
		render: groupsUnder("hooks"), preTool: "PreToolUse", shellMatcher: "Bash",
		shell: func(cmd string) fakemodel.Call {
			return fakemodel.Call{Name: "exec_command", Args: map[string]any{"cmd": cmd}}
		},
		// Codex offers the fake model no apply_patch tool; a patch given to
		// exec_command is applied by Codex itself, and its hooks see Bash
		// with that command (CX§6).
		tools: map[string]func(action, string) fakemodel.Call{
			"write": func(a action, abs string) fakemodel.Call {
				patch := "*** Begin Patch\n*** Add File: " + abs + "\n"
				for _, l := range strings.SplitAfter(strings.TrimSuffix(a.content, "\n"), "\n") {
					patch += "+" + strings.TrimSuffix(l, "\n") + "\n"
				}
				patch += "*** End Patch\n"
				return call("exec_command", map[string]any{"cmd": "apply_patch <<'PATCH'\n" + patch + "PATCH"})
			},
		},
		exe:         func(p agents.Paths) string { return p.Codex },
		transcripts: ".codex/sessions/*/*/*/rollout-*.jsonl",
	},
	// Copilot CLI 1.0.102: {"version":1,"hooks":{event:[handler…]}}, camelCase
	// events, no matchers (a hook filters for itself), the command in "bash".
	driver.Copilot: {
		settings: ".github/hooks/hookx.json", hookDir: ".github/hooks", projectRef: `"$COPILOT_PROJECT_DIR"`, timeout: 30,
		render: copilotHooks, preTool: "preToolUse", shellMatcher: "",
		shell: func(cmd string) fakemodel.Call {
			return fakemodel.Call{Name: "bash", Args: map[string]any{"command": cmd, "description": "fake call"}}
		},
		// Its file tools (mappings/data/copilot.jsonc "tools", seen live in
		// the file-guard/copilot-* and file-matcher/*-to-copilot scenarios):
		// view, create, edit, with Copilot's own argument names. It has no
		// directory-listing tool (lacks.tools "ls"), so no "ls".
		tools: map[string]func(action, string) fakemodel.Call{
			"write": func(a action, abs string) fakemodel.Call {
				return call("create", map[string]any{"path": abs, "file_text": a.content})
			},
			"read": func(a action, abs string) fakemodel.Call { return call("view", map[string]any{"path": abs}) },
			"edit": func(a action, abs string) fakemodel.Call {
				return call("edit", map[string]any{"path": abs, "old_str": a.old, "new_str": a.new})
			},
		},
		exe:         func(p agents.Paths) string { return p.Copilot },
		transcripts: ".copilot/session-state/*/*.jsonl",
	},
	// Qwen Code 0.24.4: Claude's shape and event names, Gemini's tool names.
	driver.Qwen: {
		settings: ".qwen/settings.json", hookDir: ".qwen/hooks", projectRef: `"$QWEN_PROJECT_DIR"`, timeout: 30,
		render: groupsUnder("hooks"), preTool: "PreToolUse", shellMatcher: "run_shell_command",
		shell: func(cmd string) fakemodel.Call {
			return fakemodel.Call{Name: "run_shell_command", Args: map[string]any{"command": cmd, "description": "fake call", "is_background": false}}
		},
		// Offered to the model as seen live (2026-11-27): Gemini's names
		// except edit (Gemini's replace), Claude's argument names, no
		// list_directory in a -p run.
		tools: map[string]func(action, string) fakemodel.Call{
			"write": func(a action, abs string) fakemodel.Call {
				return call("write_file", map[string]any{"file_path": abs, "content": a.content})
			},
			"read": func(a action, abs string) fakemodel.Call { return call("read_file", map[string]any{"file_path": abs}) },
			"edit": func(a action, abs string) fakemodel.Call {
				return call("edit", map[string]any{"file_path": abs, "old_string": a.old, "new_string": a.new})
			},
		},
		exe:             func(p agents.Paths) string { return p.Qwen },
		transcripts:     ".qwen/projects/*/chats/*.jsonl",
		losesFastOutput: true,
		// Qwen costs about 7 s of CPU a run (4.5 s wall on a quiet machine);
		// under a load of 25 on 2 cores two runs went past 2 minutes
		// (2026-11-23), where the other agents stayed under it. The timeout
		// only ends a run that hangs: twice the others'.
		runTimeout: 2 * driver.DefaultTimeout,
	},
	// Factory Droid 0.225.2: Claude's groups keyed by event at the root, no
	// "hooks" wrapper (with one, every hook is ignored).
	driver.Droid: {
		settings: ".factory/hooks.json", hookDir: ".factory/hooks", projectRef: `"$FACTORY_PROJECT_DIR"`, timeout: 30,
		render: groupsUnder(""), preTool: "PreToolUse", shellMatcher: "Execute",
		shell: func(cmd string) fakemodel.Call {
			return fakemodel.Call{Name: "Execute", Args: map[string]any{
				"command": cmd, "summary": "fake call", "riskLevel": "low", "riskLevelReason": "fake call",
			}}
		},
		// Offered to the model as seen live (2026-11-27): Claude's Read,
		// Create for Write, Edit with old_str/new_str, LS with
		// directory_path.
		tools: map[string]func(action, string) fakemodel.Call{
			"write": func(a action, abs string) fakemodel.Call {
				return call("Create", map[string]any{"file_path": abs, "content": a.content})
			},
			"read": func(a action, abs string) fakemodel.Call { return call("Read", map[string]any{"file_path": abs}) },
			"edit": func(a action, abs string) fakemodel.Call {
				return call("Edit", map[string]any{"file_path": abs, "old_str": a.old, "new_str": a.new})
			},
			"ls": func(a action, abs string) fakemodel.Call {
				return call("LS", map[string]any{"directory_path": abs})
			},
		},
		exe:         func(p agents.Paths) string { return p.Droid },
		transcripts: ".factory/sessions/*/*.jsonl",
	},
	// Cline 3.0.65: one executable file per event in .clinerules/hooks
	// (PreToolUse.sh is one: a hook file may carry .sh), no matcher, no
	// project variable (a hook runs in the project; its payload names it).
	// Its shell tool takes a list of commands (mappings/data/cline.jsonc).
	driver.Cline: {
		settings: ".clinerules/hooks/PreToolUse", hookDir: ".clinerules/hooks", projectRef: "", timeout: 30000,
		preTool: "PreToolUse", shellMatcher: "",
		shell: func(cmd string) fakemodel.Call {
			return fakemodel.Call{Name: "run_commands", Args: map[string]any{"commands": []any{cmd}}}
		},
		// read_files{files:[{path}]}, the path as the action gives it
		// (not cleaned: a model may write sub/../x).
		tools: map[string]func(action, string) fakemodel.Call{
			"read": func(a action, abs string) fakemodel.Call {
				if !a.asGiven && !filepath.IsAbs(a.path) {
					abs = strings.TrimSuffix(abs, filepath.Clean(a.path)) + a.path
				}
				return call("read_files", map[string]any{"files": []any{map[string]any{"path": abs}}})
			},
		},
		exe:       func(p agents.Paths) string { return p.Cline },
		entries:   ".clinerules/hooks/hookx.hooks.json",
		hookFiles: true, noMigrateFrom: true, leavesDaemon: true,
	},
	// Pi 1.6.0: .pi/extensions/hookx.ts, hookx's generated extension, runs
	// the entries of hookx.hooks.json beside it on Pi's tool_call
	// (migrate/piplugin). Tools as mappings/data/pi.jsonc has them.
	driver.Pi: {
		settings: ".pi/extensions/hookx.ts", entries: ".pi/extensions/hookx.hooks.json",
		shell: func(cmd string) fakemodel.Call { return call("bash", map[string]any{"command": cmd}) },
		tools: map[string]func(action, string) fakemodel.Call{
			"write": func(a action, abs string) fakemodel.Call {
				return call("write", map[string]any{"path": abs, "content": a.content})
			},
			"read": func(a action, abs string) fakemodel.Call { return call("read", map[string]any{"path": abs}) },
			"edit": func(a action, abs string) fakemodel.Call {
				return call("edit", map[string]any{"path": abs, "edits": []any{map[string]any{"oldText": a.old, "newText": a.new}}})
			},
		},
		exe:    func(p agents.Paths) string { return p.Pi },
		plugin: true, noMigrateFrom: true,
	},
	// OpenCode 1.18.33 and Kilo Code 7.7.9: the plugin hookx migrate writes
	// (migrate/ocplugin) runs the entries beside it on tool.execute.before.
	driver.OpenCode: openCodeHost(".opencode/plugins", func(p agents.Paths) string { return p.OpenCode }),
	driver.Kilo:     openCodeHost(".kilo/plugins", func(p agents.Paths) string { return p.Kilo }),
}

// openCodeHost is OpenCode's hostSpec, or Kilo's (the same tools, camelCase
// arguments), its plugin in dir.
func openCodeHost(dir string, exe func(agents.Paths) string) hostSpec {
	return hostSpec{
		settings: dir + "/hookx.js", entries: dir + "/hookx.hooks.json",
		shell: func(cmd string) fakemodel.Call {
			return call("bash", map[string]any{"command": cmd, "description": "fake call"})
		},
		tools: map[string]func(action, string) fakemodel.Call{
			"write": func(a action, abs string) fakemodel.Call {
				return call("write", map[string]any{"filePath": abs, "content": a.content})
			},
			"read": func(a action, abs string) fakemodel.Call { return call("read", map[string]any{"filePath": abs}) },
			"edit": func(a action, abs string) fakemodel.Call {
				return call("edit", map[string]any{"filePath": abs, "oldString": a.old, "newString": a.new})
			},
		},
		exe:    exe,
		plugin: true, noMigrateFrom: true,
		// OpenCode's first start in a project takes 50-90 s (reference).
		runTimeout: 2 * driver.DefaultTimeout,
	}
}

// call is one tool call of the model.
func call(name string, args map[string]any) fakemodel.Call {
	return fakemodel.Call{Name: name, Args: args}
}

// groupsUnder renders Claude-shaped matcher groups, under key ("" = at the
// root).
func groupsUnder(key string) func([]hookDef, func(hookDef) string, int) any {
	return func(hooks []hookDef, command func(hookDef) string, timeout int) any {
		events := map[string]any{}
		for _, h := range hooks {
			group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command(h), "timeout": timeout}}}
			if h.matcher != "" {
				group["matcher"] = h.matcher
			}
			l, _ := events[h.event].([]any)
			events[h.event] = append(l, group)
		}
		if key == "" {
			return events
		}
		return map[string]any{key: events}
	}
}

// copilotHooks renders Copilot's shape; matchers are not expressible.
func copilotHooks(hooks []hookDef, command func(hookDef) string, timeout int) any {
	events := map[string]any{}
	for _, h := range hooks {
		l, _ := events[h.event].([]any)
		events[h.event] = append(l, map[string]any{"type": "command", "bash": command(h), "timeoutSec": timeout})
	}
	return map[string]any{"version": 1, "hooks": events}
}

// exe returns the agent executable.
func exe(p agents.Paths, a driver.Agent) string { return hosts[a].exe(p) }

// settingsFile is the agent's project hook configuration file.
func settingsFile(a driver.Agent) string { return hosts[a].settings }

// entriesFile is where hookx migrate writes the agent's entries: its
// settings, or (Cline) the entries file its dispatchers read.
func entriesFile(a driver.Agent) string { return cmpOr(hosts[a].entries, hosts[a].settings) }

// Each agent's hooks are rendered in the shape that agent loads (seen live
// 2026-11-23, ../shared/reference/more-agents-offline.md): Droid's events at
// the root, Copilot's handlers listed under camelCase events with "bash"
// and "timeoutSec", the others Claude's groups under "hooks".
func TestHostsRenderTheirOwnShape(t *testing.T) {
	cmdOf := func(h hookDef) string { return "CMD" }
	group := func(matcher string) []any {
		return []any{map[string]any{"matcher": matcher, "hooks": []any{map[string]any{"type": "command", "command": "CMD", "timeout": 30}}}}
	}
	want := map[driver.Agent]any{
		driver.Claude: map[string]any{"hooks": map[string]any{"PreToolUse": group("Bash")}},
		driver.Codex:  map[string]any{"hooks": map[string]any{"PreToolUse": group("Bash")}},
		driver.Qwen:   map[string]any{"hooks": map[string]any{"PreToolUse": group("run_shell_command")}},
		driver.Droid:  map[string]any{"PreToolUse": group("Execute")},
		driver.Copilot: map[string]any{"version": 1, "hooks": map[string]any{
			"preToolUse": []any{map[string]any{"type": "command", "bash": "CMD", "timeoutSec": 30}},
		}},
	}
	for a, w := range want {
		hs := hosts[a]
		if hs.render == nil {
			continue
		}
		got := hs.render([]hookDef{{event: hs.preTool, matcher: hs.shellMatcher}}, cmdOf, hs.timeout)
		if diff := gocmp.Diff(w, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", a, diff)
		}
	}
	for _, a := range driver.Agents {
		if _, ok := hosts[a]; !ok {
			t.Errorf("no hosts entry for %s", a)
		}
	}
}
