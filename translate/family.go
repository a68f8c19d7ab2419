package translate

import "github.com/hookx-dev/hookx/mappings"

// A family is one protocol family's model of hook output (the dialect's
// protocol, mappings.Protocols): how its agents read a hook's result, and
// the answer they take from one. Each family is one file: claude.go,
// gemini.go, copilot.go. The shared code (readOutput, overflowVerdict,
// render, FailureOutput) asks the family of the dialect at hand and never
// names one.
type family interface {
	// read reads a hook's output on ev by the family's rules. The rules
	// every family shares (a timeout, a failure to run, held output,
	// output over hookx's bound) are applied before it is called.
	read(d *mappings.Dialect, ev *mappings.Event, out Output, fs *findings) Verdict
	// exitBlocks reports whether exit (not a signal) blocks on ev whatever
	// the output says.
	exitBlocks(d *mappings.Dialect, ev *mappings.Event, exit int) bool
	// readWhole reads an output that was over hookx's bound from the part
	// that is whole, where the family's agent would decide by that part
	// alone; ok false leaves the verdict to the shared rules
	// (overflowVerdict). blocking is exitBlocks, false on a signal.
	readWhole(d *mappings.Dialect, ev *mappings.Event, out Output, blocking bool, why string, fs *findings) (v Verdict, ok bool)
	// render writes r as the family's answer on ev, an event of tr.To.
	render(tr *Translator, ctx ResultContext, ev *mappings.Event, r rendered, fs *findings) Output
	// failure writes hookx's own failure r (reason, its text) on ev, an event of host, or
	// nil when hookx could not tell which event it is.
	failure(host *mappings.Dialect, ev *mappings.Event, r rendered, reason string) Output
	// carriesModel reports whether the family's answer carries the model
	// hook fields (mappings.Output.ModelFields) as the hook wrote them.
	carriesModel() bool
}

// families are the protocol families by name; a test holds them against
// mappings.Protocols.
var families = map[string]family{
	"claude":   claudeFamily{},
	"gemini":   geminiFamily{},
	"copilot":  copilotFamily{},
	"cline":    clineFamily{},
	"pi":       piFamily,
	"opencode": opencodeFamily,
}

// familyOf is d's protocol family. The table is validated against
// mappings.Protocols when it loads, so every dialect has one.
func familyOf(d *mappings.Dialect) family {
	if f, ok := families[d.Protocol]; ok {
		return f
	}
	panic("translate: no protocol family " + d.Protocol + " for " + d.Name)
}
