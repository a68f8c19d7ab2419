//go:build unix

package doctor

import (
	"os/exec"
	"syscall"
)

// newGroup puts a probed hook in its own process group, so that a timeout
// kills what it started too.
func newGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// signaled reports whether a process was killed by a signal.
func signaled(ee *exec.ExitError) bool {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}
