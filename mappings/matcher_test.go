package mappings

import (
	"errors"
	"strings"
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
			if !mustMatch(t, m, n) {
				t.Errorf("%s matcher %q does not match %s; its agent fires it", tc.dialect, tc.matcher, n)
			}
		}
		for _, n := range tc.not {
			if mustMatch(t, m, n) {
				t.Errorf("%s matcher %q matches %s; its agent does not fire it", tc.dialect, tc.matcher, n)
			}
		}
	}
}

// mustMatch is m.Match(n), which must not fail.
func mustMatch(t *testing.T, m *ToolMatcher, n string) bool {
	t.Helper()
	ok, err := m.Match(n)
	if err != nil {
		t.Fatalf("matcher %q on %q: %v", m, n, err)
	}
	return ok
}

// TestToolMatcherReadsJavaScriptOnlyRegexes: lookarounds and
// backreferences, which Go's RE2 cannot read, are evaluated as JavaScript
// reads them, in both dialects.
func TestToolMatcherReadsJavaScriptOnlyRegexes(t *testing.T) {
	tab := Default()
	for _, tc := range []struct {
		dialect, matcher string
		matches, not     []string
	}{
		{"claude", "^(?!Bash$)", []string{"Read", "Edit", "Agent"}, []string{"Bash"}},
		{"claude", "(?<!Multi|Notebook)Edit$", []string{"Edit"}, []string{"MultiEdit", "NotebookEdit"}},
		{"claude", "Ba(?=sh)", []string{"Bash"}, []string{"Read"}},
		{"claude", `^mcp__(\w+)__\1$`, []string{"mcp__db__db"}, []string{"mcp__db__query"}},
		{"claude", `\p{L}`, []string{"p{L}"}, []string{"Read"}}, // no u flag: the letter p
		{"gemini", "^(?!run_shell_command$).*_file$", []string{"read_file", "write_file"}, []string{"run_shell_command"}},
		{"gemini", "(?<=^read_)file", []string{"read_file"}, []string{"write_file"}},
		{"gemini", `\ufeffread_file\ufeff`, nil, []string{"read_file"}}, // an escape, not trimmed
		{"gemini", `\ufeff^read_file$`, nil, []string{"read_file"}},
	} {
		m, err := tab.MustDialect(tc.dialect).ToolMatcher(tc.matcher)
		if err != nil {
			t.Errorf("%s %q: %v", tc.dialect, tc.matcher, err)
			continue
		}
		for _, n := range tc.matches {
			if !mustMatch(t, m, n) {
				t.Errorf("%s matcher %q does not match %s; JavaScript does", tc.dialect, tc.matcher, n)
			}
		}
		for _, n := range tc.not {
			if mustMatch(t, m, n) {
				t.Errorf("%s matcher %q matches %s; JavaScript does not", tc.dialect, tc.matcher, n)
			}
		}
	}
}

// TestToolMatcherTrimsAsJavaScriptDoes: Gemini trims with
// String.prototype.trim, which removes U+FEFF and keeps U+0085.
func TestToolMatcherTrimsAsJavaScriptDoes(t *testing.T) {
	d := Default().MustDialect("gemini")
	for matcher, want := range map[string]bool{"\ufeffread_file": true, "\u0085read_file": false} {
		m, err := d.ToolMatcher(matcher)
		if err != nil {
			t.Fatal(err)
		}
		if got := mustMatch(t, m, "read_file"); got != want {
			t.Errorf("Gemini matcher %q on read_file = %v; want %v", matcher, got, want)
		}
	}
}

// TestToolMatcherRefusesWhatItCannotReadAsJavaScript: a regex JavaScript
// rejects, or reads differently by engine, is an error wrapping ErrMatcher.
func TestToolMatcherRefusesWhatItCannotReadAsJavaScript(t *testing.T) {
	d := Default().MustDialect("claude")
	for _, m := range []string{"(?i)bash", "(?i:b)ash", "Bash(", "^(?:(a)|b)+\\1$", "Bash😀"} {
		if _, err := d.ToolMatcher(m); !errors.Is(err, ErrMatcher) {
			t.Errorf("ToolMatcher(%q) = %v; want an error wrapping ErrMatcher", m, err)
		}
	}
}

