//go:build !linux

package confine

import (
	"errors"
	"os/exec"
	"runtime"
)

func available() error {
	return &MissingError{Reason: "Landlock exists only on Linux; this is " + runtime.GOOS}
}

// Restrict confines the calling process; it is never possible here.
func Restrict(Policy) error { return errors.New("confine: " + available().Error()) }

// Isolate adds the namespaces the platform offers to cmd; none here.
func Isolate(*exec.Cmd) bool { return false }

func run(argv []string) error { return Restrict(Policy{}) }
