package oracleproc

import (
	"os/exec"
	"strings"
	"testing"
)

// An oracle answers each question on its own line, in order, and what is
// not one JSON line, or no answer at all, is an error naming the oracle.
func TestAsk(t *testing.T) {
	echo, err := Start("echo", exec.Command("sh", "-c", `while IFS= read -r l; do printf '%s\n' "$l"; done`))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []map[string]string{{"a": "1"}, {"b": "line\nbreak"}} {
		var got map[string]string
		if err := echo.Ask(q, &got); err != nil || len(got) != 1 || got["a"]+got["b"] != q["a"]+q["b"] {
			t.Errorf("asked %v, got %v (%v)", q, got, err)
		}
	}

	bad, err := Start("the bad oracle", exec.Command("sh", "-c", `read -r l; echo not json; read -r l`))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := bad.Ask(1, &v); err == nil || !strings.Contains(err.Error(), `the bad oracle answered "not json\n"`) {
		t.Errorf("non-JSON answer: %v", err)
	}
	if err := bad.Ask(2, &v); err == nil || !strings.Contains(err.Error(), "reading from the bad oracle") {
		t.Errorf("no answer: %v", err)
	}
}
