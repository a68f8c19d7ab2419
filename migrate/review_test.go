package migrate

// Review tests for hookx migrate: each one fails on the current code and
// names the defect it demonstrates.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func reviewPlan(t *testing.T, opts Options, src string, target []byte) *Result {
	t.Helper()
	if opts.Wrap && opts.Hookx == "" {
		opts.Hookx = "hookx"
	}
	res, err := Plan(opts, []Source{{Path: "src.json", Scope: "project", Data: []byte(src)}}, Source{Path: "dst.json", Data: target})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	return res
}

func reportText(res *Result) string {
	var b strings.Builder
	for _, it := range res.Items {
		b.WriteString(string(it.Level) + " " + it.What + " " + it.Reason + "\n")
	}
	return b.String()
}

// runShell runs a migrated (unwrapped) command the way the host would.
func runShell(t *testing.T, shell, cmd string, env ...string) string {
	t.Helper()
	c := exec.Command(shell, "-c", cmd)
	c.Env = append(os.Environ(), env...)
	c.Stdin = strings.NewReader("{}")
	out, err := c.Output()
	if err != nil {
		t.Logf("%s -c: %v", shell, err)
	}
	return string(out)
}

// A huge Claude timeout overflows int64 when converted to milliseconds and
// is written as a negative Gemini timeout.
func TestReviewHugeTimeoutOverflows(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh","timeout":1e20}]}]}}`
	for _, wrap := range []bool{false, true} {
		res := reviewPlan(t, Options{From: "claude", To: "gemini", Wrap: wrap}, src, nil)
		if len(res.Entries) != 1 {
			t.Fatalf("wrap=%v: %d entries, want 1", wrap, len(res.Entries))
		}
		if got := res.Entries[0].Timeout; got <= 0 {
			t.Errorf("wrap=%v: Gemini timeout %d ms written for a 1e20 s Claude timeout; want a positive value (or a refusal/report)", wrap, got)
		}
		if bytes.Contains(res.After, []byte(`"timeout": -`)) {
			t.Errorf("wrap=%v: negative timeout in the written file:\n%s", wrap, res.After)
		}
	}
}

// A user's own hook whose name merely starts with "hookx:" is taken for a
// hookx-owned entry and deleted (with its whole event list).
func TestReviewUserHookNamedLikeHookxKept(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	t.Run("gemini name", func(t *testing.T) {
		target := []byte(`{
  "hooks": {
    "AfterTool": [
      {"hooks": [{"name": "hookx: log every tool", "type": "command", "command": "./log.sh"}]}
    ]
  }
}
`)
		res := reviewPlan(t, Options{From: "claude", To: "gemini", Wrap: true}, src, target)
		if !bytes.Contains(res.After, []byte(`"name": "hookx: log every tool"`)) {
			t.Errorf("the user's hook was removed (removed ids %q):\n%s", res.Removed, res.After)
		}
	})
	t.Run("claude command comment", func(t *testing.T) {
		gsrc := `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
		target := []byte(`{
  "hooks": {
    "PostToolUse": [
      {"hooks": [{"type": "command", "command": "npm run lint # hookx:todo"}]}
    ]
  }
}
`)
		res := reviewPlan(t, Options{From: "gemini", To: "claude", Wrap: true}, gsrc, target)
		if !bytes.Contains(res.After, []byte(`npm run lint # hookx:todo`)) {
			t.Errorf("the user's hook was removed (removed ids %q):\n%s", res.Removed, res.After)
		}
	})
}

// A dangling symlink (a dotfile manager's link whose target is not created
// yet) is replaced by a regular file instead of being written through.
func TestReviewDanglingSymlinkTargetKeepsLink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dots", "gemini.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ".gemini", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../dots/gemini.json", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symlink (mode %v); the link should be kept and its target written", link, fi.Mode())
	}
	if _, err := os.Stat(real); err != nil {
		t.Errorf("the link target was not written: %v", err)
	}
}

