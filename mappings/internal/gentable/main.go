// Command gentable writes mappings/table_gen.go: the embedded JSONC table,
// loaded and validated, as a Go literal. hookx starts on every hook call, and
// parsing JSONC at each start cost milliseconds; the data files stay the
// source of truth, and a test fails when the generated file is stale.
//
// Run it with: go generate ./mappings
// With -check it exits 1 when the file on disk is stale instead.
package main

import (
	"fmt"
	"os"
)

func main() {
	out := "table_gen.go"
	check := false
	for _, a := range os.Args[1:] {
		if a == "-check" {
			check = true
		} else {
			out = a
		}
	}
	src, err := Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentable:", err)
		os.Exit(1)
	}
	if check {
		old, _ := os.ReadFile(out)
		if string(old) != string(src) {
			fmt.Fprintf(os.Stderr, "%s is stale; run go generate ./mappings\n", out)
			os.Exit(1)
		}
		return
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gentable:", err)
		os.Exit(1)
	}
}
