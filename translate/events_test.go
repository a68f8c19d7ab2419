package translate

// Tests for what a hook sees of a tool call (issue 8, "Events"): paths as
// its own agent gives them, the argument the host's tool really uses,
// none of the other agent's private arguments, and tool results in its own
// agent's shape.

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

// toolEvent builds a tool event payload of a dialect.
func toolEvent(event, cwd, tool string, input map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{
		"session_id": "s1", "transcript_path": "", "cwd": cwd,
		"hook_event_name": event, "tool_name": tool, "tool_input": input,
	})
	return b
}

// hookInput translates a payload and returns the tool_input the hook sees.
func hookInput(t *testing.T, tr *Translator, payload []byte) (map[string]any, *EventResult) {
	t.Helper()
	res, err := tr.Event(payload)
	if err != nil {
		t.Fatalf("Event: %v", err)
	}
	var p struct {
		ToolInput map[string]any `json:"tool_input"`
	}
	mustJSON(t, res.Payload, &p)
	return p.ToolInput, res
}

// existing makes a Translator's disk: only the paths listed exist.
func existing(paths ...string) func(string) bool {
	return func(p string) bool { return slices.Contains(paths, p) }
}

// Gemini's file tools take paths relative to the workspace and its hooks get
// them as the model wrote them; Claude Code gives its hooks absolute paths.
// A Claude path guard on Gemini must see the path Gemini's tool will use.
func TestGeminiRelativePathsReachClaudeHooksAbsolute(t *testing.T) {
	const cwd = "/home/user/project"
	for _, c := range []struct {
		name, tool, arg, given, want string
		exists                       []string
	}{
		{"read relative", "read_file", "file_path", "secrets/key.txt", cwd + "/secrets/key.txt", nil},
		{"write relative", "write_file", "file_path", "secrets/key.txt", cwd + "/secrets/key.txt", nil},
		{"read dot-dot", "read_file", "file_path", "src/../secrets/key.txt", cwd + "/secrets/key.txt", nil},
		{"read absolute dot-dot", "read_file", "file_path", cwd + "/x/../secrets/key.txt", cwd + "/secrets/key.txt", nil},
		{"read percent-encoded", "read_file", "file_path", "secrets%2Fkey.txt", cwd + "/secrets/key.txt", nil},
		{"read percent-encoded dot-dot", "read_file", "file_path", "x/%2E%2E/secrets/key.txt", cwd + "/secrets/key.txt", nil},
		{"read malformed percent kept", "read_file", "file_path", "a%zz/key.txt", cwd + "/a%zz/key.txt", nil},
		{"read NUL removed", "read_file", "file_path", "secrets/key\x00.txt", cwd + "/secrets/key.txt", nil},
		{"read at-prefix dropped", "read_file", "file_path", "@secrets/key.txt", cwd + "/secrets/key.txt", nil},
		{"read at-prefix kept when it exists", "read_file", "file_path", "@secrets/key.txt", cwd + "/@secrets/key.txt", []string{cwd + "/@secrets/key.txt"}},
		{"read tilde is not home", "read_file", "file_path", "~/key.txt", cwd + "/~/key.txt", nil},
		{"replace existing relative", "replace", "file_path", "secrets/key.txt", cwd + "/secrets/key.txt", []string{cwd + "/secrets/key.txt"}},
		{"replace absolute", "replace", "file_path", cwd + "/secrets/./key.txt", cwd + "/secrets/key.txt", nil},
		{"glob dir", "glob", "dir_path", "secrets", cwd + "/secrets", nil},
		{"grep dir", "grep_search", "dir_path", "./secrets/", cwd + "/secrets", nil},
		{"grep dir percent-encoded", "grep_search", "dir_path", "sec%72ets", cwd + "/secrets", nil},
		{"list_directory dir is not decoded", "list_directory", "dir_path", "sec%72ets", cwd + "/sec%72ets", nil},
		{"shell dir", "run_shell_command", "dir_path", "secrets", cwd + "/secrets", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := newTr(t, "gemini", "claude")
			tr.Exists = existing(c.exists...)
			input := map[string]any{c.arg: c.given, "pattern": "x", "command": "ls", "content": "x", "old_string": "a", "new_string": "b", "instruction": "i"}
			got, res := hookInput(t, tr, toolEvent("BeforeTool", cwd, c.tool, input))
			arg, ok := c.arg, true // a tool without a counterpart keeps its arguments
			var shown struct {
				ToolName string `json:"tool_name"`
			}
			mustJSON(t, res.Payload, &shown)
			if dst := tr.To.Tool(shown.ToolName); dst != nil {
				arg, ok = dst.ArgFor(tr.From.Tool(c.tool).Fields[c.arg])
			}
			if !ok {
				// No counterpart (run_shell_command's dir_path): the hook
				// cannot see it, and a finding says where the command runs.
				if !hasFinding(res.Findings, "tool_input."+c.arg, c.want) {
					t.Errorf("no finding names the resolved %s %q; findings: %v", c.arg, c.want, res.Findings)
				}
				return
			}
			if got[arg] != c.want {
				t.Errorf("the Claude hook sees %s %q, want %q (what Gemini's %s uses)", arg, got[arg], c.want, c.tool)
			}
		})
	}
}

