// Package jsregex evaluates a JavaScript regular expression the way
// `new RegExp(pattern).test(subject)` does with no flags, which is how Claude
// Code and Gemini CLI read a hook's matcher.
//
// The pattern is parsed here, by JavaScript's grammar (with the web
// compatibility rules of Annex B, as engines apply them without the u flag),
// and rewritten into an explicit form that github.com/dlclark/regexp2 runs in
// ECMAScript mode: every character class spelt out as ranges, `.` and `\b`
// as JavaScript defines them. regexp2 alone reads several JavaScript
// patterns differently (`\p{L}`, `\z`, `\a`, `(?i)`, `[a-\d]`, `\b` on é,
// `.` on U+2028; see the differential test against node). A construct whose
// meaning hookx has not checked against the engines, or that differs between
// engine versions, is refused with an *Error, so that a caller fails closed
// rather than guess. A pattern with no lookaround, no backreference and no
// nested repetition runs on Go's own regexp (RE2) instead, in linear time
// and with no clock (linear.go).
package jsregex

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// MatchTimeout bounds one match: a backtracking pattern can take exponential
// time ((a+)+$), which JavaScript would spend too, hanging the agent. Past
// it, MatchString returns an error.
var MatchTimeout = 100 * time.Millisecond

// Error says why a pattern is not evaluated.
type Error struct {
	Pattern string
	Offset  int // in bytes
	Reason  string
	// Invalid is set when JavaScript rejects the pattern too (new RegExp
	// throws a SyntaxError); otherwise hookx does not evaluate a construct
	// JavaScript accepts.
	Invalid bool
}

func (e *Error) Error() string {
	if e.Invalid {
		return fmt.Sprintf("%q is not a valid JavaScript regex (offset %d: %s)", e.Pattern, e.Offset, e.Reason)
	}
	return fmt.Sprintf("hookx cannot evaluate the JavaScript regex %q (offset %d: %s)", e.Pattern, e.Offset, e.Reason)
}

// ErrSubject is returned (wrapped) by MatchString for a subject hookx does
// not evaluate, and ErrTimeout for a match that ran past MatchTimeout.
var (
	ErrSubject = errors.New("the subject has characters outside the Basic Multilingual Plane, which JavaScript reads as two UTF-16 units")
	ErrTimeout = errors.New("the match took too long (catastrophic backtracking)")
)

// Regexp is a compiled JavaScript regex. It is safe for concurrent use.
type Regexp struct {
	src        string
	re         *regexp2.Regexp
	lin        *regexp.Regexp // the same pattern in RE2, where that is safe (linear)
	assertions bool
}

// Compile parses a JavaScript regex source (without slashes or flags). The
// error is an *Error.
func Compile(pattern string) (*Regexp, error) {
	p := &parser{src: pattern}
	if !utf8.ValidString(pattern) {
		return nil, &Error{Pattern: pattern, Reason: "invalid UTF-8"}
	}
	for i, r := range pattern {
		if r > 0xFFFF {
			return nil, &Error{Pattern: pattern, Offset: i, Reason: fmt.Sprintf("%q is outside the Basic Multilingual Plane: JavaScript reads it as two UTF-16 units", r)}
		}
	}
	p.countGroups()
	tree := p.disjunction()
	if p.err == nil && p.pos < len(p.src) {
		p.fail(true, "unmatched )")
	}
	if p.err != nil {
		return nil, p.err
	}
	var b strings.Builder
	p.emit(&b, tree, 0, 0, false)
	if p.err != nil {
		return nil, p.err
	}
	re, err := regexp2.Compile(b.String(), regexp2.ECMAScript)
	if err != nil {
		return nil, &Error{Pattern: pattern, Reason: "regexp2 rejects its translation " + strconv.Quote(b.String()) + ": " + err.Error()}
	}
	re.MatchTimeout = MatchTimeout
	return &Regexp{src: pattern, re: re, lin: linear(tree), assertions: p.assertions}, nil
}

// HasAssertions reports whether the pattern has an anchor, a word boundary
// or a lookaround. One without any that matches the empty string matches
// every string (at its start).
func (r *Regexp) HasAssertions() bool { return r.assertions }

// String returns the pattern as written.
func (r *Regexp) String() string { return r.src }

