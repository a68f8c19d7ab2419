//go:build unix

package conformance

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/conformance/agents"
	"github.com/hookx-dev/hookx/conformance/internal/driver"
	"github.com/hookx-dev/hookx/conformance/internal/fakemodel"
)

// suiteStart is when the test binary started; the report gives the total.
var suiteStart = time.Now()

// tmpRoot holds per-binary scratch (the hookx build); removed by TestMain.
var tmpRoot string

func TestMain(m *testing.M) {
	n := 2
	if v, err := strconv.Atoi(os.Getenv("HOOKX_CONFORMANCE_PARALLEL")); err == nil && v > 0 {
		n = v
	}
	driver.Slots = make(chan struct{}, n)
	var err error
	tmpRoot, err = os.MkdirTemp("", "hookx-conformance-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(tmpRoot)
	os.Exit(code)
}

// inCI reports CI=true: nothing may be skipped for a missing component.
func inCI() bool { return os.Getenv("CI") == "true" }

var (
	agentsOnce sync.Once
	agentPaths agents.Paths
	agentsErr  error
	agentsNote string // how the install went, for the report
)

// requireAgents installs the pinned agents once per test binary (once per
// machine thanks to the cache) and returns their paths. It skips only on
// HOOKX_CONFORMANCE=off, or when npm is missing outside CI.
func requireAgents(t *testing.T) agents.Paths {
	t.Helper()
	if os.Getenv("HOOKX_CONFORMANCE") == "off" {
		t.Skip("CONFORMANCE SUITE SKIPPED: HOOKX_CONFORMANCE=off; the real Gemini CLI and Claude Code were NOT run")
	}
	agentsOnce.Do(func() {
		dir, err := agents.DefaultDir()
		if err != nil {
			agentsErr = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		agentPaths, agentsErr = agents.Install(ctx, dir)
		what := "cache hit"
		if agentPaths.Installed {
			what = "npm ci"
		}
		agentsNote = fmt.Sprintf("agents: %s in %s (%s)", what, agentPaths.Took.Round(time.Millisecond), dir)
	})
	if agentsErr != nil {
		if errors.Is(agentsErr, agents.ErrNoNPM) && !inCI() {
			t.Skipf("CONFORMANCE SUITE SKIPPED: %v. Install Node 20+ and npm to run the real agents (with CI=true this is a failure).", agentsErr)
		}
		t.Fatalf("install the pinned agents: %v", agentsErr)
	}
	return agentPaths
}

// newSandbox makes a sandbox in the test's temp dir.
func newSandbox(t *testing.T, p agents.Paths, projectName string) *driver.Sandbox {
	t.Helper()
	sb, err := driver.NewSandboxNamed(t.TempDir(), p.Node, projectName)
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

// exe returns the agent executable.
func exe(p agents.Paths, a driver.Agent) string {
	if a == driver.Gemini {
		return p.Gemini
	}
	return p.Claude
}

// action is one neutral model step; toStep renders it as the host's tool
// call (Bash ↔ run_shell_command, Write ↔ write_file, Read ↔ read_file,
// Edit ↔ replace).
type action struct {
	kind                    string // shell, write, read, edit, ls, say
	text                    string // shell command or say text
	path, content, old, new string // project-relative path
	intro                   string // text the model says before its tool call
	// asGiven passes path to the tool as it is (relative), as a model may.
	asGiven bool
}

func shell(cmd string) action           { return action{kind: "shell", text: cmd} }
func say(text string) action            { return action{kind: "say", text: text} }
func write(path, content string) action { return action{kind: "write", path: path, content: content} }
func read(path string) action           { return action{kind: "read", path: path} }
func edit(path, old, new string) action { return action{kind: "edit", path: path, old: old, new: new} }
func (a action) abs(sb *driver.Sandbox) string {
	if a.asGiven {
		return a.path
	}
	return sb.Path(a.path)
}

func toStep(host driver.Agent, sb *driver.Sandbox, a action) fakemodel.Step {
	s := callStep(host, sb, a)
	if a.intro != "" {
		s.Text = a.intro
	}
	return s
}

func callStep(host driver.Agent, sb *driver.Sandbox, a action) fakemodel.Step {
	g := host == driver.Gemini
	switch a.kind {
	case "shell":
		name := "Bash"
		if g {
			name = "run_shell_command"
		}
		return fakemodel.Tool(name, map[string]any{"command": a.text, "description": "fake call"})
	case "write":
		name := "Write"
		if g {
			name = "write_file"
		}
		return fakemodel.Tool(name, map[string]any{"file_path": a.abs(sb), "content": a.content})
	case "read":
		name := "Read"
		if g {
			name = "read_file"
		}
		return fakemodel.Tool(name, map[string]any{"file_path": a.abs(sb)})
	case "edit":
		if g {
			return fakemodel.Tool("replace", map[string]any{"file_path": a.abs(sb), "instruction": "fake edit", "old_string": a.old, "new_string": a.new})
		}
		return fakemodel.Tool("Edit", map[string]any{"file_path": a.abs(sb), "old_string": a.old, "new_string": a.new})
	case "ls":
		if g {
			return fakemodel.Tool("list_directory", map[string]any{"dir_path": a.abs(sb)})
		}
		return fakemodel.Tool("LS", map[string]any{"path": a.abs(sb)})
	default:
		return fakemodel.Say(a.text)
	}
}

// outcome is what one agent run produced, for a scenario's checks.
type outcome struct {
	host driver.Agent
	sb   *driver.Sandbox
	srv  *fakemodel.Server
	res  driver.Result
}

// runAgent serves the scenario's script to host and runs it in sb.
func runAgent(t *testing.T, p agents.Paths, sb *driver.Sandbox, host driver.Agent, sc *scenario) (*outcome, error) {
	t.Helper()
	script := fakemodel.Script{MaxMain: sc.maxMain}
	if script.MaxMain == 0 {
		script.MaxMain = 20
	}
	for _, a := range sc.steps {
		script.Steps = append(script.Steps, toStep(host, sb, a))
	}
	var srv *fakemodel.Server
	if host == driver.Gemini {
		srv = fakemodel.NewGemini(script)
	} else {
		srv = fakemodel.NewAnthropic(script)
	}
	t.Cleanup(srv.Close)
	prompt := sc.prompt
	if prompt == "" {
		prompt = "do the task"
	}
	res, err := sb.Run(context.Background(), driver.Cmd{
		Path: exe(p, host),
		Args: driver.AgentArgs(host, prompt),
		Env:  sb.Env(host, srv.URL),
		Stop: srv.Exceeded(),
	})
	return &outcome{host: host, sb: sb, srv: srv, res: res}, err
}

// describe is the evidence for a failure: the run and what the fake saw.
func (o *outcome) describe() string {
	return fmt.Sprintf("%s run: %s\nfake %s server: %s", o.host, o.res, o.host, o.srv.Summary())
}

// hookLogs returns the JSON files hooks wrote to $HOME/hooklog whose names
// start with prefix.
func (o *outcome) hookLogs(prefix string) []string {
	m, _ := filepath.Glob(filepath.Join(o.sb.Home, "hooklog", prefix+"*.json"))
	return m
}

// exists reports whether a project file exists.
func (o *outcome) exists(rel string) bool {
	_, err := os.Stat(o.sb.Path(rel))
	return err == nil
}

// warningPatterns are agent stderr lines that mean the hook settings did not
// load cleanly.
var warningPatterns = []string{"invalid hook", "discarding", "invalid settings", "settings error", "unknown hook event", "invalid configuration"}

// commonProblems applies to every run: a clean exit, no settings warnings.
func commonProblems(o *outcome) []string {
	var p []string
	switch {
	case o.res.TimedOut:
		p = append(p, "the agent run timed out")
	case o.res.Stopped:
		p = append(p, fmt.Sprintf("the agent looped past %d model requests and was killed", len(o.srv.Main())-1))
	case o.res.ExitCode != 0:
		p = append(p, fmt.Sprintf("the agent exited %d", o.res.ExitCode))
	}
	low := strings.ToLower(o.res.Stderr)
	for _, w := range warningPatterns {
		if i := strings.Index(low, w); i >= 0 {
			line := o.res.Stderr[strings.LastIndex(o.res.Stderr[:i], "\n")+1:]
			if j := strings.IndexByte(line, '\n'); j >= 0 {
				line = line[:j]
			}
			p = append(p, fmt.Sprintf("agent stderr has a settings warning: %q", line))
		}
	}
	return p
}
