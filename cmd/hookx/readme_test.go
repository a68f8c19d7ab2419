package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/pflag"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// docPages are the pages a reader reads: the README and docs/*.md,
// relative to the repository root.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no docs/*.md")
	}
	return append([]string{"README.md"}, pages...)
}

// A shellBlock is the text of a ```sh fence of a page: commands a reader
// pastes. Usage synopses are ```text fences.
type shellBlock struct {
	page string
	line int // of the fence's first line of text
	text string
}

func shellBlocks(t *testing.T, page string) []shellBlock {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []shellBlock
	var cur *shellBlock
	inFence := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if !inFence && line == "```sh" {
				blocks = append(blocks, shellBlock{page: page, line: n + 1})
				cur = &blocks[len(blocks)-1]
			} else if inFence {
				cur = nil
			}
			inFence = !inFence
			continue
		}
		if cur != nil {
			cur.text += line + "\n"
		}
	}
	return blocks
}

// readerShell expands a documented command's words: quotes removed, and
// the few variables a page may use.
// A word with a substitution is not a literal argument: the command is
// not hookx's (the hookx inside is walked on its own).
var readerShell = &expand.Config{
	Env:       expand.ListEnviron("HOME=/home/user"),
	CmdSubst:  func(io.Writer, *syntax.CmdSubst) error { return errors.New("a command substitution") },
	ProcSubst: func(*syntax.ProcSubst) (string, error) { return "", errors.New("a process substitution") },
}

// hookxArgs returns the arguments of a call of hookx (as `hookx …` or
// `go run ./cmd/hookx …`), or ok false for any other command.
func hookxArgs(call *syntax.CallExpr) (args []string, ok bool) {
	for _, w := range call.Args {
		s, err := expand.Literal(readerShell, w)
		if err != nil {
			return nil, false
		}
		args = append(args, s)
	}
	switch {
	case len(args) > 0 && args[0] == "hookx":
		return args[1:], true
	case len(args) > 2 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/hookx":
		return args[3:], true
	}
	return nil, false
}

// runsHere says whether a documented call runs as written from the
// repository root, reading only what the repository holds and writing
// nothing into it; the others (a migrate that writes, a doctor --probe,
// a wrap with no event on stdin) are only checked to parse.
func runsHere(args []string, stdin string) bool {
	if len(args) == 0 {
		return false
	}
	has := func(f string) bool {
		return slices.ContainsFunc(args, func(a string) bool { return a == f || strings.HasPrefix(a, f+"=") })
	}
	switch args[0] {
	case "translate", "mappings", "version", "completion", "--version":
		return true
	case "doctor":
		return !has("--probe") && !has("--user")
	case "migrate":
		return (has("--dry-run") || has("--check")) && has("--dir") && !has("--user")
	case "wrap":
		return stdin != ""
	}
	return false
}

// TestDocsCommandsRun holds every hookx command of the README's and
// docs/'s shell blocks to the command tree: each names a command and
// flags hookx has; and each that runs as written from the repository root
// (see runsHere) is run, as a reader would paste it, by the hookx binary:
// it must exit 0, and print what the comment after it shows when that is
// a whole JSON line.
func TestDocsCommandsRun(t *testing.T) {
	bin, err := exec.LookPath("hookx") // testscript.Main puts this binary there as hookx
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	var checked, ran int
	for _, page := range docPages(t) {
		for _, b := range shellBlocks(t, page) {
			f, err := syntax.NewParser().Parse(strings.NewReader(b.text), b.page)
			if err != nil {
				t.Errorf("%s:%d: a ```sh block that is not shell: %v", b.page, b.line, err)
				continue
			}
			lines := strings.Split(b.text, "\n")
			syntax.Walk(f, func(n syntax.Node) bool {
				st, ok := n.(*syntax.Stmt)
				if !ok {
					return true
				}
				call, ok := st.Cmd.(*syntax.CallExpr)
				if !ok {
					return true
				}
				args, ok := hookxArgs(call)
				if !ok {
					return true
				}
				where := fmt.Sprintf("%s:%d", b.page, b.line+int(st.Pos().Line())-1)
				checked++
				if err := parsesAsHookx(args); err != nil {
					t.Errorf("%s: hookx %s: %v", where, strings.Join(args, " "), err)
					return true
				}
				stdin := ""
				for _, r := range st.Redirs {
					if r.Op == syntax.RdrIn {
						stdin, _ = expand.Literal(readerShell, r.Word)
					}
				}
				if !runsHere(args, stdin) {
					return true
				}
				ran++
				want := ""
				if next := int(st.End().Line()); next < len(lines) {
					if c, ok := strings.CutPrefix(lines[next], "# "); ok && strings.HasPrefix(c, "{") && !strings.Contains(c, "…") {
						want = c
					}
				}
				t.Run(where, func(t *testing.T) {
					cmd := exec.Command(bin, args...)
					cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "NO_COLOR=1")
					if stdin != "" {
						in, err := os.Open(stdin)
						if err != nil {
							t.Fatal(err)
						}
						defer in.Close()
						cmd.Stdin = in
					}
					var out, errb bytes.Buffer
					cmd.Stdout, cmd.Stderr = &out, &errb
					if err := cmd.Run(); err != nil {
						t.Fatalf("hookx %s: %v\nstderr: %s", strings.Join(args, " "), err, errb.String())
					}
					if out.Len() == 0 && args[0] != "doctor" {
						t.Errorf("hookx %s printed nothing", strings.Join(args, " "))
					}
					var got, wantC bytes.Buffer
					if want != "" && (json.Compact(&got, out.Bytes()) != nil || json.Compact(&wantC, []byte(want)) != nil || got.String() != wantC.String()) {
						t.Errorf("hookx %s printed\n%s\nthe page shows\n%s", strings.Join(args, " "), out.String(), want)
					}
				})
				return true
			})
		}
	}
	if checked < 30 || ran < 15 {
		t.Errorf("checked %d hookx commands of README.md and docs/ and ran %d; the scanner is broken", checked, ran)
	}
}

