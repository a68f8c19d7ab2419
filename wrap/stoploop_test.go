package wrap

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/transcript"
)

// toolLine splits a real transcript of the format (testdata/transcripts)
// into what it records before its first tool call and that call's record,
// a line that records a tool call by itself.
func toolLine(t *testing.T, format string) (before, call []byte) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "transcripts", format+"-*.jsonl"))
	if len(files) == 0 {
		t.Fatalf("no captured %s transcript", format)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for rest := data; len(rest) > 0; {
		line, next, _ := bytes.Cut(rest, []byte("\n"))
		line = append(append([]byte{}, line...), '\n')
		if found, _ := transcript.HasToolCalls(format, line); found {
			return before, line
		}
		before, rest = append(before, line...), next
	}
	t.Fatalf("%s: no record with a tool call", files[0])
	return nil, nil
}

// hostStop is a stop event of host in its own names, with its transcript,
// its flag and a field that changes with every stop, as the reply or
// Gemini's timestamp does (those are left out: wrap would wait for the
// transcript to hold them).
func hostStop(host *mappings.Dialect, ev *mappings.Event, tp string, active bool, n int) string {
	own := host.Payload.Inverse()
	name := func(n string) string { return cmp.Or(own[n], n) }
	m := map[string]any{name("session_id"): "s1", name("transcript_path"): tp, "n": n}
	if ev.StopActive != nil {
		m[ev.StopActive.Field] = active
		if c := ev.StopActive.Chain; c != "" && m[c] == nil {
			m[c] = "A"
		}
	}
	if !host.Payload.Own() {
		m["hook_event_name"] = ev.Name
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// Claude Code caps a stop loop at 8 consecutive blocks with no tool use
// between them: a model reply with tool_use sets its count to 0 again
// (binary 2.1.330; live: 49 blocks with a tool between each, 50 stops and
// 91 model calls). wrap kept one count that nothing but a non-block reset,
// and ended a Claude hook's loop on Gemini after 8 blocks though every
// continuation used a tool (9 stops, 17 model calls), and reported Claude's
// cap under a Gemini hook on Claude where Claude goes on. For every pair of
// dialects with a stop event where the hook's agent or the host counts so
// (blockCapResetByTools), on every host with a transcript hookx reads (a
// real one of its agent): each cap is counted as its own agent counts it,
// a tool in a continuation resets only the counts that reset, the hook's
// agent's cap is kept where the host's does not end the turn first, and
// the host's is reported where the hook's agent would go on.
func TestStopCapCountsBlocksWithNoToolUseBetween(t *testing.T) {
	tbl := mappings.Default()
	var seen []string
	for _, hook := range tbl.Dialects {
		hookEv, _ := hook.EventFor("agent.stop")
		for _, host := range tbl.Dialects {
			hostEv, _ := host.EventFor("agent.stop")
			if host == hook || hookEv == nil || hostEv == nil || host.Transcript.Format == "" ||
				!hookEv.Output.BlockCapResetByTools && !hostEv.Output.BlockCapResetByTools ||
				hookEv.Output.BlockCap == 0 && hostEv.Output.BlockCap == 0 {
				continue
			}
			seen = append(seen, hook.Name+"-on-"+host.Name)
			t.Run(hook.Name+"-on-"+host.Name, func(t *testing.T) {
				dir := t.TempDir()
				tp := filepath.Join(dir, "transcript.jsonl")
				before, call := toolLine(t, host.Transcript.Format)
				if err := os.WriteFile(tp, before, 0o600); err != nil {
					t.Fatal(err)
				}
				block := hostBlock(t, tbl, host, hostEv)
				f := &fakeTranslation{hookEv: hookEv.Name, result: func(Output) Output { return Output{Stdout: block} }}
				if host.Payload.Own() {
					f.hostEvent = hostEv.Name
				}
				mod := func(o *Options) { o.Table = tbl; o.StateDir = dir; o.From = hook.Name; o.Host = host.Name }
				// The continuations: 7 text-only, one with a tool, 8
				// text-only. An agent whose count resets honours the first
				// 8 blocks, 8 more after the tool, and ends the turn at the
				// 17th stop; one whose count runs on ends it earlier.
				tools := []bool{false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false}
				hookCap, hostCap := hookEv.Output.BlockCap, hostEv.Output.BlockCap
				hookN, hostN := 0, 0 // the blocks before this stop as each agent counts them
				for i, tool := range tools {
					if tool {
						fh, err := os.OpenFile(tp, os.O_APPEND|os.O_WRONLY, 0)
						if err != nil {
							t.Fatal(err)
						}
						fh.Write(call)
						fh.Close()
						if hookEv.Output.BlockCapResetByTools {
							hookN = 0
						}
						if hostEv.Output.BlockCapResetByTools {
							hostN = 0
						}
					}
					// The host's own flag: true after a block, false again
					// after tools where the host says so.
					active := i > 0 && !(tool && hostEv.StopActive != nil && hostEv.StopActive.ResetByTools)
					_, out, errs := run(t, f, hostStop(host, hostEv, tp, active, i), mod, "true")
					hookEnds := hookCap > 0 && hookN >= hookCap
					hostEnds := hostCap > 0 && hostN >= hostCap
					blocked := strings.TrimSpace(out) == strings.TrimSpace(string(block))
					if wantBlock := !hookEnds || hostEnds; blocked != wantBlock {
						t.Fatalf("stop %d (tool before it: %v): blocked %v (stdout %q, stderr %q), want %v: %s's count is %d, its cap %d",
							i+1, tool, blocked, out, errs, wantBlock, hook.Agent, hookN, hookCap)
					}
					reported := strings.Contains(errs, "ends the turn after")
					if wantReport := hostEnds && !hookEnds; reported != wantReport {
						t.Fatalf("stop %d (tool before it: %v): the host's cap reported %v (stderr %q), want %v: %s's count is %d, its cap %d",
							i+1, tool, reported, errs, wantReport, host.Agent, hostN, hostCap)
					}
					if hookEnds || hostEnds {
						return // the turn ends here
					}
					hookN++
					hostN++
				}
				t.Fatalf("the loop never ended")
			})
		}
	}
	for _, want := range []string{"claude-on-gemini", "gemini-on-claude", "claude-on-qwen"} {
		if !slices.Contains(seen, want) {
			t.Errorf("%s is not checked (blockCapResetByTools: Claude's count resets on tool use)", want)
		}
	}
}

// After a stop hook's block, the agents tell every stop hook of the next
// stop whether a stop hook is active, whichever hook blocked. wrap kept the
// state per hook: through it, a Claude hook on Gemini that did not block
// was told Gemini's false after a tool-using continuation (a checkpointing
// hook checkpointed twice), and a Gemini hook on a Claude-family host was
// told the host's true where Gemini says false. Two hooks per stop, a
// blocker ("unless stop_hook_active") and a recorder, in both orders, for
// every pair of dialects that declare stopActive and disagree about tools
// (resetByTools), each host with a real transcript of its agent. Within one
// stop, another hook's block does not make the flag true.
func TestStopActiveIsSharedByTheHooksOfASession(t *testing.T) {
	tbl := mappings.Default()
	pairs := 0
	for _, hook := range tbl.Dialects {
		hookEv, _ := hook.EventFor("agent.stop")
		for _, host := range tbl.Dialects {
			hostEv, _ := host.EventFor("agent.stop")
			if hook == host || hookEv == nil || hostEv == nil || hookEv.StopActive == nil || hostEv.StopActive == nil ||
				hookEv.StopActive.ResetByTools == hostEv.StopActive.ResetByTools || host.Transcript.Format == "" {
				continue
			}
			pairs++
			for _, blockerFirst := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s-on-%s/blocker-first=%v", hook.Name, host.Name, blockerFirst), func(t *testing.T) {
					testSharedStopActive(t, tbl, hook, host, hookEv, hostEv, blockerFirst)
				})
			}
		}
	}
	if pairs == 0 {
		t.Fatal("no two dialects disagree about stop_hook_active after tools")
	}
}

