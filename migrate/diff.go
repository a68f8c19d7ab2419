package migrate

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffLine is one line of a line-level edit script.
type diffLine struct {
	op   byte   // ' ', '-' or '+'
	text string // without its newline
	eol  bool   // the line ends with a newline
}

// lineDiff diffs a and b line by line with go-diff's line mode.
func lineDiff(a, b string) []diffLine {
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var out []diffLine
	for _, d := range diffs {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = '-'
		case diffmatchpatch.DiffInsert:
			op = '+'
		}
		text := d.Text
		for text != "" {
			line, rest, found := strings.Cut(text, "\n")
			out = append(out, diffLine{op: op, text: line, eol: found})
			text = rest
		}
	}
	return out
}

// UnifiedDiff renders the change from a to b as a unified diff with three
// lines of context, `patch`-compatible: fromName or toName "/dev/null" marks
// a created or deleted file, and a last line without a newline is marked
// "\ No newline at end of file". Equal inputs give "".
func UnifiedDiff(fromName, toName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	lines := lineDiff(string(a), string(b))
	const ctx = 3
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", fromName, toName)

	// Line numbers (1-based) of each entry in a and b.
	type pos struct{ a, b int }
	at := make([]pos, len(lines)+1)
	na, nb := 1, 1
	for i, l := range lines {
		at[i] = pos{na, nb}
		if l.op != '+' {
			na++
		}
		if l.op != '-' {
			nb++
		}
	}
	at[len(lines)] = pos{na, nb}

	for i := 0; i < len(lines); {
		if lines[i].op == ' ' {
			i++
			continue
		}
		start := max(i-ctx, 0)
		// Extend the hunk while the next change is within 2*ctx lines.
		end := i
		for {
			for end < len(lines) && lines[end].op != ' ' {
				end++
			}
			next := end
			for next < len(lines) && lines[next].op == ' ' {
				next++
			}
			if next < len(lines) && next-end <= 2*ctx {
				end = next
				continue
			}
			end = min(end+ctx, len(lines))
			break
		}
		var ca, cb int
		for _, l := range lines[start:end] {
			if l.op != '+' {
				ca++
			}
			if l.op != '-' {
				cb++
			}
		}
		sa, sb := at[start].a, at[start].b
		if ca == 0 {
			sa--
		}
		if cb == 0 {
			sb--
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", sa, ca, sb, cb)
		for _, l := range lines[start:end] {
			out.WriteByte(l.op)
			out.WriteString(l.text)
			out.WriteByte('\n')
			if !l.eol {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

// Colorize adds ANSI colours to a rendered unified diff. It is applied after
// rendering, so the plain text stays the tested contract.
func Colorize(diff string) string {
	var out strings.Builder
	for line := range strings.SplitAfterSeq(diff, "\n") {
		body := strings.TrimSuffix(line, "\n")
		nl := line[len(body):]
		switch {
		case strings.HasPrefix(body, "---") || strings.HasPrefix(body, "+++"):
			out.WriteString("\x1b[1m" + body + "\x1b[0m" + nl)
		case strings.HasPrefix(body, "@@"):
			out.WriteString("\x1b[36m" + body + "\x1b[0m" + nl)
		case strings.HasPrefix(body, "-"):
			out.WriteString("\x1b[31m" + body + "\x1b[0m" + nl)
		case strings.HasPrefix(body, "+"):
			out.WriteString("\x1b[32m" + body + "\x1b[0m" + nl)
		default:
			out.WriteString(line)
		}
	}
	return out.String()
}
