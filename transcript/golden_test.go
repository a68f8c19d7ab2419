package transcript

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected translations in testdata")

// The goldens hold the translation into each other agent's format of a
// transcript written by the real agent (../testdata/transcripts, recorded by
// the conformance suite; see its README): testdata/<agent>-<name>.txtar
// holds as-<format>.jsonl for every format this package writes other than
// the agent's own. From the real file, hookx must produce exactly each
// translation.
func TestTranslationGoldens(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no goldens in testdata")
	}
	table := mappings.Default()
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := parseGolden(file)
			if err != nil {
				t.Fatal(err)
			}
			src := ar.Files[0]
			from, err := table.Dialect(strings.TrimSuffix(strings.TrimPrefix(src.Name, "real-"), ".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string]int{}
			for i, f := range ar.Files {
				sec[f.Name] = i
			}
			var targets []string
			for _, d := range table.Dialects {
				if d.Transcript.Writable() && d.Transcript.Format != from.Transcript.Format && !slices.Contains(targets, d.Name) && d.Name == d.Transcript.Format {
					targets = append(targets, d.Name)
				}
			}
			for _, to := range targets {
				conv, err := NewConverter(table, from.Name, to)
				if err != nil {
					t.Fatal(err)
				}
				conv.Session, conv.Cwd = "00000000-0000-4000-8000-000000000000", "/scratch/home/project"
				got, _ := conv.Convert(src.Data, "")
				dst := "as-" + to + ".jsonl"
				di, ok := sec[dst]
				if *update {
					if !ok {
						ar.Files = append(ar.Files, txtar.File{Name: dst})
						di = len(ar.Files) - 1
						sec[dst] = di
					}
					ar.Files[di].Data = got
					continue
				}
				if !ok {
					t.Fatalf("%s has no %s (run go test -update)", file, dst)
				}
				if diff := cmp.Diff(string(ar.Files[di].Data), string(got)); diff != "" {
					t.Errorf("%s → %s (-want +got):\n%s", from.Name, to, diff)
				}
			}
			if *update {
				ar.Files = ar.Files[1:] // the real file stays in ../testdata/transcripts
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
