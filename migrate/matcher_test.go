package migrate

import (
	"strings"
	"testing"
)

// A Gemini matcher that names only the pre-0.28 name search_file_content
// never fires on Gemini 0.61.0 (hooks match tool_name, never an alias):
// migrate carries nothing and says how to fix it.
func TestGeminiOldToolNameIsReportedNotCarried(t *testing.T) {
	src := `{"hooks":{"BeforeTool":[{"matcher":"search_file_content","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	res := planFor(t, Options{From: "gemini", To: "claude", Wrap: true}, src, nil)
	if len(res.Entries) != 0 {
		t.Fatalf("migrated %d entries for a matcher Gemini never fires: %+v", len(res.Entries), res.Entries)
	}
	if r := reportText(res); !strings.Contains(r, "search_file_content is an old name of grep_search") || !strings.Contains(r, "rename it to grep_search") {
		t.Errorf("the report does not explain the old name:\n%s", r)
	}
}

// A Claude regex naming a legacy alias fires for the tool (Claude resolves
// Task to Agent before matching), so it is carried like the exact name.
func TestClaudeRegexOnAnAliasIsCarried(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"^Task$","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	res := planFor(t, Options{From: "claude", To: "gemini", Wrap: true}, src, nil)
	if len(res.Entries) != 1 || res.Entries[0].Matcher == nil || *res.Entries[0].Matcher != "^(invoke_agent)$" {
		t.Fatalf("entries %+v, want one for ^(invoke_agent)$\n%s", res.Entries, reportText(res))
	}
	if cmd := res.Entries[0].Command; !strings.Contains(cmd, "--match '^Task$' --") {
		t.Errorf("the wrap command does not carry the hook's own matcher: %s", cmd)
	}
}

// A match-all hook needs no --match: wrap's default matches every tool.
func TestMatchAllHookHasNoMatchFlag(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"./g.sh"}]}],"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"./s.sh"}]}]}}`
	res := planFor(t, Options{From: "claude", To: "gemini", Wrap: true}, src, nil)
	for _, e := range res.Entries {
		if strings.Contains(e.Command, "--match") {
			t.Errorf("%s: %s carries --match; only a tool matcher that is not match-all needs one", e.Event, e.Command)
		}
	}
}

// --match is the source matcher of this run: when the matcher becomes
// match-all, the old --match must not survive as if the user had added it.
func TestStaleMatchFlagIsNotKept(t *testing.T) {
	first := planFor(t, Options{From: "claude", To: "gemini", Wrap: true},
		`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"./g.sh"}],"matcher":"Bash"}]}}`, nil)
	if !strings.Contains(string(first.After), "--match Bash") {
		t.Fatalf("no --match written:\n%s", first.After)
	}
	res := planFor(t, Options{From: "claude", To: "gemini", Wrap: true},
		`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"./g.sh"}],"matcher":"*"}]}}`, first.After)
	if strings.Contains(string(res.After), "--match") {
		t.Errorf("a stale --match survived a match-all matcher:\n%s", res.After)
	}
}

// TestNeverFiringMatcherGetsAFix: a matcher that can fire on no tool of the
// target is reported with a fix a person can act on, not a restatement.
func TestNeverFiringMatcherGetsAFix(t *testing.T) {
	m := "NotebookEdit"
	res := planOne(t, "claude", "gemini", "PreToolUse", &m, map[string]any{"type": "command", "command": "./guard.sh"})
	for _, it := range res.Items {
		if it.Level == NotCarried && strings.Contains(it.What, `"NotebookEdit"`) {
			if !strings.Contains(it.Fix, "hookx mappings") || strings.Contains(it.Fix, "could never fire") {
				t.Errorf("fix = %q, want what to do", it.Fix)
			}
			return
		}
	}
	t.Fatalf("no not-carried item for the matcher; items: %+v", res.Items)
}
