package migrate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// With --no-wrap the target's agent runs the command as written, so a
// variable it does not set expands to nothing: "$CLAUDE_PROJECT_DIR"/g.sh
// becomes /g.sh on Codex CLI, which sets no project variable, and the
// guard fails open (exit 127). Such a hook is not written, and the report
// says so, as a guard not carried. On 244ac78 the entry was written all the
// same (doctor: "$CLAUDE_PROJECT_DIR is set by Claude Code, not by Codex
// CLI; it expands to nothing here", an error).
func TestNoWrapDoesNotWriteAHookWhoseVariableTheTargetLacks(t *testing.T) {
	for _, tc := range []struct{ from, file, src string }{
		{"claude", ".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/g.sh"}]}]}}`},
		{"gemini", ".gemini/settings.json", `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"name":"g","type":"command","command":"\"${GEMINI_PROJECT_DIR}\"/.gemini/hooks/g.sh"}]}]}}`},
	} {
		t.Run(tc.from, func(t *testing.T) {
			res, err := Plan(Options{From: tc.from, To: "codex"}, []Source{{Path: tc.file, Scope: "project", Data: []byte(tc.src)}}, Source{Path: ".codex/hooks.json"})
			if err != nil {
				t.Fatal(err)
			}
			type item struct {
				Level Level
				Guard bool
				What  string
			}
			var got []item
			for _, it := range res.Items {
				if strings.HasPrefix(it.What, "$") {
					got = append(got, item{it.Level, it.Guard, it.What})
				}
			}
			v := map[string]string{"claude": "CLAUDE_PROJECT_DIR", "gemini": "GEMINI_PROJECT_DIR"}[tc.from]
			want := []item{{NotCarried, true, "$" + v + ": the hook is not written"}}
			if diff := cmp.Diff(want, got); diff != "" || len(res.Entries) != 0 {
				t.Errorf("%d entries written (want none); items (-want +got):\n%s\n%s", len(res.Entries), diff, reportText(res))
			}
		})
	}
}
