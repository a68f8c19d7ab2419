package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// realisticProject writes a project with many hooks in both dialects: the
// realistic Claude settings of the migrate scripts and their migration.
func realisticProject(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	for src, dst := range map[string]string{
		"testdata/realistic-claude.jsonc": ".claude/settings.json",
		"testdata/realistic-gemini.json":  ".gemini/settings.json",
	} {
		b, err := os.ReadFile(src)
		if err != nil {
			tb.Fatal(err)
		}
		p := filepath.Join(dir, dst)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// BenchmarkCheck measures doctor on a realistic project without --probe;
// the target is under 50 ms, for a pre-commit hook.
func BenchmarkCheck(b *testing.B) {
	dir := realisticProject(b)
	env := func(k string) string {
		if k == "PATH" {
			return os.Getenv("PATH")
		}
		return ""
	}
	for b.Loop() {
		if _, err := Check(Options{Dir: dir, Getenv: env}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCheckFindsTheRealisticProjectsKnownProblems(t *testing.T) {
	dir := realisticProject(t)
	fs, err := Check(Options{Dir: dir, Getenv: func(k string) string {
		if k == "GEMINI_CLI_TRUST_WORKSPACE" {
			return "true"
		}
		return os.Getenv(k)
	}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		if f.Severity == Error && strings.Contains(f.Problem, "comment in a strict JSON file") {
			got = append(got, f.File)
		}
	}
	// The source has a comment Claude Code itself rejects (the migrate
	// script says so); hookx's own output has none.
	want := []string{filepath.Join(dir, ".claude/settings.json")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("comment findings (-want +got):\n%s", diff)
	}
}

func TestIsSubpathIsPathwise(t *testing.T) {
	for _, c := range []struct {
		parent, child string
		want          bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b", "/a/b/c", true},
		{"/a/b", "/a/bc", false},
		{"/a/b", "/a", false},
		{"/a/b", "/a/..b", false},
	} {
		if got := isSubpath(c.parent, c.child); got != c.want {
			t.Errorf("isSubpath(%q, %q) = %v, want %v", c.parent, c.child, got, c.want)
		}
	}
}
