package mappings

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// Row is one line of the compatibility table between two dialects.
type Row struct {
	Kind string `json:"kind"` // "event", "tool" or "transcript"
	From string `json:"from"`
	To   string `json:"to"` // empty when there is no counterpart
	Mark Mark   `json:"mark"`
	Note string `json:"note,omitempty"`
	// Verified is "live" when both sides were seen in real runs, "offline"
	// when one side was seen only in a run outside CI (a dialect with a
	// Verification), "unverified" for a mapping nobody has seen work yet,
	// and empty for no mapping.
	Verified string `json:"verified,omitempty"`
}

// Rows lists every event and tool of from with its counterpart in to, in
// the table's order, then the transcript and MCP rows.
func (t *Table) Rows(from, to *Dialect) []Row {
	var rows []Row
	offline := from.liveOutsideCI() || to.liveOutsideCI()
	verified := func(live bool, m Mark) string {
		v := verified(live, m)
		if v == "live" && offline {
			return "offline"
		}
		return v
	}
	for _, e := range from.Events {
		m, _ := t.MapEvent(from, to, e.Name)
		r := Row{Kind: "event", From: e.Name, Mark: m.Mark, Note: m.Note, Verified: verified(m.Live, m.Mark)}
		if m.To != nil {
			r.To = m.To.Name
			r.Note = joinNotes(r.Note, sourceNote(to, m.To.Source))
		}
		r.Note = joinNotes(r.Note, sourceNote(from, e.Source))
		rows = append(rows, r)
	}
	for _, tool := range from.Tools {
		m, _ := t.MapTool(from, to, tool.Name)
		name := tool.Name
		if len(tool.Aliases) > 0 {
			name += " (" + strings.Join(tool.Aliases, ", ") + ")"
		}
		note := m.Note
		if tool.Legacy && m.Mark != None {
			note = joinNotes("legacy name: accepted, never emitted", note)
		}
		if legacy := to.ToolsFor(tool.Canonical); m.Mark == None && tool.Canonical != "" && len(legacy) > 0 {
			note = joinNotes(note, fmt.Sprintf("hookx wrap shows it to a %s hook as the legacy %s", to.Agent, legacy[0].Name))
		}
		note = joinNotes(note, sourceNote(from, tool.Source))
		if m.To != nil {
			note = joinNotes(note, sourceNote(to, m.To.Source))
		}
		rows = append(rows, Row{Kind: "tool", From: name, To: m.Name, Mark: m.Mark, Note: note, Verified: verified(m.Live, m.Mark)})
	}
	if from.Transcript.Writable() && to.Transcript.Format != "" {
		// wrap hands the hook a translated copy in its own format.
		rows = append(rows, Row{Kind: "transcript", From: from.Transcript.File, To: to.Transcript.File, Mark: Approximate,
			Note:     joinNotes("a translated copy holds "+to.Transcript.Carries, "not "+to.Transcript.Lacks),
			Verified: verified(from.Transcript.Live && to.Transcript.Live, Approximate)})
	}
	mcpFrom, _ := from.MCPName("server", "tool")
	mcpTo, _ := to.MCPName("server", "tool")
	// Live only where both agents were run with an MCP server; a naming
	// read from source alone is a guess until then.
	mcpSeen := verified(from.MCP.Live && to.MCP.Live, Exact)
	rows = append(rows, Row{Kind: "tool", From: mcpFrom, To: mcpTo, Mark: Exact, Note: "MCP tools; exact when the name needs no sanitising", Verified: mcpSeen})
	return rows
}

// sourceNote cites where a dialect that CI cannot run has a row: its
// source's file:line, or the offline run that showed it.
func sourceNote(d *Dialect, source string) string {
	if d.Verification == nil || source == "" {
		return ""
	}
	return d.Agent + ": " + source
}

// WriteMarkdown writes the compatibility table between every ordered pair of
// dialects as Markdown. The agents' pages in docs/ embed it, per target;
// a test keeps them fresh.
func (t *Table) WriteMarkdown(w io.Writer) error { return t.WriteMarkdownOf(w, Filter{}) }

// WriteText writes the same tables as aligned plain text.
func (t *Table) WriteText(w io.Writer) error { return t.WriteTextOf(w, Filter{}) }