// An MCP matcher with a wildcard server keeps Claude's "__" separator after
// the server: mcp__.*__delete.* becomes ^(mcp_.*__delete.*)$, which no
// Gemini MCP tool name (mcp_<server>_<tool>) matches, and nothing is reported.
func TestReviewMCPWildcardServerMatcher(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"mcp__.*__delete.*","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	res := reviewPlan(t, Options{From: "claude", To: "gemini"}, src, nil)
	if len(res.Entries) != 1 || res.Entries[0].Matcher == nil {
		t.Fatalf("entries %v", matchers(res))
	}
	m := *res.Entries[0].Matcher
	fires := regexp.MustCompile(m).MatchString("mcp_github_delete_file")
	reported := res.Count(NotCarried)+res.Count(Approximate) > 0
	if !fires && !reported {
		t.Errorf("Gemini matcher %q never matches mcp_github_delete_file (Claude's mcp__github__delete_file), and nothing is reported:\n%s", m, reportText(res))
	}
}

// With --no-wrap into Claude, the ownership marker " # hookx:<id>" is glued
// onto the last line of the user's command. When that line is a here-doc
// terminator, the here-doc no longer ends: the hook's JSON output gets an
// extra line, Claude cannot parse it, and the block is lost.
func TestReviewNoWrapMarkerBreaksHeredoc(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	cmd := "cat <<'EOF'\n{\"decision\":\"block\",\"reason\":\"no\"}\nEOF"
	raw, _ := json.Marshal(cmd)
	src := `{"hooks":{"BeforeAgent":[{"hooks":[{"type":"command","command":` + string(raw) + `}]}]}}`
	res := reviewPlan(t, Options{From: "gemini", To: "claude", Wrap: false}, src, nil)
	if len(res.Entries) != 1 {
		t.Fatalf("%d entries", len(res.Entries))
	}
	got := runShell(t, "bash", res.Entries[0].Command) // the entry sets shell: bash
	if want := "{\"decision\":\"block\",\"reason\":\"no\"}\n"; got != want {
		t.Errorf("migrated command %q prints %q, want %q", res.Entries[0].Command, got, want)
	}
}

// Claude substitutes ${CLAUDE_PROJECT_DIR} and ${CLAUDE_PLUGIN_ROOT} in
// exec-form args (CC§7). hookx single-quotes each arg and then skips
// single-quoted text when rewriting variables, so the hook receives the
// literal placeholder, and nothing is reported.
func TestReviewExecArgsPlaceholders(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo",
		"args":["${CLAUDE_PLUGIN_ROOT}/scripts/x.js","${CLAUDE_PROJECT_DIR}/y"]}]}]}}`
	res := reviewPlan(t, Options{From: "claude", To: "gemini", PluginRoot: "/opt/plug"}, src, nil)
	if len(res.Entries) != 1 {
		t.Fatalf("%d entries", len(res.Entries))
	}
	got := runShell(t, "bash", res.Entries[0].Command, "GEMINI_PROJECT_DIR=/proj", "CLAUDE_PROJECT_DIR=/proj")
	if want := "/opt/plug/scripts/x.js /proj/y\n"; got != want {
		t.Errorf("migrated command %q prints %q, want %q (as Claude would run it)\nreport:\n%s", res.Entries[0].Command, got, want, reportText(res))
	}
}

// Hooks switched off wholesale on the source (Gemini hooksConfig.enabled
// false, Claude disableAllHooks true) are migrated as live hooks without a
// word: guards that never ran start blocking on the other agent.
func TestReviewGlobalHooksSwitchOff(t *testing.T) {
	tests := []struct{ name, from, to, src, key string }{
		{"gemini hooksConfig.enabled", "gemini", "claude",
			`{"hooksConfig":{"enabled":false},"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"type":"command","command":"./g.sh"}]}]}}`,
			"enabled"},
		{"claude disableAllHooks", "claude", "gemini",
			`{"disableAllHooks":true,"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh"}]}]}}`,
			"disableAllHooks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := reviewPlan(t, Options{From: tt.from, To: tt.to}, tt.src, nil)
			if !strings.Contains(reportText(res), tt.key) {
				t.Errorf("%d entries migrated from a source whose hooks are all off, and the report does not mention %s:\n%s",
					len(res.Entries), tt.key, reportText(res))
			}
		})
	}
}

