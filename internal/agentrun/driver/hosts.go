//go:build unix

package driver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// The four agents of issue 15, run as /work/shared/reference/
// more-agents-offline.md describes (seen live 2026-11-23).
const (
	Codex   Agent = "codex"   // Codex CLI, OpenAI Responses
	Copilot Agent = "copilot" // GitHub Copilot CLI, OpenAI Chat Completions
	Qwen    Agent = "qwen"    // Qwen Code, OpenAI Chat Completions
	Droid   Agent = "droid"   // Factory Droid, OpenAI Chat Completions
	// Cline CLI 3.0.65 (issue 30), OpenAI Chat Completions through its
	// openai-compatible provider (../shared/reference/plugin-agents-offline.md).
	Cline Agent = "cline"
	// Pi 1.6.0, OpenCode 1.18.33 and Kilo Code 7.7.9 (issue 29): no command
	// hooks, in-process plugins; OpenAI Chat Completions
	// (../shared/reference/plugin-agents-offline.md).
	Pi       Agent = "pi"
	OpenCode Agent = "opencode"
	Kilo     Agent = "kilo"
)

// Agents are all the agents the suite runs.
var Agents = []Agent{Claude, Gemini, Codex, Copilot, Qwen, Droid, Cline, Pi, OpenCode, Kilo}

// openCodeConfig is OpenCode's and Kilo's configuration pointed at the
// fake model (the provider package is bundled), every tool allowed, with
// the agent's own settings of openCodeOffline.
func openCodeConfig(a Agent, v1 string) string {
	cfg := map[string]any{
		"model": "fake/" + FakeModel, "autoupdate": false, "share": "disabled",
		"provider": map[string]any{"fake": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Fake",
			"options": map[string]any{"baseURL": v1, "apiKey": "dummy"},
			"models":  map[string]any{FakeModel: map[string]any{"name": "Fake", "tool_call": true}},
		}},
		"permission": map[string]any{"bash": "allow", "edit": "allow"},
	}
	for k, v := range openCodeOffline[a] {
		cfg[k] = v
	}
	b, _ := json.Marshal(cfg)
	return string(b) + "\n"
}

// openCodeOffline are the settings that keep an agent's start off the
// network where no variable does. Kilo Code 7.7.9 fetches its gateway's
// model list from api.kilo.ai (KILO_API_URL) on every start, whatever the
// configured model, unless the "kilo" provider is disabled: ModelsDev.get
// (bin/kilo @115167221) fetches it only when
// (!enabled_providers || enabled_providers.has("kilo")) &&
// !disabled_providers.has("kilo") (@115167434, the fetch @115168123).
// Seen under strace, a run in a fresh HOME: DNS lookups of api.kilo.ai
// before the first model call without it, none with it.
// KILO_DISABLE_MODELS_FETCH turns off models.dev only.
var openCodeOffline = map[Agent]map[string]any{
	Kilo: {"disabled_providers": []string{"kilo"}},
}

// openCodeConfigFile is where Setup writes openCodeConfig for OpenCode and
// Kilo, under HOME; Env names it in <PREFIX>CONFIG.
var openCodeConfigFile = map[Agent]string{OpenCode: ".config/hookx-fake/opencode.json", Kilo: ".config/hookx-fake/kilo.json"}

// npmOffline keeps an npm install of OpenCode or Kilo off the network.
var npmOffline = []string{"npm_config_offline=true", "npm_config_registry=http://127.0.0.1:9/", "npm_config_fetch_retries=0"}

// openCodeEnvPrefix is the prefix of OpenCode's variables and Kilo's.
var openCodeEnvPrefix = map[Agent]string{OpenCode: "OPENCODE_", Kilo: "KILO_"}

// Wire names the model API an agent speaks.
type Wire string

// The model APIs.
const (
	WireAnthropic Wire = "anthropic" // Messages API
	WireGemini    Wire = "gemini"    // generativelanguage v1beta
	WireOpenAI    Wire = "openai"    // Chat Completions, and Responses (Codex)
)

// Wire returns the model API a speaks.
func (a Agent) Wire() Wire {
	switch a {
	case Claude:
		return WireAnthropic
	case Gemini:
		return WireGemini
	}
	return WireOpenAI
}

// FakeModel is the model name the OpenAI agents are configured with.
const FakeModel = "fake-model"

