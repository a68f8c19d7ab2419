package main

import (
	"github.com/hookx-dev/hookx/internal/wrapcli"
	"github.com/spf13/cobra"
)

func init() {
	extraCommands = append(extraCommands, func(s streams) *cobra.Command { return newSuperviseCmd(s, nil) })
}

// newSuperviseCmd is the background half of `hookx wrap` for a hook that
// asked not to be waited for. wrap starts it; people do not.
func newSuperviseCmd(s streams, runF func(*wrapcli.Supervise) error) *cobra.Command {
	opts := &wrapcli.Supervise{}
	cmd := &cobra.Command{
		Use:    "wrap-supervise --pgid N --bound DURATION",
		Short:  "Supervise a backgrounded hook (started by wrap)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.Check(); err != nil {
				return withCode(exitBadInput, err)
			}
			if runF != nil {
				return runF(opts)
			}
			return opts.Run()
		},
	}
	opts.AddFlags(cmd.Flags())
	return cmd
}
