package mappings

import (
	"slices"
	"sync"
)

// A wrapped hook call uses at most two dialects of the table (the host's
// and the hook's), and must not pay for building the others: Lazy serves it
// a table whose dialects are built on first use, from one generated
// constructor each (table_gen.go). Host detection needs only each dialect's
// clues, generated apart (Clues).

// generatedDialect builds the named dialect of the generated table, or
// returns nil (table_gen.go).
var generatedDialect func(name string) *Dialect

// generatedCanonical builds the generated table's canonical vocabulary.
var generatedCanonical func() Canonical

// generatedClues lists the generated table's clues, in its order.
var generatedClues func() []Clue

// lazy is how a table made by Lazy builds its dialects.
type lazy struct {
	mu       sync.Mutex
	build    func(name string) *Dialect
	names    []string // every dialect's name, in the table's order
	complete bool     // every dialect is built
}

// Lazy returns the embedded table with no dialect built yet: each is built
// and indexed on first use (Dialect), all of them only when a question
// needs them all (EventHint, EventOwner, LikelyHost). Its Dialects holds the
// dialects built so far, in the table's order; DialectNames and Clues answer
// for all of them without building any. It is what one hook call needs;
// whatever works on the whole table uses Default.
func Lazy() *Table {
	if generatedDialect == nil {
		return Default()
	}
	return &Table{
		Canonical: generatedCanonical(),
		byName:    map[string]*Dialect{},
		lazy:      &lazy{build: generatedDialect, names: Names()},
	}
}

// lookup returns the named dialect, building it first in a lazy table.
func (t *Table) lookup(name string) (*Dialect, bool) {
	if t.lazy == nil {
		d, ok := t.byName[name]
		return d, ok
	}
	t.lazy.mu.Lock()
	defer t.lazy.mu.Unlock()
	return t.lookupLocked(name)
}

func (t *Table) lookupLocked(name string) (*Dialect, bool) {
	if d, ok := t.byName[name]; ok {
		return d, true
	}
	if !slices.Contains(t.lazy.names, name) {
		return nil, false
	}
	d := t.lazy.build(name)
	if d == nil {
		return nil, false
	}
	t.byName[name] = d
	i, _ := slices.BinarySearchFunc(t.Dialects, d, func(a, b *Dialect) int {
		return slices.Index(t.lazy.names, a.Name) - slices.Index(t.lazy.names, b.Name)
	})
	t.Dialects = slices.Insert(t.Dialects, i, d)
	return d, true
}

// all returns every dialect of the table, building those a lazy table has
// not built yet.
func (t *Table) all() []*Dialect {
	if t.lazy == nil {
		return t.Dialects
	}
	t.lazy.mu.Lock()
	defer t.lazy.mu.Unlock()
	if !t.lazy.complete {
		for _, name := range t.lazy.names {
			t.lookupLocked(name)
		}
		t.lazy.complete = true
	}
	return t.Dialects
}

// Clue is what tells one dialect's agent apart as the host of a hook call,
// and which events it has: all that host detection reads of a dialect.
type Clue struct {
	Name string
	// Events are the dialect's event names; Guards those of them that
	// guard an action (Output.Guard).
	Events, Guards []string
	// Env and Fields are the dialect's Detect.
	Env, Fields []string
	Signature   []string
	// SessionEnv is the variable its agent gives hooks the session in
	// (Env.SessionID).
	SessionEnv string
	// OwnPayload: its agent sends its payload in a form of its own
	// (PayloadShape.Own).
	OwnPayload bool
}

// Clues lists each dialect's clues, in the table's order; a lazy table
// answers without building a dialect.
func (t *Table) Clues() []Clue {
	if t.lazy != nil && generatedClues != nil {
		return generatedClues()
	}
	ds := t.all() // a lazy table without generated clues builds them all
	out := make([]Clue, len(ds))
	for i, d := range ds {
		out[i] = d.clue()
	}
	return out
}

func (d *Dialect) clue() Clue {
	c := Clue{
		Name: d.Name, Env: d.Detect.Env, Fields: d.Detect.Fields, Signature: d.Signature,
		SessionEnv: d.Env.SessionID, OwnPayload: d.Payload.Own(),
	}
	for _, e := range d.Events {
		c.Events = append(c.Events, e.Name)
		if e.Output.Guard {
			c.Guards = append(c.Guards, e.Name)
		}
	}
	return c
}
