package main

import (
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// TestDocsTablesAreFresh fails when a generated table of docs/ no longer
// says what the mapping table says, or a page lost its markers.
func TestDocsTablesAreFresh(t *testing.T) {
	for _, b := range blocks(mappings.Default()) {
		old, out, err := fresh("../..", b)
		if err != nil {
			t.Error(err)
			continue
		}
		if string(old) != string(out) {
			t.Errorf("%s: its generated table is stale; regenerate it with:\n  go run ./scripts/readme-table", b.path)
		}
	}
}
