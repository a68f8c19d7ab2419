package mappings

import (
	"cmp"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// Go's RE2 and Rust's regex crate share most of their syntax. rustDiffers
// finds, beyond rustOnly, what they read differently, or what Rust reads
// differently across the versions Codex and the test oracle use (regex
// 1.12.3 in Codex 0.169.0, 1.7.1 from Debian), each found by
// TestRustMatchersLikeRust:
//
//   - an escaped punctuation character other than \.+*?()|[]{}^$#&-~:
//     Go reads any as itself; Rust reads \< and \> as word boundaries since
//     1.10 and rejects the others before 1.8;
//   - a { that does not open a count Go reads ({n}, {n,}, {n,m}, no spaces
//     or leading zeros), and a count after no atom: Go reads it as text,
//     Rust rejects it or reads a count ("a{ 1}", "a{01}"); \b{…} is a word
//     boundary in Rust 1.10;
//   - a [ inside a class other than [:name:]: Rust opens a nested class;
//     a class escape before - in a class ([\d-z]): Rust rejects it;
//   - a repetition after a flag group ("a(?i)*"): Go repeats what came
//     before, Rust rejects it; an empty (?) and a flag given twice;
//   - named groups: (?<n>…) is Rust 1.8's, and the names each accepts
//     differ, as do duplicates;
//   - a class that matches nothing ([^\s\S]): Rust rejects it before 1.8;
//   - groups nested over 50 deep: Rust's nest limit is 250 levels of its
//     own syntax tree, where a group can take four.
//
// It returns the first such fragment, or "" and m with every Unicode class
// escape (\d \D \s \S \w \W, large in Rust's compiled program) replaced by
// a private-use marker for rustCost.
func rustDiffers(m string) (frag, marked string) {
	const (
		start = iota // the start, after ( or |: nothing to repeat
		atom
		flags
		repeat
	)
	var b strings.Builder
	depth, prev := 0, start
	for i := 0; i < len(m); {
		c := m[i]
		switch {
		case c == '\\':
			n, heavy, bad := rustEscape(m[i:])
			if bad != "" {
				return bad, ""
			}
			b.WriteString(cmp.Or(heavy, m[i:i+n]))
			i, prev = i+n, atom
			continue
		case c == '[':
			n, bad := rustClass(m[i:], &b)
			if bad != "" {
				return bad, ""
			}
			i, prev = i+n, atom
			continue
		case c == '(' && strings.HasPrefix(m[i:], "(?"):
			j := i + 2
			for j < len(m) && strings.IndexByte("imsU-", m[j]) >= 0 {
				j++
			}
			f := m[i+2 : j]
			if j == len(m) || m[j] != ')' && m[j] != ':' {
				return m[i:min(j+2, len(m))], "" // named groups, or what Go rejects
			}
			if f == "" && m[j] == ')' || strings.Count(f, "-") > 1 || strings.HasSuffix(f, "-") || hasRepeatedByte(f) {
				return m[i : j+1], ""
			}
			b.WriteString(m[i : j+1])
			if m[j] == ')' {
				prev = flags
			} else {
				depth, prev = depth+1, start
			}
			i = j + 1
			if depth > 50 {
				return "(", ""
			}
			continue
		case c == '(':
			depth, prev = depth+1, start
			if depth > 50 {
				return "(", ""
			}
		case c == ')':
			depth, prev = depth-1, atom
		case c == '|':
			prev = start
		case c == '*' || c == '+' || c == '?':
			if prev == flags {
				return m[max(0, i-1) : i+1], ""
			}
			prev = repeat
		case c == '{':
			n := len(rustCount().FindString(m[i:]))
			if n == 0 || prev != atom {
				end := strings.IndexByte(m[i:], '}')
				if end < 0 {
					end = len(m) - i - 1
				}
				return m[i : i+end+1], ""
			}
			b.WriteString(m[i : i+n])
			i, prev = i+n, repeat
			continue
		default:
			prev = atom
		}
		b.WriteByte(c)
		i++
	}
	return "", b.String()
}

// Unicode class escapes are private-use characters no class escape holds
// in the pattern rustCost reads: \w and \W, \d \D \s and \S.
const (
	rustWordRune  = 0xE000
	rustOtherRune = 0xE002
)

// rustCount is a count both read alike.
var rustCount = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\{(0|[1-9][0-9]*)(,(0|[1-9][0-9]*)?)?\}`)
})

// rustEscape reads the escape at the start of s: its length, its marker
// when it is a Unicode class escape, or the fragment hookx refuses.
func rustEscape(s string) (n int, heavy string, bad string) {
	if len(s) < 2 {
		return len(s), "", "" // Go rejects it
	}
	c := s[1]
	switch {
	case c == 'w' || c == 'W':
		return 2, `\x{E000}`, ""
	case strings.IndexByte("dDsS", c) >= 0:
		return 2, `\x{E002}`, ""
	case c == 'b' && strings.HasPrefix(s[2:], "{"):
		return 0, "", s[:3]
	case c == 'x' && strings.HasPrefix(s[2:], "{"):
		if end := strings.IndexByte(s, '}'); end > 0 {
			return end + 1, "", ""
		}
		return 2, "", ""
	case c == 'x':
		return min(4, len(s)), "", ""
	case c < 0x80 && !isAlnum(c) && strings.IndexByte(`\.+*?()|[]{}^$#&-~`, c) < 0:
		return 0, "", s[:2]
	}
	return 2, "", "" // a letter Go reads or rejects as Rust does
}

