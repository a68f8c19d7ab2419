package translate

import (
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// An ask reaches a host that can ask as an ask, except in a headless run
// on an event whose ask never returns there (output.askHangs: Gemini CLI's
// BeforeTool, T§15 S3), where it is a deny unless --ask ask. The table
// says which events those are, for every family: each event that can ask
// is tried both ways.
func TestAskHangsIsTheTables(t *testing.T) {
	tbl := mappings.Default()
	claude := tbl.MustDialect("claude")
	hookEv := claude.Event("PreToolUse")
	n := 0
	for _, host := range tbl.Dialects {
		for _, ev := range host.Events {
			if !ev.Output.Ask {
				continue
			}
			for _, hangs := range []bool{false, true} {
				hostEv := *ev
				hostEv.Output.AskHangs = hangs
				for _, mode := range []string{"", "deny", "ask"} {
					n++
					tr := &Translator{Table: tbl, From: claude, To: host}
					var fs findings
					out := tr.render(ResultContext{HookEvent: hookEv.Name, HostEvent: ev.Name, Ask: mode}, hookEv, &hostEv, Verdict{Ask: true, AskReason: "sure?"}, &fs)
					var back findings
					v := readOutput(host, &hostEv, out, &back)
					wantDeny := hangs && mode != "ask"
					if v.Block != wantDeny || v.Ask == wantDeny {
						t.Errorf("%s %s, askHangs %v, --ask %q: host reads %+v from %s; want a deny: %v", host.Name, ev.Name, hangs, mode, v, out.Stdout, wantDeny)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no host event can ask")
	}
}
