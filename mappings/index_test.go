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

// A tool reached before its dialect is indexed still names its arguments.
func TestArgForBeforeItsDialectIsIndexed(t *testing.T) {
	full := Default()
	lazy := generated()
	lazy.indexNames()
	for i, d := range full.Dialects {
		for j, tool := range d.Tools {
			for arg, c := range tool.Fields {
				want, wok := tool.ArgFor(c)
				got, ok := lazy.Dialects[i].Tools[j].ArgFor(c)
				if got != want || ok != wok || want != arg && ok {
					t.Errorf("%s %s ArgFor(%s) = %q, %v before indexing; %q, %v after", d.Name, tool.Name, c, got, ok, want, wok)
				}
			}
		}
	}
}
