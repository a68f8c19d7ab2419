package hooktest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/doctor"
	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/hookx-dev/hookx/internal/hookrun"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
)

// eventNames are the named events a case may give (hookrun's actions).
func eventNames() []string { return hookrun.ActionNames() }

// Options are a run's settings.
type Options struct {
	Table *mappings.Table
	Dir   string // the project: settings hooks are read here, every hook runs in a copy of it
	Home  string
	// Exec confines each run: the program and first arguments of the
	// confining helper (hookx probe-exec); nil runs unconfined, which only
	// Unconfined allows.
	Exec       []string
	Unconfined bool
	// Wrap is how to run hookx wrap: the program and its first arguments.
	Wrap   []string
	Getenv func(string) string
	Limit  time.Duration // per run; default 10s
	// Live, when set, runs each case in the real agent instead (RunLive),
	// confined (with Exec's helper) unless Unconfined.
	Live *Live
}

// Live is how a live run runs the agents.
type Live struct {
	// Hookx is the hookx executable: it migrates each hook to each host
	// and is on the agents' PATH for the hookx wrap they run.
	Hookx string
	// Timeout bounds one agent run; default the driver's.
	Timeout time.Duration
}

// ErrLiveInstall says the pinned agents are not installed and could not
// be (offline, or no npm).
var ErrLiveInstall = errors.New("the agents for --live are not installed and could not be")

// ErrLiveConfined is Run's answer to a live run without Unconfined where
// the agents cannot be confined: a confined live run needs, beyond
// Landlock, an empty network namespace for each agent (the fake model's
// port is the one it may connect to, and Landlock's port rule does not
// restrict the address).
var ErrLiveConfined = errors.New("hookx test --live confines the agents, and the project's hooks in them, each in an empty network namespace of its own with the fake model, which hookx cannot do here")

// Cell is one case on one host.
type Cell struct {
	Case, Host string
	Ran        bool // false: the host has no such event or tool, the case does not apply
	NotRun     bool // the hook's own matcher leaves it out: the host does not run it
	Pass       bool
	Did        string // what the host does: deny, allow, ask, context, rewrite, continue
	Reason     string // the reason or context the host reads
	Why        string // on a failure, what was expected
	Notes      []string
	Expect     string // the expected outcome

	// The hook: its dialect, event, matcher, command and settings file.
	Agent, Event, Matcher, Command, File string
}

// ErrUnconfined is Run's answer where no confinement is given.
var ErrUnconfined = errors.New("hookx test runs the project's hooks: it needs confinement")

// Run runs every case of f on its hosts.
func Run(f *File, opts Options) ([]Cell, error) {
	if opts.Exec == nil && !opts.Unconfined {
		return nil, ErrUnconfined
	}
	if opts.Live != nil && !opts.Unconfined {
		if err := confine.IsolationAvailable(); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrLiveConfined, err)
		}
	}
	if opts.Limit == 0 {
		opts.Limit = 10 * time.Second
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	var hooks []doctor.Hook
	var cells []Cell
	var live *liveRun
	if opts.Live != nil {
		var err error
		if live, err = startLive(opts); err != nil {
			return nil, err
		}
	}
	for _, c := range f.Cases {
		hk := c.Hook
		if hk.Settings != "" {
			if hooks == nil {
				hooks = doctor.Hooks(doctor.Options{Table: opts.Table, Dir: opts.Dir, Home: opts.Home})
			}
			found, err := settingsHook(hooks, opts.Dir, hk)
			if err != nil {
				return nil, fmt.Errorf("case %s: %w", c.Name, err)
			}
			hk = found
		}
		for _, host := range opts.Table.Dialects {
			if len(c.Hosts) > 0 && !slices.Contains(c.Hosts, host.Name) {
				continue
			}
			run := runCell
			if opts.Live != nil {
				run = live.cell
			}
			cell, err := run(c, hk, host, opts)
			if err != nil {
				return nil, fmt.Errorf("case %s on %s: %w", c.Name, host.Name, err)
			}
			if cell.Ran || len(c.Hosts) > 0 || len(cell.Notes) > 0 {
				cells = append(cells, cell)
			}
		}
	}
	return cells, nil
}

