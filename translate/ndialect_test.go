package translate

import (
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// blockForms are the answers a hook might block with on a guard event;
// which of them block, and with what reason, is for the hook's own agent
// to say (readOutput with its rules), not for this list.
func blockForms(ev *mappings.Event) map[string]Output {
	return map[string]Output{
		"exit 2":                   {Stderr: []byte("no rm -rf"), ExitCode: 2},
		"decision deny":            {Stdout: []byte(`{"decision":"deny","reason":"no rm -rf"}`)},
		"decision block":           {Stdout: []byte(`{"decision":"block","reason":"no rm -rf"}`)},
		"decision block on stderr": {Stderr: []byte(`{"decision":"block","reason":"no rm -rf"}`)},
		"permissionDecision deny": {Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"` + ev.Name +
			`","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}`)},
		"top-level permissionDecision deny": {Stdout: []byte(`{"permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}`)},
		"exit 1":                            {Stderr: []byte("no rm -rf"), ExitCode: 1},
		"cancel":                            {Stdout: []byte(`{"cancel":true,"errorMessage":"no rm -rf"}`)},
	}
}

// Deny in ⇒ deny out, for a hook of every dialect under every host: each
// answer the hook's own agent reads as a block on a guard event reaches the
// host as what the host reads as a block (its stdout, stderr and exit code
// read back with the host's rules), with the reason the hook's own agent
// would give, and nothing grants.
func TestDenyInDenyOutForEveryPair(t *testing.T) {
	tbl := mappings.Default()
	for _, hook := range tbl.Dialects {
		blocks := 0
		for _, host := range tbl.Dialects {
			if hook == host {
				continue
			}
			tr := newTr(t, hook.Name, host.Name)
			for _, ev := range hook.Events {
				if !ev.Output.Guard {
					continue
				}
				m, _ := tbl.MapEvent(hook, host, ev.Name)
				if m.To == nil || !m.To.Output.Guard {
					continue
				}
				for name, in := range blockForms(ev) {
					var own findings
					want := readOutput(hook, ev, in, &own)
					if !want.Block {
						continue
					}
					blocks++
					out, _ := tr.Result(ResultContext{HookEvent: ev.Name, HostEvent: m.To.Name}, in)
					var fs findings
					v := readOutput(host, m.To, out, &fs)
					if !v.Block || !strings.Contains(v.Reason, want.Reason) {
						t.Errorf("%s %s hook, %s (its own agent: a block, %q), on %s %s: host reads %+v from stdout %q stderr %q exit %d; want a block with that reason",
							hook.Name, ev.Name, name, want.Reason, host.Name, m.To.Name, v, out.Stdout, out.Stderr, out.ExitCode)
					}
					if v.Allow {
						t.Errorf("%s %s hook, %s, on %s: the host's answer grants", hook.Name, ev.Name, name, host.Name)
					}
				}
			}
		}
		if blocks == 0 {
			t.Errorf("no answer blocks a %s guard by %s's own rules: the test checks nothing for it", hook.Name, hook.Agent)
		}
	}
}

