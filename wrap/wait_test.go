//go:build unix

package wrap

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// waitHook must report what cmd.Wait does, whether the hook exits at once,
// later, or by a signal (on Linux it first waits on a pidfd).
func TestWaitHookReportsExit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		code   int
		signal syscall.Signal
	}{
		{"at once", "exit 3", 3, 0},
		{"later", "sleep 0.2; exit 4", 4, 0},
		{"killed", "kill -TERM $$; sleep 5", -1, syscall.SIGTERM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", tc.script)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- waitHook(cmd) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("waitHook did not return")
			}
			st := cmd.ProcessState
			if st == nil {
				t.Fatal("the process was not reaped")
			}
			if got := st.ExitCode(); got != tc.code {
				t.Errorf("exit code %d, want %d", got, tc.code)
			}
			ws := st.Sys().(syscall.WaitStatus)
			if tc.signal != 0 && (!ws.Signaled() || ws.Signal() != tc.signal) {
				t.Errorf("status %v, want killed by %v", ws, tc.signal)
			}
		})
	}
}
