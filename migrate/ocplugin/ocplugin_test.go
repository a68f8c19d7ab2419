package ocplugin

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// harness loads the plugin as OpenCode does (every export must be a
// function; each is called with the context and returns the hooks), fires
// one tool.execute.before and prints what the handler threw and the
// arguments after it. sameArgs says the arguments object is still the one
// the agent passed (the agent runs that object, not output.args).
const harness = `
import * as mod from "./hookx.mjs";
import { readFileSync } from "node:fs";
const bad = Object.entries(mod).filter(([, v]) => typeof v !== "function").map(([k]) => k);
if (bad.length) { process.stdout.write(JSON.stringify({ exports: bad })); process.exit(0); }
const hooks = await mod.default({ directory: process.cwd(), worktree: process.cwd() });
const call = JSON.parse(readFileSync("call.json", "utf8"));
const args = call.args;
const output = { args };
let threw = null;
try {
  await hooks["tool.execute.before"]({ tool: call.tool, sessionID: "s1", callID: "c1" }, output);
} catch (e) {
  threw = e instanceof Error ? e.message : "not an Error: " + String(e);
}
process.stdout.write(JSON.stringify({ threw, args, sameArgs: output.args === args, proto: Object.getPrototypeOf(args) === Object.prototype }));
`

// fakeHookx is a hookx that does what its first argument says, after
// saving its stdin, arguments and working directory.
const fakeHookx = `#!/bin/sh
cat > "$(dirname "$0")/stdin.json"
printf '%s\n' "$@" > "$(dirname "$0")/argv.txt"
pwd > "$(dirname "$0")/cwd.txt"
case "$1" in
allow) echo '{}' ;;
block) printf '{"block":true,"reason":"no rm -rf, \\"really\\"\\nplease"}' ;;
blockempty) echo '{"block":true}' ;;
rewrite) echo '{"args":{"command":"echo safe"}}' ;;
proto) echo '{"args":{"__proto__":{"polluted":1},"command":"x"}}' ;;
garbage) echo 'not json' ;;
array) echo '[]' ;;
null) echo 'null' ;;
blockstring) echo '{"block":"yes"}' ;;
argsarray) echo '{"args":["rm"]}' ;;
otherkey) echo '{"decision":"deny"}' ;;
crash) echo boom >&2; exit 3 ;;
hang) sleep 30 ;;
huge) head -c 3000000 /dev/zero | tr '\0' x ;;
esac
`

// runtimes are the JavaScript runtimes the plugin is run under: node, and
// the agents' own Bun when OCPLUGIN_BUN names an OpenCode or Kilo binary
// (run with BUN_BE_BUN=1, it is Bun).
func runtimes(t *testing.T) map[string][]string {
	rts := map[string][]string{}
	if node, err := exec.LookPath("node"); err == nil {
		rts["node"] = []string{node}
	} else if os.Getenv("CI") == "true" {
		t.Fatal("node is required in CI")
	}
	for _, b := range filepath.SplitList(os.Getenv("OCPLUGIN_BUN")) {
		if b != "" {
			rts["bun:"+filepath.Base(b)] = []string{b, "BUN_BE_BUN=1"}
		}
	}
	if len(rts) == 0 {
		t.Skip("node not installed")
	}
	return rts
}

