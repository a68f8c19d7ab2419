package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookx-dev/hookx/hooktest"
	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/spf13/cobra"
)

func init() {
	extraCommands = append(extraCommands, func(s streams) *cobra.Command { return newTestCmd(s, nil) })
}

type testOptions struct {
	s streams

	file       string
	dir        string
	json       bool
	junit      string
	schema     bool
	init       bool
	unconfined bool
	live       bool
}

// defaultTestFile is the file hookx test reads, and --init writes, by default.
const defaultTestFile = "hookx-test.jsonc"

func newTestCmd(s streams, runF func(*testOptions) error) *cobra.Command {
	opts := &testOptions{s: s}
	cmd := &cobra.Command{
		Use:   "test [FILE] [--dir DIR] [--json] [--junit FILE] | --init | --schema",
		Short: "Test hooks against every agent: what each host does with their answer",
		Long: `test runs the cases of a test file (default ` + defaultTestFile + `; JSONC, the
format --schema prints). A case names a hook (a command and the dialect it
was written for, or a hook of one of the project's settings files by event
and matcher), an event (shell with a command, write with a path, prompt,
stop, or an inline payload in any dialect) and the outcome expected: deny
(with a reason pattern), allow, ask, context (containing a text), rewrite
(to the given input) or continue.

For each case and each host (by default every agent that has the event and
the tool), test builds the event as that host sends it, runs the hook
through hookx wrap as that host would, confined to a throwaway copy of the
project with its own home and no network (as doctor --probe does), and
reads the answer with that host's own rules. It prints a matrix of cases by
hosts, each cell ok or FAIL with what the host does, then each failure.

--init writes a starter file for the project's hooks: rm -rf, a write to
.env, curl | sh, git push --force and a secret in a prompt, with a harmless
control for each, expecting what each hook does today under its own agent.

Exit codes: 0 every case passed; 1 a case failed; 2 bad usage or an
unreadable test file; 3 an I/O or internal error.`,
		Example: `  hookx test --init
  hookx test
  hookx test guards.jsonc --junit report.xml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = defaultTestFile
			if len(args) == 1 {
				opts.file = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return testRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.dir, "dir", ".", "the project: settings hooks are read here, and every hook runs in a copy of it")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the results as JSON")
	cmd.Flags().StringVar(&opts.junit, "junit", "", "also write JUnit XML to this file")
	cmd.Flags().BoolVar(&opts.schema, "schema", false, "print the JSON Schema of a test file")
	cmd.Flags().BoolVar(&opts.init, "init", false, "write a starter test file for the project's hooks (FILE, default "+defaultTestFile+")")
	cmd.Flags().BoolVar(&opts.unconfined, "unconfined", false, "run the hooks where they cannot be confined, with your rights")
	cmd.Flags().BoolVar(&opts.live, "live", false, "run the cases in the real agents, confined and offline, with a scripted fake model (installs the pinned agents on first use)")
	return cmd
}

func testRun(opts *testOptions) error {
	if opts.live && (opts.schema || opts.init) {
		return withCode(exitBadInput, errors.New("test: --live runs a test file; it does not go with --schema or --init"))
	}
	if opts.schema {
		_, err := opts.s.Out.Write(hooktest.Schema)
		return err
	}
	ropts := hooktest.Options{Table: mappings.Default(), Dir: opts.dir}
	self, err := os.Executable()
	if err != nil {
		return withCode(exitInternal, fmt.Errorf("test: %w", err))
	}
	ropts.Wrap = []string{self, "wrap"}
	// --live: each agent, and the hooks it runs, confined as a hook is,
	// in an empty network namespace where only the fake model listens.
	var liveErr error
	if opts.live {
		liveErr = confine.IsolationAvailable()
	}
	if liveErr != nil && !opts.unconfined {
		return withCode(exitBadInput, fmt.Errorf("test: refusing --live: %v: %v. Pass --unconfined to run it anyway: the agents and the project's hooks then run with your rights, in a throwaway home, offline but for the fake model", hooktest.ErrLiveConfined, liveErr))
	}
	if cerr := confine.Available(); cerr != nil {
		if !opts.unconfined {
			return withCode(exitBadInput, fmt.Errorf("test: refusing to run the hooks: %v; they are the project's code and would run with your rights (your files, your keys, the network). Pass --unconfined to run them anyway", cerr))
		}
		fmt.Fprintf(opts.s.Err, "test: warning: running unconfined (%v): the project's hooks run with your rights\n", cerr)
		ropts.Unconfined = true
	} else {
		ropts.Exec = []string{self, confine.HelperName}
	}
	ropts.Home, _ = os.UserHomeDir()
	if opts.live {
		if liveErr != nil {
			fmt.Fprintf(opts.s.Err, "test: warning: --live runs unconfined (%v): the agents and the project's hooks run with your rights (in a throwaway home), and a case's command the hook lets through really runs, network included\n", liveErr)
			ropts.Unconfined = true
		}
		ropts.Live = &hooktest.Live{Hookx: self}
	}
	if opts.init {
		return testInit(opts, ropts)
	}
	path := opts.file
	if !filepath.IsAbs(path) && opts.dir != "." {
		if _, err := os.Stat(path); err != nil {
			path = filepath.Join(opts.dir, path)
		}
	}
	data, err := safefile.ReadRegular(path, 16<<20)
	if err != nil {
		return withCode(exitBadInput, fmt.Errorf("test: %w", err))
	}
	f, err := hooktest.Parse(opts.file, data, ropts.Table)
	if err != nil {
		return withCode(exitBadInput, fmt.Errorf("test: %w", err))
	}
	cells, err := hooktest.Run(f, ropts)
	if errors.Is(err, hooktest.ErrLiveInstall) {
		return withCode(exitInternal, fmt.Errorf("test --live: %w", err))
	}
	if err != nil {
		return withCode(exitBadInput, fmt.Errorf("test: %w", err))
	}
	if opts.junit != "" {
		var b bytes.Buffer
		if err := hooktest.WriteJUnit(&b, cells); err != nil {
			return withCode(exitInternal, err)
		}
		if err := os.WriteFile(opts.junit, b.Bytes(), 0o644); err != nil {
			return withCode(exitInternal, fmt.Errorf("test: %w", err))
		}
	}
	if opts.json {
		if err := hooktest.WriteJSON(opts.s.Out, cells); err != nil {
			return withCode(exitInternal, err)
		}
	} else {
		hooktest.WriteMatrix(opts.s.Out, cells)
	}
	if hooktest.Failed(cells) > 0 {
		return silentExit(exitChanges)
	}
	return nil
}

func testInit(opts *testOptions, ropts hooktest.Options) error {
	path := opts.file
	if !filepath.IsAbs(path) {
		path = filepath.Join(opts.dir, path)
	}
	if _, err := os.Lstat(path); err == nil {
		return withCode(exitBadInput, fmt.Errorf("test --init: %s exists; remove it or name another file", path))
	} else if !errors.Is(err, os.ErrNotExist) {
		return withCode(exitInternal, fmt.Errorf("test --init: %w", err))
	}
	b, err := hooktest.Init(ropts)
	if err != nil {
		return withCode(exitBadInput, fmt.Errorf("test --init: %w", err))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return withCode(exitInternal, fmt.Errorf("test --init: %w", err))
	}
	fmt.Fprintf(opts.s.Err, "test --init: wrote %s; run hookx test\n", path)
	return nil
}
