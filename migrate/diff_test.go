package migrate

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnifiedDiffAppliesWithPatch feeds the renderer's output to patch(1)
// and checks that it turns a into b exactly.
func TestUnifiedDiffAppliesWithPatch(t *testing.T) {
	patchBin, err := exec.LookPath("patch")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("patch is required in CI")
		}
		t.Skip("patch not installed")
	}
	cases := map[string][2]string{
		"create":                 {"", "a\nb\n"},
		"append":                 {"a\nb\n", "a\nb\nc\n"},
		"no final newline, old":  {"a\nb", "a\nb\n"},
		"no final newline, new":  {"a\nb\n", "a\nc"},
		"no final newline, both": {"x\ny", "x\nz"},
		"middle":                 {"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n"},
		"two hunks":              {lines(1, 30), strings.Replace(strings.Replace(lines(1, 30), "3\n", "three\n", 1), "27\n", "", 1)},
		"crlf":                   {"{\r\n  \"a\": 1\r\n}\r\n", "{\r\n  \"a\": 1,\r\n  \"b\": 2\r\n}\r\n"},
		"delete all":             {"a\nb\n", ""},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 40 {
		a := randomLines(r, 1+r.IntN(40))
		cases[fmt.Sprintf("random %d", i)] = [2]string{a, mutate(r, a)}
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "f.json")
			if err := os.WriteFile(file, []byte(c[0]), 0o644); err != nil {
				t.Fatal(err)
			}
			d := UnifiedDiff("a/f.json", "b/f.json", []byte(c[0]), []byte(c[1]))
			if c[0] == c[1] {
				if d != "" {
					t.Fatalf("equal inputs gave a diff:\n%s", d)
				}
				return
			}
			cmd := exec.Command(patchBin, "-p1", "--binary", "-s", "-f")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(d)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("patch: %v\n%s\ndiff:\n%s", err, out, d)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c[1] {
				t.Fatalf("patched file = %q, want %q\ndiff:\n%s", got, c[1], d)
			}
		})
	}
}

func TestUnifiedDiffFormat(t *testing.T) {
	got := UnifiedDiff("/dev/null", "b/x", nil, []byte("a\nb"))
	want := "--- /dev/null\n+++ b/x\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if c := Colorize(got); !strings.Contains(c, "\x1b[32m+a\x1b[0m\n") || strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(c, "\x1b[1m", ""), "\x1b[36m", ""), "\x1b[32m", ""), "\x1b[31m", ""), "\x1b[0m", "") != got {
		t.Errorf("Colorize changed more than colours:\n%q", c)
	}
}

func lines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

func randomLines(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		fmt.Fprintf(&b, "line %d\n", r.IntN(8))
	}
	return b.String()
}

func mutate(r *rand.Rand, s string) string {
	ls := strings.SplitAfter(s, "\n")
	for range 1 + r.IntN(5) {
		i := r.IntN(len(ls))
		switch r.IntN(3) {
		case 0:
			ls = append(ls[:i], ls[i+1:]...)
		case 1:
			ls = append(ls[:i], append([]string{fmt.Sprintf("new %d\n", r.IntN(100))}, ls[i:]...)...)
		default:
			ls[i] = fmt.Sprintf("changed %d\n", r.IntN(100))
		}
		if len(ls) == 0 {
			ls = []string{"x\n"}
		}
	}
	out := strings.Join(ls, "")
	if r.IntN(4) == 0 {
		out = strings.TrimSuffix(out, "\n")
	}
	return out
}
