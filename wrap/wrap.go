// Package wrap is the process side of `hookx wrap`: it runs a hook written
// for one agent under another (the host). It reads the host's event, has it
// translated into the hook's dialect, runs the hook in its own process group
// with the environment that dialect gives its hooks, collects its output
// within bounds and a timeout, and answers the host with the translated
// result. The translation rules themselves live in package translate; wrap
// reaches them through the Translation interface.
//
// When the host speaks the hook's own dialect, wrap runs the hook untouched:
// stdin, stdout, stderr and the exit code pass straight through.
package wrap

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hookx-dev/hookx/mappings"
)

// Default bounds. Past them the hook (or the host's payload) is treated as
// failed: a truncated JSON object is never passed on.
const (
	DefaultMaxStdin  = 64 << 20
	DefaultMaxOutput = 16 << 20
	DefaultKillGrace = 2 * time.Second
	// DefaultPipeGrace is how long pass-through mode waits for a hook's
	// output to close after it exited; translation mode waits as the hook's
	// own agent does (mappings.HeldOutput).
	DefaultPipeGrace = 200 * time.Millisecond
)

// Options configure one wrapped run of a hook.
type Options struct {
	Table       *mappings.Table
	Translation Translation

	From    string   // the hook's dialect
	Host    string   // the host's dialect; "" or "auto" to detect it
	Command []string // one shell string, or a program and its arguments
	// Event is the event the hook was registered on in its own agent, ""
	// when unknown. A host event that translates to another event of the
	// hook's dialect (Gemini's AfterTool carries both Claude's PostToolUse
	// and PostToolUseFailure) is not run: its own agent would not run it.
	Event string
	// Env is set in the hook's environment last, over hookx's own
	// variables (NAME=VALUE): what the hook's agent would set for it that
	// hookx cannot know, such as a plugin's root.
	Env []string

	Timeout    time.Duration // hookx's own limit on the hook; 0: none
	FailClosed bool          // every failure of the hook is a block
	Ask        string        // "deny" or "ask": ask/defer on a Gemini host
	TracePath  string        // append one JSON line per run; "" for none
	Verbose    bool          // print every finding on stderr, not only what was lost
	StateDir   string        // where the stop-loop counters live; "" disables the cap
	// TranscriptDir caches the hook's own-format transcripts; "" passes
	// the host's transcript_path unchanged.
	TranscriptDir string
	// Supervisor starts hookx's supervisor of a hook that asked not to be
	// waited for (Claude's {"async":true}); nil: such a hook is stopped once
	// the host is answered.
	Supervisor *Supervisor

	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Environ        []string         // the host's environment, as os.Environ
	Signals        <-chan os.Signal // forwarded to the hook's process group
	// Listen, when set, starts the delivery of Signals; it must be safe to
	// call concurrently, and do its work once (sync.OnceFunc). Run starts
	// it in the background before it reads stdin, and waits for it before
	// it starts the hook; not before it replaces itself with the hook
	// (Exec). The first signal.Notify of a process waits for a thread of
	// its own to start (0.1 to 0.2 ms): a hook call that needs no signals
	// should not pay it, and one that does pays it alongside its own work.
	Listen func()

	// Exec replaces hookx with the hook (syscall.Exec), for a pass-through
	// run that needs nothing more from hookx: the host named up front
	// speaks the hook's dialect, and no --fail-closed, --timeout or --trace
	// asks hookx to stay. The hook then is exactly what its own agent would
	// have started, at no cost. It returns only on failure; the hook then
	// runs as a child. Nil: never.
	Exec func(argv0 string, argv, env []string) error

	// Zero means the default.
	MaxStdin, MaxOutput  int64
	KillGrace, PipeGrace time.Duration
}

// Supervisor is how to start `hookx wrap-supervise`: the program and its
// arguments, argv[0] included. --pgid and --bound are appended.
type Supervisor struct {
	Path string
	Args []string
}

