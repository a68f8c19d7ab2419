//go:build unix

// Package agentrun runs the real agents offline, as the conformance suite
// and hookx test --live both do: the pinned agents (package agents),
// installed into a cache on first use, each run in a throwaway sandbox
// (package driver) against a scripted fake model (package fakemodel) that
// makes the tool calls asked of it. It also says how each agent's model
// calls its shell and write tools, and where the agent reads project hooks.
package agentrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
	"github.com/hookx-dev/hookx/internal/confine"
)

// Agents are the agents agentrun runs: those of the driver it has calls
// for (hosts); an agent the driver gains is run once it has them.
var Agents = slices.DeleteFunc(slices.Clone(driver.Agents), func(a driver.Agent) bool { _, ok := hosts[a]; return !ok })

// Supported reports whether agentrun can run the agent of dialect name.
func Supported(name string) bool { return slices.Contains(Agents, driver.Agent(name)) }

// host is what a run needs to know of one agent beyond the driver: its
// project hook file, and its model's shell and write calls (as the
// conformance suite's hosts_test.go has them, seen live 2026-11-23..27).
type host struct {
	settings string
	shell    func(cmd string) fakemodel.Call
	write    func(abs, content string) fakemodel.Call // nil: none offered to the fake model
	exe      func(agents.Paths) string
}

func call(name string, args map[string]any) fakemodel.Call {
	return fakemodel.Call{Name: name, Args: args}
}

var hosts = map[driver.Agent]host{
	driver.Claude: {".claude/settings.json",
		func(cmd string) fakemodel.Call {
			return call("Bash", map[string]any{"command": cmd, "description": "fake call"})
		},
		func(abs, content string) fakemodel.Call {
			return call("Write", map[string]any{"file_path": abs, "content": content})
		},
		func(p agents.Paths) string { return p.Claude }},
	driver.Gemini: {".gemini/settings.json",
		func(cmd string) fakemodel.Call {
			return call("run_shell_command", map[string]any{"command": cmd, "description": "fake call"})
		},
		func(abs, content string) fakemodel.Call {
			return call("write_file", map[string]any{"file_path": abs, "content": content})
		},
		func(p agents.Paths) string { return p.Gemini }},
	// Codex offers the fake model no write tool: a write is an apply_patch
	// through exec_command, which its hooks see as Bash.
	driver.Codex: {".codex/hooks.json",
		func(cmd string) fakemodel.Call { return call("exec_command", map[string]any{"cmd": cmd}) },
		nil,
		func(p agents.Paths) string { return p.Codex }},
	driver.Copilot: {".github/hooks/hookx.json",
		func(cmd string) fakemodel.Call {
			return call("bash", map[string]any{"command": cmd, "description": "fake call"})
		},
		func(abs, content string) fakemodel.Call {
			return call("create", map[string]any{"path": abs, "file_text": content})
		},
		func(p agents.Paths) string { return p.Copilot }},
	driver.Qwen: {".qwen/settings.json",
		func(cmd string) fakemodel.Call {
			return call("run_shell_command", map[string]any{"command": cmd, "description": "fake call", "is_background": false})
		},
		func(abs, content string) fakemodel.Call {
			return call("write_file", map[string]any{"file_path": abs, "content": content})
		},
		func(p agents.Paths) string { return p.Qwen }},
	driver.Droid: {".factory/hooks.json",
		func(cmd string) fakemodel.Call {
			return call("Execute", map[string]any{"command": cmd, "summary": "fake call", "riskLevel": "low", "riskLevelReason": "fake call"})
		},
		func(abs, content string) fakemodel.Call {
			return call("Create", map[string]any{"file_path": abs, "content": content})
		},
		func(p agents.Paths) string { return p.Droid }},
}

// recordArgs are an agent's own flags that make its shell read the
// recorder (BASH_ENV), where it reads none by default. Copilot CLI 1.0.102
// runs its bash tool in a persistent shell started `bash --noprofile
// --norc`, which sources BASH_ENV only with its bashEnv setting
// (cli-main.js: shellInitProfile: bashEnv ? "non-interactive" : "none";
// `copilot --help`: "--bash-env [<value>] Enable BASH_ENV support for bash
// shells (on|off)").
var recordArgs = map[driver.Agent][]string{driver.Copilot: {"--bash-env=on"}}

// Headless runs show less than the agents' interactive ones, where the
// hooks' answers are for a user to see. These are what agentrun's runs
// cannot show, by agent, and why.
var (
	// noPromptHook: the agent fires no prompt hook headless.
	noPromptHook = map[driver.Agent]string{
		driver.Droid: "Factory Droid fires no UserPromptSubmit in droid exec (conformance prompt-block on droid: the hook never runs)",
	}
	// promptDenialUnshown: the agent refuses the prompt headless but
	// shows the hook's reason to nobody.
	promptDenialUnshown = map[driver.Agent]string{
		driver.Qwen:  "Qwen Code, headless, prints no reason for a refused prompt (its user_prompt_submit_blocked event, chunk-DPEB6S2R.js:82351, is shown only by its interactive UIs; runNonInteractive, chunk-H5I6FURC.js, ignores it)",
		driver.Codex: "Codex CLI, headless (codex exec), prints no reason for a refused prompt (live 2026-11-28: stdout and stderr hold none)",
	}
)