// parsesAsHookx checks that args name a command of hookx and flags it
// has, with the count of arguments it takes.
func parsesAsHookx(args []string) error {
	root := newRootCmd(streams{}, args)
	root.InitDefaultHelpFlag()
	root.InitDefaultVersionFlag()
	root.InitDefaultCompletionCmd(args...)
	c, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if c == root && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		return fmt.Errorf("no command %q", rest[0])
	}
	if err := c.ParseFlags(rest); err != nil {
		return err
	}
	if c.DisableFlagParsing {
		return nil
	}
	return c.ValidateArgs(c.Flags().Args())
}

// TestDocsLinksResolve: every relative link of README.md and docs/*.md
// names a file or directory of the repository, and every #anchor a
// heading of its page (GitHub's anchors).
func TestDocsLinksResolve(t *testing.T) {
	t.Chdir("../..")
	anchors := map[string]map[string]bool{}
	anchorsOf := func(page string) map[string]bool {
		if a, ok := anchors[page]; ok {
			return a
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(string(b))
		anchors[page] = a
		return a
	}
	links := 0
	for _, page := range docPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range markdownLinks(string(b)) {
			target := l.target
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: link to %s: no such file", page, l.line, target)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(path, ".md") {
				t.Errorf("%s:%d: link to %s: an anchor in a file that is not Markdown", page, l.line, target)
				continue
			}
			if !anchorsOf(path)[anchor] {
				t.Errorf("%s:%d: link to %s: %s has no heading with that anchor", page, l.line, target, path)
			}
		}
	}
	if links < 50 {
		t.Errorf("found %d relative links in README.md and docs/; the scanner is broken", links)
	}
}

type mdLink struct {
	target string
	line   int
}

var (
	linkRE = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	codeRE = regexp.MustCompile("`[^`]*`")
)

// markdownLinks returns the inline links of a page, outside fenced code
// blocks and code spans.
func markdownLinks(page string) []mdLink {
	var links []mdLink
	inFence := false
	for n, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		line = codeRE.ReplaceAllStringFunc(line, func(s string) string {
			// A code span inside a link's text ([`x`](y)) stays; one that
			// holds a link's syntax does not.
			return strings.Repeat("x", len(s))
		})
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			links = append(links, mdLink{target: m[1], line: n + 1})
		}
	}
	return links
}

// headingAnchors returns the anchors GitHub gives a page's headings:
// lower case, spaces to hyphens, punctuation but hyphens and underscores
// dropped, and -1, -2 … after a repeated one.
func headingAnchors(page string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimLeft(line, "#")
		if !strings.HasPrefix(text, " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(text)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if k := seen[a]; k > 0 {
			anchors[fmt.Sprintf("%s-%d", a, k)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// TestDocsNameEveryFlag: each command's page in docs/ names each of its
// flags, so that a flag added to a command is documented where a reader
// of that command looks.
func TestDocsNameEveryFlag(t *testing.T) {
	t.Chdir("../..")
	pages := map[string]string{
		"hookx":                  "docs/cli.md",
		"hookx wrap":             "docs/wrap.md",
		"hookx migrate":          "docs/migrate.md",
		"hookx doctor":           "docs/doctor.md",
		"hookx translate event":  "docs/translate.md",
		"hookx translate result": "docs/translate.md",
		"hookx mappings":         "docs/translate.md",
		"hookx version":          "docs/cli.md",
		"hookx test":             "docs/test.md",
	}
	root := newRootCmd(streams{}, nil)
	root.InitDefaultVersionFlag()
	seen := 0
	for path, page := range pages {
		args := strings.Fields(path)[1:]
		c, _, err := root.Find(args)
		if err != nil || c.CommandPath() != path {
			t.Errorf("%s: no such command (%v)", path, err)
			continue
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		c.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			seen++
			named := regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(text)
			if !named && f.Shorthand != "" {
				named = regexp.MustCompile("`-" + f.Shorthand + "`").MatchString(text)
			}
			if !named {
				t.Errorf("%s: %s does not name --%s", path, page, f.Name)
			}
		})
		if c == root {
			c.PersistentFlags().VisitAll(func(f *pflag.Flag) {
				seen++
				if !strings.Contains(text, "--"+f.Name) {
					t.Errorf("%s: %s does not name --%s", path, page, f.Name)
				}
			})
		}
	}
	if seen < 40 {
		t.Errorf("checked %d flags; the walk is broken", seen)
	}
}