func TestPlugin(t *testing.T) {
	type out struct {
		Exports  []string       `json:"exports"`
		Threw    *string        `json:"threw"`
		Args     map[string]any `json:"args"`
		SameArgs bool           `json:"sameArgs"`
		Proto    bool           `json:"proto"`
	}
	long := strings.Repeat("x", 300000)
	hostile := "a'b\"c\n;$(x)`y`" + long
	for rt, argv := range runtimes(t) {
		for _, tc := range []struct {
			name, mode, tool, command string
			tools                     []string // the hook's tools; default bash, edit
			noHookx, noHooksFile      bool
			hooksFile                 string // written instead of the test's own
			wantArgs                  map[string]any
			wantThrow                 string // substring of what the handler threw
			wantStderr                string // substring of the plugin's stderr
		}{
			{name: "allow", mode: "allow", tool: "bash", command: "ls", wantArgs: map[string]any{"command": "ls"}},
			{name: "other tool not run", mode: "block", tool: "read", command: "ls", wantArgs: map[string]any{"command": "ls"}},
			{name: "star names every tool", mode: "block", tool: "mcp_srv_tool", tools: []string{"*"}, command: "ls", wantThrow: "no rm -rf"},
			{name: "block throws the reason", mode: "block", tool: "bash", command: "rm -rf /", wantThrow: "no rm -rf, \"really\"\nplease"},
			{name: "block without reason", mode: "blockempty", tool: "bash", command: "rm -rf /", wantThrow: "blocked by a hook"},
			{name: "rewrite in place", mode: "rewrite", tool: "bash", command: "rm -rf /", wantArgs: map[string]any{"command": "echo safe"}},
			{name: "rewrite cannot set the prototype", mode: "proto", tool: "bash", command: "ls", wantArgs: map[string]any{"__proto__": map[string]any{"polluted": float64(1)}, "command": "x"}},
			{name: "hostile arguments reach hookx", mode: "allow", tool: "bash", command: hostile, wantArgs: map[string]any{"command": hostile}},
			{name: "garbage fails closed", mode: "garbage", tool: "bash", command: "ls", wantThrow: "failed closed: unreadable answer"},
			{name: "array fails closed", mode: "array", tool: "bash", command: "ls", wantThrow: "failed closed: unreadable answer"},
			{name: "null fails closed", mode: "null", tool: "bash", command: "ls", wantThrow: "failed closed: unreadable answer"},
			{name: "odd block fails closed", mode: "blockstring", tool: "bash", command: "ls", wantThrow: "failed closed: unreadable block"},
			{name: "args not an object fails closed", mode: "argsarray", tool: "bash", command: "ls", wantThrow: "failed closed: unreadable args"},
			{name: "another agent's deny fails closed", mode: "otherkey", tool: "bash", command: "ls", wantThrow: "failed closed: unreadable answer: unknown decision"},
			{name: "crash fails closed", mode: "crash", tool: "bash", command: "ls", wantThrow: "exited 3: boom"},
			{name: "hang fails closed", mode: "hang", tool: "bash", command: "ls", wantThrow: "no answer in 500 ms"},
			{name: "huge answer fails closed", mode: "huge", tool: "bash", command: "ls", wantThrow: "answer too long"},
			{name: "hookx missing fails closed", mode: "allow", tool: "bash", command: "ls", noHookx: true, wantThrow: "cannot start hookx"},
			{name: "tools as a string fails closed", mode: "allow", tool: "bash", command: "ls", hooksFile: `{"hooks":[{"event":"tool.execute.before","tools":"xbashx","argv":["allow"]}]}`, wantThrow: "a hook it cannot read"},
			{name: "null hook fails closed", mode: "allow", tool: "read", command: "ls", hooksFile: `{"hooks":[null]}`, wantThrow: "a hook it cannot read"},
			{name: "hooks file null fails closed", mode: "allow", tool: "read", command: "ls", hooksFile: `null`, wantThrow: "no hooks array"},
			{name: "hooks file not JSON fails closed", mode: "allow", tool: "read", command: "ls", hooksFile: `{`, wantThrow: "cannot read"},
			{name: "another event's hook not run", mode: "block", tool: "bash", command: "rm -rf /", hooksFile: `{"hooks":[{"event":"PreToolUse","tools":["bash"],"argv":["block"]},{"event":"__proto__","tools":["bash"],"argv":["block"]}]}`, wantArgs: map[string]any{"command": "rm -rf /"},
				wantStderr: `a hook for "PreToolUse", an event this plugin does not run, is skipped`},
			{name: "hooks file missing fails closed", mode: "allow", tool: "read", command: "ls", noHooksFile: true, wantThrow: "cannot read"},
		} {
			t.Run(rt+"/"+tc.name, func(t *testing.T) {
				// A project directory a hostile repository might name.
				dir := filepath.Join(t.TempDir(), "p \"q\"; 'r' $x\nz")
				bin := filepath.Join(dir, "bin")
				if err := os.MkdirAll(bin, 0o755); err != nil {
					t.Fatal(err)
				}
				write := func(name, text string, mode os.FileMode) {
					if err := os.WriteFile(filepath.Join(dir, name), []byte(text), mode); err != nil {
						t.Fatal(err)
					}
				}
				write("hookx.mjs", Render(OpenCode, "9.9.9"), 0o644)
				write("harness.mjs", harness, 0o644)
				if !tc.noHookx {
					write("bin/hookx", fakeHookx, 0o755)
				}
				tools := tc.tools
				if tools == nil {
					tools = []string{"bash", "edit"}
				}
				if tc.hooksFile != "" {
					write("hookx.hooks.json", tc.hooksFile, 0o644)
				} else if !tc.noHooksFile {
					h, _ := json.Marshal(Hooks{Hookx: "9.9.9", Hooks: []Hook{
						{Event: "tool.execute.after", Tools: []string{"*"}, Argv: []string{"block"}, TimeoutMs: 500}, // another event's: not run here
						{Event: Event, Tools: tools, Argv: []string{tc.mode, "wrap", "--from", "claude", "--host", "opencode", "--", "./g.sh"}, TimeoutMs: 500},
					}})
					write("hookx.hooks.json", string(h), 0o644)
				}
				call, _ := json.Marshal(map[string]any{"tool": tc.tool, "args": map[string]any{"command": tc.command}})
				write("call.json", string(call), 0o644)
				cmd := exec.Command(argv[0], "harness.mjs")
				cmd.Dir = dir
				path := bin + ":/usr/bin:/bin"
				if tc.noHookx {
					path = bin
				}
				cmd.Env = append(os.Environ(), "PATH="+path)
				cmd.Env = append(cmd.Env, argv[1:]...)
				var stderr strings.Builder
				cmd.Stderr = &stderr
				b, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s: %v\n%s%s", rt, err, b, stderr.String())
				}
				if !strings.Contains(stderr.String(), tc.wantStderr) {
					t.Errorf("stderr %q, want %q in it", stderr.String(), tc.wantStderr)
				}
				if tc.wantStderr != "" && !strings.Contains(stderr.String(), `"__proto__"`) {
					t.Errorf("stderr %q does not name the __proto__ event (Object.hasOwn, not the in operator)", stderr.String())
				}
				var got out
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatalf("%v: %.500s", err, b)
				}
				if got.Exports != nil {
					t.Fatalf("exports %v are not functions: OpenCode skips the whole plugin", got.Exports)
				}
				if !got.SameArgs || !got.Proto {
					t.Errorf("output.args was replaced (%v) or its prototype changed (%v): the agent runs the object it passed", !got.SameArgs, !got.Proto)
				}
				if tc.wantThrow != "" {
					if got.Threw == nil || !strings.Contains(*got.Threw, tc.wantThrow) {
						t.Fatalf("threw %v, want an Error with %q", got.Threw, tc.wantThrow)
					}
					if tc.mode == "block" && *got.Threw != "no rm -rf, \"really\"\nplease" {
						t.Errorf("the reason was changed: %q", *got.Threw)
					}
					return
				}
				if got.Threw != nil {
					t.Fatalf("threw %q", *got.Threw)
				}
				if diff := cmp.Diff(tc.wantArgs, got.Args); diff != "" {
					t.Errorf("args (-want +got):\n%.2000s", diff)
				}
				if tc.mode == "allow" {
					in, _ := os.ReadFile(filepath.Join(bin, "stdin.json"))
					var sent map[string]any
					if err := json.Unmarshal(in, &sent); err != nil {
						t.Fatalf("hookx's stdin: %v", err)
					}
					want := map[string]any{"type": Event, "tool": tc.tool, "sessionID": "s1", "callID": "c1", "args": map[string]any{"command": tc.command}, "directory": dir, "worktree": dir}
					if diff := cmp.Diff(want, sent); diff != "" {
						t.Errorf("hookx's stdin (-want +got):\n%.2000s", diff)
					}
					av, _ := os.ReadFile(filepath.Join(bin, "argv.txt"))
					if got, want := string(av), "allow\nwrap\n--from\nclaude\n--host\nopencode\n--\n./g.sh\n"; got != want {
						t.Errorf("hookx's argv %q, want %q", got, want)
					}
					cwd, _ := os.ReadFile(filepath.Join(bin, "cwd.txt"))
					if strings.TrimSuffix(string(cwd), "\n") != dir {
						t.Errorf("hookx ran in %q, want the project %q", cwd, dir)
					}
				}
			})
		}
	}
}

