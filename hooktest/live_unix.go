//go:build unix

package hooktest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/internal/agentrun"
	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
	"github.com/hookx-dev/hookx/internal/hookrun"
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
	built, err := hookrun.BuildEvent(opts.Table, host, opts.Dir, action(c.Event))
	payload, hostEvent, canonical := built.Payload, built.Name, built.Canonical
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
	case c.Expect.Outcome == "ask":
		return notLive("the agents run headless, with no user to ask: an ask cannot be seen live")
	}
	ev, err := liveEvent(c.Event, opts)
	switch {
	case err != nil:
		return notLive(err.Error())
	case ev.Name == "prompt" && strings.TrimSpace(ev.Prompt) == "":
		return notLive("an empty prompt: a headless agent is given none")
	case ev.Name == "prompt" && strings.HasPrefix(ev.Prompt, "-"):
		// Given after -p, it could be read as one of the agent's flags.
		return notLive("a prompt starting with - would reach the agent as a flag")
	case ev.Name == "prompt" && agentrun.NoPromptHook(agent) != "":
		return notLive(agentrun.NoPromptHook(agent))
	}
	var step fakemodel.Call
	var path string
	if ev.Name == "write" {
		ok := false
		path = ev.Path
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
	prompt := ""
	switch ev.Name {
	case "shell":
		steps = append(steps, fakemodel.Step{Calls: []fakemodel.Call{agentrun.ShellCall(agent, ev.Command)}})
	case "write":
		if !filepath.IsAbs(path) {
			path = sb.Path(path)
		}
		step, _ = agentrun.WriteCall(agent, path, ev.Content)
		steps = append(steps, fakemodel.Step{Calls: []fakemodel.Call{step}})
	case "prompt":
		prompt = ev.Prompt
	case "stop":
		// The model's last message; a continuation is the model asked
		// again (past the script: "Done.").
		msg := ev.Message
		if msg == "" {
			msg = "Done."
		}
		steps = append(steps, fakemodel.Say(msg))
	}
	if ev.Name == "shell" || ev.Name == "write" {
		steps = append(steps, fakemodel.Step{Calls: []fakemodel.Call{agentrun.ShellCall(agent, probe)}}, fakemodel.Say("Done."))
	}
	spec := agentrun.Spec{
		Agent: agent, Prompt: prompt, Steps: steps, PathDirs: []string{filepath.Dir(opts.Live.Hookx)}, Timeout: opts.Live.Timeout,
	}
	if !opts.Unconfined {
		// The agent and the hooks it runs: in the sandbox, offline but
		// for the fake model, blind to the real home and project.
		home, _ := os.UserHomeDir()
		spec.Confine = &agentrun.Confine{Helper: opts.Exec, Hide: []string{opts.Home, home, opts.Dir}}
	}
	o, err := agentrun.Run(context.Background(), l.paths, sb, spec)
	if o != nil {
		defer o.Server.Close()
	}
	if err != nil {
		return cell, fmt.Errorf("run %s: %w", host.Agent, err)
	}
	cell.Ran = true
	how := "unconfined"
	if spec.Confine != nil {
		how = "confined"
	}
	cell.Notes = append(cell.Notes, fmt.Sprintf("live: %s ran in %s, %s", host.Agent, o.Result.Duration.Round(100*time.Millisecond), how))
	for _, w := range o.Warnings {
		cell.Notes = append(cell.Notes, "live: "+w)
	}
	v, why := readLive(o, ev, c.Expect, path)
	if why != "" {
		cell.Did, cell.Why = "unobserved", why
		return cell, nil
	}
	judge(&cell, c.Expect, host, hookD.Name, host.Event(hostEvent), v, translate.Output{})
	if why := agentrun.PromptDenialUnshown(agent); ev.Name == "prompt" && v.Block && why != "" {
		// The refusal is seen; its reason is shown to nobody headless.
		cell.Reason = ""
		cell.Notes = append(cell.Notes, "live: the reason is not judged: "+why)
		if cell.Did == c.Expect.Outcome {
			cell.Pass, cell.Why = true, ""
		}
	}
	return cell, nil
}

