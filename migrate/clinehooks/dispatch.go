package clinehooks

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
	"github.com/tailscale/hujson"
)

// Budget is how long Dispatch runs hooks in all: under Cline's own 120 s
// per hook file (core@706683), so that a refusal is what Cline reads
// rather than its timeout, whose effect on the tool was not seen.
const Budget = 110 * time.Second

// maxOutput bounds what Dispatch reads of one hook's stdout.
const maxOutput = 4 << 20

// DispatchOptions configure Dispatch.
type DispatchOptions struct {
	Table  *mappings.Table // nil: mappings.Default()
	Host   string          // the dialect whose files these are: "cline"
	Event  string          // the host's event the dispatcher was written for
	Script string          // the dispatcher's path ($0); the entries are beside it
	Stdin  []byte          // the host's payload
	Stderr io.Writer       // the hooks' stderr and Dispatch's findings
	Budget time.Duration   // 0: Budget
}

// entry is one handler of the entries file.
type entry struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"`
}

// Dispatch runs the entries of o.Event in the entries file beside
// o.Script, in order, each as the host runs a hook command (the dialect's
// command argv, the payload on stdin), and returns the host's answer:
// nothing when no hook has an opinion; the first refusal as that hook
// gave it, after which no hook runs; else the first input replacement
// (the hooks after it still run, and a refusal of theirs wins); else the
// hooks' context joined. Each command is a hookx wrap whose --match is the
// hook's own matcher, so that a hook not meant for the tool answers
// nothing. On an event whose answer guards something, an entries file
// that cannot be read, a hook that cannot start, is killed or times out,
// is a refusal with the reason: fail closed.
func Dispatch(ctx context.Context, o DispatchOptions) []byte {
	tbl := o.Table
	if tbl == nil {
		tbl = mappings.Default()
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.Budget == 0 {
		o.Budget = Budget
	}
	d, err := tbl.Dialect(o.Host)
	if err != nil || !d.Settings.HookFiles {
		return nil // the caller checks the host; nothing to answer for
	}
	ev := d.Event(o.Event)
	guard := ev != nil && ev.Output.BlocksOnFailure()
	refuse := func(why string) []byte {
		fmt.Fprintf(o.Stderr, "hookx dispatch: %s\n", why)
		if !guard {
			return nil
		}
		return refusal(d, o.Event, why)
	}
	if ev == nil {
		return refuse(fmt.Sprintf("%s has no event %q", d.Agent, o.Event))
	}
	file := filepath.Join(filepath.Dir(o.Script), DataFile)
	entries, err := readEntries(file, o.Event)
	if err != nil {
		return refuse(err.Error() + "; run hookx migrate --to " + d.Name + " again")
	}
	ctx, cancel := context.WithTimeout(ctx, o.Budget)
	defer cancel()
	var contexts []string
	var rewrite []byte // the first hook's replaced input, Cline's answer
	for i, e := range entries {
		name := fmt.Sprintf("%s entry %d of %s", o.Event, i+1, file)
		if e.Type != "" && e.Type != "command" || e.Command == "" {
			return refuse(name + " is no command hookx wrote")
		}
		out, why := run(ctx, d, e, o.Stdin, o.Stderr)
		switch {
		case out.Failed:
			return refuse(name + " " + why)
		case out.TimedOut:
			return refuse(name + " did not answer in time")
		case out.Signaled:
			return refuse(name + " was killed")
		case out.ExitCode == 126 || out.ExitCode == 127:
			return refuse(fmt.Sprintf("%s could not start (exit %d: command not found or not executable)", name, out.ExitCode))
		}
		v, _, err := translate.ReadOutput(d, o.Event, translate.Output{Stdout: out.Stdout})
		if err != nil {
			return refuse(err.Error())
		}
		if v.Block || v.Stop {
			// The hook's answer is Cline's already (hookx wrap --host
			// cline): passed on as Cline reads it.
			if ctl := control(out.Stdout); ctl != nil {
				return ctl
			}
			return refusal(d, o.Event, cmp.Or(v.Reason, v.StopReason, "a hook refused the call"))
		}
		if v.NewInput != nil {
			// A replaced input is not a refusal: the hooks after it still
			// run, on the call as the model made it (every agent runs
			// all its matching hooks, and a deny of any wins over
			// another's rewrite), and a refusal of theirs wins.
			if rewrite == nil {
				rewrite = control(out.Stdout)
				if rewrite == nil {
					return refusal(d, o.Event, name+" replaced the input in an answer hookx cannot pass on")
				}
			} else {
				fmt.Fprintf(o.Stderr, "hookx dispatch: %s also replaced the input; the first replacement is kept\n", name)
			}
			continue
		}
		contexts = append(contexts, v.Context...)
	}
	if rewrite != nil {
		return rewrite
	}
	if len(contexts) == 0 {
		return nil
	}
	return contextAnswer(contexts)
}

// readEntries reads the entries of event from the entries file. A missing
// file is an error: the dispatcher exists, so migrate wrote entries.
func readEntries(file, event string) ([]entry, error) {
	data, err := safefile.ReadRegular(file, 16<<20)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s is missing", file)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, fmt.Errorf("%s is not JSON: %w", file, err)
	}
	if v, err := hujson.Parse(data); err == nil {
		// encoding/json keeps the last of a key written twice, silently:
		// the hooks under the other would not run. Which one the file's
		// author meant cannot be known: refuse the file.
		if dup := duplicateKey(&v); dup != "" {
			return nil, fmt.Errorf("%s writes the key %q twice, and hookx cannot tell which is meant", file, dup)
		}
	}
	var es []entry
	if raw, ok := all[event]; ok {
		if err := json.Unmarshal(raw, &es); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", file, event, err)
		}
	}
	return es, nil
}

