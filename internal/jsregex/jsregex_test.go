package jsregex

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2"

	"github.com/hookx-dev/hookx/internal/nodeoracle"
)

// The oracle is node: new RegExp(pattern) with no flags and .test(subject),
// as Gemini CLI 0.61.0 (matchesToolName) and Claude Code 2.1.330 (its hook
// matcher, outside cloud sessions) call it, and String.prototype.trim, as
// Gemini trims a matcher first. Claude Code runs on Bun (JavaScriptCore), not
// V8: what hookx evaluates is kept to the grammar both engines share.
const oracleJS = `
const rl = require("readline").createInterface({input: process.stdin, crlfDelay: Infinity});
rl.on("line", (line) => {
  const q = JSON.parse(line);
  let r;
  try {
    const re = new RegExp(q.p);
    r = {ok: true, m: q.s.map((s) => re.test(s))};
  } catch (e) {
    r = {ok: false, err: String(e.message)};
  }
  r.trim = q.p.trim();
  process.stdout.write(JSON.stringify(r) + "\n");
});
`

type verdict struct {
	OK   bool   `json:"ok"`
	Err  string `json:"err"`
	M    []bool `json:"m"`
	Trim string `json:"trim"`
}

// nodeOracle is node running oracleJS.
type nodeOracle struct{ *nodeoracle.Oracle }

// jsOracle returns one long-lived node process for the whole test binary.
func jsOracle(tb testing.TB) nodeOracle {
	tb.Helper()
	return nodeOracle{nodeoracle.Require(tb, "the RegExp oracle", oracleJS)}
}

func (o nodeOracle) test(tb testing.TB, pattern string, subjects []string) verdict {
	tb.Helper()
	var v verdict
	if err := o.Ask(map[string]any{"p": pattern, "s": subjects}, &v); err != nil {
		tb.Fatal(err)
	}
	return v
}

// corpusPatterns are the hand-picked patterns: matchers seen in settings,
// every construct RE2 lacks, and every place regexp2 alone reads JavaScript
// differently.
var corpusPatterns = []string{
	// Matchers as people write them.
	"Bash", "^Bash$", "Edit|Write", "Edit.*", "^(Read|Write|Edit)$", "mcp__.*__delete.*", "^mcp__github__",
	"write_.*|replace", "run_shell_command", "^(read_file|write_file)$", "mcp_github_.*", ".*", "", "*",
	// Lookarounds.
	"(?=Edit)", "^(?!Bash$)", "^(?!Bash).*$", "^(?!.*Edit).*$", "(?<=Multi)Edit", "(?<!Multi)Edit", "Notebook(?=Edit)",
	"(?=.*Edit)(?=.*Multi)", "^(?!(Bash|Read)$)", "(?<=^mcp__)github", "(?<!^)Edit", "(?=a)*", "(?<=a)*", "(?!a)+",
	// Backreferences.
	"(a)\\1", "(ab)\\1", "\\1(a)", "(a\\1)", "(a)|\\1b", "^(?:(a)|b)+\\1$", "(?:(a)|b)*\\1", "(?<n>a)\\k<n>", "\\k<n>", "\\k",
	"(?<n>a)\\k", "(?<n>a)\\k<m>", "(?<=\\1(a))b", "(?<=(a)\\1)b", "(?!(a))\\1", "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10",
	"(a)\\10", "\\8", "\\9", "\\0", "\\01", "\\1", "(a)\\2", "[\\1]",
	// Character classes and escapes.
	"\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\b", "\\B", "\\bEdit\\b", "\\BEdit", "[\\b]", "[\\s\\S]", "[^\\W\\d_]",
	"^[^]$", "[^]", "[]", "^[]", "^.$", ".", "^..$", "[.]", "\\.", "[\\w-]", "[a-]", "[-a]", "[a-\\d]", "[\\d-z]",
	"[z-a]", "[[a]]", "[a-z&&[^aeiou]]", "[a-z-[aeiou]]", "[[:alpha:]]", "[\\^]", "[^^]", "[\\]]", "[]a]", "[^]a]",
	"\\p{L}", "\\P{L}", "\\p", "\\u{41}", "\\u0041", "\\x41", "\\x4", "\\x", "\\u12", "\\u", "\\cA", "\\cz", "\\c", "\\c1",
	"[\\c1]", "[\\c_]", "\\_", "\\a", "\\e", "\\z", "\\A", "\\Z", "\\G", "\\K", "\\Q.\\E", "\\R", "\\h", "\\X", "\\N",
	"\\v", "\\V", "\\H", "\\/", "/", "\\-", "[\\-]", "\\uD83D", "[\\uD83D\\uDE00]", "\\u00e9", "\\u00E9", "\\xe9",
	"é", "[é]", "ſ", "\\ufeff", "\\u2028", "\\t", "\\n", "\\f", "\\r", "\\0", "[\\0]", "[\\B]", "[\\k]", "[\\p]",
	// Anchors and multiline.
	"a$", "$", "^$", "^", "a$|b", "^a", "x$\\n", "(?m)a$", "\\n$", "$\\n",
	// Inline flags and other .NET, PCRE and RE2 syntax.
	"(?i)a", "(?i:a)b", "(?-i:a)", "(?>a)", "(?#c)a", "(?'n'a)", "(?P<n>a)", "(?<n>a)(?<n>b)", "(?<a>x)|(?<a>y)",
	"(?(a)a|b)", "(?u)a", "(?i)k", "(?s).", "(?", "(?x) a", "(?|a|b)", "(?<$>a)", "(?<1>a)", "(?<é>a)", "(?<a-b>x)",
	"(?<>x)", "(?<a>x", "\\k<a>(?<a>x)",
	// Quantifiers and Annex B braces.
	"]", "ab]", "}", "{", "a{", "a{1", "a{1,", "a{,1}", "a{2,1}", "a{1}", "a{1,}", "a{1,2}", "x{1}{2}", "a{0}", "{1}",
	"a{1}?", "a{ 1}", "a{1a}", "a**", "a+?", "a??", "a+??", "*a", "+", "?", "a|*", "(*)", "^*", "$+", "\\b*", "\\B+",
	"a{1001}", "a{99999999999}", "(", ")", "a)", "(a", "((a)", "a\\", "[", "[a", "[\\", "(?:)", "()", "(|a)", "a|", "|",
	// Catastrophic shapes (short subjects keep them fast in node).
	"(a+)+$", "^(\\w+\\s?)*$", "(a|a)*b",
	// Characters outside the BMP.
	"[😀]", "😀", "^.😀",
}

