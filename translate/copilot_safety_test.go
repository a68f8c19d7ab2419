package translate

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

// How Copilot CLI 1.0.102 reads a command hook's answer, per event and exit
// code (live, 2026-11-27, conformance/scenarios_copilot_safety_test.go):
//
//   - preToolUse: every non-zero exit denies, whatever stdout says.
//   - every other event: exit 2 logs stderr as a warning and reads stdout as
//     at exit 0 (a decision "block" refuses the prompt, continues the turn,
//     replaces the tool's result); any other non-zero exit is logged and
//     stdout ignored.
//   - decision "block" needs a non-empty reason; without one it goes ahead.
//   - postToolUse decision "block" replaces the tool's result with "Tool
//     result blocked: <reason>".

// copilotBlockingEvents are Copilot's events whose decision "block" does
// something, with the block kind they do it as.
func copilotBlockingEvents(t *testing.T) []*mappings.Event {
	t.Helper()
	var evs []*mappings.Event
	for _, ev := range mappings.Default().MustDialect("copilot").Events {
		// preToolUse reads permissionDecision; postToolUseFailure reads
		// only additionalContext (SDK); permissionRequest was not seen.
		o := ev.Output
		if !(o.Block == "continue" || o.Block == "hide_output" || (o.Block == "deny" && o.Guard && !o.Ask)) {
			continue
		}
		evs = append(evs, ev)
	}
	if len(evs) < 4 {
		t.Fatalf("%d Copilot events read a decision \"block\", want at least userPromptSubmitted, agentStop, subagentStop and postToolUse", len(evs))
	}
	return evs
}

// Every exit code on every event: a block in Copilot is a block in hookx's
// reading, with its reason, and nothing else is.
func TestCopilotExitCodesPerEvent(t *testing.T) {
	d := mappings.Default().MustDialect("copilot")
	const block = `{"decision":"block","reason":"R-BLOCK"}`
	for _, ev := range copilotBlockingEvents(t) {
		for _, exit := range []int{0, 1, 2, 3, 127} {
			t.Run(fmt.Sprintf("%s/exit%d", ev.Name, exit), func(t *testing.T) {
				v, _, err := ReadOutput(d, ev.Name, Output{ExitCode: exit, Stdout: []byte(block), Stderr: []byte("E\n")})
				if err != nil {
					t.Fatal(err)
				}
				wantBlock := exit == 0 || exit == 2
				if v.Block != wantBlock || (wantBlock && v.Reason != "R-BLOCK") {
					t.Errorf("block %v (%q), want %v (R-BLOCK): Copilot reads stdout at exit 0 and 2 only", v.Block, v.Reason, wantBlock)
				}
				if !wantBlock && v.Failure == "" {
					t.Errorf("exit %d: no failure reported", exit)
				}
			})
		}
	}
	// preToolUse: every non-zero exit denies.
	for _, exit := range []int{1, 2, 3, 127} {
		v, _, _ := ReadOutput(d, "preToolUse", Output{ExitCode: exit, Stdout: []byte(`{"permissionDecision":"allow"}`)})
		if !v.Block || v.Reason == "" {
			t.Errorf("preToolUse exit %d: %+v, want a deny with a reason", exit, v)
		}
	}
	// Exit 2's stdout is read whole: context too.
	v, _, _ := ReadOutput(d, "userPromptSubmitted", Output{ExitCode: 2, Stdout: []byte(`{"additionalContext":"CTX-E2"}`)})
	if diff := cmp.Diff([]string{"CTX-E2"}, v.Context); diff != "" || v.Block || v.Failure != "" {
		t.Errorf("userPromptSubmitted exit 2 with context: %+v (-want +got context):\n%s", v, diff)
	}
}

// A decision "block" with no reason is no block in Copilot: read as one,
// a harmless hook would silently block under another host.
func TestCopilotBlockWithoutReasonGoesAhead(t *testing.T) {
	d := mappings.Default().MustDialect("copilot")
	for _, ev := range copilotBlockingEvents(t) {
		for _, out := range []string{`{"decision":"block"}`, `{"decision":"block","reason":""}`} {
			for _, exit := range []int{0, 2} {
				v, fs, _ := ReadOutput(d, ev.Name, Output{ExitCode: exit, Stdout: []byte(out)})
				if v.Block {
					t.Errorf("%s exit %d %s: a block; Copilot goes ahead", ev.Name, exit, out)
				}
				if !hasFinding(fs, "decision", "") {
					t.Errorf("%s exit %d %s: no finding says the block is ignored: %+v", ev.Name, exit, out, fs)
				}
			}
		}
	}
}

