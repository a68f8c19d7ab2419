// Command release builds hookx's release artifacts from the checked-out
// commit, reproducibly: two runs on the same commit give the same bytes.
//
//	go run ./scripts/release -out DIR [-base-url URL] [-allow-dirty]
//
// DIR receives, for linux, darwin and windows on amd64 and arm64:
//
//   - hookx_<version>_<os>_<arch>.tar.gz (.zip for windows): the static
//     binary (CGO_ENABLED=0, -trimpath, no build ID, stamped with
//     -X main.version/commit/built), LICENSE, README.md and CHANGELOG.md,
//     in that order, with mtime = the commit's time, uid/gid 0, fixed modes;
//   - SHA256SUMS, in sha256sum's format (sha256sum -c SHA256SUMS);
//   - npm/: the npm packages, laid out like esbuild's: a launcher package
//     hookx (bin/hookx.js, no dependencies) whose optionalDependencies are
//     one package per platform, @hookx/<os>-<cpu>, each holding its binary
//     and declaring its os and cpu so that npm installs only the right one;
//   - hookx.rb: a Homebrew formula for the archives, at -base-url.
//
// The version is the top version of CHANGELOG.md, the commit is git's HEAD
// and the build time is HEAD's commit time, never the clock.
//
// Why not GoReleaser: it is not available offline here, and it is a large
// dependency for what these few hundred lines do with the standard library.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/template"
	"time"
)

// platform is one release target: Go's names and npm's.
type platform struct {
	GOOS, GOARCH string
	NodeOS       string // process.platform
	NodeCPU      string // process.arch
	BrewOS       string // on_macos, on_linux
	BrewCPU      string // on_arm, on_intel
}

var platforms = []platform{
	{"darwin", "amd64", "darwin", "x64", "macos", "intel"},
	{"darwin", "arm64", "darwin", "arm64", "macos", "arm"},
	{"linux", "amd64", "linux", "x64", "linux", "intel"},
	{"linux", "arm64", "linux", "arm64", "linux", "arm"},
	{"windows", "amd64", "win32", "x64", "", ""},
	{"windows", "arm64", "win32", "arm64", "", ""},
}

func (p platform) exe() string {
	if p.GOOS == "windows" {
		return "hookx.exe"
	}
	return "hookx"
}

func (p platform) npmName() string { return "@hookx/" + p.NodeOS + "-" + p.NodeCPU }

// options are the command line's.
type options struct {
	Root       string // the repository's top directory
	Out        string
	BaseURL    string // where the archives are downloaded from; "" = GitHub's release of the version
	AllowDirty bool
	Log        io.Writer
}

// stamp is what the build is stamped with.
type stamp struct {
	Version string
	Commit  string
	Time    time.Time
}

