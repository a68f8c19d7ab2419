package wrap

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Gemini quotes a substituted value with shell-quote's rules, byte for byte
// (values checked against shell-quote in node; the conformance suite runs
// the real function on random input).
func TestQuoteLikeShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":            "",
		"/plain/dir":  "/plain/dir",
		"/My Project": "'/My Project'",
		"/it's":       `"/it's"`,
		"/it's a!$`":  "\"/it's a\\!\\$\\`\"",
		"/a@b;c":      `/a\@b\;c`,
		"C:;x":        `C:\;x`,
		"/a:b":        `/a\:b`,
		`/back\s`:     `'/back\s'`,
		"/é\u00a0x":   "'/é\u00a0x'",
		"/tab\tx":     "'/tab\tx'",
		"/a\nb":       "'/a\nb'",
		"/~x*":        `/~x\*`,
	} {
		if got := quoteLikeShellQuote(in); got != want {
			t.Errorf("quoteLikeShellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

// Gemini's substitutions are chained in order, so a project dir whose name
// holds $GEMINI_CWD is substituted again; a Claude command is left as is.
func TestPrepareCommand(t *testing.T) {
	env := []string{"GEMINI_PROJECT_DIR=/p/$GEMINI_CWD", "GEMINI_SESSION_ID=s 1", "CLAUDE_PROJECT_DIR=/c d", "TERMINAI_PROJECT_DIR=/t p"}
	tests := []struct {
		dialect string
		command []string
		want    []string
		missing []string
	}{
		{"gemini", []string{`$GEMINI_PROJECT_DIR/h.sh "$GEMINI_SESSION_ID" ${GEMINI_CWD}`},
			[]string{"bash", "-c", `/p/\/p/\$GEMINI_CWD/h.sh "'s 1'" ${GEMINI_CWD}`}, nil},
		{"gemini", []string{`x $GEMINI_PLANS_DIR`}, []string{"bash", "-c", "x "}, []string{"GEMINI_PLANS_DIR"}},
		{"claude", []string{`"$CLAUDE_PROJECT_DIR"/h.sh ${CLAUDE_PROJECT_DIR}`}, []string{"/bin/sh", "-c", `"$CLAUDE_PROJECT_DIR"/h.sh ${CLAUDE_PROJECT_DIR}`}, nil},
		{"claude", []string{"p", "${CLAUDE_PROJECT_DIR}/x", "$CLAUDE_PROJECT_DIR"}, []string{"p", "/c d/x", "$CLAUDE_PROJECT_DIR"}, nil},
		// TerminaI replaces three bare names with its project dir, quoted,
		// and nothing else (terminai.md:24).
		{"terminai", []string{`$TERMINAI_PROJECT_DIR/h.sh $GEMINI_PROJECT_DIR $CLAUDE_PROJECT_DIR ${TERMINAI_PROJECT_DIR} $GEMINI_CWD`},
			[]string{"bash", "-c", `'/t p'/h.sh '/t p' '/t p' ${TERMINAI_PROJECT_DIR} $GEMINI_CWD`}, nil},
	}
	for _, tt := range tests {
		argv, _, missing := prepareCommand(tt.dialect, tt.command, env, nil)
		if diff := cmp.Diff(tt.want, argv); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tt.dialect, tt.command, diff)
		}
		if diff := cmp.Diff(tt.missing, missing); diff != "" {
			t.Errorf("%s %q missing (-want +got):\n%s", tt.dialect, tt.command, diff)
		}
	}
}

// A pass-through may exec the hook in place only when the agent's own
// preparation would leave the command as it is.
func TestPreparedAsIs(t *testing.T) {
	for _, tt := range []struct {
		dialect string
		command []string
		want    bool
	}{
		{"claude", []string{`"$CLAUDE_PROJECT_DIR"/h.sh`}, true},
		{"claude", []string{"h", "${CLAUDE_PLUGIN_ROOT}/x"}, false},
		{"claude", []string{"h", "$CLAUDE_PLUGIN_ROOT/x"}, true},
		{"gemini", []string{"./h.sh"}, true},
		{"gemini", []string{`"${HOME}"/h.sh`}, false},
		{"gemini", []string{"h", "$GEMINI_PROJECT_DIR"}, true},
		{"other", []string{"./h.sh"}, false},
	} {
		if got := preparedAsIs(tt.dialect, tt.command); got != tt.want {
			t.Errorf("preparedAsIs(%s, %q) = %v, want %v", tt.dialect, tt.command, got, tt.want)
		}
	}
}

// TerminaI replaces $NAME and ${NAME} of its own environment in every
// settings string when it loads them (loader.ts:152; env-vars.ts:37-47: a
// shell name only, unset names and ${NAME:-default} left as written), and
// only then its three project-directory names (hookRunner.ts:358-369). A
// TerminaI hook run elsewhere gets the same text; Gemini's form (defaults
// included) stays Gemini's.
func TestPrepareCommandLoadExpandsAsTerminaI(t *testing.T) {
	env := []string{"TERMINAI_PROJECT_DIR=/t p"}
	agentEnv := []string{"TOOLS=/opt/x y", "EMPTY=", "TERMINAI_PROJECT_DIR=/agent dir"}
	tests := []struct {
		dialect, command, want string
	}{
		{"terminai", `$TOOLS/h.sh ${TOOLS} "$UNSET" ${UNSET} x$EMPTY. ${TOOLS:-d} ${UNSET:-d} $1 $$ '$TOOLS'`,
			`/opt/x y/h.sh /opt/x y "$UNSET" ${UNSET} x. ${TOOLS:-d} ${UNSET:-d} $1 $$ '/opt/x y'`},
		// Set in TerminaI's own environment, the load wins over the
		// hook-time substitution, unquoted.
		{"terminai", `$TERMINAI_PROJECT_DIR/h.sh`, `/agent dir/h.sh`},
		{"gemini", `${TOOLS:-d} ${UNSET:-d}`, `/opt/x y d`},
	}
	for _, tt := range tests {
		argv, _, _ := prepareCommand(tt.dialect, []string{tt.command}, env, agentEnv)
		if diff := cmp.Diff([]string{"bash", "-c", tt.want}, argv); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tt.dialect, tt.command, diff)
		}
	}
}
