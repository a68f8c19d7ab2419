package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

// hookSees translates one PreToolUse-like event for a hook whose matcher
// names matcher, and returns what the hook gets (cwd, tool name, input) or
// the error that fails a guard closed.
func hookSees(t *testing.T, from, to, matcher, event string) (cwd, tool string, input map[string]any, err error) {
	t.Helper()
	tr := newTr(t, from, to)
	if matcher != "" {
		m, merr := tr.To.ToolMatcher(matcher)
		if merr != nil {
			t.Fatal(merr)
		}
		tr.Match = m
	}
	tr.Exists = func(string) bool { return false }
	res, err := tr.Event([]byte(event))
	if err != nil {
		return "", "", nil, err
	}
	if res.Skip {
		t.Fatalf("skipped: %s", res.SkipReason)
	}
	var p struct {
		Cwd       string         `json:"cwd"`
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
	}
	if err := json.Unmarshal(res.Payload, &p); err != nil {
		t.Fatal(err)
	}
	return p.Cwd, p.ToolName, p.ToolInput, nil
}

func codexPatchEvent(cwd, patch string) string {
	b, _ := json.Marshal(map[string]any{"session_id": "s", "turn_id": "t", "transcript_path": nil, "cwd": cwd,
		"hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default", "tool_name": "apply_patch",
		"tool_input": map[string]any{"command": patch}, "tool_use_id": "c"})
	return string(b)
}

// A Codex apply_patch reaches a hook with the paths Codex writes: for a
// Claude hook, which always gets absolute paths, each one resolved against
// Codex's cwd as codex-rs resolves it (lexically, .. included); for every
// hook, a header's path trimmed as Codex's parser trims it. Where the path
// cannot be known, or the patch is no one edit (a move), a guard fails
// closed and says why. On b20418e the Claude hook got ".env",
// "sub/../.env", "../../etc/x" and ".env " as written.
func TestCodexPatchPathsReachHooksAsCodexWritesThem(t *testing.T) {
	add := func(p string) string { return "*** Begin Patch\n*** Add File: " + p + "\n+X=1\n*** End Patch\n" }
	upd := func(p string) string {
		return "*** Begin Patch\n*** Update File: " + p + "\n@@\n-X=1\n+X=2\n*** End Patch\n"
	}
	for _, c := range []struct {
		name, to, matcher, cwd, patch string
		want                          string // the hook's file_path
		fail                          string // or the guard's reason
	}{
		{"add relative", "claude", "Write", "/p", add(".env"), "/p/.env", ""},
		{"update relative", "claude", "Edit", "/p", upd(".env"), "/p/.env", ""},
		{"update through ..", "claude", "Edit", "/p", upd("sub/../.env"), "/p/.env", ""},
		{"add outside the project", "claude", "Write", "/p/q", add("../../etc/x"), "/etc/x", ""},
		{"absolute", "claude", "Edit", "/p", upd("/etc/./passwd"), "/etc/passwd", ""},
		{"header padded", "claude", "Write", "/p", "*** Begin Patch\n  *** Add File: .env \t\n+X=1\n*** End Patch", "/p/.env", ""},
		{"header padded with Unicode spaces", "claude", "Edit", "/p", "*** Begin Patch\n*** Update File: .env\u00a0\u3000\n@@\n-X=1\n+X=2\n*** End Patch\n", "/p/.env", ""},
		{"path with spaces and quotes", "claude", "Write", "/p", add(`a "b"; c/.env`), `/p/a "b"; c/.env`, ""},
		{"path with spaces and quotes, then ..", "claude", "Write", "/p", add(`a "b"; c/../.env`), "/p/.env", ""},
		{"lowercase marker Codex refuses", "claude", "Write", "/p", "*** Begin Patch\n*** add file: .env\n+X=1\n*** End Patch\n", "", "Codex refuses the patch"},
		{"crlf", "claude", "Edit", "/p", "*** Begin Patch\r\n*** Update File: .env\r\n@@\r\n-X=1\r\n+X=2\r\n*** End Patch\r\n", "/p/.env", ""},
		{"heredoc", "claude", "Write", "/p", "<<'EOF'\n*** Begin Patch\n*** Add File: .env\n+X=1\n*** End Patch\nEOF\n", "/p/.env", ""},
		{"home", "claude", "Write", "/p", add("~/.env"), "", "home directory"},
		{"move", "claude", "Edit", "/p", "*** Begin Patch\n*** Update File: a.txt\n*** Move to: sub/../.env\n@@\n-X=1\n+X=2\n*** End Patch\n", "", "moves /p/a.txt to /p/.env"},
		// A project directory whose name holds a line break: written
		// into the header, "+x" became the added file's text and the hook
		// saw /tmp/d, while Codex writes "/tmp/d\n+x/.env".
		{"cwd with a line break", "claude", "Edit", "/tmp/d\n+x", add(".env"), "", "holds a line break"},
		{"two files", "claude", "Write", "/p", "*** Begin Patch\n*** Add File: a\n+x\n*** Add File: .env\n+y\n*** End Patch\n", "", "2 file operations"},
		// Gemini's hooks get paths as the model wrote them; trimmed as
		// Codex trims the header.
		{"gemini: header padded", "gemini", "write_file", "/p", "*** Begin Patch\n*** Add File: .env \n+X=1\n*** End Patch\n", ".env", ""},
		{"gemini: relative", "gemini", "replace", "/p", upd("sub/../.env"), "sub/../.env", ""},
		// Gemini CLI would take ~/.bashrc in the project (path.resolve);
		// Codex writes the home directory's: the hook cannot check it.
		{"gemini: home", "gemini", "write_file", "/p", add("~/.bashrc"), "", "home directory"},
		{"qwen: home", "qwen", "write_file", "/p", upd("~/.bashrc"), "", "home directory"},
		{"terminai: home", "terminai", "", "/p", add("~"), "", "home directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, in, err := hookSees(t, "codex", c.to, c.matcher, codexPatchEvent(c.cwd, c.patch))
			if c.fail != "" {
				if err == nil || !strings.Contains(err.Error(), c.fail) {
					t.Fatalf("err = %v, want a guard failed closed with %q (input %v)", err, c.fail, in)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, in["file_path"]); diff != "" {
				t.Errorf("file_path (-want +got):\n%s\ninput %v", diff, in)
			}
		})
	}
}

