//go:build unix

package wrap

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// killGroup sends sig to the hook's whole process group. The group may be
// gone already; that is not an error.
func killGroup(pid int, sig syscall.Signal) {
	_ = syscall.Kill(-pid, sig)
}

// exitStatus returns the exit code as a shell reports it (128+n for a
// process killed by signal n) and the signal's name when it crashed.
func exitStatus(ps *os.ProcessState, err error) (int, string) {
	if ps == nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ps = ee.ProcessState
		} else {
			return -1, ""
		}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), fmt.Sprintf("%d (%v)", int(ws.Signal()), ws.Signal())
	}
	return ps.ExitCode(), ""
}

// SysExec is syscall.Exec: the value for Options.Exec.
var SysExec = syscall.Exec
