package migrate

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// A guard of each source dialect used below: each agent's own shell tool
// and pre-tool event, each with a command of its own.
var sourceGuards = map[string]string{
	"claude": `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./claude-guard.sh"}]}],"Stop":[{"hooks":[{"type":"command","command":"./claude-stop.sh"}]}]}}`,
	"gemini": `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"name":"g","type":"command","command":"./gemini-guard.sh"}]}]}}`,
	"codex":  `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./codex-guard.sh"}]}]}}`,
}

// twoSources returns two source dialects other than target.
func twoSources(target string) (string, string) {
	var out []string
	for _, d := range []string{"claude", "gemini", "codex"} {
		if d != target {
			out = append(out, d)
		}
	}
	return out[0], out[1]
}

func planPair(t *testing.T, from, to, src string, target []byte, prune bool) *Result {
	t.Helper()
	res, err := Plan(Options{From: from, To: to, Wrap: true, Hookx: "hookx", Prune: prune},
		[]Source{{Path: "src/" + from, Scope: "project", Data: []byte(src)}}, Source{Path: "target", Data: target})
	if err != nil {
		t.Fatalf("Plan %s → %s: %v", from, to, err)
	}
	return res
}

// A run from a second source keeps the entries a run from the first wrote
// into the same target, for every target dialect (issue 24): both wrote
// ids @project, and the second run took the first's guards for its own
// stale entries and removed them, exit 0, also with --strict and --prune.
// Both kept, each run's rerun is a no-op, and each run still removes its
// own stale entries.
func TestSecondSourceKeepsFirstSourcesEntries(t *testing.T) {
	for _, to := range mappings.Default().DialectNames() {
		a, b := twoSources(to)
		for _, prune := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s+%s→%s/prune=%v", a, b, to, prune), func(t *testing.T) {
				first := planPair(t, a, to, sourceGuards[a], nil, prune)
				second := planPair(t, b, to, sourceGuards[b], first.After, prune)
				if len(second.Removed) != 0 {
					t.Errorf("the %s run removed %v, the %s run's entries", b, second.Removed, a)
				}
				for _, want := range []string{"./" + a + "-guard.sh", "./" + b + "-guard.sh"} {
					if !bytes.Contains(second.After, []byte(want)) {
						t.Errorf("%s is not in the target after both runs:\n%s", want, second.After)
					}
				}
				if second.Count(Weakened) != 0 {
					t.Errorf("weakened items:\n%s", reportText(second))
				}
				// Reruns of either source change nothing.
				for _, s := range []string{a, b} {
					if again := planPair(t, s, to, sourceGuards[s], second.After, prune); again.Changed() {
						t.Errorf("rerun from %s changes the target:\n%s", s, UnifiedDiff("a", "b", second.After, again.After))
					}
				}
				// The first source drops its guard: only its entry goes.
				gone := planPair(t, a, to, `{"hooks":{}}`, second.After, prune)
				if bytes.Contains(gone.After, []byte("./"+a+"-guard.sh")) || !bytes.Contains(gone.After, []byte("./"+b+"-guard.sh")) {
					t.Errorf("after %s dropped its guard:\n%s", a, gone.After)
				}
			})
		}
	}
}