func mustMapTool(t *testing.T, tr *Translator, name string) string {
	t.Helper()
	m, err := tr.Table.MapTool(tr.From, tr.To, name)
	if err != nil || m.Name == "" {
		t.Fatalf("no %s counterpart for %s: %v", tr.To.Agent, name, err)
	}
	return m.Name
}

func hasFinding(fs []Finding, what, text string) bool {
	for _, f := range fs {
		if strings.HasPrefix(f.What, what) && strings.Contains(f.Why, text) {
			return true
		}
	}
	return false
}

// When Gemini would search the workspace for a relative path (replace of a
// file that is not at cwd + path), hookx cannot know the file: a Claude guard
// fails closed with the reason; after the fact the hook runs with a finding.
func TestUnresolvablePathFailsGuardClosed(t *testing.T) {
	const cwd = "/home/user/project"
	input := map[string]any{"file_path": "key.txt", "instruction": "i", "old_string": "a", "new_string": "b"}
	tr := newTr(t, "gemini", "claude")
	tr.Exists = existing()
	_, err := tr.Event(toolEvent("BeforeTool", cwd, "replace", input))
	if err == nil || !strings.Contains(err.Error(), "searches the workspace") {
		t.Fatalf("BeforeTool replace of a path Gemini would search for: err = %v, want a failure naming the search", err)
	}
	payload := toolEvent("AfterTool", cwd, "replace", input)
	var p map[string]any
	mustJSON(t, payload, &p)
	p["tool_response"] = map[string]any{"llmContent": "ok", "returnDisplay": "ok"}
	payload, _ = json.Marshal(p)
	got, res := hookInput(t, tr, payload)
	if got["file_path"] != cwd+"/key.txt" || !hasFinding(res.Findings, "tool_input", "searches the workspace") {
		t.Errorf("AfterTool: file_path %q, findings %v; want the likeliest path and a finding", got["file_path"], res.Findings)
	}
	// Without an absolute cwd nothing relative can be resolved.
	tr.Exists = existing()
	if _, err := tr.Event(toolEvent("BeforeTool", "", "read_file", map[string]any{"file_path": "key.txt"})); err == nil {
		t.Errorf("BeforeTool read_file of a relative path with no cwd: want a failure")
	}
}

// A Gemini hook on Claude sees what Claude sends, which is what Gemini would
// send for the same call: Gemini's tools take absolute paths as they are.
func TestClaudePathsReachGeminiHooksAsSent(t *testing.T) {
	tr := newTr(t, "claude", "gemini")
	tr.Exists = existing()
	for tool, input := range map[string]map[string]any{
		"Read":  {"file_path": "/home/user/project/secrets/key.txt"},
		"Write": {"file_path": "/home/user/project/secrets/key.txt", "content": "x"},
		"Edit":  {"file_path": "/home/user/project/secrets/key.txt", "old_string": "a", "new_string": "b"},
		"Glob":  {"pattern": "*", "path": "/home/user/project/secrets"},
		"Grep":  {"pattern": "*", "path": "/home/user/project/secrets"},
	} {
		got, _ := hookInput(t, tr, toolEvent("PreToolUse", "/home/user/project", tool, input))
		for k, v := range input {
			arg, _ := tr.To.Tool(mustMapTool(t, tr, tool)).ArgFor(tr.From.Tool(tool).Fields[k])
			if got[arg] != v {
				t.Errorf("%s %s: the Gemini hook sees %v, want %v as sent", tool, k, got[arg], v)
			}
		}
	}
}

