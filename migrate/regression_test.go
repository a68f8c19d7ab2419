package migrate

// Regression tests for edge cases of planning and writing a migration:
// timeouts, ownership of entries, matchers, commands and their variables,
// switched-off sources, and the target file's links and layout.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// planFor plans the migration of src, one project source, into target.
func planFor(t *testing.T, opts Options, src string, target []byte) *Result {
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

// A huge Claude timeout must not overflow when converted to milliseconds: the
// Gemini timeout written is positive, clamped to what the agents' timers can
// hold.
func TestHugeTimeoutIsClamped(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh","timeout":1e20}]}]}}`
	for _, wrap := range []bool{false, true} {
		res := planFor(t, Options{From: "claude", To: "gemini", Wrap: wrap}, src, nil)
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

// Only entries hookx wrote, by their exact ids, are hookx's own: a user's hook
// whose name or command comment merely starts with "hookx:" is kept, with its
// whole event list.
func TestUserHookNamedLikeHookxIsKept(t *testing.T) {
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
		res := planFor(t, Options{From: "claude", To: "gemini", Wrap: true}, src, target)
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
		res := planFor(t, Options{From: "gemini", To: "claude", Wrap: true}, gsrc, target)
		if !bytes.Contains(res.After, []byte(`npm run lint # hookx:todo`)) {
			t.Errorf("the user's hook was removed (removed ids %q):\n%s", res.Removed, res.After)
		}
	})
}

// A dangling symlink (a dotfile manager's link whose target is not created
// yet) is written through: the link stays and its target is created.
func TestDanglingSymlinkTargetKeepsLink(t *testing.T) {
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
	if err := WriteFile(link, nil, []byte("{}\n")); err != nil {
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

// An MCP matcher with a wildcard server must still match Gemini MCP tool
// names (mcp_<server>_<tool>), where Claude's "__" after the server is a
// single "_": mcp__.*__delete.* matches mcp_github_delete_file, or the
// approximation is reported.
func TestMCPWildcardServerMatcherFiresOrIsReported(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"mcp__.*__delete.*","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	res := planFor(t, Options{From: "claude", To: "gemini"}, src, nil)
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

// With --no-wrap into Claude, the ownership marker " # hookx:<id>" must not
// change what the user's command does. Glued onto a here-doc terminator it
// would keep the here-doc open: the hook's JSON output would get an extra
// line, Claude could not parse it, and the block would be lost.
func TestNoWrapMarkerKeepsHeredocIntact(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	cmd := "cat <<'EOF'\n{\"decision\":\"block\",\"reason\":\"no\"}\nEOF"
	raw, _ := json.Marshal(cmd)
	src := `{"hooks":{"BeforeAgent":[{"hooks":[{"type":"command","command":` + string(raw) + `}]}]}}`
	res := planFor(t, Options{From: "gemini", To: "claude", Wrap: false}, src, nil)
	if len(res.Entries) != 1 {
		t.Fatalf("%d entries", len(res.Entries))
	}
	got := runShell(t, "bash", res.Entries[0].Command) // the entry sets shell: bash
	if want := "{\"decision\":\"block\",\"reason\":\"no\"}\n"; got != want {
		t.Errorf("migrated command %q prints %q, want %q", res.Entries[0].Command, got, want)
	}
}

// Claude substitutes ${CLAUDE_PROJECT_DIR} and ${CLAUDE_PLUGIN_ROOT} in
// exec-form args (CC§7), so the migrated command, one shell command with
// each arg quoted, still gives the hook the substituted values.
func TestExecArgsPlaceholdersAreSubstituted(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo",
		"args":["${CLAUDE_PLUGIN_ROOT}/scripts/x.js","${CLAUDE_PROJECT_DIR}/y"]}]}]}}`
	res := planFor(t, Options{From: "claude", To: "gemini", PluginRoot: "/opt/plug"}, src, nil)
	if len(res.Entries) != 1 {
		t.Fatalf("%d entries", len(res.Entries))
	}
	got := runShell(t, "bash", res.Entries[0].Command, "GEMINI_PROJECT_DIR=/proj", "CLAUDE_PROJECT_DIR=/proj")
	if want := "/opt/plug/scripts/x.js /proj/y\n"; got != want {
		t.Errorf("migrated command %q prints %q, want %q (as Claude would run it)\nreport:\n%s", res.Entries[0].Command, got, want, reportText(res))
	}
}

// Hooks switched off wholesale on the source (Gemini hooksConfig.enabled
// false, Claude disableAllHooks true) never ran there; the report says so,
// since migrated guards that never ran would start blocking on the other
// agent.
func TestGlobalHooksSwitchOffIsReported(t *testing.T) {
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
			res := planFor(t, Options{From: tt.from, To: tt.to}, tt.src, nil)
			if !strings.Contains(reportText(res), tt.key) {
				t.Errorf("%d entries migrated from a source whose hooks are all off, and the report does not mention %s:\n%s",
					len(res.Entries), tt.key, reportText(res))
			}
		})
	}
}

// An agent that expands $VAR in every settings string at load, env values
// included (settings.expandsVars: Gemini CLI, G§8.3; Qwen Code; TerminaI,
// config/settings/loader.ts:152 and env-vars.ts:37-47 at 4b816c7a), gives the
// hook the expanded path, not the literal "$HOME/bin": so does the migrated
// command, on a target whose handlers have no env field. Every other agent
// gives it the literal. Each dialect whose handlers have an env field is
// tried, from the table.
func TestEnvValueIsExpandedAsItsAgentDoes(t *testing.T) {
	tbl := mappings.Default()
	for name, want := range map[string]bool{"gemini": true, "qwen": true, "terminai": true} {
		if got := tbl.MustDialect(name).Settings.ExpandsVars; got != want {
			t.Errorf("%s: settings.expandsVars %v, want %v", name, got, want)
		}
	}
	to := tbl.MustDialect("claude")
	n := 0
	for _, from := range tbl.Dialects {
		ev, _ := from.EventFor("prompt.submit")
		if !from.Settings.Shape.EnvField || to.Settings.Shape.EnvField || ev == nil {
			continue
		}
		n++
		src := `{"hooks":{"` + ev.Name + `":[{"hooks":[{"type":"command","command":"echo \"$TOOLS\"","env":{"TOOLS":"$HOME/bin"}}]}]}}`
		res := planFor(t, Options{From: from.Name, To: to.Name}, src, nil)
		if len(res.Entries) != 1 {
			t.Fatalf("%s: %d entries", from.Name, len(res.Entries))
		}
		got := runShell(t, "bash", res.Entries[0].Command, "HOME=/home/u")
		want := "$HOME/bin\n"
		if from.Settings.ExpandsVars {
			want = "/home/u/bin\n"
		}
		if got != want {
			t.Errorf("%s: migrated command %q prints %q, want %q (what %s gave the hook)", from.Name, res.Entries[0].Command, got, want, from.Agent)
		}
	}
	if n == 0 {
		t.Fatal("no dialect's handlers have an env field")
	}
}

// (?i)bash is not a valid JavaScript regex, so Claude never matches it and
// the hook never fires. Go's RE2 accepts it, but a live Gemini hook on
// run_shell_command would be a widening, so no entry is written.
func TestJSInvalidRegexIsNotWidened(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"(?i)bash","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	res := planFor(t, Options{From: "claude", To: "gemini"}, src, nil)
	if len(res.Entries) != 0 {
		t.Errorf("a Claude hook that can never fire became Gemini entries %v", matchers(res))
	}
}

// New entries take the indentation of the file's JSON, not the " * " of a
// block comment that may be its first indented line.
func TestIndentIgnoresBlockComment(t *testing.T) {
	src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	target := []byte("/*\n * team settings\n */\n{\n  \"ui\": {}\n}\n")
	res := planFor(t, Options{From: "claude", To: "gemini"}, src, target)
	if !bytes.Contains(res.After, []byte("\n    \"BeforeTool\": [")) {
		t.Errorf("new entries are not indented with the file's two spaces:\n%s", res.After)
	}
}

// Claude requires a positive timeout: a zero or negative one is replaced by
// the default, and the report says so.
func TestNonPositiveTimeoutIsReported(t *testing.T) {
	for _, to := range []string{"0", "-3"} {
		src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh","timeout":` + to + `}]}]}}`
		res := planFor(t, Options{From: "claude", To: "gemini"}, src, nil)
		if !strings.Contains(reportText(res), "timeout") {
			t.Errorf("timeout %s became %d ms with no report item:\n%s", to, res.Entries[0].Timeout, reportText(res))
		}
	}
}