// NoPromptHook says why a's headless run fires no prompt hook; "" where
// it fires one.
func NoPromptHook(a driver.Agent) string { return noPromptHook[a] }

// PromptDenialUnshown says why a's headless run shows nobody the reason a
// prompt hook refused the prompt for; "" where it prints it.
func PromptDenialUnshown(a driver.Agent) string { return promptDenialUnshown[a] }

// ShellCall is a's model calling its shell tool with cmd.
func ShellCall(a driver.Agent, cmd string) fakemodel.Call { return hosts[a].shell(cmd) }

// WriteCall is a's model calling its file-write tool; false where the fake
// model is offered none.
func WriteCall(a driver.Agent, abs, content string) (fakemodel.Call, bool) {
	w := hosts[a].write
	if w == nil {
		return fakemodel.Call{}, false
	}
	return w(abs, content), true
}

// SettingsFile is the project file a reads hooks from (project-relative).
func SettingsFile(a driver.Agent) string { return hosts[a].settings }

// Exe is a's executable.
func Exe(p agents.Paths, a driver.Agent) string { return hosts[a].exe(p) }

// Install installs the pinned agents into their cache (agents.DefaultDir)
// on first use, under a lock, and returns where they are. Offline and not
// yet installed, it fails (npm cannot fetch them): the error says so.
func Install(ctx context.Context) (agents.Paths, error) {
	dir, err := agents.DefaultDir()
	if err != nil {
		return agents.Paths{}, err
	}
	p, err := agents.Install(ctx, dir)
	if err != nil {
		return p, fmt.Errorf("install the pinned agents into %s: %w", dir, err)
	}
	return p, nil
}

// NewSandbox makes a driver sandbox under root holding a copy of the
// project dir (without .git; the sandbox's project is a fresh repository),
// its project directory named as dir is.
func NewSandbox(root string, p agents.Paths, dir string) (*driver.Sandbox, error) {
	sb, err := driver.NewSandboxNamed(root, p.Node, filepath.Base(confine.RealPath(dir)))
	if err != nil {
		return nil, err
	}
	sb.XDGCache = p.CopilotCache
	if err := confine.CopyTree(dir, sb.Project); err != nil {
		return nil, fmt.Errorf("copy the project: %w", err)
	}
	return sb, nil
}

// execLog is where the recorder writes, under the sandbox home.
const execLog = ".hookx-live-exec"

// recorder makes every bash the agent starts record what it runs, NUL
// after each: the -c string of a non-interactive shell (BASH_ENV, or the
// profile of a login one) and each simple command (a DEBUG trap, for a
// persistent interactive shell). Run's Outcome.Ran reads it back.
const recorder = `[ -n "$BASH_EXECUTION_STRING" ] && printf 'c:%s\0' "$BASH_EXECUTION_STRING" >> "$HOME/` + execLog + `"
trap 'printf "d:%s\0" "$BASH_COMMAND" >> "$HOME/` + execLog + `"' DEBUG
`

// Spec is one agent run.
type Spec struct {
	Agent  driver.Agent
	Prompt string           // default "do the task"
	Steps  []fakemodel.Step // the model's replies, in order
	// PathDirs go first on the agent's PATH (where hookx is).
	PathDirs []string
	Timeout  time.Duration // default the driver's
	// Confine, when set, runs the agent confined (rule 4).
	Confine *Confine
}

// Confine is how a confined run confines the agent and, with it, the
// project's hooks it runs: the confining helper (hookx probe-exec) starts
// it in an empty network namespace of its own, where the fake model's port
// is the only one served and the only one it may connect to (Landlock);
// it writes only inside the sandbox (its home and the project's copy) and
// reads neither the real home nor the real project, but the agents'
// install directory and the PATH directories (hookx) inside them.
type Confine struct {
	// Helper is the program and first argument of the helper: hookx,
	// confine.HelperName.
	Helper []string
	// Hide are the directories it may not read: the real home, the real
	// project.
	Hide []string
}

// Outcome is what one run did.
type Outcome struct {
	Sandbox  *driver.Sandbox
	Server   *fakemodel.Server
	Result   driver.Result
	Warnings []string // settings warnings in the agent's channels
}

