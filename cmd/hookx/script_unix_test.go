//go:build unix

package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// processGone reports whether the process pid has exited (a zombie counts).
func processGone(_ *testscript.TestScript, pid int) bool {
	return syscall.Kill(pid, 0) != nil || zombie(pid)
}

// killProcess sends SIGKILL to pid.
func killProcess(_ *testscript.TestScript, pid int) {
	syscall.Kill(pid, syscall.SIGKILL)
}

func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && len(s) > i+2 && s[i+2] == 'Z'
}
