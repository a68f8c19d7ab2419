package main

import (
	"bytes"
	"cmp"
	"regexp"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
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
	root := newRootCmd(streams{}, nil)
	// cobra adds these two at Execute: walk them too.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	walk(root)
}

// TestDialectErrorsNameEveryAgent: each flag that takes a dialect, given
// one the table lacks, answers with every dialect of the table.
func TestDialectErrorsNameEveryAgent(t *testing.T) {
	for _, args := range [][]string{
		{"wrap", "--from", "nope", "--", "true"},
		{"wrap", "--from", "claude", "--host", "nope", "--", "true"},
		{"migrate", "--from", "nope", "--to", "gemini", "--dry-run"},
		{"migrate", "--from", "claude", "--to", "nope", "--dry-run"},
		{"migrate", "--to", "codex", "--dry-run"},
		{"translate", "event", "--from", "nope", "--to", "claude"},
		{"translate", "event", "--from", "claude", "--to", "nope"},
		{"translate", "result", "--from", "nope", "--to", "claude", "--event", "PreToolUse"},
		{"mappings", "--from", "nope"},
		{"mappings", "--to", "nope"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(args, strings.NewReader(""), &out, &errb); code != exitBadInput {
				t.Fatalf("exit %d, want %d\nstderr: %s", code, exitBadInput, errb.String())
			}
			for _, name := range mappings.Default().DialectNames() {
				if !regexp.MustCompile(`\b` + name + `\b`).MatchString(errb.String()) {
					t.Errorf("the error does not name %s: %s", name, errb.String())
				}
			}
		})
	}
}

// TestHelpAgentListsFollowTheTable: where a help text lists the agents
// that have some property, it lists exactly those the table gives it.
// doctor's lists of the files that take comments and of the strict-JSON
// ones were written by hand, and kept Factory Droid, whose file takes
// comments (and hookx-ignore), among the strict ones.
func TestHelpAgentListsFollowTheTable(t *testing.T) {
	var out bytes.Buffer
	root := newRootCmd(streams{Out: &out, Err: &out}, nil)
	doctor, _, err := root.Find([]string{"doctor"})
	if err != nil {
		t.Fatal(err)
	}
	doctor.SetOut(&out)
	if err := doctor.Help(); err != nil {
		t.Fatal(err)
	}
	help := strings.Join(strings.Fields(out.String()), " ")
	for _, c := range []struct {
		from, to string
		want     func(*mappings.Dialect) bool
	}{
		{"whose agent accepts comments (", ")", func(d *mappings.Dialect) bool { return !d.Settings.StrictJSON }},
		{"The files of ", " are strict JSON", func(d *mappings.Dialect) bool { return d.Settings.StrictJSON }},
	} {
		_, rest, ok := strings.Cut(help, c.from)
		list, _, ok2 := strings.Cut(rest, c.to)
		if !ok || !ok2 {
			t.Errorf("hookx doctor --help has no %q…%q", c.from, c.to)
			continue
		}
		var got, want []string
		for _, d := range mappings.Default().Dialects {
			if strings.Contains(list, d.Agent) {
				got = append(got, d.Name)
			}
			if c.want(d) {
				want = append(want, d.Name)
			}
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("hookx doctor --help, %q…%q lists %q (-table +help):\n%s", c.from, c.to, list, diff)
		}
	}
}
