//go:build unix

package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/doctor"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// Doctor's claims, proven in batches: one project per agent holds many
// broken hooks, each its own script that logs that it ran and guards its
// own command (`touch ran-<name>`, blocked with exit 2 and a reason on
// stderr, which every agent reads as a deny), so that one agent run proves
// many "never fires" and "fails open" claims at once, and one run of the
// same project fixed as each finding's fix says proves every guard then
// blocks. A control guard, valid in both, must fire and block in both runs:
// a file the agent rejected would otherwise pass every "never fires".
// Classes that reject the whole file get a run each: the fixed batch
// project with one mutation, in which no hook runs (the control neither);
// its fix undoes the mutation, giving the fixed batch project back.

// verdict is what doctor says a broken hook does in its agent.
type verdict string

const (
	// neverFires: the agent never runs the hook; the guarded command runs.
	neverFires verdict = "never fires"
	// failsOpen: the agent runs the hook and the guarded command anyway.
	failsOpen verdict = "fails open"
	// blocksAll: the agent reads the hook's failure (a missing script's
	// exit 127) as a block: every call it matches is refused, and the
	// guard's own script never ran. Such hooks cannot share a batch with
	// others (they would block the others' commands): they get their own.
	blocksAll verdict = "blocks every call"
	// rejectsFile: the agent loads none of the file's hooks.
	rejectsFile verdict = "the agent rejects the file"
)

// liveHook is one hook of a batch project.
type liveHook struct {
	// class is the doctor error class it proves (doctorErrorClasses);
	// name is unique in the agent's batch (the marker and the command).
	class, name string
	// want is text of the error doctor must report for the broken hook.
	want    string
	verdict verdict
	// broken and fixed are the hook in the settings: its event and its
	// group's (Copilot: handler's) JSON text, given the hook's paths.
	broken, fixed livePlace
	// deny, when set, is the broken script's answer to its command
	// (default: exit 2 with a reason, as the fixed script answers).
	deny string
	// shebang, when set, is the broken script's first line; mode its mode
	// (default #!/bin/sh, 0755).
	shebang string
	mode    os.FileMode
	// timeout replaces the broken hook's timeout (default: 30 s in the
	// agent's unit).
	timeout string
}

type livePlace struct {
	event string
	text  func(p livePaths) string
}

// livePaths are the command texts a hook's author writes for its agent.
type livePaths struct {
	a       driver.Agent
	script  string // the hook's script, as the agent's authors refer to it
	timeout string
}