func main() {
	var o options
	flag.StringVar(&o.Out, "out", "", "directory to write the artifacts to (created)")
	flag.StringVar(&o.BaseURL, "base-url", "", "URL the archives are downloaded from, for the Homebrew formula (default: the GitHub release of the version)")
	flag.BoolVar(&o.AllowDirty, "allow-dirty", false, "build from a tree with uncommitted changes (the commit is then stamped <hash>-modified)")
	flag.Parse()
	if o.Out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	o.Log = os.Stderr
	root, err := git(".", "rev-parse", "--show-toplevel")
	if err == nil {
		o.Root = root
		err = release(o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

// release writes every artifact of the checked-out commit into o.Out.
func release(o options) error {
	st, err := readStamp(o.Root, o.AllowDirty)
	if err != nil {
		return err
	}
	if o.BaseURL == "" {
		o.BaseURL = "https://github.com/hookx-dev/hookx/releases/download/v" + st.Version
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	docs := map[string][]byte{}
	for _, name := range []string{"LICENSE", "README.md", "CHANGELOG.md"} {
		b, err := os.ReadFile(filepath.Join(o.Root, name))
		if err != nil {
			return err
		}
		docs[name] = b
	}
	// The six builds run side by side, as many at once as there are CPUs:
	// each go build links alone on one core, and the compiles they share
	// come from the build cache. The archives are then written in order.
	bins := make([][]byte, len(platforms))
	errs := make([]error, len(platforms))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range platforms {
		fmt.Fprintf(o.Log, "release: building %s/%s\n", p.GOOS, p.GOARCH)
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			bins[i], errs[i] = build(o.Root, o.Out, p, st)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	sums := map[string]string{}
	for i, p := range platforms {
		bin := bins[i]
		var err error
		files := []archived{{p.exe(), 0o755, bin}}
		for _, name := range []string{"LICENSE", "README.md", "CHANGELOG.md"} {
			files = append(files, archived{name, 0o644, docs[name]})
		}
		name := fmt.Sprintf("hookx_%s_%s_%s", st.Version, p.GOOS, p.GOARCH)
		var b []byte
		if p.GOOS == "windows" {
			name += ".zip"
			b, err = zipArchive(files, st.Time)
		} else {
			name += ".tar.gz"
			b, err = tarArchive(files, st.Time)
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.Out, name), b, 0o644); err != nil {
			return err
		}
		h := sha256.Sum256(b)
		sums[name] = hex.EncodeToString(h[:])
		if err := npmPlatform(filepath.Join(o.Out, "npm"), p, st, bin, docs); err != nil {
			return err
		}
	}
	var s strings.Builder
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range sums {
			if !yield(k) {
				return
			}
		}
	}) {
		fmt.Fprintf(&s, "%s  %s\n", sums[name], name)
	}
	if err := os.WriteFile(filepath.Join(o.Out, "SHA256SUMS"), []byte(s.String()), 0o644); err != nil {
		return err
	}
	if err := npmLauncher(filepath.Join(o.Out, "npm"), st, docs); err != nil {
		return err
	}
	rb, err := formula(st.Version, o.BaseURL, sums)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(o.Out, "hookx.rb"), rb, 0o644)
}

// changelogVersion is the first "## X.Y.Z" heading of CHANGELOG.md (the
// Unreleased section is not a version).
var changelogVersion = regexp.MustCompile(`(?m)^## (\d+\.\d+\.\d+)\b`)

func readStamp(root string, allowDirty bool) (stamp, error) {
	b, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil {
		return stamp{}, err
	}
	m := changelogVersion.FindSubmatch(b)
	if m == nil {
		return stamp{}, errors.New("CHANGELOG.md has no version heading (## X.Y.Z)")
	}
	st := stamp{Version: string(m[1])}
	if st.Commit, err = git(root, "rev-parse", "HEAD"); err != nil {
		return stamp{}, err
	}
	at, err := git(root, "show", "-s", "--format=%ct", "HEAD")
	if err != nil {
		return stamp{}, err
	}
	var sec int64
	if _, err := fmt.Sscan(at, &sec); err != nil {
		return stamp{}, fmt.Errorf("commit time %q: %v", at, err)
	}
	st.Time = time.Unix(sec, 0).UTC()
	dirty, err := git(root, "status", "--porcelain") // an untracked .go file is built too
	if err != nil {
		return stamp{}, err
	}
	if dirty != "" {
		if !allowDirty {
			return stamp{}, fmt.Errorf("the tree has uncommitted changes, so the binaries would not be %s's (commit them, or -allow-dirty):\n%s", st.Commit[:12], dirty)
		}
		st.Commit += "-modified"
	}
	return st, nil
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return strings.TrimSpace(string(out)), nil
}

// build compiles cmd/hookx for p and returns the binary's bytes.
func build(root, out string, p platform, st stamp) ([]byte, error) {
	dir, err := os.MkdirTemp(out, ".build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, p.exe())
	ldflags := fmt.Sprintf("-s -w -buildid= -X main.version=%s -X main.commit=%s -X main.built=%s",
		st.Version, st.Commit, st.Time.Format(time.RFC3339))
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", bin, "./cmd/hookx")
	cmd.Dir = root
	// Everything that changes the bytes is set here, not inherited:
	// GOFLAGS could add flags, GOAMD64/GOARM64 change the code.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.GOOS, "GOARCH="+p.GOARCH,
		"GOFLAGS=", "GOAMD64=v1", "GOARM64=v8.0", "GOEXPERIMENT=")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go build for %s/%s: %v", p.GOOS, p.GOARCH, err)
	}
	return os.ReadFile(bin)
}

