//go:build !unix

package wrap

import (
	"os"
	"syscall"
)

// Without process groups, only the hook itself can be stopped.
func sysProcAttr(bool) *syscall.SysProcAttr { return nil }

func killGroup(pid int, sig syscall.Signal) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

func exitStatus(ps *os.ProcessState, err error) (int, string) {
	if ps == nil {
		return -1, ""
	}
	return ps.ExitCode(), ""
}

// SysExec is nil where a process cannot replace itself: pass-through runs
// the hook as a child.
var SysExec func(argv0 string, argv, env []string) error

// pendingBytes cannot tell here: a held hook's output is cut at once.
func pendingBytes(*os.File) (int, bool) { return 0, false }
