package mappings

// The embedded table is indexed lazily, one dialect at a time: a wrapped
// hook call uses two dialects of the table, and must not pay for the others
// (nor for validation, done when the table is generated and by the tests).

// indexNames builds the table's name lookup alone; each dialect builds its
// own lookups on first use (ensureIndex). It is what Default does with the
// generated table, which was validated when it was generated (Load validates,
// and TestGeneratedTableIsFresh holds the two equal).
func (t *Table) indexNames() {
	t.reset()
	for _, d := range t.Dialects {
		t.byName[d.Name] = d
	}
}

// ensureIndex builds the dialect's lookups once, as index does (without its
// checks): the last of duplicate names wins, as there. Every accessor of the
// lookups calls it; index marks the dialects it indexed as done.
func (d *Dialect) ensureIndex() {
	d.indexOnce.Do(d.buildIndex)
}

func (d *Dialect) buildIndex() {
	// The exact-list pattern is compiled on first use (IsExactList): only
	// migrate reads it, and a hook call would compile two regexps for
	// nothing. An invalid one fails validation (index).
	d.eventByName = make(map[string]*Event, len(d.Events))
	d.eventByCanon = make(map[string]*Event, len(d.Events))
	d.alternateEvents = map[string]*Event{}
	for _, e := range d.Events {
		d.eventByName[e.Name] = e
		if e.Mark == None {
			continue // it stands for no canonical event (EventFor)
		}
		d.eventByCanon[e.Canonical] = e
		for _, a := range e.Also {
			d.alternateEvents[a] = e
		}
	}
	d.toolByName = make(map[string]*Tool, len(d.Tools))
	d.toolByCanon = make(map[string]*Tool, len(d.Tools))
	for _, tool := range d.Tools {
		d.toolByName[tool.Name] = tool
		for _, n := range tool.Aliases {
			d.toolByName[n] = tool
		}
		if tool.Canonical == "" {
			continue
		}
		if !tool.Legacy {
			d.toolByCanon[tool.Canonical] = tool
		}
		// Not each tool's canonField: ArgFor reads a tool's few arguments
		// without it, and a hook call asks about one tool or none, where
		// building the map for every tool of two dialects was a fifth of
		// their cost. Duplicates, which would make the two differ, fail
		// validation (index).
	}
}
