package wrap

import (
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
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		res.startErr = err
		res.elapsed = time.Since(start)
		return res
	}
	closeAll(inR, outW, errW) // the child has its copies
	pid := cmd.Process.Pid

	go func() {
		// A hook that exits without reading stdin makes this fail with
		// EPIPE: that is the hook's business, not an error.
		_, _ = io.Copy(inW, s.stdin)
		inW.Close()
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
	go drain(outR, s.stdout)
	go drain(errR, s.stderr)
	pipesDone := make(chan struct{})
	go func() { drained.Wait(); close(pipesDone) }()

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

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
		}
	}
	if res.timedOut || res.signal != nil {
		// Nothing of a hook that was stopped may outlive it.
		killGroup(pid, syscall.SIGKILL)
	}
	if !s.awaitEOF(pipesDone, &res, start, lastData.Load) {
		// The hook has exited but something it started still holds its
		// output: stop waiting for EOF, and stop the leftovers.
		res.held = true
		killGroup(pid, syscall.SIGKILL)
		outR.SetReadDeadline(time.Now())
		errR.SetReadDeadline(time.Now())
		<-pipesDone
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
func (s *hookSpec) awaitEOF(pipesDone <-chan struct{}, res *runResult, start time.Time, lastData func() int64) bool {
	if res.timedOut || res.signal != nil {
		select {
		case <-pipesDone:
			return true
		case <-time.After(s.pipeGrace):
			return false
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
			return true
		case <-limit:
			res.timedOut = true // the agent would still be waiting: a timeout
			return false
		case sig := <-s.signals:
			res.signal = sig
			return false
		}
	}
	exited := time.Now()
	for {
		seen := lastData()
		select {
		case <-pipesDone:
			return true
		case <-time.After(s.pipeGrace):
		}
		if time.Since(exited) >= s.pipeCap || lastData() == seen {
			return false
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
