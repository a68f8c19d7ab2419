//go:build unix

package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestGeminiCommandPrepMatchesGeminiItself checks hookx wrap's emulation of
// what Gemini CLI does to a hook command before bash runs it (load-time
// resolveEnvVarsInString, then expandCommand with escapeShellArg and
// shell-quote's quote) against Gemini's own code: the functions are taken
// from the installed, pinned bundle and run in node. hookx wrap runs a
// command that prints the string bash was given ($BASH_EXECUTION_STRING).
func TestGeminiCommandPrepMatchesGeminiItself(t *testing.T) {
	p := requireAgents(t)
	bin := requireHookx(t)
	bundle := filepath.Join(p.Dir, "node_modules", "@google", "gemini-cli", "bundle")
	code := func(file, start string, end *regexp.Regexp) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(bundle, file))
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(b, []byte(start))
		if i < 0 {
			t.Fatalf("%s: %q not found: the pinned bundle changed", file, start)
		}
		loc := end.FindIndex(b[i:])
		if loc == nil {
			t.Fatalf("%s: the end of %q not found", file, start)
		}
		return string(b[i : i+loc[1]])
	}
	funcEnd := regexp.MustCompile(`\n}\n`)
	quote := code("chunk-5FZXKDXH.js", "function quote2(xs) {", regexp.MustCompile(`\n    };\n`))
	escape := code("chunk-5FZXKDXH.js", "function escapeShellArg(arg, shell) {", funcEnd)
	expand := code("chunk-5FZXKDXH.js", "  expandCommand(command, input, shellType) {", regexp.MustCompile(`\n  }\n`))
	resolve := code("chunk-2YTYPKEZ.js", "function resolveEnvVarsInString(value, customEnv) {", funcEnd)
	script := strings.Join([]string{
		"const import_shell_quote = { quote: " + strings.TrimSuffix(strings.TrimSpace(quote), ";") + " };",
		escape, resolve,
		"const debugLogger = { debug() {} };",
		"class Runner { constructor(plans) { this.config = { storage: { getPlansDir: () => plans } }; }\n" + expand + "\n}",
		`const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));`,
		`process.stdout.write(JSON.stringify(cases.map(c => new Runner(c.plans).expandCommand(resolveEnvVarsInString(c.cmd), {cwd: c.cwd, session_id: c.session}, "bash"))));`,
	}, "\n")

	type tc struct {
		Cmd     string `json:"cmd"`
		Cwd     string `json:"cwd"`
		Session string `json:"session"`
		Plans   string `json:"plans"`
	}
	r := rand.New(rand.NewPCG(11, 11))
	parts := []string{"$GEMINI_PROJECT_DIR", "$GEMINI_CWD", "$GEMINI_PLANS_DIR", "$GEMINI_SESSION_ID", "$CLAUDE_PROJECT_DIR",
		"${GEMINI_PROJECT_DIR}", "$HOME", "${HOOKX_T:-dflt}", "${HOOKX_T_SET:-x}", "$HOOKX_T_SET", "'", `"`, " ", "x", "$GEMINI_CWDX", "\n"}
	names := []string{"/My Project", "/it's", `/say "hi"`, "/a;b", "/$HOME", "/$GEMINI_CWD", "/`id`", "/*", "/a\nb", "/日本", "/!x", `/b\s`,
		"/a:;b", "/é\u00a0x", "/tab\tx", "/C:\\", "/{x}", "/plain", "/a'b\"c"}
	var cases []tc
	for range 80 {
		var cmd, cwd strings.Builder
		for range 1 + r.IntN(6) {
			cmd.WriteString(parts[r.IntN(len(parts))])
		}
		for range 1 + r.IntN(3) {
			cwd.WriteString(names[r.IntN(len(names))])
		}
		cases = append(cases, tc{Cmd: cmd.String(), Cwd: cwd.String(), Session: "s-" + names[r.IntN(len(names))], Plans: "/plans" + names[r.IntN(len(names))]})
	}
	home := t.TempDir()
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "HOOKX_T_SET=set value", "LANG=C.UTF-8"}
	in, _ := json.Marshal(cases)
	node := exec.Command(p.Node, "-e", script)
	node.Env, node.Stdin = env, bytes.NewReader(in)
	var nodeErr bytes.Buffer
	node.Stderr = &nodeErr
	out, err := node.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s\n%s", err, out, nodeErr.String())
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(cases) {
		t.Fatalf("node printed %q: %v", out, err)
	}
	for i, c := range cases {
		// What bash is given, printed by bash; the comment keeps the
		// rest of the text out of the way of printf.
		cmd := `printf %s "$BASH_EXECUTION_STRING"; exit 0 #` + c.Cmd
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		w := exec.CommandContext(ctx, bin, "wrap", "--from", "gemini", "--host", "gemini", "--", cmd)
		w.Env = append(env, "GEMINI_PROJECT_DIR="+c.Cwd, "GEMINI_CWD="+c.Cwd, "GEMINI_SESSION_ID="+c.Session,
			"GEMINI_PLANS_DIR="+c.Plans, "CLAUDE_PROJECT_DIR="+c.Cwd)
		w.Stdin = strings.NewReader(`{"hook_event_name":"BeforeTool"}`)
		got, err := w.Output()
		cancel()
		if err != nil {
			t.Fatalf("hookx wrap: %v", err)
		}
		// Gemini's own result for the whole command: its prefix is plain.
		wantCmd := `printf %s "$BASH_EXECUTION_STRING"; exit 0 #` + want[i]
		if string(got) != wantCmd {
			t.Errorf("case %d: command %q in %q:\nGemini gives bash %q\nhookx gives bash  %q", i, c.Cmd, c.Cwd, wantCmd, got)
		}
	}
}