// Gemini expands $VAR in every settings string at load, env values included
// (G§8.3). hookx writes a Gemini env value with a variable as a single-quoted
// literal, so the hook sees "$HOME/bin" instead of the expanded path.
func TestReviewGeminiEnvValueExpanded(t *testing.T) {
	src := `{"hooks":{"BeforeAgent":[{"hooks":[{"type":"command","command":"echo \"$TOOLS\"","env":{"TOOLS":"$HOME/bin"}}]}]}}`
	res := reviewPlan(t, Options{From: "gemini", To: "claude"}, src, nil)
	if len(res.Entries) != 1 {
		t.Fatalf("%d entries", len(res.Entries))
	}
	got := runShell(t, "bash", res.Entries[0].Command, "HOME=/home/u")
	if want := "/home/u/bin\n"; got != want {
		t.Errorf("migrated command %q prints %q, want %q (what Gemini gave the hook)", res.Entries[0].Command, got, want)
	}
}

// (?i)bash is not a valid JavaScript regex, so Claude never matches it and
// the hook never fires; Go's RE2 accepts it, and hookx turns it into a live
// Gemini hook on run_shell_command: a widening.
func TestReviewJSInvalidRegexNotWidened(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"(?i)bash","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	res := reviewPlan(t, Options{From: "claude", To: "gemini"}, src, nil)
	if len(res.Entries) != 0 {
		t.Errorf("a Claude hook that can never fire became Gemini entries %v", matchers(res))
	}
}

// detectIndent takes the first indented line of the file, which may be the
// " * " of a block comment: new entries are then indented by one space.
func TestReviewIndentIgnoresBlockComment(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	target := []byte("/*\n * team settings\n */\n{\n  \"ui\": {}\n}\n")
	res := reviewPlan(t, Options{From: "claude", To: "gemini"}, src, target)
	if !bytes.Contains(res.After, []byte("\n    \"BeforeTool\": [")) {
		t.Errorf("new entries are not indented with the file's two spaces:\n%s", res.After)
	}
}

// A non-positive Claude timeout (Claude requires a positive number) is
// silently replaced by the 600 s default; nothing is reported.
func TestReviewNonPositiveTimeoutReported(t *testing.T) {
	for _, to := range []string{"0", "-3"} {
		src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh","timeout":` + to + `}]}]}}`
		res := reviewPlan(t, Options{From: "claude", To: "gemini"}, src, nil)
		if !strings.Contains(reportText(res), "timeout") {
			t.Errorf("timeout %s became %d ms with no report item:\n%s", to, res.Entries[0].Timeout, reportText(res))
		}
	}
}

// Adding a hookx entry after a user entry with a trailing comment, then
// removing it (the source hook went away), re-indents the user's closing
// bracket: the file does not come back byte for byte.
func TestReviewRemoveKeepsClosingBracket(t *testing.T) {
	user := `{
  "hooks": {
    "BeforeTool": [
      {"matcher": "glob", "hooks": [{"type": "command", "command": "mine"}]} // keep me
    ]
  }
}
`
	src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	res := reviewPlan(t, Options{From: "claude", To: "gemini", Wrap: true}, src, []byte(user))
	res2 := reviewPlan(t, Options{From: "claude", To: "gemini", Wrap: true}, `{"hooks":{}}`, res.After)
	if string(res2.After) != user {
		t.Errorf("adding then removing the hookx entry does not give back the user's file:\nwant:\n%s\ngot:\n%s", user, res2.After)
	}
}
