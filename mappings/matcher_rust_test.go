package mappings

import (
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/internal/rustregex"
)

// TestRustMatchersLikeRust compiles and matches every pattern × subject
// with compileRust and with Rust's regex crate (internal/rustregex). Where
// hookx evaluates, it must agree exactly: Rust must accept the pattern (else
// Codex drops the group and never runs the hook) and give every match
// hookx gives. Where hookx refuses, a pattern or a subject, it fails closed;
// that is allowed, and counted.
func TestRustMatchersLikeRust(t *testing.T) {
	o := rustregex.Require(t)
	patterns := rustregex.Patterns()
	var refused, rustInvalid, evaluated, subjectsRefused, matched int
	for _, pat := range patterns {
		v, err := o.Test(pat, rustregex.Subjects)
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
			for i, s := range rustregex.Subjects {
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
		len(patterns), len(rustregex.Subjects), rustInvalid, evaluated, matched, subjectsRefused, refused)
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
