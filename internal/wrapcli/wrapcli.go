// Package wrapcli is `hookx wrap`'s command line without cobra: its flags,
// the checks flag parsing cannot make, the answer to a usage error, and the
// run of wrap.Run bound to package translate. A hook call goes this way on
// every call of the host, so it holds no command tree and loads the table
// lazily (mappings.Lazy), and not at all for a run that replaces itself
// with the hook. cmd/hookx serves hook calls with it (and --help and flag
// errors through cobra, on the same flags); scripts/wrapbench/lean, a
// wrap-only build, is it alone.
package wrapcli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
	"github.com/hookx-dev/hookx/wrap"
	"github.com/spf13/pflag"
)

// Options are wrap's flags and the hook's command, with the streams and
// signals of the run.
type Options struct {
	In       io.Reader
	Out, Err io.Writer
	// Exits says the process exits when Execute returns (a hook call):
	// the delivery of signals is then not stopped (see StopSignals).
	Exits bool

	From       string
	Host       string
	Event      string
	HostEvent  string
	Timeout    time.Duration
	FailClosed bool
	Ask        string
	Trace      string
	Verbose    bool
	Match      string
	Env        []string
	Command    []string

	signals chan os.Signal
	listen  func() // starts the delivery of signals, once
}

// New returns the options of a run on these streams, before its flags.
func New(in io.Reader, out, errw io.Writer) *Options {
	o := &Options{In: in, Out: out, Err: errw, signals: make(chan os.Signal, 4)}
	o.listen = sync.OnceFunc(func() { signal.Notify(o.signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP) })
	return o
}

// AddFlags defines wrap's flags on fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.From, "from", "", "the dialect the hook was written for (required): "+strings.Join(mappings.Names(), ", "))
	fs.StringVar(&o.Host, "host", "auto", "the host's dialect: auto (detect from the environment and the event), "+strings.Join(mappings.Names(), ", "))
	fs.StringVar(&o.Event, "event", "", "the event the hook was registered on in its own agent, e.g. PostToolUse; a host event that its own agent would send as another event is answered with no decision and the hook is not run")
	fs.StringVar(&o.HostEvent, "host-event", "", "the host's event the hook is registered on, for a host whose payload names none (Copilot CLI's camelCase events, e.g. preToolUse); default: told from the payload's fields")
	fs.DurationVar(&o.Timeout, "timeout", 0, "hookx's own limit on the hook, e.g. 30s (default: none); on expiry the hook's process group is killed and the hook's own timeout rules apply")
	fs.BoolVar(&o.FailClosed, "fail-closed", false, "treat every failure of the hook (cannot start, exit 126/127, crash, timeout, unreadable output) as a block")
	fs.StringVar(&o.Ask, "ask", "deny", "how ask/defer render on a Gemini host: deny (headless-safe) or ask (hangs a headless gemini -p)")
	fs.StringVar(&o.Match, "match", "", "the hook's own tool matcher, in its dialect (hookx migrate writes it): the hook sees the host's tool as the tool this matcher names (LS for list_directory), and is not run when it names none; default: every tool")
	fs.StringArrayVar(&o.Env, "env", nil, "set NAME=VALUE in the hook's environment, last, as its own agent would (e.g. a plugin's CLAUDE_PLUGIN_ROOT); repeatable")
	fs.StringVar(&o.Trace, "trace", os.Getenv("HOOKX_TRACE"), "append one JSON line per run to this file, mode 0600 (default $HOOKX_TRACE)")
	fs.BoolVarP(&o.Verbose, "verbose", "v", os.Getenv("HOOKX_VERBOSE") != "", "print every finding on stderr, the table's routine approximations included (default: what happened to the answer and what did not reach the hook; also $HOOKX_VERBOSE)")
}

