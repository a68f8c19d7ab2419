package wrap

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The held-output tests need pendingBytes, which asks the pipe on Linux.

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

// TestHeldOutputStopsAtWhatWasWritten: once the output is judged held, what
// a leftover that left the hook's process group (setsid) writes later is
// not read: the hook's own agent stopped reading at the end of its wait,
// and a byte more would turn a whole verdict into a partial one.
func TestHeldOutputStopsAtWhatWasWritten(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid is not installed") // util-linux, on every Linux CI image
	}
	pidFile := filepath.Join(t.TempDir(), "leftover.pid")
	var out bytes.Buffer
	s := &hookSpec{
		argv:      []string{"/bin/sh", "-c", `printf '{"decision":"block"}'; setsid sh -c 'echo $$ > "$0"; sleep 0.7; printf X; sleep 30' "$PIDFILE" & sleep 0.05; exit 0`},
		env:       append(os.Environ(), "PIDFILE="+pidFile),
		stdin:     strings.NewReader(""),
		stdout:    &syncWriter{w: &out},
		stderr:    io.Discard,
		killGrace: time.Second,
		pipeGrace: 500 * time.Millisecond,
		pipeCap:   10 * time.Second,
	}
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	res := s.run()
	if !res.held {
		t.Fatal("held = false: the leftover held stdout")
	}
	time.Sleep(time.Second) // past the leftover's late write
	if got := out.String(); got != `{"decision":"block"}` {
		t.Errorf("stdout = %q, want the answer as written before the wait ended", got)
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}
