package translate

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

// TestFamiliesAreTheProtocols holds the families against the table's
// protocols: a protocol without a family would panic at its first hook.
func TestFamiliesAreTheProtocols(t *testing.T) {
	if diff := cmp.Diff(slices.Sorted(slices.Values(mappings.Protocols)), slices.Sorted(maps.Keys(families))); diff != "" {
		t.Errorf("families (-mappings.Protocols +families):\n%s", diff)
	}
	for _, d := range mappings.Default().Dialects {
		if _, ok := families[d.Protocol]; !ok {
			t.Errorf("%s: protocol %q has no family", d.Name, d.Protocol)
		}
	}
}
