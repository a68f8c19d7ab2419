package translate

import (
	"fmt"

	"github.com/hookx-dev/hookx/mappings"
)

// ReadOutput reads a hook's output with the rules of its own dialect d on
// event (a name in d), as that agent reads it, before any translation. The
// findings say what of the output the agent ignores or rejects. A value the
// agent rejects but whose intent is a deny (Claude's decision "deny") is
// read as a block, the stricter reading, and named in the findings. The
// error names an event d does not know.
func ReadOutput(d *mappings.Dialect, event string, out Output) (Verdict, []Finding, error) {
	ev := d.Event(event)
	if ev == nil {
		return Verdict{}, nil, fmt.Errorf("unknown %s event %q", d.Agent, event)
	}
	var fs findings
	v := readOutput(d, ev, out, &fs)
	return v, fs, nil
}
