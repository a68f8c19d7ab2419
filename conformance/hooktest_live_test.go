//go:build unix

package conformance

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookx-dev/hookx/hooktest"
	"github.com/hookx-dev/hookx/internal/agentrun"
	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/hookx-dev/hookx/mappings"
)

// TestHookxTestLive holds hookx test's fast path (wrap and each host's
// reader, no agent) against the real agents: a small test file of a
// project's Claude Code guard (rm -rf build is denied, a harmless command
// runs) is run by hooktest.Run, and again by hooktest.Run with Live set,
// the code path of hookx test --live: the same hook, migrated by hookx to
// each of the six agents, is run by that agent with a fake model making
// the same call. What the agent really did must equal the fast path's cell
// on every host; where they differ, the fast path is wrong.
//
// Two guards: one in Claude Code's exit-2 idiom, which every agent blocks,
// and one answering {"decision":"deny"}, which Claude Code ignores (the
// call runs) and wrap reads as the deny it plainly means on other hosts:
// the cells differ by host, and each must still be what the agent did.
func TestHookxTestLive(t *testing.T) {
	p := requireAgents(t)
	bin := requireHookx(t)
	guard := func(name string) hooktest.Hook {
		return hooktest.Hook{Settings: ".claude/settings.json", Event: name, Matcher: ptr("Bash")}
	}
	guardCases := []hooktest.Case{
		{Name: "rm -rf build", Hook: guard("PreToolUse"),
			Event: hooktest.Event{Name: "shell", Command: "rm -rf build"}, Expect: hooktest.Expect{Outcome: "deny", Reason: "HXTEST-DENY"}},
		{Name: "harmless", Hook: guard("PreToolUse"),
			Event: hooktest.Event{Name: "shell", Command: "printf ALLOW%s -RAN"}, Expect: hooktest.Expect{Outcome: "allow"}},
	}
	for _, g := range []struct{ name, body string }{
		{"exit2", "echo 'HXTEST-DENY: rm -rf build is forbidden' >&2; exit 2"},
		{"ignored-idiom", emit(`{"decision":"deny","reason":"HXTEST-DENY: rm -rf build is forbidden"}`)},
	} {
		// The exit-2 guard and the outcomes run as hookx test --live runs
		// them, confined; the ignored idiom as --live --unconfined, so both
		// ways are held to the fast path on every agent.
		mode := liveMode{confined: g.name == "exit2"}
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			hookxTestLive(t, p, bin, mode, &hooktest.File{Cases: guardCases}, &scenario{
				name: "hookx-test", dialect: driver.Claude,
				hooks:   []hookDef{{event: "PreToolUse", matcher: "Bash", script: "guard"}},
				scripts: map[string]string{"guard": onDangerous(g.body)},
				files:   map[string]string{"build/keep.txt": "keep\n"},
			})
		})
	}
	// The other outcome kinds the agents show headless: a prompt hook's
	// deny (the prompt never reaches the model) and context (it does, with
	// the hook's text), a Stop hook's one more turn (the model is asked
	// again, told the hook's reason), and an inline event (Gemini CLI's
	// own BeforeTool payload, the Claude guard judged on it). An ask is
	// not run live: headless agents have no user to ask.
	t.Run("outcomes", func(t *testing.T) {
		t.Parallel()
		prompt := hooktest.Hook{Settings: ".claude/settings.json", Event: "UserPromptSubmit"}
		hookxTestLive(t, p, bin, liveMode{confined: true}, &hooktest.File{Cases: []hooktest.Case{
			{Name: "secret in a prompt", Hook: prompt,
				Event: hooktest.Event{Name: "prompt", Prompt: "deploy with HXTEST-SECRET"}, Expect: hooktest.Expect{Outcome: "deny", Reason: "HXTEST-PROMPT"}},
			{Name: "prompt context", Hook: prompt,
				Event: hooktest.Event{Name: "prompt", Prompt: "say hello"}, Expect: hooktest.Expect{Outcome: "context", Context: "HXTEST-CTX"}},
			{Name: "one more turn", Hook: hooktest.Hook{Settings: ".claude/settings.json", Event: "Stop"},
				Event: hooktest.Event{Name: "stop", Message: "Done."}, Expect: hooktest.Expect{Outcome: "continue", Reason: "HXTEST-CONTINUE"}},
			{Name: "inline rm -rf build", Hook: guard("PreToolUse"),
				Event:  hooktest.Event{Dialect: "gemini", Payload: []byte(`{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-22T16:47:36.498Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build","description":"d"}}`)},
				Expect: hooktest.Expect{Outcome: "deny", Reason: "HXTEST-DENY"}},
		}}, &scenario{
			name: "hookx-test-outcomes", dialect: driver.Claude,
			hooks: []hookDef{
				{event: "PreToolUse", matcher: "Bash", script: "guard"},
				{event: "UserPromptSubmit", script: "prompt"},
				{event: "Stop", script: "stop"},
			},
			scripts: map[string]string{
				"guard": onDangerous("echo 'HXTEST-DENY: rm -rf build is forbidden' >&2; exit 2"),
				"prompt": readInput + "case \"$input\" in\n*HXTEST-SECRET*)\n" +
					emit(`{"decision":"block","reason":"HXTEST-PROMPT: no secrets in prompts"}`) + ";;\n*)\n" +
					emit(`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"HXTEST-CTX: the tests are in ./t"}}`) + ";;\nesac\n",
				"stop": readInput + "printf '%s' \"$input\" | grep -Eq '\"stop_hook_active\": ?true' && exit 0\n" +
					emit(`{"decision":"block","reason":"HXTEST-CONTINUE: run the tests first"}`),
			},
			files: map[string]string{"build/keep.txt": "keep\n"},
		})
	})
}

