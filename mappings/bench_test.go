package mappings

import "testing"

// BenchmarkBuildTable is the table built from its Go literal, indexed and
// validated as a whole (index): what Load and the tests pay.
func BenchmarkBuildTable(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		t := generatedTable()
		if err := t.index(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDefaultForWrap is what a translated hook call paid for the
// table: Default's build from the Go literal, and the lookups of the two
// dialects it uses (the host's and the hook's), the others left unindexed.
func BenchmarkDefaultForWrap(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		t := generatedTable()
		t.indexNames()
		for _, name := range []string{"claude", "gemini"} {
			d, err := t.Dialect(name)
			if err != nil {
				b.Fatal(err)
			}
			d.Event("PreToolUse")
		}
	}
}

// BenchmarkHookShell is all a pass-through wrap asks of the table.
func BenchmarkHookShell(b *testing.B) {
	for b.Loop() {
		if _, ok := HookShell("gemini"); !ok {
			b.Fatal("no gemini")
		}
	}
}

// BenchmarkLazyForWrap is what a translated hook call pays for the table
// now (Lazy): the two dialects it uses built and indexed, the others not at
// all.
func BenchmarkLazyForWrap(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		t := Lazy()
		for _, name := range []string{"claude", "gemini"} {
			d, err := t.Dialect(name)
			if err != nil {
				b.Fatal(err)
			}
			d.Event("PreToolUse")
		}
	}
}
