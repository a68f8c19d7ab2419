package translate

import (
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// TestQwenPermissionRequestDenyIsCarried: Qwen Code's PermissionRequest
// hook denies with hookSpecificOutput.decision {behavior: "deny"} (its
// firePermissionRequestHook, chunk-DPEB6S2R.js:40083-40130), the only
// answer it reads there. On every host with a permission dialog the deny
// must stay a deny; before, hookx read no decision there and the host went
// on to allow.
func TestQwenPermissionRequestDenyIsCarried(t *testing.T) {
	out := Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not rm"}}}`)}
	for _, host := range mappings.Default().DialectNames() {
		t.Run(host, func(t *testing.T) {
			tr := newTr(t, "qwen", host)
			m, err := tr.Table.MapEvent(tr.From, tr.To, "PermissionRequest")
			if err != nil || m.To == nil {
				t.Skip("no permission dialog event")
			}
			payload := []byte(`{"tool_name":"` + firstTool(tr.To) + `","tool_input":{"command":"rm -rf /"}}`)
			got, fs := tr.Result(ResultContext{HookEvent: "PermissionRequest", HostEvent: m.To.Name, HostPayload: payload}, out)
			var hf findings
			if v := readOutput(tr.To, m.To, got, &hf); !v.Block {
				t.Errorf("the host does not deny (host got %q %q exit %d; findings %v)", got.Stdout, got.Stderr, got.ExitCode, fs)
			}
		})
	}
}

// firstTool is a tool name of d, for a payload.
func firstTool(d *mappings.Dialect) string {
	for _, tl := range d.Tools {
		if tl.Canonical == "shell" {
			return tl.Name
		}
	}
	return "Bash"
}

// TestQwenPreCompactCannotBlock: Qwen Code's compaction reads only the
// PreCompact result's additionalContext (chunk-DPEB6S2R.js:33195-33205):
// a Claude PreCompact hook's block cannot keep a Qwen host from compacting,
// and hookx says so rather than write a block Qwen Code ignores. Before,
// the table said Qwen Code blocks there and nothing was reported.
func TestQwenPreCompactCannotBlock(t *testing.T) {
	tr := newTr(t, "claude", "qwen")
	for _, out := range []Output{
		{ExitCode: 2, Stderr: []byte("keep the context\n")},
		{Stdout: []byte(`{"decision":"block","reason":"keep the context"}`)},
	} {
		_, fs := tr.Result(ResultContext{HookEvent: "PreCompact", HostEvent: "PreCompact", HostPayload: []byte(`{"trigger":"manual"}`)}, out)
		found := false
		for _, f := range fs {
			if f.What == "block" && f.Mark == mappings.None && strings.Contains(f.Why, "cannot block") {
				found = true
			}
		}
		if !found {
			t.Errorf("%q %q: no finding that the block is not carried: %v", out.Stdout, out.Stderr, fs)
		}
	}
}