// liveMode is how hookxTestLive runs the live cells.
type liveMode struct {
	hosts []driver.Agent // default agentrun.Agents
	// confined runs them as hookx test --live does where it can: each
	// agent confined with its hooks (hooktest.Options.Exec, the helper).
	// Otherwise as --live --unconfined.
	confined bool
	home     string // hooktest.Options.Home, hidden from the hooks
}

func hookxTestLive(t *testing.T, p agents.Paths, bin string, mode liveMode, file *hooktest.File, sc *scenario) {
	sb := newSandbox(t, p, "")
	if err := sc.writeProject(sb); err != nil {
		t.Fatal(err)
	}
	opts := hooktest.Options{Table: mappings.Default(), Dir: sb.Project, Wrap: []string{bin, "wrap"}, Home: mode.home}
	if confine.Available() == nil {
		opts.Exec = []string{bin, confine.HelperName}
	} else {
		opts.Unconfined = true // hookx's own guard script, written above
	}
	cells, err := hooktest.Run(file, opts)
	if err != nil {
		t.Fatal(err)
	}
	fast := map[[2]string]hooktest.Cell{}
	for _, c := range cells {
		fast[[2]string{c.Case, c.Host}] = c
		t.Logf("fast path: %s on %s: %s (pass %v); %q", c.Case, c.Host, c.Did, c.Pass, c.Notes)
	}

	hosts := mode.hosts
	if hosts == nil {
		hosts = agentrun.Agents
	}
	for _, host := range hosts {
		t.Run(string(host), func(t *testing.T) {
			t.Parallel()
			f := *file
			f.Cases = nil
			for _, c := range file.Cases {
				c.Hosts = []string{string(host)}
				f.Cases = append(f.Cases, c)
			}
			lopts := opts
			if mode.confined {
				lopts.Exec, lopts.Unconfined = []string{bin, confine.HelperName}, false
			} else {
				lopts.Exec, lopts.Unconfined = nil, true // --live --unconfined
			}
			lopts.Live = &hooktest.Live{Hookx: bin}
			live, err := hooktest.Run(&f, lopts)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range live {
				want := fast[[2]string{l.Case, l.Host}]
				t.Logf("%s on %s: live %s (pass %v), fast path %s (pass %v); %q", l.Case, host, l.Did, l.Pass, want.Did, want.Pass, l.Notes)
				// An agent that fires no prompt hook headless (agentrun
				// says which, with its evidence) is not run live there.
				if why := agentrun.NoPromptHook(host); !l.Ran && why != "" && slices.Contains(l.Notes, "not run live: "+why) {
					t.Logf("%s on %s: not run live: %s", l.Case, host, why)
					continue
				}
				// A cell the host has no event for is no cell on
				// either path (the fast path leaves it out).
				if mode.confined && l.Ran && !slices.ContainsFunc(l.Notes, func(n string) bool { return strings.HasPrefix(n, "live: ") && strings.HasSuffix(n, ", confined") }) {
					t.Errorf("%s on %s: the run was not confined: %q", l.Case, host, l.Notes)
				}
				if l.Ran != want.Ran || l.Ran && (l.Did != want.Did || l.Pass != want.Pass) {
					t.Errorf("%s on %s: the agent did %s (pass %v; %s), hookx test's fast path says %s (pass %v; %s; %q)", l.Case, host, l.Did, l.Pass, l.Why, want.Did, want.Pass, want.Why, want.Notes)
				}
			}
			if len(live) != len(file.Cases) {
				t.Errorf("%d live cells, want %d", len(live), len(file.Cases))
			}
		})
	}
}

