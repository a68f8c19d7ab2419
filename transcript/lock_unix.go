//go:build unix

package transcript

import (
	"os"
	"syscall"
)

// lock takes an exclusive lock on f: two hooks of one session may run at
// once, and each must see the other's records whole.
func lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// inode identifies a file across renames: Gemini rewrites its chat file by
// renaming a new one over it.
func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// noFollow keeps an open from following a symlink planted in the cache.
const noFollow = syscall.O_NOFOLLOW

// nonBlock keeps opening the source from waiting on a FIFO's writer.
const nonBlock = syscall.O_NONBLOCK

// ownedByMe reports whether fi is owned by this process's user; root
// reports whether root owns it.
func ownedByMe(fi os.FileInfo) (me, root bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false, false
	}
	return int(st.Uid) == os.Geteuid(), st.Uid == 0
}

// checkModes: Unix permission bits say who else can read or write.
const checkModes = true

// tryLock takes the lock lock takes if no one holds it, and reports whether
// it did.
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
