//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/migrate"
)

// The property of issue 9: for a hook command S valid in its own agent and
// a project directory D, the process the other agent starts through
// hookx migrate + hookx wrap runs exactly what S's own agent runs for S in
// D: the same argv after the shell, the same environment. Each pair runs
// for real: dash for Claude's /bin/sh -c, bash for Gemini's bash -c, with
// Gemini's text substitutions emulated from its source (below), both
// ways, and the probe program at the end of S prints what it got.

// jsSpace is JavaScript's \s, which Go's \s is not.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

var (
	sqNeedsQuote  = regexp.MustCompile(`["` + jsSpace + `\\]`)
	sqNeedsDouble = regexp.MustCompile(`["'` + jsSpace + `]`)
	sqDoubleEsc   = regexp.MustCompile("([\"\\\\$`!])")
	sqPlainEsc    = regexp.MustCompile("([A-Za-z]:)?([#!\"$&'()*,:;<=>?@[\\\\\\]^`{|}])")
	// resolveEnvVarsInString's pattern (chunk-55E6VPR2.js and others).
	geminiLoadVar = regexp.MustCompile(`\$(?:(\w+)|\{([^}]+?)(?::-([^}]*))?\})`)
)

// geminiEscape is Gemini CLI 0.61.0's escapeShellArg(arg, "bash")
// (bundle/chunk-5FZXKDXH.js:254696), which calls shell-quote's quote([arg])
// (same file, :2029), transcribed here independently of wrap's copy.
func geminiEscape(s string) string {
	switch {
	case s == "":
		return ""
	case sqNeedsQuote.MatchString(s) && !strings.Contains(s, "'"):
		return "'" + s + "'"
	case sqNeedsDouble.MatchString(s):
		return `"` + sqDoubleEsc.ReplaceAllString(s, `\${1}`) + `"`
	}
	return sqPlainEsc.ReplaceAllString(s, `${1}\${2}`)
}

// geminiExpandCommand is expandCommand (chunk-5FZXKDXH.js:368528-368538).
func geminiExpandCommand(cmd, cwd, plans, session string) string {
	for _, r := range []struct{ ref, v string }{
		{"$GEMINI_PROJECT_DIR", cwd}, {"$GEMINI_CWD", cwd}, {"$GEMINI_PLANS_DIR", plans},
		{"$GEMINI_SESSION_ID", session}, {"$CLAUDE_PROJECT_DIR", cwd},
	} {
		cmd = strings.ReplaceAll(cmd, r.ref, geminiEscape(r.v))
	}
	return cmd
}

// geminiLoad is resolveEnvVarsInString: what Gemini does to every settings
// string when it loads it, from its own environment.
func geminiLoad(s string, env []string) string {
	return geminiLoadVar.ReplaceAllStringFunc(s, func(m string) string {
		g := geminiLoadVar.FindStringSubmatch(m)
		name := g[1] + g[2]
		if v, ok := lookup(env, name); ok {
			return v
		}
		if strings.Contains(m, ":-") {
			return g[3]
		}
		return m
	})
}

func lookup(env []string, name string) (string, bool) {
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == name {
			return v, true
		}
	}
	return "", false
}

// Fragments of hook commands, valid in dash and in bash (where they may mean
// different things: each side runs its own agent's shell).
var (
	argFragments = []string{
		`"$CLAUDE_PROJECT_DIR"`, `$CLAUDE_PROJECT_DIR`, `"${CLAUDE_PROJECT_DIR}"`, `"$CLAUDE_PROJECT_DIR/x y"`,
		`"$GEMINI_PROJECT_DIR"`, `$GEMINI_PROJECT_DIR`, `"${GEMINI_PROJECT_DIR}/y"`, `"$GEMINI_CWD"`,
		`$GEMINI_SESSION_ID`, `"${CLAUDE_CODE_SESSION_ID}"`, `"${GEMINI_SESSION_ID:-none}"`,
		`'$CLAUDE_PROJECT_DIR'`, `'$GEMINI_PROJECT_DIR'`, `'${HOME}'`, `"a b"`, `'it'\''s'`, `\$CLAUDE_PROJECT_DIR`,
		`"$(printf %s "$CLAUDE_PROJECT_DIR")"`, `"$(printf %s $GEMINI_PROJECT_DIR)"`, "`printf %s \"$GEMINI_CWD\"`",
		`$'a\tb'`, `$'$GEMINI_PROJECT_DIR'`, "\"$(cat <<EOF\n$CLAUDE_PROJECT_DIR x\nEOF\n)\"",
		"\"$(cat <<'EOF'\n$GEMINI_PROJECT_DIR y\nEOF\n)\"", `"${CLAUDE_PROJECT_DIR:-none}"`, `"${#GEMINI_PROJECT_DIR}"`,
		`"$HOME"`, `*.none`, `"日本 é"`, `"\$GEMINI_CWD"`, `"$X"`, `"!x"`, `"a\\b"`,
	}
	prefixFragments = []string{
		"", "# comment $GEMINI_PROJECT_DIR '\n", `X="$CLAUDE_PROJECT_DIR"; `, "X=$GEMINI_CWD\n", "true\n",
		": <<'EOF'\n$CLAUDE_PROJECT_DIR '\nEOF\n", "cat >/dev/null <<EOF\n$GEMINI_PROJECT_DIR\nEOF\n",
		`cd "$CLAUDE_PROJECT_DIR" && `, `cd "${GEMINI_PROJECT_DIR}" && `, "set -u; ",
	}
	suffixFragments = []string{"", " # trailing $CLAUDE_PROJECT_DIR", " # hookx: not an id", "\n"}
	dirFragments    = []string{"My Project", "it's", `say "hi"`, "; touch INJECTED;", "$HOME", "$GEMINI_CWD",
		"`id`", "*", "a\nb", "日本語", "é", "!bang", `back\slash`, "x:y", "tab\there", "$(id)", "~"}
)

