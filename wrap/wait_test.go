//go:build unix

package wrap

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// waitCase is a hook that exits at once, later, or by a signal, and the
// status cmd.Wait reports for it.
type waitCase struct {
	name   string
	script string
	code   int
	signal syscall.Signal
}

var waitCases = []waitCase{
	{"at once", "exit 3", 3, 0},
	// Long enough that the first look finds it running, under load too.
	{"later", "sleep 1; exit 4", 4, 0},
	{"killed", "kill -TERM $$; sleep 5", -1, syscall.SIGTERM},
}

// checkWait runs tc's hook, waits for it with wait, checks that it was
// reaped with cmd.Wait's status, and returns whether wait polled.
func checkWait(t *testing.T, tc waitCase, wait func(*exec.Cmd) (bool, error)) bool {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", tc.script)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool, 1)
	go func() { polled, _ := wait(cmd); done <- polled }()
	var polled bool
	select {
	case polled = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the wait did not return")
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
	return polled
}

// waitHook must report what cmd.Wait does, whether the hook exits at once,
// later, or by a signal; where the kernel has pidfds (Linux 5.10 and later,
// no seccomp filter against them) it must have seen the exit on the hook's
// pidfd, through the runtime's poller, and not left the wait to cmd.Wait.
func TestWaitHookReportsExit(t *testing.T) {
	want := pidfdSupported(t)
	for _, tc := range waitCases {
		t.Run(tc.name, func(t *testing.T) {
			if polled := checkWait(t, tc, waitPolled); polled != want {
				t.Errorf("waited on the hook's pidfd: %v, want %v (pidfds supported: %v)", polled, want, want)
			}
		})
	}
	// waitHook is waitPolled.
	checkWait(t, waitCases[0], func(cmd *exec.Cmd) (bool, error) { return false, waitHook(cmd) })
}