// Run runs the hook once and answers the host. It returns hookx's exit
// status: 0 whenever it answered the host in translation mode (the decision
// travels in the JSON; 2 on a host that reads a block only from exit 2), the hook's own status in pass-through mode, and
// 128+n when hookx was stopped by signal n before it could answer.
func Run(opts Options) (code int) {
	r := &runner{Options: opts, start: time.Now()}
	r.defaults()
	defer func() {
		// A bug in hookx must not become the host's verdict: a Go panic
		// exits 2 with text, which both agents read as a block (and
		// Gemini's AfterAgent as "go on", without end). Answer instead.
		if p := recover(); p != nil {
			if r.Table == nil {
				r.Table = mappings.Lazy()
			}
			if r.host == nil {
				r.host, _ = r.Table.Dialect(r.otherDialect())
			}
			code = r.fail(fmt.Errorf("internal error: %v", p))
			r.trace.Exit = code
			r.writeTrace()
		}
	}()
	code = r.run()
	r.trace.Exit = code
	r.writeTrace()
	return code
}

type runner struct {
	Options
	start       time.Time
	hook, host  *mappings.Dialect
	trace       traceRecord
	hostEvent   string
	hostPayload []byte
	stopPath    string    // the stop-loop state of this hook and session; "" when none
	stop        stopState // as read before the hook ran
	stopKey     string    // this stop (stopKey)
	stopRepeat  bool      // the hook ran at a stop with this very payload before
	sessionPath string    // the stop state of the session, shared by its hooks; "" when none
}

func (r *runner) defaults() {
	if r.MaxStdin == 0 {
		r.MaxStdin = DefaultMaxStdin
	}
	if r.MaxOutput == 0 {
		r.MaxOutput = DefaultMaxOutput
	}
	if r.KillGrace == 0 {
		r.KillGrace = DefaultKillGrace
	}
	if r.Ask == "" {
		r.Ask = "deny"
	}
	if r.Stdin == nil {
		r.Stdin = strings.NewReader("")
	}
	r.trace = traceRecord{From: r.From, Command: r.Command}
}

