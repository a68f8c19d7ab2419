package piplugin

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// harness loads the plugin as Pi does (default export called with pi),
// fires the event in event.json (or each of an array, in order) at the
// handler for its type, and prints the last handler's result, the event's
// input after it, what the plugin sent the model (pi.sendMessage) and
// every result.
const harness = `
import plugin from "./hookx.mjs";
const handlers = {}, sent = [];
plugin({ on: (ev, h) => { handlers[ev] = h; }, sendMessage: (m, o) => sent.push({ m, o }) });
import { readFileSync } from "node:fs";
const read = JSON.parse(readFileSync("event.json", "utf8"));
const events = Array.isArray(read) ? read : [read];
const ctx = { cwd: process.cwd(), hasUI: false, sessionManager: { getSessionId: () => "s1" } };
const results = [];
for (const event of events) {
  const h = handlers[event.type];
  results.push(h ? (await h(event, ctx)) ?? null : "no handler");
}
const event = events[events.length - 1];
process.stdout.write(JSON.stringify({ result: results[results.length - 1], input: event.input, sent, results, proto: event.input === undefined || Object.getPrototypeOf(event.input) === Object.prototype }));
`

// fakeHookx is a hookx that does what its first argument says, after
// saving its stdin and arguments.
const fakeHookx = `#!/bin/sh
cat > "$(dirname "$0")/stdin.json"
printf '%s\n' "$@" > "$(dirname "$0")/argv.txt"
case "$1" in
allow) echo '{}' ;;
block) printf '{"block":true,"reason":"no rm -rf, \\"really\\"\\nplease"}' ;;
rewrite) echo '{"input":{"command":"echo safe"}}' ;;
proto) echo '{"input":{"__proto__":{"polluted":1},"command":"x"}}' ;;
context) echo '{"context":"CTX from the hook"}' ;;
nullcontext) echo '{"context":null}' ;;
replace) echo '{"output":"REPLACED","context":"CTX from the hook"}' ;;
badoutput) echo '{"output":["x"]}' ;;
garbage) echo 'not json' ;;
array) echo '[]' ;;
blockstring) echo '{"block":"yes"}' ;;
otherkey) echo '{"decision":"deny"}' ;;
crash) echo boom >&2; exit 3 ;;
hang) sleep 30 ;;
huge) head -c 3000000 /dev/zero | tr '\0' x ;;
esac
`

