package migrate

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// planHandler migrates one handler of event and returns the result.
func planHandler(t *testing.T, opts Options, event string, handler map[string]any) *Result {
	t.Helper()
	if opts.Hookx == "" {
		opts.Hookx = "hookx"
	}
	src, _ := json.Marshal(map[string]any{"hooks": map[string]any{event: []any{map[string]any{"hooks": []any{handler}}}}})
	res, err := Plan(opts, []Source{{Path: "s.json", Data: src}}, Source{Path: "t.json"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func items(res *Result, l Level) []string {
	var out []string
	for _, it := range res.Items {
		if it.Level == l {
			out = append(out, it.What)
		}
	}
	return out
}

// Text a host substitutes never reaches a wrapped command: the entry holds
// no $NAME, ${…} or $GEMINI_…, and the host's shell still hands wrap the
// original command, byte for byte.
func TestHostQuoteHidesEveryNameFromHosts(t *testing.T) {
	for _, s := range append(awkwardCommands, `"$CLAUDE_PROJECT_DIR"/x`, `${CLAUDE_PLUGIN_ROOT}/a`, `$1 $_ ${#x} $'$HOME'`,
		`it's $GEMINI_PROJECT_DIR`, `$`, `a$`, `$$ $? $( echo )`, `'$X'`) {
		q := HostQuote(s)
		if loadExpanded().MatchString(q) || strings.Contains(q, "${") {
			t.Errorf("HostQuote(%q) = %q still holds a name a host expands", s, q)
		}
		for _, sh := range []string{"sh", "bash"} {
			out, err := exec.Command(sh, "-c", "printf %s "+q).Output()
			if err != nil || string(out) != s {
				t.Errorf("%s read HostQuote(%q) = %q back as %q (%v)", sh, s, q, out, err)
			}
		}
	}
}

// An entry that already calls hookx wrap is unwrapped, never wrapped twice.
func TestReverseMigrationUnwrapsHookxWrap(t *testing.T) {
	tests := []struct {
		name, from, to, event, cmd, want string
	}{
		{"a Claude hook back on Claude", "gemini", "claude", "BeforeTool",
			`hookx wrap --from claude --host gemini --timeout 30s -- '"'\$'CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh'`,
			`"$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh`},
		{"a Gemini hook back on Gemini", "claude", "gemini", "PreToolUse",
			`/usr/local/bin/hookx wrap --from gemini --host claude -- \$'GEMINI_PROJECT_DIR/h.sh'`,
			`$GEMINI_PROJECT_DIR/h.sh`},
		{"with the --match migrate writes", "gemini", "claude", "BeforeTool",
			`hookx wrap --from claude --host gemini --timeout 30s --match 'Bash|Read' -- ./g.sh`,
			`./g.sh`},
		{"with the --event migrate writes, and -v", "gemini", "claude", "AfterTool",
			`hookx wrap --from claude --host gemini --timeout 30s --event PostToolUse -v -- ./fmt.sh`,
			`./fmt.sh`},
		{"a wrap of the source's own hook is replaced, once", "claude", "gemini", "PreToolUse",
			`hookx wrap --from claude --host claude --fail-closed -- ./g.sh`,
			`hookx wrap --from claude --host gemini --timeout 600s --fail-closed -- ./g.sh`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := planHandler(t, Options{From: tt.from, To: tt.to, Wrap: true}, tt.event, map[string]any{"type": "command", "command": tt.cmd})
			if len(res.Entries) == 0 {
				t.Fatal("no entries")
			}
			got := res.Entries[0].Command
			if i := strings.Index(got, " # hookx:"); i > 0 {
				got = got[:i]
			}
			if got != tt.want {
				t.Errorf("command = %q, want %q", got, tt.want)
			}
			if tt.name == "a Claude hook back on Claude" && res.Entries[0].Timeout != 30 {
				t.Errorf("timeout %d, want the hook's own 30 s from --timeout", res.Entries[0].Timeout)
			}
			if n := strings.Count(got, " wrap "); n > 1 {
				t.Errorf("wrapped %d times", n)
			}
		})
	}
}

// A plugin's or extension's directory is given to the hook when --plugin
// names it, the way its own agent gives it; otherwise the hook is reported
// and not written (written as is, it fails open).
func TestPluginPlaceholders(t *testing.T) {
	tests := []struct {
		name, from, to, event, cmd, root string
		want                             string // "" for not written
	}{
		{"claude root known", "claude", "gemini", "PreToolUse", `${CLAUDE_PLUGIN_ROOT}/x.sh`, "/opt/p q",
			`hookx wrap --from claude --host gemini --timeout 600s --env 'CLAUDE_PLUGIN_ROOT=/opt/p q' -- \$'{CLAUDE_PLUGIN_ROOT}/x.sh'`},
		{"claude root unknown", "claude", "gemini", "PreToolUse", `"$CLAUDE_PLUGIN_ROOT"/x.sh`, "", ""},
		{"claude plugin data", "claude", "gemini", "PreToolUse", `${CLAUDE_PLUGIN_DATA}/x.sh`, "/opt/p", ""},
		{"gemini extension path known", "gemini", "claude", "BeforeTool", `node ${extensionPath}${/}h.js`, "/ext",
			`hookx wrap --from gemini --host claude --timeout 60s -- 'node /ext/h.js'`},
		{"gemini extension path unknown", "gemini", "claude", "BeforeTool", `node ${extensionPath}${/}h.js`, "", ""},
		{"gemini path separator alone", "gemini", "claude", "BeforeTool", `a${/}b`, "", ""},
		{"gemini workspace path", "gemini", "claude", "BeforeTool", `${workspacePath}/h.sh`, "/ext", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := planHandler(t, Options{From: tt.from, To: tt.to, Wrap: true, PluginRoot: tt.root}, tt.event,
				map[string]any{"type": "command", "command": tt.cmd})
			var got string
			if len(res.Entries) == 1 {
				got = res.Entries[0].Command
				if i := strings.Index(got, " # hookx:"); i > 0 {
					got = got[:i]
				}
			}
			if got != tt.want {
				t.Errorf("command = %q, want %q", got, tt.want)
			}
			if tt.want == "" && len(items(res, NotCarried)) == 0 {
				t.Errorf("not written, but not reported: %+v", res.Items)
			}
		})
	}
}

// --check does not call a project stale because hookx lives elsewhere on
// this machine; a plain run does update the path.
func TestCheckIgnoresWhereHookxLives(t *testing.T) {
	src, _ := json.Marshal(map[string]any{"hooks": map[string]any{"Stop": []any{map[string]any{
		"hooks": []any{map[string]any{"type": "command", "command": "./s.sh"}}}}}})
	first, err := Plan(Options{From: "claude", To: "gemini", Wrap: true, Hookx: "/home/a/go/bin/hookx"},
		[]Source{{Path: "s.json", Data: src}}, Source{Path: "t.json"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		any     bool
		changed bool
	}{{true, false}, {false, true}} {
		again, err := Plan(Options{From: "claude", To: "gemini", Wrap: true, Hookx: "/opt/other place/hookx", AnyHookxPath: tt.any},
			[]Source{{Path: "s.json", Data: src}}, Source{Path: "t.json", Data: first.After})
		if err != nil {
			t.Fatal(err)
		}
		if again.Changed() != tt.changed {
			t.Errorf("AnyHookxPath %v: changed = %v, want %v", tt.any, again.Changed(), tt.changed)
		}
	}
}

// Copied as it is (--no-wrap), a command is rewritten only where its shell
// expands, and text a host would substitute in single quotes is protected;
// in a quoted here-doc it cannot be, and that is reported. Gemini expands
// ${NAME} when it loads its settings: the reference is written ${NAME-},
// which the shell reads the same and Gemini leaves alone.
func TestNoWrapRewritesOnlyWhatTheShellExpands(t *testing.T) {
	tests := []struct{ cmd, want, approx string }{
		{`echo '$CLAUDE_PROJECT_DIR' "$CLAUDE_PROJECT_DIR"`, `echo ''\$'CLAUDE_PROJECT_DIR' "${GEMINI_PROJECT_DIR-}"`, ""},
		{"cat <<'EOF'\n$CLAUDE_PROJECT_DIR\nEOF", "cat <<'EOF'\n$CLAUDE_PROJECT_DIR\nEOF", "$CLAUDE_PROJECT_DIR in a quoted here-doc or comment"},
		{"cat <<EOF\n$CLAUDE_PROJECT_DIR\nEOF", "cat <<EOF\n${GEMINI_PROJECT_DIR-}\nEOF", ""},
	}
	for _, tt := range tests {
		res := planHandler(t, Options{From: "claude", To: "gemini"}, "Stop", map[string]any{"type": "command", "command": tt.cmd})
		if got := res.Entries[0].Command; got != tt.want {
			t.Errorf("%q became %q, want %q", tt.cmd, got, tt.want)
		}
		var approx []string
		if tt.approx != "" {
			approx = []string{tt.approx}
		}
		got := items(res, Approximate)
		got = slicesFilter(got, func(s string) bool { return strings.Contains(s, "here-doc") })
		if diff := cmp.Diff(approx, got); diff != "" {
			t.Errorf("%q: approximate items (-want +got):\n%s", tt.cmd, diff)
		}
	}
}

// A Claude SessionStart hook that writes to $CLAUDE_ENV_FILE is carried, with
// the difference said: wrap gives it a session file, whose exports do not
// reach Gemini's later shell commands.
func TestEnvFileIsReportedApproximate(t *testing.T) {
	res := planHandler(t, Options{From: "claude", To: "gemini", Wrap: true}, "SessionStart",
		map[string]any{"type": "command", "command": `echo "export A=1" >> "$CLAUDE_ENV_FILE"`})
	if len(res.Entries) != 1 {
		t.Fatalf("%d entries", len(res.Entries))
	}
	if diff := cmp.Diff([]string{"$CLAUDE_ENV_FILE"}, items(res, Approximate)[1:]); diff != "" {
		t.Errorf("approximate (-want +got):\n%s", diff)
	}
	if n := len(items(res, NotCarried)); n != 0 {
		t.Errorf("%d not-carried items", n)
	}
}

func slicesFilter(s []string, keep func(string) bool) []string {
	var out []string
	for _, x := range s {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}