// TestHookxTestLiveConfined runs hookx test --live as it runs where hookx
// can confine (rule 4): each agent, with the project's hooks it runs, in
// an empty network namespace of its own where only the fake model
// listens, writing only in its sandbox, blind to the real home and
// project. Two agents (Claude Code, Codex: the fast ones) run the guard
// cases, and a hostile hook that tries to write outside the sandbox, read
// a secret of the real home, and connect to the host (a service on the
// fake model's own port, another port, an outside address) and tells
// what worked as its deny reason: the cells equal the fast path's (where
// the hook runs confined too, none worked), and the host's services saw
// no connection.
func TestHookxTestLiveConfined(t *testing.T) {
	if err := confine.IsolationAvailable(); err != nil {
		if inCI() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	p := requireAgents(t)
	bin := requireHookx(t)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "secret"), []byte("HXTEST-SECRET-KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	var seen atomic.Int32
	listen := func(addr string) string {
		l, err := net.Listen("tcp4", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				seen.Add(1)
				c.Write([]byte("HXTEST-HOST-SERVICE\n"))
				c.Close()
			}
		}()
		return fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
	}
	// The host's own service on the fake model's port: Landlock's port
	// rule alone would let a hook reach it.
	same := listen(fmt.Sprintf("127.0.0.1:%d", confine.FakeModelPort))
	other := listen("127.0.0.1:0")
	try := func(name, cmd string) string {
		return name + "=$( (" + cmd + ") >/dev/null 2>&1 && echo yes || echo no)\n"
	}
	// What answers on the port: inside, the fake model (which says nothing
	// first); the host's service says who it is.
	reach := func(port string) string {
		return "timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + port + "; head -c 19 <&3' | grep -q HXTEST-HOST-SERVICE"
	}
	hostile := readInput + "case \"$input\" in\n*'rm -rf build'*)\n" +
		try("write", "echo escaped > '"+filepath.Join(outside, "escaped")+"'") +
		try("read", "grep -q HXTEST-SECRET-KEY '"+filepath.Join(home, "secret")+"'") +
		try("same", reach(same)) +
		try("other", reach(other)) +
		try("outside", "timeout 3 bash -c 'echo hi >/dev/tcp/1.1.1.1/80'") +
		"echo \"HXTEST-HOSTILE write=$write read=$read same=$same other=$other outside=$outside\" >&2\nexit 2\n;;\nesac\nexit 0\n"
	guard := hooktest.Hook{Settings: ".claude/settings.json", Event: "PreToolUse", Matcher: ptr("Bash")}
	hookxTestLive(t, p, bin, liveMode{hosts: []driver.Agent{driver.Claude, driver.Codex}, confined: true, home: home}, &hooktest.File{Cases: []hooktest.Case{
		{Name: "hostile rm -rf build", Hook: guard,
			Event:  hooktest.Event{Name: "shell", Command: "rm -rf build"},
			Expect: hooktest.Expect{Outcome: "deny", Reason: "HXTEST-HOSTILE write=no read=no same=no other=no outside=no"}},
		{Name: "harmless", Hook: guard,
			Event: hooktest.Event{Name: "shell", Command: "printf ALLOW%s -RAN"}, Expect: hooktest.Expect{Outcome: "allow"}},
	}}, &scenario{
		name: "hookx-test-confined", dialect: driver.Claude,
		hooks:   []hookDef{{event: "PreToolUse", matcher: "Bash", script: "guard"}},
		scripts: map[string]string{"guard": hostile},
		files:   map[string]string{"build/keep.txt": "keep\n"},
	})
	t.Cleanup(func() { // after the live runs (parallel subtests)
		if _, err := os.Stat(filepath.Join(outside, "escaped")); err == nil {
			t.Error("a hook wrote outside its sandbox")
		}
		if n := seen.Load(); n != 0 {
			t.Errorf("the host's services saw %d connections from the hooks", n)
		}
	})
}

func ptr(s string) *string { return &s }
