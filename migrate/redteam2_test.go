package migrate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// A wrap option added by hand to a hookx entry is kept only when it cannot
// make the guard block less. A target file (committed by someone else, or
// edited by hand) whose entry carries --event of another event (wrap then
// never runs the hook), --env PATH=… (the hook cannot start: fails open) or
// --host-event of another event was kept as it was, reported as a note
// ("kept --env") and counted unchanged, so migrate --check said up to date
// and --strict did not refuse.
func TestHandAddedWrapOptionThatWeakensIsNotKeptQuietly(t *testing.T) {
	src := []Source{{Path: "s.json", Scope: "project", Data: []byte(guardSrc)}}
	first := planSources(t, Options{}, src, nil)
	for _, add := range []string{
		"--event Stop",
		"--env PATH=/nonexistent",
		"--env=PATH=/nonexistent",
		"--host-event sessionStart",
	} {
		t.Run(add, func(t *testing.T) {
			forged := bytes.Replace(first.After, []byte("--timeout 600s --"), []byte("--timeout 600s "+add+" --"), 1)
			if bytes.Equal(forged, first.After) {
				t.Fatalf("test setup: no wrap command in\n%s", first.After)
			}
			res := planSources(t, Options{}, src, forged)
			if !res.Changed() && res.Count(Weakened) == 0 {
				t.Errorf("an entry with %q is left as it is and nothing weakening is reported:\n%s", add, reportText(res))
			}
			if res.Changed() && strings.Contains(string(res.After), add) {
				t.Errorf("%q survived the run:\n%s", add, res.After)
			}
		})
	}
}

// --no-wrap refuses a hook whose project variable the target lacks; it saw
// the variable only where the parse reads it as an expansion. Inside single
// quotes given to bash -c or eval, in a quoted here-doc fed to sh, or as
// printenv's argument, the hook was written for Codex CLI all the same: it
// ran /.claude/hooks/g.sh (exit 127) and the guard failed open, and doctor
// said nothing of it.
func TestNoWrapSeesAProjectVariableTheParseDoesNotExpand(t *testing.T) {
	for _, cmd := range []string{
		`bash -c 'exec "$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh'`,
		"sh <<'EOF'\n\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/g.sh\nEOF",
		`$(printenv CLAUDE_PROJECT_DIR)/.claude/hooks/g.sh`,
		`eval '"$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh'`,
	} {
		t.Run(cmd, func(t *testing.T) {
			src, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": cmd}}}}}})
			res, err := Plan(Options{From: "claude", To: "codex"}, []Source{{Path: ".claude/settings.json", Scope: "project", Data: src}}, Source{Path: ".codex/hooks.json"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Entries) != 0 || res.Count(NotCarried) == 0 {
				t.Errorf("written for Codex CLI, which sets no CLAUDE_PROJECT_DIR (%d entries):\n%s", len(res.Entries), reportText(res))
			}
		})
	}
	// Where the target sets the name (Gemini CLI sets CLAUDE_PROJECT_DIR),
	// the hook is written.
	src := []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"bash -c 'exec \"$CLAUDE_PROJECT_DIR\"/g.sh'"}]}]}}`)
	res, err := Plan(Options{From: "claude", To: "gemini"}, []Source{{Path: ".claude/settings.json", Scope: "project", Data: src}}, Source{Path: ".gemini/settings.json"})
	if err != nil || len(res.Entries) != 1 {
		t.Errorf("not written for Gemini CLI, which sets CLAUDE_PROJECT_DIR (%v):\n%s", err, reportText(res))
	}
}
