package mappings

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestToolMatcherReadsAMatcherAsItsOwnAgentDoes pins each dialect's matcher
// rules (CC§6, GC§7): Claude's exact lists and alias resolution, Gemini's
// unanchored regexes over tool_name only, trimmed.
func TestToolMatcherReadsAMatcherAsItsOwnAgentDoes(t *testing.T) {
	tab := Default()
	for _, tc := range []struct {
		dialect, matcher string
		matches, not     []string
	}{
		{"claude", "Read|LS", []string{"Read", "LS"}, []string{"ReadMcpResourceTool", "list_directory"}},
		{"claude", "Edit", []string{"Edit"}, []string{"MultiEdit", "NotebookEdit"}},
		{"claude", "Edit.*", []string{"Edit", "MultiEdit", "NotebookEdit"}, []string{"Write"}}, // a regex, tested unanchored
		{"claude", "^Edit", []string{"Edit"}, []string{"MultiEdit"}},
		{"claude", ".*Edit", []string{"Edit", "MultiEdit", "NotebookEdit"}, []string{"Write"}},
		// Claude resolves a legacy alias before matching; tool_name stays Agent.
		{"claude", "Task", []string{"Agent"}, []string{"TaskCreate"}},
		{"claude", "^Task$", []string{"Agent"}, []string{"TaskCreate"}},
		{"claude", "KillShell, Bash", []string{"TaskStop", "Bash"}, []string{"Monitor"}},
		{"claude", "mcp__memory", nil, []string{"mcp__memory__create"}}, // an exact name
		{"claude", "mcp__memory__.*", []string{"mcp__memory__create"}, []string{"mcp__memoryx__create"}},
		{"claude", "*", []string{"Bash", "anything"}, nil},
		{"gemini", "grep", []string{"grep_search"}, []string{"glob"}},
		{"gemini", "ls", nil, []string{"list_directory"}},
		// Gemini matches tool_name only: the old name never fires.
		{"gemini", "search_file_content", nil, []string{"grep_search"}},
		{"gemini", " read_file ", []string{"read_file"}, []string{"write_file"}},
		{"gemini", "", []string{"replace"}, nil},
	} {
		d := tab.MustDialect(tc.dialect)
		m, err := d.ToolMatcher(tc.matcher)
		if err != nil {
			t.Errorf("%s %q: %v", tc.dialect, tc.matcher, err)
			continue
		}
		for _, n := range tc.matches {
			if !m.Matches(n) {
				t.Errorf("%s matcher %q does not match %s; its agent fires it", tc.dialect, tc.matcher, n)
			}
		}
		for _, n := range tc.not {
			if m.Matches(n) {
				t.Errorf("%s matcher %q matches %s; its agent does not fire it", tc.dialect, tc.matcher, n)
			}
		}
	}
}

func TestToolMatcherRefusesWhatGoCannotReadAsJavaScript(t *testing.T) {
	d := Default().MustDialect("claude")
	for _, m := range []string{"(?i)bash", `\ABash`, "Ba(?=sh)"} {
		if _, err := d.ToolMatcher(m); err == nil {
			t.Errorf("ToolMatcher(%q) = nil error; want one: Go would read it differently from JavaScript, or not at all", m)
		}
	}
}

// TestHookToolPresentsTheToolTheMatcherNames: where one host tool stands
// for several of the hook's, the hook sees the one its matcher names, with
// that tool's arguments; none fits when it names none.
func TestHookToolPresentsTheToolTheMatcherNames(t *testing.T) {
	tab := Default()
	claude, gemini := tab.MustDialect("claude"), tab.MustDialect("gemini")
	for _, tc := range []struct {
		host          *Dialect
		hook          *Dialect
		tool, matcher string
		want          string
		fits          bool
		wantMark      Mark
	}{
		{gemini, claude, "list_directory", "Read|LS", "LS", true, Approximate},
		{gemini, claude, "list_directory", "", "LS", true, Approximate},
		{gemini, claude, "list_directory", "Read", "", false, None},
		{gemini, claude, "replace", "Edit|MultiEdit", "Edit", true, Approximate},
		{gemini, claude, "replace", "MultiEdit", "MultiEdit", true, Approximate},
		{gemini, claude, "run_shell_command", "PowerShell", "PowerShell", true, Approximate},
		{gemini, claude, "run_shell_command", "Bash|PowerShell", "Bash", true, Exact},
		{gemini, claude, "invoke_agent", "Task", "Agent", true, Approximate},
		{claude, gemini, "Grep", "search_file_content", "grep_search", false, Approximate},
		{claude, gemini, "Grep", "grep", "grep_search", true, Approximate},
		{claude, gemini, "mcp__srv_x__create", "mcp_srv_x_.*", "mcp_srv_x_create", true, Exact},
	} {
		var m *ToolMatcher
		if tc.matcher != "" {
			var err error
			if m, err = tc.hook.ToolMatcher(tc.matcher); err != nil {
				t.Fatal(err)
			}
		}
		got, fits, err := tab.HookTool(tc.host, tc.hook, tc.tool, m)
		if err != nil {
			t.Fatal(err)
		}
		if fits != tc.fits || (fits && (got.Name != tc.want || got.Mark != tc.wantMark)) {
			t.Errorf("HookTool(%s %s, %s matcher %q) = %s (%s), fits %v; want %s (%s), fits %v",
				tc.host.Name, tc.tool, tc.hook.Name, tc.matcher, got.Name, got.Mark, fits, tc.want, tc.wantMark, tc.fits)
		}
	}
}

func TestToolsForListsThePrimaryToolFirst(t *testing.T) {
	var got []string
	for _, tool := range Default().MustDialect("claude").ToolsFor("edit") {
		got = append(got, tool.Name)
	}
	if diff := cmp.Diff([]string{"Edit", "MultiEdit"}, got); diff != "" {
		t.Errorf("ToolsFor(edit) (-want +got):\n%s", diff)
	}
}
