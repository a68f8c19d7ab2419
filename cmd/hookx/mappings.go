package main

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/spf13/cobra"
)

type mappingsOptions struct {
	s      streams
	format string
	asJSON bool
	// filter selects rows: a pair of dialects, an event or tool name.
	filter mappings.Filter
	// event and tool are the --event and --tool flags.
	event, tool string
}

func newMappingsCmd(s streams, runF func(*mappingsOptions) error) *cobra.Command {
	opts := &mappingsOptions{s: s}
	cmd := &cobra.Command{
		Use:   "mappings [NAME] [--from D] [--to D] [--event E] [--tool T] [--format table|markdown|json] [--json]",
		Short: "Print the mapping table",
		Long: `mappings prints how every event and tool of each agent maps to every
other agent of the table, pair by pair, with its mark: exact (same effect),
approximate (close, with the stated difference) or none (cannot be
expressed). The compatibility tables of docs/ (one column per agent in
docs/compatibility.md, every pair into an agent on its page) are generated
from the same table (go run ./scripts/readme-table).

With NAME, only the rows naming that event or tool (on either side, aliases
included) are printed; --event E and --tool T do the same for an event or a
tool only. --from and --to keep the pairs from and to those agents (` + strings.Join(dialectNames(), ", ") + `).
An unknown name is an error (exit 2) with the closest known name.`,
		Example: `  hookx mappings
  hookx mappings PreToolUse
  hookx mappings --from claude --to codex --tool Bash
  hookx mappings --to copilot --event PreToolUse --json
  hookx mappings run_shell_command --format json
  hookx mappings --format markdown > COMPAT.md
  hookx mappings --format json | jq '.pairs["claude->gemini"][] | select(.mark=="none")'`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return allNames(mappings.Default(), ""), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.filter.Name = args[0]
			}
			if opts.asJSON {
				if c.Flags().Changed("format") && opts.format != "json" {
					return withCode(exitBadInput, fmt.Errorf("--json and --format %s cannot be combined", opts.format))
				}
				opts.format = "json"
			}
			if runF != nil {
				return runF(opts)
			}
			return mappingsRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "table", "output format: table, markdown or json")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print JSON (as --format json)")
	cmd.Flags().StringVar(&opts.filter.From, "from", "", "only the pairs from this agent's hooks")
	cmd.Flags().StringVar(&opts.filter.To, "to", "", "only the pairs to this host agent")
	cmd.Flags().StringVar(&opts.event, "event", "", "only the rows of this event (any agent's name for it)")
	cmd.Flags().StringVar(&opts.tool, "tool", "", "only the rows of this tool (any agent's name for it)")
	cmd.MarkFlagsMutuallyExclusive("event", "tool")
	return cmd
}

func mappingsRun(opts *mappingsOptions) error {
	t := mappings.Default()
	f := &opts.filter
	for _, d := range []string{f.From, f.To} {
		if _, err := t.Dialect(d); d != "" && err != nil {
			return withCode(exitBadInput, fmt.Errorf("unknown agent %q%s (known: %s)", d, mappings.DidYouMean(d, dialectNames()), strings.Join(dialectNames(), ", ")))
		}
	}
	if f.From != "" && f.From == f.To {
		return withCode(exitBadInput, fmt.Errorf("--from and --to are both %s: the table maps an agent to the others", f.From))
	}
	for kind, name := range map[string]string{"event": opts.event, "tool": opts.tool} {
		if name == "" {
			continue
		}
		if f.Name != "" {
			return withCode(exitBadInput, fmt.Errorf("name the %s once: NAME or --%s", kind, kind))
		}
		f.Kind, f.Name = kind, name
	}
	if *f != (mappings.Filter{}) {
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

// mappingsFiltered prints only the rows opts.filter keeps.
func mappingsFiltered(opts *mappingsOptions, t *mappings.Table) error {
	f := opts.filter
	pairs := t.Pairs(f)
	if len(pairs) == 0 {
		what := cmp.Or(f.Kind, "event or tool")
		return withCode(exitBadInput, fmt.Errorf("no %s is named %q%s", what, f.Name, mappings.DidYouMean(f.Name, allNames(t, f.Kind))))
	}
	switch opts.format {
	case "table":
		return t.WriteTextOf(opts.s.Out, f)
	case "markdown":
		return t.WriteMarkdownOf(opts.s.Out, f)
	case "json":
		return writeJSON(opts.s.Out, struct {
			mappings.Filter
			Pairs map[string][]mappings.Row `json:"pairs"`
		}{f, pairs})
	}
	return badFormat(opts.format)
}

// allNames lists every event, tool and alias name of every dialect, or
// only the events or the tools when kind says so.
func allNames(t *mappings.Table, kind string) []string {
	var names []string
	for _, d := range t.Dialects {
		if kind != "tool" {
			names = append(names, d.EventNames()...)
		}
		if kind != "event" {
			names = append(names, d.ToolNames()...)
		}
	}
	return names
}
