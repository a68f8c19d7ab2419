package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ciTool finds a program the CI glue tests need: they skip without it on a
// developer's machine, never in CI (.ci/run installs it).
func ciTool(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; .ci/run installs Debian's %s", name, pkg)
		}
		t.Skipf("%s is not installed (apt-get install %s)", name, pkg)
	}
	return p
}

// ciProject builds hookx into a directory for PATH and makes a sample
// project: a Claude guard, a Codex target, a .hookx.jsonc, as a git
// repository. It returns the environment to run in and the project.
func ciProject(t *testing.T) (env []string, proj string) {
	t.Helper()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "hookx"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := filepath.Join(tmp, "home")
	env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home, "PRE_COMMIT_HOME="+filepath.Join(tmp, "pre-commit"), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "NO_COLOR=1", "PRE_COMMIT_COLOR=never")
	proj = filepath.Join(tmp, "a project; with 'quotes'")
	files := map[string]string{
		".claude/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}`,
		".codex/hooks.json":     "{}\n",
		".hookx.jsonc":          `{"from": "claude", "to": ["codex"]}`,
		"guard.sh":              "#!/bin/sh\nexit 0\n",
	}
	for name, data := range files {
		p := filepath.Join(proj, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{home, proj} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ciRun(t, env, proj, 0, "git", "init", "-q")
	return env, proj
}

// ciRun runs a command and checks its exit code; it returns the output.
func ciRun(t *testing.T, env []string, dir string, want int, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	got := 0
	if ee, ok := err.(*exec.ExitError); ok {
		got = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	if got != want {
		t.Fatalf("%s %s: exit %d, want %d\n%s", name, strings.Join(args, " "), got, want, out)
	}
	return string(out)
}

// The repository's .pre-commit-hooks.yaml, run by the real pre-commit
// against a sample project: migrate --check fails while the target is
// stale, with its one-line reason; both hooks pass once it is migrated;
// a hand edit of an owned entry fails again.
func TestPreCommitHooks(t *testing.T) {
	preCommit := ciTool(t, "pre-commit", "pre-commit")
	env, proj := ciProject(t)

	// The hook repository: a git repository holding this definition.
	hooks := filepath.Join(t.TempDir(), "hookx")
	def, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hooks, ".pre-commit-hooks.yaml"), def, 0o644); err != nil {
		t.Fatal(err)
	}
	ciRun(t, env, hooks, 0, "git", "init", "-q")
	ciRun(t, env, hooks, 0, "git", "add", "-A")
	ciRun(t, env, hooks, 0, "git", "commit", "-qm", "hooks")
	rev := strings.TrimSpace(ciRun(t, env, hooks, 0, "git", "rev-parse", "HEAD"))

	config := "repos:\n  - repo: " + hooks + "\n    rev: " + rev + "\n    hooks:\n      - id: hookx-migrate-check\n      - id: hookx-doctor\n"
	if err := os.WriteFile(filepath.Join(proj, ".pre-commit-config.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ciRun(t, env, proj, 0, "git", "add", "-A")

	out := ciRun(t, env, proj, 1, preCommit, "run", "--all-files")
	for _, want := range []string{
		"hookx migrate --check....", "Failed",
		"hookx migrate --check: .codex/hooks.json: stale (1 to add); run hookx migrate",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stale: pre-commit's output lacks %q:\n%s", want, out)
		}
	}

	ciRun(t, env, proj, 0, "hookx", "migrate")
	ciRun(t, env, proj, 0, "git", "add", "-A")
	out = ciRun(t, env, proj, 0, preCommit, "run", "--all-files")
	for _, want := range []string{"hookx migrate --check....", "hookx doctor....", "Passed"} {
		if !strings.Contains(out, want) {
			t.Errorf("migrated: pre-commit's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Failed") {
		t.Errorf("migrated: a hook failed:\n%s", out)
	}

	// A hand edit of the entry hookx owns.
	p := filepath.Join(proj, ".codex/hooks.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"timeout": 605`, `"timeout": 9`, 1)
	if edited == string(data) {
		t.Fatalf("no timeout to edit in:\n%s", data)
	}
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out = ciRun(t, env, proj, 1, preCommit, "run", "--all-files")
	if !strings.Contains(out, "was edited (by hand, or by another hookx version)") {
		t.Errorf("hand edit: pre-commit's output lacks the reason:\n%s", out)
	}
}

// action.yml: a composite action whose steps take their inputs through the
// environment (never ${{ }} inside a script, where a value would become
// shell code), and whose check steps, run here with bash as the runner
// runs them, fail on a stale project and pass on a migrated one. The
// install step (go install from the module proxy) needs the network and is
// only checked for its pin to the action's ref.
func TestActionSteps(t *testing.T) {
	python := ciTool(t, "python3", "python3-yaml")
	out, err := exec.Command(python, "-c", "import json, sys, yaml; json.dump(yaml.safe_load(open('../../action.yml')), sys.stdout)").Output()
	if err != nil {
		t.Fatalf("reading action.yml with python3's yaml: %v", err)
	}
	var action struct {
		Inputs map[string]struct{ Default string }
		Runs   struct {
			Using string
			Steps []struct {
				ID, Shell, Run, If, Uses string
				Env                      map[string]string
				WorkingDirectory         string `json:"working-directory"`
			}
		}
	}
	if err := json.Unmarshal(out, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q, want composite", action.Runs.Using)
	}
	env, proj := ciProject(t)
	steps := map[string]string{}
	for _, s := range action.Runs.Steps {
		if s.Uses != "" {
			continue
		}
		if s.Shell != "bash" {
			t.Errorf("step %s: shell %q, want bash", s.ID, s.Shell)
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %s: an expression inside its script:\n%s", s.ID, s.Run)
		}
		steps[s.ID] = s.Run
		if s.ID == "install" {
			if !strings.Contains(s.Env["HOOKX_VERSION"], "github.action_ref") || !strings.Contains(s.Run, `cmd/hookx@${HOOKX_VERSION`) {
				t.Errorf("install: not pinned to the action's ref:\n%v\n%s", s.Env, s.Run)
			}
		}
	}
	for _, id := range []string{"install", "migrate-check", "doctor"} {
		if _, ok := steps[id]; !ok {
			t.Fatalf("no step %q", id)
		}
	}
	bash := func(id string, want int) string { return ciRun(t, env, proj, want, "bash", "-e", "-c", steps[id]) }
	if got := bash("migrate-check", 1); !strings.Contains(got, "stale (1 to add)") {
		t.Errorf("migrate-check on a stale project:\n%s", got)
	}
	ciRun(t, env, proj, 0, "hookx", "migrate")
	bash("migrate-check", 0)
	bash("doctor", 0)
}