func testSharedStopActive(t *testing.T, tbl *mappings.Table, hook, host *mappings.Dialect, hookEv, hostEv *mappings.Event, blockerFirst bool) {
	dir := t.TempDir()
	tp := filepath.Join(dir, "transcript.jsonl")
	before, call := toolLine(t, host.Transcript.Format)
	if err := os.WriteFile(tp, before, 0o600); err != nil {
		t.Fatal(err)
	}
	block := hostBlock(t, tbl, host, hostEv)
	field := hostEv.StopActive.Field
	f := &fakeTranslation{hookEv: hookEv.Name, result: func(o Output) Output {
		if len(o.Stdout) > 0 {
			return Output{Stdout: block}
		}
		return o
	}}
	if host.Payload.Own() {
		f.hostEvent = hostEv.Name
	}
	mod := func(o *Options) { o.Table = tbl; o.StateDir = dir; o.From = hook.Name; o.Host = host.Name }
	blocker := []string{"sh", "-c", `grep -q '"` + field + `":true' || echo block`}
	recorder := func(n int) []string {
		return []string{"sh", "-c", `cat > "$0"`, filepath.Join(dir, fmt.Sprintf("recorder-%d.json", n))}
	}
	// The continuation before each stop (a tool or text only), and the
	// flag the hook's own agent gives every hook there: Claude's family
	// says true after a block, tools or not; Gemini false after tools.
	type stop struct {
		tool bool
		want bool
	}
	stops := []stop{{false, false}, {true, false}, {false, true}}
	if !hookEv.StopActive.ResetByTools {
		stops = []stop{{false, false}, {true, true}}
	}
	for i, s := range stops {
		if s.tool {
			fh, err := os.OpenFile(tp, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fh.Write(call)
			fh.Close()
		}
		hostFlag := i > 0 && !(s.tool && hostEv.StopActive.ResetByTools)
		payload := hostStop(host, hostEv, tp, hostFlag, i)
		hooks := [][]string{blocker, recorder(i)}
		if !blockerFirst {
			hooks[0], hooks[1] = hooks[1], hooks[0]
		}
		for _, argv := range hooks {
			_, out, errs := run(t, f, payload, mod, argv...)
			if argv[2] == blocker[2] && (strings.TrimSpace(out) == strings.TrimSpace(string(block))) == s.want {
				t.Fatalf("stop %d: the blocker answered %q (stderr %q), told stop_hook_active %v", i+1, out, errs, !s.want)
			}
		}
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("recorder-%d.json", i)))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if got[field] != s.want {
			t.Errorf("stop %d (tool before it: %v): the other hook was told %s %v, want %v as %s tells every stop hook (host sent %v)",
				i+1, s.tool, field, got[field], s.want, hook.Agent, hostFlag)
		}
	}
}

