// Command gentable writes mappings/table_gen.go: the embedded JSONC table,
// loaded and validated, as a Go literal. hookx starts on every hook call, and
// parsing JSONC at each start cost milliseconds; the data files stay the
// source of truth, and a test fails when the generated file is stale.
//
// Run it with: go generate ./mappings
package main

import (
	"fmt"
	"os"

	"github.com/hookx-dev/hookx/mappings"
)

func main() {
	out := "table_gen.go"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	src, err := mappings.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentable:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gentable:", err)
		os.Exit(1)
	}
}
