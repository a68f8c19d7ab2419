package migrate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDemoProject keeps demo/claude-project (the README's first command)
// migrating as the README describes it.
func TestDemoProject(t *testing.T) {
	dir := filepath.Join("..", "demo", "claude-project", ".claude")
	var srcs []Source
	for _, f := range []string{"settings.json", "settings.local.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, Source{Path: f, Data: b})
	}
	res, err := Plan(Options{From: "claude", To: "gemini", Wrap: true, Hookx: "hookx"}, srcs, Source{Path: ".gemini/settings.json"})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(res.Entries); got != 10 {
		t.Errorf("%d entries, want 10", got)
	}
	// The prompt handler, the SubagentStop hook, the if condition and the
	// async logger cannot be carried.
	if got := res.Count(NotCarried); got != 4 {
		t.Errorf("%d items not carried, want 4:\n%s", got, FormatReport(res, false, true))
	}
	for _, s := range []string{"bash-guard.sh", "env-guard.sh", "format.sh", "session-context.sh", "prompt-context.sh", "stop-check.sh", "notify.sh", "push-check.sh", "audit.sh"} {
		fi, err := os.Stat(filepath.Join(dir, "hooks", s))
		if err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("demo hook %s missing or not executable", s)
		}
	}
}
