package wrap

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// hookSpec says how to run the inner hook once.
type hookSpec struct {
	argv  []string
	shell bool // argv[0] is the dialect's shell: failing to start it is hookx's own failure
	env   []string
	stdin io.Reader
	// stdout and stderr receive the hook's output as it arrives.
	stdout, stderr io.Writer
	timeout        time.Duration // 0: none
	killGrace      time.Duration // SIGTERM to SIGKILL
	// Once the hook has exited, its output may still be held open by a
	// process it started. With held.wait "eof" it is waited for until
	// eofLimit after the start (then the hook has timed out); otherwise
	// until no output came for pipeGrace, and at most pipeCap after the
	// exit (the hook's own agent's wait, mappings.HeldOutput).
	pipeGrace, pipeCap time.Duration
	waitEOF            bool
	eofLimit           time.Duration // 0: no limit but the host's
	signals            <-chan os.Signal
	// asyncAck, when set, reads the first line of the hook's stdout: ok
	// means the hook asked not to be waited for, for at most bound.
	asyncAck func(line []byte) (bound time.Duration, ok bool)
	// detach hands a hook that asked not to be waited for to a process of
	// its own, with the hook's output pipes to drain; nil or an error: the
	// hook is stopped instead.
	detach func(pgid int, bound time.Duration, pipes []*os.File) error
}

// heldDrain bounds how long what is already in the pipes of a hook whose
// output was held is still read (the readers may be behind a slow sink).
const heldDrain = time.Second

// drainPending waits, up to limit, until the pipes hold no unread bytes or
// their readers are done. Where the pipes cannot say (pendingBytes), it
// returns at once.
func drainPending(done <-chan struct{}, limit time.Duration, pipes ...*os.File) {
	deadline := time.Now().Add(limit)
	for {
		pending := false
		for _, p := range pipes {
			if n, ok := pendingBytes(p); ok && n > 0 {
				pending = true
			}
		}
		if !pending || time.Now().After(deadline) {
			return
		}
		select {
		case <-done:
			return
		case <-time.After(time.Millisecond):
		}
	}
}

// runResult is what happened to the hook's process.
type runResult struct {
	code     int       // exit status; 128+n when killed by signal n
	crashed  string    // the signal that killed it, if it was not hookx's doing
	timedOut bool      // hookx's --timeout expired
	signal   os.Signal // hookx was asked to stop and stopped the hook
	held     bool      // a leftover process held stdout or stderr and was killed
	startErr error     // the command could not be started
	elapsed  time.Duration
	// async is set when the hook asked not to be waited for; it was handed
	// to a supervisor (detachErr nil) or stopped.
	async      bool
	asyncBound time.Duration
	detachErr  error
}

