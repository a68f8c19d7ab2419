//go:build unix

package migrate

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockDir takes an exclusive flock on the directory dir, which holds the
// target real: every hookx writing into it takes the same lock, and a
// directory (unlike the target, which the rename replaces, or a lock file
// left beside it) is there before and after. It waits up to lockWait for
// another writer, calling WriteSeams.LockBusy first.
func lockDir(dir, real string) (unlock func(), err error) {
	// O_DIRECTORY: a FIFO planted where the directory should be is
	// refused, never opened (which would hang).
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	busy := false
	for end := time.Now().Add(lockWait); ; {
		err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.EINVAL) {
			// A file system without flock (some network mounts): the
			// checks of the target's content remain.
			f.Close()
			return func() {}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", dir, err)
		}
		if !busy {
			busy = true
			if fn := WriteSeams.LockBusy; fn != nil {
				fn(real)
			}
		}
		if time.Now().After(end) {
			f.Close()
			return nil, fmt.Errorf("another process (another hookx migrate) has held the lock on %s for %v; nothing written", dir, lockWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return func() {
		_ = syscall.Flock(fd, syscall.LOCK_UN)
		f.Close()
	}, nil
}
