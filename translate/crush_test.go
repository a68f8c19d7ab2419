package translate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// crushResultCases are Crush's reading of its hooks' answers, from its
// source (charmbracelet/crush@37f36e93, internal/hooks/runner.go:172-265
// and input.go:78-211; cited below by file:line) and the reference's one
// offline run (plugin-agents-offline.md, "Crush"), both ways: a Crush hook
// read by Crush's rules on another host, and another agent's hook rendered
// so that Crush honours it. Crush cannot run in CI.
var crushResultCases = []resultCase{
	// A Crush hook on Claude Code.
	{name: "R→C decision deny blocks (input.go:202-207, live)", hook: "crush", host: "claude", event: "PreToolUse", stdout: `{"decision":"deny","reason":"no rm"}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`},
	{name: "R→C decision Deny in another case blocks (input.go:203)", hook: "crush", host: "claude", event: "PreToolUse", stdout: `{"Decision":"DENY","Reason":"no rm"}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`},
	{name: "R→C of two cases of decision, a deny is kept (encoding/json takes the last)", hook: "crush", host: "claude", event: "PreToolUse", stdout: `{"decision":"allow","DECISION":"deny","reason":"no"}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
	{name: "R→C a deny between U+0085 is a deny: Crush trims with Go's strings.TrimSpace (input.go parseStdout), not JavaScript's trim", hook: "crush", host: "claude", event: "PreToolUse", stdout: "\u0085{\"decision\":\"deny\",\"reason\":\"no rm\"}\u0085",
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`},
	{name: "R→C top-level decision block is ignored, as in Crush (input.go:208, live)", hook: "crush", host: "claude", event: "PreToolUse", stdout: `{"decision":"block","reason":"no rm"}`,
		want: ``, wantFind: "Crush reads only allow or deny"},
	{name: "R→C decision block beside hookSpecificOutput is not read (input.go:91-93)", hook: "crush", host: "claude", event: "PreToolUse",
		stdout: `{"decision":"deny","hookSpecificOutput":{"additionalContext":"hi"}}`,
		want:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"hi"}}`, wantFind: "beside hookSpecificOutput"},
	{name: "R→C permissionDecision deny blocks without hookEventName (input.go:157-171, live)", hook: "crush", host: "claude", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no .env"}}`,
		want:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no .env"}}`},
	{name: "R→C permissionDecision ask is no decision (input.go:208)", hook: "crush", host: "claude", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, want: ``, wantFind: "reads only allow or deny"},
	{name: "R→C a member of the wrong type voids the deny (input.go:104-106)", hook: "crush", host: "claude", event: "PreToolUse",
		stdout: `{"decision":"deny","halt":"yes"}`, want: ``, wantFind: "discards the whole answer"},
	{name: "R→C exit 2 blocks with stderr (runner.go:223-232, live)", hook: "crush", host: "claude", event: "PreToolUse", exit: 2, stderr: "no rm\n",
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`},
	{name: "R→C exit 49 halts the turn (runner.go:233-243, live)", hook: "crush", host: "claude", event: "PreToolUse", exit: 49, stderr: "halted\n",
		want: `{"continue":false,"stopReason":"halted","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"halted"}}`},
	{name: "R→C halt true halts the turn (input.go:117, hooked_tool.go:62-72)", hook: "crush", host: "claude", event: "PreToolUse", stdout: `{"halt":true,"reason":"stop"}`,
		want: `{"continue":false,"stopReason":"stop","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"stop"}}`},
	{name: "R→C exit 1 allows (runner.go:244-253, live)", hook: "crush", host: "claude", event: "PreToolUse", exit: 1, stderr: "oops\n", want: ``, wantFind: "exited 1"},
	{name: "R→C deny JSON at exit 1 is not read (runner.go:220-258)", hook: "crush", host: "claude", event: "PreToolUse", exit: 1, stdout: `{"decision":"deny"}`,
		want: ``, wantFind: "reads it only at exit 0"},
	{name: "R→C timeout is no opinion (runner.go:210-218)", hook: "crush", host: "claude", event: "PreToolUse", timedOut: true, want: ``},
	{name: "R→C context array is context (input.go:126-155)", hook: "crush", host: "claude", event: "PreToolUse", stdout: `{"context":["a","","b"]}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"a\nb"}}`},
	{name: "R→G decision deny blocks on Gemini", hook: "crush", host: "gemini", event: "PreToolUse", stdout: `{"decision":"deny","reason":"no rm"}`,
		want: `{"decision":"deny","reason":"no rm"}`},

	// A Claude hook on Crush: Crush reads no top-level block and no
	// continue:false, so hookx writes what it honours.
	{name: "C→R decision block is a permissionDecision deny (Crush ignores the block)", hook: "claude", host: "crush", event: "PreToolUse", stdout: `{"decision":"block","reason":"no rm"}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`},
	{name: "C→R exit 2 is a permissionDecision deny", hook: "claude", host: "crush", event: "PreToolUse", exit: 2, stderr: "no rm\n",
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`},
	{name: "C→R ask is a deny (Crush's ask is no decision)", hook: "claude", host: "crush", event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`,
		want:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"sure?"}}`},
	{name: "C→R exit 127 fail-closed is a deny", hook: "claude", host: "crush", event: "PreToolUse", exit: 127, stderr: "sh: 1: gaurd.sh: not found", failClosed: true,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hook failed (fail-closed): exited 127: sh: 1: gaurd.sh: not found"}}`},
	{name: "G→R deny is a permissionDecision deny", hook: "gemini", host: "crush", event: "BeforeTool", stdout: `{"decision":"deny","reason":"no rm"}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`},
}

