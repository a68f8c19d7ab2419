package mappings

import (
	"reflect"
	"regexp"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The table Default serves skips validation (done when it is generated,
// and here): the generated table must pass it.
func TestGeneratedTableValidates(t *testing.T) {
	if generated == nil {
		t.Skip("built with hookx_gentable: Default is Load, which validates")
	}
	if err := generated().index(); err != nil {
		t.Fatal(err)
	}
}

// Default indexes each dialect on first use, without the checks of index;
// the lookups must come out exactly as index builds them, for every
// dialect, however it is first reached.
func TestLazyIndexBuildsWhatIndexBuilds(t *testing.T) {
	if generated == nil {
		t.Skip("built with hookx_gentable: Default is Load, which indexes eagerly")
	}
	full := generated()
	if err := full.index(); err != nil {
		t.Fatal(err)
	}
	// Only index (validation) builds a tool's canonField; ArgFor gives the
	// same answers without it (TestArgForBeforeItsDialectIsIndexed).
	for _, d := range full.Dialects {
		for _, tool := range d.Tools {
			tool.canonField = nil
		}
	}
	firstUse := map[string]func(d *Dialect){
		"Event":    func(d *Dialect) { d.Event("x") },
		"EventFor": func(d *Dialect) { d.EventFor("x") },
		"Tool":     func(d *Dialect) { d.Tool("x") },
		"ToolFor":  func(d *Dialect) { d.ToolFor("x") },
		"ToolsFor": func(d *Dialect) { d.ToolsFor("x") },
		// The exact-list pattern first, then the lookups.
		"IsExactList": func(d *Dialect) { d.IsExactList("x"); d.Event("x") },
	}
	opts := cmp.Options{
		cmp.AllowUnexported(Table{}, Dialect{}, Tool{}),
		cmpopts.IgnoreTypes(sync.Once{}),
		cmp.Comparer(func(a, b *regexp.Regexp) bool {
			return a == nil && b == nil || a != nil && b != nil && a.String() == b.String()
		}),
	}
	for name, use := range firstUse {
		lazy := generated()
		lazy.indexNames()
		for _, d := range lazy.Dialects {
			use(d)
			if name != "IsExactList" && d.exactList != nil {
				t.Errorf("%s: %s compiled the exact-list pattern, which only IsExactList needs", d.Name, name)
			}
			// The pattern is compiled on its own first use (only migrate
			// reads it; a hook call would compile it for nothing).
			d.IsExactList("x")
		}
		if reflect.DeepEqual(full, lazy) {
			continue // the fast check; cmp says where they differ
		}
		if diff := cmp.Diff(full, lazy, opts); diff != "" {
			t.Errorf("indexed lazily through %s (-index +lazy):\n%s", name, diff)
		}
	}
}

// A tool reached before its dialect is indexed, or after, names its
// arguments as a validated table does.
func TestArgForBeforeItsDialectIsIndexed(t *testing.T) {
	// index (validation) builds each tool's canonField; the lazy lookups
	// do not, and ArgFor must answer the same without it.
	full := generated()
	if err := full.index(); err != nil {
		t.Fatal(err)
	}
	for _, when := range []string{"before", "after"} {
		lazy := generated()
		lazy.indexNames()
		for i, d := range full.Dialects {
			if when == "after" {
				lazy.Dialects[i].ensureIndex() // as a hook call indexes it
			}
			for j, tool := range d.Tools {
				for arg, c := range tool.Fields {
					want, wok := tool.ArgFor(c)
					got, ok := lazy.Dialects[i].Tools[j].ArgFor(c)
					if got != want || ok != wok || want != arg && ok {
						t.Errorf("%s %s ArgFor(%s) = %q, %v %s its lazy indexing; %q, %v through index", d.Name, tool.Name, c, got, ok, when, want, wok)
					}
				}
				// Nor does it find what the tool does not take.
				if got, ok := lazy.Dialects[i].Tools[j].ArgFor("no such argument"); ok {
					t.Errorf("%s %s ArgFor(no such argument) = %q, true %s its lazy indexing", d.Name, tool.Name, got, when)
				}
			}
		}
	}
}