// TestHooksRunInOrder: each hook gets the arguments the one before it
// rewrote, and a block after a rewrite still blocks.
func TestHooksRunInOrder(t *testing.T) {
	rts := runtimes(t)
	for rt, argv := range rts {
		dir := t.TempDir()
		bin := filepath.Join(dir, "bin")
		os.MkdirAll(bin, 0o755)
		os.WriteFile(filepath.Join(dir, "hookx.mjs"), []byte(Render(Kilo, "9.9.9")), 0o644)
		os.WriteFile(filepath.Join(dir, "harness.mjs"), []byte(harness), 0o644)
		// Rewrites ls to "echo safe", then refuses anything but "echo safe".
		os.WriteFile(filepath.Join(bin, "hookx"), []byte(`#!/bin/sh
in=$(cat)
case "$1:$in" in
first:*'"ls"'*) echo '{"args":{"command":"echo safe"}}' ;;
second:*'"echo safe"'*) printf '{"block":true,"reason":"second saw the rewrite"}' ;;
*) echo '{}' ;;
esac
`), 0o755)
		h, _ := json.Marshal(Hooks{Hooks: []Hook{{Event: Event, Tools: []string{"bash"}, Argv: []string{"first"}}, {Event: Event, Tools: []string{"bash"}, Argv: []string{"second"}}}})
		os.WriteFile(filepath.Join(dir, "hookx.hooks.json"), h, 0o644)
		os.WriteFile(filepath.Join(dir, "call.json"), []byte(`{"tool":"bash","args":{"command":"ls"}}`), 0o644)
		cmd := exec.Command(argv[0], "harness.mjs")
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), "PATH="+bin+":/usr/bin:/bin"), argv[1:]...)
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", rt, err, b)
		}
		if !strings.Contains(string(b), `"threw":"second saw the rewrite"`) {
			t.Errorf("%s: %s", rt, b)
		}
	}
}