// Setup writes a's user-level configuration into the sandbox home, pointed
// at the fake model server at baseURL (its root; "/v1" is appended for the
// OpenAI agents), with the project trusted where the agent has a trust gate,
// and every update check, telemetry and sign-in switched off. Claude and
// Gemini need nothing beyond NewSandbox and Env. Call it before each run: it
// rewrites the files with baseURL.
func (s *Sandbox) Setup(a Agent, baseURL string) error {
	v1 := strings.TrimSuffix(baseURL, "/") + "/v1"
	files := map[string]string{}
	switch a {
	case Codex:
		// Without the analytics, plugins and update settings Codex looks up
		// api.github.com, chatgpt.com and ab.chatgpt.com. The project entry is
		// the first trust gate (.codex/ is read only in a trusted project);
		// --dangerously-bypass-hook-trust in AgentArgs is the second.
		files[".codex/config.toml"] = fmt.Sprintf(`model = %s
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = %s
wire_api = "responses"
env_key = "FAKE_OPENAI_KEY"

[analytics]
enabled = false

[features]
plugins = false

[projects.%s]
trust_level = "trusted"
`, tomlString(FakeModel), tomlString(v1), tomlString(s.Project))
	case Copilot:
		// The saved trust of a user: repo hooks load only in a trusted folder.
		b, _ := json.Marshal(map[string]any{"trustedFolders": []string{s.Project}})
		files[".copilot/config.json"] = string(b) + "\n"
	case Qwen:
		files[".qwen/settings.json"] = `{"security":{"auth":{"selectedType":"openai"}},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}` + "\n"
	case Droid:
		b, _ := json.Marshal(map[string]any{"customModels": []any{map[string]any{
			"model": FakeModel, "displayName": "Fake", "baseUrl": v1, "apiKey": "dummy",
			"provider": "generic-chat-completion-api", "maxOutputTokens": 1024,
		}}})
		files[".factory/settings.json"] = string(b) + "\n"
	case Cline:
		// What `cline auth -p openai-compatible -k dummy -m fake-model -b
		// URL` writes (seen 2026-11-28), without its 5 s run.
		b, _ := json.Marshal(map[string]any{"version": 1, "lastUsedProvider": "openai-compatible", "modes": map[string]any{},
			"providers": map[string]any{"openai-compatible": map[string]any{
				"settings":  map[string]any{"provider": "openai-compatible", "apiKey": "dummy", "model": FakeModel, "baseUrl": v1},
				"updatedAt": "2026-11-28T00:00:00.000Z", "tokenSource": "manual",
			}}})
		files[".cline/data/settings/providers.json"] = string(b) + "\n"
	case Pi:
		// The fake as a provider of Pi's own (models.json), and the project
		// trusted the way a user trusts it (trust.json): Pi 1.6 loads a
		// project's extensions only in a trusted project, and skips them
		// silently in any other.
		b, _ := json.Marshal(map[string]any{"providers": map[string]any{"fake": map[string]any{
			"baseUrl": v1, "api": "openai-completions", "apiKey": "dummy",
			"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
			"models": []any{map[string]any{"id": FakeModel}},
		}}})
		files[".pi/agent/models.json"] = string(b) + "\n"
		t, _ := json.Marshal(map[string]bool{s.Project: true})
		files[".pi/agent/trust.json"] = string(t) + "\n"
	case OpenCode, Kilo:
		files[openCodeConfigFile[a]] = openCodeConfig(a, v1)
		if a == OpenCode && s.OpenCodePlugin != "" {
			// OpenCode npm-installs its plugin API into .opencode/ on its
			// first start in a project (about 40 s, from the registry):
			// the pinned copy goes there first, and nothing is fetched.
			if err := copyPluginDeps(s.OpenCodePlugin, s.Path(".opencode")); err != nil {
				return fmt.Errorf("%s setup: %w", a, err)
			}
		}
	}
	for rel, content := range files {
		p := filepath.Join(s.Home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("%s setup: %w", a, err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return fmt.Errorf("%s setup: %w", a, err)
		}
	}
	return nil
}

// copyPluginDeps copies node_modules, package.json and package-lock.json
// of from into dir, unless dir has a node_modules already.
func copyPluginDeps(from, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []string{"node_modules", "package.json", "package-lock.json"} {
		if out, err := exec.Command("cp", "-a", "--", filepath.Join(from, f), filepath.Join(dir, f)).CombinedOutput(); err != nil {
			return fmt.Errorf("copy OpenCode's plugin API: %w: %s", err, out)
		}
	}
	return nil
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// openAIEnv is the part of Env for the four OpenAI agents.
func (s *Sandbox) openAIEnv(a Agent, baseURL string) []string {
	v1 := strings.TrimSuffix(baseURL, "/") + "/v1"
	switch a {
	case Codex:
		return []string{"FAKE_OPENAI_KEY=dummy", "NO_COLOR=1"}
	case Copilot:
		cache := s.XDGCache
		if cache == "" {
			cache = filepath.Join(s.Home, ".cache")
		}
		return []string{
			"COPILOT_OFFLINE=true", // no auth, telemetry or update check
			"COPILOT_PROVIDER_BASE_URL=" + v1, "COPILOT_PROVIDER_API_KEY=dummy", "COPILOT_MODEL=" + FakeModel,
			"XDG_CACHE_HOME=" + cache, "NO_COLOR=1",
		}
	case Qwen:
		env := []string{
			"OPENAI_API_KEY=dummy", "OPENAI_BASE_URL=" + v1, "OPENAI_MODEL=" + FakeModel,
			"QWEN_CODE_SUPPRESS_YOLO_WARNING=1",
			"QWEN_DEBUG_LOG_FILE=1", // the only place an invalid hook is reported
			"NO_COLOR=1",
		}
		if !s.Relaunch {
			env = append(env, NoRelaunch[Qwen]) // one load of the bundle, not two
		}
		return env
	case Droid:
		// Without it Droid looks up api.factory.ai and an OpenTelemetry
		// collector, and waits about 6 s on DNS.
		return []string{"FACTORY_AIRGAP_ENABLED=true", "NO_COLOR=1"}
	case Cline:
		// A run in the default backend mode ("auto") looks for a hub on
		// 127.0.0.1:25463, the same port for every HOME, and, finding none,
		// runs locally and starts a detached hub daemon there for the next
		// run: parallel sandboxes would meet in one daemon, with another
		// sandbox's home and project. A fresh HOME's first run is the local
		// runtime anyway; "local" keeps it so and starts no daemon
		// (G2/U2 in the binary's core). Run still ends any process left
		// with the sandbox's HOME by its PID (Result.Leftover).
		return []string{"CLINE_SESSION_BACKEND_MODE=local", "CLINE_NO_AUTO_UPDATE=1", "NO_COLOR=1"}
	case Pi:
		return []string{"PI_OFFLINE=1", "NO_COLOR=1"}
	case OpenCode, Kilo:
		pre := openCodeEnvPrefix[a]
		env := []string{pre + "CONFIG=" + filepath.Join(s.Home, openCodeConfigFile[a]), pre + "TELEMETRY_LEVEL=off", "NO_COLOR=1"}
		for _, v := range []string{"DISABLE_AUTOUPDATE", "DISABLE_MODELS_FETCH", "DISABLE_DEFAULT_PLUGINS", "DISABLE_LSP_DOWNLOAD", "DISABLE_SHARE", "DISABLE_SESSION_INGEST", "DISABLE_CODEBASE_INDEXING"} {
			env = append(env, pre+v+"=1")
		}
		// Both install their plugin API (@opencode-ai/plugin,
		// @kilocode/plugin) into a project's plugin directory on its first
		// start, from the npm registry: OpenCode's pinned copy is there
		// already (Setup); Kilo's install fails at once here, offline and
		// against a closed local port, with no retry. Kilo ignores the
		// failure (waitForDependencies), and the generated plugin imports
		// nothing from it.
		return append(env, npmOffline...)
	}
	return nil
}

// openAIArgs are the headless arguments of the four OpenAI agents.
func openAIArgs(a Agent, prompt string) []string {
	switch a {
	case Codex:
		return []string{"exec", "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust", prompt}
	case Copilot:
		return []string{"-p", prompt, "--allow-all-tools"}
	case Qwen:
		return []string{"-p", prompt, "--yolo"}
	case Droid:
		return []string{"exec", "-m", "custom:" + FakeModel, "--auto", "high", prompt}
	case Cline:
		// Headless without a TTY, tools auto-approved by default; --json
		// writes every message of the task to stdout, for the evidence.
		// The provider and model are named too: without them a run took
		// the default provider "cline" and retried its API for 64 s.
		return []string{"--json", "-P", "openai-compatible", "-m", FakeModel, prompt}
	case Pi:
		return []string{"-p", "--provider", "fake", "--model", FakeModel, prompt}
	case OpenCode, Kilo:
		return []string{"run", prompt}
	}
	return nil
}

// A warningSource is where an agent reports hook settings it did not load.
type warningSource struct {
	glob string         // files under HOME; "" is the run's stderr
	re   *regexp.Regexp // a line matching it is a warning
}

// stderrWarnings match the Claude and Gemini stderr lines that mean the hook
// settings did not load cleanly (case-insensitive).
var stderrWarnings = regexp.MustCompile(`(?i)invalid hook|discarding|invalid settings|settings error|unknown hook event|invalid configuration`)

// warningSources are each agent's settings-warning channels (live,
// 2026-11-23). Copilot and Qwen report a bad hook file only in their own log
// files, Droid a wrapped or bad one only in its log, Codex on stderr.
var warningSources = map[Agent][]warningSource{
	Claude: {{re: stderrWarnings}},
	Gemini: {{re: stderrWarnings}},
	Codex:  {{re: regexp.MustCompile(`(?i)failed to parse hooks config|untrusted project-local configuration|invalid hook|unknown hook event`)}},
	Copilot: {
		{re: stderrWarnings},
		{glob: ".copilot/logs/*.log", re: regexp.MustCompile(`\[(ERROR|WARN(ING)?)\] \[rust:hooks\]|(?i)invalid hook`)},
	},
	Qwen: {
		{re: stderrWarnings},
		{glob: ".qwen/debug/*", re: regexp.MustCompile(`\[(WARN|ERROR)\] \[HOOK|(?i)invalid hook`)},
	},
	Droid: {
		{re: stderrWarnings},
		{glob: ".factory/logs/*.log", re: regexp.MustCompile(`(?i)invalid hooks file|unknown hook event`)},
	},
	// Cline reports a hook it could not read or run as an error of the
	// tool call: "tool_call hook produced invalid control JSON", "hook
	// command timed out" (core@706683).
	Cline: {{re: regexp.MustCompile(`(?i)hook produced invalid|hook command timed out|hook command failed`)}},
	// Pi reports an extension it could not load on stderr ("Failed to
	// load extension").
	Pi: {{re: regexp.MustCompile(`(?i)failed to load extension|extension error`)}},
	// OpenCode and Kilo log a plugin they could not load.
	OpenCode: {{re: regexp.MustCompile(`(?i)failed to load plugin|plugin.*(error|failed)`)}},
	Kilo:     {{re: regexp.MustCompile(`(?i)failed to load plugin|plugin.*(error|failed)`)}},
}

// SettingsWarnings returns every line in a's settings-warning channels (the
// run's stderr, and the agent's own log files in the sandbox home) that says
// hook settings were not loaded cleanly, each prefixed with where it was
// found. The log files hold every run of the sandbox so far.
func (s *Sandbox) SettingsWarnings(a Agent, r Result) []string {
	var out []string
	for _, src := range warningSources[a] {
		if src.glob == "" {
			for _, l := range strings.Split(r.Stderr, "\n") {
				if src.re.MatchString(l) {
					out = append(out, "stderr: "+strings.TrimSpace(l))
				}
			}
			continue
		}
		files, _ := filepath.Glob(filepath.Join(s.Home, filepath.FromSlash(src.glob)))
		for _, f := range files {
			fh, err := os.Open(f)
			if err != nil {
				continue
			}
			sc := bufio.NewScanner(fh)
			sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
			for sc.Scan() {
				if l := sc.Text(); src.re.MatchString(l) {
					if len(l) > 500 {
						l = l[:500] + "…"
					}
					rel, _ := filepath.Rel(s.Home, f)
					out = append(out, "~/"+rel+": "+strings.TrimSpace(l))
				}
			}
			fh.Close()
		}
	}
	return out
}

// LogFiles lists a's own log files in the sandbox home (for evidence).
func (s *Sandbox) LogFiles(a Agent) []string {
	var out []string
	for _, src := range warningSources[a] {
		if src.glob != "" {
			m, _ := filepath.Glob(filepath.Join(s.Home, filepath.FromSlash(src.glob)))
			out = append(out, m...)
		}
	}
	return out
}
