package migrate

// Tests for the safety promises of a migration: bounded parsing, exact
// ownership, remembered sources, no silent weakening, and a write that
// never loses the user's content.

import (
	"bytes"
	"errors"
	"github.com/hookx-dev/hookx/mappings"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A settings file nested far deeper than any agent's settings is refused
// before parsing, with the line and column where the limit is crossed, in
// the source and in the target: never a stack overflow.
func TestDeepNestingIsRefusedWithPosition(t *testing.T) {
	deep := "{\n  \"a\": " + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + "\n}\n"
	src := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./s.sh"}]}]}}`
	for _, tc := range []struct {
		name        string
		src, target string
	}{
		{"source", deep, ""},
		{"target", src, deep},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var target []byte
			if tc.target != "" {
				target = []byte(tc.target)
			}
			_, err := Plan(Options{From: "claude", To: "gemini"}, []Source{{Path: "src.json", Scope: "project", Data: []byte(tc.src)}}, Source{Path: "dst.json", Data: target})
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Plan: %v, want an InputError", err)
			}
			if ie.Line != 2 || ie.Col != 8+MaxDepth-1 {
				t.Errorf("error at %d:%d, want 2:%d: %v", ie.Line, ie.Col, 8+MaxDepth-1, err)
			}
			if !strings.Contains(ie.Msg, "nested") {
				t.Errorf("message %q does not say the nesting is too deep", ie.Msg)
			}
		})
	}
}

// Brackets inside strings and comments do not count as nesting.
func TestNestingCountsOnlyStructure(t *testing.T) {
	s := `{"a": "` + strings.Repeat("[", 2*MaxDepth) + `" /* ` + strings.Repeat("{", 2*MaxDepth) + " */\n// " + strings.Repeat("[", 2*MaxDepth) + "\n}"
	if _, err := parseDoc("x.json", []byte(s)); err != nil {
		t.Fatalf("parseDoc: %v", err)
	}
}

// A file larger than MaxFileSize is refused before parsing.
func TestOversizedFileIsRefused(t *testing.T) {
	big := append([]byte(`{"a": "`), bytes.Repeat([]byte("x"), MaxFileSize)...)
	big = append(big, `"}`...)
	_, err := parseDoc("big.json", big)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(ie.Msg, "larger than") {
		t.Fatalf("parseDoc: %v, want a size refusal", err)
	}
}

// planSources plans sources into target with wrapping on, failing the test
// on an error.
func planSources(t *testing.T, opts Options, sources []Source, target []byte) *Result {
	t.Helper()
	opts.Wrap, opts.Hookx = true, "hookx"
	if opts.From == "" {
		opts.From, opts.To = "claude", "gemini"
	}
	res, err := Plan(opts, sources, Source{Path: "dst.json", Data: target})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	return res
}

const guardSrc = `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./guard.sh"}]}]}}`

// A user's own hook whose name (Gemini) or command comment (Claude) is
// exactly an id hookx writes, but whose command is not hookx's, is the
// user's: it is neither removed from the target nor skipped in a source.
func TestUserHookWithHookxIDIsNotHookxs(t *testing.T) {
	t.Run("gemini target", func(t *testing.T) {
		target := []byte(`{
  "hooks": {
    "BeforeTool": [
      {"hooks": [{"name": "hookx:BeforeTool:1:0badc0de", "type": "command", "command": "./mine.sh"}]}
    ]
  }
}
`)
		res := planSources(t, Options{}, []Source{{Path: "s.json", Scope: "project", Data: []byte(guardSrc)}}, target)
		if !bytes.Contains(res.After, []byte(`"./mine.sh"`)) || len(res.Removed) != 0 {
			t.Errorf("the user's hook was removed (removed %v):\n%s", res.Removed, res.After)
		}
	})
	t.Run("claude target", func(t *testing.T) {
		target := []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh # hookx:PreToolUse:1:0badc0de"}]}]}}` + "\n")
		src := `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"name":"g","type":"command","command":"./guard.sh"}]}]}}`
		res := planSources(t, Options{From: "gemini", To: "claude"}, []Source{{Path: "s.json", Scope: "project", Data: []byte(src)}}, target)
		if !bytes.Contains(res.After, []byte(`./mine.sh # hookx:PreToolUse:1:0badc0de`)) || len(res.Removed) != 0 {
			t.Errorf("the user's hook was removed (removed %v):\n%s", res.Removed, res.After)
		}
	})
	t.Run("source", func(t *testing.T) {
		src := `{"hooks":{"BeforeTool":[{"hooks":[{"name":"hookx:BeforeTool:1:0badc0de","type":"command","command":"./mine.sh"}]}]}}`
		res := planSources(t, Options{From: "gemini", To: "claude"}, []Source{{Path: "s.json", Scope: "project", Data: []byte(src)}}, nil)
		if len(res.Entries) != 1 {
			t.Errorf("the user's hook was skipped as hookx's own: %d entries\n%s", len(res.Entries), reportText(res))
		}
	})
}

