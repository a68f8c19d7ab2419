package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The repository's top directory, from scripts/release.
const root = "../.."

var (
	firstOnce sync.Once
	firstDir  string
	firstErr  error
)

// firstRelease builds the release once per test binary (into a directory
// that outlives the tests that share it; TestMain removes it).
func firstRelease(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds six binaries (-short)")
	}
	firstOnce.Do(func() {
		start := time.Now()
		firstDir, firstErr = os.MkdirTemp("", "hookx-release-")
		if firstErr == nil {
			firstErr = release(options{Root: root, Out: firstDir, AllowDirty: true, BaseURL: "https://example.com/dl", Log: io.Discard})
		}
		t.Logf("first release build: %v", time.Since(start).Round(time.Millisecond))
	})
	if firstErr != nil {
		t.Fatal(firstErr)
	}
	return firstDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if firstDir != "" {
		os.RemoveAll(firstDir)
	}
	os.Exit(code)
}

// TestReproducible builds the release twice: the checksums are the same,
// and the host's binary, taken out of its archive, says its version.
func TestReproducible(t *testing.T) {
	a := firstRelease(t)
	b := t.TempDir()
	start := time.Now()
	if err := release(options{Root: root, Out: b, AllowDirty: true, BaseURL: "https://example.com/dl", Log: io.Discard}); err != nil {
		t.Fatal(err)
	}
	t.Logf("second release build: %v", time.Since(start).Round(time.Millisecond))
	sa, err := os.ReadFile(filepath.Join(a, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	sb, err := os.ReadFile(filepath.Join(b, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(sa), string(sb)); diff != "" {
		t.Errorf("two builds of the same commit differ (-first +second):\n%s", diff)
	}
	if n := strings.Count(string(sa), "\n"); n != len(platforms) {
		t.Errorf("SHA256SUMS has %d lines, want %d:\n%s", n, len(platforms), sa)
	}
	// sha256sum -c agrees with the file, where it exists.
	if _, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command("sha256sum", "-c", "--strict", "SHA256SUMS")
		cmd.Dir = a
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c: %v\n%s", err, out)
		}
	}

	if runtime.GOOS == "windows" {
		t.Skip("the host archive is a zip; the tar.gz path is what this checks")
	}
	st, err := readStamp(root, true)
	if err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(a, "hookx_"+st.Version+"_"+runtime.GOOS+"_"+runtime.GOARCH+".tar.gz")
	bin := filepath.Join(t.TempDir(), "hookx")
	names := untar(t, archive, "hookx", bin)
	if diff := cmp.Diff([]string{"hookx", "LICENSE", "README.md", "CHANGELOG.md"}, names); diff != "" {
		t.Errorf("archive entries (-want +got):\n%s", diff)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^hookx ` + regexp.QuoteMeta(st.Version) + ` \(commit [0-9a-f]{40}(-modified)?, built \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\n`)
	if !want.Match(out) {
		t.Errorf("--version printed %q, want %v", out, want)
	}
	if !strings.Contains(string(out), st.Time.Format(time.RFC3339)) || !strings.Contains(string(out), st.Commit) {
		t.Errorf("--version printed %q, want commit %s built %s", out, st.Commit, st.Time.Format(time.RFC3339))
	}
}

// untar checks every header of a release archive (uid/gid 0, no names,
// fixed modes, one mtime), extracts member to dst and returns the names.
func untar(t *testing.T, archive, member, dst string) []string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() {
		t.Errorf("gzip header has name %q, time %v", zr.Name, zr.ModTime)
	}
	tr := tar.NewReader(zr)
	var names []string
	var mtime time.Time
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		wantMode := int64(0o644)
		if h.Name == member {
			wantMode = 0o755
		}
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || h.Mode != wantMode {
			t.Errorf("%s: uid %d gid %d uname %q gname %q mode %o", h.Name, h.Uid, h.Gid, h.Uname, h.Gname, h.Mode)
		}
		if mtime.IsZero() {
			mtime = h.ModTime
		} else if !h.ModTime.Equal(mtime) {
			t.Errorf("%s: mtime %v, others %v", h.Name, h.ModTime, mtime)
		}
		if h.Name == member {
			var buf bytes.Buffer
			if _, err := io.Copy(&buf, tr); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dst, buf.Bytes(), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return names
}

// TestFormula checks that the Homebrew formula names each unix archive
// with its checksum from SHA256SUMS, and that ruby parses it.
func TestFormula(t *testing.T) {
	dir := firstRelease(t)
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	rb, err := os.ReadFile(filepath.Join(dir, "hookx.rb"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		sum, name, _ := strings.Cut(line, "  ")
		if strings.HasSuffix(name, ".tar.gz") {
			want["https://example.com/dl/"+name] = sum
		}
	}
	got := map[string]string{}
	pair := regexp.MustCompile(`(?m)^\s*url "([^"]+)"\n\s*sha256 "([0-9a-f]{64})"$`)
	for _, m := range pair.FindAllStringSubmatch(string(rb), -1) {
		got[m[1]] = m[2]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("formula's url/sha256 pairs (-SHA256SUMS +hookx.rb):\n%s\n%s", diff, rb)
	}
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ruby is not installed (.ci/run installs it)")
		}
		t.Skip("no ruby to check the formula's syntax")
	}
	if out, err := exec.Command(ruby, "-c", filepath.Join(dir, "hookx.rb")).CombinedOutput(); err != nil {
		t.Errorf("ruby -c hookx.rb: %v\n%s\n%s", err, out, rb)
	}
}

