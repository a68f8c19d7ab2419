//go:build unix

package wrap

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// startSupervisor starts sup in a session of its own, its standard streams
// on /dev/null (the host must see hookx's stdout close), with the hook's
// output pipes as fds 3 and up, and lets it go.
func startSupervisor(sup *Supervisor, pgid int, bound time.Duration, pipes []*os.File) error {
	args := append(append([]string{}, sup.Args...), "--pgid", strconv.Itoa(pgid), "--bound", bound.String())
	cmd := &exec.Cmd{Path: sup.Path, Args: args, ExtraFiles: pipes,
		SysProcAttr: &syscall.SysProcAttr{Setsid: true}}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// Supervise is the background half of a hook that asked not to be waited
// for: it drains the hook's output pipes (fds 3 and up, nfiles of them) so
// that the hook never blocks on them, returns once the hook's process group
// is gone, and at bound stops the group: SIGTERM, then SIGKILL after grace.
// Nothing the hook started outlives the bound.
func Supervise(pgid int, bound, grace time.Duration, nfiles int) error {
	if pgid <= 1 {
		return errors.New("supervise: no process group")
	}
	var wg sync.WaitGroup
	for i := range nfiles {
		f := os.NewFile(uintptr(3+i), "hook-output")
		if f == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = io.Copy(io.Discard, f)
			f.Close()
		}()
	}
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-deadline.C:
			killGroup(pgid, syscall.SIGTERM)
			end := time.Now().Add(grace)
			for time.Now().Before(end) && groupAlive(pgid) {
				time.Sleep(20 * time.Millisecond)
			}
			killGroup(pgid, syscall.SIGKILL)
			return nil
		case <-tick.C:
			if !groupAlive(pgid) {
				return nil
			}
		}
	}
}

// groupAlive reports whether any process of the group is left.
func groupAlive(pgid int) bool {
	return !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}
