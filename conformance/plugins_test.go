//go:build unix

package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// A plugin scenario ships a guard the way hook collections are shipped: a
// Claude Code plugin (hooks/hooks.json with ${CLAUDE_PLUGIN_ROOT}, loaded
// with --plugin-dir) or a Gemini CLI extension (hooks/hooks.json with
// ${extensionPath}, installed with `gemini extensions link`). Each runs
// natively, and converted by `hookx migrate --plugin DIR --out DIR` into the
// other agent's kind, installed with that agent's own command.
type pluginScenario struct {
	name    string
	dialect driver.Agent
	files   map[string]string // relative to the plugin's directory
	marker  string
}

func pluginScenarios() []pluginScenario {
	guard := func(body string) string {
		return "#!/bin/sh\n" + onDangerous(body)
	}
	return []pluginScenario{
		{
			name: "plugin/claude-guard", dialect: driver.Claude, marker: "GUARD-C-PLUGIN",
			files: map[string]string{
				".claude-plugin/plugin.json": `{"name": "build-guard", "version": "1.0.0", "description": "keeps build/"}`,
				"hooks/hooks.json": `{"description": "guard", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [` +
					`{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh", "timeout": 30}]}]}}`,
				"scripts/guard.sh": guard("echo 'GUARD-C-PLUGIN: rm -rf build is forbidden' >&2; exit 2"),
			},
		},
		{
			name: "plugin/gemini-guard", dialect: driver.Gemini, marker: "GUARD-G-EXT",
			files: map[string]string{
				"gemini-extension.json": `{"name": "build-guard", "version": "1.0.0"}`,
				"hooks/hooks.json": `{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [` +
					`{"name": "guard", "type": "command", "command": "${extensionPath}/scripts/guard.sh", "timeout": 30000}]}]}}`,
				"scripts/guard.sh": guard(emit(`{"decision":"deny","reason":"GUARD-G-EXT: rm -rf build is forbidden"}`)),
			},
		},
	}
}

// TestPluginConformance runs each plugin scenario natively and converted.
func TestPluginConformance(t *testing.T) {
	p := requireAgents(t)
	for _, ps := range pluginScenarios() {
		t.Run(ps.name, func(t *testing.T) {
			t.Parallel()
			t.Run(pathNative+"-"+string(ps.dialect), func(t *testing.T) {
				t.Parallel()
				if problems, evidence := runPlugin(t, p, ps, false); len(problems) > 0 {
					t.Errorf("%s natively:\n- %s\n%s", ps.name, strings.Join(problems, "\n- "), evidence)
				}
			})
			t.Run("hookx-to-"+string(ps.dialect.Other()), func(t *testing.T) {
				t.Parallel()
				requireHookx(t)
				if problems, evidence := runPlugin(t, p, ps, true); len(problems) > 0 {
					t.Errorf("%s converted by hookx:\n- %s\n%s", ps.name, strings.Join(problems, "\n- "), evidence)
				}
			})
		})
	}
}

// runPlugin writes the plugin outside the project, converts it when
// convert is set, installs it in its host with the host's own means, and
// runs the guard steps.
func runPlugin(t *testing.T, p agents.Paths, ps pluginScenario, convert bool) (problems []string, evidence string) {
	sb := newSandbox(t, p, "")
	if err := sb.WriteFile("build/keep.txt", "keep\n"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(sb.Home, "plugins", "build-guard")
	for rel, content := range ps.files {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var log strings.Builder
	host := ps.dialect
	if convert {
		host = ps.dialect.Other()
		bin := requireHookx(t)
		sb.PathDirs = []string{filepath.Dir(bin)}
		out := filepath.Join(sb.Home, "plugins", "converted")
		args := []string{"migrate", "--from", string(ps.dialect), "--to", string(host), "--plugin", dir, "--out", out}
		if pr := runTool(t, sb, host, bin, args, &log); pr != nil {
			return pr, log.String()
		}
		b, _ := os.ReadFile(filepath.Join(out, "hooks", "hooks.json"))
		fmt.Fprintf(&log, "converted hooks/hooks.json:\n%s\n", b)
		// The target's own placeholder; wrap's argument spells ${NAME} as
		// \$'{NAME}' so that no host substitutes in it before wrap does.
		if want := "{" + map[driver.Agent]string{driver.Gemini: "extensionPath", driver.Claude: "CLAUDE_PLUGIN_ROOT"}[host] + "}"; !strings.Contains(string(b), want) {
			return []string{"the converted hooks.json does not use " + want}, log.String()
		}
		dir = out
	}
	var extra []string
	if host == driver.Gemini {
		if pr := runTool(t, sb, host, p.Gemini, []string{"extensions", "link", dir, "--consent"}, &log); pr != nil {
			return pr, log.String()
		}
	} else {
		extra = []string{"--plugin-dir", dir}
	}
	steps := []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN")}
	o := runWithArgs(t, p, sb, host, steps, extra)
	problems = append(commonProblems(o), guardCheck(ps.marker)(o)...)
	return problems, log.String() + o.describe()
}

// runTool runs a setup command (hookx migrate, gemini extensions link) in
// the sandbox and reports a failure as a problem.
func runTool(t *testing.T, sb *driver.Sandbox, host driver.Agent, bin string, args []string, log *strings.Builder) []string {
	t.Helper()
	res, err := sb.Run(context.Background(), driver.Cmd{Path: bin, Args: args, Env: sb.Env(host, "http://127.0.0.1:9")})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(log, "$ %s %s\n%s\n", filepath.Base(bin), strings.Join(args, " "), res)
	if res.ExitCode != 0 || res.TimedOut {
		return []string{fmt.Sprintf("%s %s failed: exit %d", filepath.Base(bin), strings.Join(args, " "), res.ExitCode)}
	}
	return nil
}

// runWithArgs is runAgent with extra agent arguments (--plugin-dir).
func runWithArgs(t *testing.T, p agents.Paths, sb *driver.Sandbox, host driver.Agent, steps []action, extra []string) *outcome {
	t.Helper()
	o, err := runHost(t, p, sb, host, runSpec{steps: steps, extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	return o
}