// MatchString reports whether the regex matches anywhere in s, as
// RegExp.prototype.test does. The error wraps ErrSubject or ErrTimeout.
func (r *Regexp) MatchString(s string) (bool, error) {
	if !utf8.ValidString(s) {
		return false, fmt.Errorf("%q: %w", s, ErrSubject)
	}
	for _, c := range s {
		if c > 0xFFFF {
			return false, fmt.Errorf("%q: %w", s, ErrSubject)
		}
	}
	if r.lin != nil {
		return r.lin.MatchString(s), nil
	}
	start := time.Now()
	for try := 1; ; try++ {
		ok, err := match(r.re, s)
		if err == nil {
			return ok, nil
		}
		// regexp2 measures the budget on a coarse clock that one shared
		// goroutine advances; starved on a loaded machine, it jumps
		// forward in one step and a match that has just begun times out
		// at once (regexp2 1.12.0 closes only the case of a stopped
		// clock). A real timeout has taken the budget: one that took
		// less than half of it is retried, a few times at most.
		if time.Since(start) >= MatchTimeout/2 || try == spuriousTries {
			return false, fmt.Errorf("the regex %q on %q: %w: over %v", r.src, s, ErrTimeout, MatchTimeout)
		}
	}
}

// match runs one regexp2 match; a variable for the tests.
var match = func(re *regexp2.Regexp, s string) (bool, error) { return re.MatchString(s) }

// spuriousTries bounds the retries of a timeout that came too early.
const spuriousTries = 4

// Trim removes leading and trailing white space and line terminators as
// JavaScript's String.prototype.trim does (Go's strings.TrimSpace differs
// on U+0085, U+180E and U+FEFF).
func Trim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return inRanges(space, r) })
}

// ranges is a sorted set of BMP code point ranges, inclusive.
type ranges [][2]rune

func inRanges(rs ranges, r rune) bool {
	for _, x := range rs {
		if x[0] <= r && r <= x[1] {
			return true
		}
	}
	return false
}

// The character classes as ECMA-262 defines them (WhiteSpace and
// LineTerminator for \s; Zs as of Unicode 15).
var (
	digit = ranges{{'0', '9'}}
	word  = ranges{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	space = ranges{{'\t', '\r'}, {' ', ' '}, {0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A},
		{0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF}}
	lineTerm = ranges{{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}}
	anyChar  = ranges{{0, 0xFFFF}}
)

// normalize sorts and merges rs.
func normalize(rs ranges) ranges {
	out := append(ranges(nil), rs...)
	for i := 1; i < len(out); i++ { // insertion sort: sets are small
		for j := i; j > 0 && out[j][0] < out[j-1][0]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	var m ranges
	for _, r := range out {
		if n := len(m); n > 0 && r[0] <= m[n-1][1]+1 {
			m[n-1][1] = max(m[n-1][1], r[1])
			continue
		}
		m = append(m, r)
	}
	return m
}

// negate returns the BMP code points not in rs.
func negate(rs ranges) ranges {
	var out ranges
	next := rune(0)
	for _, r := range normalize(rs) {
		if r[0] > next {
			out = append(out, [2]rune{next, r[0] - 1})
		}
		next = r[1] + 1
	}
	if next <= 0xFFFF {
		out = append(out, [2]rune{next, 0xFFFF})
	}
	return out
}

// node is one piece of the parsed pattern.
type node struct {
	kind     nodeKind
	alts     [][]*node // alternation (kindAlt, and a group's body)
	set      ranges    // kindSet
	group    int       // kindGroup: capture number, 0 for none; kindBackref: the group
	look     string    // kindGroup: "", "?:", "?=", "?!", "?<=", "?<!"
	item     *node     // kindRepeat
	min, max int       // kindRepeat; max < 0: no limit
	lazy     bool      // kindRepeat
	assert   string    // kindAssert: ^ $ \b \B
	off      int       // offset in the source, for errors
}

type nodeKind int

const (
	kindAlt nodeKind = iota
	kindGroup
	kindSet
	kindRepeat
	kindAssert
	kindBackref
)

type parser struct {
	src    string
	pos    int
	err    *Error
	ngroup int            // capture groups in the whole pattern
	names  map[string]int // named groups
	seen   int            // capture groups opened so far
	gs     *groupState    // while emitting

	assertions bool // an anchor, \b, \B or a lookaround was emitted
}

func (p *parser) fail(invalid bool, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Pattern: p.src, Offset: p.pos, Reason: fmt.Sprintf(format, args...), Invalid: invalid}
	}
}