// corpusSubjects are tool names of both agents and the characters where
// engines differ.
var corpusSubjects = []string{
	"", "a", "A", "b", "ab", "aB", "aa", "abab", "aab", "Bash", "bash", "Read", "Edit", "MultiEdit", "NotebookEdit",
	"Write", "Agent", "Task", "run_shell_command", "read_file", "write_file", "write_todos", "replace", "list_directory",
	"grep_search", "mcp__github__create_issue", "mcp__github__delete_repo", "mcp_github_create_issue", "Notebook",
	"a\n", "\n", "x\ny", "a\r", "\r", "1", "٣", "é", "É", "e\u0301", "\u00a0", "\ufeff", "\u2028", "\u2029", "\u0085",
	"\u180e", "\u1680", "\u2007", "\u200b", "\u3000", "_", " ", "\t", "\v", "\f", "\b", "\x00", "\x01", "\x1a", "k", "K",
	"\u212a", "ſ", "s", "S", "p", "p{L}", "pL", "u{41}", "uuu", "ı", "İ", "i", "I", "ß", "{", "}", "]", "ab]", "a{",
	"a{1", "a{1,", "a{,1}", "$", "^", "\\", "/", "-", "c", "z", "0", "9", "x", "xx", "aaaaaaaaaaaaaaaaaa!",
	"😀", "a😀",
}

// TestMatchesLikeNode compiles and matches every pattern × subject with
// hookx and with node. Where hookx evaluates, it must agree exactly; where
// it says JavaScript rejects a pattern, node must reject it; everything else
// is refused, and listed under -v.
func TestMatchesLikeNode(t *testing.T) {
	o := jsOracle(t)
	patterns := append(append([]string(nil), corpusPatterns...), generated(3000)...)
	var refused, invalid, evaluated, timeouts int
	for _, pat := range patterns {
		v := o.test(t, pat, corpusSubjects)
		re, err := Compile(pat)
		var e *Error
		switch {
		case err != nil && !errors.As(err, &e):
			t.Errorf("Compile(%q): error %v is not an *Error", pat, err)
		case e != nil && e.Invalid:
			invalid++
			if v.OK {
				t.Errorf("Compile(%q) says JavaScript rejects it (%v); node accepts it", pat, err)
			}
		case e != nil:
			refused++
			t.Logf("refused %q (node: %s): %s", pat, okOr(v), e.Reason)
		case !v.OK:
			t.Errorf("Compile(%q) evaluates it; node rejects it: %s", pat, v.Err)
		default:
			evaluated++
			for i, s := range corpusSubjects {
				got, err := re.MatchString(s)
				switch {
				case errors.Is(err, ErrSubject):
				case errors.Is(err, ErrTimeout):
					timeouts++
				case err != nil:
					t.Errorf("%q.MatchString(%q): %v", pat, s, err)
				case got != v.M[i]:
					t.Errorf("%q.MatchString(%q) = %v; node says %v", pat, s, got, v.M[i])
				}
			}
		}
		if got := Trim(pat); got != v.Trim {
			t.Errorf("Trim(%q) = %q; node says %q", pat, got, v.Trim)
		}
	}
	t.Logf("%d patterns × %d subjects: %d evaluated, %d refused as invalid (node agrees), %d refused as not evaluated, %d timeouts",
		len(patterns), len(corpusSubjects), evaluated, invalid, refused, timeouts)
}