func (r *runner) run() int {
	// A host named up front that speaks the hook's dialect needs nothing
	// from stdin, nor from the table: stream it, or become the hook.
	if r.Host == r.From && len(r.Command) > 0 {
		r.execInPlace()
	}
	if r.Listen != nil {
		go r.Listen()
	}
	if r.Table == nil {
		r.Table = mappings.Lazy()
	}
	hook, err := r.Table.Dialect(r.From)
	if err != nil {
		// The command checks --from before calling Run; this is a bug.
		r.reportf("%v", err)
		return 3
	}
	r.hook = hook
	if len(r.Command) == 0 {
		r.reportf("no hook command")
		return 3
	}

	// A host named up front that speaks the hook's dialect needs nothing
	// from stdin: stream it.
	if r.Host == r.From {
		return r.passThrough(r.Stdin)
	}

	payload, sig, readErr := r.readStdin()
	if sig != nil {
		r.reportf("stopped by %v while reading the host's event", sig)
		return 128 + signum(sig)
	}
	r.hostPayload = payload
	if r.traced() {
		r.trace.Received = jsonOrString(payload)
	}
	r.hostEvent = eventName(payload)
	r.trace.HostEvent = r.hostEvent

	hostName := r.Host
	var detectErr error
	if hostName == "" || hostName == "auto" {
		hostName, detectErr = r.Translation.DetectHost(payload, r.getenv)
		if detectErr != nil {
			// Answer in the dialect a wrapped hook most likely runs under:
			// one that is not its own.
			hostName = r.otherDialect()
		}
	}
	r.trace.Host = hostName
	if hostName == r.From && detectErr == nil && readErr == nil {
		return r.passThrough(bytes.NewReader(payload))
	}
	host, err := r.Table.Dialect(hostName)
	if err != nil {
		r.reportf("%v", err)
		return 3
	}
	r.host = host
	if r.hostEvent == "" && detectErr == nil {
		// The payload names no event (Copilot CLI's camelCase form): wrap
		// --host-event, or its fields, name it.
		ev, err := r.Translation.HostEvent(host, payload)
		if err != nil && readErr == nil {
			return r.fail(err)
		}
		r.hostEvent = ev
		r.trace.HostEvent = r.hostEvent
	}
	r.trace.Mode = "translate"

	switch {
	case readErr != nil && detectErr != nil:
		return r.failAnyHost(fmt.Errorf("reading the host's event: %w", readErr), nil)
	case readErr != nil && r.hostEvent == "":
		return r.failAnyHost(fmt.Errorf("reading the host's event: %w", readErr), host)
	case readErr != nil:
		return r.fail(fmt.Errorf("reading the host's event: %w", readErr))
	case detectErr != nil:
		return r.failAnyHost(fmt.Errorf("cannot tell which agent is the host (use --host): %w", detectErr), nil)
	}

	tr, err := r.Translation.New(hostName, r.From)
	if err != nil {
		return r.fail(err)
	}
	t0 := time.Now()
	ev, err := tr.Event(payload)
	r.trace.Timings.TranslateEventMS = ms(time.Since(t0))
	if err != nil {
		return r.fail(fmt.Errorf("translating the %s event: %w", host.Agent, err))
	}
	if patched := r.stopActive(hook.Event(ev.Name), host.Event(r.hostEvent), payload); patched != nil {
		if ev, err = tr.Event(patched); err != nil {
			return r.fail(fmt.Errorf("translating the %s event: %w", host.Agent, err))
		}
	}
	r.report(ev.Findings)
	r.trace.HookEvent = ev.Name
	if ev.Skip {
		r.reportf("%s event %s not run: %s", hook.Agent, r.hostEvent, ev.SkipReason)
		r.trace.Skipped = ev.SkipReason
		return r.answer(nothing(host))
	}
	if r.Event != "" && ev.Name != r.Event {
		why := fmt.Sprintf("registered on %s; %s would send this %s as %s", r.Event, hook.Agent, r.hostEvent, ev.Name)
		r.reportf("%s hook not run: %s", hook.Agent, why)
		r.trace.Skipped = why
		return r.answer(nothing(host))
	}
	ev.Payload = r.withTranscript(payload, ev.Payload)
	if r.traced() {
		r.trace.Passed = jsonOrString(ev.Payload)
	}

	// The hook's own event, not the host's: its cwd and session_id are
	// where the hook's agent puts them (Copilot's payload says sessionId).
	env := r.withExtraEnv(withoutHostPayloadVars(hookEnv(r.Environ, host, hook, ev.Payload), host, hook, payload), ev.Name)
	argv, shell := r.prepare(env)
	stdout := &sink{limit: r.MaxOutput}
	stderr := &sink{limit: r.MaxOutput}
	spec := &hookSpec{
		argv: argv, shell: shell,
		env:    env,
		stdin:  bytes.NewReader(ev.Payload),
		stdout: stdout, stderr: stderr,
		timeout: r.Timeout, killGrace: r.KillGrace,
		signals: r.Signals,
	}
	r.heldWait(spec)
	if ack := hook.AsyncAck; ack != nil {
		spec.asyncAck = ack.Bound
		spec.detach = func(pgid int, bound time.Duration, pipes []*os.File) error {
			if r.Supervisor == nil {
				return errors.New("no supervisor")
			}
			return startSupervisor(r.Supervisor, pgid, bound, pipes)
		}
	}
	r.listening()
	res := spec.run()
	r.trace.Timings.HookMS = ms(res.elapsed)
	if res.signal != nil {
		r.reportf("stopped by %v; the hook's process group was stopped too", res.signal)
		return 128 + signum(res.signal)
	}
	if res.async {
		// What the hook's own agent does with a hook it does not wait for:
		// no decision now; what the hook says later reaches no one here.
		r.trace.Async = true
		if res.detachErr != nil {
			r.reportf("%s hook asked not to be waited for; answered at once and stopped it: cannot run it in the background (%v)", hook.Agent, res.detachErr)
		} else {
			r.reportf("%s hook asked not to be waited for; answered at once, it runs in the background for at most %v; its later output is dropped (%s would show it on the next turn)", hook.Agent, res.asyncBound, hook.Agent)
		}
		return r.answer(nothing(host))
	}
	raw, err := r.rawOutput(spec, res, stdout, stderr)
	if err != nil {
		return r.fail(err)
	}
	if r.traced() {
		r.trace.Hook = traceOutput(raw)
	}

	t0 = time.Now()
	out, findings := tr.Result(ResultContext{
		HookEvent:   ev.Name,
		HostEvent:   r.hostEvent,
		HostPayload: payload,
		HookTool:    ev.Tool,
		FailClosed:  r.FailClosed,
		Ask:         r.Ask,
	}, raw)
	r.trace.Timings.TranslateResultMS = ms(time.Since(t0))
	r.report(findings)
	out = r.stopCap(hook.Event(ev.Name), host.Event(r.hostEvent), payload, out)
	return r.answer(out)
}

