// Package findingstest validates hookx's --json output against the
// findings schema, for tests (it keeps the validator out of the binary).
package findingstest

import (
	"bytes"
	"testing"

	"github.com/hookx-dev/hookx/internal/findings"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile compiles findings.Schema, asserting formats.
func Compile() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(findings.Schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(findings.SchemaID, doc); err != nil {
		return nil, err
	}
	return c.Compile(findings.SchemaID)
}

// Validate fails t unless out is one JSON document valid against the
// findings schema.
func Validate(t testing.TB, out []byte) {
	t.Helper()
	s, err := Compile()
	if err != nil {
		t.Fatalf("the findings schema does not compile: %v", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if err := s.Validate(v); err != nil {
		t.Fatalf("output does not match docs/findings.schema.json: %v\n%s", err, out)
	}
}