// WriteMarkdownOf writes the rows f keeps, pair by pair, leaving out pairs
// with none; the tables of the tools a hook is presented come only with
// every row of a pair (no Kind or Name).
func (t *Table) WriteMarkdownOf(w io.Writer, f Filter) error {
	for _, p := range t.pairs(f) {
		fmt.Fprintf(w, "#### %s %s → %s %s\n\n", p.from.Agent, p.from.Version, p.to.Agent, p.to.Version)
		for _, d := range []*Dialect{p.from, p.to} {
			if v := d.Verification; v != nil && v.InCI {
				fmt.Fprintf(w, "%s's rows seen live are run in CI (%s); the others are verified from its source only (%s, cited file:line).\n\n", d.Agent, v.LiveRun, v.Source)
			} else if v != nil {
				fmt.Fprintf(w, "%s is verified from source only (%s, cited file:line), never in CI; it was run once offline, outside CI (%s): *one offline run* marks what that run showed.\n\n", d.Agent, v.Source, v.LiveRun)
			}
		}
		fmt.Fprintf(w, "| | %s | %s | Mark | Seen live | Note |\n|---|---|---|---|---|---|\n", p.from.Agent, p.to.Agent)
		for _, r := range p.rows {
			fmt.Fprintf(w, "| %s | `%s` | %s | %s | %s | %s |\n", r.Kind, r.From, codeOrDash(cmp.Or(r.To, "—")), r.Mark, liveCell(r.Verified), mdEscape(r.Note))
		}
		fmt.Fprintln(w)
		if f.Kind == "" && f.Name == "" {
			t.writePresentedMarkdown(w, p.from, p.to)
		}
	}
	return nil
}

// WriteTextOf writes the rows f keeps as aligned text, leaving out pairs
// with none.
func (t *Table) WriteTextOf(w io.Writer, f Filter) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, p := range t.pairs(f) {
		fmt.Fprintf(tw, "%s %s -> %s %s\n", p.from.Agent, p.from.Version, p.to.Agent, p.to.Version)
		fmt.Fprintf(tw, "KIND\tFROM\tTO\tMARK\tLIVE\tNOTE\n")
		for _, r := range p.rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Kind, r.From, cmp.Or(r.To, "-"), r.Mark, liveCell(r.Verified), r.Note)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// pairRows are the kept rows of one ordered pair of dialects.
type pairRows struct {
	from, to *Dialect
	rows     []Row
}

// A Filter selects rows of the table; an empty field selects all.
type Filter struct {
	From string `json:"from,omitempty"` // dialect names: the pair's source
	To   string `json:"to,omitempty"`   // and target
	Kind string `json:"kind,omitempty"` // "event" or "tool"
	Name string `json:"name,omitempty"` // an event or tool name on either side, aliases included
}

func (f Filter) keeps(from, to *Dialect, r Row) bool {
	return (f.From == "" || f.From == from.Name) && (f.To == "" || f.To == to.Name) &&
		(f.Kind == "" || f.Kind == r.Kind) && (f.Name == "" || r.Names(f.Name))
}

// Pairs returns the rows f keeps by ordered pair ("claude->gemini"),
// leaving out pairs with none.
func (t *Table) Pairs(f Filter) map[string][]Row {
	out := map[string][]Row{}
	for _, p := range t.pairs(f) {
		out[p.from.Name+"->"+p.to.Name] = p.rows
	}
	return out
}