// The ids name the source's dialect and scope.
func TestIDsNameSourceDialectAndScope(t *testing.T) {
	for _, tc := range []struct {
		src  Source
		want string
	}{
		{Source{Scope: "project"}, "@claude:project"},
		{Source{Scope: ""}, "@claude:project"},
		{Source{Scope: "local"}, "@claude:local"},
		{Source{Scope: "user"}, "@claude:user"},
		{Source{Scope: "plugin", Origin: "/a b/p"}, "@claude:plugin:/a%20b/p"},
	} {
		tc.src.Path, tc.src.Data = "s.json", []byte(guardSrc)
		res, err := Plan(Options{From: "claude", To: "codex", Wrap: true, Hookx: "hookx"}, []Source{tc.src}, Source{Path: "t"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Entries) != 1 || !strings.HasSuffix(res.Entries[0].ID, tc.want) {
			t.Errorf("%+v: entries %+v, want an id ending in %s", tc.src, res.Entries, tc.want)
		}
	}
}

// Entries written by an older hookx, whose ids name no dialect: one whose
// wrap --from names another agent is that agent's and stays; one whose
// command names this run's agent is this run's (updated in place, or
// removed with a named reason when its hook is gone); a --no-wrap one,
// whose dialect nothing tells, is kept and the report says how to clean it.
func TestOldIDsAreAttributedOnlyWhenProven(t *testing.T) {
	oldIDs := func(b []byte) []byte {
		for _, d := range []string{"claude", "gemini", "codex"} {
			b = bytes.ReplaceAll(b, []byte("@"+d+":project"), []byte("@project"))
		}
		return b
	}
	first := planPair(t, "claude", "codex", sourceGuards["claude"], nil, false)
	old := oldIDs(first.After)
	if bytes.Equal(old, first.After) {
		t.Fatalf("test setup: no id to age in\n%s", first.After)
	}

	t.Run("another agent's", func(t *testing.T) {
		res := planPair(t, "gemini", "codex", sourceGuards["gemini"], old, true)
		if len(res.Removed) != 0 || !bytes.Contains(res.After, []byte("./claude-guard.sh")) {
			t.Errorf("the gemini run removed %v, an older hookx's claude entries:\n%s", res.Removed, res.After)
		}
		if !strings.Contains(reportText(res), "kept 2 entries of Claude Code's project settings") {
			t.Errorf("the kept entries are not reported:\n%s", reportText(res))
		}
		// The oldest ids name no source at all.
		oldest := bytes.ReplaceAll(first.After, []byte("@claude:project"), nil)
		res = planPair(t, "gemini", "codex", sourceGuards["gemini"], oldest, true)
		if len(res.Removed) != 0 || !bytes.Contains(res.After, []byte("./claude-guard.sh")) {
			t.Errorf("the gemini run removed %v, the oldest hookx's claude entries:\n%s", res.Removed, res.After)
		}
		if !strings.Contains(reportText(res), "kept 2 entries of Claude Code, written by an older hookx") {
			t.Errorf("the kept entries are not reported:\n%s", reportText(res))
		}
	})
	t.Run("this agent's, its hook still there", func(t *testing.T) {
		res := planPair(t, "claude", "codex", sourceGuards["claude"], old, false)
		if !bytes.Equal(res.After, first.After) || len(res.Removed) != 0 {
			t.Errorf("not updated in place (removed %v):\n%s", res.Removed, UnifiedDiff("want", "got", first.After, res.After))
		}
	})
	t.Run("this agent's, its hook changed", func(t *testing.T) {
		changed := strings.Replace(sourceGuards["claude"], "./claude-guard.sh", "./claude-guard2.sh", 1)
		res := planPair(t, "claude", "codex", changed, old, false)
		if len(res.Removed) != 0 || bytes.Contains(res.After, []byte("./claude-guard.sh ")) || !bytes.Contains(res.After, []byte("./claude-guard2.sh")) {
			t.Errorf("removed %v:\n%s", res.Removed, res.After)
		}
	})
	t.Run("this agent's, its hook gone", func(t *testing.T) {
		stopOnly := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./claude-stop.sh"}]}]}}`
		res := planPair(t, "claude", "codex", stopOnly, old, false)
		if len(res.Removed) != 1 || bytes.Contains(res.After, []byte("./claude-guard.sh")) {
			t.Errorf("removed %v, want the guard whose hook is gone:\n%s", res.Removed, res.After)
		}
		if !slices.ContainsFunc(res.Items, func(it Item) bool {
			return it.GuardLost() && strings.HasPrefix(it.What, "removed hookx:PreToolUse:0:") && strings.Contains(it.Command, "./claude-guard.sh")
		}) {
			t.Errorf("the removed guard is not named:\n%s", reportText(res))
		}
	})
	t.Run("no-wrap, dialect unknown", func(t *testing.T) {
		res, err := Plan(Options{From: "claude", To: "codex"}, []Source{{Path: "s", Scope: "project", Data: []byte(sourceGuards["claude"])}}, Source{Path: "t"})
		if err != nil {
			t.Fatal(err)
		}
		old := oldIDs(res.After)
		for _, from := range []string{"claude", "gemini"} {
			again := planPair(t, from, "codex", `{"hooks":{}}`, old, true)
			if len(again.Removed) != 0 || !bytes.Contains(again.After, []byte("./claude-guard.sh")) {
				t.Errorf("%s run removed %v, --no-wrap entries it cannot attribute", from, again.Removed)
			}
			if !slices.ContainsFunc(again.Items, func(it Item) bool {
				return it.Level == Warning && strings.Contains(it.Reason, "neither its id nor its command says which agent's settings it came from") &&
					strings.Contains(it.Fix, "delete it by hand")
			}) {
				t.Errorf("%s run: the report does not say why the old entry is kept and how to clean it:\n%s", from, reportText(again))
			}
		}
	})
}

// Removing an entry that can block is never quiet: each one is named
// (guard, event, matcher, command) with why it goes, as Weakened, which
// --strict refuses; so is an update that narrows a guard's matcher or takes
// its --fail-closed off because the source hook changed. A hook that
// cannot block (Notification) goes with the removed line only.
func TestRemovingOrWeakeningAGuardIsNamed(t *testing.T) {
	for _, to := range []string{"gemini", "codex", "copilot", "qwen", "droid", "terminai"} {
		t.Run(to, func(t *testing.T) {
			src := `{"hooks":{"PreToolUse":[{"matcher":"Bash|Write","hooks":[{"type":"command","command":"./guard.sh","onFailure":"block"}]}],"Stop":[{"hooks":[{"type":"command","command":"./stop.sh"}]}]}}`
			first := planPair(t, "claude", to, src, nil, false)

			gone := planPair(t, "claude", to, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./stop.sh"}]}]}}`, first.After, false)
			var named []string
			for _, it := range gone.Items {
				if it.GuardLost() && strings.HasPrefix(it.What, "removed ") {
					named = append(named, it.Event+" "+it.Command)
					if !strings.Contains(it.Reason, "no hook in Claude Code's src/claude gives this entry any more") {
						t.Errorf("reason %q", it.Reason)
					}
				}
			}
			if len(gone.Removed) == 0 || len(named) != len(gone.Removed) || !strings.Contains(strings.Join(named, "\n"), "./guard.sh") {
				t.Errorf("removed %v, named %q:\n%s", gone.Removed, named, reportText(gone))
			}

			narrow := strings.Replace(src, `"Bash|Write"`, `"Bash"`, 1)
			res := planPair(t, "claude", to, narrow, first.After, false)
			if !slices.ContainsFunc(res.Items, func(it Item) bool {
				return it.GuardLost() && it.What == "matcher narrowed" && strings.Contains(it.Reason, "no longer runs for Write")
			}) {
				t.Errorf("a narrowed matcher is not named:\n%s", reportText(res))
			}
			open := strings.Replace(src, `,"onFailure":"block"`, "", 1)
			res = planPair(t, "claude", to, open, first.After, false)
			if !slices.ContainsFunc(res.Items, func(it Item) bool { return it.GuardLost() && it.What == "drops --fail-closed" }) {
				t.Errorf("dropping --fail-closed is not named as weakening:\n%s", reportText(res))
			}
			wider := strings.Replace(src, `"Bash|Write"`, `"Bash|Write|Edit"`, 1)
			if res := planPair(t, "claude", to, wider, first.After, false); res.Count(Weakened) != 0 {
				t.Errorf("a wider matcher is reported as weakening:\n%s", reportText(res))
			}
		})
	}
}

// When the first of two guards of an event is deleted, the one removed and
// named is that guard, and the other keeps its entry (found by its hash at
// its new position), not the deleted one's slot.
func TestRemovedGuardIsTheDeletedOne(t *testing.T) {
	two := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./a.sh"}]},{"matcher":"Write","hooks":[{"type":"command","command":"./b.sh"}]}]}}`
	first := planPair(t, "claude", "codex", two, nil, false)
	res := planPair(t, "claude", "codex", `{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"./b.sh"}]}]}}`, first.After, false)
	var named []string
	for _, it := range res.Items {
		if it.GuardLost() {
			named = append(named, it.What+" "+it.Command)
		}
	}
	if len(named) != 1 || !strings.Contains(named[0], "./a.sh") {
		t.Errorf("named %q, want the removal of ./a.sh's entry alone\n%s", named, reportText(res))
	}
	if bytes.Contains(res.After, []byte("./a.sh")) || !bytes.Contains(res.After, []byte("./b.sh")) {
		t.Errorf("target:\n%s", res.After)
	}
}