// Run serves s's script to s.Agent and runs it in sb, with a recorder of
// the shell commands it runs (Ran). Close the Outcome's Server when done.
func Run(ctx context.Context, p agents.Paths, sb *driver.Sandbox, s Spec) (*Outcome, error) {
	script := fakemodel.Script{Steps: s.Steps, MaxMain: 20}
	var inside *confine.Listener
	if s.Confine != nil {
		var err error
		if inside, err = confine.NewListener(confine.FakeModelPort); err != nil {
			return nil, err
		}
		script.Listener = inside
	}
	var srv *fakemodel.Server
	switch s.Agent.Wire() {
	case driver.WireGemini:
		srv = fakemodel.NewGemini(script)
	case driver.WireAnthropic:
		srv = fakemodel.NewAnthropic(script)
	default:
		script.Quote = true
		srv = fakemodel.NewOpenAI(script)
	}
	if err := sb.Setup(s.Agent, srv.URL); err != nil {
		srv.Close()
		return nil, err
	}
	rc := filepath.Join(sb.Home, ".hookx-live-bashrc")
	for _, f := range []string{rc, filepath.Join(sb.Home, ".bashrc"), filepath.Join(sb.Home, ".bash_profile")} {
		if err := os.WriteFile(f, []byte(recorder), 0o644); err != nil {
			srv.Close()
			return nil, err
		}
	}
	sb.PathDirs = s.PathDirs
	prompt := s.Prompt
	if prompt == "" {
		prompt = "do the task"
	}
	cmd := driver.Cmd{
		Path:    Exe(p, s.Agent),
		Args:    append(driver.AgentArgs(s.Agent, prompt), recordArgs[s.Agent]...),
		Env:     append(sb.Env(s.Agent, srv.URL), "BASH_ENV="+rc),
		Stop:    srv.Exceeded(),
		Timeout: s.Timeout,
	}
	if c := s.Confine; c != nil {
		if len(c.Helper) != 2 {
			srv.Close()
			return nil, fmt.Errorf("agentrun: the confining helper is %q, not a program and its subcommand", c.Helper)
		}
		pol := confine.Policy{
			Write:      []string{sb.Root},
			Hide:       c.Hide,
			Read:       append([]string{p.Dir}, s.PathDirs...),
			ConnectTCP: []uint16{inside.Port},
		}
		cmd.Args = append([]string{c.Helper[1]}, confine.Args(pol, append([]string{cmd.Path}, cmd.Args...)...)...)
		cmd.Path = c.Helper[0]
		cmd.Prepare = inside.Prepare
	}
	res, err := sb.Run(ctx, cmd)
	o := &Outcome{Sandbox: sb, Server: srv, Result: res}
	if err != nil {
		return o, err
	}
	o.Warnings = sb.SettingsWarnings(s.Agent, res)
	return o, nil
}

// Ran returns what the agent's shells ran, in order (the recorder's log).
func (o *Outcome) Ran() []string {
	b, err := os.ReadFile(filepath.Join(o.Sandbox.Home, execLog))
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// RanCommand reports whether a shell of the agent ran cmd: a recorded -c
// string holds it as written, or single-quoted as a shell quotes it
// (Claude Code runs `eval '<cmd>'`), or a recorded simple command is it. A
// hook's own shell commands that merely mention cmd (an echo of it) are no
// simple command equal to it.
func (o *Outcome) RanCommand(cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	quoted := strings.ReplaceAll(cmd, `'`, `'\''`)
	return slices.ContainsFunc(o.Ran(), func(s string) bool {
		if c, ok := strings.CutPrefix(s, "c:"); ok {
			return strings.Contains(c, cmd) || strings.Contains(c, quoted)
		}
		return strings.TrimSpace(strings.TrimPrefix(s, "d:")) == cmd
	})
}

// ErrUnsupported says an agent has no live run.
var ErrUnsupported = errors.New("no pinned agent to run live")

// HookSettings is a's project hook file holding one command hook on event
// (a's own name) with matcher (nil: none), in the shape a loads: Claude
// Code's groups under "hooks" (Gemini CLI, Codex, Qwen Code too), Droid's
// groups at the root, Copilot CLI's handlers (no matchers: a matcher is
// an error there).
func HookSettings(a driver.Agent, event string, matcher *string, command string) ([]byte, error) {
	if a == driver.Copilot {
		if matcher != nil && *matcher != "" && *matcher != "*" {
			return nil, fmt.Errorf("%s has no matchers (matcher %q)", a, *matcher)
		}
		return json.MarshalIndent(map[string]any{"version": 1, "hooks": map[string]any{
			event: []any{map[string]any{"type": "command", "bash": command}}}}, "", "  ")
	}
	group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command}}}
	if matcher != nil {
		group["matcher"] = *matcher
	}
	events := map[string]any{event: []any{group}}
	if a == driver.Droid {
		return json.MarshalIndent(events, "", "  ")
	}
	return json.MarshalIndent(map[string]any{"hooks": events}, "", "  ")
}
