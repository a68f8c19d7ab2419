package mappings

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/internal/rustregex"
)

// rustPatterns are the hand-picked patterns for Codex's matchers: those of
// the JavaScript corpus that a Rust regex can hold, and Rust's own syntax.
var rustPatterns = []string{
	// Matchers as people write them.
	"Bash", "^Bash$", "Edit|Write", "Edit.*", "^(Read|Write|Edit)$", "mcp__.*__delete.*", "^mcp__github__", "Bas.",
	"apply_patch|exec_command", "^(apply_patch|Edit|Write)$", "spawn_agent|Agent", "mcp__.*", ".*", "", "*", "Bash, Edit",
	"^exec_", "_patch$", "^mcp__[a-z]+__", "mcp__server__tool", "(?i)bash", "(?i)^BASH$",
	// What Rust has no syntax for.
	"(?=Edit)", "^(?!Bash$)", "(?<=Multi)Edit", "(?<!Multi)Edit", "(a)\\1", "\\1(a)", "\\k<n>", "(?>a)", "a++", "a*+",
	// Character classes and escapes.
	"\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\b", "\\B", "\\bEdit\\b", "\\BEdit", "\\b_", "_\\b", "[\\b]", "[\\s\\S]",
	"[^\\W\\d_]", "[^]", "[^]a]", "[]a]", "[]", "^[]$", "^.$", ".", "^..$", "[.]", "\\.", "[\\w-]", "[a-]", "[-a]",
	"[a-\\d]", "[\\d-z]", "[z-a]", "[[a]]", "[[:alpha:]]", "[[:^alpha:]]", "[[:word:]]+", "[:alpha:]", "[[:foo:]]",
	"[\\^]", "[^^]", "[\\]]", "[a-z&&[^aeiou]]", "[a-z--[aeiou]]", "[a-z~~[aeiou]]", "[a&&b]", "[a-&&]", "[&]", "[-]",
	"[~]", "[a~b]", "[a--]", "&&", "--", "~~", "[\\[]", "[[]", "[a[]", "[\\-]",
	"\\p{L}", "\\P{L}", "\\pL", "\\p", "\\p{Greek}", "\\x41", "\\x4", "\\x{41}", "\\x{110000}", "\\x", "\\u0041",
	"\\U00000041", "\\u{41}", "\\cA", "\\a", "\\e", "\\f", "\\t", "\\n", "\\r", "\\v", "\\z", "\\A", "\\Z", "\\G", "\\K",
	"\\Q.\\E", "\\Qa", "\\E", "\\R", "\\h", "\\X", "\\N", "\\_", "\\/", "\\-", "\\#", "\\&", "\\~", "\\ ", "\\!", "\\\"",
	"\\'", "\\,", "\\:", "\\;", "\\=", "\\@", "\\%", "\\`", "\\<", "\\>", "\\<Bash", "Bash\\>", "\\b{start}", "\\b{end}",
	"\\b{start-half}", "\\b{end-half}", "\\b{2}", "\\B{start}", "\\0", "\\00", "\\01", "\\07", "\\101", "\\8", "\\9",
	"[\\0]", "[\\101]", "\\é", "é", "[é]", "\\x{e9}",
	// Anchors and multiline.
	"a$", "$", "^$", "^", "a$|b", "^a", "(?m)a$", "(?m)^B", "\\n$", "$\\n", "^^a", "a$$", "\\Aa\\z", "(?m)\\Aa",
	// Inline flags, groups and other PCRE and RE2 syntax.
	"(?i)a", "(?i:a)b", "(?-i:a)", "(?i)A(?-i)b", "(?#c)a", "(?'n'a)", "(?P<n>a)", "(?<n>a)", "(?P<n>a)(?P<n>b)",
	"(?P<a.b>x)", "(?P<a[1]>x)", "(?P<1a>x)", "(?P<>x)", "(?P<n>a", "(?(a)a|b)", "(?u)a", "(?-u)a", "(?-u:\\w)",
	"(?s).", "(?U)a+", "(?U)a+?", "(?R)a$", "(?x) a", "(?x)B a s h", "(?x)a#c", "(?x)[ ]", "(?x)a\\ b", "(?ix)B A S H",
	"(?", "(?)", "(?i)", "(?:)", "()", "(|a)", "a|", "|", "||", "(a|)", "(|)", "(?i-i)a", "(?--i)a", "(?i-)a", "(?z)a",
	"(?:a", "(?i:", "(?:(?:(?:(?:a))))",
	// Quantifiers and braces.
	"]", "ab]", "}", "{", "a{", "a{1", "a{1,", "a{,1}", "a{,}", "a{2,1}", "a{1}", "a{1,}", "a{1,2}", "x{1}{2}", "a{0}",
	"{1}", "a{1}?", "a{ 1}", "a{1 }", "a{1, 2}", "a{1a}", "a**", "a+?", "a??", "a+??", "*a", "+", "?", "a|*", "(*)", "^*",
	"$+", "\\b*", "\\B+", "(?:)*", "()+", "(a*)*", "(a*)+", "(a|b*)*", "a{1000}", "a{1001}", "a{99999999999}",
	"a{4294967296}", "(a{500}){3}", "\\w{100}", "\\w{1000}", "(?i)\\w{300}", "[a-z]{1000}", ".{500}", "(?s).{1000}",
	"(", ")", "a)", "(a", "((a)", "a\\", "[", "[a", "[\\", "x{", "x}", "{x}", "a{b}", "{,1}", "a{01}", "a{1,01}",
	// Catastrophic shapes.
	"(a+)+$", "^(\\w+\\s?)*$", "(a|a)*b", "(x+x+)+y",
	// Deep nesting.
	strings.Repeat("(", 100) + "a" + strings.Repeat(")", 100),
	strings.Repeat("(", 260) + "a" + strings.Repeat(")", 260),
	strings.Repeat("(?:", 300) + "a" + strings.Repeat(")", 300),
	strings.Repeat("a*", 300),
	strings.Repeat("[a]", 200),
	strings.Repeat("\\w", 400),
}