func randomCommand(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString(prefixFragments[r.IntN(len(prefixFragments))])
	b.WriteString("probe")
	for range 1 + r.IntN(4) {
		b.WriteString(" " + argFragments[r.IntN(len(argFragments))])
	}
	b.WriteString(suffixFragments[r.IntN(len(suffixFragments))])
	return b.String()
}

func randomDir(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(3) {
		b.WriteString(dirFragments[r.IntN(len(dirFragments))])
	}
	return b.String()
}

// agentRun is one way of running a hook: the host's argv, environment,
// working directory and stdin.
type agentRun struct {
	argv  []string
	env   []string
	dir   string
	stdin string
}

func (a agentRun) run(t *testing.T, out string) []probeRecord {
	t.Helper()
	os.Remove(out)
	c := exec.Command(a.argv[0], a.argv[1:]...)
	c.Env, c.Dir, c.Stdin = a.env, a.dir, strings.NewReader(a.stdin)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	_ = c.Run() // the hook's own failure is part of what is compared
	b, err := os.ReadFile(out)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var recs []probeRecord
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var rec probeRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("probe output %q: %v", line, err)
		}
		recs = append(recs, rec)
	}
	return recs
}

// hostShellVars are set by the host's own shell, not by any agent: bash
// sets SHLVL and _, and a host that runs bash before wrap leaves them.
var hostShellVars = []string{"SHLVL", "_", "OLDPWD"}

// normalize drops, from a record's environment, what the issue allows to
// differ: the variables the host's shell sets, and the host agent's own
// hook variables, which the hook's agent does not set (README Known
// limits), and GEMINI_PLANS_DIR, which Claude Code has no value for.
func normalize(recs []probeRecord, drop []string) []probeRecord {
	for i := range recs {
		recs[i].Env = slices.DeleteFunc(recs[i].Env, func(kv string) bool {
			k, _, _ := strings.Cut(kv, "=")
			return slices.Contains(drop, k) || slices.Contains(hostShellVars, k)
		})
	}
	return recs
}

