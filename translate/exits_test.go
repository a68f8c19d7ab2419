package translate

import (
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// hostReads translates a hook's result for the host and reads what the host
// receives with the host's own rules: what the host's agent will do.
func hostReads(t *testing.T, hook, host, event string, out Output) (v Verdict, hostEv *mappings.Event, fs []Finding) {
	t.Helper()
	tr := newTr(t, hook, host)
	m, err := tr.Table.MapEvent(tr.From, tr.To, event)
	if err != nil || m.To == nil {
		return Verdict{}, nil, nil
	}
	got, fs := tr.Result(ResultContext{HookEvent: event, HostEvent: m.To.Name}, out)
	var hf findings
	return readOutput(tr.To, m.To, got, &hf), m.To, fs
}

// TestDroidExitCodesOfItsOwn: Factory Droid aborts the agent when a
// PreToolUse, PostToolUse or Stop hook exits 3 ("Hook returned exit code 3,
// throwing AgentAbortError") and blocks the prompt or the compaction when a
// UserPromptSubmit or PreCompact hook does (evidence/droid-output.jsonc).
// On every host, the host's agent must do the same, or the nearest thing
// that grants no more: the tool does not run and the agent stops where the
// host can stop it. On b20418e every host read "no decision" and ran the
// tool (issue 23, item 1).
func TestDroidExitCodesOfItsOwn(t *testing.T) {
	tab := mappings.Default()
	exit3 := Output{ExitCode: 3, Stderr: []byte("abort: secrets in the command\n")}
	for _, host := range tab.DialectNames() {
		for _, c := range []struct {
			event     string
			wantBlock bool // the host's agent blocks the action
			wantStop  bool // the host's agent stops, where it can on the event
		}{
			{"PreToolUse", true, true},
			{"UserPromptSubmit", true, false},
			{"PreCompact", true, false},
			{"PostToolUse", false, true},
			{"Stop", false, true},
		} {
			t.Run(host+"/"+c.event, func(t *testing.T) {
				v, hostEv, fs := hostReads(t, "droid", host, c.event, exit3)
				if hostEv == nil {
					t.Skipf("%s has no counterpart of Droid's %s", host, c.event)
				}
				canBlock := hostEv.Output.Block == "deny"
				if c.wantBlock && canBlock && !v.Block {
					t.Errorf("%s's %s does not block a Droid hook's exit 3 (verdict %+v; findings %v)", host, hostEv.Name, v, fs)
				}
				if c.wantStop && hostEv.Output.Stop && !v.Stop {
					t.Errorf("%s's %s does not stop on a Droid hook's exit 3 (verdict %+v; findings %v)", host, hostEv.Name, v, fs)
				}
				// After a tool, the stopped agent never shows the model
				// the tool's result: a host that cannot stop hides it.
				hides := hostEv.Output.Block == "hide_output" || hostEv.Output.StopReplacesOutput
				if c.event == "PostToolUse" && !hostEv.Output.Stop && hides && !v.Block && !v.Stop {
					t.Errorf("%s's %s neither stops nor hides the tool's output on a Droid hook's exit 3 (verdict %+v; findings %v)", host, hostEv.Name, v, fs)
				}
				if c.event == "Stop" && v.Block {
					t.Errorf("%s's %s keeps the turn going on a Droid hook's exit 3, which ends it (verdict %+v)", host, hostEv.Name, v)
				}
				if v.Block && v.Reason != "abort: secrets in the command" && !v.Stop {
					t.Errorf("reason %q, want the hook's stderr", v.Reason)
				}
			})
		}
	}
}

// TestDroidPreToolUseExit1ReachesTheModel: Droid prepends a PreToolUse
// hook's stderr at exit 1 to the tool's result; the tool runs.
func TestDroidPreToolUseExit1ReachesTheModel(t *testing.T) {
	for _, host := range mappings.Default().DialectNames() {
		t.Run(host, func(t *testing.T) {
			v, hostEv, fs := hostReads(t, "droid", host, "PreToolUse", Output{ExitCode: 1, Stderr: []byte("careful: prod\n")})
			if hostEv == nil {
				t.Skip()
			}
			if v.Block || v.Stop {
				t.Errorf("exit 1 blocked or stopped on %s: %+v", host, v)
			}
			if hostEv.Output.Context == "model" && (len(v.Context) != 1 || v.Context[0] != "careful: prod") {
				t.Errorf("context %q on %s, want the hook's stderr; findings %v", v.Context, host, fs)
			}
		})
	}
}

// TestStopOnAToolGuardCarriesADeny: a Claude-protocol hook's continue:false
// on PreToolUse stops the agent (Droid before the tool runs, Claude Code
// after it). On every host whose tool guard denies, the answer carries a
// deny beside the stop, so the tool cannot run on a host that reads one and
// not the other. On b20418e a Droid or Claude host got {"continue":false}
// alone (issue 23, item 8).
func TestStopOnAToolGuardCarriesADeny(t *testing.T) {
	tab := mappings.Default()
	stop := Output{Stdout: []byte(`{"continue":false,"stopReason":"halt: guard tripped"}`)}
	for _, hook := range tab.DialectNames() {
		d, _ := tab.Dialect(hook)
		if d.Protocol != "claude" {
			continue
		}
		ev, _ := d.EventFor("tool.before")
		if ev == nil || !ev.Output.Stop {
			continue
		}
		for _, host := range tab.DialectNames() {
			if host == hook {
				continue // passed through untouched
			}
			out := stop
			if ev.Output.StopByExit {
				// An agent that reads no continue:false stops on its own
				// exit code (Crush's 49).
				out = Output{ExitCode: ev.Output.StopExit(), Stderr: []byte("halt: guard tripped\n")}
			}
			t.Run(hook+"→"+host, func(t *testing.T) {
				v, hostEv, fs := hostReads(t, hook, host, ev.Name, out)
				if hostEv == nil {
					t.Skip()
				}
				if hostEv.Output.Block == "deny" && !hostEv.Output.StopFailsAction && !v.Block {
					t.Errorf("%s's %s gets no deny beside continue:false (verdict %+v; findings %v)", host, hostEv.Name, v, fs)
				}
				if hostEv.Output.Stop && !v.Stop {
					t.Errorf("%s's %s does not stop (verdict %+v)", host, hostEv.Name, v)
				}
			})
		}
	}
}

// TestDroidPromptRewriteFailsClosed: Factory Droid sends the prompt a
// UserPromptSubmit hook gives in hookSpecificOutput.updatedInput.prompt
// (evidence/droid-output.jsonc); no other agent takes a rewritten prompt.
// On every host the prompt is refused rather than sent as typed (a
// redacting hook's secret would reach the model); a rewrite to the same
// prompt changes nothing. On b20418e every host sent the prompt unchanged.
func TestDroidPromptRewriteFailsClosed(t *testing.T) {
	for _, host := range mappings.Default().DialectNames() {
		t.Run(host, func(t *testing.T) {
			tr := newTr(t, "droid", host)
			m, err := tr.Table.MapEvent(tr.From, tr.To, "UserPromptSubmit")
			if err != nil || m.To == nil {
				t.Skip("no prompt event")
			}
			if m.To.Output.Block == "none" {
				// Cline runs its prompt hook in the background and reads
				// nothing of it: nothing there can refuse a prompt.
				t.Skipf("%s cannot refuse a prompt on %s", tr.To.Agent, m.To.Name)
			}
			hostPayload := []byte(`{"prompt":"deploy with key sk-123"}`)
			for _, c := range []struct {
				prompt    string
				wantBlock bool
			}{{"deploy with key [REDACTED]", true}, {"deploy with key sk-123", false}} {
				out := Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","updatedInput":{"prompt":"` + c.prompt + `"}}}`)}
				got, fs := tr.Result(ResultContext{HookEvent: "UserPromptSubmit", HostEvent: m.To.Name, HostPayload: hostPayload}, out)
				var hf findings
				v := readOutput(tr.To, m.To, got, &hf)
				if v.Block != c.wantBlock {
					t.Errorf("rewrite to %q: host blocks %v, want %v (host got %s%s; findings %v)", c.prompt, v.Block, c.wantBlock, got.Stdout, got.Stderr, fs)
				}
			}
		})
	}
}