// settingsHook finds the one hook of a settings file on an event and
// matcher, read by doctor's reader.
func settingsHook(hooks []doctor.Hook, dir string, want Hook) (Hook, error) {
	path := filepath.Join(dir, filepath.FromSlash(want.Settings))
	var got []doctor.Hook
	for _, h := range hooks {
		if filepath.Clean(h.File) != filepath.Clean(path) || h.Event != want.Event {
			continue
		}
		if want.Matcher != nil && (h.Matcher == nil || *h.Matcher != *want.Matcher) || want.Command != "" && h.Command != want.Command {
			continue
		}
		got = append(got, h)
	}
	switch {
	case len(got) == 0:
		return Hook{}, fmt.Errorf("%s has no command hook on %s%s", want.Settings, want.Event, matcherText(want.Matcher))
	case len(got) > 1 && want.Command == "":
		var cmds []string
		for _, h := range got {
			cmds = append(cmds, h.Command)
		}
		return Hook{}, fmt.Errorf("%s has %d command hooks on %s%s: %q; name one by its command", want.Settings, len(got), want.Event, matcherText(want.Matcher), cmds)
	}
	h := got[0]
	if h.AgentEvent == "" {
		return Hook{}, fmt.Errorf("%s: %s has no event %s: the hook never runs", want.Settings, h.Dialect, h.Event)
	}
	return Hook{Command: h.Command, Dialect: h.Dialect, Event: h.AgentEvent, Matcher: h.Matcher, cond: h.If, timeout: h.Timeout, env: h.Env}, nil
}

func matcherText(m *string) string {
	if m == nil {
		return ""
	}
	return fmt.Sprintf(" with matcher %q", *m)
}

// runCell builds the event as host sends it, runs the hook under host
// through hookx wrap, and reads the answer with host's reader.
func runCell(c Case, hk Hook, host *mappings.Dialect, opts Options) (Cell, error) {
	cell := Cell{Case: c.Name, Host: host.Name, Expect: c.Expect.Outcome, Agent: hk.Dialect, Event: hk.Event, Command: hk.Command, File: c.Hook.Settings}
	if hk.Matcher != nil {
		cell.Matcher = *hk.Matcher
	}
	hookD, err := opts.Table.Dialect(hk.Dialect)
	if err != nil {
		return cell, err
	}
	box, err := hookrun.NewSandbox("hookx-test-", opts.Dir)
	if err != nil {
		return cell, err
	}
	defer box.Close()
	ev, err := hookrun.BuildEvent(opts.Table, host, box.Proj, action(c.Event))
	payload, hostEvent, tool, canonical := ev.Payload, ev.Name, ev.Tool, ev.Canonical
	if err != nil {
		// The host cannot send this event (the translation refuses it):
		// the case does not apply there, and the matrix says why.
		cell.Notes = append(cell.Notes, err.Error())
		return cell, nil
	}
	if payload == nil {
		return cell, nil // the host has no such event or tool
	}
	hookEvent := hk.Event
	if hookEvent == "" {
		ev, _ := hookD.EventFor(canonical)
		if ev == nil {
			return cell, fmt.Errorf("%s has no event for %s", hookD.Agent, canonical)
		}
		hookEvent = ev.Name
	}
	cell.Ran = true
	var out translate.Output
	if hk.cond != "" && host != hookD {
		// migrate does not carry such a hook (its lost item): the host
		// never runs it.
		cell.NotRun = true
		cell.Notes = append(cell.Notes, fmt.Sprintf("hookx migrate does not carry a hook with an if condition (%q): %s never runs it", hk.cond, host.Agent))
		cell.Did = "allow"
		judge(&cell, c.Expect, host, hookD.Name, host.Event(hostEvent), translate.Verdict{}, out)
		return cell, nil
	}
	if hk.cond != "" {
		cell.Notes = append(cell.Notes, fmt.Sprintf("the if condition %q is not evaluated: the hook runs for every call its matcher takes", hk.cond))
	}
	if host == hookD && hk.Matcher != nil && tool != "" && !hookrun.Matches(host, hk.Matcher, tool) {
		// The hook's own agent does not run it for this tool.
		cell.NotRun = true
		cell.Notes = append(cell.Notes, fmt.Sprintf("the matcher %q does not match %s: the hook does not run", *hk.Matcher, tool))
	} else {
		// The hook's own agent's timeout applies (wrap --timeout: on
		// expiry, the hook's own timeout rules), where it is within
		// hookx test's limit; past it, the run is cut and says so.
		agentDur := hookrun.AgentTimeout(hookD, hookEvent, hk.timeout)
		var wrapLimit time.Duration
		limit := opts.Limit
		if agentDur > 0 && agentDur <= opts.Limit {
			wrapLimit, limit = agentDur, agentDur+5*time.Second
		}
		out = hookrun.Run{
			Hook: hookrun.Hook{Dialect: hk.Dialect, Event: hookEvent, Matcher: hk.Matcher, Command: hk.Command, Env: hk.env},
			Host: host, HostEvent: hostEvent, Payload: payload, Box: box,
			Wrap: opts.Wrap, Exec: opts.Exec, Home: opts.Home, Dir: opts.Dir, Getenv: opts.Getenv,
			WrapTimeout: wrapLimit, Limit: limit,
		}.Do()
		if out.TimedOut {
			cell.Did, cell.Why = "no answer", fmt.Sprintf("no answer within hookx test's %s limit (%s would wait %s)", opts.Limit, hookD.Agent, agentDur)
			return cell, nil
		}
	}
	v, _, err := translate.ReadOutput(host, hostEvent, out)
	if err != nil {
		return cell, err
	}
	judge(&cell, c.Expect, host, hookD.Name, host.Event(hostEvent), v, out)
	return cell, nil
}