func TestPlugin(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is required in CI")
		}
		t.Skip("node not installed")
	}
	type out struct {
		Result map[string]any `json:"result"`
		Input  map[string]any `json:"input"`
	}
	long := strings.Repeat("x", 300000)
	for _, tc := range []struct {
		name, mode, tool, command string
		noHookx, noHooksFile      bool
		hooksFile                 string // written instead of the test's own
		want                      out
		wantReason                string // substring of the reason
		wantStderr                string // substring of the extension's stderr
	}{
		{name: "allow", mode: "allow", tool: "bash", command: "ls", want: out{Input: map[string]any{"command": "ls"}}},
		{name: "other tool not run", mode: "block", tool: "read", command: "ls", want: out{Input: map[string]any{"command": "ls"}}},
		{name: "block keeps the reason", mode: "block", tool: "bash", command: "rm -rf /", wantReason: "no rm -rf, \"really\"\nplease"},
		{name: "rewrite", mode: "rewrite", tool: "bash", command: "rm -rf /", want: out{Input: map[string]any{"command": "echo safe"}}},
		{name: "rewrite cannot set the prototype", mode: "proto", tool: "bash", command: "ls", want: out{Input: map[string]any{"__proto__": map[string]any{"polluted": float64(1)}, "command": "x"}}},
		{name: "hostile arguments reach hookx", mode: "allow", tool: "bash", command: "a'b\"c\n;$(x)`y`" + long, want: out{Input: map[string]any{"command": "a'b\"c\n;$(x)`y`" + long}}},
		{name: "garbage fails closed", mode: "garbage", tool: "bash", command: "ls", wantReason: "failed closed: unreadable answer"},
		{name: "array fails closed", mode: "array", tool: "bash", command: "ls", wantReason: "failed closed: unreadable answer"},
		{name: "odd block fails closed", mode: "blockstring", tool: "bash", command: "ls", wantReason: "failed closed: unreadable block"},
		{name: "another agent's deny fails closed", mode: "otherkey", tool: "bash", command: "ls", wantReason: "failed closed: unreadable answer: unknown decision"},
		{name: "crash fails closed", mode: "crash", tool: "bash", command: "ls", wantReason: "exited 3: boom"},
		{name: "hang fails closed", mode: "hang", tool: "bash", command: "ls", wantReason: "no answer in 500 ms"},
		{name: "huge answer fails closed", mode: "huge", tool: "bash", command: "ls", wantReason: "answer too long"},
		{name: "hookx missing fails closed", mode: "allow", tool: "bash", command: "ls", noHookx: true, wantReason: "cannot start hookx"},
		{name: "tools as a string fails closed", mode: "allow", tool: "bash", command: "ls", hooksFile: `{"hooks":[{"event":"tool_call","tools":"xbashx","argv":["allow"]}]}`, wantReason: "a hook it cannot read"},
		{name: "null hook fails closed", mode: "allow", tool: "read", command: "ls", hooksFile: `{"hooks":[null]}`, wantReason: "a hook it cannot read"},
		{name: "hooks file missing fails closed", mode: "allow", tool: "read", command: "ls", noHooksFile: true, wantReason: "cannot read"},
		{name: "another event's hook skipped with a warning", mode: "block", tool: "bash", command: "rm -rf /", hooksFile: `{"hooks":[{"event":"tool.execute.before","tools":["bash"],"argv":["block"]},{"event":"__proto__","tools":["bash"],"argv":["block"]}]}`,
			want: out{Input: map[string]any{"command": "rm -rf /"}}, wantStderr: `a hook for "__proto__", an event this extension does not run, is skipped`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, bin, write := piProject(t, !tc.noHookx)
			if tc.hooksFile != "" {
				write("hookx.hooks.json", tc.hooksFile, 0o644)
			} else if !tc.noHooksFile {
				h, _ := json.Marshal(Hooks{Hookx: "9.9.9", Hooks: []Hook{{Event: "tool_call", Tools: []string{"bash", "edit"}, Argv: []string{tc.mode, "wrap", "--from", "claude", "--host", "pi", "--", "./g.sh"}, TimeoutMs: 500}}})
				write("hookx.hooks.json", string(h), 0o644)
			}
			ev, _ := json.Marshal(map[string]any{"type": "tool_call", "toolName": tc.tool, "toolCallId": "c1", "input": map[string]any{"command": tc.command}})
			write("event.json", string(ev), 0o644)
			b, stderr := runHarness(t, dir, tc.noHookx)
			if !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stderr %q, want %q in it", stderr, tc.wantStderr)
			}
			var got out
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			// A rewrite defines the hook's keys on the arguments object;
			// it never changes the object's prototype.
			var proto struct {
				Proto bool `json:"proto"`
			}
			if err := json.Unmarshal(b, &proto); err != nil || !proto.Proto {
				t.Errorf("the arguments' prototype is no longer Object.prototype (%v): %s", err, b)
			}
			if tc.wantReason != "" {
				if got.Result["block"] != true || !strings.Contains(got.Result["reason"].(string), tc.wantReason) {
					t.Fatalf("result %v, want a block with %q", got.Result, tc.wantReason)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tc.mode == "allow" && !tc.noHookx {
				in, _ := os.ReadFile(filepath.Join(bin, "stdin.json"))
				var sent map[string]any
				if err := json.Unmarshal(in, &sent); err != nil {
					t.Fatalf("hookx's stdin: %v", err)
				}
				if sent["toolName"] != tc.tool || sent["sessionId"] != "s1" || sent["toolCallId"] != "c1" || sent["input"].(map[string]any)["command"] != tc.command {
					t.Errorf("hookx was given %.300v", sent)
				}
			}
		})
	}
}

func TestRenderStampsVersion(t *testing.T) {
	got := Render("1.2.3")
	if strings.Contains(got, "HOOKX_VERSION") || !strings.Contains(got, `const VERSION = "1.2.3";`) || !strings.Contains(got, "generated by hookx 1.2.3") {
		t.Errorf("not stamped:\n%.300s", got)
	}
}

