package main

import (
	"fmt"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/spf13/cobra"
)

type mappingsOptions struct {
	s      streams
	format string
	// name filters the table to the rows naming this event or tool.
	name string
}

func newMappingsCmd(s streams, runF func(*mappingsOptions) error) *cobra.Command {
	opts := &mappingsOptions{s: s}
	cmd := &cobra.Command{
		Use:   "mappings [NAME] [--format table|markdown|json]",
		Short: "Print the mapping table",
		Long: `mappings prints how every event and tool of each agent maps to every
other agent of the table, pair by pair, with its mark: exact (same effect),
approximate (close, with the stated difference) or none (cannot be
expressed). The README's compatibility table, one column per agent, is
generated from the same table (go run ./scripts/readme-table).

With NAME, only the rows naming that event or tool (on either side, aliases
included) are printed; an unknown name is an error (exit 2) with the closest
known name.`,
		Example: `  hookx mappings
  hookx mappings PreToolUse
  hookx mappings run_shell_command --format json
  hookx mappings --format markdown > COMPAT.md
  hookx mappings --format json | jq '.pairs["claude->gemini"][] | select(.mark=="none")'`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return allNames(mappings.Default()), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.name = args[0]
			}
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
	if opts.name != "" {
		return mappingsFiltered(opts, t)
	}
	switch opts.format {
	case "table":
		return t.WriteText(opts.s.Out)
	case "markdown":
		return t.WriteMarkdown(opts.s.Out)
	case "json":
		return t.WriteJSON(opts.s.Out)
	}
	return badFormat(opts.format)
}

func badFormat(f string) error {
	return withCode(exitBadInput, fmt.Errorf("--format must be table, markdown or json, not %q", f))
}

// mappingsFiltered prints only the rows that name opts.name.
func mappingsFiltered(opts *mappingsOptions, t *mappings.Table) error {
	keep := func(r mappings.Row) bool { return r.Names(opts.name) }
	pairs := map[string][]mappings.Row{}
	for _, from := range t.Dialects {
		for _, to := range t.Dialects {
			if from == to {
				continue
			}
			for _, r := range t.Rows(from, to) {
				if keep(r) {
					pairs[from.Name+"->"+to.Name] = append(pairs[from.Name+"->"+to.Name], r)
				}
			}
		}
	}
	if len(pairs) == 0 {
		return withCode(exitBadInput, fmt.Errorf("no event or tool is named %q%s", opts.name, mappings.DidYouMean(opts.name, allNames(t))))
	}
	switch opts.format {
	case "table":
		return t.WriteTextOf(opts.s.Out, keep)
	case "markdown":
		return t.WriteMarkdownOf(opts.s.Out, keep)
	case "json":
		return writeJSON(opts.s.Out, map[string]any{"name": opts.name, "pairs": pairs})
	}
	return badFormat(opts.format)
}

// allNames lists every event, tool and alias name of every dialect.
func allNames(t *mappings.Table) []string {
	var names []string
	for _, d := range t.Dialects {
		names = append(names, d.EventNames()...)
		names = append(names, d.ToolNames()...)
	}
	return names
}