// A comment written above (or beside) a hookx entry stays in the file when
// the entry goes.
func TestCommentNextToRemovedEntryIsKept(t *testing.T) {
	first := planSources(t, Options{}, []Source{{Path: "s.json", Scope: "project", Data: []byte(guardSrc)}}, nil)
	withComment := bytes.Replace(first.After, []byte("      {\n        \"matcher\""), []byte("      // reviewed by security, 2026-11\n      {\n        \"matcher\""), 1)
	if bytes.Equal(withComment, first.After) {
		t.Fatalf("test setup: no entry to comment in\n%s", first.After)
	}
	other := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./s.sh"}]}]}}`
	res := planSources(t, Options{}, []Source{{Path: "s.json", Scope: "project", Data: []byte(other)}}, withComment)
	if len(res.Removed) != 1 {
		t.Fatalf("removed %v, want the guard", res.Removed)
	}
	if !bytes.Contains(res.After, []byte("// reviewed by security, 2026-11")) {
		t.Errorf("the comment went with the entry:\n%s", res.After)
	}
	if _, err := parseDoc("after", res.After); err != nil {
		t.Errorf("result does not parse: %v", err)
	}
}

// Every owned entry names the source it came from, and a run removes only
// entries of sources it read: a plugin's entries survive a run without the
// plugin (with a warning), and go only with Prune (reported as weakening).
func TestEntriesOfSourcesNotReadAreKept(t *testing.T) {
	project := Source{Path: ".claude/settings.json", Scope: "project", Data: []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./s.sh"}]}]}}`)}
	plugin := Source{Path: "p/hooks/hooks.json", Scope: "plugin", Origin: "/abs/p", Data: []byte(guardSrc)}
	first := planSources(t, Options{}, []Source{project, plugin}, nil)
	if !bytes.Contains(first.After, []byte("@claude:plugin:/abs/p")) || !bytes.Contains(first.After, []byte("@claude:project")) {
		t.Fatalf("the ids do not name their sources:\n%s", first.After)
	}
	again := planSources(t, Options{}, []Source{project}, first.After)
	if len(again.Removed) != 0 || !bytes.Contains(again.After, []byte("./guard.sh")) {
		t.Errorf("a run without the plugin removed its guard (removed %v)", again.Removed)
	}
	if !strings.Contains(reportText(again), "/abs/p") {
		t.Errorf("no warning about the kept plugin entry:\n%s", reportText(again))
	}
	pruned := planSources(t, Options{Prune: true}, []Source{project}, first.After)
	if len(pruned.Removed) != 1 || pruned.Count(Weakened) != 1 {
		t.Errorf("Prune: removed %v, %d weakening item(s); want the guard removed and reported\n%s", pruned.Removed, pruned.Count(Weakened), reportText(pruned))
	}
}

// A flag the user added by hand to a hookx entry (--fail-closed) survives
// the next run; a hand-made change that the run would undo in a weaker
// direction (a shorter timeout, a narrower matcher) is reported as weakening.
func TestHandMadeHardeningIsKeptOrReported(t *testing.T) {
	src := []Source{{Path: "s.json", Scope: "project", Data: []byte(guardSrc)}}
	first := planSources(t, Options{}, src, nil)
	hardened := bytes.Replace(first.After, []byte("--timeout 600s --"), []byte("--timeout 600s --fail-closed --"), 1)
	if bytes.Equal(hardened, first.After) {
		t.Fatalf("test setup: no wrap command in\n%s", first.After)
	}
	res := planSources(t, Options{}, src, hardened)
	if res.Changed() {
		t.Errorf("the hand-added --fail-closed was reverted:\n%s", UnifiedDiff("a", "b", hardened, res.After))
	}

	shorter := bytes.Replace(first.After, []byte(`"timeout": 605000`), []byte(`"timeout": 20000`), 1)
	if bytes.Equal(shorter, first.After) {
		t.Fatalf("test setup: no timeout in\n%s", first.After)
	}
	res = planSources(t, Options{}, src, shorter)
	if res.Count(Weakened) == 0 {
		t.Errorf("raising a hand-shortened timeout is not reported as weakening:\n%s", reportText(res))
	}
	narrowed := bytes.Replace(first.After, []byte(`"matcher": "^(run_shell_command)$"`), []byte(`"matcher": "^run_shell_command$"`), 1)
	res = planSources(t, Options{}, src, narrowed)
	if res.Count(Weakened) == 0 {
		t.Errorf("changing a hand-set matcher is not reported:\n%s", reportText(res))
	}
}

// WriteFile writes only over the content it planned from: an edit made
// during the run makes it fail with ErrChanged and write nothing.
func TestWriteFileRefusesATargetChangedSincePlanned(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	os.WriteFile(p, []byte(`{"edited": true}`), 0o644)
	err := WriteFile(p, []byte(`{}`), []byte(`{"hooks": {}}`))
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("WriteFile: %v, want ErrChanged", err)
	}
	if b, _ := os.ReadFile(p); string(b) != `{"edited": true}` {
		t.Errorf("target is now %q", b)
	}
	if _, err := os.Stat(p + BackupSuffix); err == nil {
		t.Errorf("a backup was written")
	}
	// A file that appeared since planning is a change too.
	q := filepath.Join(dir, "new.json")
	os.WriteFile(q, []byte(`{}`), 0o644)
	if err := WriteFile(q, nil, []byte(`{"hooks": {}}`)); !errors.Is(err, ErrChanged) {
		t.Errorf("WriteFile over a file that appeared: %v, want ErrChanged", err)
	}
}

