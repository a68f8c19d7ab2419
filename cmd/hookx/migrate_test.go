package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// casProject writes a project with one Claude hook and a Gemini target,
// and returns its directory.
func casProject(t *testing.T) string {
	dir := t.TempDir()
	for name, content := range map[string]string{
		".claude/settings.json": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./s.sh"}]}]}}`,
		".gemini/settings.json": `{"ui": {"theme": "dark"}}` + "\n",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// An edit saved to the target while migrate runs is not lost: migrate
// plans again from the edited file, and the edit is in the result.
func TestMigrateReplansAfterConcurrentEdit(t *testing.T) {
	dir := casProject(t)
	target := filepath.Join(dir, ".gemini", "settings.json")
	var out, errb bytes.Buffer
	edits := 0
	opts := &migrateOptions{s: streams{Out: &out, Err: &errb}, from: "claude", dir: dir, hookx: "hookx",
		beforeWrite: func() {
			if edits == 0 {
				os.WriteFile(target, []byte(`{"ui": {"theme": "light"}}`+"\n"), 0o644)
			}
			edits++
		}}
	if err := migrateRun(opts); err != nil {
		t.Fatalf("migrateRun: %v\n%s", err, errb.String())
	}
	got, _ := os.ReadFile(target)
	if !bytes.Contains(got, []byte(`"light"`)) || !bytes.Contains(got, []byte("hookx:Stop:0:")) {
		t.Errorf("the edit made during the run is lost, or the hooks are missing:\n%s", got)
	}
	if edits != 2 {
		t.Errorf("planned %d times, want 2", edits)
	}
}

// A target that keeps changing during the run is left alone: exit 3,
// nothing written, no backup made.
func TestMigrateGivesUpOnATargetThatKeepsChanging(t *testing.T) {
	dir := casProject(t)
	target := filepath.Join(dir, ".gemini", "settings.json")
	var out, errb bytes.Buffer
	n := 0
	opts := &migrateOptions{s: streams{Out: &out, Err: &errb}, from: "claude", dir: dir, hookx: "hookx",
		beforeWrite: func() {
			n++
			os.WriteFile(target, []byte(`{"edit": `+strings.Repeat("1", n)+"}\n"), 0o644)
		}}
	err := migrateRun(opts)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitInternal {
		t.Fatalf("migrateRun: %v, want exit %d", err, exitInternal)
	}
	if !strings.Contains(err.Error(), "nothing written") {
		t.Errorf("error %q does not say nothing was written", err)
	}
	if got, _ := os.ReadFile(target); string(got) != `{"edit": 111}`+"\n" {
		t.Errorf("target is %q, want the user's last edit", got)
	}
	if _, err := os.Stat(target + ".hookx.bak"); err == nil {
		t.Errorf("a backup was written")
	}
}
