package mappings

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestEmbeddedTableLoads(t *testing.T) {
	if _, err := Load(dataFS, "data"); err != nil {
		t.Fatal(err)
	}
}

// TestPairsAreInverse checks that every exact or approximate event and
// primary tool mapping comes back to where it started.
func TestPairsAreInverse(t *testing.T) {
	tab := Default()
	for _, from := range tab.Dialects {
		for _, to := range tab.Dialects {
			if from == to {
				continue
			}
			for _, e := range from.Events {
				m, err := tab.MapEvent(from, to, e.Name)
				if err != nil {
					t.Fatal(err)
				}
				if m.To == nil {
					if m.Note == "" {
						t.Errorf("%s→%s: event %s has no counterpart and no reason", from.Name, to.Name, e.Name)
					}
					continue
				}
				back, err := tab.MapEvent(to, from, m.To.Name)
				if err != nil {
					t.Fatal(err)
				}
				// An event reached through "also" (PostToolUseFailure →
				// AfterTool) comes back as the primary one.
				if back.To == nil || (back.To.Name != e.Name && m.To.Canonical == e.Canonical) {
					t.Errorf("%s→%s: event %s → %s → %v", from.Name, to.Name, e.Name, m.To.Name, back.To)
				}
			}
			for _, tool := range from.Tools {
				m, err := tab.MapTool(from, to, tool.Name)
				if err != nil {
					t.Fatal(err)
				}
				if m.To == nil {
					if m.Note == "" {
						t.Errorf("%s→%s: tool %s has no counterpart and no reason", from.Name, to.Name, tool.Name)
					}
					continue
				}
				back, err := tab.MapTool(to, from, m.Name)
				if err != nil {
					t.Fatal(err)
				}
				// A tool reached through another's "also" (Write →
				// apply_patch) comes back as that tool's primary one.
				if !tool.Legacy && back.Name != tool.Name && m.To.Canonical == tool.Canonical {
					t.Errorf("%s→%s: tool %s → %s → %s", from.Name, to.Name, tool.Name, m.Name, back.Name)
				}
				for arg, canon := range tool.Fields {
					if targetArg, ok := m.To.ArgFor(canon); ok {
						if backArg, ok := tool.ArgFor(canon); !ok || backArg != arg {
							t.Errorf("%s.%s → %s.%s does not come back", tool.Name, arg, m.To.Name, targetArg)
						}
					}
				}
			}
		}
	}
}

// TestKnownFacts pins the facts the reference says must never be wrong.
func TestKnownFacts(t *testing.T) {
	tab := Default()
	c, g := tab.MustDialect("claude"), tab.MustDialect("gemini")
	tools := map[string]string{
		"Bash": "run_shell_command", "Edit": "replace", "Grep": "grep_search", "LS": "list_directory",
		"Read": "read_file", "Write": "write_file", "Glob": "glob", "MultiEdit": "replace", "Task": "invoke_agent",
	}
	for from, want := range tools {
		m, err := tab.MapTool(c, g, from)
		if err != nil || m.Name != want {
			t.Errorf("%s → %q (%v), want %s", from, m.Name, err, want)
		}
	}
	for from, want := range map[string]string{"search_file_content": "Grep", "list_directory": "", "mcp_tiny_echo": "mcp__tiny__echo"} {
		m, err := tab.MapTool(g, c, from)
		if err != nil || m.Name != want {
			t.Errorf("%s → %q (%v), want %q", from, m.Name, err, want)
		}
	}
	for _, name := range []string{"grep", "ls", "edit_file", "save_memory", "read_many_files"} {
		if g.Tool(name) != nil {
			t.Errorf("gemini has no tool %q in 0.61.0", name)
		}
	}
	if c.Timeout.Unit != "s" || c.Timeout.Default != 600 || c.Timeout.PerEvent["UserPromptSubmit"] != 30 {
		t.Errorf("claude timeouts: %+v", c.Timeout)
	}
	if g.Timeout.Unit != "ms" || g.Timeout.Default != 60000 {
		t.Errorf("gemini timeouts: %+v", g.Timeout)
	}
	if got := tab.MapValue(c.Event("SessionStart"), g.Event("SessionStart"), "source", "fork", true); got.Mark != None {
		t.Errorf("a matcher must never widen fork to resume: %+v", got)
	}
	if got := tab.MapValue(c.Event("SessionStart"), g.Event("SessionStart"), "source", "fork", false); got.Value != "resume" {
		t.Errorf("payload fork → %+v, want resume", got)
	}
	if got := tab.MapValue(g.Event("SessionEnd"), c.Event("SessionEnd"), "reason", "exit", false); got.Value != "other" {
		t.Errorf("exit → %+v, want other", got)
	}
	if g.Event("PreCompress").Output.Block != "none" {
		t.Error("Gemini cannot block PreCompress")
	}
	if c.Event("Stop").Output.BlockCap != 8 {
		t.Error("Claude honours 8 consecutive Stop blocks")
	}
}