// A Copilot postToolUse block, or modifiedResult (an object, or a value
// hookx cannot read as Copilot would), replaces the tool's result: under
// every host the output is hidden from the model (a hiding block, a
// replaced output, or a stop that replaces it), or a finding says it is not.
func TestCopilotPostToolUseBlockHidesEverywhere(t *testing.T) {
	tab := mappings.Default()
	for _, out := range []string{
		`{"decision":"block","reason":"SECRET-HIDDEN"}`,
		`{"modifiedResult":{"resultType":"success","textResultForLlm":"SECRET-HIDDEN"}}`,
		`{"modifiedResult":"SECRET-HIDDEN"}`,
	} {
		for _, host := range tab.Dialects {
			if host.Name == "copilot" {
				continue
			}
			hostEv, _ := host.EventFor("tool.after")
			if hostEv == nil {
				continue
			}
			tr := newTr(t, "copilot", host.Name)
			payload := `{"hook_event_name":"` + hostEv.Name + `","tool_name":"Bash","tool_input":{"command":"cat s"},"tool_response":{"stdout":"SECRET"}}`
			res, fs := tr.Result(ResultContext{HookEvent: "postToolUse", HostEvent: hostEv.Name, HostPayload: []byte(payload)}, Output{Stdout: []byte(out)})
			v, _, _ := ReadOutput(host, hostEv.Name, res)
			if strings.Contains(out, "decision") && !strings.Contains(string(res.Stdout)+string(res.Stderr), "SECRET-HIDDEN") {
				t.Errorf("%s %s, %s: the reason is lost: %s", host.Name, hostEv.Name, out, res.Stdout)
			}
			hidden := v.NewOutput != nil || v.Block && hostEv.Output.Block == "hide_output" ||
				v.Stop && hostEv.Output.StopReplacesOutput
			if hidden {
				continue
			}
			reported := false
			for _, f := range fs {
				reported = reported || f.What == "block" && f.Mark == mappings.None
			}
			if !reported {
				t.Errorf("%s %s, %s: %s leaves the output to the model, and no finding says so (%v)", host.Name, hostEv.Name, out, res.Stdout, fs)
			}
		}
	}
	// And a Gemini AfterTool deny reaches Copilot as the block it honours.
	got, _ := copilotResult(t, "gemini", "copilot", "AfterTool", "postToolUse", Output{Stdout: []byte(`{"decision":"deny","reason":"secret in output"}`)})
	if ok, reason := blocks(t, "copilot", "postToolUse", got); !ok || !strings.Contains(reason, "secret in output") {
		t.Errorf("Gemini AfterTool deny under Copilot: %s, not a block Copilot honours", got)
	}
}

// modifiedArgs is what Copilot runs: an object, or a string holding one,
// replaces the arguments; anything else (null, an array, a number, a
// string of something else) fails the call, which runs nothing. Copilot
// reads no updatedInput, top-level or in hookSpecificOutput (live).
func TestCopilotModifiedArgsForms(t *testing.T) {
	d := mappings.Default().MustDialect("copilot")
	rewrite := map[string]any{"command": "printf REWR", "description": "x"}
	for _, c := range []struct {
		out       string
		block     bool
		newInput  map[string]any
		finding   string
		allowTool bool
	}{
		{out: `{"modifiedArgs":{"command":"printf REWR","description":"x"}}`, newInput: rewrite},
		{out: `{"modifiedArgs":"{\"command\":\"printf REWR\",\"description\":\"x\"}"}`, newInput: rewrite},
		{out: `{"modifiedArgs":null,"updatedInput":{"command":"printf REWR","description":"x"}}`, block: true},
		{out: `{"modifiedArgs":null}`, block: true},
		{out: `{"modifiedArgs":[]}`, block: true},
		{out: `{"modifiedArgs":3}`, block: true},
		{out: `{"modifiedArgs":true}`, block: true},
		{out: `{"modifiedArgs":"printf REWR"}`, block: true},
		{out: `{"modifiedArgs":"[1]"}`, block: true},
		{out: `{"updatedInput":{"command":"printf REWR","description":"x"}}`, finding: "updatedInput"},
		{out: `{"hookSpecificOutput":{"updatedInput":{"command":"printf REWR"}}}`, finding: "hookSpecificOutput"},
		// A deny wins over the rewrite.
		{out: `{"permissionDecision":"deny","modifiedArgs":null}`, block: true},
	} {
		v, fs, _ := ReadOutput(d, "preToolUse", Output{Stdout: []byte(c.out)})
		if v.Block != c.block || (c.block && v.Reason == "") {
			t.Errorf("%s: block %v (%q), want %v with a reason", c.out, v.Block, v.Reason, c.block)
		}
		if diff := cmp.Diff(c.newInput, v.NewInput); diff != "" && !c.block {
			t.Errorf("%s: rewrite (-want +got):\n%s", c.out, diff)
		}
		if c.finding != "" && !hasFinding(fs, c.finding, "") {
			t.Errorf("%s: no finding on %s: %+v", c.out, c.finding, fs)
		}
	}
}