// countGroups counts the capture groups and collects the group names: a
// backreference's meaning depends on them (\2 is a backreference only when
// there are two groups; \k is one only when a group is named).
func (p *parser) countGroups() {
	p.names = map[string]int{}
	inClass := false
	for i := 0; i < len(p.src); i++ {
		switch c := p.src[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			rest := p.src[i+1:]
			if !strings.HasPrefix(rest, "?") {
				p.ngroup++
			} else if strings.HasPrefix(rest, "?<") && !strings.HasPrefix(rest, "?<=") && !strings.HasPrefix(rest, "?<!") {
				p.ngroup++
				if name, _, ok := strings.Cut(rest[2:], ">"); ok {
					if _, dup := p.names[name]; !dup {
						p.names[name] = p.ngroup
					} else {
						p.names[name] = -1
					}
				}
			}
		}
	}
}

func (p *parser) peek() rune {
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return r
}

func (p *parser) eof() bool { return p.pos >= len(p.src) || p.err != nil }

func (p *parser) next() rune {
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	return r
}

func (p *parser) disjunction() *node {
	n := &node{kind: kindAlt, off: p.pos}
	n.alts = [][]*node{p.alternative()}
	for !p.eof() && p.peek() == '|' {
		p.pos++
		n.alts = append(n.alts, p.alternative())
	}
	return n
}

func (p *parser) alternative() []*node {
	var seq []*node
	for !p.eof() && p.peek() != '|' && p.peek() != ')' {
		t := p.term()
		if t != nil {
			seq = append(seq, t)
		}
	}
	return seq
}

// quantifier parses a quantifier at pos, if there is one.
func (p *parser) quantifier() (min, max int, ok bool) {
	switch p.peek() {
	case '*':
		p.pos++
		return 0, -1, true
	case '+':
		p.pos++
		return 1, -1, true
	case '?':
		p.pos++
		return 0, 1, true
	case '{':
		// Annex B: a brace that does not start {n}, {n,} or {n,m} is a
		// literal.
		rest := p.src[p.pos+1:]
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			return 0, 0, false
		}
		lo, hi, comma := strings.Cut(rest[:end], ",")
		if !allDigits(lo) || comma && hi != "" && !allDigits(hi) {
			return 0, 0, false
		}
		start := p.pos
		p.pos += end + 2
		min, max = atoiCap(lo), atoiCap(lo)
		if comma {
			max = -1
			if hi != "" {
				max = atoiCap(hi)
			}
		}
		if min > 1000 || max > 1000 {
			p.pos = start
			p.fail(false, "a repetition count over 1000")
			return 0, 0, false
		}
		if max >= 0 && max < min {
			p.pos = start
			p.fail(true, "numbers out of order in {} quantifier")
		}
		return min, max, true
	}
	return 0, 0, false
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func atoiCap(s string) int {
	if len(s) > 6 {
		return 1 << 30
	}
	n, _ := strconv.Atoi(s)
	return n
}

func (p *parser) term() *node {
	start := p.pos
	atom, quantifiable := p.atom()
	if p.err != nil {
		return nil
	}
	qstart := p.pos
	min, max, ok := p.quantifier()
	if p.err != nil || !ok {
		return atom
	}
	if atom == nil || !quantifiable {
		p.pos = qstart
		p.fail(true, "nothing to repeat")
		return nil
	}
	if atom.kind == kindGroup && atom.look != "" && atom.look != "?:" {
		p.pos = start
		p.fail(false, "a quantified lookahead (an Annex B leniency)")
		return nil
	}
	n := &node{kind: kindRepeat, item: atom, min: min, max: max, off: start}
	if !p.eof() && p.peek() == '?' {
		p.pos++
		n.lazy = true
	}
	if !p.eof() {
		save := p.pos
		if _, _, again := p.quantifier(); again {
			p.pos = save
			p.fail(true, "nothing to repeat")
		}
	}
	return n
}

func lit(r rune, off int) *node { return &node{kind: kindSet, set: ranges{{r, r}}, off: off} }