// The directory a host runs a shell command in reaches a hook whose shell
// has no directory argument as its cwd, resolved as the host resolves it
// (Gemini and TerminaI: path.resolve against the target directory; Qwen: an
// absolute path as written); a guard fails closed where it cannot be known.
// A hook whose shell has the argument sees it there, and its cwd stays the
// project, as its own agent sends it. On b20418e the Claude hook's cwd
// stayed /p and the directory was dropped.
func TestShellDirectoryIsTheHooksCwd(t *testing.T) {
	gemini := func(dir string) string {
		return `{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-22T12:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf docs","dir_path":` + dir + `}}`
	}
	qwen := func(dir string) string {
		return `{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"run_shell_command","tool_input":{"command":"rm -rf docs","directory":` + dir + `},"tool_use_id":"u"}`
	}
	terminai := `{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-22T12:00:00.000Z","tool_name":"run_terminal_command","tool_input":{"command":"rm -rf docs","dir_path":"../home"}}`
	for _, c := range []struct {
		name, from, to, event string
		cwd                   string
		fail                  string
	}{
		{"gemini relative", "gemini", "claude", gemini(`"docs"`), "/p/docs", ""},
		{"gemini outside", "gemini", "claude", gemini(`"/home"`), "/home", ""},
		{"gemini dotdot", "gemini", "claude", gemini(`"../.."`), "/", ""},
		{"gemini empty", "gemini", "claude", gemini(`""`), "/p", ""},
		{"gemini to codex", "gemini", "codex", gemini(`"/home"`), "/home", ""},
		{"gemini to droid", "gemini", "droid", gemini(`"/home"`), "/home", ""},
		{"gemini to copilot", "gemini", "copilot", gemini(`"/home"`), "/home", ""},
		{"qwen absolute", "qwen", "claude", qwen(`"/home"`), "/home", ""},
		{"qwen to gemini keeps the argument", "qwen", "gemini", qwen(`"/home"`), "/p", ""},
		{"qwen relative", "qwen", "claude", qwen(`"home"`), "", "refuses a relative directory"},
		{"qwen dotdot", "qwen", "claude", qwen(`"/p/link/.."`), "", "follows symbolic links"},
		{"terminai", "terminai", "claude", terminai, "/home", ""},
		{"gemini to qwen keeps the argument", "gemini", "qwen", gemini(`"/home"`), "/p", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cwd, _, in, err := hookSees(t, c.from, c.to, "", c.event)
			if c.fail != "" {
				if err == nil || !strings.Contains(err.Error(), c.fail) {
					t.Fatalf("err = %v, want a guard failed closed with %q", err, c.fail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cwd != c.cwd {
				t.Errorf("cwd = %q, want %q (input %v)", cwd, c.cwd, in)
			}
		})
	}
}

// An argument that changes what a tool touches and that no other agent's
// tool can hold (the table's failClosed) fails a guard of another dialect
// closed: Copilot's glob and grep search every directory of paths, a
// Claude Glob or Grep guard would see none. On b20418e paths was dropped
// and the guard checked a search of the project.
func TestUncarriedSearchDirectoriesFailAGuardClosed(t *testing.T) {
	for _, c := range []struct {
		name, event, fail string
	}{
		{"glob paths", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"glob","toolArgs":{"pattern":"**/*.key","paths":["/etc","/home"]}}`, "has paths"},
		{"grep paths", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"grep","toolArgs":{"pattern":"KEY","paths":"/etc"}}`, "has paths"},
		{"glob without paths", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"glob","toolArgs":{"pattern":"**/*.key"}}`, ""},
		{"grep empty paths", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"grep","toolArgs":{"pattern":"KEY","paths":[]}}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, in, err := hookSees(t, "copilot", "claude", "", c.event)
			if c.fail == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.fail) {
				t.Fatalf("err = %v (input %v), want a guard failed closed with %q", err, in, c.fail)
			}
		})
	}
}

// Qwen Code's agent pins a subagent to working_dir; Claude's Agent has no
// such argument, so a Claude Agent guard fails closed on a call with one.
func TestQwenSubagentWorkingDirFailsAClaudeGuardClosed(t *testing.T) {
	ev := func(input string) string {
		return `{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"agent","tool_input":` + input + `,"tool_use_id":"u"}`
	}
	if _, _, in, err := hookSees(t, "qwen", "claude", "Agent", ev(`{"description":"d","prompt":"p","working_dir":"/elsewhere"}`)); err == nil || !strings.Contains(err.Error(), "working_dir") {
		t.Errorf("err = %v (input %v), want the guard failed closed on working_dir", err, in)
	}
	if _, _, _, err := hookSees(t, "qwen", "claude", "Agent", ev(`{"description":"d","prompt":"p"}`)); err != nil {
		t.Errorf("without working_dir: %v", err)
	}
}

// A path with a line break cannot be written into a patch's header line:
// the rest reads as other lines. A Codex guard on another host saw
// "*** Add File: ok" (its text "+x/../.env") for a write_file that Gemini
// resolves to /p/.env, and allowed it; it now fails closed. On b20418e
// and before this fix the hook saw the forged patch.
func TestPathWithALineBreakFailsAPatchGuardClosed(t *testing.T) {
	for _, c := range []struct{ name, host, event string }{
		{"gemini write_file", "gemini", `{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-22T12:00:00.000Z","tool_name":"write_file","tool_input":{"file_path":"ok\n+x/../.env","content":"X=1"}}`},
		{"gemini replace", "gemini", `{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-22T12:00:00.000Z","tool_name":"replace","tool_input":{"file_path":"/p/ok\n+x/../.env","old_string":"a","new_string":"b"}}`},
		{"claude Write", "claude", `{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Write","tool_input":{"file_path":"/p/ok\n+x/.env","content":"X=1"},"tool_use_id":"u"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, in, err := hookSees(t, c.host, "codex", "", c.event)
			if err == nil || !strings.Contains(err.Error(), "with a line break") {
				t.Fatalf("err = %v, want a guard failed closed (the hook saw %q)", err, in["command"])
			}
		})
	}
	// A line break elsewhere (the text of the edit) is carried.
	if _, _, in, err := hookSees(t, "claude", "codex", "", `{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Write","tool_input":{"file_path":"/p/a.txt","content":"x\ny"},"tool_use_id":"u"}`); err != nil || !strings.Contains(in["command"].(string), "+x\n+y") {
		t.Errorf("err = %v, command %q", err, in["command"])
	}
}

// A hook's rewrite of a Codex apply_patch whose path holds a line break
// is refused (blocked), not written into the patch: its header would split
// into lines of their own, and Codex would also add /p/.env, which the
// hook never gave.
func TestRewriteWithALineBreakInAPatchPathIsRefused(t *testing.T) {
	host := codexPatchEvent("/p", "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n")
	got, fs := resultFor(t, "claude", "codex", "PreToolUse", "",
		Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/p/a.txt\n*** Add File: /p/.env\n+X=1","content":"y"}}}`)}, host, false)
	if strings.Contains(got, "updatedInput") || !strings.Contains(got, `"permissionDecision":"deny"`) {
		t.Errorf("host got %s, want a deny and no patch; findings: %v", got, fs)
	}
}

// A hook of a dialect that gets paths as the model wrote them (every one
// but Claude) would take the path as a plain path.resolve does; where the
// host's tool writes another file, a guard fails closed. Gemini CLI's
// write_file decodes %2e, drops a leading @ and NUL bytes (geminiFile):
// a Droid, Qwen or Codex .env guard on Gemini saw %2eenv, @.env and
// .e\x00nv and allowed; Gemini writes /p/.env. A plain path goes through.
func TestPathTheHostReadsOtherwiseFailsAGuardClosed(t *testing.T) {
	write := func(path string) string {
		b, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": "/p", "hook_event_name": "BeforeTool", "timestamp": "2026-11-22T12:00:00.000Z",
			"tool_name": "write_file", "tool_input": map[string]any{"file_path": path, "content": "X=1"}})
		return string(b)
	}
	for _, hook := range []string{"droid", "qwen", "codex", "copilot"} {
		for _, path := range []string{"%2eenv", "@.env", ".e\x00nv", "/p/sub/%2e%2e/.env"} {
			t.Run(hook+" "+path, func(t *testing.T) {
				_, _, in, err := hookSees(t, "gemini", hook, "", write(path))
				if err == nil || !strings.Contains(err.Error(), "/p/.env") {
					t.Fatalf("err = %v, want a guard failed closed (the hook saw %v)", err, in)
				}
			})
		}
		t.Run(hook+" plain", func(t *testing.T) {
			if _, _, in, err := hookSees(t, "gemini", hook, "", write("sub/../a.txt")); err != nil {
				t.Fatalf("err = %v (the hook saw %v)", err, in)
			}
		})
	}
}

// OpenCode's bash runs in its workdir; a Claude Bash hook, whose tool has
// no such argument, gets that directory as its cwd, and no finding says
// the workdir was not carried (on 5a008d0: "tool_input.workdir: not
// carried: Bash has no such argument" beside the cwd that carried it, and
// "sub" resolved against that new cwd, to /p/sub/sub).
func TestWorkdirCarriedAsCwdIsNoLoss(t *testing.T) {
	tr := newTr(t, "opencode", "claude")
	tr.Exists = func(string) bool { return false }
	res, err := tr.Event([]byte(`{"type":"tool.execute.before","tool":"bash","sessionID":"s","callID":"c","args":{"command":"ls","workdir":"sub"},"directory":"/p","worktree":"/"}`))
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Cwd string `json:"cwd"`
	}
	json.Unmarshal(res.Payload, &p)
	if p.Cwd != "/p/sub" {
		t.Errorf("cwd %q, want /p/sub", p.Cwd)
	}
	var cwdSaid bool
	for _, f := range res.Findings {
		if strings.Contains(f.What, "workdir") && f.Mark == mappings.None || strings.Contains(f.Why, "sub/sub") {
			t.Errorf("finding %s: the workdir is carried, as the cwd, and resolved against OpenCode's directory", f)
		}
		cwdSaid = cwdSaid || f.What == "cwd" && strings.Contains(f.Why, "/p/sub")
	}
	if !cwdSaid {
		t.Errorf("no finding says the cwd is the workdir: %v", res.Findings)
	}
}