func TestRender(t *testing.T) {
	for _, h := range []Host{OpenCode, Kilo} {
		got := Render(h, "1.2.3")
		if strings.Contains(got, "HOOKX_") {
			t.Errorf("%s: a placeholder left: %s", h.Name, regexp.MustCompile(`.*HOOKX_.*`).FindString(got))
		}
		for _, want := range []string{`const VERSION = "1.2.3";`, "generated by hookx 1.2.3 (hookx migrate --to " + h.Name + ") for " + h.Agent, "--host " + h.Name} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: no %q", h.Name, want)
			}
		}
		// Pi's doctor check reads the same stamp.
		if m := regexp.MustCompile(`(?m)^const VERSION = "([^"\n]*)";$`).FindStringSubmatch(got); m == nil || m[1] != "1.2.3" {
			t.Errorf("%s: stamp %v", h.Name, m)
		}
		if filepath.Dir(h.Path) != filepath.Dir(h.HooksPath) || filepath.Base(h.HooksPath) != "hookx.hooks.json" {
			t.Errorf("%s: the hooks file is not beside the plugin: %s, %s", h.Name, h.Path, h.HooksPath)
		}
	}
}

// eventHarness fires one event of event.json ({event, input, output}) as
// the agent does (the handler's return value ignored; output is the object
// the agent reads afterwards) and prints what it threw, output, and the
// events the plugin has handlers for.
const eventHarness = `
import * as mod from "./hookx.mjs";
import { readFileSync } from "node:fs";
const hooks = await mod.default({ directory: process.cwd(), worktree: process.cwd() });
const ev = JSON.parse(readFileSync("event.json", "utf8"));
let threw = null;
try {
  if (hooks[ev.event]) await hooks[ev.event](ev.input, ev.output);
} catch (e) {
  threw = e instanceof Error ? e.message : "not an Error: " + String(e);
}
process.stdout.write(JSON.stringify({ threw, output: ev.output, handlers: Object.keys(hooks).sort() }));
`