// Every path argument of every tool of a dialect whose hooks may get
// relative paths names how its tool resolves it, so a dialect with absolute
// paths never gets one unresolved.
func TestEveryGeminiPathArgumentHasAResolver(t *testing.T) {
	pathArgs := []string{"file_path", "dir"} // canonical path arguments
	for _, d := range mappings.Default().Dialects {
		if d.AbsolutePaths {
			continue
		}
		for _, tool := range d.Tools {
			for arg, canon := range tool.Fields {
				if slices.Contains(pathArgs, canon) && tool.Paths[arg] == "" {
					t.Errorf("%s: tool %s: path argument %s has no resolver in \"paths\"", d.Name, tool.Name, arg)
				}
			}
		}
	}
}

// A payload can carry the host tool's argument and a stray one under the
// hook dialect's name (Gemini accepts and ignores unknown arguments). The
// hook must see the value the host's tool uses, whatever Go's map order:
// every rename pair of every tool, both directions, many times over.
func TestStrayArgumentNeverHidesTheRealOne(t *testing.T) {
	table := mappings.Default()
	for _, pair := range [][2]string{{"gemini", "claude"}, {"claude", "gemini"}} {
		tr := newTr(t, pair[0], pair[1])
		tr.Exists = existing()
		for _, src := range tr.From.Tools {
			m, err := table.MapTool(tr.From, tr.To, src.Name)
			if err != nil || m.To == nil {
				continue
			}
			for _, srcArg := range slices.Sorted(maps.Keys(src.Fields)) {
				canon := src.Fields[srcArg]
				dstArg, ok := m.To.ArgFor(canon)
				if !ok {
					continue
				}
				for _, decoyName := range []string{dstArg, canon} {
					if decoyName == srcArg {
						continue
					}
					name := fmt.Sprintf("%s→%s/%s.%s+%s", pair[0], pair[1], src.Name, srcArg, decoyName)
					t.Run(name, func(t *testing.T) {
						input := map[string]any{srcArg: "/real", decoyName: "/decoy"}
						for _, r := range src.Required {
							if _, ok := input[r]; !ok {
								input[r] = "/x"
							}
						}
						event := tr.From.Events[0].Name // the before-tool event
						var first []byte
						for i := range 50 {
							got, res := hookInput(t, tr, toolEvent(event, "/w", src.Name, input))
							if got[dstArg] != "/real" {
								t.Fatalf("run %d: the hook sees %s = %v, want the value of %s (what %s uses)", i, dstArg, got[dstArg], srcArg, tr.From.Agent)
							}
							if i == 0 {
								first = res.Payload
								if !hasFinding(res.Findings, "tool_input."+decoyName, "") {
									t.Errorf("dropping the stray %s left no finding: %v", decoyName, res.Findings)
								}
							} else if string(res.Payload) != string(first) {
								t.Fatalf("run %d differs from run 0:\n%s\n%s", i, first, res.Payload)
							}
						}
					})
				}
			}
		}
	}
}

