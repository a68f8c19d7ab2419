// Command floor is the least a Go hook wrapper can do: read the event on
// stdin, run the hook with os/exec, relay its stdout and exit status. It is
// the yardstick of scripts/bench-wrap: hookx wrap is measured against it.
package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
)

func main() {
	in, _ := io.ReadAll(os.Stdin)
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	os.Stdout.Write(out)
	if err != nil {
		os.Exit(cmd.ProcessState.ExitCode())
	}
}
