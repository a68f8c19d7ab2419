// Command readme-table regenerates the generated tables of docs/ from the
// embedded mapping table: the README's table of agents, the compatibility
// table of docs/compatibility.md and, on each agent's page (docs/<dialect>.md), the tables of every pair
// into that agent. Run it from the repository root:
//
//	go run ./scripts/readme-table
//
// TestDocsTablesAreFresh fails when a page is stale.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

// A block is a generated part of a page: what lies between begin and end.
type block struct {
	path       string // relative to the repository root
	begin, end string
	content    func(io.Writer) error
}

// blocks lists every generated block, one per page the table feeds.
func blocks(t *mappings.Table) []block {
	bs := []block{{
		path:    "docs/compatibility.md",
		begin:   "<!-- BEGIN go run ./scripts/readme-table -->\n",
		end:     "<!-- END hookx mappings -->",
		content: t.WriteColumnsMarkdown,
	}}
	bs = append(bs, block{
		path:    "README.md",
		begin:   "<!-- BEGIN go run ./scripts/readme-table: agents -->\n",
		end:     "<!-- END agents -->",
		content: func(w io.Writer) error { return writeAgents(w, t) },
	})
	for _, d := range t.Dialects {
		bs = append(bs, block{
			path:  "docs/" + d.Name + ".md",
			begin: "<!-- BEGIN go run ./scripts/readme-table: pairs into " + d.Name + " -->\n",
			end:   "<!-- END pairs into " + d.Name + " -->",
			content: func(b io.Writer) error {
				return t.WriteMarkdownOf(b, mappings.Filter{To: d.Name})
			},
		})
	}
	return bs
}

// writeAgents writes the README's table of agents: name, dialect, the
// pinned version, how the table's data about it is proven, and its page.
func writeAgents(w io.Writer, t *mappings.Table) error {
	fmt.Fprintln(w, "| Agent | Dialect | Pinned version | Proven | Guide |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, d := range t.Dialects {
		proven := "live, in CI"
		switch v := d.Verification; {
		case v != nil && v.InCI:
			proven = "live, in CI, in part; the rest from source (" + v.Source + ")"
		case v != nil:
			proven = "from source (" + v.Source + ")"
		}
		fmt.Fprintf(w, "| %s | `%s` | %s | %s | [Using your hooks in %s](docs/%s.md) |\n", d.Agent, d.Name, d.Version, proven, d.Agent, d.Name)
	}
	return nil
}

func main() {
	if err := write("."); err != nil {
		fmt.Fprintln(os.Stderr, "readme-table:", err)
		os.Exit(1)
	}
}

// fresh returns the page at root/path with its block regenerated.
func fresh(root string, b block) (old, updated []byte, err error) {
	if !filepath.IsLocal(b.path) || strings.ContainsAny(b.path, " \n") {
		// A dialect's name makes a page's path: never one outside the tree.
		return nil, nil, fmt.Errorf("%q is not a page of the repository", b.path)
	}
	page, err := os.ReadFile(filepath.Join(root, b.path))
	if err != nil {
		return nil, nil, err
	}
	i := bytes.Index(page, []byte(b.begin))
	if i < 0 {
		return nil, nil, fmt.Errorf("%s lacks the marker %q", b.path, b.begin)
	}
	j := bytes.Index(page[i:], []byte(b.end))
	if j < 0 {
		return nil, nil, fmt.Errorf("%s lacks the marker %q after %q", b.path, b.end, b.begin)
	}
	j += i
	var table bytes.Buffer
	if err := b.content(&table); err != nil {
		return nil, nil, err
	}
	out := append(append(append([]byte{}, page[:i+len(b.begin)]...), table.Bytes()...), page[j:]...)
	return page, out, nil
}

func write(root string) error {
	for _, b := range blocks(mappings.Default()) {
		old, out, err := fresh(root, b)
		if err != nil {
			return err
		}
		if bytes.Equal(old, out) {
			continue
		}
		if err := os.WriteFile(filepath.Join(root, b.path), out, 0o644); err != nil {
			return err
		}
	}
	return nil
}
