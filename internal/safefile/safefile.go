// Package safefile opens the files hookx writes at run time in places where
// someone else may write too (a trace named on the command line, the stop
// counters and session env files under $XDG_STATE_HOME or the temporary
// directory): never through a symlink, creating only exclusively, and never
// changing the mode of a file or directory it did not create; and it reads
// people's settings files only when they are regular files of a bounded
// size (ReadRegular). What it refuses, it refuses with an error that says
// why and what to do.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxRead bounds what ReadPrivate reads: hookx's state files are a line.
const maxRead = 1 << 20

// ErrRefused marks a path that safefile will not write through.
var ErrRefused = errors.New("refused")

// Append opens path for appending. An existing path must be a regular file
// of this user's that no one else can read or write, and is opened without
// following a symlink and without changing its mode; a missing one is
// created exclusively with mode perm. It reports whether it created the
// file.
func Append(path string, perm fs.FileMode) (f *os.File, created bool, err error) {
	for range 2 {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, false, fmt.Errorf("%s: %w: it is a symbolic link; hookx does not write through one", path, ErrRefused)
		}
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|noFollow|nonBlock, 0)
		if err == nil {
			if err := private(f, path); err != nil {
				f.Close()
				return nil, false, err
			}
			return f, false, nil
		}
		if isLoop(err) {
			return nil, false, fmt.Errorf("%s: %w: it is a symbolic link; hookx does not write through one", path, ErrRefused)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, false, err
		}
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL|noFollow, perm)
		if err == nil {
			return f, true, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, false, err
		}
		// Created (or linked) between the two opens: look again; a symlink
		// now fails the first open.
	}
	return nil, false, err
}

// private checks that the open file f is a regular file of this user's that
// no one else can read or write.
func private(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w: it is not a regular file (%v)", path, ErrRefused, fi.Mode().Type())
	}
	if !ownedByMe(fi) {
		return fmt.Errorf("%s: %w: it belongs to another user", path, ErrRefused)
	}
	// A hard link someone made in a shared directory to one of this
	// user's files would have hookx write into that file.
	if links(fi) > 1 {
		return fmt.Errorf("%s: %w: it has other names (hard links); hookx writes only a file of its own", path, ErrRefused)
	}
	if checkModes && fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s: %w: others can read or write it (mode %v); hookx does not change the mode of a file it did not create: chmod 600 it, or name a new file", path, ErrRefused, fi.Mode().Perm())
	}
	return nil
}

// PrivateDir makes dir a directory that only this user can put files in:
// it creates the parent of its last levels components as needed (0700),
// then each of those components (0700), and checks each one: a directory,
// not a symlink, this user's, writable by no one else. It fails, saying
// why, rather than use a directory someone else made or can change; it
// never changes the mode of one it did not create.
func PrivateDir(dir string, levels int) error {
	dir = filepath.Clean(dir)
	parts := []string{dir}
	for range levels - 1 {
		parts = append([]string{filepath.Dir(parts[0])}, parts...)
	}
	if err := os.MkdirAll(filepath.Dir(parts[0]), 0o700); err != nil {
		return err
	}
	for _, d := range parts {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		fi, err := os.Lstat(d)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s: %w: it is a symbolic link; hookx keeps its state only in a directory of its own", d, ErrRefused)
		case !fi.IsDir():
			return fmt.Errorf("%s: %w: it is not a directory", d, ErrRefused)
		case !ownedByMe(fi):
			return fmt.Errorf("%s: %w: it belongs to another user", d, ErrRefused)
		case checkModes && fi.Mode().Perm()&0o022 != 0:
			return fmt.Errorf("%s: %w: others can write in it (mode %v); hookx does not change the mode of a directory it did not create: chmod go-w it", d, ErrRefused, fi.Mode().Perm())
		}
	}
	return nil
}

// ReadPrivate reads the file at path in a directory PrivateDir accepted,
// without following a symlink; the file must be this user's regular file
// that no one else can write. A missing file is fs.ErrNotExist.
func ReadPrivate(path string) ([]byte, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s: %w: it is a symbolic link", path, ErrRefused)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow|nonBlock, 0)
	if err != nil {
		if isLoop(err) {
			return nil, fmt.Errorf("%s: %w: it is a symbolic link", path, ErrRefused)
		}
		return nil, err
	}
	defer f.Close()
	if err := private(f, path); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRead+1))
	if err == nil && len(b) > maxRead {
		err = fmt.Errorf("%s: over %d bytes", path, maxRead)
	}
	return b, err
}

// ReadRegular reads the file at path, following symlinks (a dotfile
// manager's link to the user's settings is normal), provided what it names
// is a regular file of at most max bytes. Anything else a repository can
// plant in a settings file's place (a link to /dev/zero, a FIFO, a
// terminal, a directory) is refused with an error naming it, before a
// byte is read: os.ReadFile would read /dev/zero until memory runs out and
// wait on a FIFO forever. A missing file is fs.ErrNotExist.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w: not a regular file (%s)", path, ErrRefused, fileKind(fi.Mode()))
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: %w: larger than %d bytes", path, ErrRefused, max)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s: %w: larger than %d bytes", path, ErrRefused, max)
	}
	return b, err
}

// fileKind names what a non-regular file is, for an error message.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}
