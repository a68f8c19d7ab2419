package wrap

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookx-dev/hookx/mappings"
)

// withoutStopActive is the table with every event's stopActive removed:
// what a dialect looks like before anyone learnt how it tells a stop hook
// that the turn is a continuation.
func withoutStopActive(t *testing.T) *mappings.Table {
	t.Helper()
	re := regexp.MustCompile(`"stopActive":\s*\{[^{}]*\},?`)
	fsys := fstest.MapFS{}
	names, err := fs.Glob(mappings.Data, "data/*.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := fs.ReadFile(mappings.Data, n)
		if err != nil {
			t.Fatal(err)
		}
		fsys[n] = &fstest.MapFile{Data: re.ReplaceAll(b, nil)}
	}
	tbl, err := mappings.Load(fsys, "data")
	if err != nil {
		t.Fatalf("the table without stopActive does not load: %v", err)
	}
	return tbl
}

// Every agent's stop-loop cap holds for its hooks on every host without
// that cap, and a host's cap the hook's agent lacks is reported, whether or
// not the table says how the two agents tell a hook that a stop continues
// the turn (stopActive): the count is wrap's own. A Claude Stop hook that
// always blocks looped without end on Factory Droid, whose row had no
// stopActive (conformance stop-always/claude on droid).
func TestStopCapsHoldWithoutStopActiveData(t *testing.T) {
	tables := map[string]*mappings.Table{"the table": mappings.Default(), "the table without stopActive": withoutStopActive(t)}
	for which, tbl := range tables {
		checked := 0
		for _, hook := range tbl.Dialects {
			hookEv, _ := hook.EventFor("agent.stop")
			for _, host := range tbl.Dialects {
				hostEv, _ := host.EventFor("agent.stop")
				if host == hook || hookEv == nil || hostEv == nil || host.Protocol != "claude" && host.Protocol != "gemini" {
					continue
				}
				hookCap, hostCap := hookEv.Output.BlockCap, hostEv.Output.BlockCap
				enforce := hookCap > 0 && (hostCap == 0 || hostCap > hookCap)
				report := hostCap > 0 && (hookCap == 0 || hookCap > hostCap)
				if !enforce && !report {
					continue
				}
				checked++
				t.Run(fmt.Sprintf("%s/%s-on-%s", which, hook.Name, host.Name), func(t *testing.T) {
					block := `{"decision":"block","reason":"again"}`
					if host.Protocol == "gemini" {
						block = `{"decision":"deny","reason":"again"}`
					}
					f := &fakeTranslation{hookEv: hookEv.Name, result: func(Output) Output { return Output{Stdout: []byte(block)} }}
					dir := t.TempDir()
					mod := func(o *Options) { o.Table = tbl; o.StateDir = dir; o.From = hook.Name; o.Host = host.Name }
					// The last stop: the one the capping agent ends the turn at.
					n := hostCap
					if enforce {
						n = hookCap
					}
					for i := 0; i <= n; i++ {
						ev := fmt.Sprintf(`{"session_id":"s1","hook_event_name":%q,"prompt_id":"A","turn_id":"A","prompt":"p","stop_hook_active":%v}`, hostEv.Name, i > 0)
						_, out, errs := run(t, f, ev, mod, "true")
						if enforce && strings.Contains(out, "again") != (i < hookCap) {
							t.Fatalf("stop %d: got %q (stderr %q); %s ends the turn after %d blocks, so only the first %d may block",
								i+1, out, errs, hook.Agent, hookCap, hookCap)
						}
						if reported := strings.Contains(errs, "ends the turn after"); report && reported != (i == hostCap) {
							t.Fatalf("stop %d: reported %v (stderr %q), want it on stop %d, where %s ends the turn", i+1, reported, errs, hostCap+1, host.Agent)
						}
					}
				})
			}
		}
		if checked == 0 {
			t.Errorf("%s: no pair of agents with different stop caps", which)
		}
	}
}
