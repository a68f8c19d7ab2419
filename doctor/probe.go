package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
)

// probeCase is one canned tool call, written as a Claude Code event and
// translated into each hook's own dialect by the translate package.
type probeCase struct {
	label string
	tool  string // the Claude tool
	input map[string]any
}

// probeCases are the canned calls. The destructive command is one GNU rm
// refuses to run, so a hook that executes what it is given stays harmless.
func probeCases(dir string) []probeCase {
	return []probeCase{
		{"harmless shell command", "Bash", map[string]any{"command": "ls", "description": "List files"}},
		{"destructive shell command", "Bash", map[string]any{"command": "rm -rf /", "description": "Delete everything"}},
		{"write to a secrets file", "Write", map[string]any{"file_path": filepath.Join(dir, ".env"), "content": "API_KEY=doctor-probe\n"}},
	}
}

// ProbeLimit is the longest a probe waits for one hook; a hook the agent
// would give longer is reported as not answering in time.
var ProbeLimit = 10 * time.Second

// probeAll runs each pre-tool hook against the canned calls in a temporary
// copy of the project. Only events whose canonical concept is tool.before
// are probed; nothing else is ever run.
func (c *checker) probeAll() {
	var hooks []*hook
	for _, f := range c.files {
		for _, h := range f.hooks {
			if h.ev != nil && h.ev.Canonical == "tool.before" && h.typ == "command" && h.command != "" {
				hooks = append(hooks, h)
			}
		}
	}
	if len(hooks) == 0 {
		return
	}
	for _, h := range hooks {
		tmp, err := os.MkdirTemp("", "hookx-doctor-")
		if err != nil {
			c.add(h, h.cmdOff, ruleProbeNotRun, "probe not run: "+err.Error(), "")
			return
		}
		box, err := confine.NewSandbox(tmp, c.opts.Dir)
		if err != nil {
			c.add(h, h.cmdOff, ruleProbeNotRun, "probe not run: "+err.Error(), "")
			os.RemoveAll(tmp)
			continue
		}
		proj := box.Proj
		if err := confine.CopyTree(c.opts.Dir, proj); err != nil {
			c.add(h, h.cmdOff, ruleProbeNotRun, "probe not run: copying the project: "+err.Error(), "")
			os.RemoveAll(tmp)
			continue
		}
		for _, pc := range probeCases(proj) {
			c.probe(h, box, pc)
		}
		os.RemoveAll(tmp)
	}
}

func (c *checker) probe(h *hook, box *confine.Sandbox, pc probeCase) {
	d := h.f.d
	proj := box.Proj
	payload, tool, err := c.payload(d, h.ev.Name, proj, pc) // the event as the agent names it (Crush folds pre_tool_use)
	if err != nil || payload == nil {
		return // the agent has no such tool: its hooks never see this call
	}
	if !toolMatches(d, h.matcher, tool) {
		return
	}
	limit := ProbeLimit
	agentLimit := d.Timeout.Default
	if t, ok := d.Timeout.PerEvent[h.ev.Name]; ok {
		agentLimit = t
	}
	if h.timeout != nil && *h.timeout > 0 {
		agentLimit = *h.timeout
	}
	agentDur := d.Timeout.Duration(agentLimit)
	if agentDur < limit {
		limit = agentDur
	}
	out := c.runHook(h, box, payload, limit)
	what := fmt.Sprintf("probe %s (%s)", pc.label, tool)
	outcome, r, fix := classify(d, h.ev.Name, out, limit < agentDur, limit)
	c.add(h, h.cmdOff, r, what+": "+outcome, fix)
}

// payload builds the canned call as d's agent would send it on event.
func (c *checker) payload(d *mappings.Dialect, event, proj string, pc probeCase) ([]byte, string, error) {
	claude, err := c.tbl.Dialect("claude")
	if err != nil {
		return nil, "", err
	}
	ce, _ := claude.EventFor("tool.before")
	if ce == nil {
		return nil, "", errors.New("no Claude pre-tool event")
	}
	b, err := json.Marshal(map[string]any{
		"session_id": "hookx-doctor-probe", "transcript_path": filepath.Join(proj, ".hookx-doctor-transcript.jsonl"),
		"cwd": proj, "permission_mode": "default", "hook_event_name": ce.Name,
		"tool_name": pc.tool, "tool_input": pc.input, "tool_use_id": "toolu_hookx_doctor",
	})
	if err != nil {
		return nil, "", err
	}
	if d == claude {
		return b, pc.tool, nil
	}
	tr, err := translate.New(c.tbl, claude.Name, d.Name)
	if err != nil {
		return nil, "", err
	}
	res, err := tr.Event(b)
	if err != nil || res.Skip || res.Event != event {
		return nil, "", err
	}
	var v struct {
		ToolName string `json:"tool_name"`
	}
	_ = json.Unmarshal(res.Payload, &v)
	return res.Payload, v.ToolName, nil
}

