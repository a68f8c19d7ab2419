package main

import (
	"testing"

	"github.com/hookx-dev/hookx/migrate"
	"github.com/spf13/pflag"
)

// TestMigrateKnowsWrapsValueFlags: migrate reads hookx wrap commands back
// (to unwrap them instead of wrapping twice); every wrap flag that takes a
// value must be known to it, or such an entry is not recognised.
func TestMigrateKnowsWrapsValueFlags(t *testing.T) {
	cmd := newWrapCmd(streams{}, nil)
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() != "bool" && !migrate.WrapValueFlags["--"+f.Name] {
			t.Errorf("wrap flag --%s takes a value, and migrate.WrapValueFlags does not list it", f.Name)
		}
	})
}