// duplicateKey is a key written twice in one object of v, or "": twice
// in any case, since encoding/json reads {"command":…, "Command":…} into
// one field too, keeping the last.
func duplicateKey(v *hujson.Value) string {
	switch x := v.Value.(type) {
	case *hujson.Object:
		seen := map[string]bool{}
		for i := range x.Members {
			var name string
			if lit, ok := x.Members[i].Name.Value.(hujson.Literal); ok {
				name = lit.String()
			}
			if seen[FoldKey(name)] {
				return name
			}
			seen[FoldKey(name)] = true
			if dup := duplicateKey(&x.Members[i].Value); dup != "" {
				return dup
			}
		}
	case *hujson.Array:
		for i := range x.Elements {
			if dup := duplicateKey(&x.Elements[i]); dup != "" {
				return dup
			}
		}
	}
	return ""
}

// FoldKey is s with each rune replaced by the least rune of its simple
// case folding orbit: two keys strings.EqualFold holds equal have the
// same FoldKey.
func FoldKey(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}

// run runs one entry as the host runs a hook command; where it failed
// (Output.Failed), why says how.
func run(ctx context.Context, d *mappings.Dialect, e entry, stdin []byte, stderr io.Writer) (o translate.Output, why string) {
	timeout := time.Duration(e.Timeout * float64(time.Second))
	if d.Timeout.Unit == "ms" {
		timeout = time.Duration(e.Timeout * float64(time.Millisecond))
	}
	if timeout <= 0 {
		timeout = time.Duration(d.Timeout.Default) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	argv := append(append([]string{}, d.Command.Argv...), e.Command)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out limited
	cmd.Stdout = &out
	cmd.Stderr = stderr
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	o = translate.Output{Stdout: out.b.Bytes()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		o.TimedOut = true
	case out.over:
		o.Failed, why = true, fmt.Sprintf("wrote more than %d bytes on stdout", maxOutput)
	case errors.Is(err, exec.ErrWaitDelay):
		// The command exited, but a process it started still holds its
		// stdout: what it would still write, after the answer was read,
		// cannot be known (hookx wrap never leaves one).
		o.Failed, why = true, fmt.Sprintf("exited but left a process holding its stdout (still open %v after it exited): its answer cannot be known", cmd.WaitDelay)
	case errors.As(err, &ee):
		if ee.ExitCode() < 0 {
			o.Signaled = true
		}
		o.ExitCode = ee.ExitCode()
	case err != nil:
		o.Failed, why = true, "could not start: "+err.Error()
	}
	return o, why
}

// control is a hook's answer as Cline reads it (the last HOOK_CONTROL
// line, else the whole stdout), when it is one JSON object.
func control(stdout []byte) []byte {
	text := strings.TrimSpace(string(stdout))
	last := ""
	for _, line := range strings.Split(text, "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(line), "HOOK_CONTROL\t"); ok {
			last = c
		}
	}
	if last != "" {
		text = last
	}
	var o map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &o) != nil {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(text)) != nil {
		return nil
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// refusal is the host's refusal of the call, through translate's model
// of the host's answer (what wrap answers when hookx itself fails).
func refusal(d *mappings.Dialect, event, why string) []byte {
	return lineOf(translate.FailureOutput(d, event, errors.New(why)).Stdout)
}

// contextAnswer is Cline's answer adding context for the model, the
// hooks' texts one per line as translate renders several (cline).
func contextAnswer(contexts []string) []byte {
	b, _ := json.Marshal(map[string]string{"context": strings.Join(contexts, "\n")})
	return lineOf(b)
}

func lineOf(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return append(bytes.TrimRight(b, "\n"), '\n')
}

// limited keeps up to maxOutput bytes.
type limited struct {
	b    bytes.Buffer
	over bool
}

func (l *limited) Write(p []byte) (int, error) {
	if l.b.Len()+len(p) > maxOutput {
		l.over = true
		return 0, errors.New("output over hookx's bound")
	}
	return l.b.Write(p)
}