// Adding a hookx entry after a user entry with a trailing comment, then
// removing it (the source hook went away), gives back the user's file byte
// for byte, the indentation of its closing bracket included.
func TestRemoveKeepsClosingBracket(t *testing.T) {
	user := `{
  "hooks": {
    "BeforeTool": [
      {"matcher": "glob", "hooks": [{"type": "command", "command": "mine"}]} // keep me
    ]
  }
}
`
	src := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
	res := planFor(t, Options{From: "claude", To: "gemini", Wrap: true}, src, []byte(user))
	res2 := planFor(t, Options{From: "claude", To: "gemini", Wrap: true}, `{"hooks":{}}`, res.After)
	if string(res2.After) != user {
		t.Errorf("adding then removing the hookx entry does not give back the user's file:\nwant:\n%s\ngot:\n%s", user, res2.After)
	}
}

// An env value of an agent that expands $VAR at load (Qwen Code's
// resolveEnvVarsInString, 0.24.4) reaches the hook as that agent gives it
// when migrate moves it into an export prefix: a $NAME or ${NAME} it has a
// value for (even empty) is replaced, every other $ stays as written. The
// shell must not do more: no command substitution the author never wrote
// ($(…) is literal to Qwen), no unknown name emptied, no $1 or $$.
func TestExportedEnvValueExpandsOnlyAsQwenDoes(t *testing.T) {
	env := []string{"HOME=/home/u", "HOOKX_T_EMPTY="}
	for v, want := range map[string]string{
		"$HOME/bin":               "/home/u/bin",
		"${HOME}:x":               "/home/u:x",
		"a${HOOKX_T_EMPTY}b":      "ab",
		"$(touch INJECTED)":       "$(touch INJECTED)",
		"$((1+1))":                "$((1+1))",
		"$HOOKX_T_UNSET/bin":      "$HOOKX_T_UNSET/bin",
		"${HOOKX_T_UNSET}":        "${HOOKX_T_UNSET}",
		"${HOOKX_T_UNSET:-$HOME}": "${HOOKX_T_UNSET:-$HOME}",
		"price $1 and $$ and $@":  "price $1 and $$ and $@",
		"it's \"$HOME\" `x`":      "it's \"/home/u\" `x`",
		"^rm .*$|^sudo":           "^rm .*$|^sudo",
		"":                        "",
	} {
		val, _ := json.Marshal(v)
		src := `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"printf '%s|' \"$V\"","env":{"V":` + string(val) + `}}]}]}}`
		res := planFor(t, Options{From: "qwen", To: "claude"}, src, nil)
		if len(res.Entries) != 1 {
			t.Fatalf("%q: %d entries", v, len(res.Entries))
		}
		dir := t.TempDir()
		for _, sh := range []string{"bash", "sh"} {
			c := exec.Command(sh, "-c", res.Entries[0].Command)
			c.Dir = dir
			c.Env = append(os.Environ(), env...)
			out, _ := c.Output()
			if string(out) != want+"|" {
				t.Errorf("%s: env V %q: migrated command %q prints %q; Qwen Code gives the hook %q", sh, v, res.Entries[0].Command, out, want)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "INJECTED")); err == nil {
			t.Errorf("env V %q: the migrated command ran a command substitution", v)
		}
	}
}
