//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestDiffIsColouredOnATerminal runs hookx with a pseudo-terminal as its
// stdout, as a user's shell does: migrate's diff is coloured, and
// NO_COLOR, TERM=dumb and --color never turn it off. Before the fix,
// isTerminal saw the countingWriter run wraps stdout in, never the
// terminal, so the diff was never coloured on one.
func TestDiffIsColouredOnATerminal(t *testing.T) {
	for _, tc := range []struct {
		name  string
		env   map[string]string
		flags []string
		want  bool
	}{
		{name: "auto", want: true},
		{name: "NO_COLOR", env: map[string]string{"NO_COLOR": "1"}},
		{name: "TERM=dumb", env: map[string]string{"TERM": "dumb"}},
		{name: "--color never", flags: []string{"--color", "never"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", "")
			t.Setenv("CLICOLOR_FORCE", "")
			t.Setenv("TERM", "xterm-256color")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			ptmx, tty, err := pty.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer ptmx.Close()
			read := make(chan []byte)
			go func() {
				b, _ := io.ReadAll(ptmx) // until the terminal side closes (EIO)
				read <- b
			}()
			args := append([]string{"migrate", "--dry-run", "--from", "claude", "--to", "gemini", "--dir", copyDemo(t)}, tc.flags...)
			var stderr strings.Builder
			code := run(args, strings.NewReader(""), tty, &stderr)
			tty.Close()
			out := <-read
			if code != exitOK || !bytes.Contains(out, []byte("+++")) {
				t.Fatalf("hookx %s: exit %d, no diff on the terminal:\n%s\n%s", strings.Join(args, " "), code, out, stderr.String())
			}
			if got := bytes.Contains(out, []byte("\x1b[32m+")); got != tc.want {
				t.Errorf("coloured: %v, want %v:\n%q", got, tc.want, out)
			}
		})
	}
}

// copyDemo copies the shipped demo project into a temporary directory.
func copyDemo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "demo", "claude-project"))); err != nil {
		t.Fatal(err)
	}
	return dir
}
