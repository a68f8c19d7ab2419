package safefile

import (
	"errors"
	"syscall"
)

func isFtype(err error) bool { return errors.Is(err, syscall.EFTYPE) }