// TestPluginEvents: the events after the tool and of a prompt, as the
// agent fires them (tool.execute.after @96772980: input {tool, sessionID,
// callID, args}, output the result {title, metadata, output}; chat.message
// @96800021: input {sessionID, agent, model, messageID, variant}, output
// {message, parts}), with a stand-in hookx answering what the case says.
func TestPluginEvents(t *testing.T) {
	after := map[string]any{
		"event":  "tool.execute.after",
		"input":  map[string]any{"tool": "bash", "sessionID": "s1", "callID": "c1", "args": map[string]any{"command": "ls"}},
		"output": map[string]any{"title": "ls", "metadata": map[string]any{}, "output": "file.txt"},
	}
	prompt := map[string]any{
		"event":  "chat.message",
		"input":  map[string]any{"sessionID": "s1", "agent": "build", "messageID": "msg_1"},
		"output": map[string]any{"message": map[string]any{"id": "msg_1"}, "parts": []any{map[string]any{"id": "prt_1", "type": "text", "text": "do it"}}},
	}
	type out struct {
		Threw    *string        `json:"threw"`
		Output   map[string]any `json:"output"`
		Handlers []string       `json:"handlers"`
	}
	for rt, argv := range runtimes(t) {
		for _, tc := range []struct {
			name      string
			event     map[string]any
			answer    string // the stand-in hookx's stdout ("" = exit 3)
			hookEvent string // the hooks file's event (default: the event's)
			hooksFile string // instead of one hook
			wantThrow string
			check     func(t *testing.T, o out)
		}{
			{name: "after: context added to the result", event: after, answer: `{"context":"mind it"}`, check: func(t *testing.T, o out) {
				if got := o.Output["output"]; got != "file.txt\n\nmind it" {
					t.Errorf("output %q", got)
				}
			}},
			{name: "after: block's reason added", event: after, answer: `{"block":true,"reason":"why"}`, check: func(t *testing.T, o out) {
				if got := o.Output["output"]; got != "file.txt\n\nwhy" {
					t.Errorf("output %q", got)
				}
			}},
			{name: "after: output replaced", event: after, answer: `{"output":"hidden"}`, check: func(t *testing.T, o out) {
				if got := o.Output["output"]; got != "hidden" {
					t.Errorf("output %q", got)
				}
			}},
			{name: "after: nothing", event: after, answer: `{}`, check: func(t *testing.T, o out) {
				if got := o.Output["output"]; got != "file.txt" {
					t.Errorf("output %q", got)
				}
			}},
			{name: "after: failure added (fails closed)", event: after, answer: "", check: func(t *testing.T, o out) {
				if got, _ := o.Output["output"].(string); !strings.HasPrefix(got, "file.txt\n\nhookx guard failed closed: hookx exited 3") {
					t.Errorf("output %q", got)
				}
			}},
			{name: "after: args is not its key", event: after, answer: `{"args":{}}`, check: func(t *testing.T, o out) {
				if got, _ := o.Output["output"].(string); !strings.Contains(got, "unknown args") {
					t.Errorf("output %q", got)
				}
			}},
			{name: "after: context not a string", event: after, answer: `{"context":1}`, check: func(t *testing.T, o out) {
				if got, _ := o.Output["output"].(string); !strings.Contains(got, "unreadable context") {
					t.Errorf("output %q", got)
				}
			}},
			// An MCP tool's result is MCP's {content} (@96779330).
			{name: "after: an MCP tool's result gets the context", event: map[string]any{
				"event": "tool.execute.after", "input": map[string]any{"tool": "srv_q", "sessionID": "s1", "callID": "c1", "args": map[string]any{}},
				"output": map[string]any{"content": []any{map[string]any{"type": "text", "text": "rows"}}},
			}, answer: `{"context":"mind it"}`, hookEvent: "tool.execute.after", check: func(t *testing.T, o out) {
				want := []any{map[string]any{"type": "text", "text": "rows"}, map[string]any{"type": "text", "text": "mind it"}}
				if diff := cmp.Diff(want, o.Output["content"]); diff != "" || o.Output["output"] != nil {
					t.Errorf("content (-want +got):\n%s\noutput %v", diff, o.Output["output"])
				}
			}},
			{name: "after: an MCP tool's result replaced", event: map[string]any{
				"event": "tool.execute.after", "input": map[string]any{"tool": "srv_q", "sessionID": "s1", "callID": "c1", "args": map[string]any{}},
				"output": map[string]any{"content": []any{map[string]any{"type": "text", "text": "rows"}}},
			}, answer: `{"output":"hidden"}`, hookEvent: "tool.execute.after", check: func(t *testing.T, o out) {
				if diff := cmp.Diff([]any{map[string]any{"type": "text", "text": "hidden"}}, o.Output["content"]); diff != "" {
					t.Errorf("content (-want +got):\n%s", diff)
				}
			}},
			{name: "after: a hook of the tool call is not run", event: after, answer: `{"context":"x"}`, hookEvent: Event, check: func(t *testing.T, o out) {
				if got := o.Output["output"]; got != "file.txt" {
					t.Errorf("output %q", got)
				}
				if strings.Contains(strings.Join(o.Handlers, " "), "chat.message") || !strings.Contains(strings.Join(o.Handlers, " "), Event) {
					t.Errorf("handlers %v: only the events a hook names, and the tool call's always", o.Handlers)
				}
			}},
			{name: "prompt: block throws", event: prompt, answer: `{"block":true,"reason":"no secrets"}`, wantThrow: "no secrets"},
			{name: "prompt: failure throws", event: prompt, answer: "", wantThrow: "hookx guard failed closed"},
			{name: "prompt: output is not its key", event: prompt, answer: `{"output":"x"}`, wantThrow: "unknown output"},
			{name: "prompt: context is a part of its own", event: prompt, answer: `{"context":"the date is today"}`, check: func(t *testing.T, o out) {
				parts, _ := o.Output["parts"].([]any)
				if len(parts) != 2 {
					t.Fatalf("parts %v", parts)
				}
				p, _ := parts[1].(map[string]any)
				id, _ := p["id"].(string)
				delete(p, "id")
				if diff := cmp.Diff(map[string]any{"messageID": "msg_1", "sessionID": "s1", "type": "text", "synthetic": true, "text": "the date is today"}, p); diff != "" {
					t.Errorf("part (-want +got):\n%s", diff)
				}
				// The agent's own ids: prt_, 12 hex digits, 14 base62.
				if !regexp.MustCompile(`^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$`).MatchString(id) {
					t.Errorf("part id %q is not one the agent makes", id)
				}
			}},
			{name: "prompt: the agent's own message runs no hook", event: map[string]any{
				"event": "chat.message", "input": prompt["input"],
				"output": map[string]any{"message": map[string]any{"id": "msg_1"}, "parts": []any{map[string]any{"id": "prt_1", "type": "text", "synthetic": true, "text": "Background task completed"}}},
			}, answer: `{"block":true,"reason":"no"}`, hookEvent: "chat.message", check: func(t *testing.T, o out) {}},
			{name: "unreadable hooks file refuses the prompt", event: prompt, hooksFile: `{`, wantThrow: "cannot read"},
		} {
			t.Run(rt+"/"+tc.name, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "p \"q\"; $x")
				bin := filepath.Join(dir, "bin")
				if err := os.MkdirAll(bin, 0o755); err != nil {
					t.Fatal(err)
				}
				script := "#!/bin/sh\ncat > \"$(dirname \"$0\")/stdin.json\"\n"
				if tc.answer == "" {
					script += "echo boom >&2; exit 3\n"
				} else {
					script += "printf '%s' '" + tc.answer + "'\n"
				}
				os.WriteFile(filepath.Join(bin, "hookx"), []byte(script), 0o755)
				os.WriteFile(filepath.Join(dir, "hookx.mjs"), []byte(Render(OpenCode, "9.9.9")), 0o644)
				os.WriteFile(filepath.Join(dir, "harness.mjs"), []byte(eventHarness), 0o644)
				ev := tc.event["event"].(string)
				hooks := tc.hooksFile
				if hooks == "" {
					he := tc.hookEvent
					if he == "" {
						he = ev
					}
					b, _ := json.Marshal(Hooks{Hooks: []Hook{{Event: he, Tools: []string{"*"}, Argv: []string{"wrap"}, TimeoutMs: 5000}}})
					hooks = string(b)
				}
				os.WriteFile(filepath.Join(dir, "hookx.hooks.json"), []byte(hooks), 0o644)
				b, _ := json.Marshal(tc.event)
				os.WriteFile(filepath.Join(dir, "event.json"), b, 0o644)
				cmd := exec.Command(argv[0], "harness.mjs")
				cmd.Dir = dir
				cmd.Env = append(append(os.Environ(), "PATH="+bin+":/usr/bin:/bin"), argv[1:]...)
				res, err := cmd.Output()
				if err != nil {
					t.Fatalf("%v\n%s", err, res)
				}
				var got out
				if err := json.Unmarshal(res, &got); err != nil {
					t.Fatalf("%v: %s", err, res)
				}
				if tc.wantThrow != "" {
					if got.Threw == nil || !strings.Contains(*got.Threw, tc.wantThrow) {
						t.Fatalf("threw %v, want %q", got.Threw, tc.wantThrow)
					}
					return
				}
				if got.Threw != nil {
					t.Fatalf("threw %q", *got.Threw)
				}
				tc.check(t, got)
				if tc.hookEvent == "" {
					// What hookx was told: the event's own fields.
					in, _ := os.ReadFile(filepath.Join(bin, "stdin.json"))
					var sent map[string]any
					json.Unmarshal(in, &sent)
					want := map[string]any{"type": ev, "sessionID": "s1", "directory": dir, "worktree": dir}
					if ev == "chat.message" {
						want["messageID"], want["prompt"] = "msg_1", "do it"
					} else {
						want["tool"], want["callID"], want["args"], want["output"] = "bash", "c1", map[string]any{"command": "ls"}, "file.txt"
					}
					if diff := cmp.Diff(want, sent); diff != "" {
						t.Errorf("hookx's stdin (-want +got):\n%s", diff)
					}
				}
			})
		}
	}
}