// liveEvent is the case's event as a model or user makes it happen live: a
// named event as it is, an inline one as the named event it is (read by
// translating it to Claude Code's payload, the named events' dialect): a
// shell or write tool call, a prompt, a stop.
func liveEvent(e Event, opts Options) (Event, error) {
	if e.Payload == nil {
		return e, nil
	}
	claude, err := opts.Table.Dialect("claude")
	if err != nil {
		return e, err
	}
	ev, err := hookrun.BuildEvent(opts.Table, claude, opts.Dir, action(e))
	payload, event := ev.Payload, ev.Name
	if err != nil || payload == nil {
		return e, fmt.Errorf("the inline %s event is none a model or user can make happen live (shell, write, prompt, stop)", e.Dialect)
	}
	var p struct {
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
		Prompt    *string        `json:"prompt"`
		Message   string         `json:"last_assistant_message"`
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		return e, err
	}
	var orig struct {
		Cwd string `json:"cwd"` // the author's, before hookrun.BuildEvent sets the copy's
	}
	json.Unmarshal(e.Payload, &orig)
	str := func(k string) (string, bool) { s, ok := p.ToolInput[k].(string); return s, ok }
	switch {
	case event == "PreToolUse" && p.ToolName == "Bash":
		if cmd, ok := str("command"); ok {
			return Event{Name: "shell", Command: cmd}, nil
		}
	case event == "PreToolUse" && p.ToolName == "Write":
		f, ok1 := str("file_path")
		content, ok2 := str("content")
		// The file is the project's, written in the copy: a path
		// outside the event's cwd is not written live.
		rel, err := filepath.Rel(orig.Cwd, f)
		switch {
		case !ok1 || !ok2:
		case orig.Cwd == "" || !filepath.IsAbs(f) || err != nil || !filepath.IsLocal(rel):
			return e, fmt.Errorf("the inline event writes %q, outside its cwd %q: not written live", f, orig.Cwd)
		default:
			return Event{Name: "write", Path: rel, Content: content}, nil
		}
	case event == "UserPromptSubmit" && p.Prompt != nil:
		return Event{Name: "prompt", Prompt: *p.Prompt}, nil
	case event == "Stop":
		return Event{Name: "stop", Message: p.Message}, nil
	}
	return e, fmt.Errorf("the inline %s event (Claude Code's %s %s) is none a model or user can make happen live (a shell command, a file write, a prompt, a stop)", e.Dialect, event, p.ToolName)
}

// readLive reads what the agent did with the case's event from its
// effects, as a verdict the fast path's judge reads. A tool call: blocked
// (the command did not run, the file was not written; the reason is what
// the model was told), rewritten (another command ran: the one the case
// expects), or let run. A prompt: blocked when no request to the model
// holds it (the reason is what the agent printed). A stop: continued when
// the model is asked again after its last message (the reason is what the
// agent added to the conversation). And the context, where a request to
// the model holds the case's text. why says what made the run unreadable.
func readLive(o *agentrun.Outcome, ev Event, want Expect, path string) (translate.Verdict, string) {
	var v translate.Verdict
	switch {
	case o.Result.TimedOut:
		return v, "the agent run timed out"
	case o.Result.Stopped:
		return v, "the agent looped past the fake model's turns and was killed"
	case (ev.Name == "shell" || ev.Name == "write") && !o.RanCommand(probe):
		return v, fmt.Sprintf("the agent's shell ran no recorded command (not even %q after the case's call): what it did is unknown", probe)
	}
	main := o.Server.Main()
	addContext := func() {
		if want.Context == "" {
			return
		}
		for _, r := range main {
			if strings.Contains(r.AllText(), want.Context) {
				v.Context = []string{want.Context}
				return
			}
		}
	}
	switch ev.Name {
	case "prompt":
		if !slices.ContainsFunc(main, func(r fakemodel.Request) bool { return strings.Contains(r.Conversation(), ev.Prompt) }) {
			v.Block, v.Reason = true, strings.TrimSpace(o.Result.Stdout+"\n"+o.Result.Stderr)
			return v, ""
		}
		addContext()
		return v, ""
	case "stop":
		if len(main) == 0 {
			return v, "the agent made no request to the model"
		}
		if len(main) > 1 {
			first := main[0].Conversation()
			v.Block, v.Reason = true, strings.TrimPrefix(main[1].Conversation(), first)
		}
		return v, ""
	}
	var ran bool
	switch ev.Name {
	case "shell":
		ran = o.RanCommand(ev.Command)
		if w, _ := want.Input["command"].(string); !ran && w != "" && o.RanCommand(w) {
			v.NewInput = map[string]any{"command": w}
			return v, ""
		}
	case "write":
		b, err := os.ReadFile(path)
		ran = err == nil && string(b) == ev.Content
	}
	var told string
	for _, r := range main {
		if rs := r.ToolResults(); len(rs) > 0 && told == "" {
			told = rs[0].Text // the case's call's result, as the model got it
		}
	}
	if !ran {
		v.Block, v.Reason = true, told
		return v, ""
	}
	addContext()
	return v, ""
}
