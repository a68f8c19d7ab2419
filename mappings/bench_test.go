package mappings

import "testing"

// BenchmarkBuildTable is what every translated hook call pays once: the
// table built from its Go literal and indexed (Default).
func BenchmarkBuildTable(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		t := generatedTable()
		if err := t.index(); err != nil {
			b.Fatal(err)
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
