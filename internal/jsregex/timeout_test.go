package jsregex

import (
	"errors"
	"testing"
	"time"

	"github.com/dlclark/regexp2"
)

// TestSpuriousTimeoutIsRetried: a timeout regexp2 reports at once (its
// clock jumped forward under load) is not an answer; one that took the
// budget is, and is not retried.
func TestSpuriousTimeoutIsRetried(t *testing.T) {
	re, err := Compile("^(?=read)read_file$") // a lookahead: regexp2 runs it
	if err == nil && re.lin != nil {
		t.Fatal("the pattern runs on RE2; the test needs one that regexp2 runs")
	}
	if err != nil {
		t.Fatal(err)
	}
	orig := match
	t.Cleanup(func() { match = orig })

	calls := 0
	match = func(r *regexp2.Regexp, s string) (bool, error) {
		calls++
		if calls == 1 {
			return false, errors.New("match timeout") // at once: the clock jumped
		}
		return orig(r, s)
	}
	if ok, err := re.MatchString("read_file"); !ok || err != nil {
		t.Errorf("after an early timeout: MatchString = %v, %v; want true, nil", ok, err)
	}
	if calls != 2 {
		t.Errorf("the match ran %d times, want 2", calls)
	}

	calls = 0
	match = func(*regexp2.Regexp, string) (bool, error) {
		calls++
		time.Sleep(MatchTimeout)
		return false, errors.New("match timeout")
	}
	if _, err := re.MatchString("read_file"); !errors.Is(err, ErrTimeout) {
		t.Errorf("after a real timeout: err = %v, want ErrTimeout", err)
	}
	if calls != 1 {
		t.Errorf("a real timeout was run %d times, want 1", calls)
	}

	calls = 0
	match = func(*regexp2.Regexp, string) (bool, error) {
		calls++
		return false, errors.New("match timeout")
	}
	if _, err := re.MatchString("read_file"); !errors.Is(err, ErrTimeout) {
		t.Errorf("always timing out: err = %v, want ErrTimeout", err)
	}
	if calls != spuriousTries {
		t.Errorf("an early timeout every time ran %d times, want %d", calls, spuriousTries)
	}
}

// TestMatchersNeedNoClock: the matchers people write are answered however
// starved the machine is. regexp2 measures its budget on a clock, so under
// load it reported ^(Bash)$ on "Bash" as a timeout (2 of 17 runs of a test
// in a loaded CI), which fails a guard closed for no reason; these patterns
// run on RE2, with no clock.
func TestMatchersNeedNoClock(t *testing.T) {
	orig := match
	t.Cleanup(func() { match = orig })
	match = func(*regexp2.Regexp, string) (bool, error) {
		time.Sleep(MatchTimeout) // every regexp2 match starved past its budget
		return false, errors.New("match timeout")
	}
	for _, tc := range []struct {
		pattern, subject string
		want             bool
	}{
		{"^(Bash)$", "Bash", true},
		{"^SkillTool$", "SkillTool", true},
		{"run_shell_command|ListFiles", "run_shell_command", true},
		{"mcp_my_srv_.*", "mcp_my_srv_create", true},
		{"^(Read|Write|Edit)$", "MultiEdit", false},
		{"mcp__.*__delete.*", "mcp__github__delete_repo", true},
		{"\\bEdit\\b", "MultiEdit", false},
		{"^[^]$", "\n", true},
		{"a{2,1000}", "aa", true},
	} {
		re, err := Compile(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := re.MatchString(tc.subject); got != tc.want || err != nil {
			t.Errorf("%q.MatchString(%q) on a starved machine = %v, %v; want %v, nil", tc.pattern, tc.subject, got, err, tc.want)
		}
	}
}

// TestLinearAgreesWithRegexp2 runs every pattern of the corpus and the
// generated ones that RE2 takes on both engines, over every subject: the
// answers must be the same (TestMatchesLikeNode holds both against node).
func TestLinearAgreesWithRegexp2(t *testing.T) {
	patterns := append(append([]string(nil), corpusPatterns...), generated(3000)...)
	var lin, backtracking int
	for _, pat := range patterns {
		re, err := Compile(pat)
		if err != nil {
			continue
		}
		if re.lin == nil {
			backtracking++
			continue
		}
		lin++
		for _, s := range corpusSubjects {
			if _, err := re.MatchString(s); errors.Is(err, ErrSubject) {
				continue // MatchString answers no engine for it
			}
			want, err := re.re.MatchString(s)
			if err != nil {
				continue // a timeout
			}
			if got := re.lin.MatchString(s); got != want {
				t.Errorf("%q on %q: RE2 (%s) says %v, regexp2 %v", pat, s, re.lin, got, want)
			}
		}
	}
	if lin < 100 || backtracking == 0 {
		t.Errorf("%d patterns ran on RE2 and %d on regexp2: the test compares too little", lin, backtracking)
	}
	t.Logf("%d patterns compared on both engines; %d run on regexp2 only", lin, backtracking)
}