// Parse parses wrap's arguments (those after "wrap") with wrap's flags
// alone: everything from the hook's command on is the command. It fails on
// what a command tree must answer: --help (pflag.ErrHelp), a flag that is
// not wrap's, a bad value.
func Parse(args []string, in io.Reader, out, errw io.Writer) (*Options, error) {
	o := New(in, out, errw)
	fs := pflag.NewFlagSet("wrap", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.SetInterspersed(false) // everything after the command is the hook's
	o.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	o.Command = fs.Args()
	return o, nil
}

// Execute checks the options and runs the hook, and returns wrap's exit
// code. A usage error is answered as AnswerUsage does; the error is
// returned, with exit code 2, when it is to be reported as a usage error.
func (o *Options) Execute() (code int, usage error) {
	var table *mappings.Table
	if !o.ExecInPlace() {
		// Neither is needed for a run that replaces itself with the
		// hook. Signals start in wrap.Run, in the background, and stop
		// once started whatever the outcome.
		defer o.StopSignals()
		table = mappings.Lazy()
	}
	if err := o.Check(table); err != nil {
		return o.AnswerUsage(err)
	}
	return o.run(table), nil
}

// StopSignals stops the delivery of signals to the run, once started,
// unless the process exits once wrap returns (Exits): Stop waits for the
// signal goroutine to be idle, about 0.1 ms on the host's path, for
// nothing.
func (o *Options) StopSignals() {
	if !o.Exits {
		o.listen()
		signal.Stop(o.signals)
	}
}

// ExecInPlace says whether this run may replace itself with the hook (see
// wrap.Options.Exec): a same-dialect host named up front, and nothing that
// needs hookx to stay.
func (o *Options) ExecInPlace() bool {
	return wrap.SysExec != nil && o.Host == o.From && !o.FailClosed && o.Timeout == 0 && o.Trace == ""
}

// Check checks what flag parsing cannot. table may be nil when the
// dialects named are known without it.
func (o *Options) Check(table *mappings.Table) error {
	switch {
	case o.From == "":
		return errors.New(`required flag(s) "from" not set`)
	case len(o.Command) == 0:
		return errors.New("wrap needs the hook's command after --")
	case o.Timeout < 0:
		return fmt.Errorf("--timeout: %v is negative", o.Timeout)
	case !slices.Contains([]string{"deny", "ask"}, o.Ask):
		return fmt.Errorf("--ask: %q is neither deny nor ask", o.Ask)
	}
	for _, kv := range o.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.ContainsAny(k, "\x00") {
			return fmt.Errorf("--env: %q is not NAME=VALUE", kv)
		}
	}
	if table == nil {
		// Built only should a question below need it (Lazy builds no
		// dialect until asked).
		table = mappings.Lazy()
	}
	known := func(name string) error {
		if _, ok := mappings.HookShell(name); ok {
			return nil
		}
		_, err := table.Dialect(name)
		return err
	}
	if err := known(o.From); err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	if !o.ExecInPlace() && o.Match != "" {
		// A run that becomes the hook never reads the matcher.
		hook, _ := table.Dialect(o.From)
		if _, err := hook.ToolMatcher(o.Match); err != nil {
			return fmt.Errorf("--match: %w", err)
		}
	}
	if o.Event != "" {
		if d, _ := table.Dialect(o.From); d != nil && d.Event(o.Event) == nil {
			return fmt.Errorf("--event: %q is not a %s event%s", o.Event, d.Agent, mappings.DidYouMean(o.Event, d.EventNames()))
		}
	}
	if o.Host != "auto" {
		if err := known(o.Host); err != nil {
			return fmt.Errorf("--host: %w", err)
		}
	}
	return nil
}

// exitUsage is a usage error's exit code (cmd/hookx's exitBadInput).
const exitUsage = 2

// maxPayload bounds the event AnswerUsage reads, as translate's.
const maxPayload = 256 << 20