// FuzzStrayArguments checks, for random argument names and values added to
// every mapped tool's arguments, that translation is deterministic and the
// hook sees the host tool's own value for every argument with a counterpart.
func FuzzStrayArguments(f *testing.F) {
	f.Add("path", "dir_path", "offset")
	f.Add("dir", "file_path", "start_line")
	f.Add("instruction", "limit", "replace_all")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		for _, n := range mappings.DialectPairs() {
			from, to := mappings.DialectPair(n)
			tr := newTr(t, from, to)
			tr.Exists = existing()
			for _, src := range tr.From.Tools {
				m, err := tr.Table.MapTool(tr.From, tr.To, src.Name)
				if err != nil || m.To == nil {
					continue
				}
				input := map[string]any{a: "/decoy-a", b: "/decoy-b", c: "/decoy-c"}
				for arg := range src.Fields {
					input[arg] = "/real-" + arg
				}
				payload := toolEvent(tr.From.Events[0].Name, "/w", src.Name, input)
				res1, err1 := tr.Event(payload)
				res2, err2 := tr.Event(payload)
				if (err1 == nil) != (err2 == nil) || err1 == nil && string(res1.Payload) != string(res2.Payload) {
					t.Fatalf("%s: two translations differ", src.Name)
				}
				if err1 != nil {
					continue
				}
				var p struct {
					ToolInput map[string]any `json:"tool_input"`
				}
				inb, _ := Inbound(tr.To, res1.Payload, res1.Event)
				_ = json.Unmarshal(inb, &p)
				for arg, canon := range src.Fields {
					if src.Convert != "" || m.To.Convert != "" {
						continue // converted values are checked by the goldens
					}
					if dstArg, ok := m.To.ArgFor(canon); ok && p.ToolInput[dstArg] != "/real-"+arg {
						t.Fatalf("%s.%s: the hook sees %s = %v", src.Name, arg, dstArg, p.ToolInput[dstArg])
					}
				}
			}
		}
	})
}