// archived is one file of an archive.
type archived struct {
	Name string
	Mode int64
	Data []byte
}

// tarArchive is a gzipped tar of files, in their order, with nothing of the
// build machine in it: mtime at, uid/gid 0, no user or group names, and a
// gzip header with neither name nor time.
func tarArchive(files []archived, at time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(zw)
	for _, f := range files {
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: f.Name, Mode: f.Mode, Size: int64(len(f.Data)),
			ModTime: at, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// zipArchive is a zip of files, in their order, with time at.
func zipArchive(files []archived, at time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		hdr := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: at}
		hdr.SetMode(os.FileMode(f.Mode))
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.Data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// npmPackage is the part of package.json that hookx's packages use.
type npmPackage struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Repository           string            `json:"repository"`
	Bin                  map[string]string `json:"bin,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	Files                []string          `json:"files,omitempty"`
	Engines              map[string]string `json:"engines,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

const npmRepository = "github:hookx-dev/hookx"

// npmPlatform writes the package of one platform's binary: npm installs it
// only where os and cpu match (as an optional dependency of the launcher).
func npmPlatform(npmDir string, p platform, st stamp, bin []byte, docs map[string][]byte) error {
	dir := filepath.Join(npmDir, "hookx-"+p.NodeOS+"-"+p.NodeCPU)
	pkg := npmPackage{
		Name: p.npmName(), Version: st.Version,
		Description: fmt.Sprintf("The hookx binary for %s %s (installed by the hookx package).", p.NodeOS, p.NodeCPU),
		License:     "MIT", Repository: npmRepository,
		OS: []string{p.NodeOS}, CPU: []string{p.NodeCPU},
		Files: []string{"bin/"},
	}
	readme := fmt.Sprintf("# %s\n\nThe `hookx` binary for %s %s, %s. Install the `hookx` package instead: it picks this one.\n",
		p.npmName(), p.NodeOS, p.NodeCPU, st.Version)
	return writePackage(dir, pkg, map[string]archived{
		"bin/" + p.exe(): {Mode: 0o755, Data: bin},
		"LICENSE":        {Mode: 0o644, Data: docs["LICENSE"]},
		"README.md":      {Mode: 0o644, Data: []byte(readme)},
	})
}

// npmLauncher writes the hookx package: bin/hookx.js runs the binary of the
// platform package that npm installed.
func npmLauncher(npmDir string, st stamp, docs map[string][]byte) error {
	pkg := npmPackage{
		Name: "hookx", Version: st.Version,
		Description: "Portable hooks for AI coding agents: run one agent's hooks under another.",
		License:     "MIT", Repository: npmRepository,
		Bin:                  map[string]string{"hookx": "bin/hookx.js"},
		Files:                []string{"bin/"},
		Engines:              map[string]string{"node": ">=18"},
		OptionalDependencies: map[string]string{},
	}
	var supported []string
	for _, p := range platforms {
		pkg.OptionalDependencies[p.npmName()] = st.Version
		supported = append(supported, p.npmName())
	}
	names, err := json.Marshal(supported)
	if err != nil {
		return err
	}
	return writePackage(filepath.Join(npmDir, "hookx"), pkg, map[string]archived{
		"bin/hookx.js": {Mode: 0o755, Data: []byte(strings.Replace(launcherJS, "__PLATFORMS__", string(names), 1))},
		"LICENSE":      {Mode: 0o644, Data: docs["LICENSE"]},
		"README.md":    {Mode: 0o644, Data: docs["README.md"]},
	})
}

func writePackage(dir string, pkg npmPackage, files map[string]archived) error {
	b, err := json.MarshalIndent(pkg, "", "  ")
	if err != nil {
		return err
	}
	files["package.json"] = archived{Mode: 0o644, Data: append(b, '\n')}
	for name, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, f.Data, os.FileMode(f.Mode)); err != nil {
			return err
		}
		if err := os.Chmod(path, os.FileMode(f.Mode)); err != nil {
			return err
		}
	}
	return nil
}

