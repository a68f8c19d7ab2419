package migrate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// BackupSuffix is appended to a settings file's name for the copy of its
// previous content that WriteFile keeps.
const BackupSuffix = ".hookx.bak"

// ErrReadOnly is returned by WriteFile for a target without write permission.
var ErrReadOnly = errors.New("the file is read-only")

// WriteFile replaces the file at path with data atomically: symlinks are
// resolved first (dotfile managers link settings files), the data goes to a
// temporary file beside the real target, which gets the old file's mode and
// is renamed over it. The previous content, if any, is first copied to
// path+BackupSuffix. Missing parent directories are created. A target
// without owner write permission is refused with ErrReadOnly.
func WriteFile(path string, data []byte) error {
	real, err := resolveLinks(path)
	if err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	old, err := os.ReadFile(real)
	switch {
	case err == nil:
		fi, err := os.Stat(real)
		if err != nil {
			return err
		}
		mode = fi.Mode().Perm()
		if mode&0o200 == 0 {
			return fmt.Errorf("%s: %w (mode %v); make it writable to migrate into it", path, ErrReadOnly, mode)
		}
		if err := writeAtomic(real+BackupSuffix, old, mode); err != nil {
			return fmt.Errorf("backing up %s: %w", path, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
			return err
		}
	default:
		return err
	}
	return writeAtomic(real, data, mode)
}

// resolveLinks follows symlinks at path to the file they name, even when
// that file does not exist yet (a dotfile manager's link to a file still to
// be written): replacing the link itself would detach it.
func resolveLinks(path string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return filepath.EvalSymlinks(path)
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".hookx-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
