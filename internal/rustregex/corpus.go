package rustregex

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// Patterns returns the corpus of Codex matchers the tests compare hookx's
// reading with Rust's: the hand-picked ones, then random token strings and
// random trees, seeded, so that a failure can be replayed.
func Patterns() []string {
	return slices.Concat(handPicked, generated(3000), generatedTrees(3000))
}

// handPicked are the hand-picked patterns for Codex's matchers: those of
// the JavaScript corpus that a Rust regex can hold, and Rust's own syntax.
var handPicked = []string{
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

// Subjects are Codex's tool names and the ASCII characters where the
// engines could differ, and a few names hookx does not read (not printable
// ASCII): those must be refused on the subject.
var Subjects = []string{
	"", "a", "A", "b", "ab", "aB", "aa", "abab", "aab", "Bash", "bash", "BASH", "Bas", "BashOutput", "apply_patch",
	"exec_command", "write_stdin", "Edit", "Write", "Read", "MultiEdit", "Agent", "spawn_agent", "update_plan",
	"mcp__server__tool", "mcp__github__delete_repo", "mcp__memory__create_entities", "mcp_github_x", "Notebook",
	"_", " ", "-", "--", "&", "&&", "~", "~~", "[", "]", "{", "}", "{1}", "a{", "a{1", "a{,1}", "a{1}", "$", "^", "\\", "/",
	"#", "!", "\"", "'", ",", ":", ";", "<", ">", "=", "@", "%", "`", "|", "*", "+", "?", ".", "(", ")", "k", "K", "s", "S",
	"0", "7", "9", "x", "xx", "A1", "a b", "Bash Edit", "x1y", "zzzzzzzzzzzzzzzzzzzzz!", "aaaaaaaaaaaaaaaaaaaaaaaa!",
	"start", "\\Q.", ".E", "a\n", "\n", "\t", "\x00", "é", "\u212a",
}

// generated returns n random patterns built from the tokens of the
// corpus, seeded, so that a failure can be replayed.
func generated(n int) []string {
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

// generatedTrees returns n random patterns built as trees, so that most
// of them are valid: atoms of the corpus, grouped, alternated, repeated and
// flagged.
func generatedTrees(n int) []string {
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
