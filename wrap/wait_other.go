//go:build !linux

package wrap

import "os/exec"

// waitHook waits for the hook's process to exit and reaps it.
func waitHook(cmd *exec.Cmd) error { return cmd.Wait() }

// waitPolled is waitHook; no exit is seen on a pidfd here.
func waitPolled(cmd *exec.Cmd) (polled bool, err error) { return false, cmd.Wait() }