// run starts the hook in its own process group, feeds it stdin, drains its
// output, and enforces the timeout. It returns once the hook has exited and
// its output pipes are closed or were given up on: a background process left
// holding them is killed with the rest of the group after pipeGrace, so it
// can never hang the host.
func (s *hookSpec) run() runResult {
	start := time.Now()
	var res runResult
	inR, inW, err := os.Pipe()
	if err != nil {
		res.startErr = err
		return res
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		res.startErr = err
		return res
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		res.startErr = err
		return res
	}
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Env = s.env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = sysProcAttr(s.asyncAck == nil)
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		res.startErr = err
		res.elapsed = time.Since(start)
		return res
	}
	closeAll(inR, outW, errW) // the child has its copies
	pid := cmd.Process.Pid

	stdinDone := make(chan struct{})
	go func() {
		// A hook that exits without reading stdin makes this fail with
		// EPIPE: that is the hook's business, not an error.
		_, _ = io.Copy(inW, s.stdin)
		inW.Close()
		close(stdinDone)
	}()

	var drained sync.WaitGroup
	var lastData atomic.Int64 // UnixNano of the last output
	drain := func(r *os.File, w io.Writer) {
		defer drained.Done()
		buf := make([]byte, 64<<10)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				lastData.Store(time.Now().UnixNano())
				_, _ = w.Write(buf[:n]) // w never fails: see sink
			}
			if err != nil {
				return
			}
		}
	}
	drained.Add(2)
	var asyncC chan time.Duration
	stdout := s.stdout
	if s.asyncAck != nil {
		asyncC = make(chan time.Duration, 1)
		stdout = &firstLine{w: s.stdout, check: s.asyncAck, found: asyncC}
	}
	go drain(outR, stdout)
	go drain(errR, s.stderr)
	pipesDone := make(chan struct{})
	go func() { drained.Wait(); close(pipesDone) }()

	waited := make(chan error, 1)
	go func() { waited <- waitHook(cmd) }()

	var timeoutC, killC <-chan time.Time
	if s.timeout > 0 {
		t := time.NewTimer(s.timeout)
		defer t.Stop()
		timeoutC = t.C
	}
	stop := func(sig syscall.Signal) {
		killGroup(pid, sig)
		if killC == nil {
			killC = time.After(s.killGrace)
		}
	}
	// handoff answers for a hook that asked not to be waited for: its
	// output is left to a supervisor, or the hook is stopped.
	handoff := func(bound time.Duration) runResult {
		// The hook's own agent goes on at once: so does the host.
		res.async, res.asyncBound = true, bound
		outR.SetReadDeadline(time.Now())
		errR.SetReadDeadline(time.Now())
		<-pipesDone
		select {
		case <-stdinDone:
		case <-time.After(s.pipeGrace):
		}
		res.detachErr = errors.New("no supervisor")
		if s.detach != nil {
			res.detachErr = s.detach(pid, bound, []*os.File{outR, errR})
		}
		if res.detachErr != nil {
			killGroup(pid, syscall.SIGKILL)
		}
		closeAll(outR, errR, inW)
		res.elapsed = time.Since(start)
		return res
	}
	var waitErr error
wait:
	for {
		select {
		case waitErr = <-waited:
			break wait
		case <-timeoutC:
			res.timedOut = true
			timeoutC = nil
			stop(syscall.SIGTERM)
		case sig := <-s.signals:
			if res.signal == nil {
				res.signal = sig
			}
			if ss, ok := sig.(syscall.Signal); ok {
				stop(ss)
			} else {
				stop(syscall.SIGTERM)
			}
		case <-killC:
			killGroup(pid, syscall.SIGKILL)
		case bound := <-asyncC:
			return handoff(bound)
		}
	}
	if res.timedOut || res.signal != nil {
		// Nothing of a hook that was stopped may outlive it.
		killGroup(pid, syscall.SIGKILL)
		asyncC = nil
	}
	eof, bound, async := s.awaitEOF(pipesDone, asyncC, &res, start, lastData.Load)
	if async {
		// It said so and exited before hookx read it: something it started
		// may still run, as under its own agent.
		return handoff(bound)
	}
	if !eof {
		// The hook has exited but something it started still holds its
		// output: stop waiting for EOF, and stop the leftovers.
		res.held = true
		killGroup(pid, syscall.SIGKILL)
		// The hook's own agent stops reading when its wait ends, having
		// read what was written by then. hookx, running late, may not
		// have: what is in the pipes at this moment is still read (up to
		// heldDrain), and nothing a leftover outside the group writes
		// later.
		drainPending(pipesDone, heldDrain, outR, errR)
		outR.SetReadDeadline(time.Now())
		errR.SetReadDeadline(time.Now())
		<-pipesDone
	}
	if !res.held && asyncC != nil {
		select {
		case bound := <-asyncC:
			return handoff(bound)
		default:
		}
	}
	closeAll(outR, errR, inW)
	res.code, res.crashed = exitStatus(cmd.ProcessState, waitErr)
	if res.timedOut || res.signal != nil {
		res.crashed = ""
	}
	res.elapsed = time.Since(start)
	return res
}

