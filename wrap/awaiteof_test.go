package wrap

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestAwaitEOFPrefersTheEnd: when hookx runs late and finds the quiet timer
// and the end of the hook's output both ready, the output ended: calling it
// held would cut off what the hook wrote (a guard's deny among it). A zero
// grace makes both ready at every select; select alone picks at random.
func TestAwaitEOFPrefersTheEnd(t *testing.T) {
	done := make(chan struct{})
	close(done)
	s := &hookSpec{pipeGrace: 0, pipeCap: time.Hour}
	for i := range 200 {
		var res runResult
		eof, _, async := s.awaitEOF(done, nil, &res, time.Now(), func() int64 { return 1 })
		if !eof || async {
			t.Fatalf("round %d: eof %v async %v, want the output's end", i, eof, async)
		}
	}
}

// slowSink is an output sink whose first write takes delay: the hook's
// reader falls behind it, as when hookx runs late on a loaded machine.
type slowSink struct {
	delay time.Duration
	mu    sync.Mutex
	buf   bytes.Buffer
	slept bool
}

func (w *slowSink) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.slept {
		w.slept = true
		time.Sleep(w.delay)
	}
	return w.buf.Write(p)
}

// TestHeldOutputKeepsWhatTheHookWrote: a hook writes its answer in two
// pieces, leaves a background process holding its stdout, and exits while
// hookx has not read the second piece. Once the quiet grace calls the output
// held and the leftovers are killed, the rest in the pipe is still read: a
// guard's deny is never cut off.
func TestHeldOutputKeepsWhatTheHookWrote(t *testing.T) {
	out := &slowSink{delay: 300 * time.Millisecond}
	s := &hookSpec{
		argv:      []string{"/bin/sh", "-c", `printf '{"decision":'; sleep 0.1; printf '"block"}'; sleep 30 & exit 0`},
		stdin:     strings.NewReader(""),
		stdout:    out,
		stderr:    io.Discard,
		killGrace: time.Second,
		pipeGrace: 50 * time.Millisecond,
		pipeCap:   10 * time.Second,
	}
	res := s.run()
	if !res.held {
		t.Fatalf("held = false: the background sleep held stdout and should have been killed")
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	if got := out.buf.String(); got != `{"decision":"block"}` {
		t.Errorf("stdout = %q, want the whole answer", got)
	}
}