// A hook sees only arguments its own agent's tool has: nothing private to
// the other agent (Gemini's instruction, Claude's timeout, ...) leaks into
// tool_input. Checked on every captured payload (the goldens).
func TestNoAgentPrivateArgumentsReachTheHook(t *testing.T) {
	files, _ := filepath.Glob("testdata/events/*.txtar")
	checked := 0
	for _, file := range files {
		ar, err := parseGolden(file)
		if err != nil {
			t.Fatal(err)
		}
		src, dst := goldenDialects(file)
		tr := newTr(t, src, dst)
		var p struct {
			ToolName  string         `json:"tool_name"`
			ToolInput map[string]any `json:"tool_input"`
		}
		out := section(t, ar, dst+".json")
		if json.NewDecoder(strings.NewReader(string(out))).Decode(&p) != nil || p.ToolInput == nil {
			continue
		}
		tool := tr.To.Tool(p.ToolName)
		if tool == nil {
			continue // MCP tools: the server's own arguments
		}
		for k := range p.ToolInput {
			_, known := tool.Fields[k]
			if !known && !slices.Contains(converter(tool).Args, k) {
				t.Errorf("%s: the %s hook's %s tool_input has %q, which %s never sends", filepath.Base(file), tr.To.Agent, p.ToolName, k, tr.To.Agent)
			}
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("checked %d tool payloads, want every captured one", checked)
	}
}

// Per tool: each argument a Gemini tool has and Claude's lacks, and back, is
// dropped from the hook's stdin with a finding, never passed on silently.
func TestPrivateArgumentsAreDroppedWithAFinding(t *testing.T) {
	for _, c := range []struct {
		from, tool string
		input      map[string]any
		dropped    []string
	}{
		{"gemini", "replace", map[string]any{"file_path": "/a", "instruction": "do", "old_string": "a", "new_string": "b"}, []string{"instruction"}},
		{"gemini", "glob", map[string]any{"pattern": "*", "case_sensitive": true, "respect_git_ignore": false, "respect_gemini_ignore": false}, []string{"case_sensitive", "respect_gemini_ignore", "respect_git_ignore"}},
		// dir_path is carried as the hook's cwd (TestWorkdirCarriedAsCwdIsNoLoss).
		{"gemini", "run_shell_command", map[string]any{"command": "ls", "dir_path": "/a", "delay_ms": 5, "additional_permissions": map[string]any{}}, []string{"additional_permissions", "delay_ms"}},
		{"gemini", "grep_search", map[string]any{"pattern": "x", "exclude_pattern": "*.md", "names_only": true}, []string{"exclude_pattern", "names_only"}},
		{"claude", "Bash", map[string]any{"command": "ls", "timeout": 5, "dangerouslyDisableSandbox": true}, []string{"dangerouslyDisableSandbox", "timeout"}},
		{"claude", "Read", map[string]any{"file_path": "/a", "pages": "1-2"}, []string{"pages"}},
		{"claude", "Grep", map[string]any{"pattern": "x", "-i": true, "output_mode": "content", "head_limit": 3}, []string{"-i", "head_limit", "output_mode"}},
		{"claude", "Agent", map[string]any{"prompt": "p", "description": "d", "model": "haiku"}, []string{"description", "model"}},
	} {
		t.Run(c.from+"."+c.tool, func(t *testing.T) {
			to := map[string]string{"claude": "gemini", "gemini": "claude"}[c.from]
			tr := newTr(t, c.from, to)
			tr.Exists = existing()
			event := tr.From.Events[0].Name
			got, res := hookInput(t, tr, toolEvent(event, "/", c.tool, c.input))
			for _, k := range c.dropped {
				if _, ok := got[k]; ok {
					t.Errorf("%s reached the %s hook", k, tr.To.Agent)
				}
				if !hasFinding(res.Findings, "tool_input."+k, "") {
					t.Errorf("dropping %s left no finding: %v", k, res.Findings)
				}
			}
		})
	}
}

// A read_file result reaches a Claude hook as Claude's Read result: the
// file's lines without Gemini's notice, with Claude's counts (checked against
// the captured PostToolUse.Read.json: offset 2, limit 3 of a 6-line file), and
// back: a Gemini hook gets Gemini's notice and display text.
func TestReadResultInTheHooksOwnShape(t *testing.T) {
	const notice = "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 2-4 of 6 total lines.\nAction: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use start_line: 5.\n\n--- FILE CONTENT (truncated) ---\n"
	cases := []struct {
		name    string
		gemini  map[string]any // tool_response
		input   map[string]any // read_file input
		claude  map[string]any // file
		oneWay  bool
		comment string
	}{
		{name: "partial", gemini: map[string]any{"llmContent": notice + "beta\ngamma\nbeta", "returnDisplay": "Read lines 2-4 of 6 from notes.txt"},
			input:  map[string]any{"file_path": "/home/user/project/notes.txt", "start_line": 2, "end_line": 4},
			claude: map[string]any{"filePath": "/home/user/project/notes.txt", "content": "beta\ngamma\nbeta", "numLines": 3.0, "startLine": 2.0, "totalLines": 6.0}},
		{name: "whole file", gemini: map[string]any{"llmContent": "alpha\nbeta\n", "returnDisplay": ""},
			input:  map[string]any{"file_path": "/home/user/project/notes.txt"},
			claude: map[string]any{"filePath": "/home/user/project/notes.txt", "content": "alpha\nbeta\n", "numLines": 3.0, "startLine": 1.0, "totalLines": 3.0}},
		{name: "a file that starts like the notice is not cut", gemini: map[string]any{"llmContent": notice + "x", "returnDisplay": ""},
			input:  map[string]any{"file_path": "/home/user/project/notes.txt"},
			claude: map[string]any{"filePath": "/home/user/project/notes.txt", "content": notice + "x", "numLines": 7.0, "startLine": 1.0, "totalLines": 7.0}, oneWay: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := map[string]any{"session_id": "s", "transcript_path": "", "cwd": "/home/user/project", "hook_event_name": "AfterTool",
				"tool_name": "read_file", "tool_input": c.input, "tool_response": c.gemini}
			payload, _ := json.Marshal(g)
			res, err := newTr(t, "gemini", "claude").Event(payload)
			if err != nil {
				t.Fatal(err)
			}
			var p struct {
				ToolResponse struct {
					Type string         `json:"type"`
					File map[string]any `json:"file"`
				} `json:"tool_response"`
			}
			mustJSON(t, res.Payload, &p)
			if diff := cmp.Diff(c.claude, p.ToolResponse.File); diff != "" || p.ToolResponse.Type != "text" {
				t.Errorf("Gemini → Claude Read result (-want +got):\n%s", diff)
			}
			if c.oneWay {
				return
			}
			back, err := newTr(t, "claude", "gemini").Event(res.Payload)
			if err != nil {
				t.Fatal(err)
			}
			var q struct {
				ToolResponse map[string]any `json:"tool_response"`
			}
			mustJSON(t, back.Payload, &q)
			if diff := cmp.Diff(c.gemini, q.ToolResponse); diff != "" {
				t.Errorf("Claude → Gemini read_file result (-want +got):\n%s", diff)
			}
		})
	}
}