// TestValidationReportsEveryProblem feeds a broken table and expects one
// error per problem, joined.
func TestValidationReportsEveryProblem(t *testing.T) {
	canon, _ := dataFS.ReadFile("data/canonical.jsonc")
	fsys := fstest.MapFS{
		"d/canonical.jsonc": {Data: canon},
		"d/x.jsonc": {Data: []byte(`{"name":"x","protocol":"nope","timeout":{"unit":"h"},"defaultResponse":"geminiText",
			"events":[{"name":"A","canonical":"tool.before","matcher":"tool"},{"name":"A","canonical":"no.such","matcher":"sometimes"}],
			"tools":[{"name":"t"}],
			"transcript":{"tools":{"exec":{"name":"nope"},"patch":{"name":"t","input":"command","fields":{"a":"b"}}}}}`)},
	}
	_, err := Load(fsys, "d")
	if err == nil {
		t.Fatal("broken table loaded")
	}
	for _, want := range []string{`unknown protocol "nope"`, `timeout unit "h"`, `event "A" listed twice`, `unknown canonical event "no.such"`,
		`matcher kind "sometimes"`, `tool t has neither`, `canonical event "tool.after" is neither mapped nor listed`,
		`transcript.tools without a transcript.format`, `transcript.tools[exec]: "nope" is not one of its tools`,
		`transcript.tools[patch]: input and fields exclude each other`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
	fsys["d/x.jsonc"] = &fstest.MapFile{Data: []byte(`{"name":"x","surprise":1}`)}
	if _, err := Load(fsys, "d"); err == nil || !strings.Contains(err.Error(), "surprise") {
		t.Errorf("unknown key not rejected: %v", err)
	}
}

// TestGuardEvents pins the events on which hookx's own failure blocks: the
// ones that guard a tool call or a prompt, and only those.
func TestGuardEvents(t *testing.T) {
	tab := Default()
	var got []string
	for _, d := range tab.Dialects {
		for _, e := range d.Events {
			if e.Output.Guard {
				got = append(got, d.Name+"."+e.Name)
			}
		}
	}
	want := "claude.PreToolUse claude.UserPromptSubmit cline.PreToolUse codex.PreToolUse codex.UserPromptSubmit copilot.preToolUse copilot.userPromptSubmitted crush.PreToolUse droid.PreToolUse droid.UserPromptSubmit gemini.BeforeTool gemini.BeforeAgent kilo.tool.execute.before kilo.chat.message opencode.tool.execute.before opencode.chat.message pi.tool_call pi.input qwen.PreToolUse qwen.UserPromptSubmit terminai.BeforeTool terminai.BeforeAgent"
	if strings.Join(got, " ") != want {
		t.Errorf("guard events %v, want %s", got, want)
	}
	for name, want := range map[string]string{"BeforeTool": "gemini", "PreToolUse": "claude", "AfterAgent": "gemini", "Nope": ""} {
		got := ""
		if d := tab.EventOwner(name); d != nil {
			got = d.Name
		}
		if got != want {
			t.Errorf("EventOwner(%s) = %q, want %q", name, got, want)
		}
	}
	if d := tab.EventOwner("SessionStart"); d == nil {
		t.Error("EventOwner(SessionStart) = nil; both agents have it")
	}
}

// Claude Code backgrounds a hook whose first line is {"async":true}, for
// asyncTimeout ms or 15 s ("asyncTimeout || 15000"); Gemini CLI has no such
// acknowledgement.
func TestAsyncAckBound(t *testing.T) {
	tbl := Default()
	claude, _ := tbl.Dialect("claude")
	gemini, _ := tbl.Dialect("gemini")
	if gemini.AsyncAck != nil {
		t.Errorf("Gemini CLI has an async acknowledgement in the table: %+v", gemini.AsyncAck)
	}
	tests := []struct {
		ack   string
		bound time.Duration
		ok    bool
	}{
		{`{"async":true}`, 15 * time.Second, true},
		{`{"async":true,"asyncTimeout":2500}`, 2500 * time.Millisecond, true},
		{`{"async":true,"asyncTimeout":0}`, 15 * time.Second, true},
		{`{"async":true,"asyncTimeout":"9"}`, 15 * time.Second, true},
		{`{"async":false}`, 0, false},
		{`{"async":"true"}`, 0, false},
		{`{"async":1}`, 0, false},
		{`{"decision":"block"}`, 0, false},
		{`not json`, 0, false},
	}
	for _, tt := range tests {
		bound, ok := claude.AsyncAck.Bound([]byte(tt.ack))
		if bound != tt.bound || ok != tt.ok {
			t.Errorf("Bound(%s) = %v, %v; want %v, %v", tt.ack, bound, ok, tt.bound, tt.ok)
		}
	}
}

// TestExitsAreValidated: an exit code with an effect of its own is a code
// from 1 to 255 but 2, with an effect the Claude family's reader gives and
// the event can have, in a dialect of that family.
func TestExitsAreValidated(t *testing.T) {
	for _, c := range []struct{ output, want string }{
		{`{"block":"deny","stop":true,"exits":{"3":"stop"}}`, ""},
		{`{"block":"deny","exits":{"03":"block"}}`, `"03" is no exit code`},
		{`{"block":"deny","exits":{"256":"block"}}`, `"256" is no exit code`},
		{`{"block":"deny","exits":{"2":"block"}}`, "exit 2 is the protocol's own block"},
		{`{"block":"deny","exits":{"3":"abort"}}`, `"abort" is not one of`},
		{`{"block":"none","exits":{"3":"block"}}`, "block on an event that cannot block"},
		{`{"block":"deny","exits":{"3":"stop"}}`, "stop on an event where the agent cannot stop"},
		{`{"block":"deny","context":"none","exits":{"1":"context"}}`, "context on an event whose context does not reach the model"},
	} {
		var o Output
		if err := json.Unmarshal([]byte(c.output), &o); err != nil {
			t.Fatal(err)
		}
		err := o.validate("x")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.output, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one saying %q", c.output, err, c.want)
		}
	}
	// Another family's reader would not read them.
	canon, _ := dataFS.ReadFile("data/canonical.jsonc")
	fsys := fstest.MapFS{
		"d/canonical.jsonc": {Data: canon},
		"d/x.jsonc": {Data: []byte(`{"name":"x","protocol":"gemini","timeout":{"unit":"ms"},
			"events":[{"name":"A","canonical":"tool.before","matcher":"tool","output":{"block":"deny","stop":true,"exits":{"3":"stop"}}}]}`)},
	}
	if _, err := Load(fsys, "d"); err == nil || !strings.Contains(err.Error(), "output.exits is read only for the claude protocol") {
		t.Errorf("exits in a gemini dialect: %v", err)
	}
}
