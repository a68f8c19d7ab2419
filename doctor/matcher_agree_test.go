package doctor

import (
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// TestProbeMatchesAsTheTable is the differential test of the probe's
// matcher reading against the table's ToolMatcher, the reading migrate and
// wrap use: for every dialect, every tool name and a set of matchers (exact
// lists with | and , and spaces, regexes, prefixes, aliases, anchors), the
// probe runs a hook exactly where the agent would fire it. On 244ac78 the
// probe read every claude-protocol dialect with Claude Code's exact-list
// syntax (Codex reads "Bash, Write" as a regex that fires for no tool),
// and every other one unanchored (Copilot CLI does not fire "ba" for bash).
func TestProbeMatchesAsTheTable(t *testing.T) {
	tbl := mappings.Default()
	for _, d := range tbl.Dialects {
		names := d.ToolNames()
		var matchers []string
		for _, n := range names {
			matchers = append(matchers, n, n+"|Nope", "Nope, "+n, n+" ", " "+n, n[:max(1, len(n)/2)], "^"+n+"$", "("+n+")", n+".*")
			if t := d.Tool(n); t != nil {
				matchers = append(matchers, t.Aliases...)
			}
		}
		matchers = append(matchers, "*", " * ", ".*", "Bash, Write", "Bash,Write", "Edit|Write", "Edit|MultiEdit|Write", "ba", "write_file|replace", "shell-command")
		for _, m := range matchers {
			tm, err := d.ToolMatcher(m)
			if err != nil {
				continue // not evaluable: the probe runs the guard, the safe side
			}
			for _, tool := range names {
				want, err := tm.Match(tool)
				if err != nil {
					continue
				}
				if got := toolMatches(d, &m, tool); got != want {
					t.Errorf("%s: matcher %q on %s: the probe runs the hook: %v; %s fires it: %v", d.Name, m, tool, got, d.Agent, want)
				}
			}
		}
	}
}