// TestNPM packs the npm packages and installs the launcher and this
// platform's package offline into a throwaway project, then runs hookx
// through npx: --version, and the README's wrap example.
func TestNPM(t *testing.T) {
	dir := firstRelease(t)
	npm, err := exec.LookPath("npm")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("npm is not installed (.ci/run installs it)")
		}
		t.Skip("no npm")
	}
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Fatal(err)
	}
	nodeOS := map[string]string{"windows": "win32"}[runtime.GOOS]
	if nodeOS == "" {
		nodeOS = runtime.GOOS
	}
	nodeCPU := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if nodeCPU == "" {
		t.Skipf("no release for %s", runtime.GOARCH)
	}
	tmp := t.TempDir()
	// A throwaway HOME and cache: nothing of the user's npm setup (a
	// registry, a token, a cache) takes part.
	env := append(os.Environ(), "HOME="+tmp, "npm_config_cache="+filepath.Join(tmp, "cache"),
		"npm_config_userconfig="+filepath.Join(tmp, "npmrc"), "npm_config_update_notifier=false",
		"npm_config_registry=http://127.0.0.1:9/") // nothing listens on the discard port
	run := func(dir string, stdin io.Reader, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, stdin
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.Bytes())
		}
		return string(out)
	}
	packs := filepath.Join(tmp, "packs")
	os.Mkdir(packs, 0o755)
	pack := func(pkg string) string {
		return filepath.Join(packs, strings.TrimSpace(run(filepath.Join(dir, "npm", pkg), nil, npm, "pack", "--silent", "--pack-destination", packs)))
	}
	launcher := pack("hookx")
	// Every platform's package is offered, each through the project's
	// "overrides" to its packed tarball (a file: mapping, so npm needs no
	// registry for any of the six), and npm itself picks the one whose os
	// and cpu match this machine, as a user's npm i hookx would.
	overrides := map[string]string{}
	for _, p := range platforms {
		overrides[p.npmName()] = "file:" + pack("hookx-"+p.NodeOS+"-"+p.NodeCPU)
	}
	manifest, err := json.Marshal(map[string]any{
		"name": "t", "private": true,
		"dependencies": map[string]string{"hookx": "file:" + launcher},
		"overrides":    overrides,
	})
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(tmp, "project")
	os.Mkdir(proj, 0o755)
	if err := os.WriteFile(filepath.Join(proj, "package.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	// Without --omit=optional, and without asking the registry: --offline,
	// and the registry is a closed port, so any attempt fails.
	run(proj, nil, npm, "install", "--offline", "--no-audit", "--no-fund")
	installed, err := os.ReadDir(filepath.Join(proj, "node_modules", "@hookx"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range installed {
		names = append(names, "@hookx/"+e.Name())
	}
	if diff := cmp.Diff([]string{"@hookx/" + nodeOS + "-" + nodeCPU}, names); diff != "" {
		t.Errorf("platform packages installed (-want +got):\n%s", diff)
	}
	st, err := readStamp(root, true)
	if err != nil {
		t.Fatal(err)
	}
	out := run(proj, nil, npx, "--offline", "hookx", "--version")
	if !strings.HasPrefix(out, "hookx "+st.Version+" (commit "+st.Commit+", built ") {
		t.Errorf("npx hookx --version printed %q", out)
	}
	abs := func(p string) string {
		a, err := filepath.Abs(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	payload, err := os.ReadFile(abs("testdata/samples/gemini.BeforeTool.json"))
	if err != nil {
		t.Fatal(err)
	}
	out = run(proj, bytes.NewReader(payload), npx, "--offline", "hookx", "wrap", "--from", "claude", "--host", "gemini", "--",
		abs("demo/claude-project/.claude/hooks/bash-guard.sh"))
	const deny = `{"decision":"deny","reason":"Blocked: rm -rf is not allowed in this project; delete files one by one."}`
	if strings.TrimSpace(out) != deny {
		t.Errorf("npx hookx wrap printed %q, want %s", out, deny)
	}

	// Every other platform's package beside this one's (as a node_modules
	// copied between machines would have them): the launcher still runs
	// this platform's binary, not the first it finds.
	for _, p := range platforms {
		if p.NodeOS == nodeOS && p.NodeCPU == nodeCPU {
			continue
		}
		if err := os.CopyFS(filepath.Join(proj, "node_modules", "@hookx", p.NodeOS+"-"+p.NodeCPU), os.DirFS(filepath.Join(dir, "npm", "hookx-"+p.NodeOS+"-"+p.NodeCPU))); err != nil {
			t.Fatal(err)
		}
	}
	if out := run(proj, nil, npx, "--offline", "hookx", "--version"); !strings.HasPrefix(out, "hookx "+st.Version+" (commit "+st.Commit+", built ") {
		t.Errorf("npx hookx --version, every platform's package installed, printed %q", out)
	}

	// The platform package left out (npm i --omit=optional): the launcher
	// exits 2 naming the package to install and the platforms built, with
	// no stack trace.
	want := "@hookx/" + nodeOS + "-" + nodeCPU
	if err := os.RemoveAll(filepath.Join(proj, "node_modules", "@hookx", nodeOS+"-"+nodeCPU)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(npx, "--offline", "hookx", "--version")
	cmd.Dir, cmd.Env = proj, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Errorf("npx hookx without %s: %v, want exit status 2\n%s", want, err, stderr.Bytes())
	}
	msg := stderr.String()
	if !strings.Contains(msg, "npm install "+want) || strings.Contains(msg, "    at ") || stdout.Len() != 0 {
		t.Errorf("npx hookx without %s: stdout %q, stderr %q; want the package to install on stderr, no stack trace", want, stdout.Bytes(), msg)
	}
	for _, p := range platforms {
		if !strings.Contains(msg, p.npmName()) {
			t.Errorf("npx hookx without %s: stderr %q does not name %s", want, msg, p.npmName())
		}
	}
}