// launcherJS is the hookx package's bin: it finds the platform package's
// binary and runs it with this process's stdio, arguments and exit status.
// No dependencies; a hook's stdout is the binary's own.
const launcherJS = `#!/usr/bin/env node
"use strict";
// The hookx binary comes from the optional dependency that matches this
// platform (@hookx/<os>-<cpu>); npm skips the others by their os and cpu.
const { spawnSync } = require("child_process");
const pkg = "@hookx/" + process.platform + "-" + process.arch;
const exe = process.platform === "win32" ? "hookx.exe" : "hookx";
let bin;
try {
  bin = require.resolve(pkg + "/bin/" + exe);
} catch (e) {
  // Exit 2, a usage error, not 1: no stack trace, and the way out.
  const supported = __PLATFORMS__;
  process.stderr.write(
    "hookx: no binary for " + process.platform + " " + process.arch + ": the package " + pkg +
    " is not installed.\n" +
    (supported.includes(pkg)
      ? "Install it: npm install " + pkg + " (npm leaves optional dependencies out with --omit=optional or --no-optional).\n"
      : "hookx is not built for this platform.\n") +
    "Platforms with a package: " + supported.join(", ") + "\n");
  process.exit(2);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (r.error) {
  process.stderr.write("hookx: cannot run " + bin + ": " + r.error.message + "\n");
  process.exit(1);
}
if (r.signal) {
  // Die of the same signal, so that whoever ran hookx sees what happened.
  process.kill(process.pid, r.signal);
  process.exit(1);
}
process.exit(r.status);
`

// formula is the Homebrew formula for the unix archives at baseURL.
func formula(version, baseURL string, sums map[string]string) ([]byte, error) {
	type target struct{ CPU, URL, SHA256 string }
	type osBlock struct {
		OS      string
		Targets []target
	}
	var blocks []osBlock
	for _, p := range platforms {
		if p.BrewOS == "" {
			continue
		}
		name := fmt.Sprintf("hookx_%s_%s_%s.tar.gz", version, p.GOOS, p.GOARCH)
		sum, ok := sums[name]
		if !ok {
			return nil, fmt.Errorf("no checksum for %s", name)
		}
		if len(blocks) == 0 || blocks[len(blocks)-1].OS != p.BrewOS {
			blocks = append(blocks, osBlock{OS: p.BrewOS})
		}
		b := &blocks[len(blocks)-1]
		b.Targets = append(b.Targets, target{p.BrewCPU, strings.TrimSuffix(baseURL, "/") + "/" + name, sum})
	}
	var buf bytes.Buffer
	err := formulaTemplate.Execute(&buf, map[string]any{"Version": version, "Blocks": blocks})
	return buf.Bytes(), err
}

var formulaTemplate = template.Must(template.New("hookx.rb").Parse(`# Generated by scripts/release from SHA256SUMS; do not edit.
class Hookx < Formula
  desc "Portable hooks for AI coding agents: run one agent's hooks under another"
  homepage "https://github.com/hookx-dev/hookx"
  version "{{.Version}}"
  license "MIT"
{{range .Blocks}}
  on_{{.OS}} do
{{- range .Targets}}
    on_{{.CPU}} do
      url "{{.URL}}"
      sha256 "{{.SHA256}}"
    end
{{- end}}
  end
{{end}}
  def install
    bin.install "hookx"
  end

  test do
    assert_match "hookx #{version}", shell_output("#{bin}/hookx --version")
  end
end
`))
