package migrate

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// A matcher naming the search, fetch and notebook tools is carried between
// Claude Code or Gemini CLI and Qwen Code or Factory Droid, both ways: the
// migrated matcher fires on exactly the target's tools for the same
// concepts, and a tool the target lacks is reported with the table's reason,
// not dropped silently.
func TestToolMatchersCarryBetweenClaudeGeminiAndQwenDroid(t *testing.T) {
	tab := mappings.Default()
	cases := []struct {
		from, to, matcher string
		want              []string // the target's tools the migrated matcher fires on
		reported          []string // texts the report must hold
	}{
		{"claude", "qwen", "Glob|Grep|WebFetch|NotebookEdit", []string{"glob", "grep_search", "notebook_edit", "web_fetch"}, nil},
		{"claude", "droid", "Glob|Grep|WebFetch", []string{"FetchUrl", "Glob", "Grep"}, nil},
		{"claude", "droid", "Glob|NotebookEdit", []string{"Glob"}, []string{"NotebookEdit has no Factory Droid counterpart (Factory Droid has no notebook tool"}},
		{"claude", "qwen", "Grep|TodoWrite", []string{"grep_search"}, []string{"TodoWrite has no Qwen Code counterpart (Qwen Code's todo_write is not registered"}},
		{"gemini", "qwen", "list_directory|glob|grep_search|web_fetch", []string{"glob", "grep_search", "list_directory", "web_fetch"}, nil},
		{"gemini", "droid", "list_directory|glob|grep_search", []string{"Glob", "Grep", "LS"}, nil},
		{"qwen", "claude", "glob|grep_search|web_fetch", []string{"Glob", "Grep", "WebFetch"}, nil},
		{"qwen", "gemini", "glob|grep_search", []string{"glob", "grep_search"}, nil},
		{"droid", "claude", "Glob|Grep|FetchUrl|Skill|Task", []string{"Agent", "Glob", "Grep", "Skill", "WebFetch"}, nil},
		{"droid", "gemini", "Glob|Grep|LS", []string{"glob", "grep_search", "list_directory"}, nil},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s-%s-to-%s", c.from, c.matcher, c.to), func(t *testing.T) {
			event := "PreToolUse"
			if c.from == "gemini" {
				event = "BeforeTool"
			}
			group := fmt.Sprintf(`{%q:[{"matcher":%q,"hooks":[{"type":"command","command":"./g.sh"}]}]}`, event, c.matcher)
			src := `{"hooks":` + group + `}`
			if c.from == "droid" {
				src = group // Droid's events sit at the root
			}
			res := planFor(t, Options{From: c.from, To: c.to, Wrap: true}, src, nil)
			if len(res.Entries) != 1 || res.Entries[0].Matcher == nil {
				t.Fatalf("entries %+v, want one with a matcher\n%s", res.Entries, reportText(res))
			}
			to, err := tab.Dialect(c.to)
			if err != nil {
				t.Fatal(err)
			}
			m, err := to.ToolMatcher(*res.Entries[0].Matcher)
			if err != nil {
				t.Fatalf("the migrated matcher %q: %v", *res.Entries[0].Matcher, err)
			}
			var got []string
			for _, tool := range to.Tools {
				if ok, err := m.Match(tool.Name); err != nil {
					t.Fatal(err)
				} else if ok {
					got = append(got, tool.Name)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("the migrated matcher %q fires on %q, want %q\n%s", *res.Entries[0].Matcher, got, c.want, reportText(res))
			}
			if cmd := res.Entries[0].Command; !strings.Contains(cmd, "--match '"+c.matcher+"'") {
				t.Errorf("the wrap command does not carry the hook's own matcher: %s", cmd)
			}
			for _, r := range c.reported {
				if !strings.Contains(reportText(res), r) {
					t.Errorf("the report does not say %q:\n%s", r, reportText(res))
				}
			}
		})
	}
}
