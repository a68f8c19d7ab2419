package doctor

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"mvdan.cc/sh/v3/syntax"
)

// TestWordFieldsReadsWordsAsTheShellDoes: doctor's words are the shell's
// (expand.Fields). On 6d1fc18 doctor's hand-written reading kept the
// backslash of the '"'\$'X"' spelling migrate writes, so every migrated
// hook's script "did not exist", and it gave an unquoted $X with a space
// as one word where the shell splits it.
func TestWordFieldsReadsWordsAsTheShellDoes(t *testing.T) {
	vars := map[string]string{"X": "/p q", "HOME": "/home/u"}
	for _, c := range []struct {
		word string
		want []string // nil: not known without running the shell
	}{
		{`./a`, []string{"./a"}},
		{`'"'\$'X"/x.sh'`, []string{`"$X"/x.sh`}}, // migrate's spelling of a wrapped command
		{`"$X"/z`, []string{"/p q/z"}},
		{`$X/y`, []string{"/p", "q/y"}},
		{`~/h`, []string{"/home/u/h"}},
		{`\;`, []string{";"}},
		{`$(date)`, nil},
		{`"$(id)"`, nil},
		{`$?`, nil},
		{`$UNSET/x`, nil},
		{`` + "`id`", nil},
		{`a{b,c}`, []string{"ab", "ac"}},
		{strings.Repeat("{a,b}", 60), nil}, // 2^60 fields: not expanded
		{strings.Repeat("{a,b}''", 60), nil},
	} {
		f, err := shParser().Parse(strings.NewReader(c.word), "")
		if err != nil {
			t.Fatalf("%s: %v", c.word, err)
		}
		got, ok := wordFields(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[0], vars)
		if !ok {
			got = nil
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.word, diff)
		}
	}
}