// rustSubjects are Codex's tool names and the ASCII characters where the
// engines could differ, and a few names hookx does not read (not printable
// ASCII): those must be refused on the subject.
var rustSubjects = []string{
	"", "a", "A", "b", "ab", "aB", "aa", "abab", "aab", "Bash", "bash", "BASH", "Bas", "BashOutput", "apply_patch",
	"exec_command", "write_stdin", "Edit", "Write", "Read", "MultiEdit", "Agent", "spawn_agent", "update_plan",
	"mcp__server__tool", "mcp__github__delete_repo", "mcp__memory__create_entities", "mcp_github_x", "Notebook",
	"_", " ", "-", "--", "&", "&&", "~", "~~", "[", "]", "{", "}", "{1}", "a{", "a{1", "a{,1}", "a{1}", "$", "^", "\\", "/",
	"#", "!", "\"", "'", ",", ":", ";", "<", ">", "=", "@", "%", "`", "|", "*", "+", "?", ".", "(", ")", "k", "K", "s", "S",
	"0", "7", "9", "x", "xx", "A1", "a b", "Bash Edit", "x1y", "zzzzzzzzzzzzzzzzzzzzz!", "aaaaaaaaaaaaaaaaaaaaaaaa!",
	"start", "\\Q.", ".E", "a\n", "\n", "\t", "\x00", "é", "\u212a",
}

// TestRustMatchersLikeRust compiles and matches every pattern × subject
// with compileRust and with Rust's regex crate (internal/rustregex). Where
// hookx evaluates, it must agree exactly: Rust must accept the pattern (else
// Codex drops the group and never runs the hook) and give every match
// hookx gives. Where hookx refuses, a pattern or a subject, it fails closed;
// that is allowed, and counted.
func TestRustMatchersLikeRust(t *testing.T) {
	o := rustregex.Require(t)
	patterns := slices.Concat(rustPatterns, rustGenerated(3000), rustGeneratedTrees(3000))
	var refused, rustInvalid, evaluated, subjectsRefused, matched int
	for _, pat := range patterns {
		v, err := o.Test(pat, rustSubjects)
		if err != nil {
			t.Fatal(err)
		}
		if !v.OK {
			rustInvalid++
		}
		re, err := compileRust(pat)
		switch {
		case err != nil:
			refused++
			t.Logf("refused %q (Rust: %s): %v", pat, rustOr(v), err)
		case !v.OK:
			t.Errorf("compileRust(%q) evaluates it; Rust rejects it: %s", pat, firstLine(v.Err))
		default:
			evaluated++
			for i, s := range rustSubjects {
				got, err := re.MatchString(s)
				switch {
				case err != nil:
					subjectsRefused++
				case got != v.M[i]:
					t.Errorf("compileRust(%q).MatchString(%q) = %v; Rust says %v", pat, s, got, v.M[i])
				default:
					matched++
				}
			}
		}
	}
	t.Logf("%d patterns × %d subjects: Rust rejects %d; hookx evaluates %d (%d matches agree, %d pairs refused on the subject) and refuses %d",
		len(patterns), len(rustSubjects), rustInvalid, evaluated, matched, subjectsRefused, refused)
}

func rustOr(v rustregex.Verdict) string {
	if v.OK {
		return "valid"
	}
	return "invalid: " + firstLine(v.Err)
}

