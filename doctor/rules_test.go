package doctor

import (
	"flag"
	"fmt"
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

const (
	readmeRulesBegin = "<!-- BEGIN doctor rules: HOOKX_UPDATE_README=1 go test ./doctor -run TestReadmeRulesTable -->\n"
	readmeRulesEnd   = "<!-- END doctor rules -->\n"
)

// rulesTable renders the registry as the README's Markdown table.
func rulesTable() string {
	var b strings.Builder
	b.WriteString("| id | name | severity | consequence | what it finds |\n|---|---|---|---|---|\n")
	for _, r := range Rules() {
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", r.ID, r.Name, r.Severity, r.Consequence, strings.ReplaceAll(r.Summary, "|", `\|`))
	}
	return b.String()
}

// TestReadmeRulesTable holds the README's table of doctor's rules (the
// helpUri of every SARIF rule points there) to the registry; with
// HOOKX_UPDATE_README=1 it rewrites the section.
func TestReadmeRulesTable(t *testing.T) {
	const path = "../docs/doctor.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, readmeRulesBegin), strings.Index(s, readmeRulesEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/doctor.md has no section between %q and %q", readmeRulesBegin, readmeRulesEnd)
	}
	got, want := s[i+len(readmeRulesBegin):j], rulesTable()
	if got == want {
		return
	}
	if os.Getenv("HOOKX_UPDATE_README") == "1" {
		if err := os.WriteFile(path, []byte(s[:i+len(readmeRulesBegin)]+want+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/doctor.md's table of doctor rules is stale; run HOOKX_UPDATE_README=1 go test ./doctor -run TestReadmeRulesTable\n%s", cmp.Diff(want, got))
}
