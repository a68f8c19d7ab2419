package wrap

import (
	"errors"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// pidfdSupported reports whether this kernel gives a non-blocking pidfd,
// which waitHook then must use.
func pidfdSupported(t *testing.T) bool {
	t.Helper()
	fd, err := unix.PidfdOpen(os.Getpid(), unix.PIDFD_NONBLOCK)
	if err != nil {
		t.Logf("no pidfds here (%v): waitHook must fall back to cmd.Wait", err)
		return false
	}
	unix.Close(fd)
	return true
}

// Where no pidfd is to be had, or it cannot wait on the poller, cmd.Wait
// waits alone, and reports the same.
func TestWaitHookFallsBack(t *testing.T) {
	for _, fb := range []struct {
		name  string
		open  func(pid, flags int) (int, error)
		cases []waitCase
	}{
		{"no pidfd", func(int, int) (int, error) { return -1, errors.New("ENOSYS, say") }, waitCases},
		// A blocking pidfd: the poller refuses it. Only a hook still
		// running at the first look needs the poller.
		{"no poller", func(pid, _ int) (int, error) { return unix.PidfdOpen(pid, 0) }, waitCases[1:2]},
	} {
		t.Run(fb.name, func(t *testing.T) {
			defer func(open func(int, int) (int, error)) { pidfdOpen = open }(pidfdOpen)
			pidfdOpen = fb.open
			for _, tc := range fb.cases {
				t.Run(tc.name, func(t *testing.T) {
					if checkWait(t, tc, waitPolled) {
						t.Error("waited on a pidfd, which was not to be had")
					}
				})
			}
		})
	}
}