// ref refers to a project-relative path as the agent's authors do.
func (p livePaths) ref(rel string) string {
	hs := hosts[p.a]
	if hs.projectRef == "" {
		return "./" + rel
	}
	return hs.projectRef + "/" + rel
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

// handler is a command handler in the agent's shape.
func (p livePaths) handler(cmd string) string {
	if p.a == driver.Copilot {
		return `{"type":"command","bash":` + jsonString(cmd) + `,"timeoutSec":` + p.timeout + `}`
	}
	return `{"type":"command","command":` + jsonString(cmd) + `,"timeout":` + p.timeout + `}`
}

// group is a matcher group holding handler h ("" matcher: none); Copilot
// has no groups: the handler stands alone.
func (p livePaths) group(matcher, h string) string {
	if p.a == driver.Copilot {
		return h
	}
	if matcher == "" {
		return `{"hooks":[` + h + `]}`
	}
	return `{"matcher":` + jsonString(matcher) + `,"hooks":[` + h + `]}`
}

// guardGroup is the valid guard: the agent's pre-tool event, its shell
// matcher, the script.
func guardGroup(p livePaths) string { return p.group(hosts[p.a].shellMatcher, p.handler(p.script)) }

var validGuard = func(a driver.Agent) livePlace {
	return livePlace{event: hosts[a].preTool, text: guardGroup}
}

// liveConfig renders the hooks' settings file for agent a, each hook at
// broken or fixed place.
func liveConfig(a driver.Agent, hooks []liveHook, fixed bool) string {
	var events []string
	groups := map[string][]string{}
	for _, h := range hooks {
		pl := h.broken
		timeout := cmpOr(h.timeout, strconv.Itoa(hosts[a].timeout))
		if fixed {
			pl, timeout = h.fixed, strconv.Itoa(hosts[a].timeout)
		}
		p := livePaths{a: a, script: livePathsFor(a).ref(hosts[a].hookDir + "/" + h.name + ".sh"), timeout: timeout}
		if !slices.Contains(events, pl.event) {
			events = append(events, pl.event)
		}
		groups[pl.event] = append(groups[pl.event], pl.text(p))
	}
	var b strings.Builder
	for i, e := range events {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("  " + jsonString(e) + ": [\n    " + strings.Join(groups[e], ",\n    ") + "\n  ]")
	}
	body := b.String()
	switch a {
	case driver.Droid:
		return "{\n" + body + "\n}\n"
	case driver.Copilot:
		return "{\"version\": 1, \"hooks\": {\n" + body + "\n}}\n"
	}
	return "{\"hooks\": {\n" + body + "\n}}\n"
}

func livePathsFor(a driver.Agent) livePaths { return livePaths{a: a} }

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// liveScript is hook name's script: it logs that it ran, and answers its
// own command with deny (the fixed answer: exit 2 with a reason).
func liveScript(name, deny string) string {
	if deny == "" {
		deny = "echo 'HXLIVE-" + name + ": forbidden' >&2; exit 2"
	}
	return "mkdir -p \"$HOME/hooklog\"\n: > \"$HOME/hooklog/fired." + name + ".$$.json\"\n" + readInput +
		"case \"$input\" in\n*'touch ran-" + name + "'*)\n" + deny + "\n;;\nesac\nexit 0\n"
}

// liveFile is a class that makes the agent reject the whole file: a
// mutation of the fixed batch file, which its fix undoes.
type liveFile struct {
	class, want string
	mutate      func(config string) string
}

// liveBatch is one agent's batch project.
type liveBatch struct {
	agent driver.Agent
	name  string // batch name under the agent ("hooks", "blocks-all")
	hooks []liveHook
	files []liveFile
	// stops: the agent refuses to start on a file it cannot parse (Gemini
	// CLI exits 52): nothing runs, neither hooks nor commands.
	stops bool
}

const liveControl = "control"

// writeLive writes the batch project, broken or fixed, with config (the
// settings text) and every hook's script.
func writeLive(sb *driver.Sandbox, b liveBatch, config string, fixed bool) error {
	hs := hosts[b.agent]
	if err := sb.WriteFile(hs.settings, config); err != nil {
		return err
	}
	for _, h := range b.hooks {
		shebang, mode, deny := "#!/bin/sh", os.FileMode(0o755), ""
		if !fixed {
			shebang, deny = cmpOr(h.shebang, shebang), h.deny
			if h.mode != 0 {
				mode = h.mode
			}
		}
		rel := hs.hookDir + "/" + h.name + ".sh"
		if err := sb.WriteFile(rel, shebang+"\n"+liveScript(h.name, deny)); err != nil {
			return err
		}
		if err := os.Chmod(sb.Path(rel), mode); err != nil {
			return err
		}
	}
	return nil
}

// doctorErrors runs hookx doctor --probe --json on the sandbox's project
// with the agent's environment and returns its error findings.
func doctorErrors(t *testing.T, sb *driver.Sandbox, a driver.Agent) ([]string, string) {
	t.Helper()
	res, err := sb.Run(context.Background(), driver.Cmd{
		Path: requireHookx(t), Args: []string{"doctor", "--probe", "--json", "--dir", sb.Project},
		Env: sb.Env(a, "http://127.0.0.1:9"),
	})
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Findings []struct{ Problem, Severity string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(res.Stdout), &out); err != nil {
		t.Fatalf("hookx doctor --json: %v\n%s", err, res)
	}
	var errs []string
	for _, f := range out.Findings {
		if f.Severity == "error" {
			errs = append(errs, f.Problem)
		}
	}
	return errs, res.Stdout
}

func liveSteps(names []string) []action {
	var steps []action
	for _, n := range names {
		steps = append(steps, shell("touch ran-"+n))
	}
	return steps
}

// runLive runs agent a natively on the sandbox's project, the model
// calling `touch ran-<name>` for each name.
func runLive(t *testing.T, sb *driver.Sandbox, a driver.Agent, names []string) *outcome {
	t.Helper()
	o, err := runAgent(t, requireAgents(t), sb, a, &scenario{name: t.Name(), dialect: a, steps: liveSteps(names)})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func (o *outcome) fired(name string) bool { return len(o.hookLogs("fired."+name+".")) > 0 }

// runProblems are a live run's own problems: a clean exit, and (fixed
// runs) no settings warnings; a broken project's warnings are logged.
func runProblems(t *testing.T, o *outcome, strict bool) []string {
	if strict {
		return commonProblems(o)
	}
	if len(o.warnings) > 0 {
		t.Logf("%s warned (expected of a broken project): %q", o.host, o.warnings)
	}
	o.warnings = nil
	return commonProblems(o)
}

// testLiveBatch proves one batch: doctor's errors on the broken project,
// the agent's behaviour there, doctor's silence on the fixed project and
// every guard blocking there; then each file class.
func testLiveBatch(t *testing.T, b liveBatch) {
	p := requireAgents(t)
	a := b.agent
	var names, brokenNames []string
	var broken, blocking []liveHook
	for _, h := range b.hooks {
		names = append(names, h.name)
		if h.verdict == blocksAll {
			blocking = append(blocking, h)
			continue
		}
		broken = append(broken, h)
		brokenNames = append(brokenNames, h.name)
	}
	fixedConfig := liveConfig(a, b.hooks, true)

	t.Run("broken", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t, p, "")
		bb := b
		bb.hooks = broken
		if err := writeLive(sb, bb, liveConfig(a, broken, false), false); err != nil {
			t.Fatal(err)
		}
		errs, doc := doctorErrors(t, sb, a)
		var problems []string
		for _, h := range broken {
			if h.want != "" && !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, h.want) }) {
				problems = append(problems, fmt.Sprintf("%s (%s): doctor reported no error containing %q", h.name, h.class, h.want))
			}
		}
		o := runLive(t, sb, a, brokenNames)
		problems = append(problems, runProblems(t, o, false)...)
		for _, h := range broken {
			fired, ran := o.fired(h.name), o.exists("ran-"+h.name)
			v := h.verdict
			if h.name == liveControl {
				if !fired || ran {
					problems = append(problems, fmt.Sprintf("the control guard ran: %v, its command ran: %v; want it to run and block (was the file loaded?)", fired, ran))
				}
				continue
			}
			var want string
			switch v {
			case neverFires:
				if fired || !ran {
					want = "the hook never runs and its command runs"
				}
			case failsOpen:
				// A hook that cannot run (its script missing, not executable…)
				// fails open without its script ever starting.
				if runs := liveExit(h.class) == 0; fired != runs || !ran {
					want = fmt.Sprintf("the hook's script runs: %v, and its command runs anyway", runs)
				}
			}
			if want != "" {
				problems = append(problems, fmt.Sprintf("%s (%s, doctor: %s): the hook ran: %v, its command ran: %v; want: %s", h.name, h.class, v, fired, ran, want))
			}
		}
		if len(problems) > 0 {
			t.Errorf("%s, broken:\n- %s\n\nhookx doctor: %s\n%s\n\n%s", a, strings.Join(problems, "\n- "), doc, liveConfig(a, broken, false), o.describe())
		}
		t.Logf("%s broken: %d hooks, doctor's %d errors confirmed (agent run %s)", a, len(broken), len(errs), o.res.Duration.Round(time.Millisecond))
	})

	// Each hook that blocks every call, alone: its own command is refused,
	// though its script never ran.
	for _, h := range blocking {
		t.Run("blocks-all/"+h.class, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t, p, "")
			one := b
			one.hooks = []liveHook{h}
			config := liveConfig(a, one.hooks, false)
			if err := writeLive(sb, one, config, false); err != nil {
				t.Fatal(err)
			}
			errs, doc := doctorErrors(t, sb, a)
			var problems []string
			if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, h.want) && strings.Contains(e, "blocked") }) {
				problems = append(problems, fmt.Sprintf("doctor reported no error containing %q that says every call is blocked", h.want))
			}
			o := runLive(t, sb, a, []string{h.name})
			problems = append(problems, runProblems(t, o, false)...)
			if fired, ran := o.fired(h.name), o.exists("ran-"+h.name); fired || ran {
				problems = append(problems, fmt.Sprintf("the hook's script ran: %v, its command ran: %v; doctor says the agent blocks every call and the script never runs", fired, ran))
			}
			if len(problems) > 0 {
				t.Errorf("%s, %s:\n- %s\n\nhookx doctor: %s\n%s\n\n%s", a, h.class, strings.Join(problems, "\n- "), doc, config, o.describe())
			}
			t.Logf("%s %s: every call blocked, the script never ran (agent run %s)", a, h.class, o.res.Duration.Round(time.Millisecond))
		})
	}

	t.Run("fixed", func(t *testing.T) {
		t.Parallel()
		sb := newSandbox(t, p, "")
		if err := writeLive(sb, b, fixedConfig, true); err != nil {
			t.Fatal(err)
		}
		errs, doc := doctorErrors(t, sb, a)
		var problems []string
		for _, e := range errs {
			problems = append(problems, "doctor still reports an error: "+e)
		}
		o := runLive(t, sb, a, names)
		problems = append(problems, runProblems(t, o, true)...)
		for _, h := range b.hooks {
			if fired, ran := o.fired(h.name), o.exists("ran-"+h.name); !fired || ran {
				problems = append(problems, fmt.Sprintf("%s (%s) fixed: the guard ran: %v, its command ran: %v; want it to run and block", h.name, h.class, fired, ran))
			}
		}
		if len(problems) > 0 {
			t.Errorf("%s, fixed:\n- %s\n\nhookx doctor: %s\n%s\n\n%s", a, strings.Join(problems, "\n- "), doc, fixedConfig, o.describe())
		}
		t.Logf("%s fixed: %d guards block (agent run %s)", a, len(b.hooks), o.res.Duration.Round(time.Millisecond))
	})

	for _, f := range b.files {
		t.Run(f.class, func(t *testing.T) {
			t.Parallel()
			sb := newSandbox(t, p, "")
			config := f.mutate(fixedConfig)
			if err := writeLive(sb, b, config, true); err != nil {
				t.Fatal(err)
			}
			errs, doc := doctorErrors(t, sb, a)
			var problems []string
			if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, f.want) }) {
				problems = append(problems, fmt.Sprintf("doctor reported no error containing %q", f.want))
			}
			// Two hooks are enough: the agent runs none of the file's.
			two := names[:min(2, len(names))]
			o := runLive(t, sb, a, two)
			stopped := b.stops && o.res.ExitCode == 52 && len(o.srv.Main()) == 0
			if stopped {
				o.anyExit = true
			}
			problems = append(problems, runProblems(t, o, false)...)
			for _, n := range two {
				if fired, ran := o.fired(n), o.exists("ran-"+n); fired || !ran && !stopped {
					problems = append(problems, fmt.Sprintf("%s: the hook ran: %v, its command ran: %v; doctor says the agent loads no hook of the file", n, fired, ran))
				}
			}
			if len(problems) > 0 {
				t.Errorf("%s, %s:\n- %s\n\nhookx doctor: %s\n%s\n\n%s", a, f.class, strings.Join(problems, "\n- "), doc, config, o.describe())
			}
			what := "no hook of the file ran"
			if stopped {
				what = "the agent refused to start (exit 52): nothing ran"
			}
			t.Logf("%s %s: %s (agent run %s); the fix gives the fixed batch file back", a, f.class, what, o.res.Duration.Round(time.Millisecond))
		})
	}
}

