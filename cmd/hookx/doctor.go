package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hookx-dev/hookx/doctor"
	"github.com/hookx-dev/hookx/internal/confine"
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
		Use:   "doctor [DIR] [--user] [--probe [--probe-unconfined]] [--json]",
		Short: "Find the hooks that will never fire, fail open, or be rejected",
		Long: `doctor reads every hook settings file hookx knows (.claude/settings.json,
.claude/settings.local.json, .gemini/settings.json; with --user also the ones
in your home directory), each with the rules of the agent that loads it, and
reports each problem in the style of go vet:

  file:line:col: severity: what; why; fix

error: the hook will never fire, will fail open, or the agent rejects the
file; warning: it fires, but not as its author probably meant; note: for
information.

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
  0  no errors (warnings and notes may have been printed)
  1  at least one error
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
	f.BoolVar(&opts.user, "user", false, "also check the user settings (~/.claude, ~/.gemini)")
	f.BoolVar(&opts.probe, "probe", false, "run each pre-tool hook against canned calls in a temporary copy of the project")
	f.BoolVar(&opts.probeUnconfined, "probe-unconfined", false, "with --probe: run the hooks even where hookx cannot confine them (they run with your rights)")
	f.BoolVar(&opts.json, "json", false, `print {"findings":[...]} as JSON`)
	return cmd
}

func doctorRun(opts *doctorOptions) error {
	home := opts.home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if opts.probeUnconfined && !opts.probe {
		return withCode(exitBadInput, errors.New("doctor: --probe-unconfined needs --probe"))
	}
	var probeExec []string
	if opts.probe {
		self, err := os.Executable()
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
	fs, err := doctor.Check(doctor.Options{
		Table: mappings.Default(), Dir: opts.dir, Home: home,
		User: opts.user, Probe: opts.probe, Getenv: opts.getenv,
		ProbeExec: probeExec, ProbeUnconfined: opts.probeUnconfined,
	})
	if err != nil {
		return withCode(exitBadInput, fmt.Errorf("doctor: %w", err))
	}
	if lookedFor, found := doctor.Settings(doctor.Options{Table: mappings.Default(), Dir: opts.dir, Home: home, User: opts.user}); !found && !opts.json {
		// Silence would read as "all is well" where there is nothing to check.
		fmt.Fprintf(opts.s.Out, "no hook settings found in %s (looked for: %s)\n", opts.dir, strings.Join(lookedFor, ", "))
		return nil
	}
	if opts.json {
		enc := json.NewEncoder(opts.s.Out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Findings []doctor.Finding `json:"findings"`
		}{fs}); err != nil {
			return withCode(exitInternal, err)
		}
	} else {
		for _, f := range fs {
			io.WriteString(opts.s.Out, f.String()+"\n")
		}
		if n := doctor.Count(fs, doctor.Error); n > 0 || len(fs) > 0 {
			fmt.Fprintf(opts.s.Err, "%d error(s), %d warning(s), %d note(s)\n", n, doctor.Count(fs, doctor.Warning), doctor.Count(fs, doctor.Note))
		}
	}
	if doctor.Count(fs, doctor.Error) > 0 {
		return silentExit(exitChanges)
	}
	return nil
}