// TestMatchFailsWhereTheRegexCannotBeEvaluated: a catastrophic regex on a
// long name, or a name with characters JavaScript reads as two units, is an
// error, and HookTool passes it on so that wrap fails closed.
func TestMatchFailsWhereTheRegexCannotBeEvaluated(t *testing.T) {
	tab := Default()
	claude, gemini := tab.MustDialect("claude"), tab.MustDialect("gemini")
	m, err := claude.ToolMatcher("^(m|c|p|_|[a-z]+)+$")
	if err != nil {
		t.Fatal(err)
	}
	long := "mcp__" + strings.Repeat("abcdefgh", 6) + "__Q"
	if ok, err := m.Match(long); !errors.Is(err, ErrMatcher) || ok {
		t.Errorf("Match(%q) = %v, %v; want false and an error wrapping ErrMatcher", long, ok, err)
	}
	if _, fits, err := tab.HookTool(gemini, claude, "mcp_srv_😀", m); !errors.Is(err, ErrMatcher) || fits {
		t.Errorf("HookTool(an astral name) = fits %v, %v; want false and an error wrapping ErrMatcher", fits, err)
	}
}

// TestHookToolPresentsTheToolTheMatcherNames: where one host tool stands
// for several of the hook's, the hook sees the one its matcher names, with
// that tool's arguments; none fits when it names none.
func TestHookToolPresentsTheToolTheMatcherNames(t *testing.T) {
	tab := Default()
	claude, gemini := tab.MustDialect("claude"), tab.MustDialect("gemini")
	opencode, kilo := tab.MustDialect("opencode"), tab.MustDialect("kilo")
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
		// OpenCode names an MCP tool server_tool: my_server_delete_repo
		// may be my_server's delete_repo, which the guard names, or my's
		// server_delete_repo; the guard runs (under the first split alone
		// it did not, and the call ran unguarded).
		{opencode, claude, "my_server_delete_repo", "mcp__my_server__.*", "mcp__my_server__delete_repo", true, Approximate},
		{opencode, claude, "my_server_delete_repo", "mcp__my_server__delete_repo", "mcp__my_server__delete_repo", true, Approximate},
		{kilo, claude, "my_server_delete_repo", "mcp__my_server__.*", "mcp__my_server__delete_repo", true, Approximate},
		{opencode, claude, "my_server_delete_repo", "mcp__my__.*", "mcp__my__server_delete_repo", true, Approximate},
		{opencode, claude, "github_delete_repo", "mcp__my_server__.*", "", false, None},
		{opencode, claude, "my_server_delete_repo", "", "mcp__my__server_delete_repo", true, Approximate},
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

// TestCodexMatchersAreRustRegexes: Codex reads its matchers with Rust's
// regex crate, which has no look-around (live: "(?=B)Bash" is invalid) and
// reads class set operations JavaScript and RE2 do not.
func TestCodexMatchersAreRustRegexes(t *testing.T) {
	d := Default().MustDialect("codex")
	m, err := d.ToolMatcher("Bas.")
	if err != nil {
		t.Fatal(err)
	}
	if !mustMatch(t, m, "Bash") {
		t.Error(`Codex matcher "Bas." does not match Bash; Codex fires it (live)`)
	}
	for _, bad := range []string{"(?=B)Bash", `(a)\1`, "[a-z&&[^b]]ash", `\p{L}ash`} {
		if _, err := d.ToolMatcher(bad); !errors.Is(err, ErrMatcher) {
			t.Errorf("Codex ToolMatcher(%q) = %v; want an error wrapping ErrMatcher", bad, err)
		}
	}
	if m, err := d.ToolMatcher("(?i)bash"); err != nil || !mustMatch(t, m, "Bash") {
		t.Errorf(`Codex ToolMatcher("(?i)bash") = %v; Rust reads the flag, so it matches Bash`, err)
	}
}
