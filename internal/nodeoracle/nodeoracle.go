// Package nodeoracle runs node as a test oracle: one long-lived process per
// script and test binary, asked one JSON line and answering one JSON line.
// The agents parse hook output and matchers with JavaScript (JSON.parse,
// RegExp); tests compare hookx's readings with node's.
package nodeoracle

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// Oracle is a running node process executing one script.
type Oracle struct {
	mu  sync.Mutex
	in  io.Writer
	out *bufio.Reader
}

var (
	mu      sync.Mutex
	started = map[string]*Oracle{}
	failed  = map[string]error{}
)

// Start returns the process running script (a program that reads stdin line
// by line and writes one line per line read), starting it on first use. The
// process ends when the test binary exits and its stdin closes.
func Start(script string) (*Oracle, error) {
	mu.Lock()
	defer mu.Unlock()
	if o := started[script]; o != nil {
		return o, nil
	}
	if err := failed[script]; err != nil {
		return nil, err
	}
	o, err := start(script)
	if err != nil {
		failed[script] = err
		return nil, err
	}
	started[script] = o
	return o, nil
}

func start(script string) (*Oracle, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, "-e", script)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &Oracle{in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

// Require is Start for a test: without node the test is skipped, except in
// CI (CI=true), where .ci/run installs node and it fails. what names the
// oracle in the message ("the RegExp oracle").
func Require(tb testing.TB, what, script string) *Oracle {
	tb.Helper()
	o, err := Start(script)
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("node, %s, is required in CI: %v", what, err)
		}
		tb.Skipf("node, %s, is not available: %v", what, err)
	}
	return o
}

// Ask sends q as one JSON line and decodes node's one-line answer into
// answer.
func (o *Oracle) Ask(q, answer any) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	b, err := json.Marshal(q)
	if err != nil {
		return err
	}
	if _, err := o.in.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing to node: %w", err)
	}
	line, err := o.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("reading from node: %w", err)
	}
	if err := json.Unmarshal(line, answer); err != nil {
		return fmt.Errorf("node answered %q: %w", line, err)
	}
	return nil
}
