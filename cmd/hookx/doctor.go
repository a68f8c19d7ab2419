package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/hookx-dev/hookx/doctor"
	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/hookx-dev/hookx/internal/findings"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/spf13/cobra"
)

func init() {
	extraCommands = append(extraCommands, func(s streams) *cobra.Command { return newDoctorCmd(s, nil) })
}

type doctorOptions struct {
	s streams

	dir   string
	user  bool
	probe bool
	json  bool
	// format is text, json or sarif; --json is --format json.
	format string
	// ignore lists the rules (ids or names) whose findings are silenced.
	ignore []string
	// maxWarnings: more warnings than this exit 1; negative: no limit.
	maxWarnings int
	// rules lists the rules instead of checking.
	rules bool
	// noInlineIgnore disregards hookx-ignore comments.
	noInlineIgnore bool
	// probeUnconfined lets --probe run hooks where they cannot be confined.
	probeUnconfined bool

	// home replaces the user's home directory; empty: os.UserHomeDir.
	home string
	// getenv replaces os.Getenv; tests set it.
	getenv func(string) string
}

func newDoctorCmd(s streams, runF func(*doctorOptions) error) *cobra.Command {
	opts := &doctorOptions{s: s}
	cmd := &cobra.Command{
		Use:   "doctor [DIR] [--user] [--probe [--probe-unconfined]] [--format text|json|sarif] [--ignore ID] [--max-warnings N]",
		Short: "Find the hooks that will never fire, fail open, or be rejected",
		Long: `doctor reads every hook settings file of the agents hookx knows:

` + settingsFiles() + `
and with --user also theirs in your home directory, each with the rules of
the agent that loads it, and reports each problem in the style of go vet:

  file:line:col: severity RULE: what; why; fix

error: the hook will never fire, will fail open, or the agent rejects the
file; warning: it fires, but not as its author probably meant; note: for
information. RULE is a stable id (HX1xx the file is rejected, HX2xx the hook
never fires, HX3xx it fails open or cannot run, HX4xx warnings, HX5xx notes;
--rules lists them all).

Silencing a finding: --ignore HX412 (or the rule's name; repeatable, or
comma-separated) silences a rule everywhere. In a settings file whose agent
accepts comments (` + agentsWhere(func(d *mappings.Dialect) bool { return !d.Settings.StrictJSON }) + `), a comment

  // hookx-ignore HX411 the variable comes from our wrapper

silences that rule on the next line (or, after something on the line, on
its own line); --no-inline-ignore disregards these comments (in CI, on a
change from someone you do not trust, whose comment could silence what the
change breaks). The files of ` + agentsWhere(func(d *mappings.Dialect) bool { return d.Settings.StrictJSON }) + ` are strict
JSON: a comment makes the agent reject the file, so there --ignore is the
way. Silenced findings are not printed, but the summary line counts them
("2 silenced (1 error(s))"), --format json lists them under doctor.silenced, and
SARIF keeps them as suppressed results.

--format json prints the findings document of docs/findings.schema.json,
with the silenced findings under doctor.silenced (--json is the
same); --format sarif prints a SARIF 2.1.0 log for GitHub code scanning
(upload it with github/codeql-action/upload-sarif).

--probe runs each pre-tool hook (PreToolUse, BeforeTool) against canned calls
of its own agent (a harmless shell command, a destructive one, a write to a
secrets file) in a temporary copy of the project, and says what the agent
will do with each answer. No other hook is ever run. Each probed hook is
confined: a throwaway HOME, XDG directories and TMPDIR, a minimal environment,
no network, write access only inside its temporary directory, no read of your
home directory or of the real project (Linux: Landlock, ABI 4 or later, and
an empty network and PID namespace where the kernel allows them). Where hookx
cannot confine it, --probe refuses (exit 2) unless you also pass
--probe-unconfined, which runs the project's hooks with your own rights.

Exit codes:
  0  no errors, and no more warnings than --max-warnings (notes and
     silenced findings never count)
  1  at least one error, or more warnings than --max-warnings N
  2  bad usage, the project directory cannot be read, or --probe where hooks
     cannot be confined (without --probe-unconfined)`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				if c.Flags().Changed("dir") && opts.dir != args[0] {
					return withCode(exitBadInput, fmt.Errorf("doctor: the directory is given twice (%s and --dir %s)", args[0], opts.dir))
				}
				opts.dir = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return doctorRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.dir, "dir", ".", "the project `directory` (or give it as the argument)")
	f.BoolVar(&opts.user, "user", false, "also check each agent's user settings, in your home directory")
	f.BoolVar(&opts.probe, "probe", false, "run each pre-tool hook against canned calls in a temporary copy of the project")
	f.BoolVar(&opts.probeUnconfined, "probe-unconfined", false, "with --probe: run the hooks even where hookx cannot confine them (they run with your rights)")
	f.BoolVar(&opts.json, "json", false, "the same as --format json")
	f.StringVar(&opts.format, "format", "text", "the output `format`: text, json or sarif")
	f.StringSliceVar(&opts.ignore, "ignore", nil, "silence the findings of a rule (`ID` like HX412, or its name); repeatable")
	f.IntVar(&opts.maxWarnings, "max-warnings", -1, "exit 1 when more than `N` warnings remain (-1: no limit)")
	f.BoolVar(&opts.noInlineIgnore, "no-inline-ignore", false, "disregard hookx-ignore comments (for changes from people you do not trust)")
	f.BoolVar(&opts.rules, "rules", false, "list the rules (id, severity, consequence, name, what it finds) and exit")
	return cmd
}

