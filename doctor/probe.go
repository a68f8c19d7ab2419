package doctor

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/internal/hookrun"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
)

// probeCase is one canned tool call, an action as hookx test names it
// (hookrun.BuildEvent builds it as each agent sends it).
type probeCase struct {
	label  string
	action hookrun.Action
}

// probeCases are the canned calls. The destructive command is one GNU rm
// refuses to run, so a hook that executes what it is given stays harmless.
var probeCases = []probeCase{
	{"harmless shell command", hookrun.Action{Name: "shell", Command: "ls"}},
	{"destructive shell command", hookrun.Action{Name: "shell", Command: "rm -rf /"}},
	{"write to a secrets file", hookrun.Action{Name: "write", Path: ".env", Content: "API_KEY=doctor-probe\n"}},
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
		for _, pc := range probeCases {
			c.probe(h, box, pc)
		}
		box.Close()
	}
}

func (c *checker) probe(h *hook, box *hookrun.Sandbox, pc probeCase) {
	d := h.f.d
	proj := box.Proj
	// The event as hookx test builds it for d and the action.
	ev, err := hookrun.BuildEvent(c.tbl, d, proj, pc.action)
	if err != nil || ev.Payload == nil || ev.Name != h.ev.Name {
		return // the agent has no such tool: its hooks never see this call
	}
	payload, tool := ev.Payload, ev.Tool
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