// liveAgent is what the batches need to know of an agent beyond hosts.
type liveAgent struct {
	a driver.Agent
	// otherEvent is another agent's pre-tool event; typoEvent a misspelling
	// of the agent's own.
	otherEvent, typoEvent string
	// otherTool is another agent's shell tool name, caseTool the agent's
	// own in the wrong case, badRegex a matcher that does not compile ("":
	// the agent has no matchers).
	otherTool, caseTool, badRegex string
	// blocks are the exit codes the agent reads as a block on its pre-tool
	// event (a hook failing with one blocks every call).
	blocks func(code int) bool
	// failsOpen are the agent's own fails-open hooks (the wrong idiom).
	failsOpen []liveHook
	// files are the agent's file classes.
	files []liveFile
	// typeDropsFile: a handler whose type the agent cannot read (none, or
	// "shell") makes it reject the whole file (a file class, not a hook's).
	typeDropsFile bool
	// noTypeRuns: the agent runs a handler without a type (no class).
	noTypeRuns bool
	// stops: see liveBatch.
	stops bool
	// noBlocksAll leaves out the hooks the agent reads as a block of every
	// call (Qwen: its runs are slow, and the class is proven on the others).
	noBlocksAll bool
}

// liveAgents are the six agents with a live binary; TerminaI has none (its
// classes are marked so in doctorErrorClasses).
func liveAgents() []liveAgent {
	ge2 := func(code int) bool { return code >= 2 }
	only2 := func(code int) bool { return code == 2 }
	trailingComma := liveFile{class: "trailing-comma", want: "trailing comma", mutate: func(c string) string {
		i := strings.LastIndex(c, "]")
		return c[:i+1] + "," + c[i+1:]
	}}
	comment := liveFile{class: "comment-in-strict-json", want: "comment in a strict JSON file", mutate: func(c string) string {
		return strings.Replace(c, "{", "{\n  // guards\n", 1)
	}}
	emptyFile := liveFile{class: "file-empty", want: "the file is empty", mutate: func(string) string { return "" }}
	noType := liveFile{class: "handler-no-type", want: `the handler has no "type"`, mutate: func(c string) string {
		return strings.Replace(c, `"type":"command",`, "", 1)
	}}
	shellType := liveFile{class: "handler-unknown-type", want: `no "shell" handler type`, mutate: func(c string) string {
		return strings.Replace(c, `"type":"command"`, `"type":"shell"`, 1)
	}}
	switchedOff := func(key, value string) liveFile {
		return liveFile{class: "hooks-switched-off", want: "runs none of its settings hooks", mutate: func(c string) string {
			return strings.Replace(c, "{", "{"+key+": "+value+", ", 1)
		}}
	}
	notParsing := liveFile{class: "file-does-not-parse", want: "the file does not parse", mutate: func(c string) string {
		return strings.TrimSuffix(strings.TrimSpace(c), "}") + "\n"
	}}
	return []liveAgent{
		{a: driver.Claude, otherEvent: "BeforeTool", typoEvent: "PreToolUs", otherTool: "run_shell_command", caseTool: "BASH", badRegex: "(Bash",
			blocks: only2,
			failsOpen: []liveHook{
				{class: "idiom-decision-deny", want: `answers {"decision":"deny"}`, deny: emit(`{"decision":"deny","reason":"HXLIVE: forbidden"}`)},
			},
			files: []liveFile{trailingComma, comment, emptyFile, notParsing, noType, shellType, switchedOff(`"disableAllHooks"`, "true"),
				{class: "top-level-not-object", want: "the top level is not an object", mutate: func(c string) string { return "[" + c + "]" }}},
			typeDropsFile: true},
		{a: driver.Gemini, otherEvent: "PreToolUse", typoEvent: "BeforeTol", otherTool: "Bash", caseTool: "Run_shell_command", badRegex: "(run_shell_command",
			blocks: ge2, stops: true,
			failsOpen: []liveHook{
				{class: "idiom-permissionDecision", want: `answers permissionDecision "deny"`, deny: emit(`{"hookSpecificOutput":{"hookEventName":"BeforeTool","permissionDecision":"deny","permissionDecisionReason":"HXLIVE: forbidden"}}`)},
			},
			files: []liveFile{trailingComma, notParsing}},
		// No bad regex: doctor only notes one Codex's regex crate rejects
		// (hookx cannot evaluate it), though Codex drops the group.
		{a: driver.Codex, otherEvent: "BeforeTool", typoEvent: "PreToolUs", otherTool: "run_shell_command", caseTool: "BASH",
			blocks:        only2,
			typeDropsFile: true,
			files: []liveFile{trailingComma, comment, noType, shellType,
				{class: "root-key", want: `root key "version"`, mutate: func(c string) string { return strings.Replace(c, "{", `{"version": 1, `, 1) }},
				{class: "timeout-not-whole", want: "is not a whole number of seconds", mutate: func(c string) string {
					return strings.Replace(c, `"timeout":30`, `"timeout":30.5`, 1)
				}}}},
		{a: driver.Copilot, otherEvent: "BeforeTool", typoEvent: "preToolUs",
			blocks: ge2, noTypeRuns: true,
			files: []liveFile{trailingComma, comment}},
		{a: driver.Qwen, otherEvent: "BeforeTool", typoEvent: "PreToolUs", otherTool: "Execute", caseTool: "Run_shell_command", badRegex: "(run_shell_command",
			blocks: only2, noBlocksAll: true,
			files: []liveFile{trailingComma}},
		{a: driver.Droid, otherEvent: "BeforeTool", typoEvent: "PreToolUs", otherTool: "Bash", caseTool: "EXECUTE", badRegex: "(Execute",
			blocks:        only2,
			typeDropsFile: true,
			files: []liveFile{trailingComma, noType, shellType,
				{class: "event-under-wrapper", want: `"hooks" is no event`, mutate: func(c string) string { return "{\"hooks\": " + strings.TrimSpace(c) + "}\n" }}}},
	}
}

