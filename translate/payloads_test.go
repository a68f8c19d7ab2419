package translate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/rogpeppe/go-internal/txtar"
)

// capturedPayload reads a payload captured from the real agent of dialect:
// the module's shared fixtures, ../testdata/payloads/<dialect>-<version>/
// (see its README).
func capturedPayload(dialect, name string) ([]byte, error) {
	d, err := mappings.Default().Dialect(dialect)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join("..", "testdata", "payloads", d.Name+"-"+d.Version, name))
}

// parseGolden reads an event golden, testdata/events/<dialect>.<name>.txtar,
// which holds the expected translation of the payload <name>.json captured
// from dialect's agent, and puts that payload first, as <dialect>.json.
func parseGolden(file string) (*txtar.Archive, error) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	dialect, name, ok := strings.Cut(strings.TrimSuffix(filepath.Base(file), ".txtar"), ".")
	if !ok {
		return nil, fmt.Errorf("%s: not named <dialect>.<payload>.txtar", file)
	}
	in, err := capturedPayload(dialect, name+".json")
	if err != nil {
		return nil, fmt.Errorf("%s: the captured payload it translates: %w", file, err)
	}
	ar.Files = append([]txtar.File{{Name: dialect + ".json", Data: in}}, ar.Files...)
	return ar, nil
}
