//go:build unix

package wrap

import (
	"os"
	"syscall"
)

// lockState takes an exclusive flock on file+".lock", waiting for it, and
// returns its release. Hooks of one stop run side by side (Claude Code
// starts them at once) and each reads, changes and writes the session's
// stop state: without the lock one hook's write could drop another's
// block. Where the lock cannot be taken, the update goes on unlocked.
func lockState(file string) (unlock func()) {
	f, err := os.OpenFile(file+".lock", os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return func() {}
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX) != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() }
}
