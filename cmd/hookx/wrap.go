package main

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
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

type wrapOptions struct {
	s          streams
	signals    chan os.Signal
	listen     func() // starts the delivery of signals, once
	exits      bool   // the process exits when wrap returns (stopSignals)
	from       string
	host       string
	event      string
	hostEvent  string
	timeout    time.Duration
	failClosed bool
	ask        string
	trace      string
	verbose    bool
	match      string
	env        []string
	command    []string
}

func init() {
	extraCommands = append(extraCommands, func(s streams) *cobra.Command { return newWrapCmd(s, nil) })
}

func newWrapOptions(s streams) *wrapOptions {
	opts := &wrapOptions{s: s, signals: make(chan os.Signal, 4)}
	opts.listen = sync.OnceFunc(func() { signal.Notify(opts.signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP) })
	return opts
}

func newWrapCmd(s streams, runF func(*wrapOptions) error) *cobra.Command {
	opts := newWrapOptions(s)
	cmd := &cobra.Command{
		Use:   "wrap --from DIALECT [flags] -- COMMAND [ARG...]",
		Short: "Run a hook written for one agent under the other",
		Long: `wrap runs a hook written for one agent (--from) under another (the host).
It translates the host's event on stdin into the hook's dialect, runs the
hook, and translates the hook's stdout, stderr and exit status into what the
host must receive: always exit 0, with the decision in the JSON on stdout.
Findings (what could not be carried exactly) go to stderr as "hookx: ...":
what happened to the hook's answer on every call, the table's routine
approximations only with --verbose; --trace records all of them.

When the host speaks the hook's own dialect, the hook runs untouched: stdin,
stdout, stderr and its exit status pass straight through.

One argument after -- is a shell string, prepared and run exactly the way
the hook's own agent does it: Claude Code runs /bin/sh -c on it unchanged;
Gemini CLI first replaces $GEMINI_PROJECT_DIR, $GEMINI_CWD, $GEMINI_PLANS_DIR,
$GEMINI_SESSION_ID and $CLAUDE_PROJECT_DIR anywhere in the text with the
shell-quoted value, then runs bash -c. Several arguments are run directly,
with no shell; for a Claude hook, ${CLAUDE_PROJECT_DIR}, ${CLAUDE_PLUGIN_ROOT}
and ${CLAUDE_PLUGIN_DATA} are replaced in each of them first (Claude's exec
form). Write the command in single quotes, with each $ that starts a name
written '\$', as hookx migrate does: then no host substitutes anything in
it before wrap does.

The hook gets the host's environment plus the variables its own agent sets
(CLAUDE_PROJECT_DIR, CLAUDE_CODE_SESSION_ID, CLAUDECODE=1 for a Claude hook, and CLAUDE_ENV_FILE, a session file, on
SessionStart; GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_SESSION_ID for a Gemini
hook), never replacing one the host set, then the --env variables, and runs
in the host's working directory.

--event names the event the hook was registered on in its own agent. A host
event that its own agent would have sent as another event is answered with
no decision and the hook does not run: Gemini's AfterTool carries Claude's
PostToolUse and PostToolUseFailure alike, so a wrapped Claude PostToolUse
hook with --event PostToolUse runs only for successful calls. migrate writes
it where the host's event carries several of the hook's events.

A Claude Stop hook on a Gemini host keeps Claude's cap of 8 consecutive
blocks per session; the count lives in $XDG_STATE_HOME/hookx/stop
(default ~/.local/state/hookx/stop). A stop hook sees stop_hook_active as
its own agent sends it (Claude keeps it true after a continuation that used
tools, Gemini does not); Claude's cap, which a Gemini AfterAgent hook is
never told of, is reported.

A Claude hook whose first stdout line is {"async":true} is not waited for:
wrap answers the host at once with no decision and leaves the hook to a
detached "hookx wrap-supervise", which kills its process group at
asyncTimeout (15s by default).

transcript_path names a copy of the host's transcript in the hook's own
agent's format (prompts, replies, tool calls and results), kept per session
in $XDG_STATE_HOME/hookx/transcripts and updated with the new records on
each call. A Gemini AfterAgent hook on a Claude Stop also gets prompt and
the whole prompt_response, recovered from Claude's transcript.

If hookx itself fails (unreadable event, unknown event), it blocks on the
events that guard an action (PreToolUse/BeforeTool, UserPromptSubmit/
BeforeAgent) and warns elsewhere.

` + wrapExitCodesHelp,
		Example: `  hookx wrap --from claude -- '"'\$'CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'
  hookx wrap --from gemini --timeout 30s -- python3 hooks/check.py`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return opts.execute(args, runF) },
	}
	cmd.Flags().SetInterspersed(false) // everything after the command is the hook's
	opts.addFlags(cmd.Flags())
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return wrapUsageError(opts, err) })
	return cmd
}

