//go:build !unix

package main

import "github.com/rogpeppe/go-internal/testscript"

// The dead and kill-pid commands of the testscripts watch processes the
// unix way (kill -0, /proc); elsewhere a script that uses them fails, rather
// than passing without having looked.

func processGone(ts *testscript.TestScript, pid int) bool {
	ts.Fatalf("dead: watching process %d is not supported on this platform", pid)
	return false
}

func killProcess(ts *testscript.TestScript, pid int) {
	ts.Fatalf("kill-pid: killing process %d is not supported on this platform", pid)
}
