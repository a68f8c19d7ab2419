package wrap

import (
	"os"
	"os/exec"

	"golang.org/x/sys/unix"
)

// pidfdOpen is unix.PidfdOpen; tests replace it to take the fallbacks.
var pidfdOpen = unix.PidfdOpen

// waitHook waits for the hook's process to exit on the runtime's poller,
// then reaps it with cmd.Wait. cmd.Wait alone blocks a thread in waitid
// for the hook's whole run, and the runtime starts another thread to go on:
// on a hook call that thread is a measurable part of hookx's cost (issue
// 14). A pidfd becomes readable when its process exits. Where pidfds are
// not to be had (Linux before 5.3, or a seccomp filter), cmd.Wait does all
// of it, as before.
func waitHook(cmd *exec.Cmd) error {
	_, err := waitPolled(cmd)
	return err
}

// waitPolled is waitHook; polled reports whether the exit was seen on the
// hook's pidfd, false where cmd.Wait waited alone.
func waitPolled(cmd *exec.Cmd) (polled bool, err error) {
	fd, err := pidfdOpen(cmd.Process.Pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return false, cmd.Wait()
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	if rc, err := f.SyscallConn(); err == nil {
		// Read calls exited until it says done, waiting on the poller
		// between calls; an error (no poller for this file) leaves the
		// wait to cmd.Wait.
		exited := false
		err := rc.Read(func(fd uintptr) bool {
			var info unix.Siginfo
			err := unix.Waitid(unix.P_PIDFD, int(fd), &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
			exited = err == nil && info.Signo != 0
			return err != nil || exited
		})
		polled = err == nil && exited
	}
	return polled, cmd.Wait()
}
