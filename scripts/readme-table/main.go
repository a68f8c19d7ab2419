// Command readme-table regenerates the compatibility table in README.md from
// the embedded mapping table: go run ./scripts/readme-table
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/hookx-dev/hookx/mappings"
)

const (
	begin = "<!-- BEGIN go run ./scripts/readme-table -->\n"
	end   = "<!-- END hookx mappings -->"
)

func main() {
	if err := run("README.md"); err != nil {
		fmt.Fprintln(os.Stderr, "readme-table:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	readme, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	i, j := bytes.Index(readme, []byte(begin)), bytes.Index(readme, []byte(end))
	if i < 0 || j < i {
		return fmt.Errorf("%s lacks the table markers", path)
	}
	var table bytes.Buffer
	if err := mappings.Default().WriteColumnsMarkdown(&table); err != nil {
		return err
	}
	out := append(append(append([]byte{}, readme[:i+len(begin)]...), table.Bytes()...), readme[j:]...)
	return os.WriteFile(path, out, 0o644)
}