// awaitEOF waits for the hook's output to close once the hook has exited,
// the way the hook's own agent waits, and reports whether it did. A hook
// that was stopped gets pipeGrace.
//
// A hook that asked not to be waited for (on async) ends the wait: async is
// set, with its bound.
func (s *hookSpec) awaitEOF(pipesDone <-chan struct{}, asyncC <-chan time.Duration, res *runResult, start time.Time, lastData func() int64) (eof bool, bound time.Duration, async bool) {
	if res.timedOut || res.signal != nil {
		select {
		case <-pipesDone:
			return true, 0, false
		case b := <-asyncC:
			return false, b, true
		case <-time.After(s.pipeGrace):
			return false, 0, false
		}
	}
	if s.waitEOF {
		var limit <-chan time.Time
		if s.eofLimit > 0 {
			t := time.NewTimer(s.eofLimit - time.Since(start))
			defer t.Stop()
			limit = t.C
		}
		select {
		case <-pipesDone:
			return true, 0, false
		case b := <-asyncC:
			return false, b, true
		case <-limit:
			res.timedOut = true // the agent would still be waiting: a timeout
			return false, 0, false
		case sig := <-s.signals:
			res.signal = sig
			return false, 0, false
		}
	}
	exited := time.Now()
	for {
		seen := lastData()
		select {
		case <-pipesDone:
			return true, 0, false
		case b := <-asyncC:
			return false, b, true
		case <-time.After(s.pipeGrace):
		}
		// A late-running hookx (a loaded machine) can find the timer and
		// the pipes' end both ready, and select picks either: the end wins.
		select {
		case <-pipesDone:
			return true, 0, false
		default:
		}
		if time.Since(exited) >= s.pipeCap || lastData() == seen {
			return false, 0, false
		}
	}
}

// startFailure turns a failure to exec the hook directly into what a shell
// reports for the same command: 127 when it is not found, 126 when it cannot
// be executed.
func startFailure(name string, err error) (int, string) {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return 127, fmt.Sprintf("hookx: %s: command not found", name)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return 126, fmt.Sprintf("hookx: %s: cannot execute: %v", name, err)
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// sink collects up to limit bytes, or passes them on to w; it counts what it
// saw and never fails, so the hook is always drained and never blocks on a
// full pipe.
type sink struct {
	mu    sync.Mutex
	w     io.Writer // pass-through target; nil to buffer
	limit int64
	buf   []byte
	n     int64
	werr  error
}

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n += int64(len(p))
	if s.w != nil {
		if s.werr == nil {
			_, s.werr = s.w.Write(p)
		}
		return len(p), nil
	}
	if s.n <= s.limit {
		s.buf = append(s.buf, p...)
	}
	return len(p), nil
}

// over reports whether more than limit bytes arrived.
func (s *sink) over() bool { return s.w == nil && s.n > s.limit }

func (s *sink) bytes() []byte {
	if s.over() {
		return nil
	}
	return s.buf
}

// firstLine passes the hook's stdout on and reads its first line the way
// Claude Code does: once the line holds a "}", it is checked once.
type firstLine struct {
	w       io.Writer
	check   func([]byte) (time.Duration, bool)
	found   chan<- time.Duration
	buf     []byte
	checked bool
}

// maxFirstLine bounds what is kept to find the first line.
const maxFirstLine = 1 << 20

func (f *firstLine) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if f.checked {
		return n, err
	}
	f.buf = append(f.buf, p...)
	line := f.buf
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimSpace(line)
	if !bytes.Contains(line, []byte("}")) {
		if len(f.buf) > maxFirstLine {
			f.checked, f.buf = true, nil
		}
		return n, err
	}
	f.checked = true
	if bound, ok := f.check(line); ok {
		f.found <- bound
	}
	f.buf = nil
	return n, err
}