// heldWait sets how long the hook's output is waited for after it exited:
// as the hook's own agent waits (mappings.HeldOutput). Waiting for end of
// file is bounded by --timeout, or else by the dialect's default timeout, so
// that hookx never waits for ever where its host would not.
func (r *runner) heldWait(spec *hookSpec) {
	h := r.hook.HeldOutput
	spec.pipeGrace = cmp.Or(r.PipeGrace, time.Duration(h.QuietMS)*time.Millisecond, DefaultPipeGrace)
	spec.pipeCap = max(spec.pipeGrace, time.Duration(h.CapMS)*time.Millisecond)
	if h.Wait == "eof" {
		spec.waitEOF = true
		spec.eofLimit = r.Timeout
		if spec.eofLimit == 0 {
			spec.eofLimit = r.hook.Timeout.Duration(r.hook.Timeout.Default)
		}
	}
}

// rawOutput turns what happened to the hook's process into its Output. An
// error means hookx itself failed: the shell could not be started.
func (r *runner) rawOutput(spec *hookSpec, res runResult, stdout, stderr *sink) (Output, error) {
	if res.startErr != nil {
		if spec.shell {
			return Output{}, fmt.Errorf("cannot start %s: %w", spec.argv[0], res.startErr)
		}
		// Run directly, the hook itself is missing or not executable: that
		// is the hook's outcome, reported as its shell would.
		// Not Failed: the exit status and text then follow the hook
		// dialect's rules exactly as they would under its shell.
		code, msg := startFailure(spec.argv[0], res.startErr)
		return Output{Stderr: []byte(msg + "\n"), ExitCode: code, FailReason: msg}, nil
	}
	raw := Output{Stdout: stdout.bytes(), Stderr: stderr.bytes(), ExitCode: res.code, TimedOut: res.timedOut}
	var why []string
	switch {
	case res.timedOut && res.held && spec.waitEOF:
		why = append(why, fmt.Sprintf("timed out after %v: a background process it started held its output open, and %s waits for it", spec.eofLimit, r.hook.Agent))
	case res.timedOut:
		why = append(why, fmt.Sprintf("timed out after %v", r.Timeout))
	}
	if res.crashed != "" {
		why = append(why, "killed by signal "+res.crashed)
	}
	if stdout.over() {
		why = append(why, fmt.Sprintf("stdout over the %d-byte limit (%d bytes)", r.MaxOutput, stdout.n))
	}
	if stderr.over() {
		why = append(why, fmt.Sprintf("stderr over the %d-byte limit (%d bytes)", r.MaxOutput, stderr.n))
	}
	if res.held {
		why = append(why, "a background process kept its output open and was killed")
		raw.Held = !res.timedOut
	}
	if len(why) > 0 {
		raw.FailReason = "hook " + strings.Join(why, "; ")
		raw.Failed = stdout.over() || stderr.over()
		raw.Overflow = raw.Failed
		raw.Signaled = res.crashed != ""
	}
	return raw, nil
}

// readStdin reads the host's event, giving up when hookx is told to stop:
// a host that kills hookx on its timeout must not wait for stdin to close.
func (r *runner) readStdin() ([]byte, os.Signal, error) {
	type read struct {
		b   []byte
		err error
	}
	done := make(chan read, 1)
	go func() {
		b, err := readBounded(r.Stdin, r.MaxStdin)
		done <- read{b, err}
	}()
	select {
	case rd := <-done:
		return rd.b, nil, rd.err
	case sig := <-r.Signals:
		return nil, sig, nil
	}
}

// execInPlace replaces hookx with the hook when nothing needs hookx to stay
// (see Options.Exec). It returns only when it did not.
func (r *runner) execInPlace() {
	if r.Exec == nil || r.FailClosed || r.Timeout > 0 || r.TracePath != "" || len(r.Env) > 0 {
		return
	}
	// Only a command the agent's own preparation leaves as it is: the
	// preparation needs the table (the agent's hook variables).
	if !preparedAsIs(r.From, r.Command) {
		return
	}
	argv, _, _ := prepareCommand(r.From, r.Command, r.Environ, nil)
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return // passThrough reports it exactly as it would have
	}
	_ = r.Exec(path, argv, r.Environ)
}

