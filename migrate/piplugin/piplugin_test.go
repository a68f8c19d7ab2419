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
// fires one tool_call and prints the handler's result and the event's
// input after it.
const harness = `
import plugin from "./hookx.mjs";
const handlers = {};
plugin({ on: (ev, h) => { handlers[ev] = h; } });
import { readFileSync } from "node:fs";
const event = JSON.parse(readFileSync("event.json", "utf8"));
const result = await handlers.tool_call(event, { cwd: process.cwd(), sessionManager: { getSessionId: () => "s1" } });
process.stdout.write(JSON.stringify({ result: result ?? null, input: event.input }));
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
	}{
		{name: "allow", mode: "allow", tool: "bash", command: "ls", want: out{Input: map[string]any{"command": "ls"}}},
		{name: "other tool not run", mode: "block", tool: "read", command: "ls", want: out{Input: map[string]any{"command": "ls"}}},
		{name: "block keeps the reason", mode: "block", tool: "bash", command: "rm -rf /", wantReason: "no rm -rf, \"really\"\nplease"},
		{name: "rewrite", mode: "rewrite", tool: "bash", command: "rm -rf /", want: out{Input: map[string]any{"command": "echo safe"}}},
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A project directory a hostile repository might name.
			dir := filepath.Join(t.TempDir(), `p "q"; 'r' $x`)
			bin := filepath.Join(dir, "bin")
			if err := os.MkdirAll(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			write := func(name, text string, mode os.FileMode) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), mode); err != nil {
					t.Fatal(err)
				}
			}
			write("hookx.mjs", Render("9.9.9"), 0o644)
			write("harness.mjs", harness, 0o644)
			if !tc.noHookx {
				write("bin/hookx", fakeHookx, 0o755)
			}
			if tc.hooksFile != "" {
				write("hookx.hooks.json", tc.hooksFile, 0o644)
			} else if !tc.noHooksFile {
				h, _ := json.Marshal(Hooks{Hookx: "9.9.9", Hooks: []Hook{{Event: "tool_call", Tools: []string{"bash", "edit"}, Argv: []string{tc.mode, "wrap", "--from", "claude", "--host", "pi", "--", "./g.sh"}, TimeoutMs: 500}}})
				write("hookx.hooks.json", string(h), 0o644)
			}
			ev, _ := json.Marshal(map[string]any{"type": "tool_call", "toolName": tc.tool, "toolCallId": "c1", "input": map[string]any{"command": tc.command}})
			write("event.json", string(ev), 0o644)
			cmd := exec.Command("node", "harness.mjs")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+bin+":/usr/bin:/bin")
			if tc.noHookx {
				cmd.Env = append(os.Environ(), "PATH="+bin)
				node, _ := exec.LookPath("node")
				cmd.Path = node
			}
			b, err := cmd.Output()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, b)
			}
			var got out
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("%v: %s", err, b)
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
