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
