package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/hookx-dev/hookx/translate"
	"github.com/spf13/cobra"
)

// maxPayload bounds what translate reads from a file or stdin.
const maxPayload = 256 << 20

type translateOptions struct {
	s        streams
	from, to string
	json     bool
	// event
	file string
	// result
	event      string
	hostEvent  string
	exitCode   int
	stdoutFile string
	stderrFile string
	payload    string
	ask        string
	failClosed bool
}

func newTranslateCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "translate",
		Short: "Translate one payload or one hook result between dialects",
		Long: `translate applies the mapping table to one payload at a time, between
any two dialects of the table (` + strings.Join(dialectNames(), ", ") + `).

  translate event   a hook's stdin, from one agent's dialect to another's
  translate result  a hook's stdout, stderr and exit code, written for one
                    agent, into what another agent (the host) must receive

Findings (what could not be carried exactly) go to stderr, one per line.`,
	}
	cmd.AddCommand(newTranslateEventCmd(s, nil), newTranslateResultCmd(s, nil))
	return cmd
}

func addDirectionFlags(cmd *cobra.Command, opts *translateOptions) {
	cmd.Flags().StringVar(&opts.from, "from", "", "source dialect (required): "+strings.Join(mappings.Names(), ", "))
	cmd.Flags().StringVar(&opts.to, "to", "", "target dialect (required): "+strings.Join(mappings.Names(), ", "))
	cmd.Flags().BoolVar(&opts.json, "json", false, "include the findings in the JSON output")
	_ = cmd.MarkFlagRequired("from")
	_ = cmd.MarkFlagRequired("to")
}

