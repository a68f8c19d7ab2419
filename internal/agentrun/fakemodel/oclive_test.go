//go:build unix

package fakemodel

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/migrate/ocplugin"
)

// ocAgent is one agent that loads migrate/ocplugin's plugin, as the live
// test installs and runs it.
type ocAgent struct {
	host     ocplugin.Host
	packages []string // npm install, pinned
	// pluginDeps is what the agent npm-installs into its config directory
	// on its first start in a project: installed once beside the agent and
	// copied into each project first.
	pluginDeps []string
	exe        string // relative to the install
	config     string // the project's config file
	env        string // the agent's variable prefix
}

var ocAgents = []ocAgent{
	{
		host:     ocplugin.OpenCode,
		packages: []string{"opencode-ai@1.18.33"},
		// OpenCode npm-installs its plugin API into .opencode/ on its first
		// start in a project (about 40 s, from the registry).
		pluginDeps: []string{"@opencode-ai/plugin@1.18.33"},
		exe:        "node_modules/opencode-linux-x64/bin/opencode",
		config:     "opencode.json",
		env:        "OPENCODE_",
	},
	{
		host:     ocplugin.Kilo,
		packages: []string{"@kilocode/cli-linux-x64@7.7.9"}, // 7.8.1's platform package does not install
		exe:      "node_modules/@kilocode/cli-linux-x64/bin/kilo",
		config:   "kilo.json",
		env:      "KILO_",
	},
}

