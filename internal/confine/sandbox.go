package confine

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Sandbox is the throwaway world of one confined run of a project's hook,
// all inside one temporary directory: the copy of the project, a home, XDG
// directories and a TMPDIR. The hook may write there and nowhere else.
// doctor --probe and hookx test run hooks in one.
type Sandbox struct {
	Root, Proj, Home, Tmp string
}

// NewSandbox lays out a sandbox under root for the project dir (not copied:
// CopyTree copies it to Proj).
func NewSandbox(root, dir string) (*Sandbox, error) {
	b := &Sandbox{
		Root: root,
		Proj: filepath.Join(root, filepath.Base(RealPath(dir))),
		Home: filepath.Join(root, "home"),
		Tmp:  filepath.Join(root, "tmp"),
	}
	for _, d := range []string{b.Home, b.Tmp, filepath.Join(b.Home, ".config"), filepath.Join(b.Home, ".cache"), filepath.Join(b.Home, ".local", "share"), filepath.Join(b.Home, ".local", "state")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Env is the hook's whole starting environment: a PATH, the locale, and a
// home of its own; nothing else of the user's (no tokens, no agent keys).
func (b *Sandbox) Env(path string, getenv func(string) string) []string {
	env := []string{
		"PATH=" + path,
		"HOME=" + b.Home,
		"TMPDIR=" + b.Tmp,
		"XDG_CONFIG_HOME=" + filepath.Join(b.Home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(b.Home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(b.Home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(b.Home, ".local", "state"),
		"XDG_RUNTIME_DIR=" + b.Tmp,
	}
	for _, k := range []string{"LANG", "LC_ALL", "LC_CTYPE", "TZ"} {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// Policy confines the hook to its sandbox: it writes there only, and reads
// neither the real home (keys, tokens) nor the real project, except the
// PATH directories under them, where its tools are.
func (b *Sandbox) Policy(home, dir, path string) Policy {
	p := Policy{Write: []string{b.Root}}
	for _, d := range []string{home, userHome(), dir} {
		if d != "" {
			p.Hide = append(p.Hide, RealPath(d))
		}
	}
	for _, d := range filepath.SplitList(path) {
		if filepath.IsAbs(d) && !strings.HasPrefix(RealPath(d), RealPath(b.Root)) {
			p.Read = append(p.Read, d)
		}
	}
	return p
}

func userHome() string {
	h, _ := os.UserHomeDir()
	return h
}

// RealPath is p absolute, with its symbolic links resolved where they
// exist, and clean.
func RealPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return filepath.Clean(p)
}

// CopyTree copies a project for a confined run, leaving out version-control and
// dependency directories, which hooks do not need.
func CopyTree(src, dst string) error {
	skip := map[string]bool{".git": true, "node_modules": true, ".hg": true, ".svn": true}
	// The copy may live inside the project (TMPDIR under it): never copy it
	// into itself.
	dstTop := RealPath(filepath.Dir(dst))
	return filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && RealPath(p) == dstTop {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if e.IsDir() {
			if skip[e.Name()] && rel != "." {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, b, info.Mode().Perm())
		}
		return nil
	})
}