func TestPropertyCommandRunsAsItsOwnAgentRunsIt(t *testing.T) {
	// /bin/sh is what Claude Code runs (dash on Debian and Ubuntu).
	for _, sh := range []string{"/bin/sh", "bash"} {
		if _, err := exec.LookPath(sh); err != nil {
			t.Fatalf("%s is needed: %v", sh, err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	// hookx itself lives in a directory whose name needs quoting and holds
	// a $NAME a host would expand.
	hookxDir := filepath.Join(tmp, `bin dir's $HOME`)
	probeDir := filepath.Join(tmp, "probe")
	for _, d := range []string{hookxDir, probeDir} {
		must(os.MkdirAll(d, 0o755))
	}
	must(os.Symlink(self, filepath.Join(hookxDir, "hookx")))
	must(os.Symlink(self, filepath.Join(probeDir, "probe")))
	hookx := filepath.Join(hookxDir, "hookx")
	out := filepath.Join(tmp, "probe.jsonl")
	base := []string{
		"PATH=" + probeDir + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + filepath.Join(tmp, "home"),
		"LANG=C.UTF-8",
		"XDG_STATE_HOME=" + filepath.Join(tmp, "state"),
		"HOOKX_PROBE_OUT=" + out,
	}
	const session = "0f9a8b7c-sess"
	plans := filepath.Join(tmp, "plans dir")

	seed := uint64(9)
	if s, err := strconv.ParseUint(os.Getenv("HOOKX_PROPERTY_SEED"), 10, 64); err == nil {
		seed = s
	}
	r := rand.New(rand.NewPCG(seed, seed))
	n := 60
	if testing.Short() {
		n = 15
	}
	ran := 0
	for i := range n {
		S, name := randomCommand(r), randomDir(r)
		D := filepath.Join(tmp, "p", strconv.Itoa(i), name)
		must(os.MkdirAll(D, 0o755))

		claudeEnv := append(slices.Clone(base), "CLAUDE_PROJECT_DIR="+D, "CLAUDE_CODE_SESSION_ID="+session, "CLAUDECODE=1", "CLAUDE_CODE_CHILD_SESSION=1")
		geminiEnv := append(slices.Clone(base), "GEMINI_PROJECT_DIR="+D, "GEMINI_PLANS_DIR="+plans, "GEMINI_CWD="+D,
			"GEMINI_SESSION_ID="+session, "CLAUDE_PROJECT_DIR="+D)
		claudeIn := fmt.Sprintf(`{"session_id":%q,"transcript_path":"/tmp/t.jsonl","cwd":%s,"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"}`,
			session, jsonString(D))
		geminiIn := fmt.Sprintf(`{"session_id":%q,"transcript_path":"/tmp/t.json","cwd":%s,"hook_event_name":"BeforeTool","timestamp":"2026-11-23T00:00:00Z","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
			session, jsonString(D))
		claudeHost := func(cmd string) agentRun {
			// Claude Code: /bin/sh -c, the text unchanged.
			return agentRun{[]string{"/bin/sh", "-c", cmd}, claudeEnv, D, claudeIn}
		}
		geminiHost := func(cmd string) agentRun {
			// Gemini CLI: load-time expansion, expandCommand, bash -c.
			cmd = geminiExpandCommand(geminiLoad(cmd, base), D, plans, session)
			return agentRun{[]string{"bash", "-c", cmd}, geminiEnv, D, geminiIn}
		}
		// Qwen Code 0.24.4: bash -c on the text unchanged (expandCommand
		// substitutes nothing under bash), its three project variables.
		qwenEnv := append(slices.Clone(base), "QWEN_PROJECT_DIR="+D, "CLAUDE_PROJECT_DIR="+D, "GEMINI_PROJECT_DIR="+D, "QWEN_CODE_SESSION_ID="+session)
		qwenIn := fmt.Sprintf(`{"session_id":%q,"transcript_path":"/tmp/t.jsonl","cwd":%s,"hook_event_name":"PreToolUse","timestamp":"2026-11-23T00:00:00Z","permission_mode":"yolo","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_call_id":"c1"}`,
			session, jsonString(D))
		qwenHost := func(cmd string) agentRun { return agentRun{[]string{"bash", "-c", cmd}, qwenEnv, D, qwenIn} }
		// Factory Droid 0.225.2: /bin/sh -c, its project variables and the
		// plugin-root sentinel.
		droidEnv := append(slices.Clone(base), "FACTORY_PROJECT_DIR="+D, "CLAUDE_PROJECT_DIR="+D, "DROID_PROJECT_DIR="+D,
			"CLAUDE_PLUGIN_ROOT=/PLUGIN_ROOT_NOT_EXPANDED_ERROR", "DROID_PLUGIN_ROOT=/PLUGIN_ROOT_NOT_EXPANDED_ERROR",
			// Its payload's scalar fields, as variables (droid-env.jsonc).
			"cwd="+D, "hook_event_name=PreToolUse", "permission_mode=auto-high", "session_id="+session, "tool_name=Execute", "transcript_path=/tmp/t.jsonl")
		droidIn := fmt.Sprintf(`{"session_id":%q,"transcript_path":"/tmp/t.jsonl","cwd":%s,"permission_mode":"auto-high","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"ls"}}`,
			session, jsonString(D))
		droidHost := func(cmd string) agentRun { return agentRun{[]string{"/bin/sh", "-c", cmd}, droidEnv, D, droidIn} }
		// Codex 0.169.0: bash -c, no project variable at all; the hook runs
		// in the project.
		codexIn := fmt.Sprintf(`{"session_id":%q,"turn_id":"t1","transcript_path":"/tmp/t.jsonl","cwd":%s,"hook_event_name":"PreToolUse","model":"m","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c1"}`,
			session, jsonString(D))
		codexHost := func(cmd string) agentRun {
			return agentRun{[]string{"bash", "-c", cmd}, slices.Clone(base), D, codexIn}
		}
		// Copilot CLI 1.0.102: bash --norc --noprofile -c, its project
		// variables, a camelCase payload that names no event.
		copilotEnv := append(slices.Clone(base), "COPILOT_PROJECT_DIR="+D, "CLAUDE_PROJECT_DIR="+D, "COPILOT_CLI=1")
		copilotIn := fmt.Sprintf(`{"sessionId":%q,"timestamp":1795460046637,"cwd":%s,"toolName":"bash","toolArgs":{"command":"ls","description":"x"}}`,
			session, jsonString(D))
		copilotHost := func(cmd string) agentRun {
			return agentRun{[]string{"/bin/bash", "--norc", "--noprofile", "-c", cmd}, copilotEnv, D, copilotIn}
		}

		type direction struct {
			from, to   string
			native     func(string) agentRun
			host       func(string) agentRun
			hostOwnEnv []string
		}
		dirs := []direction{
			{"claude", "gemini", claudeHost, geminiHost, []string{"GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_SESSION_ID", "GEMINI_PLANS_DIR"}},
			{"gemini", "claude", geminiHost, claudeHost, []string{"CLAUDECODE", "CLAUDE_CODE_CHILD_SESSION", "CLAUDE_CODE_SESSION_ID", "GEMINI_PLANS_DIR"}},
		}
		// One of the data-file dialects' directions per command, in turn,
		// to keep the test's time.
		dirs = append(dirs, []direction{
			{"claude", "qwen", claudeHost, qwenHost, []string{"QWEN_PROJECT_DIR", "GEMINI_PROJECT_DIR", "QWEN_CODE_SESSION_ID"}},
			{"qwen", "claude", qwenHost, claudeHost, []string{"CLAUDECODE", "CLAUDE_CODE_CHILD_SESSION", "CLAUDE_CODE_SESSION_ID"}},
			{"claude", "droid", claudeHost, droidHost, []string{"FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "DROID_PLUGIN_ROOT"}},
			// permission_mode: Claude's "default" has no Droid value, and
			// translation leaves it out.
			{"droid", "claude", droidHost, claudeHost, []string{"CLAUDECODE", "CLAUDE_CODE_CHILD_SESSION", "CLAUDE_CODE_SESSION_ID", "permission_mode"}},
			{"claude", "codex", claudeHost, codexHost, nil},
			{"codex", "claude", codexHost, claudeHost, []string{"CLAUDECODE", "CLAUDE_CODE_CHILD_SESSION", "CLAUDE_CODE_SESSION_ID", "CLAUDE_PROJECT_DIR"}},
			{"claude", "copilot", claudeHost, copilotHost, []string{"COPILOT_PROJECT_DIR", "COPILOT_CLI"}},
			{"copilot", "claude", copilotHost, claudeHost, []string{"CLAUDECODE", "CLAUDE_CODE_CHILD_SESSION", "CLAUDE_CODE_SESSION_ID"}},
		}[i%8])
		for _, dir := range dirs {
			src, _ := json.Marshal(map[string]any{"hooks": map[string]any{map[string]string{"claude": "PreToolUse", "gemini": "BeforeTool", "qwen": "PreToolUse"}[dir.from]: []any{
				map[string]any{"hooks": []any{map[string]any{"type": "command", "command": S}}}}}})
			switch dir.from {
			case "codex":
				src, _ = json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{
					map[string]any{"hooks": []any{map[string]any{"type": "command", "command": S}}}}}})
			case "copilot":
				src, _ = json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"preToolUse": []any{
					map[string]any{"type": "command", "bash": S}}}})
			}
			if dir.from == "droid" {
				src, _ = json.Marshal(map[string]any{"PreToolUse": []any{
					map[string]any{"hooks": []any{map[string]any{"type": "command", "command": S}}}}})
			}
			res, err := migrate.Plan(migrate.Options{From: dir.from, To: dir.to, Wrap: true, Hookx: hookx},
				[]migrate.Source{{Path: "s.json", Data: src}}, migrate.Source{Path: "t.json"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Entries) != 1 {
				t.Fatalf("%s→%s %q: %d entries", dir.from, dir.to, S, len(res.Entries))
			}
			entry := res.Entries[0].Command
			if strings.Contains(entry, "${CLAUDE_PLUGIN_ROOT}") || geminiLoadVar.MatchString(entry) {
				t.Errorf("%s→%s: the entry %q holds text a host substitutes", dir.from, dir.to, entry)
			}
			want := normalize(dir.native(S).run(t, out), dir.hostOwnEnv)
			got := normalize(dir.host(entry).run(t, out), dir.hostOwnEnv)
			if len(want) > 0 {
				ran++
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s hook S=%q in D=%q\nentry on %s: %s\n(-%s itself +through hookx on %s):\n%s",
					dir.from, S, D, dir.to, entry, dir.from, dir.to, diff)
			}
		}
	}
	// Not vacuous: most commands reach the probe.
	if ran < n {
		t.Errorf("the probe ran in only %d of %d native runs", ran, 3*n)
	}
	t.Logf("seed %d: %d commands, Claude and Gemini both ways and one Qwen or Droid direction each; the probe ran in %d of %d native runs", seed, n, ran, 3*n)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