// atom parses one atom. quantifiable is false for assertions.
func (p *parser) atom() (n *node, quantifiable bool) {
	off := p.pos
	switch c := p.next(); c {
	case '^', '$':
		return &node{kind: kindAssert, assert: string(c), off: off}, false
	case '.':
		return &node{kind: kindSet, set: negate(lineTerm), off: off}, true
	case '[':
		return p.class(off), true
	case '(':
		return p.group(off), true
	case ')':
		p.pos = off
		p.fail(true, "unmatched )")
		return nil, false
	case '*', '+', '?':
		p.pos = off
		p.fail(true, "nothing to repeat")
		return nil, false
	case '{':
		p.pos = off
		if _, _, ok := p.quantifier(); ok {
			p.pos = off
			p.fail(true, "nothing to repeat")
			return nil, false
		}
		p.pos = off + 1
		return lit('{', off), true
	case '\\':
		return p.atomEscape(off)
	default:
		return lit(c, off), true
	}
}

func (p *parser) group(off int) *node {
	n := &node{kind: kindGroup, off: off}
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, "?:"), strings.HasPrefix(rest, "?="), strings.HasPrefix(rest, "?!"):
		n.look = rest[:2]
	case strings.HasPrefix(rest, "?<="), strings.HasPrefix(rest, "?<!"):
		n.look = rest[:3]
	case strings.HasPrefix(rest, "?<"):
		name, _, ok := strings.Cut(rest[2:], ">")
		if !ok || !groupName(name) {
			if ok && asciiGroupName(name) {
				p.fail(true, "invalid capture group name %q", name)
			} else {
				p.fail(false, "a group name other than ASCII letters, digits and _")
			}
			return nil
		}
		if p.names[name] < 0 {
			p.fail(false, "the group name %q is used twice (valid only in newer engines, in separate alternatives)", name)
			return nil
		}
		p.pos += 3 + len(name)
		p.seen++
		n.group = p.seen
	case strings.HasPrefix(rest, "?"):
		if len(rest) > 1 && strings.ContainsRune("imsx-", rune(rest[1])) {
			// Modifiers are new (ES2025): node 20 rejects them, newer
			// engines read them.
			p.fail(false, "inline modifiers (%s…), which only some engine versions read", rest[:2])
		} else {
			p.fail(false, "the group syntax (%s", rest[:min(len(rest), 2)])
		}
		return nil
	default:
		p.seen++
		n.group = p.seen
	}
	p.pos += len(n.look)
	body := p.disjunction()
	if p.err != nil {
		return nil
	}
	if p.eof() || p.peek() != ')' {
		p.pos = off
		p.fail(true, "unterminated group")
		return nil
	}
	p.pos++
	n.alts = body.alts
	return n
}

// groupName reports whether s is a group name hookx accepts: ASCII only.
func groupName(s string) bool {
	return asciiGroupName(s) && !(s[0] >= '0' && s[0] <= '9')
}

func asciiGroupName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !inRanges(word, c) {
			return false
		}
	}
	return true
}