// liveBatches are the batch projects of every live agent: "hooks" (the
// never-fires and fails-open classes, and the file classes), and one
// batch per hook the agent reads as a block of every call.
func liveBatches() []liveBatch {
	var out []liveBatch
	for _, la := range liveAgents() {
		a, hs := la.a, hosts[la.a]
		valid := validGuard(a)
		at := func(event string, text func(p livePaths) string) livePlace {
			return livePlace{event: event, text: text}
		}
		withMatcher := func(m string) livePlace {
			return at(hs.preTool, func(p livePaths) string { return p.group(m, p.handler(p.script)) })
		}
		command := func(cmd func(p livePaths) string) livePlace {
			return at(hs.preTool, func(p livePaths) string { return p.group(hs.shellMatcher, p.handler(cmd(p))) })
		}
		cmdKey := `"command"`
		if a == driver.Copilot {
			cmdKey = `"bash"`
		}
		hooks := []liveHook{
			{class: "control", name: liveControl, broken: valid, fixed: valid},
			{class: "event-other-agent", want: la.otherEvent + " is a", verdict: neverFires, broken: at(la.otherEvent, guardGroup), fixed: valid},
			{class: "event-unknown", want: fmt.Sprintf("unknown event %q", la.typoEvent), verdict: neverFires, broken: at(la.typoEvent, guardGroup), fixed: valid},
			{class: "handler-no-type", want: `the handler has no "type"`, verdict: neverFires,
				broken: at(hs.preTool, func(p livePaths) string {
					return p.group(hs.shellMatcher, `{`+cmdKey+`:`+jsonString(p.script)+`}`)
				}), fixed: valid},
			{class: "handler-unknown-type", want: `no "shell" handler type`, verdict: neverFires,
				broken: at(hs.preTool, func(p livePaths) string {
					return p.group(hs.shellMatcher, strings.Replace(p.handler(p.script), `"command"`, `"shell"`, 1))
				}), fixed: valid},
			{class: "command-missing", want: "does not exist", verdict: failsOpen,
				broken: command(func(p livePaths) string { return strings.TrimSuffix(p.script, ".sh") + "-old.sh" }), fixed: valid},
			{class: "command-not-executable", want: "is not executable", verdict: failsOpen, mode: 0o644, broken: valid, fixed: valid},
			{class: "command-is-directory", want: "is a directory", verdict: failsOpen,
				broken: command(func(p livePaths) string { return p.ref(hs.hookDir) }), fixed: valid},
			{class: "interpreter-missing", want: "is not installed", verdict: failsOpen, shebang: "#!/usr/bin/env hx-no-such-interpreter", broken: valid, fixed: valid},
			{class: "interpreter-script-missing", want: "does not exist", verdict: failsOpen,
				broken: command(func(p livePaths) string { return "sh " + strings.TrimSuffix(p.script, ".sh") + "-old.sh" }), fixed: valid},
			{class: "shell-syntax", want: "is not valid shell", verdict: failsOpen,
				broken: command(func(p livePaths) string { return p.script + " 'unterminated" }), fixed: valid},
			{class: "not-on-path", want: "is not on the PATH", verdict: failsOpen,
				broken: command(func(p livePaths) string { return "hx-no-such-tool " + p.script }), fixed: valid},
		}
		hooks = slices.DeleteFunc(hooks, func(h liveHook) bool {
			switch h.class {
			case "handler-no-type":
				return la.typeDropsFile || la.noTypeRuns
			case "handler-unknown-type":
				// Copilot reads no handler type: nothing to prove.
				return la.typeDropsFile || a == driver.Copilot
			}
			return false
		})
		if la.otherTool != "" {
			hooks = append(hooks,
				liveHook{class: "matcher-other-agent-tool", want: la.otherTool + " is a", verdict: neverFires, broken: withMatcher(la.otherTool), fixed: valid},
				liveHook{class: "matcher-no-such-tool", want: fmt.Sprintf("%q matches no", la.caseTool), verdict: neverFires, broken: withMatcher(la.caseTool), fixed: valid})
		}
		if la.badRegex != "" {
			hooks = append(hooks, liveHook{class: "matcher-bad-regex", want: "never fires the hook", verdict: neverFires, broken: withMatcher(la.badRegex), fixed: valid})
		}
		for _, h := range la.failsOpen {
			h.verdict, h.broken, h.fixed = failsOpen, valid, valid
			hooks = append(hooks, h)
		}
		// A hook the agent reads as a block of every call is proven broken in
		// a run of its own (it would block the others' commands), fixed with
		// the others.
		for i := range hooks {
			h := &hooks[i]
			if h.name == "" {
				h.name = h.class
			}
			if code := liveExit(h.class); code != 0 && la.blocks(code) {
				h.verdict = blocksAll
			}
		}
		if la.noBlocksAll {
			hooks = slices.DeleteFunc(hooks, func(h liveHook) bool { return h.verdict == blocksAll })
		}
		out = append(out, liveBatch{agent: a, name: "hooks", hooks: hooks, files: la.files, stops: la.stops})
	}
	return out
}

