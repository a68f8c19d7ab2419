package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// parseGolden reads a transcript golden, testdata/<agent>-<name>.txtar,
// which holds the expected translation, and puts the transcript it
// translates first, as real-<agent>.jsonl: the real agent's file, read from
// the module's shared fixtures (../testdata/transcripts).
func parseGolden(file string) (*txtar.Archive, error) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(filepath.Base(file), ".txtar")
	agent, _, _ := strings.Cut(base, "-")
	real, err := os.ReadFile(filepath.Join("..", "testdata", "transcripts", base+".jsonl"))
	if err != nil {
		return nil, fmt.Errorf("%s: the transcript it translates: %w", file, err)
	}
	ar.Files = append([]txtar.File{{Name: "real-" + agent + ".jsonl", Data: real}}, ar.Files...)
	return ar, nil
}
