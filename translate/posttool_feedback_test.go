package translate

import (
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// A block after a tool ran, where the hook's own agent gives the model its
// reason and keeps the output (Claude's PostToolUse "feedback"), reaches
// the model on every host: as a block the host reads there, or, where the
// host reads none (Qwen's PostToolUse reads no decision and turns exit 2
// into one: live, conformance posttool-block/qwen-decision-ignored), as
// additional context. Read back by the host's own rules.
func TestFeedbackAfterAToolReachesTheModelOnEveryHost(t *testing.T) {
	tbl := mappings.Default()
	const reason = "FEEDBACK-REASON look again"
	n := 0
	for _, hook := range tbl.Dialects {
		hookEv, _ := hook.EventFor("tool.after")
		if hookEv == nil || hookEv.Output.Block != "feedback" {
			continue
		}
		var in Output
		for _, o := range []Output{
			{Stdout: []byte(`{"decision":"block","reason":"` + reason + `"}`)},
			{Stdout: []byte(`{"block":true,"reason":"` + reason + `"}`)}, // Pi's extension
			{Stderr: []byte(reason), ExitCode: 2},
		} {
			var own findings
			if v := readOutput(hook, hookEv, o, &own); v.Block && strings.Contains(v.Reason, reason) {
				in = o
				break
			}
		}
		if in.Stdout == nil && in.Stderr == nil {
			continue // no such answer blocks by its own agent's rules
		}
		for _, host := range tbl.Dialects {
			m, _ := tbl.MapEvent(hook, host, hookEv.Name)
			if host == hook || m.To == nil || m.To.Canonical != "tool.after" || m.To.Output.Context != "model" {
				continue
			}
			n++
			tr := newTr(t, hook.Name, host.Name)
			out, _ := tr.Result(ResultContext{HookEvent: hookEv.Name, HostEvent: m.To.Name}, in)
			var fs findings
			v := readOutput(host, m.To, out, &fs)
			asBlock := v.Block && m.To.Output.Block != "none" && m.To.Output.Block != "" && strings.Contains(v.Reason, reason)
			asContext := strings.Contains(strings.Join(v.Context, "\n"), reason)
			if !asBlock && !asContext {
				t.Errorf("%s %s block on %s %s: the reason does not reach the model (stdout %q stderr %q exit %d, read as %+v)",
					hook.Name, hookEv.Name, host.Name, m.To.Name, out.Stdout, out.Stderr, out.ExitCode, v)
			}
		}
	}
	if n == 0 {
		t.Fatal("no pair of agents with a feedback block after a tool")
	}
}
