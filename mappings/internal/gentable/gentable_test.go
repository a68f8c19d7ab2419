package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hookx-dev/hookx/mappings"
)

// TestGeneratedTableIsFresh fails when mappings/table_gen.go no longer
// matches the data files.
func TestGeneratedTableIsFresh(t *testing.T) {
	want, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../table_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("mappings/table_gen.go is stale; regenerate it with: go generate ./mappings")
	}
	loaded, err := mappings.Load(mappings.Data, "data")
	if err != nil {
		t.Fatal(err)
	}
	opts := cmpopts.IgnoreUnexported(mappings.Table{}, mappings.Dialect{}, mappings.Tool{})
	if diff := cmp.Diff(loaded, mappings.Default(), opts); diff != "" {
		t.Errorf("the compiled table differs from the data files (-data +compiled):\n%s", diff)
	}
}