// A top-level decision where the hook's own agent does not read one
// (Droid's PreToolUse and UserPromptSubmit) blocks nothing there, so it
// becomes no block on any host; the same hook's exit 2 still blocks.
func TestUnreadDecisionIsNoBlockOnAnyHost(t *testing.T) {
	tbl := mappings.Default()
	n := 0
	for _, hook := range tbl.Dialects {
		for _, ev := range hook.Events {
			if !ev.Output.DecisionIgnored || !ev.Output.Guard {
				continue
			}
			for _, host := range tbl.Dialects {
				if host == hook {
					continue
				}
				m, _ := tbl.MapEvent(hook, host, ev.Name)
				if m.To == nil {
					continue
				}
				n++
				tr := newTr(t, hook.Name, host.Name)
				out, _ := tr.Result(ResultContext{HookEvent: ev.Name, HostEvent: m.To.Name},
					Output{Stdout: []byte(`{"decision":"block","reason":"ignored by its own agent"}`)})
				var fs findings
				if v := readOutput(host, m.To, out, &fs); v.Block {
					t.Errorf("%s %s hook's top-level block became a block on %s: stdout %q exit %d", hook.Name, ev.Name, host.Name, out.Stdout, out.ExitCode)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no event of the table has decisionIgnored on a guard event")
	}
}

// On a host that reads no top-level decision on an event that has no
// permissionDecision, a block is written as exit 2 with the reason on
// stderr: the form that host honours.
func TestBlockOnAHostThatReadsNoDecisionIsExit2(t *testing.T) {
	tbl := mappings.Default()
	n := 0
	for _, host := range tbl.Dialects {
		for _, hostEv := range host.Events {
			if !hostEv.Output.DecisionIgnored || hostEv.Output.PermissionDecision || !hostEv.Output.Guard {
				continue
			}
			for _, hook := range tbl.Dialects {
				m, _ := tbl.MapEvent(host, hook, hostEv.Name)
				if hook == host || m.To == nil {
					continue
				}
				n++
				in := Output{Stderr: []byte("not this prompt"), ExitCode: 2}
				var own findings
				if !readOutput(hook, m.To, in, &own).Block {
					continue // not a block by the hook's own agent's rules
				}
				tr := newTr(t, hook.Name, host.Name)
				out, _ := tr.Result(ResultContext{HookEvent: m.To.Name, HostEvent: hostEv.Name}, in)
				if out.ExitCode != 2 || !strings.Contains(string(out.Stderr), "not this prompt") || strings.Contains(string(out.Stdout), `"decision"`) {
					t.Errorf("%s %s hook on %s %s: stdout %q stderr %q exit %d; want exit 2 with the reason on stderr and no decision",
						hook.Name, m.To.Name, host.Name, hostEv.Name, out.Stdout, out.Stderr, out.ExitCode)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no guard event of the table reads no decision and has no permissionDecision")
	}
}

// An agent that reads stderr as the output when stdout is empty (Qwen)
// would have decided by the stderr hookx could not read in full: on a
// guard event that is a block, whatever the host.
func TestStderrAsOutputOverflowBlocksAGuard(t *testing.T) {
	tbl := mappings.Default()
	n := 0
	for _, hook := range tbl.Dialects {
		if !hook.StderrAsOutput {
			continue
		}
		for _, ev := range hook.Events {
			if !ev.Output.Guard {
				continue
			}
			for _, host := range tbl.Dialects {
				m, _ := tbl.MapEvent(hook, host, ev.Name)
				if host == hook || m.To == nil || !m.To.Output.Guard {
					continue
				}
				n++
				tr := newTr(t, hook.Name, host.Name)
				in := Output{Stdout: []byte("\n"), ExitCode: 0, Failed: true, Overflow: true, FailReason: "hook stderr over the limit"}
				out, _ := tr.Result(ResultContext{HookEvent: ev.Name, HostEvent: m.To.Name}, in)
				var fs findings
				if v := readOutput(host, m.To, out, &fs); !v.Block {
					t.Errorf("%s %s hook, blank stdout and stderr over the bound, on %s %s: host reads %+v; want a block", hook.Name, ev.Name, host.Name, m.To.Name, v)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no dialect reads stderr as its output")
	}
}

// Beyond guards, with Copilot CLI on either side: a block that continues
// the turn stays one, and a block that hides a tool's output keeps it from
// the model (a block, a replaced result, or continue:false), for every
// blocking answer the hook's own agent reads as one.
func TestContinueAndHideBlocksWithCopilot(t *testing.T) {
	tbl := mappings.Default()
	n := 0
	for _, hook := range tbl.Dialects {
		for _, host := range tbl.Dialects {
			if hook == host || (hook.Name != "copilot" && host.Name != "copilot") {
				continue
			}
			tr := newTr(t, hook.Name, host.Name)
			for _, ev := range hook.Events {
				kind := ev.Output.Block
				if kind != "continue" && kind != "hide_output" {
					continue
				}
				m, _ := tbl.MapEvent(hook, host, ev.Name)
				if m.To == nil || (m.To.Output.Block != kind && !(kind == "hide_output" && m.To.Output.Block == "feedback")) {
					continue
				}
				for name, in := range blockForms(ev) {
					var own findings
					want := readOutput(hook, ev, in, &own)
					if !want.Block {
						continue
					}
					n++
					payload := `{"hook_event_name":"` + m.To.Name + `","tool_name":"Bash","tool_input":{"command":"cat s"},"tool_response":{"stdout":"S"}}`
					out, _ := tr.Result(ResultContext{HookEvent: ev.Name, HostEvent: m.To.Name, HostPayload: []byte(payload)}, in)
					var fs findings
					v := readOutput(host, m.To, out, &fs)
					kept := v.Block || (kind == "hide_output" && (v.NewOutput != nil || v.Stop))
					if !kept || (v.Block && !strings.Contains(v.Reason, want.Reason)) {
						t.Errorf("%s %s hook, %s (a %s block, %q), on %s %s: host reads %+v from %q exit %d",
							hook.Name, ev.Name, name, kind, want.Reason, host.Name, m.To.Name, v, out.Stdout, out.ExitCode)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no continue or hide_output block with Copilot on either side")
	}
	t.Logf("%d blocking answers checked", n)
}
