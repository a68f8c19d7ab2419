// Package rustregex runs Rust's regex crate as a test oracle: the program in
// oracle/ (Regex::new and is_match, as Codex's hooks call them), built once
// with cargo from Debian's crate registry (librust-regex-dev, offline) and
// kept in the user cache directory under a hash of its sources, then run as
// one long-lived process per test binary, asked one JSON line and answering
// one JSON line.
//
// Debian's regex is 1.7.1; Codex 0.169.0 is built with 1.12.3. Tests keep
// the syntax the two versions read differently out of what they compare
// (see mappings.TestRustMatchersLikeRust).
package rustregex

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hookx-dev/hookx/internal/oracleproc"
)

//go:embed oracle/Cargo.toml oracle/src/main.rs
var sources embed.FS

// Registry is Debian's local crate registry, which cargo reads offline in
// place of crates.io.
const Registry = "/usr/share/cargo/registry"

const cargoConfig = `[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "` + Registry + `"
`

// Verdict is the oracle's answer for one pattern: whether Regex::new
// accepted it (else Err), and is_match on each subject.
type Verdict struct {
	OK  bool   `json:"ok"`
	Err string `json:"err"`
	M   []bool `json:"m"`
}

// Oracle is the running oracle program.
type Oracle struct{ p *oracleproc.Process }

var start = sync.OnceValues(func() (*Oracle, error) {
	bin, err := Build()
	if err != nil {
		return nil, err
	}
	p, err := oracleproc.Start("the Rust regex oracle", exec.Command(bin))
	if err != nil {
		return nil, err
	}
	return &Oracle{p}, nil
})

// Start returns the oracle, built and started on first use.
func Start() (*Oracle, error) { return start() }

// Require returns the oracle, built and started on first use. Without cargo
// or Debian's regex crate the test is skipped, except in CI (CI=true), where
// .ci/run installs them and it fails.
func Require(tb testing.TB) *Oracle {
	tb.Helper()
	return oracleproc.Require(tb, "the Rust regex oracle", start)
}

// Test compiles pattern with Regex::new and matches it against subjects.
func (o *Oracle) Test(pattern string, subjects []string) (Verdict, error) {
	var v Verdict
	if err := o.p.Ask(map[string]any{"p": pattern, "s": subjects}, &v); err != nil {
		return v, err
	}
	if v.OK && len(v.M) != len(subjects) {
		return v, fmt.Errorf("the oracle answered %d matches for %d subjects", len(v.M), len(subjects))
	}
	return v, nil
}

// Build builds the oracle unless a build of the same sources is cached, and
// returns the program's path.
func Build() (string, error) {
	cargo, err := findCargo()
	if err != nil {
		return "", err
	}
	if m, _ := filepath.Glob(filepath.Join(Registry, "regex-1.*")); len(m) == 0 {
		return "", fmt.Errorf("no regex crate in %s (apt-get install librust-regex-dev)", Registry)
	}
	h := sha256.New()
	err = fs.WalkDir(sources, "oracle", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := sources.ReadFile(p)
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
		return err
	})
	if err != nil {
		return "", err
	}
	h.Write([]byte(cargoConfig))
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "hookx-rustregex", hex.EncodeToString(h.Sum(nil))[:16])
	bin := filepath.Join(dir, "hookx-rustregex-oracle")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	// Build beside the cache entry and rename: a concurrent test binary
	// sees either no program or a whole one.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	work, err := os.MkdirTemp(filepath.Dir(dir), "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	err = fs.WalkDir(sources, "oracle", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(work, p)
		if e.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := sources.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(work, "oracle", ".cargo"), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(work, "oracle", ".cargo", "config.toml"), []byte(cargoConfig), 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command(cargo, "build", "--offline", "--release", "--quiet")
	cmd.Dir = filepath.Join(work, "oracle")
	// The rustc beside the cargo chosen, not a rustup shim on PATH that
	// may have no toolchain (Debian's cargo calls "rustc" from PATH).
	if rustc := filepath.Join(filepath.Dir(cargo), "rustc"); exec.Command(rustc, "-vV").Run() == nil {
		cmd.Env = append(os.Environ(), "RUSTC="+rustc)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("cargo build of the oracle: %w\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(work, "out"), 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(filepath.Join(work, "oracle", "target", "release", "hookx-rustregex-oracle"), filepath.Join(work, "out", "hookx-rustregex-oracle")); err != nil {
		return "", err
	}
	if err := os.Rename(filepath.Join(work, "out"), dir); err != nil {
		if _, serr := os.Stat(bin); serr == nil {
			return bin, nil // another test binary built it first
		}
		return "", err
	}
	return bin, nil
}

// findCargo finds a cargo that runs: on PATH, where rustup puts it, or
// Debian's. A rustup shim with no default toolchain (a HOME without
// ~/.rustup) is on PATH but does not run, so each is tried.
func findCargo() (string, error) {
	var tried []string
	if p, err := exec.LookPath("cargo"); err == nil {
		tried = append(tried, p)
	}
	if home, err := os.UserHomeDir(); err == nil {
		tried = append(tried, filepath.Join(home, ".cargo", "bin", "cargo"))
	}
	tried = append(tried, "/usr/bin/cargo")
	for _, p := range tried {
		if exec.Command(p, "--version").Run() == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no cargo that runs (tried %s; apt-get install cargo rustc)", strings.Join(tried, ", "))
}
