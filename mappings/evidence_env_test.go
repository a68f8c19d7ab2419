package mappings_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tailscale/hujson"

	"github.com/hookx-dev/hookx/mappings"
)

// EnvVar is one variable an agent's hook runner sets for a command hook,
// with the evidence (source file and line, binary string, live run).
type EnvVar struct {
	Name string `json:"name"`
	// Kind is project (the project directory), cwd (the hook's working
	// directory), session (the payload's session_id), fixed (always Value),
	// agent (a value only the running agent knows; Why says so), process
	// (set for the agent's whole process, not for hooks; Why says so) or
	// payload (Name "*": each scalar top-level payload field) or field
	// (set from the payload field Value names, a.b for member b of a).
	Kind     string `json:"kind"`
	Value    string `json:"value"`
	Why      string `json:"why"`
	Evidence string `json:"evidence"`
}

// EnvLedger is mappings/data/evidence/<dialect>-env.jsonc.
type EnvLedger struct {
	Agent string   `json:"agent"`
	Vars  []EnvVar `json:"vars"`
}

// LoadEnvLedger reads a dialect's environment ledger strictly.
func LoadEnvLedger(t testing.TB, dialect string) EnvLedger {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("data", "evidence", dialect+"-env.jsonc"))
	if err != nil {
		t.Fatalf("%s: no environment ledger: %v", dialect, err)
	}
	if b, err = hujson.Standardize(b); err != nil {
		t.Fatalf("%s-env.jsonc: %v", dialect, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var l EnvLedger
	if err := dec.Decode(&l); err != nil {
		t.Fatalf("%s-env.jsonc: %v", dialect, err)
	}
	return l
}

// Every variable an agent's hook runner sets is declared in the table the
// way wrap needs it: the project, cwd and session variables and the fixed
// values are what wrap sets for the agent's hooks on every other host; the
// rest are known (doctor). And the table declares nothing the ledger does
// not prove. (Gemini's CLAUDE_PROJECT_DIR was only "known": through hookx
// a Gemini hook got none on Codex, and a guard keyed on it allowed.)
func TestEnvLedgerHoldsTheTable(t *testing.T) {
	table := mappings.Default()
	for _, d := range table.Dialects {
		t.Run(d.Name, func(t *testing.T) {
			l := LoadEnvLedger(t, d.Name)
			e := d.Env
			declared := map[string]string{}
			if e.ProjectDir != "" {
				declared[e.ProjectDir] = "project"
			}
			for _, k := range e.ProjectDirs {
				declared[k] = "project"
			}
			if e.Cwd != "" {
				declared[e.Cwd] = "cwd"
			}
			if e.SessionID != "" {
				declared[e.SessionID] = "session"
			}
			for k := range e.Set {
				declared[k] = "fixed"
			}
			for k := range e.FromPayload {
				declared[k] = "field"
			}
			seen := map[string]bool{}
			for _, v := range l.Vars {
				if seen[v.Name] {
					t.Errorf("%s listed twice", v.Name)
				}
				seen[v.Name] = true
				if v.Evidence == "" {
					t.Errorf("%s: no evidence", v.Name)
				}
				switch v.Kind {
				case "project", "cwd", "session":
					if declared[v.Name] != v.Kind {
						t.Errorf("%s sets %s (%s) for its hooks; the table's env does not declare it as its %s variable (%s)", d.Agent, v.Name, v.Evidence, v.Kind, declared[v.Name])
					}
				case "fixed":
					if got, ok := e.Set[v.Name]; !ok || got != v.Value {
						t.Errorf("%s sets %s=%s for its hooks (%s); the table's env.set has %q", d.Agent, v.Name, v.Value, v.Evidence, got)
					}
				case "field":
					if got, ok := e.FromPayload[v.Name]; !ok || got != v.Value {
						t.Errorf("%s sets %s from the payload's %s for its hooks (%s); the table's env.fromPayload has %q", d.Agent, v.Name, v.Value, v.Evidence, got)
					}
				case "payload":
					if !e.PayloadVars {
						t.Errorf("%s gives its hooks their payload's fields as variables (%s); the table's env.payloadVars is false", d.Agent, v.Evidence)
					}
					continue
				case "process":
					if v.Why == "" {
						t.Errorf("%s: kind process without why", v.Name)
					}
					if declared[v.Name] != "" {
						t.Errorf("%s: wrap sets it as %s, the ledger says it is %s's process environment", v.Name, declared[v.Name], d.Agent)
					}
					continue
				case "agent":
					if v.Why == "" {
						t.Errorf("%s: kind agent without why", v.Name)
					}
					if declared[v.Name] != "" {
						t.Errorf("%s: wrap sets it as %s, the ledger says only %s knows it", v.Name, declared[v.Name], d.Agent)
					}
				default:
					t.Errorf("%s: unknown kind %q", v.Name, v.Kind)
				}
				if declared[v.Name] == "" && !known(e.Known, v.Name) {
					t.Errorf("%s sets %s for its hooks (%s); the table's env.known lacks it", d.Agent, v.Name, v.Evidence)
				}
			}
			if e.PayloadVars && !slices.ContainsFunc(l.Vars, func(v EnvVar) bool { return v.Kind == "payload" }) {
				t.Errorf("the table says %s gives its hooks their payload's fields as variables; the ledger has no evidence of it", d.Agent)
			}
			for _, k := range d.Command.AlsoSets {
				if !seen[k] {
					t.Errorf("command.alsoSets says %s sets %s for its hooks; the ledger has no evidence of it", d.Agent, k)
				}
			}
			for k, kind := range declared {
				if !seen[k] {
					t.Errorf("the table says %s sets %s (%s) for its hooks; the ledger has no evidence of it", d.Agent, k, kind)
				}
			}
		})
	}
}

func known(list []string, name string) bool {
	return slices.ContainsFunc(list, func(v string) bool {
		return v == name || strings.HasSuffix(v, "*") && strings.HasPrefix(name, strings.TrimSuffix(v, "*"))
	})
}
