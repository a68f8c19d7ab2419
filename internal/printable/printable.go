// Package printable escapes what hookx prints of someone else's text.
package printable

import (
	"strconv"
	"strings"
	"unicode"
)

// String is s with every control character (a newline, an escape
// sequence) and every bidirectional-control character (\u202e) escaped as
// in a Go string literal: a command, matcher or path from a project's
// settings cannot add a line to a report (a forged finding or "fix:") or
// drive the terminal (erase or recolour the lines around it).
func String(s string) string {
	if !strings.ContainsFunc(s, unprintable) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unprintable(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unprintable(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}
