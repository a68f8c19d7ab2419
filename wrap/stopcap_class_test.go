package wrap

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
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

// hostBlock is a block on host's stop event as hookx renders it there: a
// Claude Stop hook's block, translated by package translate.
func hostBlock(t *testing.T, tbl *mappings.Table, host *mappings.Dialect, hostEv *mappings.Event) []byte {
	t.Helper()
	claude, err := tbl.Dialect("claude")
	if err != nil {
		t.Fatal(err)
	}
	claudeEv, _ := claude.EventFor("agent.stop")
	block := []byte(`{"decision":"block","reason":"again"}`)
	if host == claude {
		return block
	}
	tr, err := translate.New(tbl, claude.Name, host.Name)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := tr.Result(translate.ResultContext{HookEvent: claudeEv.Name, HostEvent: hostEv.Name}, translate.Output{Stdout: block})
	if v, _, _ := translate.ReadOutput(host, hostEv.Name, out); !v.Block {
		t.Fatalf("%s: a Claude Stop block renders as %q, which wrap does not read as a block", host.Agent, out.Stdout)
	}
	return out.Stdout
}

// stopPayload is a stop event of host, in the host's own form: its field
// names (Copilot CLI's sessionId) and no hook_event_name where its payload
// names no event; active is its stop-active flag.
func stopPayload(host *mappings.Dialect, hostEv *mappings.Event, active bool) string {
	activeField, chain := "stop_hook_active", ""
	if hostEv.StopActive != nil {
		activeField, chain = hostEv.StopActive.Field, hostEv.StopActive.Chain
	}
	fields := map[string]any{"session_id": "s1", "prompt_id": "A", "turn_id": "A", "prompt": "p", activeField: active}
	if !host.Payload.Own() {
		fields["hook_event_name"] = hostEv.Name
	}
	own := host.Payload.Inverse()
	payload := map[string]any{}
	for k, v := range fields {
		payload[cmp.Or(own[k], k)] = v
	}
	// The chain field is named as the host sends it.
	if _, ok := payload[chain]; chain != "" && !ok {
		payload[chain] = "A"
	}
	b, _ := json.Marshal(payload)
	return string(b)
}