// parseWrapDirect parses `hookx wrap` arguments with wrap's flags alone,
// without cobra's command tree: wrap runs on every hook call of the host.
// It declines (ok false) whatever cobra must answer: --help, the root's
// flags, a flag error (answered as wrapUsageError); newWrapCmd parses the
// same flags, and cobra then parses the arguments afresh.
func parseWrapDirect(args []string, s streams) (opts *wrapOptions, command []string, ok bool) {
	if len(args) == 0 || args[0] != "wrap" {
		return nil, nil, false
	}
	opts = newWrapOptions(s)
	fs := pflag.NewFlagSet("wrap", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.SetInterspersed(false)
	opts.addFlags(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return nil, nil, false
	}
	return opts, fs.Args(), true
}

// execute runs wrap with the parsed flags and the hook's command.
func (opts *wrapOptions) execute(command []string, runF func(*wrapOptions) error) error {
	opts.command = command
	var table *mappings.Table
	if !opts.execInPlace() {
		// Neither is needed for a run that replaces itself with
		// the hook. Signals start in wrap.Run, in the background, and
		// stop once started whatever the outcome.
		defer opts.stopSignals()
		table = loadTable()
	}
	if err := validateWrap(table, opts); err != nil {
		return wrapUsageError(opts, err)
	}
	if runF != nil {
		return runF(opts)
	}
	return wrapRun(opts, table)
}

// stopSignals stops the delivery of signals to opts.signals, once started,
// unless the process exits once wrap returns (run's way for a hook call):
// Stop waits for the signal goroutine to be idle, about 0.1 ms on the
// host's path, for nothing.
func (opts *wrapOptions) stopSignals() {
	if !opts.exits {
		opts.listen()
		signal.Stop(opts.signals)
	}
}

// addFlags defines wrap's flags on fs.
func (opts *wrapOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&opts.from, "from", "", "the dialect the hook was written for (required): "+strings.Join(mappings.Names(), ", "))
	fs.StringVar(&opts.host, "host", "auto", "the host's dialect: auto (detect from the environment and the event), "+strings.Join(mappings.Names(), ", "))
	fs.StringVar(&opts.event, "event", "", "the event the hook was registered on in its own agent, e.g. PostToolUse; a host event that its own agent would send as another event is answered with no decision and the hook is not run")
	fs.StringVar(&opts.hostEvent, "host-event", "", "the host's event the hook is registered on, for a host whose payload names none (Copilot CLI's camelCase events, e.g. preToolUse); default: told from the payload's fields")
	fs.DurationVar(&opts.timeout, "timeout", 0, "hookx's own limit on the hook, e.g. 30s (default: none); on expiry the hook's process group is killed and the hook's own timeout rules apply")
	fs.BoolVar(&opts.failClosed, "fail-closed", false, "treat every failure of the hook (cannot start, exit 126/127, crash, timeout, unreadable output) as a block")
	fs.StringVar(&opts.ask, "ask", "deny", "how ask/defer render on a Gemini host: deny (headless-safe) or ask (hangs a headless gemini -p)")
	fs.StringVar(&opts.match, "match", "", "the hook's own tool matcher, in its dialect (hookx migrate writes it): the hook sees the host's tool as the tool this matcher names (LS for list_directory), and is not run when it names none; default: every tool")
	fs.StringArrayVar(&opts.env, "env", nil, "set NAME=VALUE in the hook's environment, last, as its own agent would (e.g. a plugin's CLAUDE_PLUGIN_ROOT); repeatable")
	fs.StringVar(&opts.trace, "trace", os.Getenv("HOOKX_TRACE"), "append one JSON line per run to this file, mode 0600 (default $HOOKX_TRACE)")
	fs.BoolVarP(&opts.verbose, "verbose", "v", os.Getenv("HOOKX_VERBOSE") != "", "print every finding on stderr, the table's routine approximations included (default: what happened to the answer and what did not reach the hook; also $HOOKX_VERBOSE)")
}

// execInPlace says whether this run may replace itself with the hook (see
// wrap.Options.Exec): a same-dialect host named up front, and nothing that
// needs hookx to stay.
func (opts *wrapOptions) execInPlace() bool {
	return wrap.SysExec != nil && opts.host == opts.from && !opts.failClosed && opts.timeout == 0 && opts.trace == ""
}

