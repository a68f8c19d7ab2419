//go:build unix

package hooktest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/internal/agentrun"
	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
)

// liveRun holds a live run's installed agents.
type liveRun struct {
	paths agents.Paths
}

// startLive installs the pinned agents on first use (agentrun.Install):
// an agent that is missing and cannot be installed (offline, no npm) is an
// error, never a skip.
func startLive(opts Options) (*liveRun, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	p, err := agentrun.Install(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrLiveInstall, err)
	}
	return &liveRun{paths: p}, nil
}

// probe is the harmless command the fake model runs after the case's call:
// where the recorder does not see it, the run shows nothing and the cell
// says so rather than reading an absence as a deny.
const probe = "echo hookx-live-probe"

// cell runs case c in host's real agent: the hook is installed as hookx
// migrate installs it (or, on its own agent, as written), the fake model
// makes the case's tool call, and what the agent did is read from its
// effects (the command ran, the file was written, what reached the model).
func (l *liveRun) cell(c Case, hk Hook, host *mappings.Dialect, opts Options) (Cell, error) {
	cell := Cell{Case: c.Name, Host: host.Name, Expect: c.Expect.Outcome, Agent: hk.Dialect, Event: hk.Event, Command: hk.Command, File: c.Hook.Settings}
	if hk.Matcher != nil {
		cell.Matcher = *hk.Matcher
	}
	hookD, err := opts.Table.Dialect(hk.Dialect)
	if err != nil {
		return cell, err
	}
	// The fast path's event decides where the case applies, so that both
	// paths have the same cells.
	payload, hostEvent, _, canonical, err := buildEvent(c.Event, host, opts.Dir, opts.Table)
	if err != nil {
		cell.Notes = append(cell.Notes, err.Error())
		return cell, nil
	}
	if payload == nil {
		return cell, nil
	}
	notLive := func(why string) (Cell, error) {
		cell.Notes = append(cell.Notes, "not run live: "+why)
		return cell, nil
	}
	agent := driver.Agent(host.Name)
	switch {
	case !agentrun.Supported(host.Name):
		return notLive(fmt.Sprintf("hookx has no pinned %s to run", host.Agent))
	case c.Event.Payload != nil:
		return notLive("an inline event has no tool call a model can make")
	case c.Event.Name != "shell" && c.Event.Name != "write":
		return notLive(fmt.Sprintf("the %s event is not run live yet (shell and write are)", c.Event.Name))
	case c.Expect.Outcome == "ask" || c.Expect.Outcome == "continue":
		return notLive(fmt.Sprintf("%s is not judged live yet", c.Expect.Outcome))
	}
	var step fakemodel.Call
	var path string
	if c.Event.Name == "write" {
		ok := false
		path = c.Event.Path
		if step, ok = agentrun.WriteCall(agent, "", ""); !ok {
			return notLive(fmt.Sprintf("the fake model offers %s no write tool", host.Agent))
		}
	}

	tmp, err := os.MkdirTemp("", "hookx-test-live-")
	if err != nil {
		return cell, err
	}
	defer os.RemoveAll(tmp)
	sb, err := agentrun.NewSandbox(tmp, l.paths, opts.Dir)
	if err != nil {
		return cell, err
	}
	if c.Hook.Settings == "" {
		// A command hook: written into its own agent's hook file, in the
		// copy, as its author would.
		if !agentrun.Supported(hk.Dialect) {
			return notLive(fmt.Sprintf("hookx has no pinned %s to write the hook for", hookD.Agent))
		}
		ev := hk.Event
		if ev == "" {
			e, _ := hookD.EventFor(canonical)
			if e == nil {
				return cell, fmt.Errorf("%s has no event for %s", hookD.Agent, canonical)
			}
			ev = e.Name
		}
		file := agentrun.SettingsFile(driver.Agent(hk.Dialect))
		if _, err := os.Stat(sb.Path(file)); err == nil {
			return notLive(fmt.Sprintf("the project has its own %s: name the hook by settings", file))
		}
		b, err := agentrun.HookSettings(driver.Agent(hk.Dialect), ev, hk.Matcher, hk.Command)
		if err != nil {
			return notLive(err.Error())
		}
		if err := sb.WriteFile(file, string(b)+"\n"); err != nil {
			return cell, err
		}
	}
	if host != hookD {
		cmd := exec.Command(opts.Live.Hookx, "migrate", "--from", hk.Dialect, "--to", host.Name, "--dir", sb.Project)
		cmd.Env = sb.Env(agent, "http://127.0.0.1:9")
		cmd.Dir = sb.Project
		if out, err := cmd.CombinedOutput(); err != nil {
			cell.Ran, cell.Did, cell.Why = true, "error", fmt.Sprintf("hookx migrate --from %s --to %s failed: %v", hk.Dialect, host.Name, err)
			cell.Notes = append(cell.Notes, strings.TrimSpace(string(out)))
			return cell, nil
		}
	}
	var steps []fakemodel.Step
	switch c.Event.Name {
	case "shell":
		steps = append(steps, fakemodel.Step{Calls: []fakemodel.Call{agentrun.ShellCall(agent, c.Event.Command)}})
	case "write":
		if !filepath.IsAbs(path) {
			path = sb.Path(path)
		}
		step, _ = agentrun.WriteCall(agent, path, c.Event.Content)
		steps = append(steps, fakemodel.Step{Calls: []fakemodel.Call{step}})
	}
	steps = append(steps, fakemodel.Step{Calls: []fakemodel.Call{agentrun.ShellCall(agent, probe)}}, fakemodel.Say("Done."))
	o, err := agentrun.Run(context.Background(), l.paths, sb, agentrun.Spec{
		Agent: agent, Steps: steps, PathDirs: []string{filepath.Dir(opts.Live.Hookx)}, Timeout: opts.Live.Timeout,
	})
	if o != nil {
		defer o.Server.Close()
	}
	if err != nil {
		return cell, fmt.Errorf("run %s: %w", host.Agent, err)
	}
	cell.Ran = true
	cell.Notes = append(cell.Notes, fmt.Sprintf("live: %s ran in %s", host.Agent, o.Result.Duration.Round(100*time.Millisecond)))
	for _, w := range o.Warnings {
		cell.Notes = append(cell.Notes, "live: "+w)
	}
	v, why := readLive(o, c, path)
	if why != "" {
		cell.Did, cell.Why = "unobserved", why
		return cell, nil
	}
	judge(&cell, c.Expect, host, hookD.Name, host.Event(hostEvent), v, translate.Output{})
	return cell, nil
}

