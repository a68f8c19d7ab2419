//go:build unix

package wrap

import (
	"io"
	"path/filepath"
	"sync"
	"testing"
)

// TestSessionStopUpdatesAreNotLost runs, many times over, two hooks of one
// stop side by side as Claude Code runs them: one blocks, one does not.
// The block must be recorded whatever the order (a lost block told a
// Gemini hook on Claude stop_hook_active false at the next stop, and it
// blocked and checkpointed once more: the conformance suite's
// stop-tools/gemini-two-hooks-checkpoint on Claude, once in a CI run).
// It fails without lockState.
func TestSessionStopUpdatesAreNotLost(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hookx", "stop")
	const chain = "c"
	for i := range 300 {
		session := filepath.Join(dir, "s-session")
		// The chain's first block, at stop 1.
		first := &runner{Options: Options{StateDir: dir, Stderr: io.Discard}, sessionPath: session, stopKey: "stop1"}
		removeState(session)
		first.saveSessionBlock(chain, 10)
		// Stop 2: a block and an allow at once.
		var wg sync.WaitGroup
		block := &runner{Options: Options{StateDir: dir, Stderr: io.Discard}, sessionPath: session, stopKey: "stop2"}
		allow := &runner{Options: Options{StateDir: dir, Stderr: io.Discard}, sessionPath: session, stopKey: "stop2"}
		wg.Go(func() { block.saveSessionBlock(chain, 20) })
		wg.Go(func() { allow.saveSessionAllow(chain) })
		wg.Wait()
		var ss sessionStop
		readState(session, &ss)
		if ss.Stop != "stop2" || ss.Offset != 20 || ss.ended("stop3") {
			t.Fatalf("run %d: the session's stop state is %+v: stop 2's block was lost", i, ss)
		}
	}
}