// pairs lists every ordered pair of distinct dialects with the rows f
// keeps, leaving out pairs with none.
func (t *Table) pairs(f Filter) []pairRows {
	var out []pairRows
	for _, from := range t.Dialects {
		for _, to := range t.Dialects {
			if from == to {
				continue
			}
			p := pairRows{from: from, to: to}
			for _, r := range t.Rows(from, to) {
				if f.keeps(from, to, r) {
					p.rows = append(p.rows, r)
				}
			}
			if len(p.rows) > 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// Names reports whether either side of r is name; a side may read
// "Agent (Task)", a name and its aliases.
func (r Row) Names(name string) bool {
	for _, side := range []string{r.From, r.To} {
		for _, n := range strings.FieldsFunc(side, func(c rune) bool { return c == ' ' || c == '(' || c == ')' || c == ',' }) {
			if n == name {
				return true
			}
		}
	}
	return false
}

// WriteJSON writes the whole table: the canonical vocabulary, every dialect
// and the pairwise rows.
func (t *Table) WriteJSON(w io.Writer) error {
	pairs := t.Pairs(Filter{})
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Canonical Canonical        `json:"canonical"`
		Dialects  []*Dialect       `json:"dialects"`
		Pairs     map[string][]Row `json:"pairs"`
	}{t.Canonical, t.Dialects, pairs})
}

func codeOrDash(s string) string {
	if s == "—" {
		return s
	}
	return "`" + s + "`"
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func verified(live bool, m Mark) string {
	switch {
	case m == None:
		return ""
	case live:
		return "live"
	}
	return "unverified"
}

func liveCell(v string) string {
	switch v {
	case "live":
		return "yes"
	case "offline":
		return "one offline run"
	case "unverified":
		return "UNVERIFIED"
	}
	return "-"
}

// PresentedRow says what becomes of one legacy or alias tool name in a
// hook's matcher when the hook runs on another agent: what the migrated
// matcher names, and which tool, with which arguments, the hook is shown.
type PresentedRow struct {
	Name    string // the name in the hook's matcher
	Host    string // the host's tool the migrated matcher names; "" for none
	Sees    string // the tool_name the hook is given; "" when it never runs
	Args    string // the hook's argument names, and the host's they come from
	Comment string
}

// PresentedRows lists, for a hook written for hook running on host, every
// legacy tool name and alias of hook's table: what hookx migrate makes of a
// matcher that names it, and what hookx wrap (given that matcher with
// --match) shows the hook (HookTool).
func (t *Table) PresentedRows(hook, host *Dialect) []PresentedRow {
	var rows []PresentedRow
	for _, tool := range hook.Tools {
		var names []string
		if tool.Legacy {
			names = append(names, tool.Name)
		}
		for _, n := range append(names, tool.Aliases...) {
			r := PresentedRow{Name: n}
			m, err := hook.ToolMatcher(n)
			if err != nil {
				continue
			}
			fires, unknown := false, false
			for _, own := range hook.Tools {
				ok, err := m.Match(own.Name)
				fires, unknown = fires || ok, unknown || err != nil
			}
			if unknown {
				continue // a name of the table's own that hookx cannot evaluate: the table test fails on it
			}
			tm, _ := t.MapTool(hook, host, n)
			switch {
			case !fires:
				r.Comment = fmt.Sprintf("%s never runs a hook for it: hooks are given tool_name %s, which the matcher does not match; not migrated", hook.Agent, tool.Name)
			case tm.Mark == None:
				r.Comment = "no counterpart: " + tm.Note
			default:
				r.Host = tm.Name
				seen, fits, _ := t.HookTool(host, hook, tm.Name, m)
				if !fits || seen.To == nil {
					r.Comment = "hookx wrap does not run the hook"
					break
				}
				r.Sees = seen.Name
				r.Args = presentedArgs(seen.To, host.Tool(tm.Name))
				if primary, _ := hook.ToolFor(seen.To.Canonical); primary != nil && primary != seen.To {
					r.Comment = fmt.Sprintf("a matcher that also names %s sees %s", primary.Name, primary.Name)
				}
				if n != seen.Name {
					r.Comment = joinNotes(fmt.Sprintf("%s itself resolves %s to %s", hook.Agent, n, seen.Name), r.Comment)
				}
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// presentedArgs lists the hook tool's argument names, each with the host
// argument it is taken from where the names differ.
func presentedArgs(hook, host *Tool) string {
	var out []string
	for _, arg := range sortedKeys(hook.Fields) {
		s := "`" + arg + "`"
		if from, ok := host.ArgFor(hook.Fields[arg]); ok && from != arg {
			s += " ← `" + from + "`"
		} else if !ok {
			continue
		}
		out = append(out, s)
	}
	if c := InputConverterByName(hook.Convert); c != nil {
		var from []string
		for _, canon := range c.Canonical {
			if arg, ok := host.ArgFor(canon); ok {
				from = append(from, "`"+arg+"`")
			}
		}
		for _, arg := range c.Args {
			if len(from) > 0 {
				out = append(out, "`"+arg+"` ← "+strings.Join(from, ", "))
			}
		}
	}
	return strings.Join(out, ", ")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writePresentedMarkdown writes PresentedRows as a Markdown table.
func (t *Table) writePresentedMarkdown(w io.Writer, hook, host *Dialect) {
	rows := t.PresentedRows(hook, host)
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "Legacy and alias names in a %s hook's matcher, on %s (`--match` tells hookx wrap the hook's own matcher):\n\n", hook.Agent, host.Agent)
	fmt.Fprintf(w, "| Name in the matcher | Migrated matcher names | The hook is shown | Its arguments (← %s's) | Note |\n|---|---|---|---|---|\n", host.Agent)
	dash := func(s string) string {
		if s == "" {
			return "—"
		}
		return "`" + s + "`"
	}
	for _, r := range rows {
		args := r.Args
		if args == "" {
			args = "—"
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s |\n", r.Name, dash(r.Host), dash(r.Sees), args, mdEscape(r.Comment))
	}
	fmt.Fprintln(w)
}

// WriteColumnsMarkdown writes docs/compatibility.md's table: one row per
// canonical event and tool, one column per dialect with its name for it,
// then each dialect's tools without a canonical concept, its transcript,
// and the legacy-name tables of every pair. A name is marked ≈ where the
// dialect's event or tool is an approximation of the concept, and
// UNVERIFIED where it was not seen in a real run of the agent.
func (t *Table) WriteColumnsMarkdown(w io.Writer) error {
	fmt.Fprint(w, "| | Canonical |")
	for _, d := range t.Dialects {
		if d.liveOutsideCI() {
			// Not run in CI: the column says so in its header.
			fmt.Fprintf(w, " %s %s (from source) |", d.Agent, d.Version)
			continue
		}
		fmt.Fprintf(w, " %s %s |", d.Agent, d.Version)
	}
	fmt.Fprint(w, "\n|---|---|")
	for range t.Dialects {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	// cellIn is a dialect's name for a concept; for a dialect CI cannot
	// run (Verification), it cites the source, and "live" is its offline run.
	cellIn := func(d *Dialect, name string, mark Mark, live bool, source string) string {
		s := "`" + name + "`"
		if mark == Approximate {
			s += " ≈"
		}
		switch {
		case !live:
			s += " UNVERIFIED"
		case d != nil && d.liveOutsideCI():
			s += " (offline run)"
		}
		if d != nil && d.Verification != nil && source != "" {
			s += " [" + mdEscape(source) + "]"
		}
		return s
	}
	cell := func(name string, mark Mark, live bool) string { return cellIn(nil, name, mark, live, "") }
	for _, c := range t.Canonical.Events {
		fmt.Fprintf(w, "| event | `%s` |", c.ID)
		for _, d := range t.Dialects {
			e, _ := d.EventFor(c.ID)
			switch {
			case e == nil:
				fmt.Fprint(w, " — |")
			case e.Canonical != c.ID:
				// Carried by an event whose primary concept is another.
				fmt.Fprintf(w, " %s (also) |", cellIn(d, e.Name, Approximate, e.Live, e.Source))
			default:
				fmt.Fprintf(w, " %s |", cellIn(d, e.Name, e.Mark, e.Live, e.Source))
			}
		}
		fmt.Fprintln(w)
	}
	for _, c := range t.Canonical.Tools {
		fmt.Fprintf(w, "| tool | `%s` |", c.ID)
		for _, d := range t.Dialects {
			tool, _ := d.ToolFor(c.ID)
			if tool == nil {
				fmt.Fprint(w, " — |")
				continue
			}
			s := cellIn(d, tool.Name, tool.Mark, tool.Live, tool.Source)
			if len(tool.Aliases) > 0 {
				s += " (" + strings.Join(tool.Aliases, ", ") + ")"
			}
			fmt.Fprintf(w, " %s |", s)
		}
		fmt.Fprintln(w)
	}
	for _, d := range t.Dialects {
		for _, tool := range d.Tools {
			if tool.Canonical != "" {
				continue
			}
			fmt.Fprintf(w, "| tool | — |")
			for _, o := range t.Dialects {
				if o == d {
					fmt.Fprintf(w, " %s: %s |", cell(tool.Name, Exact, tool.Live), mdEscape(tool.Only))
				} else {
					fmt.Fprint(w, " — |")
				}
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprint(w, "| transcript | |")
	for _, d := range t.Dialects {
		if d.Transcript.File == "" {
			fmt.Fprint(w, " — |")
			continue
		}
		fmt.Fprintf(w, " %s |", cell(d.Transcript.File, Exact, d.Transcript.Live))
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, "| settings | |")
	for _, d := range t.Dialects {
		fmt.Fprintf(w, " `%s` |", d.Settings.Project)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	for _, d := range t.Dialects {
		if v := d.Verification; v != nil && v.InCI {
			fmt.Fprintf(w, "%s's names not marked UNVERIFIED are run in CI (%s); each name cites its file:line in its source (%s) in brackets.\n\n", d.Agent, v.LiveRun, v.Source)
		} else if v != nil {
			fmt.Fprintf(w, "%s is verified from source only (%s; each name cites its file:line in brackets), never in CI; it was run once offline, outside CI (%s): *(offline run)* marks what that run showed, UNVERIFIED what was read from source only.\n\n", d.Agent, v.Source, v.LiveRun)
		}
	}
	for _, hook := range t.Dialects {
		for _, host := range t.Dialects {
			if hook != host {
				t.writePresentedMarkdown(w, hook, host)
			}
		}
	}
	return nil
}