// Every agent's stop-loop cap holds for its hooks on every host without
// that cap, and a host's cap the hook's agent lacks is reported, whether or
// not the table says how the two agents tell a hook that a stop continues
// the turn (stopActive): the count is wrap's own. A Claude Stop hook that
// always blocks looped without end on Factory Droid, whose row had no
// stopActive (conformance stop-always/claude on droid). Every pair of
// dialects with a stop event is considered, hosts of every protocol family
// (Copilot CLI's included), from the table alone: a new dialect is covered
// without an edit here.
func TestStopCapsHoldWithoutStopActiveData(t *testing.T) {
	tables := map[string]*mappings.Table{"the table": mappings.Default(), "the table without stopActive": withoutStopActive(t)}
	for which, tbl := range tables {
		// Each dialect with a stop cap, as the hook's agent and as the host.
		capped := map[string]bool{}
		for _, d := range tbl.Dialects {
			if ev, _ := d.EventFor("agent.stop"); ev != nil && ev.Output.BlockCap > 0 {
				capped["hook "+d.Name], capped["host "+d.Name] = false, false
			}
		}
		for _, hook := range tbl.Dialects {
			hookEv, _ := hook.EventFor("agent.stop")
			for _, host := range tbl.Dialects {
				hostEv, _ := host.EventFor("agent.stop")
				if host == hook || hookEv == nil || hostEv == nil {
					continue
				}
				hookCap, hostCap := hookEv.Output.BlockCap, hostEv.Output.BlockCap
				enforce := hookCap > 0 && (hostCap == 0 || hostCap > hookCap)
				report := hostCap > 0 && (hookCap == 0 || hookCap > hostCap)
				if !enforce && !report {
					continue
				}
				if enforce {
					capped["hook "+hook.Name] = true
				}
				if report {
					capped["host "+host.Name] = true
				}
				t.Run(fmt.Sprintf("%s/%s-on-%s", which, hook.Name, host.Name), func(t *testing.T) {
					block := hostBlock(t, tbl, host, hostEv)
					f := &fakeTranslation{hookEv: hookEv.Name, result: func(Output) Output { return Output{Stdout: block} }}
					if host.Payload.Own() {
						f.hostEvent = hostEv.Name
					}
					dir := t.TempDir()
					mod := func(o *Options) { o.Table = tbl; o.StateDir = dir; o.From = hook.Name; o.Host = host.Name }
					// The last stop: the one the capping agent ends the turn at.
					n := hostCap
					if enforce {
						n = hookCap
					}
					for i := 0; i <= n; i++ {
						_, out, errs := run(t, f, stopPayload(host, hostEv, i > 0), mod, "true")
						if enforce && (strings.TrimSpace(out) == strings.TrimSpace(string(block))) != (i < hookCap) {
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
		for _, role := range slices.Sorted(maps.Keys(capped)) {
			if !capped[role] {
				t.Errorf("%s: the stop cap of %s is never checked: no dialect with a stop event and another cap", which, role)
			}
		}
	}
}

// stopAnswers is every way a protocol family spells an answer to a stop
// event, blocks and near-blocks alike: decision values with and without a
// reason (Copilot CLI blocks only with one), permissionDecision, continue,
// Copilot's handled, plain text and broken JSON on stdout; JSON and text on
// stderr (Qwen Code reads stderr as the output when stdout is empty;
// Gemini CLI blocks on text at exit 2 and up); every kind of exit code
// (Claude's exit 2, TerminaI's exit 2 only). Each is tried on every host,
// whatever its family.
func stopAnswers(hostEv string) []Output {
	stdouts := []string{
		"", "keep going", "{}", "[1]", `{"decision":"block","reason":"again"} trailing`,
		`{"decision":"block","reason":"again"}`, `{"decision":"block"}`, `{"decision":"block","reason":""}`,
		`{"decision":"deny","reason":"again"}`, `{"decision":"deny"}`, `{"decision":"approve"}`, `{"decision":"allow"}`,
		`{"decision":"ask","reason":"again"}`, `{"decision":"Block","reason":"again"}`,
		`{"continue":false,"stopReason":"enough"}`, `{"decision":"block","reason":"again","continue":false}`,
		`{"hookSpecificOutput":{"hookEventName":"` + hostEv + `","permissionDecision":"deny","permissionDecisionReason":"again"}}`,
		`{"hookSpecificOutput":{"permissionDecision":"deny"}}`,
		`{"permissionDecision":"deny","permissionDecisionReason":"again"}`,
		`{"handled":true,"responseContent":"again"}`,
		`{"block":true,"reason":"again"}`, // Pi's extension
	}
	stderrs := []string{"", "keep going", `{"decision":"block","reason":"again"}`}
	var outs []Output
	for _, exit := range []int{0, 1, 2, 3, 126} {
		for _, so := range stdouts {
			for _, se := range stderrs {
				outs = append(outs, Output{Stdout: []byte(so), Stderr: []byte(se), ExitCode: exit})
			}
		}
	}
	return outs
}

// The Stop cap counts an answer as a block exactly when the host's own
// family reader (translate.ReadOutput, which turns every hook's output into
// a verdict) reads it as one: one reading of a block per family. The cap
// once had a reading of its own, by hand, which missed Copilot CLI's need of
// a reason, Qwen Code's stderr, Gemini CLI's text on stdout at exit 2 and
// TerminaI's exit-2-only rule. Every dialect with a stop event is a host,
// against every answer of stopAnswers, from the table alone.
func TestStopCapCountsWhatTheHostReadsAsABlock(t *testing.T) {
	tbl := mappings.Default()
	for _, host := range tbl.Dialects {
		hostEv, _ := host.EventFor("agent.stop")
		if hostEv == nil {
			continue
		}
		// A hook's agent with a stop event that makes wrap keep a count on
		// this host: either agent caps its loop.
		var hook *mappings.Dialect
		var hookEv *mappings.Event
		for _, d := range tbl.Dialects {
			ev, _ := d.EventFor("agent.stop")
			if d != host && ev != nil && (ev.Output.BlockCap > 0 || hostEv.Output.BlockCap > 0) {
				hook, hookEv = d, ev
				break
			}
		}
		if hook == nil {
			t.Errorf("%s: no hook dialect makes wrap count its stop blocks", host.Name)
			continue
		}
		t.Run(host.Name, func(t *testing.T) {
			payload := []byte(stopPayload(host, hostEv, false))
			seen := map[bool]int{}
			for _, out := range stopAnswers(hostEv.Name) {
				v, _, err := translate.ReadOutput(host, hostEv.Name, translate.Output(out))
				if err != nil {
					t.Fatal(err)
				}
				seen[v.Block]++
				r := &runner{Options: Options{Table: tbl, Translation: &fakeTranslation{}, StateDir: t.TempDir(), From: hook.Name, Stderr: io.Discard}}
				r.hook, r.host, r.hostEvent = hook, host, hostEv.Name
				r.stopActive(hookEv, hostEv, payload)
				if r.stopPath == "" {
					t.Fatalf("no stop count kept for a %s hook on %s", hook.Name, host.Name)
				}
				got := r.stopCap(hookEv, hostEv, payload, out)
				if counted := r.trace.StopCount == 1; counted != v.Block {
					t.Errorf("exit %d, stdout %q, stderr %q: the stop cap counts it as a block: %v; %s reads it as one: %v",
						out.ExitCode, out.Stdout, out.Stderr, counted, host.Agent, v.Block)
				}
				if !bytes.Equal(got.Stdout, out.Stdout) || !bytes.Equal(got.Stderr, out.Stderr) || got.ExitCode != out.ExitCode {
					t.Errorf("the first stop's answer changed: %+v, want %+v", got, out)
				}
			}
			if seen[true] == 0 || seen[false] == 0 {
				t.Errorf("%s reads %d of the answers as blocks and %d not: the test tells nothing", host.Agent, seen[true], seen[false])
			}
		})
	}
}

// A host's empty answer (nothing, from the table's emptyAnswer) is no
// answer in the host's own reading, on every event of every dialect: no
// decision, no message, nothing the reader ignores or rejects.
func TestNothingIsNoAnswerToTheHost(t *testing.T) {
	for _, host := range mappings.Default().Dialects {
		for _, ev := range host.Events {
			out := nothing(host)
			v, fs, err := translate.ReadOutput(host, ev.Name, translate.Output(out))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v, translate.Verdict{}) || len(fs) > 0 || out.ExitCode != 0 || len(out.Stderr) > 0 {
				t.Errorf("%s %s: the empty answer %+v reads as %+v %v", host.Name, ev.Name, out, v, fs)
			}
		}
	}
}