func (p *parser) atomEscape(off int) (*node, bool) {
	if p.pos >= len(p.src) {
		p.pos = off
		p.fail(true, `\ at end of pattern`)
		return nil, false
	}
	c := p.peek()
	switch {
	case c == 'b' || c == 'B':
		p.pos++
		return &node{kind: kindAssert, assert: `\` + string(c), off: off}, false
	case c >= '1' && c <= '9':
		start := p.pos
		for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
			p.pos++
		}
		n, _ := strconv.Atoi(p.src[start:p.pos])
		if n > p.ngroup {
			p.pos = off
			p.fail(false, "a legacy octal or identity escape \\%s (there are %d groups)", p.src[start:start+1], p.ngroup)
			return nil, false
		}
		return &node{kind: kindBackref, group: n, off: off}, true
	case c == 'k' && len(p.names) > 0:
		p.pos++
		rest := p.src[p.pos:]
		name, _, ok := strings.Cut(strings.TrimPrefix(rest, "<"), ">")
		if !strings.HasPrefix(rest, "<") || !ok || p.names[name] == 0 {
			p.fail(true, "invalid named reference")
			return nil, false
		}
		if p.names[name] < 0 {
			p.fail(false, "a reference to the name %q, used twice", name)
			return nil, false
		}
		p.pos += len(name) + 2
		return &node{kind: kindBackref, group: p.names[name], off: off}, true
	}
	set := p.characterEscape(false)
	if p.err != nil {
		return nil, false
	}
	return &node{kind: kindSet, set: set, off: off}, true
}

// characterEscape parses the escape after a backslash at pos (outside or,
// with inClass, inside a class) as a set of code points.
func (p *parser) characterEscape(inClass bool) ranges {
	off := p.pos - 1
	c := p.next()
	switch c {
	case 'd':
		return digit
	case 'D':
		return negate(digit)
	case 'w':
		return word
	case 'W':
		return negate(word)
	case 's':
		return space
	case 'S':
		return negate(space)
	case 'f':
		return ranges{{'\f', '\f'}}
	case 'n':
		return ranges{{'\n', '\n'}}
	case 'r':
		return ranges{{'\r', '\r'}}
	case 't':
		return ranges{{'\t', '\t'}}
	case 'v':
		return ranges{{'\v', '\v'}}
	case 'b':
		return ranges{{'\b', '\b'}} // only reached inside a class
	case '0':
		if !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
			p.pos = off
			p.fail(false, "a legacy octal escape")
			return nil
		}
		return ranges{{0, 0}}
	case 'c':
		if !p.eof() && (p.peek()|0x20) >= 'a' && (p.peek()|0x20) <= 'z' {
			l := p.next()
			return ranges{{l % 32, l % 32}}
		}
		p.pos = off
		p.fail(false, `\c not followed by a letter (an Annex B leniency)`)
		return nil
	case 'x', 'u':
		n := 2
		if c == 'u' {
			n = 4
		}
		if h := p.src[p.pos:min(len(p.src), p.pos+n)]; len(h) == n {
			if v, err := strconv.ParseUint(h, 16, 32); err == nil && !strings.ContainsAny(h, "+-") {
				if v >= 0xD800 && v <= 0xDFFF {
					p.pos = off
					p.fail(false, "a surrogate code unit \\u%s", h)
					return nil
				}
				p.pos += n
				return ranges{{rune(v), rune(v)}}
			}
		}
		p.pos = off
		p.fail(false, `\%c not followed by %d hex digits (an Annex B leniency)`, c, n)
		return nil
	}
	if c >= '1' && c <= '9' {
		p.pos = off
		p.fail(false, "a legacy octal or identity escape \\%c", c)
		return nil
	}
	// An identity escape: the character itself (Annex B: \p, \z, \a are
	// the letters p, z, a without the u flag).
	return ranges{{c, c}}
}

// class parses a character class after its [.
func (p *parser) class(off int) *node {
	neg := false
	if !p.eof() && p.peek() == '^' {
		p.pos++
		neg = true
	}
	var set ranges
	for {
		if p.eof() {
			if p.err == nil {
				p.pos = off
				p.fail(true, "unterminated character class")
			}
			return nil
		}
		if p.peek() == ']' {
			p.pos++
			break
		}
		a, single := p.classAtom()
		if p.err != nil {
			return nil
		}
		if p.pos+1 < len(p.src) && p.src[p.pos] == '-' && p.src[p.pos+1] != ']' {
			dash := p.pos
			p.pos++
			b, single2 := p.classAtom()
			if p.err != nil {
				return nil
			}
			if !single || !single2 {
				p.pos = dash
				p.fail(false, "a range with a class escape at one end (an Annex B leniency)")
				return nil
			}
			if a[0][0] > b[0][0] {
				p.pos = dash
				p.fail(true, "range out of order in character class")
				return nil
			}
			set = append(set, [2]rune{a[0][0], b[0][0]})
			continue
		}
		set = append(set, a...)
	}
	if neg {
		set = negate(set)
	}
	return &node{kind: kindSet, set: normalize(set), off: off}
}

// classAtom parses one member of a class; single says whether it is one
// character (which can end a range).
func (p *parser) classAtom() (ranges, bool) {
	c := p.next()
	if c != '\\' {
		return ranges{{c, c}}, true
	}
	if p.eof() {
		p.fail(true, `\ at end of pattern`)
		return nil, false
	}
	if e := p.peek(); e == 'k' || e == 'B' {
		p.pos--
		p.fail(false, `\%c in a character class`, e)
		return nil, false
	}
	set := p.characterEscape(true)
	return set, len(set) == 1 && set[0][0] == set[0][1]
}

// emit writes the regexp2 form of n. quant counts enclosing quantifiers and
// look the enclosing lookarounds; behind is set inside a lookbehind.
func (p *parser) emit(b *strings.Builder, n *node, quant, look int, behind bool) {
	if p.err != nil || n == nil {
		return
	}
	switch n.kind {
	case kindAlt:
		p.emitAlts(b, n.alts, quant, look, behind)
	case kindGroup:
		b.WriteString("(")
		switch {
		case n.group == 0:
			b.WriteString(n.look)
			if n.look != "?:" {
				look++
				p.assertions = true
			}
			behind = behind || strings.HasPrefix(n.look, "?<")
		default:
			// Named groups become plain ones: both number every group in
			// order, and regexp2 numbers named groups last.
			p.groups().set(n.group, quant == 0 && look == 0)
		}
		p.emitAlts(b, n.alts, quant, look, behind)
		b.WriteString(")")
		if n.group > 0 {
			p.groups().close(n.group)
		}
	case kindRepeat:
		b.WriteString("(?:")
		p.emit(b, n.item, quant+1, look, behind)
		b.WriteString(")")
		switch {
		case n.min == 0 && n.max < 0:
			b.WriteString("*")
		case n.min == 1 && n.max < 0:
			b.WriteString("+")
		case n.min == 0 && n.max == 1:
			b.WriteString("?")
		case n.max < 0:
			fmt.Fprintf(b, "{%d,}", n.min)
		case n.min == n.max:
			fmt.Fprintf(b, "{%d}", n.min)
		default:
			fmt.Fprintf(b, "{%d,%d}", n.min, n.max)
		}
		if n.lazy {
			b.WriteString("?")
		}
	case kindSet:
		writeSet(b, n.set)
	case kindAssert:
		p.assertions = true
		w := "[0-9A-Z_a-z]"
		switch n.assert {
		case "^":
			b.WriteString(`(?<![\u0000-\uFFFF])`)
		case "$":
			b.WriteString(`(?![\u0000-\uFFFF])`)
		case `\b`:
			fmt.Fprintf(b, "(?:(?<=%[1]s)(?!%[1]s)|(?<!%[1]s)(?=%[1]s))", w)
		case `\B`:
			fmt.Fprintf(b, "(?:(?<=%[1]s)(?=%[1]s)|(?<!%[1]s)(?!%[1]s))", w)
		}
	case kindBackref:
		// JavaScript and regexp2 part ways on a reference to a group that
		// is reset by a quantifier, read backwards in a lookbehind, or not
		// yet closed; hookx reads only the plain case.
		g := p.groups()
		if !g.plain[n.group] || !g.closed[n.group] || behind {
			p.err = &Error{Pattern: p.src, Offset: n.off, Reason: "a backreference to a group inside a quantifier or lookaround, from inside a lookbehind, or before the group ends"}
			return
		}
		fmt.Fprintf(b, `\%d`, n.group) // a digit after it is written \u0030
	}
}

func (p *parser) emitAlts(b *strings.Builder, alts [][]*node, quant, look int, behind bool) {
	for i, seq := range alts {
		if i > 0 {
			b.WriteString("|")
		}
		for _, t := range seq {
			p.emit(b, t, quant, look, behind)
		}
	}
}

type groupState struct{ plain, closed map[int]bool }

func (g *groupState) set(n int, plain bool) { g.plain[n] = plain }
func (g *groupState) close(n int)           { g.closed[n] = true }

func (p *parser) groups() *groupState {
	if p.gs == nil {
		p.gs = &groupState{plain: map[int]bool{}, closed: map[int]bool{}}
	}
	return p.gs
}

// writeSet writes a set as an explicit class of \u escapes, or a single
// escaped character.
func writeSet(b *strings.Builder, set ranges) {
	switch {
	case len(set) == 0:
		b.WriteString("(?!)")
		return
	case len(set) == 1 && set[0][0] == set[0][1]:
		writeChar(b, set[0][0])
		return
	}
	b.WriteString("[")
	for _, r := range set {
		writeChar(b, r[0])
		if r[1] != r[0] {
			b.WriteString("-")
			writeChar(b, r[1])
		}
	}
	b.WriteString("]")
}

func writeChar(b *strings.Builder, r rune) {
	if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
		b.WriteRune(r)
		return
	}
	fmt.Fprintf(b, `\u%04X`, r)
}