// firstLine is the error's message line: Rust's errors quote the pattern
// over several lines first.
func firstLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// rustGenerated returns n random patterns built from the tokens of the
// corpus, seeded, so that a failure can be replayed.
func rustGenerated(n int) []string {
	tokens := []string{
		"a", "b", "B", "E", "d", "i", "t", "_", "-", "]", "}", "{", "{1}", "{0,2}", "{2,}", "{,2}", "*", "+", "?", "??",
		"*?", "|", "(", ")", "(?:", "(?i)", "(?i:", "(?-i)", "(?s)", "(?m)", "(?U)", "(?x)", "(?P<g>", "[", "[^", "]",
		"^", "$", ".", "\\d", "\\w", "\\s", "\\W", "\\b", "\\B", "\\A", "\\z", "\\.", "\\n", "\\x62", "\\x{41}", "\\p{L}",
		"\\pL", "\\-", "\\_", "\\/", "\\<", "&&", "--", "~~", "[:alpha:]", "[[:digit:]]", "a-z", "[a-c]", "[^a]", "(a)",
		"(b|)", "Edit", "Bash", "mcp__", "_patch", " ", "#", "\\Q", "\\E", "\\0", "\\1",
	}
	r := rand.New(rand.NewPCG(15, 169))
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

// rustGeneratedTrees returns n random patterns built as trees, so that most
// of them are valid: atoms of the corpus, grouped, alternated, repeated and
// flagged.
func rustGeneratedTrees(n int) []string {
	atoms := []string{
		"a", "b", "B", "E", "_", "-", "Bash", "Edit", "mcp__", "patch", ".", "\\d", "\\w", "\\s", "\\W", "\\D", "\\S",
		"\\b", "\\B", "^", "$", "\\A", "\\z", "[a-c]", "[^a]", "[[:alpha:]]", "[[:^digit:]_]", "[a-]", "[]a]", "[^-]",
		"\\.", "\\x62", "\\x{5F}", "\\-", "\\#", "\\&", "\\~", "\\\\", " ", "#", "}", "]", "\\t", "(?i)", "(?-i)",
		"(?s)", "(?m)", "(?U)", "(?i)k", "[\\w-]", "[a-z]", "[A-Z_]", "(?i:s)", "\\[", "\\{",
	}
	quants := []string{"*", "+", "?", "*?", "+?", "??", "{2}", "{0,2}", "{1,}", "{0}", "{3,5}?"}
	r := rand.New(rand.NewPCG(12, 3))
	var tree func(depth int) string
	tree = func(depth int) string {
		switch k := r.IntN(10); {
		case depth > 3 || k < 4:
			return atoms[r.IntN(len(atoms))]
		case k < 6:
			return tree(depth+1) + tree(depth+1)
		case k < 7:
			return tree(depth+1) + "|" + tree(depth+1)
		case k < 8:
			return []string{"(", "(?:", "(?i:", "(?s:", "(?-i:"}[r.IntN(5)] + tree(depth+1) + ")"
		default:
			return "(?:" + tree(depth+1) + ")" + quants[r.IntN(len(quants))]
		}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = tree(0)
	}
	return out
}

// TestCompileRustRefusesWhatRustReadsDifferently lists, for each kind of
// disagreement TestRustMatchersLikeRust found, a pattern Go's RE2 accepts
// and Rust rejects or reads otherwise (regex 1.7.1, or 1.12.3 where the
// versions differ): hookx must refuse it, never evaluate it.
func TestCompileRustRefusesWhatRustReadsDifferently(t *testing.T) {
	for pat, why := range map[string]string{
		`Bash\/`:           "\\/ is an error before regex 1.8",
		`\_patch`:          "\\_ is an error before regex 1.8",
		`Bash\>`:           "\\> is an end-of-word boundary since 1.10",
		`\<Bash`:           "\\< is a start-of-word boundary since 1.10",
		`\b{start}Bash`:    "\\b{start} is a boundary since 1.10; Go reads the text {start}",
		`a{`:               "Rust: unclosed counted repetition",
		`B{a-z`:            "Rust: a count expects a decimal",
		`a{ 1}`:            "Rust reads a count, Go the text",
		`a{01}`:            "Rust reads a count, Go the text",
		`(?i){1}`:          "Rust: nothing to repeat",
		`_(?-i)*`:          "Go repeats _, Rust has nothing to repeat",
		`(?)`:              "Rust: nothing to repeat",
		`(?i-i)a`:          "Rust: a flag given twice",
		`[[]`:              "Rust: an unclosed nested class",
		`[[a]]`:            "Rust: a nested class; Go: [ or a, then ]",
		`[\d-z]`:           "Rust: a range must end in a literal",
		`(?<n>a)`:          "named groups: regex 1.8 syntax",
		`(?P<n>a)(?P<n>b)`: "Rust: duplicate names",
		`(?P<1a>x)`:        "Rust: a name starts with a letter",
		`[^\s\S]`:          "Rust before 1.8: an empty class",
		`(?i)\w{300}`:      "Rust: over the size limit",
		`\w{100}`:          "Rust: over the size limit",
		`(?:\w\W){30}`:     "Rust: over the size limit",
		strings.Repeat("(?:", 51) + "a" + strings.Repeat(")", 51): "nested past what Rust's nest limit is sure to allow",
	} {
		if re, err := compileRust(pat); err == nil {
			t.Errorf("compileRust(%q) = %v; want it refused (%s)", pat, re, why)
		}
	}
	// What they read alike stays evaluated.
	for _, pat := range []string{`^mcp__\w+__.*`, `Bash\.`, `a\-b`, `\#`, `[\w-]`, `a{2,}`, `(?i)^bash$`, `(?i:a)b`, `[[:alpha:]_]+`, `\b_`, `\x{41}`} {
		if _, err := compileRust(pat); err != nil {
			t.Errorf("compileRust(%q): %v; Go and Rust read it alike", pat, err)
		}
	}
}
