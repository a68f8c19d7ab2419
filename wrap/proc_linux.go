package wrap

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysProcAttr puts the hook in a process group of its own, so that a timeout
// or a signal reaches everything it started, and kills it if hookx dies
// without a chance to clean up (SIGKILL from the host).
//
// A hook that may ask not to be waited for (dieWithHookx false) is spared
// the parent-death signal: it must outlive hookx, under its supervisor.
func sysProcAttr(dieWithHookx bool) *syscall.SysProcAttr {
	if !dieWithHookx {
		return &syscall.SysProcAttr{Setpgid: true}
	}
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// pendingBytes reports how many bytes the pipe f holds unread (TIOCINQ,
// FIONREAD), without taking f out of the poller as f.Fd would.
func pendingBytes(f *os.File) (n int, ok bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	var ierr error
	if err := rc.Control(func(fd uintptr) { n, ierr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); err != nil || ierr != nil {
		return 0, false
	}
	return n, true
}
