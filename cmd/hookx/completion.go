package main

import (
	"strings"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/spf13/cobra"
)

// fixedValues completes a flag with a fixed list.
func fixedValues(vals ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

// dialectNames are the dialects of the mapping table, in its order.
func dialectNames() []string { return mappings.Default().DialectNames() }

// dialectList names each dialect with its agent, for help texts.
func dialectList() string {
	var out []string
	for _, d := range mappings.Default().Dialects {
		out = append(out, d.Name+" ("+d.Agent+" "+d.Version+")")
	}
	return strings.Join(out, ", ")
}

// agentsWhere names, from the table, the agents whose dialect keep
// accepts, for help texts: "Gemini CLI, Qwen Code and TerminaI".
func agentsWhere(keep func(*mappings.Dialect) bool) string {
	var out []string
	for _, d := range mappings.Default().Dialects {
		if keep(d) {
			out = append(out, d.Agent)
		}
	}
	if len(out) < 2 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

// eventsOf completes an event flag with the events of the dialect named by
// the command's dialectFlag (every dialect's events when it is not set yet).
func eventsOf(dialectFlag string) cobra.CompletionFunc {
	return namesOf(dialectFlag, (*mappings.Dialect).EventNames)
}

// toolsOf completes a tool flag with the tools of the dialect named by the
// command's dialectFlag (every dialect's tools when it is not set yet).
func toolsOf(dialectFlag string) cobra.CompletionFunc {
	return namesOf(dialectFlag, (*mappings.Dialect).ToolNames)
}

// namesOf completes a flag with the names of the dialect named by the
// command's dialectFlag, or of every dialect when it is not set yet.
func namesOf(dialectFlag string, names func(*mappings.Dialect) []string) cobra.CompletionFunc {
	return func(c *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		name, _ := c.Flags().GetString(dialectFlag)
		var out []string
		for _, d := range mappings.Default().Dialects {
			if name != "" && d.Name != name {
				continue
			}
			for _, n := range names(d) {
				if strings.HasPrefix(n, prefix) {
					out = append(out, n)
				}
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// flagCompletions are the value completions of hookx's flags, by flag
// name; a flag of that name on any command gets them, so a new command's
// flags are completed without a list to keep up to date.
func flagCompletions() map[string]cobra.CompletionFunc {
	dialects := dialectNames()
	return map[string]cobra.CompletionFunc{
		"from":       fixedValues(dialects...),
		"to":         fixedValues(dialects...),
		"host":       fixedValues(append([]string{"auto"}, dialects...)...),
		"ask":        fixedValues("deny", "ask"),
		"format":     fixedValues("table", "markdown", "json"),
		"event":      eventsOf("from"),
		"tool":       toolsOf("from"),
		"host-event": eventsOf("to"),
	}
}

// registerCompletions attaches flagCompletions to every command under root.
func registerCompletions(root *cobra.Command) {
	comps := flagCompletions()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, f := range comps {
			if c.LocalNonPersistentFlags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, f)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