// listening returns once Signals are delivered, as they must be before a
// hook starts.
func (r *runner) listening() {
	if r.Listen != nil {
		r.Listen()
	}
}

// passThrough runs the hook untouched: the host speaks its dialect.
func (r *runner) passThrough(stdin io.Reader) int {
	r.trace.Mode = "passthrough"
	r.trace.Host = r.From
	env := r.withExtraEnv(r.Environ, "")
	argv, shell := r.prepare(env)
	stdout := &sink{w: r.Stdout}
	if r.FailClosed {
		// A failure must be able to take back what the hook printed: on
		// Gemini a {} on stdout would beat the blocking exit status.
		stdout = &sink{limit: r.MaxOutput}
	}
	stderr := &sink{w: r.Stderr}
	spec := &hookSpec{
		argv: argv, shell: shell,
		env:    env,
		stdin:  stdin,
		stdout: stdout, stderr: stderr,
		timeout: r.Timeout, killGrace: r.KillGrace,
		pipeGrace: cmp.Or(r.PipeGrace, DefaultPipeGrace), pipeCap: cmp.Or(r.PipeGrace, DefaultPipeGrace),
		signals: r.Signals,
	}
	r.listening()
	res := spec.run()
	r.trace.Timings.HookMS = ms(res.elapsed)
	switch {
	case res.signal != nil:
		return 128 + signum(res.signal)
	case res.startErr != nil && shell:
		// hookx cannot start the shell: its own failure. Stdin is still
		// unread, so the event can be known.
		payload, _ := readBounded(stdin, r.MaxStdin)
		r.hostEvent = stringField(payload, "hook_event_name")
		r.host = r.hook
		return r.fail(fmt.Errorf("cannot start %s: %w", argv[0], res.startErr))
	case res.startErr != nil:
		return r.failedHook(startFailure(argv[0], res.startErr))
	case res.timedOut:
		// Both agents fail open on a timeout: exit 1 is a non-blocking
		// error in both dialects.
		return r.failedHook(1, fmt.Sprintf("hookx: hook timed out after %v", r.Timeout))
	case res.crashed != "":
		return r.failedHook(res.code, "hookx: hook killed by signal "+res.crashed)
	case res.code == 126 || res.code == 127:
		return r.failedHook(res.code, "")
	}
	if r.FailClosed && stdout.over() {
		return r.failedHook(2, "hookx: hook stdout over the output limit")
	}
	r.trace.Hook = &traceHook{ExitCode: res.code}
	if r.FailClosed {
		r.Stdout.Write(stdout.buf)
	}
	return res.code
}

// failedHook is the pass-through exit status of a hook that failed: code, or
// with --fail-closed, 2 (a block in both dialects: stderr is the reason).
func (r *runner) failedHook(code int, msg string) int {
	r.trace.Hook = &traceHook{ExitCode: code, Failed: true, FailReason: msg}
	if !r.FailClosed {
		if msg != "" {
			fmt.Fprintln(r.Stderr, msg)
		}
		return code
	}
	if msg == "" {
		msg = fmt.Sprintf("hookx: hook failed with exit status %d", code)
	}
	fmt.Fprintf(r.Stderr, "%s (--fail-closed: blocking)\n", msg)
	return 2
}

// fail answers the host when hookx itself failed: a block on the events
// that guard an action, a warning elsewhere.
func (r *runner) fail(err error) int {
	r.trace.Error = err.Error()
	return r.answer(r.Translation.Failure(r.host, r.hostEvent, err))
}

