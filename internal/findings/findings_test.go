package findings_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/internal/findings"
	"github.com/hookx-dev/hookx/internal/findings/findingstest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestDocsSchemaIsTheEmbeddedOne keeps docs/findings.schema.json (what
// users read) byte-equal to the schema the package embeds and tests.
func TestDocsSchemaIsTheEmbeddedOne(t *testing.T) {
	docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "findings.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(docs, findings.Schema) {
		t.Errorf("docs/findings.schema.json differs from internal/findings/findings.schema.json; run: cp internal/findings/findings.schema.json docs/")
	}
}

// TestSchemaNamesEveryField holds the schema's finding and document
// properties equal to the json names of Finding and Document, so that a
// field added to one is added to the other.
func TestSchemaNamesEveryField(t *testing.T) {
	var s struct {
		Properties map[string]json.RawMessage
		Defs       map[string]struct {
			Properties map[string]json.RawMessage
			Required   []string
		} `json:"$defs"`
	}
	if err := json.Unmarshal(findings.Schema, &s); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		typ    reflect.Type
		schema map[string]json.RawMessage
	}{
		{"Finding", reflect.TypeFor[findings.Finding](), s.Defs["finding"].Properties},
		{"Document", reflect.TypeFor[findings.Document](), s.Properties},
	} {
		var got, want []string
		for f := range c.typ.Fields() {
			got = append(got, strings.Split(f.Tag.Get("json"), ",")[0])
		}
		for k := range c.schema {
			want = append(want, k)
		}
		slices.Sort(got)
		slices.Sort(want)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s's json names differ from the schema's (-schema +Go):\n%s", c.name, d)
		}
	}
	// The fields Go always writes are the ones the schema requires.
	var always []string
	for f := range reflect.TypeFor[findings.Finding]().Fields() {
		if tag := f.Tag.Get("json"); !strings.Contains(tag, "omitempty") {
			always = append(always, tag)
		}
	}
	if d := cmp.Diff(s.Defs["finding"].Required, always); d != "" {
		t.Errorf("Finding's fields without omitempty differ from the schema's required (-schema +Go):\n%s", d)
	}
}

func TestSchema(t *testing.T) {
	s, err := findingstest.Compile()
	if err != nil {
		t.Fatal(err)
	}
	var empty bytes.Buffer
	d := findings.New("doctor", nil)
	d.Doctor = map[string]any{"silenced": []findings.Finding{}}
	if err := d.Write(&empty); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(empty.String(), `"findings": []`) {
		t.Errorf("no findings are not written as []:\n%s", &empty)
	}
	full, _ := json.Marshal(findings.Document{SchemaVersion: 1, Tool: "hookx", Command: "doctor", Doctor: map[string]any{"silenced": []any{}},
		Findings: []findings.Finding{{RuleID: "HX221", Severity: findings.Error, Problem: "p", Fix: "f", File: ".claude/settings.json", Line: 3, Column: 32,
			Agent: "claude", Event: "PreToolUse", Matcher: "Bsh", Command: "x", Guard: true}}})
	for _, c := range []struct {
		name string
		doc  string
		ok   bool
	}{
		{"empty", empty.String(), true},
		{"full", string(full), true},
		{"null findings", `{"schemaVersion":1,"tool":"hookx","command":"doctor","findings":null,"doctor":{"silenced":[]}}`, false},
		{"version 2", `{"schemaVersion":2,"tool":"hookx","command":"doctor","findings":[],"doctor":{"silenced":[]}}`, false},
		{"no extras", `{"schemaVersion":1,"tool":"hookx","command":"doctor","findings":[]}`, false},
		{"other command's extras", `{"schemaVersion":1,"tool":"hookx","command":"doctor","findings":[],"doctor":{"silenced":[]},"migrate":{"targets":[]}}`, false},
		{"level, not severity", `{"schemaVersion":1,"tool":"hookx","command":"doctor","findings":[{"ruleId":"HX1","level":"error","problem":"p"}],"doctor":{"silenced":[]}}`, false},
		{"col, not column", `{"schemaVersion":1,"tool":"hookx","command":"doctor","findings":[{"ruleId":"HX1","severity":"error","problem":"p","file":"f","line":1,"col":2}],"doctor":{"silenced":[]}}`, false},
		{"line without a file", `{"schemaVersion":1,"tool":"hookx","command":"doctor","findings":[{"ruleId":"HX1","severity":"error","problem":"p","line":1}],"doctor":{"silenced":[]}}`, false},
		{"line 0", `{"schemaVersion":1,"tool":"hookx","command":"doctor","findings":[{"ruleId":"HX1","severity":"error","problem":"p","file":"f","line":0}],"doctor":{"silenced":[]}}`, false},
		{"unknown severity", `{"schemaVersion":1,"tool":"hookx","command":"doctor","findings":[{"ruleId":"HX1","severity":"fatal","problem":"p"}],"doctor":{"silenced":[]}}`, false},
		{"silenced without a reason", `{"schemaVersion":1,"tool":"hookx","command":"doctor","findings":[],"doctor":{"silenced":[{"ruleId":"HX1","severity":"error","problem":"p"}]}}`, false},
		{"removed null", `{"schemaVersion":1,"tool":"hookx","command":"migrate","findings":[],"migrate":{"targets":[{"from":"claude","to":"gemini","sources":[],"target":"t","created":false,"wrapped":true,"entries":[],"removed":null,"changed":false,"written":false,"diff":""}]}}`, false},
		{"migrate", `{"schemaVersion":1,"tool":"hookx","command":"migrate","findings":[],"migrate":{"targets":[{"from":"claude","to":"gemini","sources":[],"target":"t","created":false,"wrapped":true,"entries":[],"removed":[],"changed":false,"written":false,"diff":""}]}}`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			err = s.Validate(v)
			if (err == nil) != c.ok {
				t.Errorf("valid = %v, want %v: %v\n%s", err == nil, c.ok, err, c.doc)
			}
		})
	}
}