// A prompt a Copilot hook handles itself never reaches the model: under
// another host it is a block whose reason is the hook's response. Without a
// usable responseContent Copilot sends the prompt on.
func TestCopilotHandledPromptIsABlock(t *testing.T) {
	d := mappings.Default().MustDialect("copilot")
	for _, c := range []struct {
		out   string
		exit  int
		block bool
	}{
		{`{"handled":true,"responseContent":"HANDLED-X"}`, 0, true},
		{`{"handled":true,"responseContent":"HANDLED-X"}`, 2, true},
		{`{"handled":true,"responseContent":"HANDLED-X"}`, 1, false},
		{`{"handled":true}`, 0, false},
		{`{"handled":true,"responseContent":""}`, 0, false},
		{`{"handled":false,"responseContent":"HANDLED-X"}`, 0, false},
	} {
		v, fs, _ := ReadOutput(d, "userPromptSubmitted", Output{ExitCode: c.exit, Stdout: []byte(c.out)})
		if v.Block != c.block || (c.block && v.Reason != "HANDLED-X") {
			t.Errorf("%s exit %d: block %v (%q), want %v", c.out, c.exit, v.Block, v.Reason, c.block)
		}
		for _, f := range fs {
			if strings.Contains(f.What, "handled") && strings.Contains(f.Why, "not part of") {
				t.Errorf("%s: %q says Copilot does not read handled", c.out, f.Why)
			}
		}
	}
	tr := newTr(t, "copilot", "claude")
	res, _ := tr.Result(ResultContext{HookEvent: "userPromptSubmitted", HostEvent: "UserPromptSubmit", HostPayload: []byte(`{"hook_event_name":"UserPromptSubmit","prompt":"p"}`)},
		Output{Stdout: []byte(`{"handled":true,"responseContent":"HANDLED-X"}`)})
	if ok, reason := blocks(t, "claude", "UserPromptSubmit", string(res.Stdout)); !ok || reason != "HANDLED-X" {
		t.Errorf("handled prompt under Claude: %s, want a block with the response as its reason", res.Stdout)
	}
}

// Copilot CLI never reads a hook's stderr: when only stderr was over
// hookx's bound, the whole stdout and the exit code decide exactly as in
// Copilot, on every event and exit.
func TestCopilotStderrOverflowReadsStdout(t *testing.T) {
	d := mappings.Default().MustDialect("copilot")
	for _, ev := range d.Events {
		for _, exit := range []int{0, 1, 2, 3} {
			for _, stdout := range []string{`{"decision":"block","reason":"R"}`, `{"permissionDecision":"deny","permissionDecisionReason":"R"}`, ``, `{"additionalContext":"C"}`} {
				in := Output{Stdout: []byte(stdout), ExitCode: exit}
				want, _, _ := ReadOutput(d, ev.Name, in)
				over := in
				over.Overflow, over.Failed, over.FailReason = true, true, "hook stderr over the limit"
				got, _, _ := ReadOutput(d, ev.Name, over)
				if got.Block != want.Block || got.Reason != want.Reason || !slices.Equal(got.Context, want.Context) {
					t.Errorf("%s exit %d stdout %s, stderr over the bound: %+v; Copilot reads the whole stdout: %+v", ev.Name, exit, stdout, got, want)
				}
			}
		}
	}
}

// hookx's own failure on a Copilot event where a block keeps something
// from happening or from the model is a block Copilot honours (a decision
// with a non-empty reason; on postToolUse it hides the output), not only
// context beside the output.
func TestCopilotFailureOutputBlocks(t *testing.T) {
	d := mappings.Default().MustDialect("copilot")
	n := 0
	for _, ev := range d.Events {
		if !ev.Output.BlocksOnFailure() {
			continue
		}
		n++
		out := FailureOutput(d, ev.Name, fmt.Errorf("stdin over the bound"))
		v, _, _ := ReadOutput(d, ev.Name, out)
		if !v.Block && ev.Output.Block != "feedback" {
			t.Errorf("%s: hookx's failure answers %s, which Copilot does not read as a block", ev.Name, out.Stdout)
		}
		if !strings.Contains(string(out.Stdout), "stdin over the bound") {
			t.Errorf("%s: the failure's reason is not in %s", ev.Name, out.Stdout)
		}
	}
	if n < 3 {
		t.Fatalf("%d Copilot events fail closed, want preToolUse, userPromptSubmitted, postToolUse at least", n)
	}
}

