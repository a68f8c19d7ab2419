package doctor

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updateRules = flag.Bool("update-rules", false, "rewrite testdata/rules.golden from the registry (only to ADD rules)")

// TestRulesRegistry holds the registry's invariants: ids HX and three
// digits, unique ids and names, the hundreds matching the severity and the
// consequence.
func TestRulesRegistry(t *testing.T) {
	if err := validateRules(); err != nil {
		t.Fatal(err)
	}
}

// TestRulesStable holds the ids against testdata/rules.golden: a rule
// renumbered, renamed or removed fails here, because --ignore lists,
// inline silences and SARIF baselines name rules by id. Adding a rule:
// add its line (go test ./doctor -run TestRulesStable -update-rules).
func TestRulesStable(t *testing.T) {
	var b strings.Builder
	for _, r := range Rules() {
		b.WriteString(r.ID + " " + r.Name + "\n")
	}
	if *updateRules {
		if err := os.WriteFile("testdata/rules.golden", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/rules.golden")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("the rule registry differs from testdata/rules.golden (-golden +registry); ids are stable: never renumber, rename or reuse one\n%s", diff)
	}
}
