package migrate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/hookx-dev/hookx/mappings"
)

// PluginHooks is where a plugin or extension keeps its hooks, relative to
// its directory.
var PluginHooks = filepath.Join("hooks", "hooks.json")

// PluginManifest returns the manifest path (relative to the directory) of
// a dialect's plugin or extension, and what the dialect calls it; both
// empty where the dialect has none.
func PluginManifest(d *mappings.Dialect) (path, what string) {
	if d.Plugin == nil {
		return "", ""
	}
	return filepath.FromSlash(d.Plugin.Manifest), d.Plugin.What
}

// PluginRootVar is the variable a dialect's plugin or extension commands
// use for their own directory.
func PluginRootVar(d *mappings.Dialect) string {
	if d.Plugin == nil {
		return ""
	}
	return d.Plugin.RootVar
}

// unsafeName is compiled on first use: every hookx run, wrap's included,
// initialises this package.
var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9-]+`) })

// NewManifest returns the manifest for a plugin or extension in dialect to
// that holds the hooks converted from a plugin or extension of dialect
// from, whose manifest is src (nil if it has none) and directory is named
// dir. Name, version and description are carried; the name is reduced to
// lowercase letters, digits and dashes, which both agents accept.
func NewManifest(from *mappings.Dialect, src []byte, dir string) []byte {
	var m struct {
		Name        string `json:"name"`
		Version     string `json:"version,omitempty"`
		Description string `json:"description,omitempty"`
	}
	_ = json.Unmarshal(src, &m) // an unreadable manifest: the directory's name
	name := strings.Trim(unsafeName().ReplaceAllString(strings.ToLower(m.Name), "-"), "-")
	if name == "" {
		name = strings.Trim(unsafeName().ReplaceAllString(strings.ToLower(filepath.Base(dir)), "-"), "-")
	}
	if name == "" {
		name = "hooks"
	}
	m.Name = name
	if m.Version == "" {
		m.Version = "1.0.0"
	}
	if m.Description == "" {
		_, what := PluginManifest(from)
		m.Description = "Hooks converted by hookx migrate from a " + what
	}
	return append(marshal(m), '\n')
}

// PluginFile is one file of a plugin or extension that a conversion copies
// into the new one (its scripts, the hooks' own files).
type PluginFile struct {
	Rel      string // relative to the directory
	Conflict bool   // the target has another file there; it is left alone
	Missing  bool   // the target lacks it
}

// PluginFiles lists the files of the plugin or extension in src that the
// converted one in dst needs: everything but hooks/hooks.json, the source's
// manifest directory or file, and .git. Symlinks are listed too.
func PluginFiles(src, dst string, from *mappings.Dialect) ([]PluginFile, error) {
	skip := map[string]bool{PluginHooks: true, ".git": true}
	m, _ := PluginManifest(from)
	skip[m] = true
	if d := filepath.Dir(m); d != "." {
		skip[d] = true
	}
	var out []PluginFile
	err := filepath.WalkDir(src, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if rel == "." {
			return nil
		}
		if skip[rel] {
			if de.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if de.IsDir() {
			return nil
		}
		f := PluginFile{Rel: rel}
		a, errA := os.Lstat(path)
		b, errB := os.Lstat(filepath.Join(dst, rel))
		switch {
		case errA != nil:
			return errA
		case errors.Is(errB, fs.ErrNotExist):
			f.Missing = true
		case errB != nil:
			return errB
		default:
			f.Conflict = !sameFile(path, filepath.Join(dst, rel), a, b)
		}
		out = append(out, f)
		return nil
	})
	return out, err
}

func sameFile(a, b string, fa, fb fs.FileInfo) bool {
	if fa.Mode().Type() != fb.Mode().Type() {
		return false
	}
	if fa.Mode()&fs.ModeSymlink != 0 {
		la, _ := os.Readlink(a)
		lb, _ := os.Readlink(b)
		return la == lb
	}
	da, errA := os.ReadFile(a)
	db, errB := os.ReadFile(b)
	return errA == nil && errB == nil && bytes.Equal(da, db) && fa.Mode().Perm() == fb.Mode().Perm()
}

// CopyPluginFile copies one file listed by PluginFiles from src to dst,
// keeping its mode (a symlink stays a symlink). It never replaces a file.
func CopyPluginFile(src, dst, rel string) error {
	from, to := filepath.Join(src, rel), filepath.Join(dst, rel)
	fi, err := os.Lstat(from)
	if err != nil {
		return err
	}
	// A symlinked directory already in dst (an earlier version's link)
	// would carry the file outside it.
	for d := filepath.Dir(rel); d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
		if li, err := os.Lstat(filepath.Join(dst, d)); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s: not written: %s is a symbolic link, which would put it outside %s", to, filepath.Join(dst, d), dst)
		}
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		l, err := os.Readlink(from)
		if err != nil {
			return err
		}
		return os.Symlink(l, to)
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
