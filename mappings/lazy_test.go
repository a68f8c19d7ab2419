package mappings

import (
	"reflect"
	"regexp"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func skipWithoutGenerated(t *testing.T) {
	t.Helper()
	if generatedDialect == nil {
		t.Skip("built with hookx_gentable: Lazy is Default")
	}
}

var dialectOpts = cmp.Options{
	cmp.AllowUnexported(Dialect{}, Tool{}),
	cmpopts.IgnoreTypes(sync.Once{}),
	cmp.Comparer(func(a, b *regexp.Regexp) bool {
		return a == nil && b == nil || a != nil && b != nil && a.String() == b.String()
	}),
}

// Each dialect of a lazy table, whichever is built first and however it is
// first reached, is Default's: the same data and the same lookups; the
// table lists every name, and holds every dialect once all are asked for.
func TestLazyTableIsDefaultsTable(t *testing.T) {
	skipWithoutGenerated(t)
	full := Default()
	for _, d := range full.Dialects {
		d.ensureIndex()
	}
	names := full.DialectNames()
	for _, first := range names {
		for _, second := range names {
			lazy := Lazy()
			if len(lazy.Dialects) != 0 {
				t.Fatalf("a new lazy table holds %d dialects, want none built", len(lazy.Dialects))
			}
			if diff := cmp.Diff(names, lazy.DialectNames()); diff != "" {
				t.Fatalf("DialectNames (-Default +Lazy):\n%s", diff)
			}
			if diff := cmp.Diff(full.Canonical, lazy.Canonical); diff != "" {
				t.Fatalf("Canonical (-Default +Lazy):\n%s", diff)
			}
			for _, name := range []string{first, second} {
				d, err := lazy.Dialect(name)
				if err != nil {
					t.Fatal(err)
				}
				again, _ := lazy.Dialect(name)
				if again != d {
					t.Fatalf("%s built twice", name)
				}
				d.Event("x")
				want := full.MustDialect(name)
				if reflect.DeepEqual(want, d) {
					continue
				}
				if diff := cmp.Diff(want, d, dialectOpts); diff != "" {
					t.Fatalf("%s built after %s (-Default +Lazy):\n%s", name, first, diff)
				}
			}
			built := []string{}
			for _, d := range lazy.Dialects {
				built = append(built, d.Name)
			}
			want := []string{}
			for _, n := range names { // in the table's order
				if n == first || n == second {
					want = append(want, n)
				}
			}
			if diff := cmp.Diff(want, built); diff != "" {
				t.Fatalf("built %s then %s: Dialects (-want +got):\n%s", first, second, diff)
			}
		}
	}
	lazy := Lazy()
	lazy.MustDialect(names[len(names)-1])
	if got := lazy.all(); len(got) != len(names) {
		t.Fatalf("all() holds %d dialects, want %d", len(got), len(names))
	}
	for i, d := range lazy.Dialects {
		if d.Name != names[i] {
			t.Fatalf("Dialects[%d] = %s, want %s", i, d.Name, names[i])
		}
	}
	if _, err := lazy.Dialect("nosuch"); err == nil || err.Error() != func() string { _, err := full.Dialect("nosuch"); return err.Error() }() {
		t.Errorf("unknown dialect: %v, want Default's error", err)
	}
}

// The generated clues are what each dialect of the table says.
func TestGeneratedCluesAreTheDialects(t *testing.T) {
	skipWithoutGenerated(t)
	if diff := cmp.Diff(Default().Clues(), Lazy().Clues()); diff != "" {
		t.Errorf("generated clues (-dialects +generated):\n%s", diff)
	}
	loaded, err := Load(Data, "data")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(loaded.Clues(), Lazy().Clues()); diff != "" {
		t.Errorf("generated clues (-data files +generated):\n%s", diff)
	}
}

// The questions about every dialect get Default's answers from a lazy
// table, whatever it has built so far.
func TestLazyTableAnswersForEveryDialect(t *testing.T) {
	skipWithoutGenerated(t)
	full := Default()
	var events []string
	for _, d := range full.Dialects {
		events = append(events, d.EventNames()...)
	}
	events = append(events, "NoSuchEvent", "")
	name := func(d *Dialect) string {
		if d == nil {
			return "<nil>"
		}
		return d.Name
	}
	for _, hook := range full.Dialects {
		for _, ev := range events {
			lazy := Lazy()
			lh := lazy.MustDialect(hook.Name)
			if got, want := lazy.EventHint(lh, ev), full.EventHint(hook, ev); got != want {
				t.Errorf("EventHint(%s, %q) = %q, want %q", hook.Name, ev, got, want)
			}
			lazy = Lazy()
			if got, want := name(lazy.EventOwner(ev)), name(full.EventOwner(ev)); got != want {
				t.Errorf("EventOwner(%q) = %s, want %s", ev, got, want)
			}
			lazy = Lazy()
			if got, want := name(lazy.LikelyHost(ev, hook.Name)), name(full.LikelyHost(ev, hook.Name)); got != want {
				t.Errorf("LikelyHost(%q, %s) = %s, want %s", ev, hook.Name, got, want)
			}
		}
	}
}

// What wrap asks without building a dialect (HookShell, CommandOf, Names)
// is what the dialects say.
func TestGeneratedLookupsAreTheDialects(t *testing.T) {
	full := Default()
	if diff := cmp.Diff(full.DialectNames(), Names()); diff != "" {
		t.Errorf("Names (-dialects +generated):\n%s", diff)
	}
	for _, d := range full.Dialects {
		if sh, ok := HookShell(d.Name); sh != d.Shell || !ok {
			t.Errorf("HookShell(%s) = %q, %v; want %q", d.Name, sh, ok, d.Shell)
		}
		c, ok := CommandOf(d.Name)
		if diff := cmp.Diff(d.Command, c); diff != "" || !ok {
			t.Errorf("CommandOf(%s) (-dialect +generated), found %v:\n%s", d.Name, ok, diff)
		}
	}
	if sh, ok := HookShell("nosuch"); ok || sh != "" {
		t.Errorf("HookShell(nosuch) = %q, %v", sh, ok)
	}
	if _, ok := CommandOf("nosuch"); ok {
		t.Error("CommandOf(nosuch) found")
	}
}
