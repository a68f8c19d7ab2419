//go:build unix

package safefile

import (
	"errors"
	"os"
	"syscall"
)

// noFollow makes an open fail on a symlink instead of following it.
const noFollow = syscall.O_NOFOLLOW

// nonBlock keeps an open from waiting on a FIFO planted in a file's place
// (the regular-file check then refuses it).
const nonBlock = syscall.O_NONBLOCK

// checkModes: Unix permission bits say who else can read or write.
const checkModes = true

// isLoop reports the error an O_NOFOLLOW open gives on a symlink: ELOOP
// (Linux, macOS), EMLINK (FreeBSD), EFTYPE (NetBSD).
func isLoop(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) || isFtype(err)
}

// links is the file's number of hard links.
func links(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// ownedByMe reports whether fi belongs to this process's user.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
