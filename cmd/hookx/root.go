package main

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// streams are the standard streams a command reads and writes; tests pass
// buffers.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
}

// exitError carries an exit code out of a command's RunE.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// withCode wraps err so that run exits with code.
func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// silentExit makes run exit with code without printing anything.
type silentExit int

func (s silentExit) Error() string { return fmt.Sprintf("exit %d", int(s)) }

// newRootCmd builds the command tree for args. `hookx wrap` runs on every
// hook call, so for it the tree holds wrap alone: building every command
// and its flags would be paid on the host's critical path.
func newRootCmd(s streams, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "hookx",
		Short: "Make agent hooks portable between AI coding agents",
		Long: `hookx runs a hook written for one agent under another (wrap), migrates
hook settings between agents (migrate), checks them (doctor), and translates
single payloads (translate), all driven by one mapping table (mappings).

` + exitCodesHelp,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	addColorFlag(root)
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	if len(args) > 0 && args[0] == "wrap" {
		// Nor do wrap's arguments reach --version (the root's flag alone,
		// which reads the build information) or the completion command.
		root.CompletionOptions.DisableDefaultCmd = true
		root.AddCommand(newWrapCmd(s, nil))
		return root
	}
	bi, _ := debug.ReadBuildInfo()
	root.Version = versionString(version, bi)
	root.SetVersionTemplate("hookx {{.Version}}\n")
	root.AddCommand(
		newVersionCmd(s),
		newMappingsCmd(s, nil),
		newTranslateCmd(s),
	)
	for _, add := range extraCommands {
		root.AddCommand(add(s))
	}
	registerCompletions(root)
	return root
}

// extraCommands lets each command file register itself, so that commands
// developed side by side do not edit one list.
var extraCommands []func(streams) *cobra.Command

// run executes hookx with args and returns the process exit code; main
// exits with it at once.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &countingWriter{w: stdout}
	s := streams{In: stdin, Out: out, Err: stderr}
	if opts, ok := parseWrapDirect(args, s); ok {
		// A hook call: no command tree (see parseWrapDirect), and the
		// process exits once it returns (main). wrap has no --json.
		opts.Exits = true
		return exitCode(executeWrap(opts), false, out, stdout, stderr)
	}
	root := newRootCmd(s, args)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	asJSON := false
	if err != nil {
		asJSON, _ = cmd.Flags().GetBool("json")
	}
	return exitCode(err, asJSON, out, stdout, stderr)
}

// exitCode reports a command's error on stderr (on stdout too, as JSON, for
// --json when the command printed nothing) and returns its exit code.
func exitCode(err error, asJSON bool, out *countingWriter, stdout, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var silent silentExit
	if errors.As(err, &silent) {
		return int(silent)
	}
	code := exitBadInput // flag parsing and argument checks: usage errors
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	fmt.Fprintf(stderr, "hookx: %v\n", err)
	if asJSON && out.n == 0 {
		// A tool reading --json output gets JSON for errors too, with the
		// same exit code; when the command already printed its JSON, that
		// object stands and the error goes to stderr only.
		_ = writeJSON(stdout, map[string]any{"error": err.Error(), "exitCode": code})
	}
	return code
}

// countingWriter counts what a command wrote to stdout.
type countingWriter struct {
	w io.Writer
	n int64
}

// Unwrap returns the writer it counts for (isTerminal looks through it).
func (c *countingWriter) Unwrap() io.Writer { return c.w }

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