// rustClass reads the class at the start of s into b: its length, or the
// fragment hookx refuses.
func rustClass(s string, b *strings.Builder) (n int, bad string) {
	i := 1
	if strings.HasPrefix(s[i:], "^") {
		i++
	}
	if strings.HasPrefix(s[i:], "]") {
		i++
	}
	b.WriteString(s[:i])
	for i < len(s) {
		switch c := s[i]; {
		case c == ']':
			b.WriteByte(c)
			return i + 1, ""
		case c == '[':
			p := rustPosixClass().FindString(s[i:])
			if p == "" {
				return 0, s[:i+1]
			}
			b.WriteString(p)
			i += len(p)
		case c == '\\':
			n, heavy, bad := rustEscape(s[i:])
			if bad != "" {
				return 0, bad
			}
			if heavy != "" && strings.HasPrefix(s[i+n:], "-") && !strings.HasPrefix(s[i+n:], "-]") {
				return 0, s[i : i+n+1]
			}
			b.WriteString(cmp.Or(heavy, s[i:i+n]))
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return i, "" // unclosed: Go rejects it
}

var rustPosixClass = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\[:\^?[a-z]+:\]`)
})

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func hasRepeatedByte(s string) bool {
	for i := range len(s) {
		if strings.IndexByte(s[i+1:], s[i]) >= 0 {
			return true
		}
	}
	return false
}

// rustBudget bounds rustCost: about 5 MB of regex 1.7.1's compiled program,
// half its default size limit (10 MiB), over which Regex::new fails and
// Codex drops the group. Measured with the oracle: a literal character is
// about 100 bytes, . or a non-ASCII class about 1-2 KB, \w about 200 KB
// (\w{50} compiles, \w{100} does not), \D about 10 KB (\D{1000} does
// not compile), \d, \s and \S less.
const rustBudget = 50000

// rustCost estimates the size of the program Rust compiles for t, in units
// of about 100 bytes: each copy a count makes is counted.
func rustCost(t *syntax.Regexp) int64 {
	switch t.Op {
	case syntax.OpLiteral:
		var n int64
		for _, r := range t.Rune {
			switch {
			case r == rustWordRune:
				n += 2100
			case r == rustOtherRune:
				n += 100
			case t.Flags&syntax.FoldCase != 0:
				n += 20
			default:
				n++
			}
		}
		return n
	case syntax.OpCharClass:
		in := func(r rune) bool {
			for i := 0; i+1 < len(t.Rune); i += 2 {
				if t.Rune[i] <= r && r <= t.Rune[i+1] {
					return true
				}
			}
			return false
		}
		switch {
		case len(t.Rune) == 0:
			return 1
		case in(rustWordRune) != in(rustWordRune+0x10):
			return 2100
		case in(rustOtherRune) != in(rustWordRune+0x10):
			return 100
		case t.Rune[len(t.Rune)-1] >= 0x80:
			return 20
		}
		return 1
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 20
	case syntax.OpPlus:
		return 2 * rustCost(t.Sub[0])
	case syntax.OpRepeat:
		n := t.Max
		if n < 0 {
			n = t.Min + 1
		}
		return int64(max(n, 1)) * rustCost(t.Sub[0])
	}
	var n int64 = 1
	for _, s := range t.Sub {
		n += rustCost(s)
	}
	return n
}
