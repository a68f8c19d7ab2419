package wrap

import (
	"encoding/json"
	"time"

	"github.com/hookx-dev/hookx/internal/safefile"
)

// traceRecord is one line of the --trace file: everything needed to replay
// or debug one invocation. Payloads can hold secrets, so the file is created
// with mode 0600.
type traceRecord struct {
	Time       string          `json:"time"`
	From       string          `json:"from"`
	Host       string          `json:"host,omitempty"`
	Mode       string          `json:"mode,omitempty"` // "translate" or "passthrough"
	Command    []string        `json:"command"`
	HostEvent  string          `json:"hostEvent,omitempty"`
	HookEvent  string          `json:"hookEvent,omitempty"`
	Received   json.RawMessage `json:"received,omitempty"` // the host's stdin
	Passed     json.RawMessage `json:"passed,omitempty"`   // the hook's stdin
	Skipped    string          `json:"skipped,omitempty"`
	Hook       *traceHook      `json:"hook,omitempty"`     // the hook's raw result
	Returned   *traceHook      `json:"returned,omitempty"` // what the host got
	Findings   []string        `json:"findings,omitempty"`
	StopCount  int             `json:"stopCount,omitempty"`
	StopCapped bool            `json:"stopCapped,omitempty"`
	StopActive *bool           `json:"stopActive,omitempty"` // what the hook was told, where it differs from the host
	Async      bool            `json:"async,omitempty"`      // the hook asked not to be waited for
	Error      string          `json:"error,omitempty"`
	Exit       int             `json:"exit"`
	Timings    traceTimings    `json:"timings"`
}

type traceHook struct {
	Stdout     string `json:"stdout,omitempty"`
	Stderr     string `json:"stderr,omitempty"`
	ExitCode   int    `json:"exitCode"`
	TimedOut   bool   `json:"timedOut,omitempty"`
	Failed     bool   `json:"failed,omitempty"`
	FailReason string `json:"failReason,omitempty"`
}

type traceTimings struct {
	TranslateEventMS  float64 `json:"translateEventMs,omitempty"`
	HookMS            float64 `json:"hookMs"`
	TranslateResultMS float64 `json:"translateResultMs,omitempty"`
	TranscriptMS      float64 `json:"transcriptMs,omitempty"`
	TotalMS           float64 `json:"totalMs"`
}

// traceLimit bounds each text in a trace line; a hook that printed 16 MB
// does not need all of it copied into the trace.
const traceLimit = 1 << 20

func traceOutput(o Output) *traceHook {
	return &traceHook{
		Stdout: clip(o.Stdout), Stderr: clip(o.Stderr), ExitCode: o.ExitCode,
		TimedOut: o.TimedOut, Failed: o.Failed, FailReason: o.FailReason,
	}
}

func clip(b []byte) string {
	if len(b) > traceLimit {
		return string(b[:traceLimit]) + "…[clipped]"
	}
	return string(b)
}

// jsonOrString keeps a payload as JSON when it is JSON, as a string when not.
func jsonOrString(b []byte) json.RawMessage {
	if len(b) > traceLimit {
		b, _ = json.Marshal(clip(b))
		return b
	}
	if json.Valid(b) {
		return json.RawMessage(b)
	}
	if len(b) == 0 {
		return nil
	}
	s, _ := json.Marshal(string(b))
	return s
}

// traced reports whether the run writes a trace line: the trace's copies of
// payloads and outputs (validated, clipped, re-encoded: milliseconds for a
// big one) are made only then.
func (r *runner) traced() bool { return r.TracePath != "" }

func (r *runner) writeTrace() {
	if r.TracePath == "" {
		return
	}
	r.trace.Time = r.start.UTC().Format(time.RFC3339Nano)
	r.trace.Timings.TotalMS = ms(time.Since(r.start))
	line, err := json.Marshal(r.trace)
	if err != nil {
		r.reportf("trace: %v", err)
		return
	}
	// Payloads can hold secrets, and the trace may be named where others
	// can write: a symlink, another user's file or one others can read is
	// refused (never re-moded); a new file is created exclusively, 0600.
	f, _, err := safefile.Append(r.TracePath, 0o600)
	if err != nil {
		r.reportf("trace: %v; the trace line was not written", err)
		return
	}
	defer f.Close()
	// One write per line, so concurrent hooks do not interleave.
	if _, err := f.Write(append(line, '\n')); err != nil {
		r.reportf("trace: %v", err)
	}
}
