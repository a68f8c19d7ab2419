// Package hookrun runs one hook of a project once, as an agent would start
// it, for the commands of hookx that run a project's hooks to see what they
// do: `hookx doctor --probe` (package doctor) and `hookx test` (package
// hooktest). It lives below both so that they share one runner.
//
// A run is `hookx wrap` for the hook under the host (the one model of how
// each agent expands a hook's command, sets its environment, bounds its
// output and waits for it), started in a throwaway Sandbox (a copy of the
// project, a home of its own, no network, writes only there) through the
// confining helper (hookx probe-exec, package confine), with the host's
// environment for its hooks (wrap's model of it) and a time limit. The
// answer is read by the caller with the host's reader
// (translate.ReadOutput): the host's reading rules, as wrap reads them.
package hookrun

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"

	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
	"github.com/hookx-dev/hookx/wrap"
)

// OutputCap is how much of each stream of a run is kept (1 MiB), past what
// any host reads of a decision; a stream over it is left out of the Output
// and Overflow set, as translate.Output says.
const OutputCap = 1 << 20

// Sandbox is a confine.Sandbox in a temporary directory of its own, with a
// copy of the project.
type Sandbox struct {
	*confine.Sandbox
}

// NewSandbox makes a throwaway sandbox with a copy of the project dir.
// Close removes it.
func NewSandbox(prefix, dir string) (*Sandbox, error) {
	tmp, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	box, err := confine.NewSandbox(tmp, dir)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if err := confine.CopyTree(dir, box.Proj); err != nil {
		os.RemoveAll(tmp)
		return nil, errors.New("copying the project: " + err.Error())
	}
	return &Sandbox{box}, nil
}

// Close removes the sandbox.
func (b *Sandbox) Close() { os.RemoveAll(b.Root) }

// AgentTimeout is how long d's agent gives a hook on event: the hook's own
// timeout (in the agent's unit) where set, else the event's, else the
// agent's default.
func AgentTimeout(d *mappings.Dialect, event string, hookTimeout *float64) time.Duration {
	t := d.Timeout.Default
	if e, ok := d.Timeout.PerEvent[event]; ok {
		t = e
	}
	if hookTimeout != nil && *hookTimeout > 0 {
		t = *hookTimeout
	}
	return d.Timeout.Duration(t)
}

// Matches reports whether d's agent runs a hook with matcher m (nil: no
// matcher) for a call of tool, read by the table's ToolMatcher (the one
// migrate and wrap use). A matcher hookx cannot evaluate as the agent
// does is taken to match: the guard then runs.
func Matches(d *mappings.Dialect, m *string, tool string) bool {
	if m == nil || d.MatchesAll(*m) {
		return true
	}
	tm, err := d.ToolMatcher(*m)
	if err != nil {
		return true
	}
	ok, err := tm.Match(tool)
	return ok || err != nil
}

// Hook is the hook to run.
type Hook struct {
	Dialect string // the hook's dialect
	Event   string // the event it is registered on, in its dialect
	Matcher *string
	Command string
	Env     map[string]string // its settings' own variables
}

// Run is one run of a hook under a host.
type Run struct {
	Hook      Hook
	Host      *mappings.Dialect
	HostEvent string
	Payload   []byte // the event as the host sends it
	Box       *Sandbox

	// Wrap is how to run hookx wrap: the program and its first arguments.
	Wrap []string
	// Exec confines the run: the program and first arguments of the
	// confining helper (hookx probe-exec); nil runs it unconfined.
	Exec      []string
	Home, Dir string // the user's home and the real project: kept out of reach
	Getenv    func(string) string

	// WrapTimeout is wrap's --timeout (the hook's own agent's limit, and
	// its rules on expiry); 0: none.
	WrapTimeout time.Duration
	// Limit bounds the whole run; past it the run is stopped and its
	// Output says TimedOut.
	Limit time.Duration
}

// Do runs the hook through hookx wrap, confined to the sandbox, with the
// event on stdin, and returns what the host receives.
func (r Run) Do() translate.Output {
	hk, host := r.Hook, r.Host
	argv := slices.Concat(r.Wrap, []string{"--from", hk.Dialect, "--host", host.Name, "--event", hk.Event, "--host-event", r.HostEvent})
	if r.WrapTimeout > 0 {
		argv = append(argv, "--timeout", r.WrapTimeout.String())
	}
	for _, k := range slices.Sorted(maps.Keys(hk.Env)) {
		argv = append(argv, "--env", k+"="+hk.Env[k])
	}
	if hk.Matcher != nil && host.Name != hk.Dialect {
		argv = append(argv, "--match", *hk.Matcher)
	}
	argv = append(argv, "--", hk.Command)
	getenv := r.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	path := getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	if r.Exec != nil {
		argv = slices.Concat(r.Exec, confine.Args(r.Box.Policy(r.Home, r.Dir, path), argv...))
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.Limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	// On the limit, wrap is told to stop (it stops the hook's process
	// group with it), then killed.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = time.Second
	cmd.Dir = r.Box.Proj
	cmd.Stdin = bytes.NewReader(r.Payload)
	cmd.Env = HostEnv(r.Box.Env(path, getenv), host, r.Box.Proj, r.Payload)
	if r.Exec != nil {
		confine.Isolate(cmd)
	}
	var stdout, stderr bytes.Buffer
	so, se := &bounded{w: &stdout, n: OutputCap}, &bounded{w: &stderr, n: OutputCap}
	cmd.Stdout, cmd.Stderr = so, se
	err := cmd.Run()
	out := translate.Output{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	// A stream over the bound is left out, as translate.Output says: the
	// host's reader then decides what a verdict it cannot read does.
	if so.over {
		out.Stdout, out.Overflow = nil, true
	}
	if se.over {
		out.Stderr, out.Overflow = nil, true
	}
	if ctx.Err() != nil {
		out.TimedOut, out.FailReason = true, "timed out after "+r.Limit.String()
		return out
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		out.ExitCode = ee.ExitCode()
		if out.ExitCode < 0 {
			out.Signaled = true
		}
	case err != nil:
		out.Failed, out.FailReason = true, err.Error()
	}
	return out
}

// HostEnv is the environment host starts its hooks with in the project
// proj, over base: wrap's model of what each agent sets (its project
// directory under every name it uses, its session, the payload's fields
// where it exports them).
func HostEnv(base []string, host *mappings.Dialect, proj string, payload []byte) []string {
	env := base
	if host.Env.ProjectDir != "" {
		env = append(slices.Clip(env), host.Env.ProjectDir+"="+proj)
	}
	return wrap.AgentEnv(env, host, payload)
}

// bounded keeps the first n bytes written to it and drops the rest.
type bounded struct {
	w    *bytes.Buffer
	n    int
	over bool
}

func (b *bounded) Write(p []byte) (int, error) {
	n := len(p)
	if b.n > 0 {
		q := p[:min(len(p), b.n)]
		b.n -= len(q)
		b.w.Write(q)
		p = p[len(q):]
	}
	if len(p) > 0 {
		b.over = true
	}
	return n, nil
}