func okOr(v verdict) string {
	if v.OK {
		return "valid"
	}
	return v.Err
}

// generated returns n random patterns built from the tokens of the corpus,
// seeded, so that a failure can be replayed.
func generated(n int) []string {
	tokens := []string{
		"a", "b", "E", "d", "i", "t", "_", "é", "-", "]", "}", "{", "{1}", "{0,2}", "{2,}", "*", "+", "?", "??", "*?",
		"|", "(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<g>", "\\k<g>", "\\1", "\\2", "[", "[^", "]", "^", "$",
		".", "\\d", "\\w", "\\s", "\\W", "\\b", "\\B", "\\.", "\\n", "\\u0061", "\\x62", "\\cA", "\\p", "\\z", "\\-",
		"a-z", "[a-c]", "[^a]", "(a)", "(b|)", "Edit", "Bash", "mcp__", "_file",
	}
	r := rand.New(rand.NewPCG(13, 9))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(tokens[r.IntN(len(tokens))])
		}
		out[i] = b.String()
	}
	return out
}

// TestRegexp2AloneDiffersFromNode records why hookx parses the pattern
// itself: regexp2's own ECMAScript mode reads these JavaScript patterns
// differently from node. If one stops differing, the test says so, and the
// rewriting for it may be dropped.
func TestRegexp2AloneDiffersFromNode(t *testing.T) {
	o := jsOracle(t)
	cases := []struct{ pattern, subject string }{
		{`\p{L}`, "a"},    // JavaScript: the letter p, then {L}
		{`\z`, ""},        // JavaScript: the letter z
		{`\a`, "a"},       // JavaScript: the letter a; regexp2: BEL
		{`\b`, "é"},       // JavaScript's \b is ASCII
		{`.`, "\u2028"},   // JavaScript's . excludes U+2028
		{`(?i)a`, "A"},    // JavaScript: invalid
		{`(?>a)`, "a"},    // JavaScript: invalid
		{`[a-\d]`, "-"},   // JavaScript: a, - or a digit; regexp2: error
		{`(?<1>a)`, "a"},  // JavaScript: invalid group name
		{`^*`, ""},        // JavaScript: nothing to repeat
		{`^..$`, "😀"},     // JavaScript: two UTF-16 units
		{`(?<$>a)`, "a"},  // JavaScript: a valid name
		{`[\c1]`, "\x11"}, // JavaScript (Annex B): control-1
	}
	for _, tc := range cases {
		v := o.test(t, tc.pattern, []string{tc.subject})
		re, err := regexp2.Compile(tc.pattern, regexp2.ECMAScript)
		var got bool
		if err == nil {
			got, _ = re.MatchString(tc.subject)
		}
		same := (err == nil) == v.OK && (!v.OK || got == v.M[0])
		if same {
			t.Errorf("regexp2 alone now reads %q on %q as node does; the rewriting for it may be dropped", tc.pattern, tc.subject)
		}
	}
}

// TestMatchTimeoutFailsClosed shows a catastrophic pattern on a long
// subject ending in an error, never a verdict.
func TestMatchTimeoutFailsClosed(t *testing.T) {
	defer func(d time.Duration) { MatchTimeout = d }(MatchTimeout)
	MatchTimeout = 10 * time.Millisecond
	re, err := Compile(`^(a+)+$`)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := re.MatchString(strings.Repeat("a", 40) + "!")
	if !errors.Is(err, ErrTimeout) || ok {
		t.Errorf("MatchString = %v, %v; want false and ErrTimeout", ok, err)
	}
}

// TestRefusesWhatEnginesReadDifferently lists constructs hookx does not
// evaluate, each with the error kind: JavaScript rejects it, or engines and
// versions disagree.
func TestRefusesWhatEnginesReadDifferently(t *testing.T) {
	for pat, invalid := range map[string]bool{
		"(?i:a)":           false, // ES2025 modifiers: node 20 rejects, newer engines read them
		"(?<a>x)|(?<a>y)":  false, // duplicate names: newer engines only
		"^(?:(a)|b)+\\1$":  false, // a quantifier resets captures in JavaScript, not in regexp2
		"(?<=\\1(a))b":     false, // a lookbehind reads backwards
		"😀":                false,
		"\\8":              false,
		"[a-\\d]":          false,
		"(?=a)*":           false,
		"(":                true,
		"a{2,1}":           true,
		"*a":               true,
		"[z-a]":            true,
		"(?<1>a)":          true,
		"(?<n>a)\\k<m>":    true,
		"a\\":              true,
		"[a":               true,
		"x{1}{2}":          true,
		"\\b+":             true,
		"(?<n>a)(?<n>b)x|": false,
	} {
		_, err := Compile(pat)
		var e *Error
		if !errors.As(err, &e) || e.Invalid != invalid {
			t.Errorf("Compile(%q) = %v; want an *Error with Invalid %v", pat, err, invalid)
		}
	}
}