// toolMatches reports whether d's agent runs a hook with matcher m for a
// call of tool, read by the table's ToolMatcher (the one migrate and wrap
// use). A matcher hookx cannot evaluate as the agent does is assumed to
// match: the probe then runs the guard.
func toolMatches(d *mappings.Dialect, m *string, tool string) bool {
	if matchesAll(d, m) {
		return true
	}
	tm, err := d.ToolMatcher(*m)
	if err != nil {
		return true
	}
	ok, err := tm.Match(tool)
	return ok || err != nil
}

// runHook runs a hook the way its agent does: its shell, in the project,
// with the agent's variables, the event on stdin.
func (c *checker) runHook(h *hook, box *confine.Sandbox, payload []byte, limit time.Duration) translate.Output {
	d := h.f.d
	proj := box.Proj
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	shell := d.Shell
	if shell == "" {
		shell = "sh"
	}
	path := c.opts.getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	cmd := exec.Command(shell, "-c", h.command)
	if c.opts.ProbeExec != nil {
		args := slices.Concat(c.opts.ProbeExec[1:], confine.Args(box.Policy(c.opts.Home, c.opts.Dir, path), shell, "-c", h.command))
		cmd = exec.Command(c.opts.ProbeExec[0], args...)
	}
	cmd.Dir = proj
	cmd.Stdin = bytes.NewReader(payload)
	env := box.Env(path, c.opts.getenv)
	for _, o := range c.tbl.Dialects {
		if sets(d, o.Env.ProjectDir) {
			env = append(env, o.Env.ProjectDir+"="+proj)
		}
	}
	if d.Env.Cwd != "" {
		env = append(env, d.Env.Cwd+"="+proj)
	}
	if d.Env.SessionID != "" {
		env = append(env, d.Env.SessionID+"=hookx-doctor-probe")
	}
	for k, v := range d.Env.Set {
		env = append(env, k+"="+v)
	}
	for k, v := range h.env {
		env = append(env, k+"="+v)
	}
	cmd.Env = env
	newGroup(cmd)
	if c.opts.ProbeExec != nil {
		// Where the kernel allows it: no network at all, and every process
		// the hook started dies with it (PID namespace).
		confine.Isolate(cmd)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limited{w: &stdout, n: 1 << 20}
	cmd.Stderr = &limited{w: &stderr, n: 1 << 20}
	if err := cmd.Start(); err != nil {
		return translate.Output{Failed: true, FailReason: err.Error()}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	timedOut := false
	select {
	case err = <-done:
	case <-ctx.Done():
		timedOut = true
		killGroup(cmd)
		err = <-done
	}
	// A background process that keeps the pipes open is gone with the group.
	killGroup(cmd)
	out := translate.Output{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), TimedOut: timedOut}
	if timedOut {
		out.FailReason = "timed out"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if signaled(ee) {
			out.Signaled = true
		} else {
			out.ExitCode = ee.ExitCode()
		}
	}
	return out
}

type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n > 0 {
		q := p[:min(len(p), l.n)]
		l.n -= len(q)
		_, _ = l.w.Write(q)
	}
	return len(p), nil
}

// classify says what the agent does with a hook's answer.
func classify(d *mappings.Dialect, event string, out translate.Output, probeCut bool, limit time.Duration) (string, *Rule, string) {
	if out.TimedOut {
		if probeCut {
			return fmt.Sprintf("no answer within the probe's %s limit (the agent would wait longer)", limit), ruleProbeSlow, "make the hook answer faster"
		}
		return fmt.Sprintf("timed out after %s; %s kills the hook and runs the tool: the guard fails open", limit, d.Agent), ruleProbeTimeout,
			"make the hook answer faster, or raise its timeout (" + d.Agent + " counts it in " + unitName(d) + ")"
	}
	// The reader wrap uses decides, and names a deny its agent ignores.
	v, _, err := translate.ReadOutput(d, event, out)
	if err != nil {
		return "not judged: " + err.Error(), ruleProbeNotRun, ""
	}
	if v.Ignored != "" {
		return "ignored idiom: " + v.Ignored + "; it runs the tool", ruleProbeIdiom, "answer in " + d.Agent + "'s own idiom (docs/decisions.md)"
	}
	switch {
	case v.Block:
		return "blocked (" + firstLine(v.Reason) + ")", ruleProbeBlocked, ""
	case v.Ask && askHangs(d, event):
		// Gemini CLI, live, 2026-11-22: the tool does not run, and the CLI never exits (T§15 S3).
		return "asks the user to confirm; a headless " + d.Agent + " run hangs on it for ever", ruleProbeAskHangs, "answer with a deny where no one can confirm"
	case v.Ask:
		return "asks the user to confirm (a -p run has no prompt and denies)", ruleProbeAsks, ""
	case v.Failure != "":
		return fmt.Sprintf("failed open: %s; %s runs the tool", v.Failure, d.Agent), ruleProbeFailedOpen,
			"fix the error; a guard that crashes lets every call through"
	default:
		return "allowed", ruleProbeAllowed, ""
	}
}

// askHangs reports whether d's ask on event is never answered in a
// headless run (output.askHangs).
func askHangs(d *mappings.Dialect, event string) bool {
	ev := d.Event(event)
	return ev != nil && ev.Output.AskHangs
}

func unitName(d *mappings.Dialect) string {
	if d.Timeout.Unit == "ms" {
		return "milliseconds"
	}
	return "seconds"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
