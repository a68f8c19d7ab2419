package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingScriptExitIsTheShells: `sh missing.sh` exits 2 where sh is
// dash (Debian, Ubuntu), which Claude Code reads as a block of every call,
// and 127 where it is bash, a non-blocking error. On 244ac78 doctor took
// 127 for every sh, and told a Droid or Codex user on Debian that the guard
// fails open, where the agent blocked every shell command (live:
// conformance batch/droid/blocks-all/interpreter-script-missing).
func TestMissingScriptExitIsTheShells(t *testing.T) {
	for _, c := range []struct{ sh, want string }{
		{"dash", "Claude Code reads exit 2 with a message as a block"},
		{"bash", "Claude Code treats exit 127 as a non-blocking error"},
	} {
		t.Run(c.sh, func(t *testing.T) {
			bin := t.TempDir()
			if err := os.WriteFile(filepath.Join(bin, c.sh), []byte("#!/bin/true\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(c.sh, filepath.Join(bin, "sh")); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			settings := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"sh \"$CLAUDE_PROJECT_DIR\"/gone.sh"}]}]}}`
			if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".claude/settings.json"), []byte(settings), 0o644); err != nil {
				t.Fatal(err)
			}
			fs, err := Check(Options{Dir: dir, Getenv: func(k string) string {
				if k == "PATH" {
					return bin
				}
				return ""
			}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range fs {
				if strings.Contains(f.Problem, "gone.sh does not exist") {
					got = append(got, f.Problem)
				}
			}
			if len(got) != 1 || !strings.Contains(got[0], c.want) {
				t.Errorf("sh -> %s: want one finding saying %q, got %q", c.sh, c.want, got)
			}
		})
	}
}

// TestHandlerFindingsSayWhatTheAgentDoes: what each agent does with a
// handler it cannot read, as seen live (conformance batch/<agent>/hooks):
// Claude Code, Codex and Droid reject the whole file (a schema error), so
// "discards it" understated it: every other guard of the file was off too;
// Copilot runs a handler without a type as a command, where doctor said it
// discarded it; Droid reads comments, where doctor called them fatal. Each
// fails on 244ac78.
func TestHandlerFindingsSayWhatTheAgentDoes(t *testing.T) {
	for _, c := range []struct {
		name, file, settings string
		want                 string // "" no error
	}{
		{"claude-no-type", ".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"true"}]}]}}`,
			`the handler has no "type"; Claude Code rejects the whole file, so none of its hooks run`},
		{"claude-shell-type", ".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"shell","command":"true"}]}]}}`,
			`Claude Code has no "shell" handler type; Claude Code rejects the whole file, so none of its hooks run`},
		{"codex-no-type", ".codex/hooks.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"true"}]}]}}`,
			`the handler has no "type"; Codex CLI rejects the whole file, so none of its hooks run`},
		{"droid-no-type", ".factory/hooks.json", `{"PreToolUse":[{"matcher":"Execute","hooks":[{"command":"true"}]}]}`,
			`the handler has no "type"; Factory Droid rejects the whole file, so none of its hooks run`},
		{"gemini-no-type", ".gemini/settings.json", `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"command":"true"}]}]}}`,
			`the handler has no "type"; Gemini CLI discards it`},
		{"copilot-no-type", ".github/hooks/h.json", `{"version":1,"hooks":{"preToolUse":[{"bash":"true"}]}}`, ""},
		{"droid-comment", ".factory/hooks.json", "{\n// guards\n\"PreToolUse\":[{\"matcher\":\"Execute\",\"hooks\":[{\"type\":\"command\",\"command\":\"true\"}]}]}", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, filepath.FromSlash(c.file))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(c.settings), 0o644); err != nil {
				t.Fatal(err)
			}
			fs, err := Check(Options{Dir: dir, Getenv: func(k string) string {
				if k == "PATH" {
					return "/usr/bin:/bin"
				}
				return ""
			}})
			if err != nil {
				t.Fatal(err)
			}
			var errs []string
			for _, f := range fs {
				if f.Severity == Error {
					errs = append(errs, f.Problem)
				}
			}
			switch {
			case c.want == "" && len(errs) > 0:
				t.Errorf("want no error, got %q", errs)
			case c.want != "" && (len(errs) != 1 || errs[0] != c.want):
				t.Errorf("want the error %q, got %q", c.want, errs)
			}
		})
	}
}