// liveExit is the exit status of the shell running a broken command
// class (0: the script runs).
func liveExit(class string) int {
	return map[string]int{
		"command-missing": 127, "command-not-executable": 126, "command-is-directory": 126,
		"interpreter-missing": 127, "interpreter-script-missing": shMissingExit(), "not-on-path": 127, "shell-syntax": 2,
	}[class]
}

// shMissingExit is how this machine's sh exits for a script that does not
// exist: 2 for dash, 127 for bash.
var shMissingExit = sync.OnceValue(func() int {
	err := exec.Command("sh", "/nonexistent/hookx-live.sh").Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return 127
})

// TestLiveBatchesAsDoctorSeesThem holds the batch projects against doctor
// itself, without agents (static checks, no probe): each broken hook gets
// its error, each file mutation its error, and the fixed project none.
func TestLiveBatchesAsDoctorSeesThem(t *testing.T) {
	env := func(k string) string {
		if k == "PATH" {
			return "/usr/local/bin:/usr/bin:/bin"
		}
		return ""
	}
	check := func(t *testing.T, b liveBatch, config string, fixed bool) []string {
		t.Helper()
		sb := &driver.Sandbox{Project: t.TempDir()}
		if err := writeLive(sb, b, config, fixed); err != nil {
			t.Fatal(err)
		}
		fs, err := doctor.Check(doctor.Options{Dir: sb.Project, Getenv: env})
		if err != nil {
			t.Fatal(err)
		}
		var errs []string
		for _, f := range fs {
			if f.Severity == doctor.Error {
				errs = append(errs, f.Problem)
			}
		}
		return errs
	}
	for _, b := range liveBatches() {
		t.Run(string(b.agent)+"/"+b.name, func(t *testing.T) {
			errs := check(t, b, liveConfig(b.agent, b.hooks, false), false)
			for _, h := range b.hooks {
				if h.want != "" && !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, h.want) }) {
					t.Errorf("%s: no error containing %q; errors:\n%s", h.class, h.want, strings.Join(errs, "\n"))
				}
			}
			fixed := liveConfig(b.agent, b.hooks, true)
			if errs := check(t, b, fixed, true); len(errs) > 0 {
				t.Errorf("fixed project: errors:\n%s\n%s", strings.Join(errs, "\n"), fixed)
			}
			for _, f := range b.files {
				if errs := check(t, b, f.mutate(fixed), true); !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, f.want) }) {
					t.Errorf("%s: no error containing %q; errors:\n%s", f.class, f.want, strings.Join(errs, "\n"))
				}
			}
		})
	}
}
