package wrap

import "github.com/hookx-dev/hookx/mappings"

// The types below are the part of the translation library that wrap needs.
// They mirror package translate, and cmd/hookx binds them to it; keeping them
// here lets wrap be tested with a fake translator and keeps the process side
// free of translation rules.

// Output is a hook's raw result, or what the host must receive.
type Output struct {
	Stdout, Stderr []byte
	ExitCode       int
	TimedOut       bool // killed by hookx's --timeout
	Signaled       bool // killed by a signal: there is no exit code
	Failed         bool // could not start, or output over the bound
	// Overflow is set when stdout or stderr was over hookx's bound: the
	// stream over it is left out (nil), the other is kept.
	Overflow bool
	// Held is set when the hook exited while something it started still
	// held its stdout or stderr open, past the wait its own agent allows
	// (mappings.HeldOutput): the output is what arrived until then.
	Held       bool
	FailReason string // why Failed is set
}

// Event is a host payload translated into the hook's dialect.
type Event struct {
	Payload    []byte // the payload the hook reads; nil when Skip
	Name       string // the event name in the hook's dialect
	Tool       string // the tool_name the hook is given, for tool events
	Skip       bool   // the hook's dialect has no such event or value: it would never run
	SkipReason string
	Findings   []Finding
}

// Finding is one thing a translation could not carry exactly, rendered
// for people.
type Finding struct {
	Text string
	// Notice says the user must know it when it happens, so it is printed
	// on every call: what happened to this hook's answer (a failure, a
	// block hookx had to add, a cap reached) and anything of the event that
	// did not reach the hook at all. The table's routine approximations
	// (a renamed argument, say) are printed with --verbose only; the trace
	// records every finding.
	Notice bool
}

// ResultContext is what the result translation needs besides the output.
type ResultContext struct {
	HookEvent   string // the event name in the hook's dialect
	HostEvent   string // the host's event name
	HostPayload []byte // the host's original stdin
	HookTool    string // the tool_name the hook was given (Event.Tool)
	FailClosed  bool   // every hook failure is a block
	Ask         string // how ask/defer render on a Gemini host: "deny" or "ask"
}

// Translator translates one invocation between a host and a hook dialect.
type Translator interface {
	// Event translates the host's stdin into the hook's dialect.
	Event(hostPayload []byte) (*Event, error)
	// Result translates the hook's output into what the host must receive,
	// with findings to report.
	Result(ctx ResultContext, out Output) (Output, []Finding)
}

// Translation is the translation library as wrap uses it.
type Translation interface {
	// New returns a translator for a hook written for hook, run under host.
	New(host, hook string) (Translator, error)
	// DetectHost guesses the host dialect from its payload and environment.
	DetectHost(payload []byte, getenv func(string) string) (string, error)
	// HostEvent names the host's event, for a host whose payload names
	// none (Copilot CLI): wrap --host-event, or else its payload's fields.
	HostEvent(host *mappings.Dialect, payload []byte) (string, error)
	// Failure is the host's answer when hookx itself failed: a block on
	// the events where a block keeps something from happening or from the
	// model (output.guard, output.failClosed), a warning elsewhere.
	Failure(host *mappings.Dialect, hostEvent string, err error) Output
	// Blocks reports whether host reads out, an answer to its hostEvent, as
	// a block: the reading of the host's protocol family, the one the
	// translation itself reads hook output with. The Stop cap counts
	// blocks by it.
	Blocks(host *mappings.Dialect, hostEvent string, out Output) bool
}
