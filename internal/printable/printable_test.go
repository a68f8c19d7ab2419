package printable

import "testing"

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"plain ./guard.sh":       "plain ./guard.sh",
		"a\nfake.json:1:1: note": `a\nfake.json:1:1: note`,
		"x\x1b[2K\ry":            `x\x1b[2K\ry`,
		"rm \u202e-rf":           `rm \u202e-rf`,
		"é ok":                   "é ok",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
