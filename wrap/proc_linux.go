package wrap

import "syscall"

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
