// Package oracleproc runs a test oracle: one long-lived child process per
// test binary, asked one JSON line on its stdin and answering one JSON
// line on its stdout. internal/nodeoracle (node running a script) and
// internal/rustregex (a Rust program) start theirs with it.
package oracleproc

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

// Process is a running oracle.
type Process struct {
	name string // in errors: "node", "the Rust regex oracle"
	mu   sync.Mutex
	in   io.Writer
	out  *bufio.Reader
}

// Start starts cmd (its stdin and stdout become the oracle's lines, its
// stderr the test binary's). The process ends when the test binary exits
// and its stdin closes. name names the oracle in errors.
func Start(name string, cmd *exec.Cmd) (*Process, error) {
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
	return &Process{name: name, in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

// Ask sends q as one JSON line and decodes the one-line answer into
// answer. Questions are asked one at a time.
func (p *Process) Ask(q, answer any) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, err := json.Marshal(q)
	if err != nil {
		return err
	}
	if _, err := p.in.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing to %s: %w", p.name, err)
	}
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("reading from %s: %w", p.name, err)
	}
	if err := json.Unmarshal(line, answer); err != nil {
		return fmt.Errorf("%s answered %q: %w", p.name, line, err)
	}
	return nil
}

// Require returns what start returns, for a test: when it fails, the test
// is skipped, except in CI (CI=true), where .ci/run installs what the
// oracles need and it fails. what names the oracle in the message.
func Require[T any](tb testing.TB, what string, start func() (T, error)) T {
	tb.Helper()
	o, err := start()
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("%s is required in CI: %v", what, err)
		}
		tb.Skipf("%s is not available: %v", what, err)
	}
	return o
}