// failAnyHost answers the host when hookx failed and cannot tell which
// agent the host is, or which of its events this is (the event is over the
// bound or does not parse, or two agents claim it). Every agent that may
// have sent it (it has the event, or, where the event is unknown, it sends
// payloads that name none; and its detect.env variables do not rule it out)
// must read the answer as a block where its event blocks on failure (a
// guard, or an event whose block hides something). Each such candidate's
// own failure answer is tried in the table's order, then all of them merged
// into one object; the first that every candidate reads as a block, by its
// own protocol's reading, is the answer. When none is, the one read as a
// block by the most is, and those that would not read it so are named on
// stderr. host, when set, is the only candidate agent.
func (r *runner) failAnyHost(err error, host *mappings.Dialect) int {
	r.trace.Error = err.Error()
	type candidate struct {
		host  *mappings.Dialect
		event string
	}
	var all []candidate
	for _, c := range r.Table.Clues() {
		ruledOut := len(c.Env) > 0 && !slices.ContainsFunc(c.Env, func(v string) bool { return r.getenv(v) != "" })
		if (host != nil && c.Name != host.Name) || (host == nil && ruledOut) {
			continue
		}
		d, derr := r.Table.Dialect(c.Name)
		if derr != nil {
			continue
		}
		switch {
		case r.hostEvent != "" && slices.Contains(c.Events, r.hostEvent):
			all = append(all, candidate{d, r.hostEvent})
		case r.hostEvent == "" && (c.OwnPayload || host != nil):
			for _, e := range d.Events {
				all = append(all, candidate{d, e.Name})
			}
		}
	}
	var blockers []candidate
	for _, c := range all {
		if r.Translation.Blocks(c.host, c.event, r.Translation.Failure(c.host, c.event, err)) {
			blockers = append(blockers, c)
		}
	}
	if len(blockers) == 0 {
		// No candidate blocks on failure: a warning, in the first
		// candidate's words.
		if len(all) > 0 {
			r.host = all[0].host
		}
		return r.answer(r.Translation.Failure(r.host, r.hostEvent, err))
	}
	var answers []Output
	for _, c := range blockers {
		answers = append(answers, r.Translation.Failure(c.host, c.event, err))
	}
	if merged, ok := mergeAnswers(answers); ok {
		answers = append(answers, merged)
	}
	var best Output
	var missed []string
	for i, out := range answers {
		var not []string
		for _, c := range blockers {
			if !r.Translation.Blocks(c.host, c.event, out) && !slices.Contains(not, c.host.Agent+" "+c.event) {
				not = append(not, c.host.Agent+" "+c.event)
			}
		}
		if i == 0 || len(not) < len(missed) {
			best, missed = out, not
			if i < len(blockers) {
				r.host = blockers[i].host
			}
		}
		if len(not) == 0 {
			break
		}
	}
	if len(missed) > 0 {
		r.reportf("cannot tell which agent or event this is, and no one answer blocks on all it may be: %s may not read this block (use --host)", strings.Join(missed, ", "))
	}
	r.trace.Host = r.host.Name
	return r.answer(best)
}