// Copilot ignores a block without a reason: every block another dialect's
// hook gives without one (an exit 2 with nothing on stderr, a bare
// decision) still reaches Copilot as a block, with a reason.
func TestReasonlessBlocksStayBlocksUnderCopilot(t *testing.T) {
	tbl := mappings.Default()
	host := tbl.MustDialect("copilot")
	n := 0
	for _, hook := range tbl.Dialects {
		if hook == host {
			continue
		}
		tr := newTr(t, hook.Name, host.Name)
		for _, ev := range hook.Events {
			m, _ := tbl.MapEvent(hook, host, ev.Name)
			if m.To == nil || m.To.Output.Block == "none" || m.To.Output.Block == "" || m.To.Output.Block == "feedback" {
				continue
			}
			for _, in := range []Output{
				{ExitCode: 2},
				{Stdout: []byte(`{"decision":"block"}`)},
				{Stdout: []byte(`{"decision":"deny"}`)},
				{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"` + ev.Name + `","permissionDecision":"deny"}}`)},
			} {
				var own findings
				want := readOutput(hook, ev, in, &own)
				if !want.Block || ev.Output.Block != m.To.Output.Block {
					continue
				}
				n++
				out, _ := tr.Result(ResultContext{HookEvent: ev.Name, HostEvent: m.To.Name}, in)
				if v, _, _ := ReadOutput(host, m.To.Name, out); !v.Block {
					t.Errorf("%s %s block %q/exit %d with no reason: Copilot %s reads %s as no block", hook.Name, ev.Name, in.Stdout, in.ExitCode, m.To.Name, out.Stdout)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no reasonless block of any dialect maps to a Copilot event that blocks the same way")
	}
}

// modifiedResult is read on postToolUse only (TestCopilotPostToolUseBlockHidesEverywhere).
func TestCopilotModifiedResultIgnoredOffPostToolUse(t *testing.T) {
	tab := mappings.Default()
	out := Output{Stdout: []byte(`{"modifiedResult":{"resultType":"success","textResultForLlm":"REDACTED-BY-HOOK"}}`)}
	// Not on postToolUseFailure, where Copilot reads only additionalContext.
	v, _, _ := ReadOutput(tab.MustDialect("copilot"), "postToolUseFailure", out)
	if v.Block {
		t.Errorf("postToolUseFailure modifiedResult: %+v, a block; Copilot ignores it there", v)
	}
}

// A Claude hook's updatedToolOutput replaces the tool's result: Copilot's
// modifiedResult does the same, so the output stays from the model there.
func TestClaudeUpdatedToolOutputReplacesOnCopilot(t *testing.T) {
	for _, c := range []struct{ updated, want string }{
		{`{"stdout":"REDACTED","stderr":"","interrupted":false,"isImage":false}`, "REDACTED"},
		{`"REDACTED"`, "REDACTED"},
		{`[{"type":"text","text":"REDACTED"}]`, "REDACTED"},
	} {
		got, fs := copilotResult(t, "claude", "copilot", "PostToolUse", "postToolUse",
			Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":` + c.updated + `}}`)})
		want := `{"modifiedResult":{"resultType":"success","textResultForLlm":"` + c.want + `"}}`
		if got != want {
			t.Errorf("updatedToolOutput %s under Copilot: %s, want %s", c.updated, got, want)
		}
		if hasFinding(fs, "updatedToolOutput", "original output stays") {
			t.Errorf("updatedToolOutput %s: a finding says the output stays: %+v", c.updated, fs)
		}
	}
}

// modifiedPrompt replaces the prompt the model gets in Copilot (live: the
// original never reached it). No other agent can take a replaced prompt
// from a hook, and sending the original would send what the hook kept from
// the model: a block that says why. An empty or non-string modifiedPrompt
// is ignored, as in Copilot (changelog 1.0.76).
func TestCopilotModifiedPromptBlocksElsewhere(t *testing.T) {
	d := mappings.Default().MustDialect("copilot")
	for _, c := range []struct {
		out   string
		block bool
	}{
		{`{"modifiedPrompt":"redacted prompt"}`, true},
		{`{"modifiedPrompt":""}`, false},
		{`{"modifiedPrompt":3}`, false},
		{`{"modifiedPrompt":null}`, false},
	} {
		v, fs, _ := ReadOutput(d, "userPromptSubmitted", Output{Stdout: []byte(c.out)})
		if v.Block != c.block || (c.block && !strings.Contains(v.Reason, "modifiedPrompt")) {
			t.Errorf("%s: block %v (%q), want %v with a reason naming modifiedPrompt", c.out, v.Block, v.Reason, c.block)
		}
		if c.block && !hasFinding(fs, "modifiedPrompt", "") {
			t.Errorf("%s: no finding: %+v", c.out, fs)
		}
	}
}
