package migrate

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

// A host that runs another dialect's settings itself (Copilot CLI runs
// .claude/settings.json) gets hookx's own copy of a hook exactly where its
// own reading would lose what the hook's agent delivers: a guard's block
// (guards) or the hook's output (loses, e.g. context on SessionStart and
// PostToolUse, seen dropped live). Those are written and reported as running
// twice, saying what the host's own run loses; on every other event it runs
// the hook faithfully, and no copy is written, with a note. Every event of
// every readsSettings entry in the table is checked.
func TestHostOwnRunOfForeignSettingsCopiesWhatItWouldLose(t *testing.T) {
	tbl := mappings.Default()
	checked := 0
	for _, to := range tbl.Dialects {
		for _, r := range to.ReadsSettings {
			for ev := range r.Loses {
				if !slices.Contains(r.Events, ev) {
					t.Errorf("%s readsSettings: loses names %s, which is not among its events", to.Name, ev)
				}
			}
			for _, ev := range r.Guards {
				if !slices.Contains(r.Events, ev) {
					t.Errorf("%s readsSettings: guards names %s, which is not among its events", to.Name, ev)
				}
			}
			for _, ev := range r.Events {
				t.Run(fmt.Sprintf("%s-to-%s/%s", r.Dialect, to.Name, ev), func(t *testing.T) {
					checked++
					src := fmt.Sprintf(`{"hooks":{%q:[{"hooks":[{"type":"command","command":"./h.sh"}]}]}}`, ev)
					res, err := Plan(Options{From: r.Dialect, To: to.Name, Wrap: true, Hookx: "hookx"},
						[]Source{{Path: r.Files[0], Scope: "project", Data: []byte(src)}}, Source{Path: to.Settings.Project})
					if err != nil {
						t.Fatalf("Plan: %v", err)
					}
					report := reportText(res)
					_, loses := r.Loses[ev]
					copied := loses || slices.Contains(r.Guards, ev)
					switch {
					case copied && len(res.Entries) != 1:
						t.Errorf("%d entries written, want hookx's own copy: %s's own run loses it\n%s", len(res.Entries), to.Agent, report)
					case copied && !strings.Contains(report, "runs twice in "+to.Agent):
						t.Errorf("the copy is not reported as running twice:\n%s", report)
					case loses && !strings.Contains(report, r.Loses[ev]):
						t.Errorf("the report does not say what %s's own run loses (%q):\n%s", to.Agent, r.Loses[ev], report)
					case !copied && len(res.Entries) != 0:
						t.Errorf("%d entries written: %s runs it itself, a copy would run it twice\n%s", len(res.Entries), to.Agent, report)
					case !copied && !strings.Contains(report, "not written: "+to.Agent+" already runs 1 hook"):
						t.Errorf("the report does not say %s already runs it:\n%s", to.Agent, report)
					}
				})
			}
		}
	}
	if checked == 0 {
		t.Fatal("no readsSettings event in the table: nothing was checked")
	}
}

// Copilot CLI runs every hook of .claude/settings.json itself: migrate says
// so once, naming each hook that runs twice, with the table's recommended
// fix (readsSettings twice), not once per hook. On 244ac78 the same
// paragraph came once per hook (8 times for the demo), with no fix.
func TestHostOwnRunReportedOnceWithItsFix(t *testing.T) {
	tbl := mappings.Default()
	to := tbl.MustDialect("copilot")
	r := to.ReadsNatively("claude", ".claude/settings.json")
	if r == nil || r.Twice == "" {
		t.Fatal("the table's copilot readsSettings of claude has no twice (the fix for hooks that run twice)")
	}
	src := `{"hooks":{
  "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./a.sh"}]},{"matcher":"Edit","hooks":[{"type":"command","command":"./b.sh"}]}],
  "PostToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"./c.sh"}]}],
  "Stop":[{"hooks":[{"type":"command","command":"./d.sh"},{"type":"command","command":"./e.sh"}]}]}}`
	res, err := Plan(Options{From: "claude", To: "copilot", Wrap: true, Hookx: "hookx"},
		[]Source{{Path: ".claude/settings.json", Scope: "project", Data: []byte(src)}}, Source{Path: to.Settings.Project})
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Level       Level
		Source      string
		What        string
		HasFix      bool
		NamesDiffer bool
	}
	var items []got
	for _, it := range res.Items {
		if strings.Contains(it.What, "twice") || strings.Contains(it.What, "already runs") {
			items = append(items, got{it.Level, it.Source, it.What, it.Fix == r.Twice, strings.Contains(it.Reason, r.Differs)})
		}
	}
	want := []got{
		{Warning, ".claude/settings.json", "runs twice in Copilot CLI: 3 hooks (PreToolUse .claude/settings.json:2, PreToolUse .claude/settings.json:2, PostToolUse .claude/settings.json:3)", true, true},
		{Note, ".claude/settings.json", "not written: Copilot CLI already runs 2 hooks (Stop .claude/settings.json:4, Stop .claude/settings.json:4)", false, true},
	}
	if diff := cmp.Diff(want, items); diff != "" {
		t.Errorf("the items about Copilot's own run (-want +got):\n%s\n%s", diff, reportText(res))
	}
}