// AnswerUsage answers a host that runs a wrap command with bad flags. The
// host calls it on every event, and a usage error's exit 2 with text would
// be a block in both agents, every time (and an endless loop on Gemini's
// AfterAgent). So when an event is waiting on stdin, the error is answered
// as hookx's own failure: a block on the events that guard an action, a
// warning elsewhere, and its exit code, with usage nil. A person at a
// terminal, or a run with no event, gets usage (err) and code 2, for the
// caller to report.
func (o *Options) AnswerUsage(err error) (code int, usage error) {
	if f, ok := o.In.(*os.File); ok {
		if fi, statErr := f.Stat(); statErr == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return exitUsage, err
		}
	}
	payload, readErr := io.ReadAll(io.LimitReader(o.In, maxPayload+1))
	if readErr != nil || len(payload) > maxPayload || len(bytes.TrimSpace(payload)) == 0 {
		return exitUsage, err
	}
	table := mappings.Default()
	var ev struct {
		Name string `json:"hook_event_name"`
	}
	_ = json.Unmarshal(payload, &ev)
	host, hostErr := table.Dialect(o.Host)
	if hostErr != nil {
		if name, detectErr := translate.DetectHost(table, payload, os.Getenv); detectErr == nil {
			host, hostErr = table.Dialect(name)
		}
	}
	if hostErr != nil {
		host = table.LikelyHost(ev.Name, o.From)
	}
	if host == nil {
		return exitUsage, err
	}
	out := translate.FailureOutput(host, ev.Name, fmt.Errorf("hookx wrap: %w", err))
	o.Out.Write(append(out.Stdout, '\n'))
	if out.ExitCode != 0 {
		o.Err.Write(out.Stderr) // the host reads the block from exit 2 and stderr
	}
	fmt.Fprintf(o.Err, "hookx: wrap: %v\n", err)
	return out.ExitCode, nil
}

// run runs the hook. table is nil when the run replaces itself with the
// hook; wrap loads it should that fail.
func (o *Options) run(table *mappings.Table) int {
	defer o.StopSignals()
	state := StopStateDir()
	return wrap.Run(wrap.Options{
		Table:       table,
		Translation: Translation{Table: table, Match: o.Match, HostEventGiven: o.HostEvent},
		From:        o.From,
		Host:        o.Host,
		Command:     o.Command,
		Event:       o.Event,
		Env:         o.Env,
		Timeout:     o.Timeout,
		FailClosed:  o.FailClosed,
		Ask:         o.Ask,
		TracePath:   o.Trace,
		Verbose:     o.Verbose,
		StateDir:    state,
		// Beside the stop counters: $XDG_STATE_HOME/hookx/transcripts.
		TranscriptDir: filepath.Join(filepath.Dir(state), "transcripts"),
		Supervisor:    supervisor(),
		Stdin:         o.In,
		Stdout:        o.Out,
		Stderr:        o.Err,
		Environ:       os.Environ(),
		Signals:       o.signals,
		Listen:        o.listen,
		Exec:          wrap.SysExec,
	})
}

// StopStateDir is where the stop-loop counters live: under
// $XDG_STATE_HOME, or its default ~/.local/state, or the user cache dir.
func StopStateDir() string {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		if home, err := os.UserHomeDir(); err == nil {
			base = filepath.Join(home, ".local", "state")
		} else if cache, err := os.UserCacheDir(); err == nil {
			base = cache
		} else {
			return filepath.Join(os.TempDir(), "hookx-"+strings.TrimSpace(fmt.Sprint(os.Getuid())), "stop")
		}
	}
	return filepath.Join(base, "hookx", "stop")
}

// supervisor is this program, run as `hookx wrap-supervise`; nil when its
// path is unknown.
func supervisor() *wrap.Supervisor {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return &wrap.Supervisor{Path: exe, Args: []string{"hookx", "wrap-supervise"}}
}

// Supervise are the flags of `hookx wrap-supervise`, the background half
// of wrap for a hook that asked not to be waited for (wrap starts it;
// people do not).
type Supervise struct {
	PGID  int
	Bound time.Duration
	Grace time.Duration
	Files int
}

// AddFlags defines wrap-supervise's flags on fs.
func (s *Supervise) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&s.PGID, "pgid", 0, "the hook's process group")
	fs.DurationVar(&s.Bound, "bound", 0, "how long the hook may run")
	fs.DurationVar(&s.Grace, "grace", wrap.DefaultKillGrace, "SIGTERM to SIGKILL")
	fs.IntVar(&s.Files, "files", 2, "the hook's output pipes, from fd 3")
}

// Check checks what flag parsing cannot.
func (s *Supervise) Check() error {
	if s.PGID <= 1 || s.Bound <= 0 {
		return errors.New("--pgid and --bound are required")
	}
	return nil
}

// Run supervises the hook's process group until it ends or its bound.
func (s *Supervise) Run() error {
	return wrap.Supervise(s.PGID, s.Bound, s.Grace, s.Files)
}
