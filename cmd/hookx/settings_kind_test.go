//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSettingsThatAreNotFiles: a repository can commit a settings file that
// is a link to /dev/zero or leave a FIFO in its place. migrate and doctor
// read it with os.ReadFile before: a FIFO hung them, /dev/zero ran them out
// of memory. Now each refuses what is not a regular file (migrate: bad
// input, naming the file; doctor: as absent), at once.
func TestSettingsThatAreNotFiles(t *testing.T) {
	for _, kind := range []string{"fifo", "dev-zero"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			home := t.TempDir()
			t.Setenv("HOME", home)
			claude := filepath.Join(dir, ".claude")
			if err := os.Mkdir(claude, 0o755); err != nil {
				t.Fatal(err)
			}
			settings := filepath.Join(claude, "settings.json")
			switch kind {
			case "fifo":
				if err := syscall.Mkfifo(settings, 0o644); err != nil {
					t.Fatal(err)
				}
			case "dev-zero":
				if err := os.Symlink("/dev/zero", settings); err != nil {
					t.Fatal(err)
				}
			}
			for _, args := range [][]string{
				{"migrate", "--from", "claude", "--to", "gemini", "--dir", dir, "--dry-run"},
				{"doctor", "--dir", dir},
			} {
				var stdout, stderr bytes.Buffer
				done := make(chan int, 1)
				go func() { done <- run(args, strings.NewReader(""), &stdout, &stderr) }()
				select {
				case code := <-done:
					if args[0] == "migrate" {
						if code != exitBadInput || !strings.Contains(stderr.String(), "not a regular file") {
							t.Errorf("%v: exit %d, stderr %q; want %d naming a file that is not a regular file", args, code, stderr.String(), exitBadInput)
						}
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("%v did not return in 10 s on a settings file that is a %s", args, kind)
				}
			}
		})
	}
}
