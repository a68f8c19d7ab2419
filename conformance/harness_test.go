//go:build unix

package conformance

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
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
// machine thanks to the cache) and returns their paths. It skips only
// under -short (go test -short ./..., the quick loop), on
// HOOKX_CONFORMANCE=off, or when npm is missing outside CI.
func requireAgents(t *testing.T) agents.Paths {
	t.Helper()
	if testing.Short() {
		t.Skip("CONFORMANCE SUITE SKIPPED: -short; the real agents were NOT run (go test ./... runs them)")
	}
	if os.Getenv("HOOKX_CONFORMANCE") == "off" {
		t.Skip("CONFORMANCE SUITE SKIPPED: HOOKX_CONFORMANCE=off; the real agents were NOT run")
	}
	agentsOnce.Do(func() {
		dir, err := agents.DefaultDir()
		if err != nil {
			agentsErr = err
			return
		}
		// npm install (its own bound: 10 minutes) and six version checks,
		// after whatever wait for another test binary's install; the bound
		// only ends an install that hangs (it was 10 minutes in all).
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
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
	sb.XDGCache = p.CopilotCache
	sb.OpenCodePlugin = p.OpenCodePlugin
	return sb
}

// action is one neutral model step; toStep renders it as the host's tool
// call (hosts[host].shell for the shell, hosts[host].tools for the others).
type action struct {
	kind                    string // shell, write, read, edit, ls, say, fail
	text                    string // shell command or say text
	path, content, old, new string // project-relative path
	intro                   string // text the model says before its tool call
	// asGiven passes path to the tool as it is (relative), as a model may.
	asGiven bool
	// deep adds to a shell call an argument "x" nested deep arrays deep
	// (fakemodel.DeepArg; the OpenAI wires only).
	deep int
}

func shell(cmd string) action           { return action{kind: "shell", text: cmd} }
func say(text string) action            { return action{kind: "say", text: text} }
func fail(text string) action           { return action{kind: "fail", text: text} }
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
	hs := hosts[host]
	switch a.kind {
	case "shell":
		c := hs.shell(a.text)
		if a.deep > 0 {
			c.Args["x"] = fakemodel.DeepArg(a.deep)
		}
		return fakemodel.Step{Calls: []fakemodel.Call{c}}
	case "say", "":
		return fakemodel.Say(a.text)
	case "fail":
		// A failed model call (the OpenAI fakes only): HTTP 400.
		return fakemodel.Step{Fail: 400, Text: a.text}
	}
	tool, ok := hs.tools[a.kind]
	if !ok {
		panic(fmt.Sprintf("conformance: no %s tool call mapped for %s yet (hosts_test.go, hostSpec.tools)", a.kind, host))
	}
	return fakemodel.Step{Calls: []fakemodel.Call{tool(a, a.abs(sb))}}
}

// outcome is what one agent run produced, for a scenario's checks.
type outcome struct {
	host driver.Agent
	sb   *driver.Sandbox
	srv  *fakemodel.Server
	res  driver.Result
	// warnings are the settings warnings in the host's channels
	// (driver.Sandbox.SettingsWarnings).
	warnings []string
	// wantWarning, when set, is a warning the run must report (a negative
	// control); the run's warnings are then not problems.
	wantWarning string
	anyExit     bool   // a non-zero exit of the agent is no problem
	okWarning   string // warnings with this text are no problem
	// note is what a check records about the run without judging it
	// (e.g. whether Cline's task went on after a block); logged.
	note string
}

// runAgent serves the scenario's script to host and runs it in sb.
func runAgent(t *testing.T, p agents.Paths, sb *driver.Sandbox, host driver.Agent, sc *scenario) (*outcome, error) {
	t.Helper()
	o, err := runHost(t, p, sb, host, runSpec{steps: sc.steps, maxMain: sc.maxMain, prompt: sc.prompt, extra: sc.hostArgs(host)})
	if o != nil {
		o.wantWarning, o.anyExit, o.okWarning = sc.wantWarning, sc.anyExit, sc.okWarning
	}
	return o, err
}

// runSpec is one agent run: the model's script and extra agent arguments.
type runSpec struct {
	steps   []action
	maxMain int    // default 20
	prompt  string // default "do the task"
	extra   []string
}

// runHost starts the fake model server host speaks, writes host's user
// configuration pointed at it, and runs host in sb.
func runHost(t *testing.T, p agents.Paths, sb *driver.Sandbox, host driver.Agent, rs runSpec) (*outcome, error) {
	t.Helper()
	script := fakemodel.Script{MaxMain: cmp.Or(rs.maxMain, 20)}
	for _, a := range rs.steps {
		script.Steps = append(script.Steps, toStep(host, sb, a))
	}
	var srv *fakemodel.Server
	switch host.Wire() {
	case driver.WireGemini:
		srv = fakemodel.NewGemini(script)
	case driver.WireAnthropic:
		srv = fakemodel.NewAnthropic(script)
	default:
		script.Quote = true
		srv = fakemodel.NewOpenAI(script)
	}
	t.Cleanup(srv.Close)
	if err := sb.Setup(host, srv.URL); err != nil {
		return nil, err
	}
	res, err := sb.Run(context.Background(), driver.Cmd{
		Path:         exe(p, host),
		Args:         append(driver.AgentArgs(host, cmp.Or(rs.prompt, "do the task")), rs.extra...),
		Env:          sb.Env(host, srv.URL),
		Stop:         srv.Exceeded(),
		Timeout:      hosts[host].runTimeout,
		EndLeftovers: hosts[host].leavesDaemon,
	})
	o := &outcome{host: host, sb: sb, srv: srv, res: res}
	o.warnings = sb.SettingsWarnings(host, res)
	return o, err
}

// describe is the evidence for a failure: the run, the agent's log files,
// and what the fake saw.
func (o *outcome) describe() string {
	var logs strings.Builder
	for _, f := range o.sb.LogFiles(o.host) {
		b, _ := os.ReadFile(f)
		if len(b) > 3000 {
			b = append([]byte("…"), b[len(b)-3000:]...)
		}
		fmt.Fprintf(&logs, "--- %s (tail) ---\n%s\n", f, b)
	}
	for _, f := range o.hookLogs("") {
		b, _ := os.ReadFile(f)
		if len(b) > 1500 {
			b = append(b[:1500:1500], "…"...)
		}
		fmt.Fprintf(&logs, "--- hook stdin %s ---\n%s\n", filepath.Base(f), b)
	}
	if len(o.res.Leftover) > 0 {
		fmt.Fprintf(&logs, "--- left running after the run, ended by PID ---\n%s\n", strings.Join(o.res.Leftover, "\n"))
	}
	return fmt.Sprintf("%s run: %s\n%sfake %s server: %s", o.host, o.res, logs.String(), o.host.Wire(), o.srv.Summary())
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

// commonProblems applies to every run: a clean exit, and no settings
// warnings in the host's channels (stderr, and Copilot's, Qwen's and
// Droid's own logs), or, for a negative control, the warning it expects.
func commonProblems(o *outcome) []string {
	var p []string
	switch {
	case o.res.TimedOut:
		p = append(p, "the agent run timed out")
	case o.res.Stopped:
		p = append(p, fmt.Sprintf("the agent looped past %d model requests and was killed", len(o.srv.Main())-1))
	case o.res.ExitCode != 0 && !o.anyExit:
		p = append(p, fmt.Sprintf("the agent exited %d", o.res.ExitCode))
	}
	switch {
	case o.wantWarning == "":
		for _, w := range o.warnings {
			if o.okWarning == "" || !strings.Contains(w, o.okWarning) {
				p = append(p, fmt.Sprintf("%s has a settings warning: %q", o.host, w))
			}
		}
	case !slices.ContainsFunc(o.warnings, func(w string) bool { return strings.Contains(w, o.wantWarning) }):
		p = append(p, fmt.Sprintf("%s reported no settings warning %q (warnings: %q)", o.host, o.wantWarning, o.warnings))
	}
	return p
}
