// Package translate translates hook payloads and hook results between agent
// dialects, driven by the mapping table in package mappings. It has no CLI
// or OS dependencies: it takes and returns bytes.
//
// Two invariants hold for every event and every idiom: a block in the hook's
// dialect is a block at the host (deny in ⇒ deny out), and nothing is granted
// that the hook did not grant. Everything that cannot be carried exactly
// comes back as a Finding, never silently.
package translate

import (
	"fmt"
	"time"

	"github.com/hookx-dev/hookx/mappings"
)

// Finding reports one thing that could not be translated exactly.
type Finding struct {
	What string        // what was affected: a field, a value, a decision
	Mark mappings.Mark // Approximate, or None when it was dropped
	Why  string
}

// String renders a finding on one line.
func (f Finding) String() string {
	verb := "approximate"
	if f.Mark == mappings.None {
		verb = "not carried"
	}
	if f.Why == "" {
		return fmt.Sprintf("%s: %s", f.What, verb)
	}
	return fmt.Sprintf("%s: %s: %s", f.What, verb, f.Why)
}

// Translator translates from one dialect to another.
type Translator struct {
	Table    *mappings.Table
	From, To *mappings.Dialect
	// Now is the clock used for derived timestamps; time.Now when nil.
	Now func() time.Time
	// Match is the hook's own tool matcher, in To's dialect (nil: every
	// tool). Event uses it to choose which of the hook's tools a host tool
	// is presented as, and skips the hook when it matches none.
	Match *mappings.ToolMatcher
	// Exists tells whether a file exists, for resolving paths the way the
	// host's tools do (some look at the disk); os.Stat when nil.
	Exists func(path string) bool
	// HostEvent is From's event, for a payload that names none (Copilot
	// CLI's): "" tells it from the payload's fields (HostEvent).
	HostEvent string
}

// New returns a Translator from dialect from to dialect to.
func New(t *mappings.Table, from, to string) (*Translator, error) {
	f, err := t.Dialect(from)
	if err != nil {
		return nil, err
	}
	d, err := t.Dialect(to)
	if err != nil {
		return nil, err
	}
	return &Translator{Table: t, From: f, To: d}, nil
}

func (tr *Translator) now() time.Time {
	if tr.Now != nil {
		return tr.Now()
	}
	return time.Now()
}

type findings []Finding

func (f *findings) add(mark mappings.Mark, what, format string, args ...any) {
	*f = append(*f, Finding{What: what, Mark: mark, Why: fmt.Sprintf(format, args...)})
}
