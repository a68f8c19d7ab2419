package migrate

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The facts below are read in TerminaI's source (Prof-Harita/terminaI at
// 4b816c7a, paths under packages/core/src/); TerminaI cannot run in CI.

// TerminaI's AfterAgent is not the end of the agent's turn: it fires after
// a turn that ends in tool calls, before they run, with prompt_response
// "[no response text]", never after the final answer (core/client.ts:
// 598-606), and its continue:false starts another turn (client.ts:645-658).
// A Stop hook of Claude Code or Gemini CLI is therefore not written there,
// and a TerminaI AfterAgent hook is not written as another agent's Stop
// hook; the report says why.
func TestTerminaIAfterAgentIsNotAStop(t *testing.T) {
	for _, tt := range []struct{ from, to, event string }{
		{"claude", "terminai", "Stop"},
		{"gemini", "terminai", "AfterAgent"},
		{"qwen", "terminai", "Stop"},
		{"terminai", "claude", "AfterAgent"},
		{"terminai", "gemini", "AfterAgent"},
	} {
		src := `{"hooks":{"` + tt.event + `":[{"hooks":[{"type":"command","command":"./stop.sh"}]}]}}`
		for _, wrap := range []bool{true, false} {
			res := planFor(t, Options{From: tt.from, To: tt.to, Wrap: wrap}, src, nil)
			if len(res.Entries) != 0 {
				t.Errorf("%s %s → %s (wrap %v): written as %s", tt.from, tt.event, tt.to, wrap, res.Entries[0].Event)
			}
			if got := strings.Join(items(res, NotCarried), "; "); !strings.Contains(got, tt.event) ||
				!strings.Contains(reportText(res), "client.ts:598-658") {
				t.Errorf("%s %s → %s (wrap %v): not reported as not carried with the reason:\n%s", tt.from, tt.event, tt.to, wrap, reportText(res))
			}
		}
	}
}

// TerminaI awaits its SessionStart hooks and drops their result
// (core/sessionHookTriggers.ts:27-45): a Claude SessionStart hook still
// runs there, but the context it gives the model is reported not carried.
func TestTerminaISessionStartContextIsNotCarried(t *testing.T) {
	for _, tt := range []struct{ from, event string }{{"claude", "SessionStart"}, {"gemini", "SessionStart"}, {"qwen", "SessionStart"}} {
		src := `{"hooks":{"` + tt.event + `":[{"hooks":[{"type":"command","command":"cat CONTEXT.md"}]}]}}`
		res := planFor(t, Options{From: tt.from, To: "terminai", Wrap: true}, src, nil)
		if len(res.Entries) != 1 {
			t.Fatalf("%s: %d entries, want the hook written (it still runs)", tt.from, len(res.Entries))
		}
		if got := items(res, NotCarried); len(got) != 1 || got[0] != "the context it gives the model" {
			t.Errorf("%s: not carried %q, want the context reported:\n%s", tt.from, got, reportText(res))
		}
	}
	// SessionEnd gives no context anywhere: nothing to report.
	res := planFor(t, Options{From: "claude", To: "terminai", Wrap: true}, `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"./end.sh"}]}]}}`, nil)
	if got := items(res, NotCarried); len(got) != 0 {
		t.Errorf("SessionEnd: not carried %q", got)
	}
}

// TerminaI names an MCP tool by its own (sanitised) name, and
// server__tool only when that name is already taken (tools/mcp-client.ts:
// 916-928, tool-registry.ts:231-235, mcp-tool.ts:250-282, 436-446). A
// migrated Claude MCP matcher fires for both names; server__tool alone
// never matched the tool in the usual case, and the guard stopped
// guarding.
func TestTerminaIMCPMatcherFiresForTheBareName(t *testing.T) {
	for _, tt := range []struct {
		matcher string
		fires   []string // TerminaI tool names the entry must fire for
		approx  string   // in the report
	}{
		{"mcp__github__create_issue", []string{"create_issue", "github__create_issue"}, "without its server"},
		{"mcp__github__.*", []string{"create_issue", "github__create_issue", "list_repos"}, ""},
		{"mcp__github__delete_.*|Bash", []string{"delete_repo", "github__delete_repo", "run_terminal_command"}, ""},
		{"mcp__.*__delete.*", []string{"delete_repo", "gitlab__delete_repo"}, ""},
		{"mcp__my server__do it", []string{"do_it", "my server__do it"}, "without its server"},
		{"mcp__gh__do it.*", []string{"do_it_now", "gh__do it now"}, ""},
	} {
		src := `{"hooks":{"PreToolUse":[{"matcher":"` + tt.matcher + `","hooks":[{"type":"command","command":"./g.sh"}]}]}}`
		res := planFor(t, Options{From: "claude", To: "terminai", Wrap: true}, src, nil)
		if len(res.Entries) != 1 || res.Entries[0].Matcher == nil {
			t.Fatalf("%s: entries %+v\n%s", tt.matcher, res.Entries, reportText(res))
		}
		m := *res.Entries[0].Matcher
		re, err := regexp.Compile(m)
		if err != nil {
			t.Fatalf("%s → %q: %v", tt.matcher, m, err)
		}
		for _, name := range tt.fires {
			if !re.MatchString(name) {
				t.Errorf("%s → %q does not fire for TerminaI's %s", tt.matcher, m, name)
			}
		}
		if tt.approx != "" && !strings.Contains(reportText(res), tt.approx) {
			t.Errorf("%s: the report does not say the bare name is approximate:\n%s", tt.matcher, reportText(res))
		}
	}
}

