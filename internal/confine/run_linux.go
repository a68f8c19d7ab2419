//go:build linux

package confine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// run starts the confined command as the first process of a new PID
// namespace where the kernel allows it (the helper is in a user namespace
// of its own, see Isolate): when it exits, the kernel kills every process
// it left behind, setsid or not. It dies with the helper (Pdeathsig), so
// killing the helper ends it all. run then exits as the command did.
func run(argv []string) error {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("%s: %w", HelperName, err)
	}
	start := func(flags uintptr) (*exec.Cmd, error) {
		cmd := exec.Command(path, argv[1:]...)
		cmd.Args[0] = argv[0]
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: flags, Pdeathsig: syscall.SIGKILL}
		return cmd, cmd.Start()
	}
	cmd, err := start(syscall.CLONE_NEWPID)
	if err != nil && (errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC)) {
		cmd, err = start(0)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", HelperName, err)
	}
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT, syscall.SIGHUP)
	err = cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			signal.Reset(ws.Signal())
			_ = syscall.Kill(os.Getpid(), ws.Signal())
		}
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		return fmt.Errorf("%s: %w", HelperName, err)
	}
	os.Exit(0)
	return nil
}
