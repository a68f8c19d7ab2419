package doctor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
)

// agreeOutputs are hook results for a pre-tool event named event: every
// exit code that means something to some agent (0, 1, 2, 3, a signal), the
// deny idioms of every family and their near misses, malformed JSON.
func agreeOutputs(event string) []translate.Output {
	stdouts := []string{
		"", "  \n", "not json", "{bad", `{"decision":"deny"}{"x":1}`, "null", `"{\"decision\":\"deny\"}"`,
		`{"decision":"deny","reason":"r"}`, `{"decision":"block","reason":"r"}`, `{"decision":"ask"}`, `{"decision":"approve"}`,
		`{"Decision":"deny"}`, "\ufeff{\"decision\":\"deny\"}", "\u00a0{\"decision\":\"deny\"}",
		`{"hookSpecificOutput":{"hookEventName":"` + event + `","permissionDecision":"deny","permissionDecisionReason":"r"}}`,
		`{"hookSpecificOutput":{"hookEventName":"` + event + `","permissionDecision":"ask"}}`,
		`{"hookSpecificOutput":{"hookEventName":"Other","permissionDecision":"deny"}}`,
		`{"hookSpecificOutput":{"permissionDecision":"deny"}}`,
		`{"decision":"block","hookSpecificOutput":{"hookEventName":"Other","permissionDecision":"deny"}}`,
		`{"permissionDecision":"deny","permissionDecisionReason":"r"}`,
		`{"permissionDecision":"ask"}`,
		`{"continue":false,"stopReason":"s"}`,
	}
	var outs []translate.Output
	for _, exit := range []int{0, 1, 2, 3, -1} {
		for _, so := range stdouts {
			for _, se := range []string{"", "why"} {
				o := translate.Output{Stdout: []byte(so), Stderr: []byte(se), ExitCode: exit}
				if exit < 0 {
					o.ExitCode, o.Signaled, o.FailReason = 0, true, "killed by a signal"
				}
				outs = append(outs, o)
			}
		}
	}
	return outs
}

// TestProbeAgreesWithWrap is the differential test of doctor's probe against
// wrap: for every dialect's pre-tool event and every output of agreeOutputs,
// what the probe reports is what wrap's reader (translate.ReadOutput, the
// reader Translator.Result applies) decides, and wrap, carrying the same
// output to every host, blocks where the probe says the guard blocked and
// lets the call through where the probe says the agent runs it.
func TestProbeAgreesWithWrap(t *testing.T) {
	tbl := mappings.Default()
	for _, d := range tbl.Dialects {
		ev, _ := d.EventFor("tool.before")
		if ev == nil {
			continue
		}
		for _, out := range agreeOutputs(ev.Name) {
			name := fmt.Sprintf("%s/exit%d/signaled=%v/%q/%q", d.Name, out.ExitCode, out.Signaled, out.Stdout, out.Stderr)
			outcome, rl, _ := classify(d, ev.Name, out, false, ProbeLimit)
			sev := rl.Severity
			v, _, err := translate.ReadOutput(d, ev.Name, out)
			if err != nil {
				t.Fatal(err)
			}
			var want string
			var wantSev Severity
			switch {
			case v.Ignored != "":
				want, wantSev = "ignored idiom: "+v.Ignored+"; it runs the tool", Error
			case v.Block:
				want, wantSev = "blocked (", Note
			case v.Ask:
				want = "asks the user to confirm"
				wantSev = Note
				if ev.Output.AskHangs {
					wantSev = Warning
				}
			case v.Failure != "":
				want, wantSev = "failed open: "+v.Failure, Error
			default:
				want, wantSev = "allowed", Note
			}
			if !strings.HasPrefix(outcome, want) || sev != wantSev {
				t.Errorf("%s: the probe says %s %q; wrap's reader decides %s %q", name, sev, outcome, wantSev, want)
			}
			blocked := strings.HasPrefix(outcome, "blocked (")
			runs := outcome == "allowed" || strings.HasPrefix(outcome, "failed open") || strings.HasPrefix(outcome, "ignored idiom") && !v.Block && !v.Ask
			if v.Stop {
				runs = false // wrap puts a deny beside a stop (issue 23, item 8): it grants less
			}
			for _, h := range tbl.Dialects {
				hev, _ := h.EventFor("tool.before")
				if hev == nil {
					continue
				}
				tr, err := translate.New(tbl, d.Name, h.Name)
				if err != nil {
					t.Fatal(err)
				}
				res, _ := tr.Result(translate.ResultContext{HookEvent: ev.Name, HostEvent: hev.Name}, out)
				hv, _, err := translate.ReadOutput(h, hev.Name, res)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case blocked && !hv.Block:
					t.Errorf("%s: the probe says the guard blocked; wrap lets it through on %s (%q)", name, h.Name, res.Stdout)
				case runs && (hv.Block || hv.Ask):
					t.Errorf("%s: the probe says %s runs the tool (%s); wrap blocks or asks on %s (%q)", name, d.Agent, outcome, h.Name, res.Stdout)
				}
			}
		}
	}
}

