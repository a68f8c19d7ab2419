package migrate

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

func planOne(t testing.TB, from, to, event string, matcher *string, handler map[string]any) *Result {
	t.Helper()
	g := map[string]any{"hooks": []any{handler}}
	if matcher != nil {
		g["matcher"] = *matcher
	}
	src, _ := json.Marshal(map[string]any{"hooks": map[string]any{event: []any{g}}})
	res, err := Plan(Options{From: from, To: to, Wrap: false}, []Source{{Path: "src.json", Data: src}}, Source{Path: "dst.json"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// matchers returns event=matcher for each planned entry.
func matchers(res *Result) []string {
	out := []string{}
	for _, e := range res.Entries {
		m := "(all)"
		if e.Matcher != nil {
			m = *e.Matcher
		}
		out = append(out, e.Event+"="+m)
	}
	return out
}

func TestMatchers(t *testing.T) {
	cmd := map[string]any{"type": "command", "command": "./h.sh"}
	tests := []struct {
		from, to, event string
		matcher         *string
		want            []string
	}{
		{"claude", "gemini", "PreToolUse", nil, []string{"BeforeTool=(all)"}},
		{"claude", "gemini", "PreToolUse", strp("*"), []string{"BeforeTool=(all)"}},
		{"claude", "gemini", "PreToolUse", strp(".*"), []string{"BeforeTool=(all)"}},
		{"claude", "gemini", "PreToolUse", strp("Edit|Write"), []string{"BeforeTool=^(replace|write_file)$"}},
		{"claude", "gemini", "PreToolUse", strp("Edit, MultiEdit ,Write"), []string{"BeforeTool=^(replace|write_file)$"}},
		{"claude", "gemini", "PreToolUse", strp("Grep|LS"), []string{"BeforeTool=^(grep_search|list_directory)$"}},
		{"claude", "gemini", "PreToolUse", strp("Task"), []string{"BeforeTool=^(invoke_agent)$"}},
		{"claude", "gemini", "PreToolUse", strp("mcp__memory__create_entities"), []string{"BeforeTool=^(mcp_memory_create_entities)$"}},
		{"claude", "gemini", "PreToolUse", strp("mcp__github__.*"), []string{"BeforeTool=^(mcp_github_.*)$"}},
		{"claude", "gemini", "PreToolUse", strp("Bash|mcp__.*"), []string{"BeforeTool=^(run_shell_command|mcp_.*)$"}},
		{"claude", "gemini", "PreToolUse", strp("Web.*"), []string{"BeforeTool=^(web_fetch|google_web_search)$"}},
		{"claude", "gemini", "PreToolUse", strp("^Read$"), []string{"BeforeTool=^(read_file)$"}},
		// JavaScript regexes RE2 cannot read: evaluated as JavaScript does.
		{"claude", "gemini", "PreToolUse", strp("^(?!Bash$)(Bash|Read|Write)$"), []string{"BeforeTool=^(read_file|write_file)$"}},
		{"claude", "gemini", "PreToolUse", strp("(?<!Notebook)Edit$"), []string{"BeforeTool=^(replace)$"}},
		{"gemini", "claude", "BeforeTool", strp("^(?!run_shell_command)(\\w+)_file$"), []string{"PreToolUse=Read|Write"}},
		{"claude", "gemini", "PreToolUse", strp("^(?!Bash)"), []string{"BeforeTool=^(run_shell_command|read_file|write_file|replace|glob|grep_search|list_directory|web_fetch|google_web_search|write_todos|invoke_agent|ask_user|activate_skill|enter_plan_mode|exit_plan_mode|list_mcp_resources|read_mcp_resource)$"}},
		// It matches the empty string, but not every name: not match-all.
		{"claude", "gemini", "PreToolUse", strp("^$"), nil},
		// JavaScript rejects it, or engines read it differently: not carried.
		{"claude", "gemini", "PreToolUse", strp("Bash("), nil},
		{"claude", "gemini", "PreToolUse", strp("(?i:bash)"), nil},
		{"claude", "gemini", "PreToolUse", strp("NotebookEdit"), nil},
		{"claude", "gemini", "SessionStart", strp("startup|resume"), []string{"SessionStart=startup", "SessionStart=resume"}},
		{"claude", "gemini", "SessionStart", strp("start.*"), []string{"SessionStart=startup"}},
		{"claude", "gemini", "SessionStart", strp("compact|fork"), nil},
		{"claude", "gemini", "SessionEnd", strp("resume"), nil},
		{"claude", "gemini", "PreCompact", strp("manual"), []string{"PreCompress=manual"}},
		{"claude", "gemini", "Notification", strp("permission_prompt|idle_prompt"), []string{"Notification=(all)"}},
		{"claude", "gemini", "Notification", strp("idle_prompt"), nil},
		{"claude", "gemini", "UserPromptSubmit", strp("ignored"), []string{"BeforeAgent=(all)"}},
		{"gemini", "claude", "BeforeTool", strp("write_.*|replace"), []string{"PreToolUse=Write|Edit|TodoWrite"}},
		{"gemini", "claude", "BeforeTool", strp("grep"), []string{"PreToolUse=Grep"}},
		{"gemini", "claude", "BeforeTool", strp("^(run_shell_command)$"), []string{"PreToolUse=Bash"}},
		{"gemini", "claude", "BeforeTool", strp("mcp_github_.*"), []string{"PreToolUse=^(mcp__github__.*)$"}},
		{"gemini", "claude", "BeforeTool", strp("list_directory"), nil},
		{"gemini", "claude", "SessionEnd", strp("exit"), []string{"SessionEnd=other"}},
		{"gemini", "claude", "SessionStart", strp("startup|resume"), nil},
		{"gemini", "claude", "Notification", nil, []string{"Notification=permission_prompt"}},
		{"gemini", "claude", "AfterAgent", strp("x"), []string{"Stop=(all)"}},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s %s %s", tt.from, tt.event, deref(tt.matcher))
		t.Run(name, func(t *testing.T) {
			got := matchers(planOne(t, tt.from, tt.to, tt.event, tt.matcher, cmd))
			if tt.want == nil {
				tt.want = []string{}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestTimeouts(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		from, to, event string
		timeout         *float64
		wrap            bool
		want            int64
	}{
		{"claude", "gemini", "PreToolUse", f(30), false, 30000},
		{"claude", "gemini", "PreToolUse", nil, false, 600000},
		{"claude", "gemini", "UserPromptSubmit", nil, false, 30000},
		{"claude", "gemini", "SessionEnd", nil, false, 1500},
		{"claude", "gemini", "PreToolUse", f(30), true, 35000},
		{"gemini", "claude", "BeforeTool", f(2500), false, 3},
		{"gemini", "claude", "BeforeTool", nil, false, 60},
		{"gemini", "claude", "BeforeTool", f(30000), true, 35},
	}
	for _, tt := range tests {
		h := map[string]any{"type": "command", "command": "./h.sh"}
		if tt.timeout != nil {
			h["timeout"] = *tt.timeout
		}
		src, _ := json.Marshal(map[string]any{"hooks": map[string]any{tt.event: []any{map[string]any{"hooks": []any{h}}}}})
		res, err := Plan(Options{From: tt.from, To: tt.to, Wrap: tt.wrap, Hookx: "hookx"}, []Source{{Path: "s", Data: src}}, Source{Path: "t"})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Entries[0].Timeout; got != tt.want {
			t.Errorf("%s %s timeout %v wrap %v: got %d, want %d", tt.from, tt.event, deref2(tt.timeout), tt.wrap, got, tt.want)
		}
	}
}

func deref2(f *float64) any {
	if f == nil {
		return "none"
	}
	return *f
}

// TestIdempotent plans against its own output and expects no change.
func TestIdempotent(t *testing.T) {
	src := fiftyHooks()
	for _, target := range []string{"", "{\r\n  // c\r\n  \"ui\": {}\r\n}\r\n", "{\n\t\"hooks\": {\n\t\t\"BeforeTool\": []\n\t}\n}\n"} {
		var data []byte
		if target != "" {
			data = []byte(target)
		}
		opts := Options{From: "claude", To: "gemini", Wrap: true, Hookx: "/usr/local/bin/hookx"}
		first, err := Plan(opts, []Source{{Path: "s", Data: src}}, Source{Path: "t", Data: data})
		if err != nil {
			t.Fatal(err)
		}
		second, err := Plan(opts, []Source{{Path: "s", Data: src}}, Source{Path: "t", Data: first.After})
		if err != nil {
			t.Fatal(err)
		}
		if second.Changed() {
			t.Errorf("second run changed the file:\n%s", UnifiedDiff("a", "b", first.After, second.After))
		}
		if strings.Contains(target, "\r\n") && strings.Count(string(first.After), "\n") != strings.Count(string(first.After), "\r\n") {
			t.Errorf("CRLF file got LF lines")
		}
	}
}

func fiftyHooks() []byte {
	events := []string{"PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "Stop"}
	matcher := map[string]string{"PreToolUse": "Bash|Edit|Write", "PostToolUse": "Web.*|mcp__github__.*", "SessionStart": "startup|resume"}
	hooks := map[string][]any{}
	for i := range 50 {
		ev := events[i%len(events)]
		g := map[string]any{"hooks": []any{map[string]any{"type": "command", "timeout": 10 + i,
			"command": fmt.Sprintf(`"$CLAUDE_PROJECT_DIR"/.claude/hooks/h%d.sh --flag 'x'`, i)}}}
		if m, ok := matcher[ev]; ok {
			g["matcher"] = m
		}
		hooks[ev] = append(hooks[ev], g)
	}
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	return b
}

// BenchmarkPlan50 migrates a settings file with 50 hooks into an existing
// Gemini settings file (the target is under 5 ms per run).
func BenchmarkPlan50(b *testing.B) {
	src := fiftyHooks()
	target := []byte("{\n  // mine\n  \"model\": {\"name\": \"gemini-2.5-pro\"}\n}\n")
	opts := Options{From: "claude", To: "gemini", Wrap: true, Hookx: "hookx"}
	for b.Loop() {
		res, err := Plan(opts, []Source{{Path: "s", Data: src}}, Source{Path: "t", Data: target})
		if err != nil || len(res.Entries) < 50 {
			b.Fatal(err, len(res.Entries))
		}
		_ = UnifiedDiff("a/t", "b/t", res.Before, res.After)
	}
}

// A Gemini AfterTool hook fires for failed calls too, so on Claude it is
// registered on PostToolUse and PostToolUseFailure; a Claude hook on either
// lands on AfterTool with --event naming its own event, so that wrap runs it
// only for its own kind (issue 8 item 5).
func TestPostToolKindsFireOnlyForTheirOwnKind(t *testing.T) {
	cmd := map[string]any{"type": "command", "command": "./h.sh"}
	tests := []struct {
		from, to, event string
		want            []string // event=matcher, then each command
	}{
		{"gemini", "claude", "AfterTool", []string{"PostToolUse=(all)", "PostToolUseFailure=(all)"}},
		{"claude", "gemini", "PostToolUse", []string{"AfterTool=(all)"}},
		{"claude", "gemini", "PostToolUseFailure", []string{"AfterTool=(all)"}},
	}
	for _, tt := range tests {
		t.Run(tt.from+"/"+tt.event, func(t *testing.T) {
			g := map[string]any{"hooks": []any{cmd}}
			src, _ := json.Marshal(map[string]any{"hooks": map[string]any{tt.event: []any{g}}})
			res, err := Plan(Options{From: tt.from, To: tt.to, Wrap: true, Hookx: "hookx", Margin: 5}, []Source{{Path: "src.json", Data: src}}, Source{Path: "dst.json"})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, matchers(res)); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
			ids := map[string]bool{}
			for _, e := range res.Entries {
				hasEvent := strings.Contains(e.Command, " --event "+tt.event+" ")
				if wantEvent := tt.to == "gemini"; hasEvent != wantEvent {
					t.Errorf("%s: --event %s written: %v, want %v (command %s)", e.Event, tt.event, hasEvent, wantEvent, e.Command)
				}
				if ids[e.ID] {
					t.Errorf("duplicate id %s", e.ID)
				}
				ids[e.ID] = true
			}
		})
	}
}

// TestCappedTimeoutsLeaveTheHookTime covers every event a target caps
// (Codex's SessionEnd: 3 s), from Claude and Gemini, wrapped or not, for
// any timeout the source gives: the host's timeout stays within the cap,
// and a wrapped hook keeps a positive share of it, inside wrap's.
func TestCappedTimeoutsLeaveTheHookTime(t *testing.T) {
	tbl := mappings.Default()
	timeoutFlag := regexp.MustCompile(`--timeout (\S+)`)
	for _, to := range tbl.Dialects {
		for ev, cap := range to.Timeout.MaxPerEvent {
			capSec := cap / unitPerSecond(to)
			for _, fromName := range []string{"claude", "gemini"} {
				from := tbl.MustDialect(fromName)
				if from.Name == to.Name {
					continue
				}
				src := sourceEventFor(tbl, from, to, ev)
				if src == "" {
					continue
				}
				for _, secs := range []float64{0, 1, capSec, 30, 5000} {
					for _, wrap := range []bool{false, true} {
						name := fmt.Sprintf("%s %s to %s %s, %gs, wrap %v", from.Name, src, to.Name, ev, secs, wrap)
						h := map[string]any{"type": "command", "command": "./h.sh"}
						if secs > 0 {
							h["timeout"] = secs * unitPerSecond(from)
						}
						data, _ := json.Marshal(map[string]any{"hooks": map[string]any{src: []any{map[string]any{"hooks": []any{h}}}}})
						res, err := Plan(Options{From: from.Name, To: to.Name, Wrap: wrap, Hookx: "hookx", Margin: 5},
							[]Source{{Path: "s", Data: data}}, Source{Path: "t"})
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if wrap && capSec/2 < 5 && !slices.ContainsFunc(res.Items, func(it Item) bool {
							return it.What == "timeout" && strings.Contains(it.Reason, "before the host's")
						}) {
							t.Errorf("%s: wrap's margin shrank under the cap, and no item says so: %+v", name, res.Items)
						}
						for _, e := range res.Entries {
							if float64(e.Timeout) > cap {
								t.Errorf("%s: host timeout %d over the cap %g", name, e.Timeout, cap)
							}
							if m := timeoutFlag.FindStringSubmatch(e.Command); m != nil {
								d, err := time.ParseDuration(m[1])
								if err != nil || d <= 0 || d.Seconds() >= capSec {
									t.Errorf("%s: wrap --timeout %s; want a positive time under the cap %gs", name, m[1], capSec)
								}
							}
						}
					}
				}
			}
		}
	}
}

// sourceEventFor is the event of from that migrates to the target's event
// ev, or "".
func sourceEventFor(tbl *mappings.Table, from, to *mappings.Dialect, ev string) string {
	for _, e := range from.Events {
		if m, err := tbl.MapEvent(from, to, e.Name); err == nil && m.To != nil && m.To.Name == ev {
			return e.Name
		}
	}
	return ""
}

// TestWrappedGuardFiresOnHostToolsItCannotJudge: a wrapped guard migrated
// to a host whose tools run commands or change files with no counterpart in
// the hook's agent fires for them too, so that hookx wrap blocks them
// (TestActingToolWithNoCounterpartFailsAGuardClosed in translate); the
// report names them. A copied hook (--no-wrap) and a hook of an event that
// guards nothing keep the matcher they had. On b20418e a Claude Bash guard
// on TerminaI fired only for run_terminal_command, and manage_processes ran
// rm -rf ~ unguarded.
func TestWrappedGuardFiresOnHostToolsItCannotJudge(t *testing.T) {
	cmd := map[string]any{"type": "command", "command": "./guard.sh"}
	tests := []struct {
		from, to, event, matcher string
		wrap                     bool
		want                     []string
		blocks                   string // in the report
	}{
		{"claude", "terminai", "PreToolUse", "Bash", true, []string{"BeforeTool=^(run_terminal_command|execute_repl|manage_processes|agent_control)$"},
			"blocks execute_repl (runs commands), manage_processes (runs commands), agent_control (runs commands)"},
		{"claude", "terminai", "PreToolUse", "Write|Edit", true, []string{"BeforeTool=^(write_to_file|file_operations|edit_file)$"}, "blocks file_operations (changes files)"},
		{"claude", "terminai", "PreToolUse", "", true, []string{"BeforeTool=(all)"}, "blocks execute_repl (runs commands), manage_processes (runs commands), file_operations (changes files), agent_control (runs commands)"},
		{"claude", "codex", "PreToolUse", "Bash", true, []string{"PreToolUse=Bash|write_stdin"}, "blocks write_stdin (runs commands)"},
		{"claude", "copilot", "PreToolUse", "Bash", true, []string{"preToolUse=bash|write_bash"}, "blocks write_bash (runs commands)"},
		{"gemini", "claude", "BeforeTool", "run_shell_command", true, []string{"PreToolUse=Bash"}, ""},
		{"gemini", "claude", "BeforeTool", "write_file|replace", true, []string{"PreToolUse=Write|NotebookEdit|Edit"}, "blocks NotebookEdit (changes files)"},
		// A read guard does not guard commands; a PostToolUse hook guards
		// nothing; a copied hook is not wrapped.
		{"claude", "terminai", "PreToolUse", "Read", true, []string{"BeforeTool=^(read_file)$"}, ""},
		{"claude", "terminai", "PostToolUse", "Bash", true, []string{"AfterTool=^(run_terminal_command)$"}, ""},
		{"gemini", "claude", "BeforeTool", "run_shell_command", false, []string{"PreToolUse=Bash"}, ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s→%s %s %s wrap=%v", tt.from, tt.to, tt.event, tt.matcher, tt.wrap), func(t *testing.T) {
			g := map[string]any{"hooks": []any{cmd}}
			if tt.matcher != "" {
				g["matcher"] = tt.matcher
			}
			src, _ := json.Marshal(map[string]any{"hooks": map[string]any{tt.event: []any{g}}})
			res, err := Plan(Options{From: tt.from, To: tt.to, Wrap: tt.wrap, Hookx: "hookx"}, []Source{{Path: "src.json", Data: src}}, Source{Path: "dst.json"})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, matchers(res)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			var blocks []string
			for _, it := range res.Items {
				if strings.HasPrefix(it.What, "blocks ") {
					blocks = append(blocks, it.What)
				}
			}
			want := []string{}
			if tt.blocks != "" {
				want = []string{tt.blocks}
			}
			if diff := cmp.Diff(want, append([]string{}, blocks...)); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
		})
	}
}
