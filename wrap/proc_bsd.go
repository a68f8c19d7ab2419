//go:build unix && !linux

package wrap

import (
	"os"
	"syscall"
)

// sysProcAttr puts the hook in a process group of its own, so that a timeout
// or a signal reaches everything it started.
func sysProcAttr(bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// pendingBytes does not ask the pipe here (not tried on these systems): a
// held hook's output is cut at once.
func pendingBytes(*os.File) (int, bool) { return 0, false }