// TestPluginEvents runs the plugin under node on each Pi event after the
// tool call that it carries: what it returns to Pi, what it sends the
// model, and what hookx was given, for an answer and for a failure (a
// guard's fails closed; the start of a session and the end of a run only
// warn, so that a broken hook cannot loop the run).
func TestPluginEvents(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is required in CI")
		}
		t.Skip("node not installed")
	}
	type sent struct {
		M map[string]any `json:"m"`
		O map[string]any `json:"o"`
	}
	type out struct {
		Result  any    `json:"result"`
		Sent    []sent `json:"sent"`
		Results []any  `json:"results"`
	}
	note := func(text string) []sent {
		return []sent{{M: map[string]any{"customType": "hookx", "content": text, "display": false}, O: map[string]any{"deliverAs": "nextTurn"}}}
	}
	textPart := func(t string) map[string]any { return map[string]any{"type": "text", "text": t} }
	toolResult := func(isError bool) map[string]any {
		return map[string]any{"type": "tool_result", "toolName": "bash", "toolCallId": "c1", "input": map[string]any{"command": "ls"},
			"content": []any{textPart("a.txt")}, "isError": isError}
	}
	settle := map[string]any{"type": "agent_before_settle", "entries": []any{}, "continue": false,
		"context": map[string]any{"llmMessages": []any{map[string]any{"role": "user", "content": "hi"}, map[string]any{"role": "assistant", "content": []any{textPart("all done")}}}}}
	for _, tc := range []struct {
		name, mode, event string
		twice             string // a second hook's mode
		events            []map[string]any
		tools             []string
		want              out
		wantStdin         map[string]any // keys hookx must have been given
		wantReason        string         // substring of a text the result carries
	}{
		{name: "tool_result context is added to the result", mode: "context", event: "tool_result", events: []map[string]any{toolResult(false)},
			want:      out{Result: map[string]any{"content": []any{textPart("a.txt"), textPart("CTX from the hook")}}},
			wantStdin: map[string]any{"type": "tool_result", "toolName": "bash", "result": "a.txt", "toolCallId": "c1"}},
		{name: "tool_result output replaces the result", mode: "replace", event: "tool_result", events: []map[string]any{toolResult(false)},
			want: out{Result: map[string]any{"content": []any{textPart("REPLACED"), textPart("CTX from the hook")}}}},
		{name: "tool_result output not a string fails closed", mode: "badoutput", event: "tool_result", events: []map[string]any{toolResult(false)},
			wantReason: "unreadable output"},
		{name: "tool_result failure sends the text as error", mode: "allow", event: "tool_result", events: []map[string]any{toolResult(true)},
			want: out{Result: nil}, wantStdin: map[string]any{"error": "a.txt"}},
		{name: "tool_result block's reason is added", mode: "block", event: "tool_result", events: []map[string]any{toolResult(false)},
			wantReason: "no rm -rf"},
		{name: "tool_result failure fails closed", mode: "crash", event: "tool_result", events: []map[string]any{toolResult(false)},
			wantReason: "hookx guard failed closed: hookx exited 3: boom"},
		{name: "tool_result rewrite is refused", mode: "rewrite", event: "tool_result", events: []map[string]any{toolResult(false)},
			wantReason: "unknown input"},
		{name: "tool_result null context fails closed", mode: "nullcontext", event: "tool_result", events: []map[string]any{toolResult(false)},
			wantReason: "unreadable context"},
		{name: "tool_result of another tool runs no hook", mode: "block", event: "tool_result", tools: []string{"edit"}, events: []map[string]any{toolResult(false)},
			want: out{Result: nil}},
		{name: "input context goes with the prompt", mode: "context", event: "input", events: []map[string]any{{"type": "input", "text": "hi; $(rm -rf /)", "source": "interactive"}},
			want: out{Result: map[string]any{"action": "continue"}, Sent: note("CTX from the hook")}, wantStdin: map[string]any{"text": "hi; $(rm -rf /)", "source": "interactive"}},
		{name: "input context of a dropped prompt is dropped", mode: "context", event: "input", twice: "block", events: []map[string]any{{"type": "input", "text": "hi"}},
			want: out{Result: map[string]any{"action": "handled"}}},
		{name: "input block drops the prompt", mode: "block", event: "input", events: []map[string]any{{"type": "input", "text": "hi"}},
			want: out{Result: map[string]any{"action": "handled"}}},
		{name: "input failure drops the prompt", mode: "garbage", event: "input", events: []map[string]any{{"type": "input", "text": "hi"}},
			want: out{Result: map[string]any{"action": "handled"}}},
		{name: "input another agent's answer drops the prompt", mode: "otherkey", event: "input", events: []map[string]any{{"type": "input", "text": "hi"}},
			want: out{Result: map[string]any{"action": "handled"}}},
		{name: "session_start context goes with the first prompt", mode: "context", event: "session_start", tools: []string{"startup"}, events: []map[string]any{{"type": "session_start", "reason": "startup"}},
			want: out{Result: nil, Sent: note("CTX from the hook")}, wantStdin: map[string]any{"source": "startup"}},
		{name: "session_start of another reason runs no hook", mode: "context", event: "session_start", tools: []string{"startup"}, events: []map[string]any{{"type": "session_start", "reason": "resume"}},
			want: out{Result: nil}},
		{name: "session_start failure only warns", mode: "crash", event: "session_start", tools: []string{"*"}, events: []map[string]any{{"type": "session_start", "reason": "startup"}},
			want: out{Result: nil}},
		{name: "stop block makes one more turn, and the next stop is told", mode: "block", event: "agent_before_settle", events: []map[string]any{settle, settle},
			want:      out{Result: map[string]any{"continue": true, "entries": []any{map[string]any{"type": "custom_message", "customType": "hookx", "content": "no rm -rf, \"really\"\nplease", "display": false}}}},
			wantStdin: map[string]any{"stopHookActive": true, "lastAssistantMessage": "all done"}},
		{name: "stop allow", mode: "allow", event: "agent_before_settle", events: []map[string]any{settle},
			want: out{Result: nil}, wantStdin: map[string]any{"stopHookActive": false}},
		{name: "stop after an aborted run runs no hook", mode: "block", event: "agent_before_settle", events: []map[string]any{withOutcome(settle, "aborted")},
			want: out{Result: nil}},
		{name: "stop after a failed run runs no hook", mode: "block", event: "agent_before_settle", events: []map[string]any{withOutcome(settle, "error")},
			want: out{Result: nil}},
		{name: "stop failure does not loop", mode: "crash", event: "agent_before_settle", events: []map[string]any{settle},
			want: out{Result: nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, bin, write := piProject(t, true)
			tools := tc.tools
			if tools == nil {
				tools = []string{"*"}
				if tc.event == "tool_result" {
					tools = []string{"bash"}
				}
			}
			hooks := []Hook{{Event: tc.event, Tools: tools, Argv: []string{tc.mode, "wrap", "--from", "claude", "--host", "pi", "--", "./g.sh"}, TimeoutMs: 2000}}
			if tc.twice != "" {
				hooks = append(hooks, Hook{Event: tc.event, Tools: tools, Argv: []string{tc.twice}, TimeoutMs: 2000})
			}
			h, _ := json.Marshal(Hooks{Hookx: "9.9.9", Hooks: hooks})
			write("hookx.hooks.json", string(h), 0o644)
			ev, _ := json.Marshal(tc.events)
			write("event.json", string(ev), 0o644)
			b, stderr := runHarness(t, dir, false)
			var got out
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			if tc.wantReason != "" {
				res, _ := got.Result.(map[string]any)
				content, _ := res["content"].([]any)
				var last map[string]any
				if len(content) > 0 {
					last, _ = content[len(content)-1].(map[string]any)
				}
				if text, _ := last["text"].(string); len(content) != 2 || !strings.Contains(text, tc.wantReason) {
					t.Fatalf("result %v, want the output and a text with %q", got.Result, tc.wantReason)
				}
				return
			}
			got.Results = nil
			if len(got.Sent) == 0 {
				got.Sent = nil
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nstderr: %s", diff, stderr)
			}
			if strings.Contains(tc.mode, "crash") && !strings.Contains(stderr, "hookx guard failed closed") && tc.event != "tool_result" {
				t.Errorf("a failure on %s says nothing: stderr %q", tc.event, stderr)
			}
			if tc.wantStdin != nil {
				in, _ := os.ReadFile(filepath.Join(bin, "stdin.json"))
				var sentIn map[string]any
				if err := json.Unmarshal(in, &sentIn); err != nil {
					t.Fatalf("hookx's stdin: %v", err)
				}
				for k, v := range tc.wantStdin {
					if !cmp.Equal(sentIn[k], v) {
						t.Errorf("hookx was given %s=%v, want %v (all: %.300v)", k, sentIn[k], v, sentIn)
					}
				}
				if sentIn["sessionId"] != "s1" || sentIn["cwd"] != dir {
					t.Errorf("hookx was given %.300v", sentIn)
				}
			}
		})
	}
}