// validateWrap checks what flag parsing cannot. table may be nil when the
// dialects named are known without it.
func validateWrap(table *mappings.Table, opts *wrapOptions) error {
	switch {
	case opts.from == "":
		return errors.New(`required flag(s) "from" not set`)
	case len(opts.command) == 0:
		return errors.New("wrap needs the hook's command after --")
	case opts.timeout < 0:
		return fmt.Errorf("--timeout: %v is negative", opts.timeout)
	case !slices.Contains([]string{"deny", "ask"}, opts.ask):
		return fmt.Errorf("--ask: %q is neither deny nor ask", opts.ask)
	}
	for _, kv := range opts.env {
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
	if err := known(opts.from); err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	if !opts.execInPlace() && opts.match != "" {
		// A run that becomes the hook never reads the matcher.
		hook, _ := table.Dialect(opts.from)
		if _, err := hook.ToolMatcher(opts.match); err != nil {
			return fmt.Errorf("--match: %w", err)
		}
	}
	if opts.event != "" {
		if d, _ := table.Dialect(opts.from); d != nil && d.Event(opts.event) == nil {
			return fmt.Errorf("--event: %q is not a %s event%s", opts.event, d.Agent, mappings.DidYouMean(opts.event, d.EventNames()))
		}
	}
	if opts.host != "auto" {
		if err := known(opts.host); err != nil {
			return fmt.Errorf("--host: %w", err)
		}
	}
	return nil
}

// wrapUsageError answers a host that runs a wrap command with bad flags. The
// host calls it on every event, and a usage error's exit 2 with text would be
// a block in both agents, every time (and an endless loop on Gemini's
// AfterAgent). So when an event is waiting on stdin, the error is answered
// as hookx's own failure: a block on the events that guard an action, a
// warning elsewhere, exit 0. A person at a terminal, or a run with no event,
// gets the usage error and exit 2.
func wrapUsageError(opts *wrapOptions, err error) error {
	if f, ok := opts.s.In.(*os.File); ok {
		if fi, statErr := f.Stat(); statErr == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return withCode(exitBadInput, err)
		}
	}
	payload, readErr := readBounded(opts.s.In, maxPayload)
	if readErr != nil || len(bytes.TrimSpace(payload)) == 0 {
		return withCode(exitBadInput, err)
	}
	table := mappings.Default()
	var ev struct {
		Name string `json:"hook_event_name"`
	}
	_ = json.Unmarshal(payload, &ev)
	host, hostErr := table.Dialect(opts.host)
	if hostErr != nil {
		if name, detectErr := translate.DetectHost(table, payload, os.Getenv); detectErr == nil {
			host, hostErr = table.Dialect(name)
		}
	}
	if hostErr != nil {
		host = table.LikelyHost(ev.Name, opts.from)
	}
	if host == nil {
		return withCode(exitBadInput, err)
	}
	out := translate.FailureOutput(host, ev.Name, fmt.Errorf("hookx wrap: %w", err))
	opts.s.Out.Write(append(out.Stdout, '\n'))
	if out.ExitCode != 0 {
		opts.s.Err.Write(out.Stderr) // the host reads the block from exit 2 and stderr
	}
	fmt.Fprintf(opts.s.Err, "hookx: wrap: %v\n", err)
	return silentExit(out.ExitCode)
}

// loadTable returns the mapping table a hook call uses: its dialects are
// built on first use, and a call builds the (at most two) it speaks.
func loadTable() *mappings.Table {
	return mappings.Lazy()
}

// wrapRun runs the hook. table is nil when the run replaces itself with
// the hook; wrap loads it should that fail.
func wrapRun(opts *wrapOptions, table *mappings.Table) error {
	defer opts.stopSignals()

	code := wrap.Run(wrap.Options{
		Table:       table,
		Translation: translation{table: table, match: opts.match, hostEvent: opts.hostEvent},
		From:        opts.from,
		Host:        opts.host,
		Command:     opts.command,
		Event:       opts.event,
		Env:         opts.env,
		Timeout:     opts.timeout,
		FailClosed:  opts.failClosed,
		Ask:         opts.ask,
		TracePath:   opts.trace,
		Verbose:     opts.verbose,
		StateDir:    stopStateDir(),
		// Beside the stop counters: $XDG_STATE_HOME/hookx/transcripts.
		TranscriptDir: filepath.Join(filepath.Dir(stopStateDir()), "transcripts"),
		Supervisor:    supervisor(),
		Stdin:         opts.s.In,
		Stdout:        opts.s.Out,
		Stderr:        opts.s.Err,
		Environ:       os.Environ(),
		Signals:       opts.signals,
		Listen:        opts.listen,
		Exec:          wrap.SysExec,
	})
	if code != 0 {
		return silentExit(code)
	}
	return nil
}

// stopStateDir is where the stop-loop counters live: under
// $XDG_STATE_HOME, or its default ~/.local/state, or the user cache dir.
func stopStateDir() string {
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

// supervisor is this hookx, run as `hookx wrap-supervise`; nil when its
// path is unknown.
func supervisor() *wrap.Supervisor {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return &wrap.Supervisor{Path: exe, Args: []string{"hookx", "wrap-supervise"}}
}
