//go:build windows

package transcript

import (
	"os"

	"golang.org/x/sys/windows"
)

// allBytes is the length locked: the whole file, as cmd/go's lockedfile
// locks it. Windows' locks are mandatory, so every read and write of a
// locked file goes through the handle that holds the lock (state.json's
// are: cache.go reads and rewrites it through sf).
const allBytes = ^uint32(0)

// lock takes an exclusive lock on f with LockFileEx, waiting for it: two
// hooks of one session may run at once, and each must see the other's
// records whole. Closing f releases it.
func lock(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, allBytes, allBytes, new(windows.Overlapped))
}

// tryLock takes the lock lock takes if no one holds it, and reports whether
// it did.
func tryLock(f *os.File) bool {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, allBytes, allBytes, new(windows.Overlapped)) == nil
}