// TestProbeReadsAsTheAgent holds the cases where doctor's own rules
// (ignoredIdiom in probe.go, removed) disagreed with wrap's reader on
// 244ac78: each says what the hook's own agent does.
func TestProbeReadsAsTheAgent(t *testing.T) {
	tbl := mappings.Default()
	tests := []struct {
		dialect        string
		exit           int
		stdout, stderr string
		want           string // a prefix of the probe's outcome
		sev            Severity
	}{
		// A byte-order mark is white space to JavaScript's trim: Claude
		// Code reads the invalid decision "deny" and runs the tool. The
		// probe said "blocked".
		{"claude", 0, "\ufeff{\"decision\":\"deny\"}", "", `ignored idiom: {"decision":"deny"} is invalid in Claude Code`, Error},
		{"qwen", 0, "\ufeff{\"decision\":\"deny\"}", "", `ignored idiom: {"decision":"deny"} is invalid in Qwen Code`, Error},
		// Exit 3 aborts Factory Droid on PreToolUse whatever the JSON
		// says: the tool does not run. The probe said it runs.
		{"droid", 3, `{"decision":"deny"}`, "", "blocked (", Note},
		{"droid", 3, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", "blocked (", Note},
		// TerminaI blocks at exit 2 with stderr and ignores stdout. The
		// probe said it runs the tool.
		{"terminai", 2, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "why", "blocked (why)", Note},
		// Claude Code rejects decision "ask" and runs the tool. The probe
		// said it asks.
		{"claude", 0, `{"decision":"ask"}`, "", `ignored idiom: {"decision":"ask"} is invalid in Claude Code`, Error},
		// Copilot CLI reads only a top-level permissionDecision on
		// preToolUse. The probe said "allowed", without a word.
		{"copilot", 0, `{"decision":"deny","reason":"r"}`, "", `ignored idiom: decision "deny" is ignored by Copilot CLI`, Error},
		{"copilot", 0, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", `ignored idiom: hookSpecificOutput.permissionDecision "deny" is ignored by Copilot CLI`, Error},
		// Factory Droid does not read decision on PreToolUse at all (the
		// probe called it invalid), and JSON keys are case-sensitive (the
		// probe read "Decision" as decision, as encoding/json does).
		{"droid", 0, `{"decision":"deny"}`, "", `ignored idiom: decision "deny" is not read on PreToolUse by Factory Droid`, Error},
		{"claude", 0, `{"Decision":"deny"}`, "", `ignored idiom: "Decision" is not "decision" to Claude Code`, Error},
		// Gemini CLI blocks at exit 2 and above only with a reason.
		{"gemini", 3, "", "", "ignored idiom: exit 3 with nothing printed does not block in Gemini CLI", Error},
	}
	for _, tt := range tests {
		d, err := tbl.Dialect(tt.dialect)
		if err != nil {
			t.Fatal(err)
		}
		ev, _ := d.EventFor("tool.before")
		out := translate.Output{Stdout: []byte(tt.stdout), Stderr: []byte(tt.stderr), ExitCode: tt.exit}
		got, rl, _ := classify(d, ev.Name, out, false, ProbeLimit)
		sev := rl.Severity
		if !strings.HasPrefix(got, tt.want) || sev != tt.sev {
			t.Errorf("%s exit %d %q %q: the probe says %s %q, want %s %q", tt.dialect, tt.exit, tt.stdout, tt.stderr, sev, got, tt.sev, tt.want)
		}
	}
}
