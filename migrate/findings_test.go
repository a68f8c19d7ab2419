package migrate

import "testing"

func TestSplitWhere(t *testing.T) {
	for _, c := range []struct {
		in   string
		file string
		line int
	}{
		{".claude/settings.json:3", ".claude/settings.json", 3},
		{".claude/settings.json", ".claude/settings.json", 0},
		{"my dir:12/.claude/settings.json", "my dir:12/.claude/settings.json", 0},
		{"a:b/settings.json:7", "a:b/settings.json", 7},
		{"settings.json:+3", "settings.json:+3", 0},
		{"settings.json:0", "settings.json:0", 0},
		{":3", ":3", 0},
		{"", "", 0},
	} {
		if file, line := splitWhere(c.in); file != c.file || line != c.line {
			t.Errorf("splitWhere(%q) = %q, %d; want %q, %d", c.in, file, line, c.file, c.line)
		}
	}
}
