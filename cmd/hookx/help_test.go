package main

import (
	"bytes"
	"cmp"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/hookx-dev/hookx/mappings"
)

// TestHelpNamesEveryAgent: the help of every command that names one agent
// of the table, or one agent's settings file, names them all, so that help
// written when hookx knew two agents does not go on describing a
// two-agent tool.
func TestHelpNamesEveryAgent(t *testing.T) {
	tbl := mappings.Default()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		var out bytes.Buffer
		c.SetOut(&out)
		c.SetErr(&out)
		if err := c.Help(); err != nil {
			t.Fatal(err)
		}
		help := out.String()
		var named, missing []string
		for _, d := range tbl.Dialects {
			re := regexp.MustCompile(`(?i)\b(` + regexp.QuoteMeta(d.Name) + `|` + regexp.QuoteMeta(d.Agent) + `)\b`)
			if re.MatchString(help) {
				named = append(named, d.Name)
			} else {
				missing = append(missing, d.Name)
			}
		}
		if len(named) > 0 && len(missing) > 0 {
			t.Errorf("hookx %s --help names %s but not %s", strings.TrimPrefix(c.CommandPath(), "hookx "), strings.Join(named, ", "), strings.Join(missing, ", "))
		}
		// The same for the settings files: one named, all named.
		named, missing = nil, nil
		for _, d := range tbl.Dialects {
			if f := cmp.Or(d.Settings.ProjectGlob, d.Settings.Project); strings.Contains(help, f) {
				named = append(named, f)
			} else {
				missing = append(missing, f)
			}
		}
		if len(named) > 0 && len(missing) > 0 {
			t.Errorf("hookx %s --help names the settings files %s but not %s", strings.TrimPrefix(c.CommandPath(), "hookx "), strings.Join(named, ", "), strings.Join(missing, ", "))
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(streams{}, nil))
}
