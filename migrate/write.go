package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hookx-dev/hookx/internal/safefile"
)

// BackupSuffix is appended to a settings file's name for the copy of its
// previous content that WriteFile keeps.
const BackupSuffix = ".hookx.bak"

// ErrReadOnly is returned by WriteFile for a target without write permission.
var ErrReadOnly = errors.New("the file is read-only")

// ErrChanged is returned by WriteFile when the target is no longer what the
// plan was made from.
var ErrChanged = errors.New("the file changed while hookx was planning")

// WriteSeams are moments inside WriteFile at which a test can act: edit
// the target, or start another writer, exactly then, rather than hope a
// race happens. hookx itself leaves them nil.
var WriteSeams struct {
	// BeforeCheck runs with the lock held, the new content ready beside
	// the target, right before the last check that the target is unchanged.
	BeforeCheck func(real string)
	// BeforeRename runs with the lock held, after that check, right
	// before the rename.
	BeforeRename func(real string)
	// LockBusy runs when another writer holds the target's lock, before
	// WriteFile waits for it.
	LockBusy func(real string)
}

// lockWait is how long WriteFile waits for another hookx writing into the
// same directory.
var lockWait = 30 * time.Second

// WriteFile replaces the file at path with data atomically, provided it
// still holds before (nil: it does not exist), the content the plan was
// made from; otherwise it writes nothing and returns ErrChanged, naming
// the file. Symlinks are resolved first (dotfile managers link settings
// files).
//
// Compare-and-swap: WriteFile takes an exclusive lock on the target's
// directory (flock, where the platform has it), so that two hookx
// processes never interleave; with it held, it checks the target, writes
// the data to a temporary file beside it with the old file's mode, checks
// the target again, keeps the previous content in path+BackupSuffix (an
// earlier backup with other content goes to the next free numbered name,
// path+BackupSuffix+".1", …, so no run destroys the only copy of earlier
// content), checks once more and renames the temporary file over the
// target. An editor that saves in the moment between that last check and
// the rename is the one write no such check can see.
//
// Missing parent directories are created. A target without owner write
// permission is refused with ErrReadOnly.
func WriteFile(path string, before, data []byte) error {
	return writeFile(path, before, data, false)
}

// WriteExecutable is WriteFile for a file hookx generates whole and owns
// (a Cline dispatcher): a new file is created 0755 and an existing one
// keeps its mode with the execute bits added; no backup is kept, since a
// copy beside it could be run by its agent too (Cline runs any executable
// named after an event, whatever its extension).
func WriteExecutable(path string, before, data []byte) error {
	return writeFile(path, before, data, true)
}

func writeFile(path string, before, data []byte, executable bool) error {
	real, err := resolveLinks(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(real)
	if before == nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	unlock, err := lockDir(dir, real)
	if errors.Is(err, fs.ErrNotExist) && before != nil {
		return fmt.Errorf("%s: %w (it was deleted)", path, ErrChanged)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer unlock()

	mode := fs.FileMode(0o644)
	if executable {
		mode = 0o755
	}
	old, err := current(real, path, before)
	if err != nil {
		return err
	}
	if old != nil {
		fi, err := os.Stat(real)
		if err != nil {
			return err
		}
		mode = fi.Mode().Perm()
		if mode&0o200 == 0 {
			return fmt.Errorf("%s: %w (mode %v); make it writable to migrate into it", path, ErrReadOnly, mode)
		}
		if executable {
			mode |= mode & 0o444 >> 2 // executable by whoever may read it
		}
	}
	unchanged := func() error {
		_, err := current(real, path, before)
		return err
	}
	return writeAtomic(real, data, mode, func() error {
		if f := WriteSeams.BeforeCheck; f != nil {
			f(real)
		}
		if err := unchanged(); err != nil {
			return err
		}
		if old != nil && !executable {
			if err := backup(real, old, mode); err != nil {
				return fmt.Errorf("backing up %s: %w", path, err)
			}
			if err := unchanged(); err != nil {
				return err
			}
		}
		if f := WriteSeams.BeforeRename; f != nil {
			f(real)
		}
		return nil
	})
}

// current reads the target and returns its content (nil: it does not
// exist) if it is still before, else an error wrapping ErrChanged that
// names path.
func current(real, path string, before []byte) ([]byte, error) {
	now, err := safefile.ReadRegular(real, MaxFileSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if before != nil {
			return nil, fmt.Errorf("%s: %w (it was deleted)", path, ErrChanged)
		}
		return nil, nil
	case err != nil:
		return nil, err
	case before == nil:
		return nil, fmt.Errorf("%s: %w (it was created)", path, ErrChanged)
	case !bytes.Equal(now, before):
		return nil, fmt.Errorf("%s: %w", path, ErrChanged)
	}
	return now, nil
}

// backup keeps old in real+BackupSuffix, moving an earlier backup with
// other content to the next free numbered name first.
func backup(real string, old []byte, mode fs.FileMode) error {
	bak := real + BackupSuffix
	// A backup path that is not a regular file (a symlink or a FIFO a
	// repository planted) is neither read, which could hang or read
	// anything, nor replaced.
	if fi, err := os.Lstat(bak); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%v); move it away to migrate", bak, fi.Mode().Type())
	}
	prev, err := os.ReadFile(bak)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case bytes.Equal(prev, old):
		return nil
	default:
		for n := 1; ; n++ {
			name := bak + "." + strconv.Itoa(n)
			if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
				if err := writeAtomic(name, prev, mode, nil); err != nil {
					return err
				}
				break
			}
		}
	}
	return writeAtomic(bak, old, mode, nil)
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

// writeAtomic writes data to a temporary file beside path and renames it
// over path; check, if set, runs right before the rename and stops it.
func writeAtomic(path string, data []byte, mode fs.FileMode, check func() error) error {
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
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	return os.Rename(tmp, path)
}

// RealPath returns the absolute path of the file that writing path would
// write: symlinks resolved, for the file itself (even a dangling link) and
// for its directories, existing or not.
func RealPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	p, err := resolveLinks(abs)
	if err != nil {
		return "", err
	}
	if _, err := os.Lstat(p); err == nil {
		return filepath.EvalSymlinks(p)
	}
	dir := filepath.Dir(p)
	if dir == p {
		return p, nil
	}
	d, err := RealPath(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(d, filepath.Base(p)), nil
}
