package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExamplesRun runs every `hookx translate` and `hookx mappings`
// line of the shell blocks of README.md and docs/*.md from the repository
// root, as a reader would paste it, and expects it to succeed and print
// something.
func TestReadmeExamplesRun(t *testing.T) {
	t.Chdir("../..")
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var ran int
	for _, page := range append([]string{"README.md"}, pages...) {
		readme, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		ran += runExamples(t, readme)
	}
	if ran < 4 {
		t.Errorf("found %d hookx translate/mappings examples in README.md and docs/; the scanner is broken", ran)
	}
}

func runExamples(t *testing.T, readme []byte) (ran int) {
	inShell := false
	sc := bufio.NewScanner(bytes.NewReader(readme))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			inShell = line == "```sh"
			continue
		case !inShell:
			continue
		}
		cmd, _, _ := strings.Cut(line, "#")
		args := strings.Fields(cmd)
		if len(args) < 2 || args[0] != "hookx" || (args[1] != "translate" && args[1] != "mappings") {
			continue
		}
		if strings.ContainsAny(cmd, "|>'\"") {
			continue // a pipeline or redirection: not a single hookx call
		}
		ran++
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(args[1:], strings.NewReader(""), &out, &errb); code != exitOK {
				t.Fatalf("exit %d\nstderr: %s", code, errb.String())
			}
			if out.Len() == 0 {
				t.Error("printed nothing")
			}
		})
	}
	return ran
}
