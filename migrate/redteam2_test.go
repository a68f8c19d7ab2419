package migrate

import (
	"bytes"
	"strings"
	"testing"
)

// A wrap option added by hand to a hookx entry is kept only when it cannot
// make the guard block less. A target file (committed by someone else, or
// edited by hand) whose entry carries --event of another event (wrap then
// never runs the hook), --env PATH=… (the hook cannot start: fails open) or
// --host-event of another event was kept as it was, reported as a note
// ("kept --env") and counted unchanged, so migrate --check said up to date
// and --strict did not refuse.
func TestHandAddedWrapOptionThatWeakensIsNotKeptQuietly(t *testing.T) {
	src := []Source{{Path: "s.json", Scope: "project", Data: []byte(guardSrc)}}
	first := planSources(t, Options{}, src, nil)
	for _, add := range []string{
		"--event Stop",
		"--env PATH=/nonexistent",
		"--env=PATH=/nonexistent",
		"--host-event sessionStart",
	} {
		t.Run(add, func(t *testing.T) {
			forged := bytes.Replace(first.After, []byte("--timeout 600s --"), []byte("--timeout 600s "+add+" --"), 1)
			if bytes.Equal(forged, first.After) {
				t.Fatalf("test setup: no wrap command in\n%s", first.After)
			}
			res := planSources(t, Options{}, src, forged)
			if !res.Changed() && res.Count(Weakened) == 0 {
				t.Errorf("an entry with %q is left as it is and nothing weakening is reported:\n%s", add, reportText(res))
			}
			if res.Changed() && strings.Contains(string(res.After), add) {
				t.Errorf("%q survived the run:\n%s", add, res.After)
			}
		})
	}
}
