//go:build !unix

package wrap

import (
	"errors"
	"os"
	"time"
)

func startSupervisor(*Supervisor, int, time.Duration, []*os.File) error {
	return errors.New("no background supervision on this system")
}

// Supervise is not available here: an async hook is stopped once answered.
func Supervise(pgid int, bound, grace time.Duration, nfiles int) error {
	return errors.New("no background supervision on this system")
}