// readLive reads what the agent did with the case's call from its effects,
// as a verdict the fast path's judge reads: blocked (the command did not
// run, the file was not written; the reason is what the model was told),
// rewritten (another command ran: the one the case expects), or let run;
// and the context, where the model's next request holds the case's text.
// why says what made the run unreadable.
func readLive(o *agentrun.Outcome, c Case, path string) (translate.Verdict, string) {
	var v translate.Verdict
	switch {
	case o.Result.TimedOut:
		return v, "the agent run timed out"
	case o.Result.Stopped:
		return v, "the agent looped past the fake model's turns and was killed"
	case !o.RanCommand(probe):
		return v, fmt.Sprintf("the agent's shell ran no recorded command (not even %q after the case's call): what it did is unknown", probe)
	}
	var ran bool
	switch c.Event.Name {
	case "shell":
		ran = o.RanCommand(c.Event.Command)
		if want, _ := c.Expect.Input["command"].(string); !ran && want != "" && o.RanCommand(want) {
			v.NewInput = map[string]any{"command": want}
			return v, ""
		}
	case "write":
		b, err := os.ReadFile(path)
		ran = err == nil && string(b) == c.Event.Content
	}
	var told string
	for _, r := range o.Server.Main() {
		if rs := r.ToolResults(); len(rs) > 0 && told == "" {
			told = rs[0].Text // the case's call's result, as the model got it
		}
	}
	if !ran {
		v.Block, v.Reason = true, told
		return v, ""
	}
	if c.Expect.Context != "" {
		if last := o.Server.LastMain(); last != nil && strings.Contains(last.AllText(), c.Expect.Context) {
			v.Context = []string{c.Expect.Context}
		}
	}
	return v, ""
}
