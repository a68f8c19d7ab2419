//go:build unix

// Package driver runs the real agents (Gemini CLI, Claude Code, Codex,
// Copilot CLI, Qwen Code, Factory Droid) headless, each run in its own
// sandbox: a fresh HOME and TMPDIR, a git-initialised project
// at $HOME/project, and an env -i style environment that points the agent at
// a fake model server. Every run has a hard timeout and ends with a kill of
// its whole process group.
package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Agent names a host agent.
type Agent string

// The two agents of the first suite; hosts.go has the other four.
const (
	Claude Agent = "claude"
	Gemini Agent = "gemini"
)

// Other returns the other of Claude and Gemini (Claude for the others).
func (a Agent) Other() Agent {
	if a == Claude {
		return Gemini
	}
	return Claude
}

// Sandbox is one isolated agent environment.
type Sandbox struct {
	Root    string // holds run logs
	Home    string // $HOME
	Tmp     string // $TMPDIR, $HOME/.tmp
	Project string // $HOME/project, a git repository
	// PathDirs are put first on the agent's PATH (e.g. where hookx is).
	PathDirs []string
	// Node is the node executable; its directory goes on PATH.
	Node string
	// XDGCache is XDG_CACHE_HOME for Copilot, which unpacks itself there on
	// its first run (agents.Paths.CopilotCache); default $HOME/.cache.
	XDGCache string
	// OpenCodePlugin holds OpenCode's plugin API (agents.Paths.
	// OpenCodePlugin), which Setup copies into the project's .opencode/.
	OpenCodePlugin string
	// Relaunch leaves out NoRelaunch: Gemini CLI and Qwen Code relaunch
	// themselves as a user's run does, for a run that looks at every
	// variable the agent gives its hooks (the relaunched process has a few
	// more than NoRelaunch).
	Relaunch bool

	runs atomic.Int32
}

// geminiUserSettings are required for 0.61.0 against a fake: without the
// auth type it picks "gateway" and exits 41; the privacy settings stop the
// only non-local traffic.
const geminiUserSettings = `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false}
}
`

// NewSandbox creates a sandbox under root (which must exist and be empty or
// new), runs git init in the project and writes Gemini's user settings.
func NewSandbox(root, node string) (*Sandbox, error) { return NewSandboxNamed(root, node, "") }

// NewSandboxNamed is NewSandbox with the project directory named name
// (default "project"), which may hold any byte but / and NUL: a space,
// quotes, ;, $ …, as real project directories do.
func NewSandboxNamed(root, node, name string) (*Sandbox, error) {
	if name == "" {
		name = "project"
	}
	if strings.ContainsAny(name, "/\x00") || name == "." || name == ".." {
		return nil, fmt.Errorf("project directory name %q is not one path element", name)
	}
	s := &Sandbox{Root: root, Home: filepath.Join(root, "home"), Node: node}
	s.Tmp = filepath.Join(s.Home, ".tmp")
	s.Project = filepath.Join(s.Home, name)
	for _, d := range []string{s.Tmp, s.Project, filepath.Join(s.Home, ".gemini")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("create sandbox: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(s.Home, ".gemini", "settings.json"), []byte(geminiUserSettings), 0o644); err != nil {
		return nil, fmt.Errorf("write gemini user settings: %w", err)
	}
	cmd := exec.Command("git", "init", "-q", "-b", "main", s.Project)
	cmd.Env = s.baseEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("git init %s: %w: %s", s.Project, err, out)
	}
	return s, nil
}

// Path returns the absolute path of rel inside the project.
func (s *Sandbox) Path(rel string) string { return filepath.Join(s.Project, filepath.FromSlash(rel)) }

// WriteFile writes a file inside the project, creating parent directories;
// files ending in .sh are made executable.
func (s *Sandbox) WriteFile(rel, content string) error {
	p := s.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(p), err)
	}
	mode := os.FileMode(0o644)
	if strings.HasSuffix(rel, ".sh") {
		mode = 0o755
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// WriteJSON writes v as indented JSON inside the project.
func (s *Sandbox) WriteJSON(rel string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", rel, err)
	}
	return s.WriteFile(rel, string(b)+"\n")
}

