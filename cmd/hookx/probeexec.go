package main

import (
	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/spf13/cobra"
)

func init() {
	extraCommands = append(extraCommands, func(s streams) *cobra.Command { return newProbeExecCmd(s) })
}

// newProbeExecCmd is the confined half of `hookx doctor --probe`: doctor
// starts it for each probed hook; it confines itself (Landlock) and execs
// the hook. People do not run it.
func newProbeExecCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:                confine.HelperName + " [--write DIR] [--hide DIR] [--read DIR] -- COMMAND [ARG...]",
		Short:              "Run a probed hook confined (started by doctor --probe)",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			// Main returns only when the hook could not be started confined.
			return withCode(exitInternal, confine.Main(args))
		},
	}
}
