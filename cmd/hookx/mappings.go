package main

import (
	"github.com/spf13/cobra"
)

type mappingsOptions struct {
	s      streams
	format string
}

func newMappingsCmd(s streams, runF func(*mappingsOptions) error) *cobra.Command {
	opts := &mappingsOptions{s: s}
	cmd := &cobra.Command{
		Use:   "mappings",
		Short: "Print the mapping table",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(opts)
			}
			return mappingsRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "table", "output format: table, markdown or json")
	return cmd
}

func mappingsRun(opts *mappingsOptions) error { return nil }
