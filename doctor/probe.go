package doctor

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/internal/hookrun"
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
		box, err := hookrun.NewSandbox("hookx-doctor-", c.opts.Dir)
		if err != nil {
			c.add(h, h.cmdOff, ruleProbeNotRun, "probe not run: "+err.Error(), "")
			continue
		}
		for _, pc := range probeCases(box.Proj) {
			c.probe(h, box, pc)
		}
		box.Close()
	}
}

func (c *checker) probe(h *hook, box *hookrun.Sandbox, pc probeCase) {
	d := h.f.d
	proj := box.Proj
	payload, tool, err := c.payload(d, h.ev.Name, proj, pc) // the event as the agent names it (Crush folds pre_tool_use)
	if err != nil || payload == nil {
		return // the agent has no such tool: its hooks never see this call
	}
	if !hookrun.Matches(d, h.matcher, tool) {
		return
	}
	agentDur := hookrun.AgentTimeout(d, h.ev.Name, h.timeout)
	limit := min(ProbeLimit, agentDur)
	// The hook runs as hookx test runs it on its own agent: through hookx
	// wrap (the agent's command expansion, environment, output bounds and
	// held output), confined; the probe's limit stops it.
	wrapArgv := c.opts.ProbeWrap
	if wrapArgv == nil {
		self, err := os.Executable()
		if err != nil {
			c.add(h, h.cmdOff, ruleProbeNotRun, "probe not run: "+err.Error(), "")
			return
		}
		wrapArgv = []string{self, "wrap"}
	}
	out := hookrun.Run{
		Hook: hookrun.Hook{Dialect: d.Name, Event: h.ev.Name, Matcher: h.matcher, Command: h.command, Env: h.env},
		Host: d, HostEvent: h.ev.Name, Payload: payload, Box: box,
		Wrap: wrapArgv, Exec: c.opts.ProbeExec, Home: c.opts.Home, Dir: c.opts.Dir, Getenv: c.opts.getenv,
		Limit: limit,
	}.Do()
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

// toolMatches is the runner's matcher reading (hookrun.Matches).
var toolMatches = hookrun.Matches
