package wrap

import "syscall"

// sysProcAttr puts the hook in a process group of its own, so that a timeout
// or a signal reaches everything it started, and kills it if hookx dies
// without a chance to clean up (SIGKILL from the host).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
