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
