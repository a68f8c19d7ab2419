package translate

import (
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// TestPluginAnswerOverItsBound: the plugins (hookx.js, hookx.ts) kill hookx
// and refuse once its answer is over MAX_OUTPUT (1 MiB of text, counted in
// UTF-16 units, never more than the bytes). hookx read a hook written to
// the plugin's protocol up to its own 16 MiB bound, so {"reason": <1 MiB>}
// or 1 MiB of white space before {} was an allow where the plugin refuses.
// The over-bound cases fail on 5a008d0.
func TestPluginAnswerOverItsBound(t *testing.T) {
	tab := mappings.Default()
	for _, tc := range []struct {
		name, stdout string
		block        bool
	}{
		{"reason of 1 MiB", `{"reason":"` + strings.Repeat("A", 1<<20) + `"}`, true},
		{"white space of 1 MiB", strings.Repeat(" ", 1<<20) + "{}", true},
		{"3-byte text over 1 MiB of bytes", `{"reason":"` + strings.Repeat("一", 400000) + `"}`, true},
		{"at the bound", `{"reason":"` + strings.Repeat("A", 1<<20-13) + `"}`, false},
		{"small", `{}`, false},
	} {
		for _, dialect := range []string{"opencode", "kilo", "pi"} {
			d := tab.MustDialect(dialect)
			event := "tool.execute.before"
			if dialect == "pi" {
				event = "tool_call"
			}
			v, _, err := ReadOutput(d, event, Output{Stdout: []byte(tc.stdout)})
			if err != nil {
				t.Fatal(err)
			}
			if v.Block != tc.block {
				t.Errorf("%s, %s: Block = %v (%q), want %v", tc.name, dialect, v.Block, truncate(v.Reason, 100), tc.block)
			}
		}
	}
}
