package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hookx-dev/hookx/doctor"
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

	// home replaces the user's home directory; empty: os.UserHomeDir.
	home string
	// getenv replaces os.Getenv; tests set it.
	getenv func(string) string
}

func newDoctorCmd(s streams, runF func(*doctorOptions) error) *cobra.Command {
	opts := &doctorOptions{s: s}
	cmd := &cobra.Command{
		Use:   "doctor [DIR] [--user] [--probe] [--json]",
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
will do with each answer. No other hook is ever run.

Exit codes:
  0  no errors (warnings and notes may have been printed)
  1  at least one error
  2  bad usage, or the project directory cannot be read`,
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
	f.BoolVar(&opts.json, "json", false, `print {"findings":[...]} as JSON`)
	return cmd
}

func doctorRun(opts *doctorOptions) error {
	home := opts.home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	fs, err := doctor.Check(doctor.Options{
		Table: mappings.Default(), Dir: opts.dir, Home: home,
		User: opts.user, Probe: opts.probe, Getenv: opts.getenv,
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
