//go:build unix

package driver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each agent's warning channel is read: stderr for all, and the log files
// Copilot, Qwen and Droid report a bad hook file in (seen live 2026-11-23).
func TestSettingsWarningsReadEachChannel(t *testing.T) {
	sb, err := NewSandbox(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	logs := map[string]string{
		".copilot/logs/process-1.log":         "2026-11-23T10:00:00Z [INFO] started\n2026-11-23T10:00:01Z [ERROR] [rust:hooks] Invalid hook configuration in /p/.github/hooks/x.json\n",
		".qwen/debug/session.txt":             "[DEBUG] x\n[WARN] [HOOK_REGISTRY] Invalid hook PreToolUse from project type: shell\n",
		".factory/logs/droid-log-single.log":  "[x] WARN: Ignoring unknown hook event keys {\"keys\":[\"hooks\"]}\n[x] INFO: fine\n",
		".factory/logs/droid-log-other.log":   "[x] WARN: Invalid hooks file, ignoring\n",
		".copilot/logs/unrelated-hook-ok.txt": "[ERROR] [rust:hooks] not a .log file\n",
	}
	for rel, s := range logs {
		p := filepath.Join(sb.Home, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		agent  Agent
		stderr string
		want   []string
	}{
		{Claude, "ok\nSettings Error: Invalid hook event\n", []string{"stderr: Settings Error: Invalid hook event"}},
		{Codex, "warning: failed to parse hooks config /p/.codex/hooks.json: unknown field `version`\n", []string{"stderr: warning: failed to parse hooks config /p/.codex/hooks.json: unknown field `version`"}},
		{Copilot, "", []string{"~/.copilot/logs/process-1.log: 2026-11-23T10:00:01Z [ERROR] [rust:hooks] Invalid hook configuration in /p/.github/hooks/x.json"}},
		{Qwen, "", []string{"~/.qwen/debug/session.txt: [WARN] [HOOK_REGISTRY] Invalid hook PreToolUse from project type: shell"}},
		{Droid, "", []string{
			"~/.factory/logs/droid-log-other.log: [x] WARN: Invalid hooks file, ignoring",
			`~/.factory/logs/droid-log-single.log: [x] WARN: Ignoring unknown hook event keys {"keys":["hooks"]}`,
		}},
		{Gemini, "all fine\n", nil},
	}
	for _, tt := range tests {
		got := sb.SettingsWarnings(tt.agent, Result{Stderr: tt.stderr})
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.agent, diff)
		}
	}
}

func TestSetupTrustsTheProjectWithAwkwardName(t *testing.T) {
	sb, err := NewSandboxNamed(t.TempDir(), "", `My "Project"\ 1`)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range Agents {
		if err := sb.Setup(a, "http://127.0.0.1:5/"); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(sb.Home, ".codex", "config.toml"))
	want := `[projects."` + strings.ReplaceAll(strings.ReplaceAll(sb.Project, `\`, `\\`), `"`, `\"`) + `"]`
	if !strings.Contains(string(b), want) || !strings.Contains(string(b), `base_url = "http://127.0.0.1:5/v1"`) {
		t.Errorf("codex config.toml lacks %s or the base URL:\n%s", want, b)
	}
	for _, f := range []string{".copilot/config.json", ".qwen/settings.json", ".factory/settings.json"} {
		if _, err := os.Stat(filepath.Join(sb.Home, f)); err != nil {
			t.Errorf("setup wrote no %s: %v", f, err)
		}
	}
}

// OpenCode and Kilo install their plugin API from the npm registry on a
// project's first start (Kilo's @kilocode/plugin: a registry.npmjs.org
// lookup seen under strace on every first run); the environment keeps npm
// offline, its registry a closed local port.
func TestOpenCodeKiloNpmOffline(t *testing.T) {
	sb, err := NewSandbox(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Agent{OpenCode, Kilo} {
		env := sb.Env(a, "http://127.0.0.1:5/")
		for _, want := range []string{"npm_config_offline=true", "npm_config_registry=http://127.0.0.1:9/"} {
			if !slices.Contains(env, want) {
				t.Errorf("%s's environment lacks %s", a, want)
			}
		}
	}
}

// TestKiloConfigDisablesItsGateway holds Kilo's configuration to the
// setting that keeps its start off api.kilo.ai (openCodeOffline): without
// it, every run looked its gateway up.
func TestKiloConfigDisablesItsGateway(t *testing.T) {
	sb, err := NewSandbox(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.Setup(Kilo, "http://127.0.0.1:5"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(sb.Home, openCodeConfigFile[Kilo]))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Model             string   `json:"model"`
		DisabledProviders []string `json:"disabled_providers"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(cfg.DisabledProviders, "kilo") || cfg.Model != "fake/"+FakeModel {
		t.Errorf("Kilo's configuration %s: want the fake model, and the kilo provider disabled", b)
	}
}
