package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// clinePayload is Cline 3.0.65's PreToolUse payload for run_commands
// (docs/cline.md; translate/cline_test.go), in workspace dir.
func clinePayload(t *testing.T, dir, command string) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`{"clineVersion":"3.0.65","hookName":"tool_call","timestamp":"2026-11-27T10:00:00.000Z","taskId":"t1","workspaceRoots":[`)
	b.Write(mustJSON(t, dir))
	b.WriteString(`],"userId":"u","agent_id":"a","parent_agent_id":null,"iteration":1,"tool_call":{"id":"c1","name":"run_commands","input":{"commands":[`)
	b.Write(mustJSON(t, command))
	b.WriteString(`]}},"preToolUse":{"toolName":"run_commands","parameters":{"commands":`)
	b.Write(mustJSON(t, string(mustJSON(t, []string{command}))))
	b.WriteString(`}}}`)
	return b.Bytes()
}

// The dispatchers migrate --to cline writes work in any project
// directory: spaces, quotes, ;, $, backticks and newlines in its name
// reach neither the sh of the dispatcher nor that of the hook, and the
// Claude guard run through them refuses rm -rf and lets ls through.
func TestClineDispatcherInHostileDirectories(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("dispatchers are sh scripts")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, "hookx")); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, name := range []string{"a b", `q'u"o`, "semi;colon", "dollar$HOME$(touch PWNED)", "back`touch PWNED`tick", "new\nline\n", "-dash", "*"} {
		t.Run(strings.ReplaceAll(name, "\n", `\n`), func(t *testing.T) {
			dir := filepath.Join(root, name)
			files := map[string]string{
				".claude/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/guard.sh"}]}]}}`,
				"guard.sh":              "#!/bin/sh\nif grep -q 'rm -rf'; then echo 'no rm -rf' >&2; exit 2; fi\nexit 0\n",
			}
			for n, c := range files {
				p := filepath.Join(dir, n)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(c), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			var out, errb bytes.Buffer
			opts := &migrateOptions{s: streams{Out: &out, Err: &errb}, from: "claude", to: "cline", dir: dir, hookx: "hookx"}
			if err := migrateRun(opts); err != nil {
				t.Fatalf("migrateRun: %v\n%s", err, errb.String())
			}
			script := filepath.Join(dir, ".clinerules", "hooks", "PreToolUse")
			fi, err := os.Stat(script)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o755 {
				t.Errorf("mode %v, want 0755", fi.Mode().Perm())
			}
			for _, tc := range []struct{ command, want string }{
				{"rm -rf /tmp/nothing-here", `{"overrideInput":{"commands":["printf 'A hook refused this command; it did not run: %s\\n' 'no rm -rf'"]},"context":"no rm -rf"}` + "\n"},
				{"ls -la", ""},
			} {
				// As Cline runs it: the file itself, cwd the workspace.
				cmd := exec.Command(script)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
				cmd.Stdin = bytes.NewReader(clinePayload(t, dir, tc.command))
				var so, se bytes.Buffer
				cmd.Stdout, cmd.Stderr = &so, &se
				if err := cmd.Run(); err != nil {
					t.Fatalf("%s: %v\n%s", tc.command, err, se.String())
				}
				if so.String() != tc.want {
					t.Errorf("%s: answer %q, want %q\nstderr: %s", tc.command, so.String(), tc.want, se.String())
				}
			}
			if m, _ := filepath.Glob(filepath.Join(root, "*", "PWNED")); len(m) > 0 {
				t.Errorf("a directory name ran as a command: %v", m)
			}
			if _, err := os.Stat("PWNED"); err == nil {
				t.Errorf("a directory name ran as a command")
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