func doctorRun(opts *doctorOptions) error {
	home := opts.home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if opts.rules {
		tw := tabwriter.NewWriter(opts.s.Out, 0, 0, 2, ' ', 0)
		for _, r := range doctor.Rules() {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Consequence, r.Name, r.Summary)
		}
		if err := tw.Flush(); err != nil {
			return withCode(exitInternal, err)
		}
		return nil
	}
	format := opts.format
	switch {
	case format == "":
		format = "text"
	case format != "text" && format != "json" && format != "sarif":
		return withCode(exitBadInput, fmt.Errorf("doctor: --format %s: want text, json or sarif", format))
	}
	if opts.json {
		if format != "text" && format != "json" {
			return withCode(exitBadInput, fmt.Errorf("doctor: --json and --format %s disagree", format))
		}
		format = "json"
	}
	for _, id := range opts.ignore {
		if _, ok := doctor.LookupRule(id); !ok {
			return withCode(exitBadInput, fmt.Errorf("doctor: --ignore %s: no such rule (hookx doctor --rules lists them)", id))
		}
	}
	if opts.probeUnconfined && !opts.probe {
		return withCode(exitBadInput, errors.New("doctor: --probe-unconfined needs --probe"))
	}
	var probeExec, probeWrap []string
	if opts.probe {
		self, err := os.Executable()
		if err == nil {
			probeWrap = []string{self, "wrap"}
		}
		if cerr := confine.Available(); cerr != nil || err != nil {
			if cerr == nil {
				cerr = err
			}
			if !opts.probeUnconfined {
				return withCode(exitBadInput, fmt.Errorf("doctor: refusing to probe: %v; the probed hooks are the project's code and would run with your rights (your files, your keys, the network). Run doctor without --probe, or pass --probe-unconfined to run them anyway", cerr))
			}
			fmt.Fprintf(opts.s.Err, "doctor: warning: probing unconfined (%v): the project's hooks run with your rights\n", cerr)
		} else {
			probeExec = []string{self, confine.HelperName}
		}
	}
	all, err := doctor.Check(doctor.Options{
		Table: mappings.Default(), Dir: opts.dir, Home: home,
		User: opts.user, Probe: opts.probe, Getenv: opts.getenv, HookxVersion: stampVersion(),
		ProbeExec: probeExec, ProbeUnconfined: opts.probeUnconfined, ProbeWrap: probeWrap,
		Ignore: opts.ignore, NoInlineIgnore: opts.noInlineIgnore,
	})
	if err != nil {
		return withCode(exitBadInput, fmt.Errorf("doctor: %w", err))
	}
	fs, silenced := doctor.Active(all)
	if lookedFor, found := doctor.Settings(doctor.Options{Table: mappings.Default(), Dir: opts.dir, Home: home, User: opts.user}); !found && format == "text" {
		// Silence would read as "all is well" where there is nothing to check.
		fmt.Fprintf(opts.s.Out, "no hook settings found in %s (looked for: %s)\n", opts.dir, strings.Join(lookedFor, ", "))
		return nil
	}
	switch format {
	case "json":
		doc := findings.New("doctor", fs)
		if silenced == nil {
			silenced = []doctor.Finding{}
		}
		doc.Doctor = doctorJSON{Silenced: silenced}
		if err := doc.Write(opts.s.Out); err != nil {
			return withCode(exitInternal, err)
		}
	case "sarif":
		bi, _ := debug.ReadBuildInfo()
		if err := doctor.WriteSARIF(opts.s.Out, all, opts.dir, versionString(version, bi)); err != nil {
			return withCode(exitInternal, err)
		}
	default:
		for _, f := range fs {
			io.WriteString(opts.s.Out, f.String()+"\n")
		}
		if len(all) > 0 {
			fmt.Fprintf(opts.s.Err, "%d error(s), %d warning(s), %d note(s)%s\n", doctor.Count(fs, doctor.Error), doctor.Count(fs, doctor.Warning), doctor.Count(fs, doctor.Note), silencedSummary(silenced))
		}
	}
	if doctor.Count(fs, doctor.Error) > 0 {
		return silentExit(exitChanges)
	}
	if n := doctor.Count(fs, doctor.Warning); opts.maxWarnings >= 0 && n > opts.maxWarnings {
		if format == "text" {
			fmt.Fprintf(opts.s.Err, "doctor: %d warning(s), more than --max-warnings %d\n", n, opts.maxWarnings)
		}
		return silentExit(exitChanges)
	}
	return nil
}

// doctorJSON is doctor's extras in its --json document.
type doctorJSON struct {
	Silenced []doctor.Finding `json:"silenced"`
}

// silencedSummary is the summary line's account of the silenced findings,
// so that a silenced error never goes without a trace: ", 2 silenced (1
// error, 1 warning)".
func silencedSummary(silenced []doctor.Finding) string {
	if len(silenced) == 0 {
		return ""
	}
	var parts []string
	for _, sev := range []doctor.Severity{doctor.Error, doctor.Warning, doctor.Note} {
		if n := doctor.Count(silenced, sev); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s(s)", n, sev))
		}
	}
	return fmt.Sprintf(", %d silenced (%s)", len(silenced), strings.Join(parts, ", "))
}

// settingsFiles lists each agent's project settings files, from the table,
// one indented line per agent, for help texts.
func settingsFiles() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, d := range mappings.Default().Dialects {
		files := []string{cmp.Or(d.Settings.ProjectGlob, d.Settings.Project)}
		if d.Settings.Local != "" {
			files = append(files, d.Settings.Local)
		}
		fmt.Fprintf(tw, "  %s\t%s\n", d.Agent, strings.Join(files, ", "))
	}
	tw.Flush()
	return b.String()
}