// installPinned installs an agent's pinned packages once into the
// conformance cache (HOOKX_AGENTS_DIR's parent, or <user cache>/
// hookx-conformance), under a file lock, and returns the directory.
func installPinned(t *testing.T, name string, packages []string) string {
	t.Helper()
	root := filepath.Join(os.Getenv("HOOKX_AGENTS_DIR"), "..")
	if os.Getenv("HOOKX_AGENTS_DIR") == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		root = filepath.Join(c, "hookx-conformance")
	}
	dir := filepath.Join(root, "plugin-"+name+"-"+strings.ReplaceAll(strings.Join(packages, "+"), "/", "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, ".installed")
	if _, err := os.Stat(marker); err == nil {
		return dir
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// Install scripts are skipped: opencode-ai's postinstall only links
	// the platform binary, which the test runs from its package.
	cmd := exec.CommandContext(ctx, "npm", append([]string{"install", "--ignore-scripts", "--no-audit", "--no-fund", "--save-exact"}, packages...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install %v: %v\n%s", packages, err, out)
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestOpenCodeLive runs migrate/ocplugin's plugin in the real OpenCode
// 1.18.33 and Kilo 7.7.9, offline against the fake OpenAI-compatible
// model, with a stand-in hookx (hookx wrap --host opencode|kilo does not
// exist yet): a block whose reason reaches the model, a harmless command
// that runs, a rewrite, and hookx missing (fails closed). Each run takes
// tens of seconds: set HOOKX_PLUGIN_LIVE to the agents to run
// ("opencode,kilo"; .ci/run names both, and in CI a missing npm fails the
// test). The first run installs them into the conformance cache; the two
// agents run side by side. To move into the conformance driver once the hosts are dialects.
func TestOpenCodeLive(t *testing.T) {
	want := strings.Split(os.Getenv("HOOKX_PLUGIN_LIVE"), ",")
	fake := `#!/bin/sh
in=$(cat)
printf '%s\n' "$in" >> "$(dirname "$0")/stdin.jsonl"
case "$in" in
*rm\ -rf*) printf '{"block":true,"reason":"OCGUARD-REFUSED rm -rf"}' ;;
*REWRITEME*) echo '{"args":{"command":"echo REWRITTEN-RAN"}}' ;;
*) echo '{}' ;;
esac
`
	for _, ag := range ocAgents {
		t.Run(ag.host.Name, func(t *testing.T) {
			if !slices.Contains(want, ag.host.Name) {
				t.Skipf("HOOKX_PLUGIN_LIVE does not name %s", ag.host.Name)
			}
			t.Parallel()
			if _, err := exec.LookPath("npm"); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatal("npm not installed: .ci/run installs it")
				}
				t.Skip("npm not installed")
			}
			inst := installPinned(t, ag.host.Name, ag.packages)
			deps := ""
			if ag.pluginDeps != nil {
				deps = installPinned(t, ag.host.Name+"-deps", ag.pluginDeps)
			}
			for _, tc := range []struct {
				name, command, want, notWant string
				noHookx                      bool
			}{
				{name: "block", command: "rm -rf ./nothing-here && echo SHOULD-NOT-RUN", want: "OCGUARD-REFUSED rm -rf", notWant: "SHOULD-NOT-RUN"},
				{name: "allow", command: "echo HARMLESS-RAN", want: "HARMLESS-RAN"},
				{name: "rewrite", command: "echo REWRITEME", want: "REWRITTEN-RAN"},
				{name: "hookx missing", command: "echo SHOULD-NOT-RUN", noHookx: true, want: "failed closed: cannot start hookx", notWant: "SHOULD-NOT-RUN"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					srv := NewOpenAI(Script{Steps: []Step{Tool("bash", map[string]any{"command": tc.command, "description": "run it"})}, Quote: true})
					defer srv.Close()
					root := t.TempDir()
					home := filepath.Join(root, "home")
					proj := filepath.Join(root, `my "proj"; x $y`)
					bin := filepath.Join(root, "bin")
					pluginDir := filepath.Join(proj, filepath.Dir(ag.host.Path))
					for _, d := range []string{home, pluginDir, bin} {
						if err := os.MkdirAll(d, 0o755); err != nil {
							t.Fatal(err)
						}
					}
					config := `{"model":"fake/fake-model","autoupdate":false,"share":"disabled","provider":{"fake":{"npm":"@ai-sdk/openai-compatible","name":"Fake","options":{"baseURL":"` + srv.URL + `/v1","apiKey":"dummy"},"models":{"fake-model":{"name":"Fake","tool_call":true}}}},"permission":{"bash":"allow","edit":"allow"}}`
					write := func(path, text string, mode os.FileMode) {
						if err := os.WriteFile(path, []byte(text), mode); err != nil {
							t.Fatal(err)
						}
					}
					write(filepath.Join(proj, ag.config), config, 0o644)
					write(filepath.Join(proj, ag.host.Path), ocplugin.Render(ag.host, "0.0.0-live"), 0o644)
					h, _ := json.Marshal(ocplugin.Hooks{Hookx: "0.0.0-live", Hooks: []ocplugin.Hook{{Event: ocplugin.Event, Tools: []string{"bash"}, Argv: []string{"wrap", "--from", "claude", "--host", ag.host.Name, "--", "./guard.sh"}, TimeoutMs: 10000}}})
					write(filepath.Join(proj, ag.host.HooksPath), string(h), 0o644)
					if !tc.noHookx {
						write(filepath.Join(bin, "hookx"), fake, 0o755)
					}
					if deps != "" {
						cfg := filepath.Dir(filepath.Dir(filepath.Join(proj, ag.host.Path)))
						for _, f := range []string{"node_modules", "package.json", "package-lock.json"} {
							cp := exec.Command("cp", "-a", filepath.Join(deps, f), filepath.Join(cfg, f))
							if out, err := cp.CombinedOutput(); err != nil {
								t.Fatalf("%v: %s", err, out)
							}
						}
					}
					ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
					defer cancel()
					cmd := exec.CommandContext(ctx, filepath.Join(inst, ag.exe), "run", "do it")
					cmd.Dir = proj
					cmd.Env = []string{
						"HOME=" + home, "PATH=" + bin + ":/usr/bin:/bin",
						"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local/share"),
						"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_STATE_HOME=" + filepath.Join(home, ".local/state"),
					}
					for _, v := range []string{"DISABLE_AUTOUPDATE", "DISABLE_MODELS_FETCH", "DISABLE_DEFAULT_PLUGINS", "DISABLE_LSP_DOWNLOAD", "DISABLE_SHARE", "DISABLE_SESSION_INGEST", "DISABLE_CODEBASE_INDEXING"} {
						cmd.Env = append(cmd.Env, ag.env+v+"=1")
					}
					cmd.Env = append(cmd.Env, ag.env+"TELEMETRY_LEVEL=off")
					start := time.Now()
					out, err := cmd.CombinedOutput()
					took := time.Since(start)
					t.Logf("%s %s: %.1f s, err %v", ag.host.Name, tc.name, took.Seconds(), err)
					// What the agent's own log says of installing (the plugin
					// dependency OpenCode would fetch) and of plugins.
					filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
						if err == nil && !d.IsDir() && strings.HasSuffix(p, ".log") {
							b, _ := os.ReadFile(p)
							for _, l := range strings.Split(string(b), "\n") {
								if strings.Contains(l, "install") || strings.Contains(l, "plugin") {
									t.Logf("log: %.300s", l)
								}
							}
						}
						return nil
					})
					results := ""
					for _, r := range srv.Requests() {
						if r.Main {
							for _, tr := range r.ToolResults() {
								results += tr.Text + "\n"
							}
						}
					}
					if !strings.Contains(results, tc.want) || (tc.notWant != "" && strings.Contains(results, tc.notWant)) {
						t.Errorf("the model saw %q, want %q (and not %q)\noutput:\n%.4000s\nrequests: %s", results, tc.want, tc.notWant, out, srv.Summary())
					} else {
						t.Logf("the model saw: %s", strings.TrimSpace(results))
					}
					if !tc.noHookx {
						in, _ := os.ReadFile(filepath.Join(bin, "stdin.jsonl"))
						t.Logf("hookx was given: %s", in)
						if !strings.Contains(string(in), `"sessionID":"ses_`) || !strings.Contains(string(in), `"directory":`) {
							t.Errorf("hookx's stdin lacks the session or the directory: %s", in)
						}
					}
				})
			}
		})
	}
}
