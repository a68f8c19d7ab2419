package main

import (
	"fmt"
	"runtime/debug"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = ""

func newVersionCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print hookx's version and the agent versions its table targets",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			v := version
			if v == "" {
				v = "devel"
				if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
					v = bi.Main.Version
				}
			}
			fmt.Fprintf(s.Out, "hookx %s\n", v)
			for _, d := range mappings.Default().Dialects {
				fmt.Fprintf(s.Out, "  %s: %s %s\n", d.Name, d.Agent, d.Version)
			}
			return nil
		},
	}
}