// Two stops of a chain can carry the same payload on a host that sends no
// field that changes with every stop (Codex, Claude, Qwen), when the model
// repeats its reply word for word (a fake model's "Done."). A Gemini hook
// that blocks unless stop_hook_active, on such a host, blocks after a
// tool-using continuation and must then be told true after a text-only
// one, as Gemini would, although that stop looks like the one it blocked:
// taking it for the same stop told it false for ever, an endless loop.
func TestStopActiveOnAStopThatRepeatsTheLastOne(t *testing.T) {
	tbl := mappings.Default()
	host := tbl.MustDialect("codex")
	hostEv, _ := host.EventFor("agent.stop")
	dir := t.TempDir()
	tp := filepath.Join(dir, "transcript.jsonl")
	before, call := toolLine(t, host.Transcript.Format)
	if err := os.WriteFile(tp, before, 0o600); err != nil {
		t.Fatal(err)
	}
	payload := func(active bool) string { return hostStop(host, hostEv, tp, active, 0) }
	steps := []struct {
		tool    bool
		active  bool
		blocked bool
	}{
		{false, false, true}, // the first stop
		{true, true, true},   // after a tool: Gemini says false
		{false, true, false}, // text only, the same payload: Gemini says true
	}
	for i, s := range steps {
		if s.tool {
			fh, _ := os.OpenFile(tp, os.O_APPEND|os.O_WRONLY, 0)
			fh.Write(call)
			fh.Close()
		}
		out, errs := stopRun(t, dir, "codex", "gemini", "AfterAgent", "block", payload(s.active))
		if got := strings.Contains(out, `"block"`); got != s.blocked {
			t.Fatalf("stop %d: blocked %v (stdout %q, stderr %q), want %v", i+1, got, out, errs, s.blocked)
		}
	}
}

// A state file holds only what wrap writes: anything else (the text format
// of b20418e, broken or oversized JSON, counts or offsets wrap never
// writes) reads as no state, so a planted or stale file cannot end a loop
// early (a block become an allow) or point the tool check anywhere.
func TestStopStateReadsOnlyWhatWrapWrites(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "state")
	good := stopState{Count: 3, Run: 2, Chain: "abc", Offset: 10, Seen: "k"}
	if err := writeState(file, good); err != nil {
		t.Fatal(err)
	}
	var got stopState
	readState(file, &got)
	if got != good {
		t.Fatalf("read back %+v, want %+v", got, good)
	}
	for _, content := range []string{
		"8 abc 100\n", `{"count":8`, `{"count":-1}`, `{"count":2,"run":3}`, `{"count":2,"offset":-5}`,
		`{"count":99999999}`, `{"count":"8"}`, `{"count":8,"pad":"` + strings.Repeat("x", maxStateSize) + `"}`, "",
	} {
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		var st stopState
		readState(file, &st)
		if st != (stopState{}) {
			t.Errorf("%.40q reads as %+v, want no state", content, st)
		}
		var ss sessionStop
		readState(file, &ss)
		if ss != (sessionStop{}) {
			t.Errorf("%.40q reads as session state %+v", content, ss)
		}
	}
}

// Gemini's chain field is the prompt: a user who types the same prompt
// again ("continue") starts a new turn with the same chain. A Claude hook
// that blocks unless stop_hook_active was told true at the new turn's
// first stop (the last turn's block was still the session's), so it let
// the agent stop where Claude, which says false after every prompt, has
// it block. The stop at which a hook did not block ends the chain.
func TestStopActiveAfterTheTurnEndedWithTheSamePrompt(t *testing.T) {
	dir := t.TempDir()
	ev := func(ts string) string {
		return `{"session_id":"s1","hook_event_name":"AfterAgent","timestamp":"2026-11-28T01:00:` + ts + `.000Z","prompt":"continue","prompt_response":"done","stop_hook_active":false}`
	}
	steps := []struct {
		ts      string
		blocked bool
	}{
		{"00", true},  // turn 1 ends: the hook blocks
		{"10", false}, // the continuation's stop: told true, the turn ends
		{"20", true},  // turn 2, the same prompt: told false, as Claude would
		{"30", false},
	}
	for i, s := range steps {
		out, errs := stopRun(t, dir, "gemini", "claude", "Stop", "block", ev(s.ts))
		if got := strings.Contains(out, `"block"`); got != s.blocked {
			t.Fatalf("stop %d: blocked %v (stdout %q, stderr %q), want %v", i+1, got, out, errs, s.blocked)
		}
	}
}