// piProject lays out a Pi project in a directory a hostile repository
// might name (quotes, a ;, a $): the plugin, the harness and, with hookx,
// the fake hookx in its bin. write adds a file, relative to the project.
func piProject(t *testing.T, hookx bool) (dir, bin string, write func(name, text string, mode os.FileMode)) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), `p "q"; 'r' $x`)
	bin = filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	write = func(name, text string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("hookx.mjs", Render("9.9.9"), 0o644)
	write("harness.mjs", harness, 0o644)
	if hookx {
		write("bin/hookx", fakeHookx, 0o755)
	}
	return dir, bin, write
}

// runHarness runs the harness in node in the project dir, with its bin
// first on PATH (onlyBin: alone, so that no other hookx is found), and
// returns what it printed; a failed run fails the test.
func runHarness(t *testing.T, dir string, onlyBin bool) (stdout []byte, stderr string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	cmd := exec.Command(node, "harness.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+":/usr/bin:/bin")
	if onlyBin {
		cmd.Env = append(os.Environ(), "PATH="+bin)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s%s", err, b, errb.String())
	}
	return b, errb.String()
}

func withOutcome(ev map[string]any, outcome string) map[string]any {
	out := map[string]any{"outcome": outcome}
	for k, v := range ev {
		out[k] = v
	}
	return out
}
