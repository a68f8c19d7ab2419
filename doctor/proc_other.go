//go:build !unix

package doctor

import "os/exec"

// Without process groups, only the hook itself can be stopped.
func newGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

func signaled(ee *exec.ExitError) bool { return false }