// mergeAnswers is one answer with every key of each answer's JSON object,
// the highest exit status and the first stderr; not ok where two answers
// give one key different values, or one is not an object.
func mergeAnswers(answers []Output) (Output, bool) {
	merged := map[string]json.RawMessage{}
	var out Output
	for _, a := range answers {
		out.ExitCode = max(out.ExitCode, a.ExitCode)
		if len(out.Stderr) == 0 {
			out.Stderr = a.Stderr
		}
		if len(bytes.TrimSpace(a.Stdout)) == 0 {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(a.Stdout, &m) != nil {
			return Output{}, false
		}
		for k, v := range m {
			if old, ok := merged[k]; ok && !bytes.Equal(old, v) {
				return Output{}, false
			}
			merged[k] = v
		}
	}
	if len(merged) > 0 {
		b, err := json.Marshal(merged)
		if err != nil {
			return Output{}, false
		}
		out.Stdout = b
	}
	return out, true
}

// answer writes the host's output. wrap exits 0 once it has answered: the
// decision is in the output.
func (r *runner) answer(out Output) int {
	if len(out.Stdout) > 0 && out.Stdout[len(out.Stdout)-1] != '\n' {
		// One JSON object per line, as a person would print it; both
		// agents trim it.
		out.Stdout = append(out.Stdout[:len(out.Stdout):len(out.Stdout)], '\n')
	}
	if r.traced() {
		r.trace.Returned = traceOutput(out)
	}
	r.Stdout.Write(out.Stdout)
	r.Stderr.Write(out.Stderr)
	// 0, or 2 where the host reads a block only from exit 2 (the table's
	// decisionIgnored): the translation chose it.
	return out.ExitCode
}

// nothing is the host's answer when there is nothing to say: the table's
// emptyAnswer of the host (Gemini CLI would read stderr as a message when
// stdout is empty).
func nothing(host *mappings.Dialect) Output {
	if host.EmptyAnswer == "" {
		return Output{}
	}
	return Output{Stdout: []byte(host.EmptyAnswer + "\n")}
}

// report records findings in the trace and prints, on stderr, those the
// user must know when they happen (Notice), or all of them with Verbose.
func (r *runner) report(findings []Finding) {
	for _, f := range findings {
		if f.Notice || r.Verbose {
			r.reportf("%s", f.Text)
		}
		r.trace.Findings = append(r.trace.Findings, f.Text)
	}
}

func (r *runner) reportf(format string, args ...any) {
	fmt.Fprintf(r.Stderr, "hookx: "+format+"\n", args...)
}

func (r *runner) getenv(name string) string { return lookupEnv(r.Environ, name) }

func (r *runner) otherDialect() string {
	if d := r.Table.LikelyHost(r.hostEvent, r.From); d != nil {
		return d.Name
	}
	return r.From
}

// hookEnv is the host's environment plus what the hook's dialect gives its
// hooks: its project dir, cwd and session id variables and its fixed ones.
// A variable the host set is never replaced.
func hookEnv(environ []string, host, hook *mappings.Dialect, payload []byte) []string {
	// A variable hookx adds counts as unset when the host left it empty: it
	// is dropped and may be set. Every other host variable stays as it is.
	adds := map[string]bool{hook.Env.ProjectDir: true, hook.Env.Cwd: true, hook.Env.SessionID: true}
	for _, k := range hook.Env.ProjectDirs {
		adds[k] = true
	}
	for k := range hook.Env.Set {
		adds[k] = true
	}
	// The host's own hook variables are not the hook's agent's: drop them,
	// unless that agent sets the same name (Gemini exports
	// CLAUDE_PROJECT_DIR too).
	own, hostOwn := hookVars(hook), hookVars(host)
	env := make([]string, 0, len(environ)+8)
	have := map[string]bool{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && v == "" && adds[k] {
			continue
		}
		if ok && slices.Contains(hostOwn, k) && !slices.Contains(own, k) {
			continue
		}
		if ok {
			have[k] = true
		}
		env = append(env, kv)
	}
	add := func(name, value string) {
		if name == "" || value == "" || have[name] {
			return
		}
		have[name] = true
		env = append(env, name+"="+value)
	}
	project := ""
	if host.Env.ProjectDir != "" {
		project = lookupEnv(environ, host.Env.ProjectDir)
	}
	if project == "" {
		project = stringField(payload, "cwd")
	}
	if project == "" {
		project, _ = os.Getwd()
	}
	add(hook.Env.ProjectDir, project)
	for _, k := range hook.Env.ProjectDirs {
		add(k, project)
	}
	add(hook.Env.Cwd, project)
	add(hook.Env.SessionID, stringField(payload, "session_id"))
	keys := make([]string, 0, len(hook.Env.Set))
	for k := range hook.Env.Set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		add(k, hook.Env.Set[k])
	}
	if hook.Env.PayloadVars {
		env = withPayloadVars(env, payload)
	}
	return withFromPayload(env, hook, payload)
}

