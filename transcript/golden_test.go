package transcript

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected translations in testdata")

// The goldens hold the translation into the other agent's format of a
// transcript written by the real agent (../testdata/transcripts, recorded by
// the conformance suite; see its README). Each is checked in its direction: from the real
// file, hookx must produce exactly the translation.
func TestTranslationGoldens(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no goldens in testdata")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := parseGolden(file)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string]int{}
			for i, f := range ar.Files {
				sec[f.Name] = i
			}
			src, dst := "real-claude.jsonl", "as-gemini.jsonl"
			from, to := "claude", "gemini"
			if _, ok := sec[src]; !ok {
				src, dst, from, to = "real-gemini.jsonl", "as-claude.jsonl", "gemini", "claude"
			}
			si, ok := sec[src]
			if !ok {
				t.Fatalf("%s has neither real-claude.jsonl nor real-gemini.jsonl", file)
			}
			conv, err := NewConverter(mappings.Default(), from, to)
			if err != nil {
				t.Fatal(err)
			}
			conv.Session, conv.Cwd = "00000000-0000-4000-8000-000000000000", "/scratch/home/project"
			got, _ := conv.Convert(ar.Files[si].Data, "")
			di, ok := sec[dst]
			if *update {
				if !ok {
					ar.Files = append(ar.Files, txtar.File{Name: dst})
					di = len(ar.Files) - 1
				}
				ar.Files[di].Data = got
				ar.Files = slices.Delete(ar.Files, si, si+1) // the real file stays in ../testdata/transcripts
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !ok {
				t.Fatalf("%s has no %s (run go test -update)", file, dst)
			}
			if diff := cmp.Diff(string(ar.Files[di].Data), string(got)); diff != "" {
				t.Errorf("%s → %s (-want +got):\n%s", from, to, diff)
			}
		})
	}
}
