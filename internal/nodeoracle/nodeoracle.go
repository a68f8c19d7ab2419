// Package nodeoracle runs node as a test oracle: one long-lived process per
// script and test binary, asked one JSON line and answering one JSON line.
// The agents parse hook output and matchers with JavaScript (JSON.parse,
// RegExp); tests compare hookx's readings with node's.
package nodeoracle

import (
	"os/exec"
	"sync"
	"testing"

	"github.com/hookx-dev/hookx/internal/oracleproc"
)

// Oracle is a running node process executing one script; Ask sends it one
// JSON line and decodes node's one-line answer.
type Oracle struct{ *oracleproc.Process }

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
	p, err := oracleproc.Start("node", exec.Command(node, "-e", script))
	if err != nil {
		return nil, err
	}
	return &Oracle{p}, nil
}

// Require is Start for a test: without node the test is skipped, except in
// CI (CI=true), where .ci/run installs node and it fails. what names the
// oracle in the message ("the RegExp oracle").
func Require(tb testing.TB, what, script string) *Oracle {
	tb.Helper()
	return oracleproc.Require(tb, "node, "+what+",", func() (*Oracle, error) { return Start(script) })
}
