// Command lean is a measurement prototype for issue 14, not a product: a
// wrap-only hookx, holding what a hook call needs (wrap, translate,
// mappings, transcript, pflag) and none of migrate, doctor, cobra, go-diff
// or mvdan.cc/sh, so that scripts/bench-wrap (LEAN=1) can tell what the
// rest of the binary costs a hook call. It parses wrap's flags as
// cmd/hookx's direct path does; a flag error is a plain usage error here
// (cmd/hookx answers it as hookx's own failure), and --help is not served.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
	"github.com/hookx-dev/hookx/wrap"
	"github.com/spf13/pflag"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "wrap-supervise" {
		os.Exit(supervise(args[1:]))
	}
	if len(args) == 0 || args[0] != "wrap" {
		fmt.Fprintln(os.Stderr, "usage: lean wrap --from DIALECT [flags] -- COMMAND [ARG...]")
		os.Exit(2)
	}
	var o struct {
		from, host, event, hostEvent, ask, match, trace string
		timeout                                         time.Duration
		failClosed, verbose                             bool
		env                                             []string
	}
	fs := pflag.NewFlagSet("wrap", pflag.ContinueOnError)
	fs.SetInterspersed(false)
	fs.StringVar(&o.from, "from", "", "")
	fs.StringVar(&o.host, "host", "auto", "")
	fs.StringVar(&o.event, "event", "", "")
	fs.StringVar(&o.hostEvent, "host-event", "", "")
	fs.DurationVar(&o.timeout, "timeout", 0, "")
	fs.BoolVar(&o.failClosed, "fail-closed", false, "")
	fs.StringVar(&o.ask, "ask", "deny", "")
	fs.StringVar(&o.match, "match", "", "")
	fs.StringArrayVar(&o.env, "env", nil, "")
	fs.StringVar(&o.trace, "trace", os.Getenv("HOOKX_TRACE"), "")
	fs.BoolVarP(&o.verbose, "verbose", "v", os.Getenv("HOOKX_VERBOSE") != "", "")
	if err := fs.Parse(args[1:]); err != nil {
		os.Exit(2)
	}
	if o.from == "" || fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "lean: --from and a command are required")
		os.Exit(2)
	}
	var table *mappings.Table
	if !(wrap.SysExec != nil && o.host == o.from && !o.failClosed && o.timeout == 0 && o.trace == "") {
		table = mappings.Lazy()
	}
	sigs := make(chan os.Signal, 4)
	state := stopStateDir()
	os.Exit(wrap.Run(wrap.Options{
		Table:         table,
		Translation:   translation{table: table, match: o.match, hostEvent: o.hostEvent},
		From:          o.from,
		Host:          o.host,
		Command:       fs.Args(),
		Event:         o.event,
		Env:           o.env,
		Timeout:       o.timeout,
		FailClosed:    o.failClosed,
		Ask:           o.ask,
		TracePath:     o.trace,
		Verbose:       o.verbose,
		StateDir:      state,
		TranscriptDir: filepath.Join(filepath.Dir(state), "transcripts"),
		Supervisor:    supervisor(),
		Stdin:         os.Stdin,
		Stdout:        os.Stdout,
		Stderr:        os.Stderr,
		Environ:       os.Environ(),
		Signals:       sigs,
		Listen:        func() { signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP) },
		Exec:          wrap.SysExec,
	}))
}

func supervise(args []string) int {
	fs := pflag.NewFlagSet("wrap-supervise", pflag.ContinueOnError)
	pgid := fs.Int("pgid", 0, "")
	bound := fs.Duration("bound", 0, "")
	grace := fs.Duration("grace", wrap.DefaultKillGrace, "")
	files := fs.Int("files", 2, "")
	if err := fs.Parse(args); err != nil || *pgid <= 1 || *bound <= 0 {
		return 2
	}
	if err := wrap.Supervise(*pgid, *bound, *grace, *files); err != nil {
		fmt.Fprintln(os.Stderr, "lean:", err)
		return 1
	}
	return 0
}

func stopStateDir() string {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		if home, err := os.UserHomeDir(); err == nil {
			base = filepath.Join(home, ".local", "state")
		} else if cache, err := os.UserCacheDir(); err == nil {
			base = cache
		} else {
			return filepath.Join(os.TempDir(), fmt.Sprintf("hookx-%d", os.Getuid()), "stop")
		}
	}
	return filepath.Join(base, "hookx", "stop")
}

func supervisor() *wrap.Supervisor {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return &wrap.Supervisor{Path: exe, Args: []string{"hookx", "wrap-supervise"}}
}

// translation and translator bind wrap to translate, as cmd/hookx's
// wrap_translate.go does.
type translation struct {
	table     *mappings.Table
	match     string
	hostEvent string
}

func (t translation) New(host, hook string) (wrap.Translator, error) {
	in, err := translate.New(t.table, host, hook)
	if err != nil {
		return nil, err
	}
	in.HostEvent = t.hostEvent
	if t.match != "" {
		if in.Match, err = in.To.ToolMatcher(t.match); err != nil {
			return nil, err
		}
	}
	out, err := translate.New(t.table, hook, host)
	if err != nil {
		return nil, err
	}
	return translator{in: in, out: out}, nil
}

func (t translation) DetectHost(payload []byte, getenv func(string) string) (string, error) {
	return translate.DetectHost(t.table, payload, getenv)
}

func (t translation) HostEvent(host *mappings.Dialect, payload []byte) (string, error) {
	return translate.HostEvent(host, payload, t.hostEvent)
}

func (t translation) Failure(host *mappings.Dialect, hostEvent string, err error) wrap.Output {
	return wrap.Output(translate.FailureOutput(host, hostEvent, err))
}

func (t translation) Blocks(host *mappings.Dialect, hostEvent string, out wrap.Output) bool {
	v, _, err := translate.ReadOutput(host, hostEvent, translate.Output(out))
	return err == nil && v.Block
}

type translator struct{ in, out *translate.Translator }

func (t translator) Event(payload []byte) (*wrap.Event, error) {
	ev, err := t.in.Event(payload)
	if err != nil {
		return nil, err
	}
	return &wrap.Event{
		Payload: ev.Payload, Name: ev.Event, Tool: ev.Tool,
		Skip: ev.Skip, SkipReason: ev.SkipReason,
		Findings: findings(ev.Findings, false),
	}, nil
}

func (t translator) Result(ctx wrap.ResultContext, out wrap.Output) (wrap.Output, []wrap.Finding) {
	res, fs := t.out.Result(translate.ResultContext(ctx), translate.Output(out))
	return wrap.Output(res), findings(fs, true)
}

func findings(fs []translate.Finding, result bool) []wrap.Finding {
	out := make([]wrap.Finding, len(fs))
	for i, f := range fs {
		out[i] = wrap.Finding{Text: f.String(), Notice: result || f.Mark == mappings.None}
	}
	return out
}
