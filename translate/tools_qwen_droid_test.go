package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The other way from the goldens (Qwen's and Droid's captured payloads for
// a Claude hook): Claude Code's and Gemini CLI's captured search payloads
// reach a Qwen Code or Factory Droid hook under those agents' own tool names
// and argument names, with the values the host's tool uses.
func TestSearchToolsReachQwenAndDroidHooks(t *testing.T) {
	cases := []struct {
		from, payload, to string
		tool              string
		input             map[string]any
	}{
		{"claude", "PreToolUse.Glob.json", "qwen", "glob", map[string]any{"pattern": "**/*.txt", "path": "/home/user/project"}},
		{"claude", "PreToolUse.Glob.json", "droid", "Glob", map[string]any{"patterns": "**/*.txt", "folder": "/home/user/project"}},
		// -n and output_mode have no Qwen counterpart (findings).
		{"claude", "PreToolUse.Grep.json", "qwen", "grep_search", map[string]any{"pattern": "BETA", "path": "/home/user/project", "glob": "*.txt"}},
		{"claude", "PreToolUse.Grep.json", "droid", "Grep", map[string]any{"pattern": "BETA", "path": "/home/user/project", "glob_pattern": "*.txt", "output_mode": "content", "line_numbers": true}},
		{"claude", "PreToolUse.NotebookEdit.json", "qwen", "notebook_edit", map[string]any{"notebook_path": "/home/user/project/nb.ipynb", "cell_id": "cell-1", "new_source": "print('hello')", "cell_type": "code", "edit_mode": "replace"}},
		{"claude", "PreToolUse.ToolSearch.json", "droid", "ToolSearch", map[string]any{"query": "select:TaskCreate,TaskUpdate,NotebookEdit", "max_results": float64(5)}},
		{"gemini", "BeforeTool.glob.json", "droid", "Glob", map[string]any{"patterns": "**/*.txt", "folder": "/home/user/project"}},
		{"gemini", "BeforeTool.grep_search.json", "qwen", "grep_search", map[string]any{"pattern": "BETA", "path": "/home/user/project", "glob": "*.txt"}},
		{"gemini", "BeforeTool.list_directory.json", "droid", "LS", map[string]any{"directory_path": "/home/user/project"}},
	}
	for _, c := range cases {
		t.Run(c.from+"."+c.payload+"-to-"+c.to, func(t *testing.T) {
			in, err := capturedPayload(c.from, c.payload)
			if err != nil {
				t.Fatal(err)
			}
			tr := newTr(t, c.from, c.to)
			tr.Exists = existing("/home/user/project")
			res, err := tr.Event(in)
			if err != nil {
				t.Fatal(err)
			}
			var p struct {
				ToolName  string         `json:"tool_name"`
				ToolInput map[string]any `json:"tool_input"`
			}
			mustJSON(t, res.Payload, &p)
			if p.ToolName != c.tool {
				t.Errorf("the %s hook sees tool %q, want %q", c.to, p.ToolName, c.tool)
			}
			if diff := cmp.Diff(c.input, p.ToolInput); diff != "" {
				t.Errorf("the %s hook's tool_input (-want +got):\n%s\nfindings: %v", c.to, diff, res.Findings)
			}
		})
	}
}

// Factory Droid's Grep output modes are file_paths and content; Claude
// Code's files_with_matches, content and count. Each side sees its own.
func TestDroidGrepOutputModes(t *testing.T) {
	cases := []struct {
		from, to, mode, want string
		finding              string
	}{
		{"droid", "claude", "file_paths", "files_with_matches", ""},
		{"claude", "droid", "files_with_matches", "file_paths", ""},
		{"claude", "droid", "content", "content", ""},
		{"claude", "droid", "count", "", `output_mode "count" has no counterpart`},
	}
	for _, c := range cases {
		t.Run(c.from+"-"+c.mode, func(t *testing.T) {
			input := map[string]any{"pattern": "x", "path": "/p", "output_mode": c.mode}
			in := toolEvent("PreToolUse", "/p", "Grep", input)
			got, res := hookInput(t, newTr(t, c.from, c.to), in)
			if c.want == "" {
				if _, ok := got["output_mode"]; ok {
					t.Errorf("the hook sees output_mode %v, want none", got["output_mode"])
				}
			} else if got["output_mode"] != c.want {
				t.Errorf("the hook sees output_mode %v, want %q", got["output_mode"], c.want)
			}
			var fs []string
			for _, f := range res.Findings {
				fs = append(fs, f.String())
			}
			if c.finding != "" && !strings.Contains(strings.Join(fs, "\n"), c.finding) {
				t.Errorf("no finding says %q: %q", c.finding, fs)
			}
		})
	}
}

// A Droid Glob call with several patterns cannot be shown to a Claude or
// Gemini hook as one glob call: a guard fails closed (the hook would check
// one pattern and the tool would run all), any other hook is told.
func TestDroidGlobWithSeveralPatterns(t *testing.T) {
	input := map[string]any{"patterns": []any{"*.go", ".env"}, "folder": "/p"}
	for _, to := range []string{"claude", "gemini"} {
		if _, err := newTr(t, "droid", to).Event(toolEvent("PreToolUse", "/p", "Glob", input)); err == nil || !strings.Contains(err.Error(), "2 patterns in one call") {
			t.Errorf("to %s: a PreToolUse guard got the call (err %v); it must fail closed", to, err)
		}
	}
	post := toolEvent("PostToolUse", "/p", "Glob", input)
	var p map[string]any
	_ = json.Unmarshal(post, &p)
	p["tool_response"] = "./a.go\n./.env"
	post, _ = json.Marshal(p)
	res, err := newTr(t, "droid", "claude").Event(post)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range res.Findings {
		found = found || strings.Contains(f.String(), "Glob's 2 patterns cannot be expressed as one glob call")
	}
	if !found {
		t.Errorf("no finding says the patterns were not carried: %v", res.Findings)
	}
}

// A failure event's error reaches a Claude-protocol hook as error, never as
// a tool_response, between every pair of agents that have the event (Qwen
// Code's results are Gemini-shaped, its failure event Claude's).
func TestToolFailureCarriesTheError(t *testing.T) {
	for _, pair := range [][2]string{{"qwen", "claude"}, {"claude", "qwen"}, {"qwen", "qwen"}, {"claude", "claude"}} {
		tool := map[string]string{"qwen": "read_file", "claude": "Read"}[pair[0]]
		b, _ := json.Marshal(map[string]any{
			"session_id": "s", "cwd": "/p", "hook_event_name": "PostToolUseFailure",
			"tool_name": tool, "tool_input": map[string]any{"file_path": "/p/missing"},
			"error": "FAIL-TEXT-7", "is_interrupt": false,
		})
		res, err := newTr(t, pair[0], pair[1]).Event(b)
		if err != nil {
			t.Fatalf("%s to %s: %v", pair[0], pair[1], err)
		}
		var p map[string]any
		mustJSON(t, res.Payload, &p)
		if p["error"] != "FAIL-TEXT-7" {
			t.Errorf("%s to %s: the hook's error is %v, want FAIL-TEXT-7: %s", pair[0], pair[1], p["error"], res.Payload)
		}
		if _, ok := p["tool_response"]; ok {
			t.Errorf("%s to %s: the hook gets a tool_response on a failure: %s", pair[0], pair[1], res.Payload)
		}
	}
}

// Factory Droid's Glob trims each pattern (Bun's String.prototype.trim) and
// drops the empty ones before it searches (0.225.2's glob tool): the guard
// must see the glob Droid runs, not " /etc/**" where Droid runs "/etc/**",
// and a list with one real pattern among blanks is that one pattern.
func TestDroidGlobPatternsAsDroidRunsThem(t *testing.T) {
	for _, c := range []struct {
		patterns any
		want     string
	}{
		{" /etc/** ", "/etc/**"},
		{"\uFEFF/etc/**", "/etc/**"},
		{"\t/etc/**\n", "/etc/**"},
		{[]any{" /etc/**"}, "/etc/**"},
		{[]any{"", "/etc/**", "  "}, "/etc/**"},
		{[]any{"\u00A0", "/etc/**\u2028"}, "/etc/**"},
	} {
		input := map[string]any{"patterns": c.patterns, "folder": "/p"}
		got, _ := hookInput(t, newTr(t, "droid", "claude"), toolEvent("PreToolUse", "/p", "Glob", input))
		if got["pattern"] != c.want {
			t.Errorf("patterns %+q: the Claude guard sees pattern %+q (input %v); Droid runs %+q", c.patterns, got["pattern"], got, c.want)
		}
	}
	// Several real patterns among blanks still fail closed.
	input := map[string]any{"patterns": []any{" ", "*.go", ".env "}, "folder": "/p"}
	if _, err := newTr(t, "droid", "claude").Event(toolEvent("PreToolUse", "/p", "Glob", input)); err == nil || !strings.Contains(err.Error(), "2 patterns in one call") {
		t.Errorf("two real patterns among blanks: err %v; the guard must fail closed", err)
	}
}