func (s *Sandbox) baseEnv() []string {
	path := append([]string(nil), s.PathDirs...)
	if s.Node != "" {
		path = append(path, filepath.Dir(s.Node))
	}
	path = append(path, "/usr/local/bin", "/usr/bin", "/bin")
	return []string{
		"PATH=" + strings.Join(path, ":"),
		"HOME=" + s.Home,
		"TMPDIR=" + s.Tmp,
		"SHELL=/bin/bash",
		"LANG=C.UTF-8",
		"USER=" + envOr("USER", "user"),
		// git in hooks and in the agents must not read the developer's config.
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=conformance", "GIT_AUTHOR_EMAIL=conformance@example.invalid",
		"GIT_COMMITTER_NAME=conformance", "GIT_COMMITTER_EMAIL=conformance@example.invalid",
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// Env is the whole environment an agent gets, pointed at baseURL.
func (s *Sandbox) Env(a Agent, baseURL string) []string {
	env := s.baseEnv()
	switch a {
	case Gemini:
		env = append(env,
			"GOOGLE_GEMINI_BASE_URL="+baseURL,
			"GEMINI_API_KEY=dummy",
			"GEMINI_CLI_TRUST_WORKSPACE=true",
		)
		if !s.Relaunch {
			env = append(env, NoRelaunch[Gemini])
		}
	case Claude:
		env = append(env,
			"ANTHROPIC_BASE_URL="+baseURL,
			"ANTHROPIC_API_KEY=dummy",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		)
		if os.Geteuid() == 0 {
			// --dangerously-skip-permissions refuses root without it.
			env = append(env, "IS_SANDBOX=1")
		}
	default:
		env = append(env, s.openAIEnv(a, baseURL)...)
	}
	return env
}

// NoRelaunch is, for Gemini CLI and Qwen Code, the variable their launcher
// sets for the child it relaunches with a larger V8 heap, and that child's
// hooks inherit (mappings/data/evidence/{gemini,qwen}-env.jsonc). Env sets
// it from the start (unless Sandbox.Relaunch): the launcher no longer loads
// the whole bundle once only to start it again (a third of a Gemini run's
// CPU time, a fifth of a Qwen run's, measured 2026-11-28), and the hooks
// see the same environment but for what only the relaunch adds (Qwen's
// QWEN_CODE_PRIVATE_RELAUNCH_ENV_PROVENANCE).
var NoRelaunch = map[Agent]string{Gemini: "GEMINI_CLI_NO_RELAUNCH=true", Qwen: "QWEN_CODE_NO_RELAUNCH=true"}

// Result is the outcome of one process run.
type Result struct {
	Args     []string
	Stdout   string
	Stderr   string
	ExitCode int // -1 when killed
	Duration time.Duration
	TimedOut bool // the timeout killed it
	Stopped  bool // the stop channel killed it
	// Leftover are the processes Cmd.EndLeftovers found still running
	// after the run, each "PID args", which Run ended by their PID.
	Leftover []string
}

func (r Result) String() string {
	state := "exit " + strconv.Itoa(r.ExitCode)
	switch {
	case r.TimedOut:
		state = "killed by timeout"
	case r.Stopped:
		state = "killed on request"
	}
	return fmt.Sprintf("%s after %s\n--- stdout ---\n%s\n--- stderr ---\n%s", state, r.Duration.Round(time.Millisecond), clip(r.Stdout), clip(r.Stderr))
}

func clip(s string) string {
	if len(s) > 4000 {
		return s[:2000] + "\n…\n" + s[len(s)-2000:]
	}
	return s
}

// DefaultTimeout is a run's hard timeout unless Cmd says otherwise. It ends
// a run that hangs, which fails anyway, so it is far above any run seen: a
// Gemini CLI run took 38 s under load, and on 2 cores at a load of 25 runs
// of Qwen Code went past the 2 minutes it used to be.
const DefaultTimeout = 5 * time.Minute

// Slots limits how many agent processes run at once; the suite sets its
// size. Nil means no limit.
var Slots chan struct{}

// Cmd describes one process to run in a sandbox.
type Cmd struct {
	Path    string
	Args    []string
	Dir     string // default: the project
	Env     []string
	Timeout time.Duration // default DefaultTimeout
	// Stop, when closed, kills the run (e.g. a fake's Exceeded).
	Stop <-chan struct{}
	// EndLeftovers ends, by PID, every process still running after the
	// run whose environment has the sandbox's HOME: a daemon the agent
	// detached into a session of its own, out of the reach of the group
	// kill (Cline's hub daemon). They are listed in Result.Leftover.
	EndLeftovers bool
	// Prepare, when set, is given the command before it starts (hookx
	// test --live confined: the namespace and descriptors of the helper).
	Prepare func(*exec.Cmd) error
}

// Run runs c with stdin from /dev/null and stdout/stderr to files under the
// sandbox root, waiting for a slot first. The whole process group is killed
// on timeout, on Stop, and after the process exits (stray hook children).
// A non-zero exit is not an error; a failure to start is.
func (s *Sandbox) Run(ctx context.Context, c Cmd) (Result, error) {
	if Slots != nil {
		select {
		case Slots <- struct{}{}:
			defer func() { <-Slots }()
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Dir == "" {
		c.Dir = s.Project
	}
	n := s.runs.Add(1)
	outPath := filepath.Join(s.Root, fmt.Sprintf("run%d.stdout", n))
	errPath := filepath.Join(s.Root, fmt.Sprintf("run%d.stderr", n))
	stdout, err := os.Create(outPath)
	if err != nil {
		return Result{}, fmt.Errorf("create run log: %w", err)
	}
	defer stdout.Close()
	stderr, err := os.Create(errPath)
	if err != nil {
		return Result{}, fmt.Errorf("create run log: %w", err)
	}
	defer stderr.Close()

	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	cmd.Stdout, cmd.Stderr = stdout, stderr // files: Wait never waits on a grandchild's pipe
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if c.Prepare != nil {
		if err := c.Prepare(cmd); err != nil {
			return Result{}, err
		}
	}

	res := Result{Args: cmd.Args}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return res, fmt.Errorf("start %s: %w", c.Path, err)
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-ctx.Done():
		res.TimedOut = true
		syscall.Kill(-pgid, syscall.SIGKILL)
		waitErr = <-done
	case <-c.Stop:
		res.Stopped = true
		syscall.Kill(-pgid, syscall.SIGKILL)
		waitErr = <-done
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	res.Duration = time.Since(start)
	if c.EndLeftovers {
		res.Leftover = s.endLeftovers()
	}
	res.ExitCode = cmd.ProcessState.ExitCode()
	var ee *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &ee) {
		return res, fmt.Errorf("wait for %s: %w", c.Path, waitErr)
	}
	o, _ := os.ReadFile(outPath)
	e, _ := os.ReadFile(errPath)
	res.Stdout, res.Stderr = string(o), string(e)
	return res, nil
}

// AgentArgs are the print-mode arguments for prompt.
func AgentArgs(a Agent, prompt string) []string {
	switch a {
	case Gemini:
		return []string{"-p", prompt, "--yolo", "-o", "text"}
	case Claude:
		return []string{"-p", prompt, "--dangerously-skip-permissions"}
	}
	return openAIArgs(a, prompt)
}

// endLeftovers ends, by PID, every process whose environment holds this
// sandbox's HOME (unique to the sandbox), and returns them as "PID args".
// Processes of other users, whose environment cannot be read, are not
// looked at.
func (s *Sandbox) endLeftovers() []string {
	want := []byte("HOME=" + s.Home + "\x00")
	var out []string
	for _, pid := range sandboxPIDs(want) {
		args, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			continue // it ended on its own
		}
		out = append(out, strconv.Itoa(pid)+" "+strings.TrimSpace(strings.ReplaceAll(string(args), "\x00", " ")))
	}
	return out
}

// sandboxPIDs lists the processes (not this one) whose environment has
// the entry want ("HOME=…\x00").
func sandboxPIDs(want []byte) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		if bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Running lists the processes still running with the sandbox's HOME (a
// leak check after Run).
func (s *Sandbox) Running() []int { return sandboxPIDs([]byte("HOME=" + s.Home + "\x00")) }
