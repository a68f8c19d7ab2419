//go:build unix && !linux

package wrap

import "syscall"

// sysProcAttr puts the hook in a process group of its own, so that a timeout
// or a signal reaches everything it started.
func sysProcAttr(bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