func newTranslateEventCmd(s streams, runF func(*translateOptions) error) *cobra.Command {
	opts := &translateOptions{s: s}
	cmd := &cobra.Command{
		Use:   "event --from DIALECT --to DIALECT [FILE]",
		Short: "Translate a hook's stdin payload",
		Example: `  # What a Claude hook sees when Gemini runs the shell tool
  hookx translate event --from gemini --to claude BeforeTool.json

  # From stdin, with findings in the output
  echo '{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{}}' |
    hookx translate event --from claude --to gemini --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.file = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return translateEventRun(opts)
		},
	}
	addDirectionFlags(cmd, opts)
	return cmd
}

func translateEventRun(opts *translateOptions) error {
	tr, err := translate.New(mappings.Default(), opts.from, opts.to)
	if err != nil {
		return withCode(exitBadInput, err)
	}
	name := "stdin"
	in := opts.s.In
	if opts.file != "" && opts.file != "-" {
		f, err := os.Open(opts.file)
		if err != nil {
			return withCode(exitBadInput, err)
		}
		defer f.Close()
		in, name = f, opts.file
	}
	payload, err := readBounded(in, maxPayload)
	if err != nil {
		return withCode(exitBadInput, fmt.Errorf("%s: %w", name, err))
	}
	res, err := tr.Event(payload)
	if err != nil {
		return withCode(exitBadInput, fmt.Errorf("%s: %w", name, err))
	}
	printFindings(opts.s.Err, res.Findings)
	if res.Skip {
		fmt.Fprintf(opts.s.Err, "hookx: skipped: %s\n", res.SkipReason)
	}
	if opts.json {
		out := map[string]any{"event": res.Event, "skip": res.Skip, "findings": findingsJSON(res.Findings)}
		if res.Skip {
			out["skipReason"] = res.SkipReason
		} else {
			out["payload"] = json.RawMessage(res.Payload)
		}
		if err := writeJSON(opts.s.Out, out); err != nil || !res.Skip {
			return err
		}
	}
	if res.Skip {
		return withCode(exitChanges, errors.New("the target dialect has no such event or value"))
	}
	_, err = fmt.Fprintf(opts.s.Out, "%s\n", res.Payload)
	return err
}

func newTranslateResultCmd(s streams, runF func(*translateOptions) error) *cobra.Command {
	opts := &translateOptions{s: s}
	cmd := &cobra.Command{
		Use:   "result --from DIALECT --to DIALECT --event EVENT --exit-code N [--stdout FILE] [--stderr FILE]",
		Short: "Translate a hook's stdout, stderr and exit code for another agent (the host)",
		Long: `result reads a hook's output, written for the --from dialect, and prints
what the --to agent (the host) must receive to do the same thing, as one
JSON object {"stdout": "...", "stderr": "...", "exitCode": N}.

--event is the hook's event in the --from dialect; the host's event is the
mapped one unless --host-event says otherwise.`,
		Example: `  # A Claude guard exits 2 with a reason on stderr; what must Gemini get?
  hookx translate result --from claude --to gemini --event PreToolUse \
    --exit-code 2 --stderr reason.txt

  # A Gemini hook denies on AfterTool; rebuild the Claude answer for Bash
  hookx translate result --from gemini --to claude --event AfterTool \
    --exit-code 0 --stdout out.json --payload PostToolUse.json`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(opts)
			}
			return translateResultRun(opts)
		},
	}
	addDirectionFlags(cmd, opts)
	cmd.Flags().StringVar(&opts.event, "event", "", "the hook's event, in the --from dialect (required)")
	cmd.Flags().StringVar(&opts.hostEvent, "host-event", "", "the host's event (default: the mapped event)")
	cmd.Flags().IntVar(&opts.exitCode, "exit-code", 0, "the hook's exit code")
	cmd.Flags().StringVar(&opts.stdoutFile, "stdout", "", "file holding the hook's stdout")
	cmd.Flags().StringVar(&opts.stderrFile, "stderr", "", "file holding the hook's stderr")
	cmd.Flags().StringVar(&opts.payload, "payload", "", "the host's stdin payload, needed to rebuild tool input or output")
	cmd.Flags().StringVar(&opts.ask, "ask", "deny", "how ask/defer render on Gemini: deny or ask")
	cmd.Flags().BoolVar(&opts.failClosed, "fail-closed", false, "treat every failure of the hook as a block")
	_ = cmd.MarkFlagRequired("event")
	return cmd
}

func translateResultRun(opts *translateOptions) error {
	t := mappings.Default()
	tr, err := translate.New(t, opts.from, opts.to)
	if err != nil {
		return withCode(exitBadInput, err)
	}
	if opts.ask != "deny" && opts.ask != "ask" {
		return withCode(exitBadInput, fmt.Errorf("--ask must be deny or ask, not %q", opts.ask))
	}
	hostEvent := opts.hostEvent
	if hostEvent == "" {
		m, err := t.MapEvent(tr.From, tr.To, opts.event)
		if err != nil {
			return withCode(exitBadInput, err)
		}
		if m.To == nil {
			return withCode(exitBadInput, fmt.Errorf("%s event %s has no %s counterpart: %s", tr.From.Agent, opts.event, tr.To.Agent, m.Note))
		}
		hostEvent = m.To.Name
	}
	if tr.To.Event(hostEvent) == nil {
		return withCode(exitBadInput, fmt.Errorf("unknown %s event %q", tr.To.Agent, hostEvent))
	}
	var out translate.Output
	out.ExitCode = opts.exitCode
	if out.Stdout, err = readFileOpt(opts.stdoutFile); err != nil {
		return withCode(exitBadInput, err)
	}
	if out.Stderr, err = readFileOpt(opts.stderrFile); err != nil {
		return withCode(exitBadInput, err)
	}
	var payload []byte
	if payload, err = readFileOpt(opts.payload); err != nil {
		return withCode(exitBadInput, err)
	}
	if payload != nil && !json.Valid(payload) {
		return withCode(exitBadInput, fmt.Errorf("%s: not valid JSON", opts.payload))
	}
	host, fs := tr.Result(translate.ResultContext{
		HookEvent: opts.event, HostEvent: hostEvent, HostPayload: payload,
		FailClosed: opts.failClosed, Ask: opts.ask,
	}, out)
	printFindings(opts.s.Err, fs)
	res := map[string]any{"stdout": string(host.Stdout), "stderr": string(host.Stderr), "exitCode": host.ExitCode}
	if opts.json {
		res["findings"] = findingsJSON(fs)
	}
	return writeJSON(opts.s.Out, res)
}

func readFileOpt(name string) ([]byte, error) {
	if name == "" {
		return nil, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := readBounded(f, maxPayload)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

// readBounded reads all of r, failing past max bytes.
func readBounded(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("input larger than %d bytes", max)
	}
	return b, nil
}

func printFindings(w io.Writer, fs []translate.Finding) {
	for _, f := range fs {
		fmt.Fprintf(w, "hookx: %s\n", f)
	}
}

// findingsJSON renders translation findings in the one schema hookx uses
// for findings in JSON (migrate's report items): level, what, reason;
// "approximate" or "not-carried", and [] rather than null.
func findingsJSON(fs []translate.Finding) []migrate.Item {
	out := make([]migrate.Item, 0, len(fs))
	for _, f := range fs {
		level := migrate.Approximate
		if f.Mark == mappings.None {
			level = migrate.NotCarried
		}
		out = append(out, migrate.Item{Level: level, What: f.What, Reason: f.Why})
	}
	return out
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
