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
	re, err := Compile("^read_file$")
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