// terminaiLoadExpand is TerminaI's resolveString (config/settings/
// env-vars.ts:37-47), applied to every settings string at load
// (loader.ts:152): a set variable's value, else the text as written.
func terminaiLoadExpand(s string, env map[string]string) string {
	re := regexp.MustCompile(`\$\{([a-zA-Z_][a-zA-Z0-9_]*)\}|\$([a-zA-Z_][a-zA-Z0-9_]*)`)
	return re.ReplaceAllStringFunc(s, func(m string) string {
		g := re.FindStringSubmatch(m)
		if v, ok := env[g[1]+g[2]]; ok {
			return v
		}
		return m
	})
}

// What migrate writes for TerminaI reaches hookx wrap as the hook's own
// command, byte for byte, though TerminaI expands $NAME and ${NAME} of its
// own environment in it when it loads the settings (loader.ts:152) and then
// replaces its three project-directory names (hooks/hookRunner.ts:358-369):
// every name a command holds is set, to a value that would break out of
// its quotes.
func TestTerminaICommandSurvivesItsLoadExpansion(t *testing.T) {
	hostile := `x'"; touch /tmp/hookx-pwned; echo "'`
	cmds := append(append([]string{}, awkwardCommands...), `"$CLAUDE_PROJECT_DIR"/h.sh`, `${HOME}/h.sh $HOME '$HOME'`, `echo "${TOOLS:-x}" $TERMINAI_PROJECT_DIR`)
	for _, c := range cmds {
		res := planHandler(t, Options{From: "claude", To: "terminai", Wrap: true}, "PreToolUse", map[string]any{"type": "command", "command": c})
		if len(res.Entries) != 1 {
			t.Fatalf("%q: %d entries", c, len(res.Entries))
		}
		env := map[string]string{}
		for _, m := range regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`).FindAllString(res.Entries[0].Command, -1) {
			env[m] = hostile
		}
		text := terminaiLoadExpand(res.Entries[0].Command, env)
		for _, v := range []string{"$TERMINAI_PROJECT_DIR", "$GEMINI_PROJECT_DIR", "$CLAUDE_PROJECT_DIR"} {
			text = strings.ReplaceAll(text, v, "'/p q'")
		}
		out, err := exec.Command("bash", "-c", `hookx() { printf %s "${@: -1}"; }; `+text).Output()
		if err != nil || string(out) != c {
			t.Errorf("%q: written %q, TerminaI runs %q, which hands wrap %q (%v)", c, res.Entries[0].Command, text, out, err)
		}
	}
}

// geminiLoadExpand is Gemini CLI's resolveEnvVarsInString (gemini.jsonc's
// header): a set variable's value, else ${NAME:-default}'s default, else
// the text as written.
func geminiLoadExpand(s string, env map[string]string) string {
	re := regexp.MustCompile(`\$(?:(\w+)|\{([^}]+?)(?::-([^}]*))?\})`)
	return re.ReplaceAllStringFunc(s, func(m string) string {
		g := re.FindStringSubmatch(m)
		if v, ok := env[g[1]+g[2]]; ok {
			return v
		}
		if strings.Contains(m, ":-") {
			return g[3]
		}
		return m
	})
}

// Copied as it is (--no-wrap) to an agent that expands $NAME and ${NAME} in
// its settings when it loads them (TerminaI: loader.ts:152; Gemini CLI),
// a command prints what it printed under Claude Code, with a value that
// would break out of its quotes in the environment: the shell expands the
// names, as under Claude, and the agent leaves the text alone.
func TestNoWrapCommandSurvivesLoadExpansion(t *testing.T) {
	hostile := `x'"; echo PWNED; echo "'`
	env := map[string]string{"V": hostile, "HOME": hostile}
	for _, tt := range []struct {
		to     string
		expand func(string, map[string]string) string
	}{{"terminai", terminaiLoadExpand}, {"gemini", geminiLoadExpand}} {
		for _, c := range []string{
			`echo "$V" '$V' $V ${V} "${V}"`,
			`echo "$(printf %s "$V")" x${V}y`,
			`f() { echo "$1-$V"; }; f a`,
			`echo '${V}' "'$V'"`,
			`echo \$V "\$V" \\$V "\\${V}"`,
		} {
			res := planHandler(t, Options{From: "claude", To: tt.to}, "UserPromptSubmit", map[string]any{"type": "command", "command": c})
			if len(res.Entries) != 1 {
				t.Fatalf("%s %q: %d entries", tt.to, c, len(res.Entries))
			}
			text := tt.expand(res.Entries[0].Command, env)
			want := runShell(t, "bash", c, "V="+hostile, "HOME="+hostile)
			if got := runShell(t, "bash", text, "V="+hostile, "HOME="+hostile); got != want || strings.Contains(got, "PWNED\n") {
				t.Errorf("%s: %q written %q, run as %q, prints %q, want %q", tt.to, c, res.Entries[0].Command, text, got, want)
			}
		}
	}
}
