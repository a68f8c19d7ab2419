package migrate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var awkwardCommands = []string{
	`./guard.sh`,
	`echo 'it'\''s' "a \"quoted\" word" && exit 2`,
	`printf '%s\n' "$HOME" $PATH ${USER:-nobody} >&2`,
	"cat <<'EOF'\n{\"decision\": \"block\"}\nEOF",
	"echo `date` $(id -u) \\ back\\slash ! history & wait",
	`jq -r '.tool_input.command' | grep -q 'rm -rf' && { echo no >&2; exit 2; }`,
	"héllo wörld; echo '''' \"\" ''",
}

// TestWrappedCommandPassesOriginal runs the wrapped command that migrate
// writes through sh -c and bash -c, with a fake hookx that prints its
// arguments, and checks that the one argument after -- is exactly the
// original command.
func TestWrappedCommandPassesOriginal(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake hookx") // a path that needs quoting too
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, shell := range []string{"sh", "bash"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Logf("%s not installed", shell)
			continue
		}
		for _, orig := range awkwardCommands {
			src, _ := json.Marshal(map[string]any{"hooks": map[string]any{"Stop": []any{map[string]any{
				"hooks": []any{map[string]any{"type": "command", "command": orig, "onFailure": "block"}}}}}})
			res, err := Plan(Options{From: "claude", To: "gemini", Wrap: true, Hookx: fake},
				[]Source{{Path: "s.json", Data: src}}, Source{Path: "t.json"})
			if err != nil {
				t.Fatal(err)
			}
			wrapped := res.Entries[0].Command
			out, err := exec.Command(shell, "-c", wrapped).Output()
			if err != nil {
				t.Fatalf("%s -c %q: %v", shell, wrapped, err)
			}
			args := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
			want := []string{"wrap", "--from", "claude", "--host", "gemini", "--timeout", "600s", "--fail-closed", "--", orig}
			if diff := cmp.Diff(want, args); diff != "" {
				t.Errorf("%s -c %q: arguments (-want +got):\n%s", shell, wrapped, diff)
			}
		}
	}
}

func TestShellQuote(t *testing.T) {
	for _, s := range append(awkwardCommands, "", "plain", "a b", "'") {
		out, err := exec.Command("sh", "-c", "printf %s "+ShellQuote(s)).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != s {
			t.Errorf("sh read %q back as %q", s, out)
		}
	}
}

// rewriteEnv parses cmd as sh would and applies rewriteEdits.
func rewriteEnv(cmd string, rules map[string]envRule, unknown func(string) bool) (string, []string) {
	f, err := parseCommand(cmd, "sh")
	if err != nil {
		panic(err)
	}
	edits, missing := rewriteEdits(cmd, f, rules, unknown)
	return applyEdits(cmd, edits), missing
}

func TestRewriteEnv(t *testing.T) {
	c2g := map[string]envRule{
		"CLAUDE_PROJECT_DIR":     {to: "GEMINI_PROJECT_DIR", quote: true},
		"CLAUDE_CODE_SESSION_ID": {to: "GEMINI_SESSION_ID"},
		"CLAUDE_PLUGIN_ROOT":     {literal: "/opt/my plugin"},
	}
	tests := []struct{ in, want string }{
		{`"$CLAUDE_PROJECT_DIR"/x.sh`, `"${GEMINI_PROJECT_DIR}"/x.sh`},
		{`"$CLAUDE_PROJECT_DIR/x.sh"`, `"${GEMINI_PROJECT_DIR}/x.sh"`},
		{`$CLAUDE_PROJECT_DIR/x.sh`, `"${GEMINI_PROJECT_DIR}"/x.sh`},
		{`${CLAUDE_PROJECT_DIR}/x.sh`, `"${GEMINI_PROJECT_DIR}"/x.sh`},
		{`"${CLAUDE_PROJECT_DIR}"/x.sh`, `"${GEMINI_PROJECT_DIR}"/x.sh`},
		{`${CLAUDE_PROJECT_DIR:-.}/x.sh`, `"${GEMINI_PROJECT_DIR:-.}"/x.sh`},
		{`echo '$CLAUDE_PROJECT_DIR'`, `echo '$CLAUDE_PROJECT_DIR'`},
		{`echo \$CLAUDE_PROJECT_DIR`, `echo \$CLAUDE_PROJECT_DIR`},
		{`log $CLAUDE_CODE_SESSION_ID`, `log ${GEMINI_SESSION_ID}`},
		{`$CLAUDE_PROJECT_DIRX`, `$CLAUDE_PROJECT_DIRX`},
		{`${CLAUDE_PLUGIN_ROOT}/fmt.sh`, `'/opt/my plugin'/fmt.sh`},
		{`"${CLAUDE_PLUGIN_ROOT}/fmt.sh"`, `"/opt/my plugin/fmt.sh"`},
		// Here-docs: an unquoted body expands without word splitting, a
		// quoted one not at all.
		{"cat <<EOF\n$CLAUDE_PROJECT_DIR\nEOF", "cat <<EOF\n${GEMINI_PROJECT_DIR}\nEOF"},
		{"cat <<'EOF'\n$CLAUDE_PROJECT_DIR\nEOF", "cat <<'EOF'\n$CLAUDE_PROJECT_DIR\nEOF"},
		// $(…) inside double quotes is a new unquoted context.
		{`echo "$(cat $CLAUDE_PROJECT_DIR/x)"`, `echo "$(cat "${GEMINI_PROJECT_DIR}"/x)"`},
		{`echo "a $(echo "$CLAUDE_PROJECT_DIR")"`, `echo "a $(echo "${GEMINI_PROJECT_DIR}")"`},
		{"x # $CLAUDE_PROJECT_DIR", "x # $CLAUDE_PROJECT_DIR"},
	}
	for _, tt := range tests {
		got, _ := rewriteEnv(tt.in, c2g, nil)
		if got != tt.want {
			t.Errorf("rewriteEnv(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	_, missing := rewriteEnv(`$CLAUDE_ENV_FILE "${CLAUDE_PLUGIN_DATA}" $HOME`, c2g,
		func(n string) bool { return strings.HasPrefix(n, "CLAUDE_") })
	if diff := cmp.Diff([]string{"CLAUDE_ENV_FILE", "CLAUDE_PLUGIN_DATA"}, missing); diff != "" {
		t.Errorf("missing (-want +got):\n%s", diff)
	}
}
