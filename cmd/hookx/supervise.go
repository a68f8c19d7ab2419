package main

import (
	"errors"
	"time"

	"github.com/hookx-dev/hookx/wrap"
	"github.com/spf13/cobra"
)

type superviseOptions struct {
	pgid  int
	bound time.Duration
	grace time.Duration
	files int
}

func init() {
	extraCommands = append(extraCommands, func(s streams) *cobra.Command { return newSuperviseCmd(s, nil) })
}

// newSuperviseCmd is the background half of `hookx wrap` for a hook that
// asked not to be waited for. wrap starts it; people do not.
func newSuperviseCmd(s streams, runF func(*superviseOptions) error) *cobra.Command {
	opts := &superviseOptions{}
	cmd := &cobra.Command{
		Use:    "wrap-supervise --pgid N --bound DURATION",
		Short:  "Supervise a backgrounded hook (started by wrap)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.pgid <= 1 || opts.bound <= 0 {
				return withCode(exitBadInput, errors.New("--pgid and --bound are required"))
			}
			if runF != nil {
				return runF(opts)
			}
			return superviseRun(opts)
		},
	}
	cmd.Flags().IntVar(&opts.pgid, "pgid", 0, "the hook's process group")
	cmd.Flags().DurationVar(&opts.bound, "bound", 0, "how long the hook may run")
	cmd.Flags().DurationVar(&opts.grace, "grace", wrap.DefaultKillGrace, "SIGTERM to SIGKILL")
	cmd.Flags().IntVar(&opts.files, "files", 2, "the hook's output pipes, from fd 3")
	return cmd
}

func superviseRun(opts *superviseOptions) error {
	return wrap.Supervise(opts.pgid, opts.bound, opts.grace, opts.files)
}