// A backup never destroys the only copy of earlier content: each earlier
// backup that differs is kept under a numbered name.
func TestBackupsRotate(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	versions := []string{`{"v": 1}`, `{"v": 2}`, `{"v": 3}`, `{"v": 4}`}
	os.WriteFile(p, []byte(versions[0]), 0o644)
	for i := 1; i < len(versions); i++ {
		if err := WriteFile(p, []byte(versions[i-1]), []byte(versions[i])); err != nil {
			t.Fatal(err)
		}
	}
	var kept []string
	for _, name := range []string{BackupSuffix, BackupSuffix + ".1", BackupSuffix + ".2"} {
		b, err := os.ReadFile(p + name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		kept = append(kept, string(b))
	}
	want := []string{versions[2], versions[0], versions[1]}
	if strings.Join(kept, " ") != strings.Join(want, " ") {
		t.Errorf("backups %q, want %q (newest, then oldest first)", kept, want)
	}
}

// Converting a plugin into an extension (and back) writes the target's own
// placeholder for the directory, never an absolute path.
func TestPluginRootBecomesTargetPlaceholder(t *testing.T) {
	for _, tc := range []struct {
		from, to, src, want string
	}{
		// wrap gives the hook CLAUDE_PLUGIN_ROOT from the extension's own
		// placeholder, which Gemini fills in when it loads the extension.
		{"claude", "gemini", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/s.sh"}]}]}}`, `--env 'CLAUDE_PLUGIN_ROOT=${extensionPath}' -- \$'{CLAUDE_PLUGIN_ROOT}/s.sh'`},
		// Gemini's textual ${extensionPath} becomes ${CLAUDE_PLUGIN_ROOT},
		// which wrap's emulation of that load-time replacement fills in
		// from what Claude exports (quoted so no host touches it first).
		{"gemini", "claude", `{"hooks":{"AfterAgent":[{"hooks":[{"name":"s","type":"command","command":"${extensionPath}/s.sh"}]}]}}`, `-- \$'{CLAUDE_PLUGIN_ROOT}/s.sh'`},
	} {
		res := planSources(t, Options{From: tc.from, To: tc.to, PluginOut: true, PluginRoot: "/abs/p"},
			[]Source{{Path: "p/hooks/hooks.json", Scope: "plugin", Origin: "/abs/p", Data: []byte(tc.src)}}, nil)
		if len(res.Entries) != 1 || !strings.Contains(res.Entries[0].Command, tc.want) || strings.Contains(res.Entries[0].Command, "/abs/p/") {
			t.Errorf("%s → %s: entries %+v, want a command with %s", tc.from, tc.to, res.Entries, tc.want)
		}
	}
}

// A manifest is made from the source's: name (made safe), version and
// description carried, the directory's name when there is none.
func TestNewManifest(t *testing.T) {
	got := string(NewManifest(mappings.Default().MustDialect("claude"), []byte(`{"name":"My_Plugin","version":"2.1.0","description":"d"}`), "/x/dir"))
	if want := "{\n  \"name\": \"my-plugin\",\n  \"version\": \"2.1.0\",\n  \"description\": \"d\"\n}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = string(NewManifest(mappings.Default().MustDialect("gemini"), nil, "/x/Sec Guard"))
	if !strings.Contains(got, `"name": "sec-guard"`) || !strings.Contains(got, `"version": "1.0.0"`) {
		t.Errorf("got %s", got)
	}
}

// An entry written by an older hookx, whose id has no source, is updated in
// place by the run that reads its source: not duplicated, not kept aside.
func TestOldIDWithoutSourceIsUpdatedInPlace(t *testing.T) {
	src := []Source{{Path: "s.json", Scope: "project", Data: []byte(guardSrc)}}
	first := planSources(t, Options{}, src, nil)
	// Without a source (the oldest ids), and with the scope only.
	for _, was := range []string{"", "@project"} {
		old := bytes.ReplaceAll(first.After, []byte("@claude:project"), []byte(was))
		res := planSources(t, Options{}, src, old)
		if len(res.Removed) != 0 || len(res.Entries) != 1 || res.Entries[0].Change != "update" {
			t.Fatalf("%q: removed %v, entries %+v; want one update in place", was, res.Removed, res.Entries)
		}
		if !bytes.Equal(res.After, first.After) {
			t.Errorf("%q: got\n%s\nwant\n%s", was, res.After, first.After)
		}
	}
}

// A source change that drops onFailure "block" drops --fail-closed from the
// entry: that weakens the guard and is said, not only shown as an update.
func TestDroppedFailClosedIsReported(t *testing.T) {
	closed := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./guard.sh","onFailure":"block"}]}]}}`
	first := planSources(t, Options{}, []Source{{Path: "s.json", Scope: "project", Data: []byte(closed)}}, nil)
	if !bytes.Contains(first.After, []byte("--fail-closed")) {
		t.Fatalf("no --fail-closed written:\n%s", first.After)
	}
	res := planSources(t, Options{}, []Source{{Path: "s.json", Scope: "project", Data: []byte(guardSrc)}}, first.After)
	if !strings.Contains(reportText(res), "drops --fail-closed") {
		t.Errorf("dropping --fail-closed is not reported:\n%s", reportText(res))
	}
}

// A plugin directory with spaces or '#' in its name stays inside the id's
// alphabet, so a Claude marker comment still reads back whole and a second
// run changes nothing.
func TestPluginOriginIsEscapedInIDs(t *testing.T) {
	src := `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"name":"g","type":"command","command":"./guard.sh"}]}]}}`
	sources := []Source{{Path: "p/hooks/hooks.json", Scope: "plugin", Origin: "/my plugins/guard #1", Data: []byte(src)}}
	opts := Options{From: "gemini", To: "claude"}
	first := planSources(t, opts, sources, nil)
	if !bytes.Contains(first.After, []byte("@gemini:plugin:/my%20plugins/guard%20%231")) {
		t.Fatalf("origin not escaped:\n%s", first.After)
	}
	again := planSources(t, opts, sources, first.After)
	if again.Changed() || len(again.Entries) != 1 || again.Entries[0].Change != "unchanged" {
		t.Errorf("second run: changed=%v entries %+v", again.Changed(), again.Entries)
	}
}
