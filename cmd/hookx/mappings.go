package main

import (
	"fmt"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/spf13/cobra"
)

type mappingsOptions struct {
	s      streams
	format string
}

func newMappingsCmd(s streams, runF func(*mappingsOptions) error) *cobra.Command {
	opts := &mappingsOptions{s: s}
	cmd := &cobra.Command{
		Use:   "mappings [--format table|markdown|json]",
		Short: "Print the mapping table",
		Long: `mappings prints how every event and tool of each agent maps to the other,
with its mark: exact (same effect), approximate (close, with the stated
difference) or none (cannot be expressed). The README's compatibility table
is this command's markdown output.`,
		Example: `  hookx mappings
  hookx mappings --format markdown > COMPAT.md
  hookx mappings --format json | jq '.pairs["claude->gemini"][] | select(.mark=="none")'`,
		Args: cobra.NoArgs,
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

func mappingsRun(opts *mappingsOptions) error {
	t := mappings.Default()
	switch opts.format {
	case "table":
		return t.WriteText(opts.s.Out)
	case "markdown":
		return t.WriteMarkdown(opts.s.Out)
	case "json":
		return t.WriteJSON(opts.s.Out)
	}
	return withCode(exitBadInput, fmt.Errorf("--format must be table, markdown or json, not %q", opts.format))
}