// action is the case's event as hookrun builds it.
func action(e Event) hookrun.Action {
	return hookrun.Action{Name: e.Name, Command: e.Command, Path: e.Path, Content: e.Content, Prompt: e.Prompt, Message: e.Message,
		Dialect: e.Dialect, Payload: e.Payload}
}

// judge says what the host does with v and whether that is what the case
// expects.
func judge(cell *Cell, want Expect, host *mappings.Dialect, hookDialect string, ev *mappings.Event, v translate.Verdict, out translate.Output) {
	stopEvent := ev != nil && ev.Output.Block == "continue"
	switch {
	case v.Ignored != "":
		// A deny or ask in a form the host does not act on: it runs the
		// action (the reader may still set Block, the stricter reading
		// wrap carries to other hosts; doctor --probe's "ignored idiom").
		cell.Did = "allow"
	case v.Block && stopEvent:
		cell.Did, cell.Reason = "continue", v.Reason
	case v.Block:
		cell.Did, cell.Reason = "deny", v.Reason
	case v.Ask || v.Defer:
		cell.Did, cell.Reason = "ask", v.AskReason
	case v.NewInput != nil:
		cell.Did = "rewrite"
	case len(v.Context) > 0:
		cell.Did, cell.Reason = "context", strings.Join(v.Context, "\n")
	default:
		cell.Did = "allow"
	}
	if v.Failure != "" {
		cell.Notes = append(cell.Notes, "the hook failed: "+v.Failure+"; the host goes on")
	}
	if v.Ignored != "" {
		cell.Notes = append(cell.Notes, "ignored idiom: "+v.Ignored)
	}
	if hookx := host.Name != hookDialect; hookx {
		// What wrap said about the translation (its findings, "hookx: ...").
		for _, l := range strings.Split(string(out.Stderr), "\n") {
			if n, ok := strings.CutPrefix(l, "hookx: "); ok {
				cell.Notes = append(cell.Notes, "wrap: "+n)
			}
		}
	}
	if out.TimedOut {
		cell.Notes = append(cell.Notes, out.FailReason)
	}
	re := regexp.MustCompile(want.Reason) // checked by Parse
	switch want.Outcome {
	case "deny", "ask", "continue":
		cell.Pass = cell.Did == want.Outcome && re.MatchString(cell.Reason)
		if cell.Did == want.Outcome && !cell.Pass {
			cell.Why = fmt.Sprintf("reason %q does not match /%s/", firstLine(cell.Reason), want.Reason)
		}
	case "allow":
		cell.Pass = cell.Did == "allow" || cell.Did == "context" || cell.Did == "rewrite"
	case "context":
		cell.Pass = slices.ContainsFunc(v.Context, func(s string) bool { return strings.Contains(s, want.Context) })
		if !cell.Pass && len(v.Context) > 0 {
			cell.Why = fmt.Sprintf("context %q does not contain %q", firstLine(strings.Join(v.Context, " ")), want.Context)
		}
	case "rewrite":
		cell.Pass = cell.Did == "rewrite"
		for k, w := range want.Input {
			if !cell.Pass {
				break
			}
			g, _ := json.Marshal(v.NewInput[k])
			e, _ := json.Marshal(w)
			if !bytes.Equal(g, e) {
				cell.Pass = false
				cell.Why = fmt.Sprintf("input %s is %s, want %s", k, g, e)
			}
		}
		if cell.Did == "rewrite" {
			b, _ := json.Marshal(v.NewInput)
			cell.Reason = string(b)
		}
	}
	if !cell.Pass && cell.Why == "" {
		cell.Why = "expected " + want.Outcome
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
