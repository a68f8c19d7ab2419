package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookx-dev/hookx/internal/findings/findingstest"
)

// TestJSONOutputMatchesTheFindingsSchema runs migrate --json and doctor
// --json on real projects (the demo, a project with errors, one with
// nothing to say, several targets, a directory name with a space, quotes,
// a semicolon and a newline) and validates each output against
// docs/findings.schema.json. On 4db2ced migrate printed the Result as it
// was ("level", "source", "removed": null) and doctor {"findings","silenced"}
// with "rule" and "col": none validates.
func TestJSONOutputMatchesTheFindingsSchema(t *testing.T) {
	t.Setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
	root := t.TempDir()
	demo := filepath.Join(root, "demo")
	if err := os.CopyFS(demo, os.DirFS(filepath.Join("..", "..", "demo", "claude-project"))); err != nil {
		t.Fatal(err)
	}
	project := func(name string, files map[string]string) string {
		dir := filepath.Join(root, name)
		for f, s := range files {
			p := filepath.Join(dir, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	broken := project("broken", map[string]string{
		".claude/settings.json": `{"hooks":{"PreToolUse":[{"matcher":"Bsh","hooks":[{"type":"command","command":"true"},{"type":"prompt","prompt":"ok?"}]}],"PreToolUser":[],"Stop":[{"hooks":[{"type":"command","command":"true","timeout":5000}]}]}}`,
		".gemini/settings.json": "{\"hooks\":{\"BeforeTool\":[{\"matcher\":\"Bash\", // hookx-ignore HX220 we mean it\n\"hooks\":[{\"type\":\"command\",\"command\":\"true\"}]}]}}",
	})
	empty := project("empty", map[string]string{".claude/settings.json": `{}`})
	none := project("none", nil)
	if err := os.MkdirAll(none, 0o755); err != nil {
		t.Fatal(err)
	}
	hostile := project("my \"proj\";\n'x' 50%", map[string]string{
		".claude/settings.json": `{"hooks":{"PreToolUse":[{"matcher":"Bash|\"x\";\n","hooks":[{"type":"command","command":"echo \"$(rm -rf /)\"; true"}]}]}}`,
	})
	for _, c := range []struct {
		name string
		args []string
	}{
		{"migrate demo", []string{"migrate", "--dir", demo, "--from", "claude", "--to", "gemini", "--json", "--dry-run"}},
		{"migrate demo to several", []string{"migrate", "--dir", demo, "--from", "claude", "--to", "codex,copilot,qwen", "--json", "--dry-run"}},
		{"migrate errors", []string{"migrate", "--dir", broken, "--from", "claude", "--to", "gemini", "--json", "--dry-run"}},
		{"migrate nothing", []string{"migrate", "--dir", empty, "--from", "claude", "--to", "gemini", "--json", "--dry-run"}},
		{"migrate hostile", []string{"migrate", "--dir", hostile, "--from", "claude", "--to", "qwen", "--json", "--dry-run"}},
		{"doctor demo", []string{"doctor", "--dir", demo, "--json"}},
		{"doctor errors", []string{"doctor", "--dir", broken, "--json", "--ignore", "HX405"}},
		{"doctor nothing", []string{"doctor", "--dir", empty, "--json"}},
		{"doctor no settings", []string{"doctor", "--dir", none, "--json"}},
		{"doctor hostile", []string{"doctor", "--dir", hostile, "--json"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(c.args, nil, &out, &errb)
			if code != 0 && code != 1 {
				t.Fatalf("exit %d: %s", code, &errb)
			}
			findingstest.Validate(t, out.Bytes())
			var doc struct{ Findings []json.RawMessage }
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d findings", len(doc.Findings))
		})
	}
}
