package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

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
		Long: `mappings prints how every event and tool of each agent maps to the other,
with its mark: exact (same effect), approximate (close, with the stated
difference) or none (cannot be expressed). The README's compatibility table
is this command's markdown output.

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

// pairRows are the rows of one ordered pair of dialects.
type pairRows struct {
	From, To *mappings.Dialect
	Rows     []mappings.Row
}

// mappingsFiltered prints the rows of every pair that name opts.name.
func mappingsFiltered(opts *mappingsOptions, t *mappings.Table) error {
	var found []pairRows
	for _, from := range t.Dialects {
		for _, to := range t.Dialects {
			if from == to {
				continue
			}
			p := pairRows{From: from, To: to}
			for _, r := range t.Rows(from, to) {
				if rowNames(r, opts.name) {
					p.Rows = append(p.Rows, r)
				}
			}
			if len(p.Rows) > 0 {
				found = append(found, p)
			}
		}
	}
	if len(found) == 0 {
		return withCode(exitBadInput, fmt.Errorf("no event or tool is named %q%s", opts.name, mappings.DidYouMean(opts.name, allNames(t))))
	}
	w := opts.s.Out
	switch opts.format {
	case "table":
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, p := range found {
			fmt.Fprintf(tw, "%s %s -> %s %s\nKIND\tFROM\tTO\tMARK\tLIVE\tNOTE\n", p.From.Agent, p.From.Version, p.To.Agent, p.To.Version)
			for _, r := range p.Rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Kind, r.From, cmpOr(r.To, "-"), r.Mark, liveCell(r.Verified), r.Note)
			}
			fmt.Fprintln(tw)
		}
		return tw.Flush()
	case "markdown":
		for _, p := range found {
			fmt.Fprintf(w, "#### %s %s → %s %s\n\n| | %s | %s | Mark | Seen live | Note |\n|---|---|---|---|---|---|\n",
				p.From.Agent, p.From.Version, p.To.Agent, p.To.Version, p.From.Agent, p.To.Agent)
			for _, r := range p.Rows {
				fmt.Fprintf(w, "| %s | `%s` | %s | %s | %s | %s |\n", r.Kind, r.From, codeOrDash(r.To), r.Mark, liveCell(r.Verified), strings.ReplaceAll(r.Note, "|", `\|`))
			}
			fmt.Fprintln(w)
		}
		return nil
	case "json":
		out := map[string][]mappings.Row{}
		for _, p := range found {
			out[p.From.Name+"->"+p.To.Name] = p.Rows
		}
		return writeJSON(w, map[string]any{"name": opts.name, "pairs": out})
	}
	return badFormat(opts.format)
}

// rowNames reports whether either side of r is name; a side may read
// "Agent (Task)", a name and its aliases.
func rowNames(r mappings.Row, name string) bool {
	for _, side := range []string{r.From, r.To} {
		for _, n := range strings.FieldsFunc(side, func(c rune) bool { return c == ' ' || c == '(' || c == ')' || c == ',' }) {
			if n == name {
				return true
			}
		}
	}
	return false
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

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// liveCell spells Row.Verified as the full table does.
func liveCell(v string) string {
	switch v {
	case "live":
		return "yes"
	case "unverified":
		return "UNVERIFIED"
	}
	return "-"
}

func codeOrDash(s string) string {
	if s == "" {
		return "—"
	}
	return "`" + s + "`"
}