// The same holds for a hook's rewrite: a stray argument under the host's
// name never replaces the one the hook's own tool would use, whatever the
// map order.
func TestStrayArgumentInRewriteNeverWins(t *testing.T) {
	host := `{"session_id":"s","hook_event_name":"BeforeTool","timestamp":"2026-11-22T12:00:00.000Z","tool_name":"grep_search","tool_input":{"pattern":"a","dir_path":"/p"}}`
	hook := Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"pattern":"b","path":"/real","dir_path":"/decoy"}}}`)}
	want := `{"hookSpecificOutput":{"tool_input":{"dir_path":"/real","pattern":"b"}}}`
	for i := range 50 {
		got, fs := resultFor(t, "claude", "gemini", "PreToolUse", "", hook, host, false)
		if got != want {
			t.Fatalf("run %d: host got %s, want %s; findings: %v", i, got, want, fs)
		}
	}
	host = `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{"pattern":"a","path":"/p"},"tool_use_id":"t"}`
	hook = Output{Stdout: []byte(`{"hookSpecificOutput":{"tool_input":{"pattern":"b","dir_path":"/real","path":"/decoy"}}}`)}
	want = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"path":"/real","pattern":"b"}}}`
	for i := range 50 {
		got, fs := resultFor(t, "gemini", "claude", "BeforeTool", "", hook, host, false)
		if got != want {
			t.Fatalf("run %d: host got %s, want %s; findings: %v", i, got, want, fs)
		}
	}
}

// Tool results are checked against the real agents: the captured runs did
// the same calls on the same file in both agents, so each captured result,
// translated, must carry what the other agent's own result carried.
func TestToolResultsMatchTheRealAgents(t *testing.T) {
	captured := func(name string) map[string]any {
		ar, err := parseGolden("testdata/events/" + name + ".txtar")
		if err != nil {
			t.Fatal(err)
		}
		var p map[string]any
		mustJSON(t, ar.Files[0].Data, &p)
		return p
	}
	translated := func(from, name string) map[string]any {
		to := map[string]string{"claude": "gemini", "gemini": "claude"}[from]
		ar, _ := parseGolden("testdata/events/" + name + ".txtar")
		res, err := newTr(t, from, to).Event(ar.Files[0].Data)
		if err != nil {
			t.Fatal(err)
		}
		var p map[string]any
		mustJSON(t, res.Payload, &p)
		return p
	}
	for _, c := range []struct {
		claude, gemini string
		claudeKeys     []string // tool_response keys (dotted) a Claude hook gets as Claude sends them
		geminiKeys     []string
	}{
		{"claude.PostToolUse.Read", "gemini.AfterTool.read_file", []string{"type", "file.filePath", "file.content", "file.numLines", "file.startLine", "file.totalLines"}, []string{"llmContent", "returnDisplay"}},
		{"claude.PostToolUse.Write", "gemini.AfterTool.write_file", []string{"type", "filePath", "content", "originalFile", "structuredPatch", "userModified"}, []string{"llmContent", "returnDisplay.filePath", "returnDisplay.fileName", "returnDisplay.originalContent", "returnDisplay.newContent", "returnDisplay.isNewFile"}},
		{"claude.PostToolUse.Edit", "gemini.AfterTool.replace", []string{"filePath", "oldString", "newString", "originalFile", "userModified", "replaceAll"}, []string{"llmContent", "returnDisplay.filePath", "returnDisplay.originalContent", "returnDisplay.newContent", "returnDisplay.isNewFile"}},
		{"claude.PostToolUse.Glob", "gemini.AfterTool.glob", []string{"filenames", "numFiles", "truncated"}, []string{"llmContent", "returnDisplay"}},
		{"claude.PostToolUse.Grep", "gemini.AfterTool.grep_search", []string{"mode", "content", "numFiles", "filenames", "numLines", "totalLines"}, nil},
		{"claude.PostToolUse.Bash", "gemini.AfterTool.run_shell_command", []string{"stdout", "stderr", "interrupted", "isImage"}, []string{"returnDisplay"}},
		{"claude.PostToolUseFailure.Read", "gemini.AfterTool.read_file.missing", nil, []string{"llmContent", "returnDisplay", "error"}},
	} {
		t.Run(c.claude, func(t *testing.T) {
			if strings.Contains(c.claude, "Failure") {
				real, got := captured(c.claude)["error"], translated("gemini", c.gemini)["error"]
				if diff := cmp.Diff(real, got); diff != "" {
					t.Errorf("Gemini → Claude error (-real Claude +hookx):\n%s", diff)
				}
			}
			realC, gotC := captured(c.claude)["tool_response"], translated("gemini", c.gemini)["tool_response"]
			for _, k := range c.claudeKeys {
				if diff := cmp.Diff(digAny(realC, k), digAny(gotC, k)); diff != "" {
					t.Errorf("Gemini → Claude tool_response.%s (-real Claude +hookx):\n%s", k, diff)
				}
			}
			realG, gotG := captured(c.gemini)["tool_response"], translated("claude", c.claude)["tool_response"]
			for _, k := range c.geminiKeys {
				if diff := cmp.Diff(digAny(realG, k), digAny(gotG, k)); diff != "" {
					t.Errorf("Claude → Gemini tool_response.%s (-real Gemini +hookx):\n%s", k, diff)
				}
			}
		})
	}
}

