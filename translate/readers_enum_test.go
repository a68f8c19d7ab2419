package translate

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// TestQwenPermissionRequestDenyIsCarried: Qwen Code's PermissionRequest
// hook denies with hookSpecificOutput.decision {behavior: "deny"} (its
// firePermissionRequestHook, chunk-DPEB6S2R.js:40083-40130), the only
// answer it reads there. On every host with a permission dialog the deny
// must stay a deny; before, hookx read no decision there and the host went
// on to allow. Any decision object that does not allow denies there
// (js:40111-40123).
func TestQwenPermissionRequestDenyIsCarried(t *testing.T) {
	for _, dec := range []string{`{"behavior":"deny","message":"not rm"}`, `{"behavior":"ask"}`, `{"message":"no behavior"}`} {
		out := Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":` + dec + `}}`)}
		testQwenPermissionRequestDeny(t, out)
	}
}

func testQwenPermissionRequestDeny(t *testing.T, out Output) {
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

// TestModelHookFieldsAreCarried: Gemini CLI and TerminaI act on the same
// model hook fields (llm_request merged into the request, llm_response as a
// BeforeModel block's synthetic response or an AfterModel chunk's
// replacement, toolConfig), in the same format: through hookx one's hook on
// the other's host passes them on. Before, hookx dropped them ("the host
// has no model-level hooks"), so a BeforeModel hook that redacts the
// request let the model see what it removed.
func TestModelHookFieldsAreCarried(t *testing.T) {
	for _, c := range []struct {
		event, out, field string
	}{
		{"BeforeModel", `{"hookSpecificOutput":{"llm_request":{"messages":[{"role":"user","content":"[REDACTED]"}]}}}`, "llm_request"},
		{"BeforeModel", `{"decision":"deny","reason":"budget","hookSpecificOutput":{"llm_response":{"candidates":[{"content":{"role":"model","parts":["over budget"]}}]}}}`, "llm_response"},
		{"AfterModel", `{"hookSpecificOutput":{"llm_response":{"candidates":[{"content":{"role":"model","parts":["[REDACTED]"]}}]}}}`, "llm_response"},
		{"BeforeToolSelection", `{"hookSpecificOutput":{"toolConfig":{"mode":"NONE"}}}`, "toolConfig"},
	} {
		for _, pair := range [][2]string{{"gemini", "terminai"}, {"terminai", "gemini"}} {
			t.Run(pair[0]+"-on-"+pair[1]+"/"+c.event+"/"+c.field, func(t *testing.T) {
				tr := newTr(t, pair[0], pair[1])
				got, fs := tr.Result(ResultContext{HookEvent: c.event, HostEvent: c.event, HostPayload: []byte(`{}`)}, Output{Stdout: []byte(c.out)})
				want := canonJSON(t, parseFields([]byte(c.out)).object("hookSpecificOutput")[c.field])
				if have := canonJSON(t, parseFields(got.Stdout).object("hookSpecificOutput")[c.field]); have != want {
					t.Errorf("host got %s, want hookSpecificOutput.%s as the hook wrote it (findings %v)", got.Stdout, c.field, fs)
				}
			})
		}
	}
}

// canonJSON is raw re-encoded, keys sorted; "" when raw is absent.
func canonJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if raw == nil {
		return ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestTerminaIModelHooksAsItsSourceSays: TerminaI's AfterModel reads only
// llm_response, never a block or continue:false
// (core/geminiChatHookTriggers.ts:216-229 at 4b816c7a), so a Gemini
// AfterModel block on a TerminaI host is reported not carried rather than
// written for TerminaI to ignore; its BeforeModel skips the model call on
// continue:false as on a block, with no stop of its own (:99-111), so a
// TerminaI hook's continue:false reaches a Gemini host as that block.
func TestTerminaIModelHooksAsItsSourceSays(t *testing.T) {
	tr := newTr(t, "gemini", "terminai")
	_, fs := tr.Result(ResultContext{HookEvent: "AfterModel", HostEvent: "AfterModel", HostPayload: []byte(`{}`)}, Output{Stdout: []byte(`{"decision":"deny","reason":"leak"}`)})
	if !slices.ContainsFunc(fs, func(f Finding) bool { return f.What == "block" && strings.Contains(f.Why, "cannot block") }) {
		t.Errorf("gemini AfterModel deny on terminai: no finding that the block is not carried: %v", fs)
	}
	tr = newTr(t, "terminai", "gemini")
	got, fs := tr.Result(ResultContext{HookEvent: "BeforeModel", HostEvent: "BeforeModel", HostPayload: []byte(`{}`)}, Output{Stdout: []byte(`{"continue":false,"stopReason":"no"}`)})
	var hf findings
	if v := readOutput(tr.To, tr.To.Event("BeforeModel"), got, &hf); !v.Block || v.Stop {
		t.Errorf("terminai BeforeModel continue:false on gemini: host reads %+v, want a block and no stop (host got %s; findings %v)", v, got.Stdout, fs)
	}
}

// TestQwenStopContinueFalseContinues: Qwen Code's Stop and SubagentStop
// read continue:false as a block: the reason becomes the next prompt and
// the turn goes on (isBlockingDecision() || shouldStopExecution(),
// chunk-DPEB6S2R.js:83061, 83137, 66596). A Qwen Stop hook's continue:false
// keeps every host's turn going, and a stop for a Qwen host is never
// written as continue:false, which Qwen Code would turn into another turn.
// Before, hookx read it as a stop both ways.
func TestQwenStopContinueFalseContinues(t *testing.T) {
	out := Output{Stdout: []byte(`{"continue":false,"stopReason":"run the tests first"}`)}
	for _, ev := range []string{"Stop", "SubagentStop"} {
		for _, host := range mappings.Default().DialectNames() {
			t.Run("qwen-on-"+host+"/"+ev, func(t *testing.T) {
				tr := newTr(t, "qwen", host)
				m, err := tr.Table.MapEvent(tr.From, tr.To, ev)
				if err != nil || m.To == nil || m.To.Output.Block != "continue" {
					t.Skip("no counterpart that can continue")
				}
				got, fs := tr.Result(ResultContext{HookEvent: ev, HostEvent: m.To.Name, HostPayload: []byte(`{}`)}, out)
				var hf findings
				if v := readOutput(tr.To, m.To, got, &hf); !v.Block || (v.Stop && m.To.Output.Stop) {
					t.Errorf("host reads %+v, want its block (the turn goes on) and no stop (host got %q %q exit %d; findings %v)", v, got.Stdout, got.Stderr, got.ExitCode, fs)
				}
			})
		}
		for _, from := range []string{"claude", "gemini"} {
			t.Run(from+"-on-qwen/"+ev, func(t *testing.T) {
				tr := newTr(t, from, "qwen")
				m, err := tr.Table.MapEvent(tr.From, tr.To, ev)
				if from == "gemini" {
					m, err = tr.Table.MapEvent(tr.From, tr.To, "AfterAgent")
				}
				if err != nil || m.To == nil || m.To.Name != ev {
					t.Skip("not paired")
				}
				got, fs := tr.Result(ResultContext{HookEvent: m.From.Name, HostEvent: ev, HostPayload: []byte(`{}`)}, out)
				if parseFields(got.Stdout).isFalse("continue") || got.ExitCode == 2 || parseFields(got.Stdout).str("decision") != "" {
					t.Errorf("a stop written for Qwen Code, which would go on with another turn: %q %q exit %d (findings %v)", got.Stdout, got.Stderr, got.ExitCode, fs)
				}
			})
		}
	}
}