// withFromPayload sets, over env, the variables the hook's agent sets from
// its payload (env.fromPayload: Crush's CRUSH_TOOL_INPUT_COMMAND), each
// only where the payload has the field: a string as it is, anything else
// as its JSON text (gjson's String, hooks/input.go:66-73).
func withFromPayload(env []string, hook *mappings.Dialect, payload []byte) []string {
	if len(hook.Env.FromPayload) == 0 {
		return env
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(payload, &p) != nil {
		return env
	}
	for _, name := range slices.Sorted(maps.Keys(hook.Env.FromPayload)) {
		raw, ok := json.RawMessage(nil), false
		obj := p
		for part := range strings.SplitSeq(hook.Env.FromPayload[name], ".") {
			if obj == nil {
				ok = false
				break
			}
			raw, ok = obj[part]
			obj = nil
			_ = json.Unmarshal(raw, &obj)
		}
		env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
		if !ok {
			continue
		}
		v := string(raw)
		var s string
		if json.Unmarshal(raw, &s) == nil {
			v = s
		} else if v == "null" {
			v = ""
		}
		// A NUL cannot be in an environment (exec fails, and the guard
		// with it): dropped, so that all the rest of the text, what
		// follows a NUL too, is there for the hook to judge.
		env = append(env, name+"="+strings.ReplaceAll(v, "\x00", ""))
	}
	return env
}

var identifier = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`) })

// withPayloadVars sets, over env, a variable for each top-level field of the
// hook's payload whose name is an identifier and whose value is a string, a
// boolean or a number, valued as JavaScript's String() gives it, as Factory
// Droid does for its hooks (evidence/droid-env.jsonc).
func withPayloadVars(env []string, payload []byte) []string {
	order, raw, err := mappings.SplitObject(payload)
	if err != nil {
		return env
	}
	vars := map[string]string{}
	var names []string
	for _, k := range order {
		if !identifier().MatchString(k) {
			continue
		}
		var v any
		if json.Unmarshal(raw[k], &v) != nil {
			continue
		}
		var s string
		switch v := v.(type) {
		case string:
			s = v
		case bool:
			s = strconv.FormatBool(v)
		case float64:
			s = jsNumber(v)
		default:
			continue
		}
		if _, seen := vars[k]; !seen {
			names = append(names, k)
		}
		vars[k] = s
	}
	env = slices.DeleteFunc(env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		_, set := vars[k]
		return set
	})
	for _, k := range names {
		env = append(env, k+"="+vars[k])
	}
	return env
}

// withoutHostPayloadVars drops the variables a host that gives its hooks
// their payload's fields (Droid) set from its own payload, for a hook whose
// agent sets none: a Claude hook on Droid does not get $tool_name.
func withoutHostPayloadVars(env []string, host, hook *mappings.Dialect, hostPayload []byte) []string {
	if !host.Env.PayloadVars || hook.Env.PayloadVars {
		return env
	}
	own := withPayloadVars(nil, hostPayload)
	return slices.DeleteFunc(env, func(kv string) bool {
		return slices.Contains(own, kv)
	})
}

// jsNumber is JavaScript's String(n) for the numbers a payload holds.
func jsNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func lookupEnv(environ []string, name string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(environ[i], "="); ok && k == name {
			return v
		}
	}
	return ""
}

// readBounded reads r fully; more than limit bytes is an error, returned
// with the first limit bytes.
func readBounded(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return b, err
	}
	if int64(len(b)) > limit {
		// Drain the rest so the host's write does not fail on a closed pipe.
		_, _ = io.Copy(io.Discard, r)
		// What was read still names the event, so that the refusal blocks
		// on a guard event.
		return b[:limit], fmt.Errorf("stdin is over the %d-byte limit", limit)
	}
	return b, nil
}

// eventName is the host's event name. It is looked for even in a payload
// that does not parse, so that hookx's own failure on a truncated guard
// event still blocks.
func eventName(payload []byte) string {
	if name := stringField(payload, "hook_event_name"); name != "" {
		return name
	}
	if m := eventNameRE().FindSubmatch(payload); m != nil {
		return string(m[1])
	}
	return ""
}

// eventNameRE is compiled on first use, as every package-level regexp in
// hookx: package initialisation runs on every hook call.
var eventNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"hook_event_name"\s*:\s*"([A-Za-z]+)"`) })

// stringField returns a top-level string field of a JSON object, or "".
// The object is split at memchr speed, not decoded: a payload can hold
// megabytes of tool output, and decoding it whole took tens of ms per
// field.
func stringField(payload []byte, name string) string {
	_, m, err := mappings.SplitObject(payload)
	if err != nil && json.Unmarshal(payload, &m) != nil {
		// What SplitObject refuses and encoding/json takes (a duplicate
		// key: the last one counts) is read as before.
		return ""
	}
	var s string
	if json.Unmarshal(m[name], &s) != nil {
		return ""
	}
	return s
}

func signum(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return int(syscall.SIGTERM)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// AgentEnv is environ with what d's agent sets for each hook it runs on
// the event payload (in d's dialect): the one model of it, which wrap
// gives a hook of d under any host. hookx's runners of a project's hooks
// (package hookrun) start a host's hooks with it.
func AgentEnv(environ []string, d *mappings.Dialect, payload []byte) []string {
	return hookEnv(environ, d, d, payload)
}