func digAny(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

// Converted arguments too: a stray offset/limit in a Gemini read_file (which
// reads only start_line/end_line) or a stray start_line in a Claude Read
// never replaces the converted range the host's tool uses.
func TestStrayArgumentNeverHidesAConvertedRange(t *testing.T) {
	for _, c := range []struct {
		from, tool  string
		input, want map[string]any
	}{
		{"gemini", "read_file", map[string]any{"file_path": "/a", "start_line": 2, "end_line": 4, "offset": 100, "limit": 1},
			map[string]any{"file_path": "/a", "offset": 2.0, "limit": 3.0}},
		{"gemini", "read_file", map[string]any{"file_path": "/a", "offset": 100, "limit": 1},
			map[string]any{"file_path": "/a"}},
		{"claude", "Read", map[string]any{"file_path": "/a", "offset": 2, "limit": 3, "start_line": 50, "end_line": 60},
			map[string]any{"file_path": "/a", "start_line": 2.0, "end_line": 4.0}},
		{"claude", "Read", map[string]any{"file_path": "/a", "start_line": 50},
			map[string]any{"file_path": "/a"}},
	} {
		to := map[string]string{"claude": "gemini", "gemini": "claude"}[c.from]
		tr := newTr(t, c.from, to)
		for i := range 50 {
			got, _ := hookInput(t, tr, toolEvent(tr.From.Events[0].Name, "/", c.tool, c.input))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Fatalf("%s %v, run %d (-want +got):\n%s", c.tool, c.input, i, diff)
			}
		}
	}
}

// Every mapped tool, both directions: given every argument its own agent
// knows, the hook sees only arguments of its own agent's tool.
func TestEveryToolShowsOnlyTheHooksArguments(t *testing.T) {
	for _, pair := range [][2]string{{"gemini", "claude"}, {"claude", "gemini"}} {
		tr := newTr(t, pair[0], pair[1])
		tr.Exists = existing()
		for _, src := range tr.From.Tools {
			m, err := tr.Table.MapTool(tr.From, tr.To, src.Name)
			if err != nil || m.To == nil {
				continue
			}
			t.Run(pair[0]+"."+src.Name, func(t *testing.T) {
				input := map[string]any{}
				for arg := range src.Fields {
					input[arg] = "/v"
				}
				for _, arg := range converter(src).Args {
					input[arg] = 2
				}
				got, _ := hookInput(t, tr, toolEvent(tr.From.Events[0].Name, "/", src.Name, input))
				for k := range got {
					_, known := m.To.Fields[k]
					if !known && !slices.Contains(converter(m.To).Args, k) {
						t.Errorf("the %s hook's %s tool_input has %q, which %s never sends", tr.To.Agent, m.Name, k, tr.To.Agent)
					}
				}
			})
		}
	}
}