func TestResultCrush(t *testing.T) { runResultCases(t, crushResultCases) }

// TestResultCrushStop: a stop for Crush is its exit 49 with the reason on
// stderr, which it reads as a deny that halts the turn (runner.go:233-243);
// a continue:false it would not read (input.go:96-103), and the tool would
// run.
func TestResultCrushStop(t *testing.T) {
	for _, c := range []struct{ hook, event, stdout string }{
		{"claude", "PreToolUse", `{"continue":false,"stopReason":"halt now"}`},
		{"gemini", "BeforeTool", `{"continue":false,"stopReason":"halt now"}`},
	} {
		tr := newTr(t, c.hook, "crush")
		out, _ := tr.Result(ResultContext{HookEvent: c.event, HostEvent: "PreToolUse"}, Output{Stdout: []byte(c.stdout)})
		if out.ExitCode != 49 || strings.TrimSpace(string(out.Stderr)) != "halt now" || len(out.Stdout) != 0 {
			t.Errorf("%s continue:false on Crush = exit %d, stdout %q, stderr %q; want exit 49 with the reason on stderr", c.hook, out.ExitCode, out.Stdout, out.Stderr)
		}
	}
}

// TestCrushGoldens translates the payloads of testdata/crush: Crush
// payloads built from its source (input.go:19-49: event, no
// transcript_path) into Claude's and Gemini's, and payloads captured from
// the real Claude and Gemini into Crush's. The first section is the source;
// each other is a target, and every translation must also come back.
func TestCrushGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/crush/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			own := strings.HasPrefix(filepath.Base(file), "crush.")
			read := parseGolden
			if own {
				read = txtar.ParseFile
			}
			ar, err := read(file)
			if err != nil {
				t.Fatal(err)
			}
			src := strings.TrimSuffix(ar.Files[0].Name, ".json")
			in := ar.Files[0].Data
			for i := 1; i < len(ar.Files); i++ {
				dst := strings.TrimSuffix(ar.Files[i].Name, ".json")
				res, err := newTr(t, src, dst).Event(in)
				if err != nil {
					t.Fatal(err)
				}
				got := renderGolden(res)
				if *update {
					ar.Files[i].Data = got
					continue
				}
				if diff := cmp.Diff(string(ar.Files[i].Data), string(got)); diff != "" {
					t.Errorf("%s → %s (-want +got):\n%s\nrun go test ./translate -update to accept", src, dst, diff)
				}
				if !res.Skip {
					checkRoundTrip(t, src, dst, in, res)
				}
			}
			if *update {
				if !own {
					ar.Files = ar.Files[1:]
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