// No translation depends on Go's map order: every captured payload, with a
// stray argument added to its tool input, translates to the same bytes and
// the same findings, in the same order, every time.
func TestTranslationDoesNotDependOnMapOrder(t *testing.T) {
	files, _ := filepath.Glob("testdata/events/*.txtar")
	for _, file := range files {
		ar, err := parseGolden(file)
		if err != nil {
			t.Fatal(err)
		}
		src, dst := "claude", "gemini"
		if strings.HasPrefix(filepath.Base(file), "gemini.") {
			src, dst = dst, src
		}
		var p map[string]any
		mustJSON(t, ar.Files[0].Data, &p)
		if in, ok := p["tool_input"].(map[string]any); ok {
			in["path"], in["dir_path"], in["offset"], in["start_line"] = "/decoy", "/decoy", 99, 99
		}
		payload, _ := json.Marshal(p)
		tr := newTr(t, src, dst)
		tr.Exists = existing()
		first, err := tr.Event(payload)
		if err != nil {
			continue // checked by the goldens
		}
		for i := range 30 {
			again, _ := tr.Event(payload)
			if string(again.Payload) != string(first.Payload) || !slices.Equal(again.Findings, first.Findings) {
				t.Fatalf("%s: translation %d differs from the first:\n%s\n%v\n%s\n%v", filepath.Base(file), i, first.Payload, first.Findings, again.Payload, again.Findings)
			}
		}
	}
}

// A Gemini hook's rewrite may name a relative path, which its own agent
// resolves against the workspace; Claude's tools get it absolute.
func TestGeminiRewriteWithRelativePathReachesClaudeAbsolute(t *testing.T) {
	host := `{"session_id":"s","cwd":"/home/user/project","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/home/user/project/a.txt"},"tool_use_id":"t"}`
	hook := Output{Stdout: []byte(`{"hookSpecificOutput":{"tool_input":{"file_path":"docs/../b.txt"}}}`)}
	got, fs := resultFor(t, "gemini", "claude", "BeforeTool", "", hook, host, false)
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/home/user/project/b.txt"}}}`
	if got != want {
		t.Errorf("host got %s\nwant     %s\nfindings: %v", got, want, fs)
	}
}

// A plugin host's hook (OpenCode's and Kilo's callID, Pi's toolCallId) run
// by another agent gets the host's own id of the call where the host keeps
// it to itself (Claude's tool_use_id is private), and a stable one where the
// host sends none (Gemini CLI), as a Codex hook does. On 5a008d0 it got none.
func TestPluginHostHookGetsTheCallID(t *testing.T) {
	claude := `{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"}`
	gemini := `{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"x","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`
	for _, c := range []struct{ host, hook, field, payload, want string }{
		{"claude", "opencode", "callID", claude, "toolu_1"},
		{"claude", "kilo", "callID", claude, "toolu_1"},
		{"claude", "pi", "toolCallId", claude, "toolu_1"},
		{"gemini", "opencode", "callID", gemini, "toolu_hookx_"},
	} {
		t.Run(c.host+"/"+c.hook, func(t *testing.T) {
			tr := newTr(t, c.host, c.hook)
			res, err := tr.Event([]byte(c.payload))
			if err != nil {
				t.Fatal(err)
			}
			var p map[string]any
			if err := json.Unmarshal(res.Payload, &p); err != nil {
				t.Fatal(err)
			}
			if got, _ := p[c.field].(string); !strings.HasPrefix(got, c.want) || got == "" {
				t.Errorf("%s = %q, want %q…: %s", c.field, got, c.want, res.Payload)
			}
		})
	}
}
