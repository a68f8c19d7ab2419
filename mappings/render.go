package mappings

import (
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
	// Verified is "live" when both sides were seen in real runs, "unverified"
	// for a mapping nobody has seen work yet, and empty for no mapping.
	Verified string `json:"verified,omitempty"`
}

// Rows lists every event and tool of from with its counterpart in to, in
// the table's order, then the transcript and MCP rows.
func (t *Table) Rows(from, to *Dialect) []Row {
	var rows []Row
	for _, e := range from.Events {
		m, _ := t.MapEvent(from, to, e.Name)
		r := Row{Kind: "event", From: e.Name, Mark: m.Mark, Note: m.Note, Verified: verified(m.Live, m.Mark)}
		if m.To != nil {
			r.To = m.To.Name
		}
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
		rows = append(rows, Row{Kind: "tool", From: name, To: m.Name, Mark: m.Mark, Note: note, Verified: verified(m.Live, m.Mark)})
	}
	if from.Transcript.Format != "" && to.Transcript.Format != "" {
		// wrap hands the hook a translated copy in its own format.
		rows = append(rows, Row{Kind: "transcript", From: from.Transcript.File, To: to.Transcript.File, Mark: Approximate,
			Note:     joinNotes("a translated copy holds "+to.Transcript.Carries, "not "+to.Transcript.Lacks),
			Verified: verified(from.Transcript.Live && to.Transcript.Live, Approximate)})
	}
	mcpFrom, _ := from.MCPName("server", "tool")
	mcpTo, _ := to.MCPName("server", "tool")
	rows = append(rows, Row{Kind: "tool", From: mcpFrom, To: mcpTo, Mark: Exact, Note: "MCP tools; exact when the name needs no sanitising", Verified: "live"})
	return rows
}

// WriteMarkdown writes the compatibility table between every ordered pair of
// dialects as Markdown. The README embeds this output; a test keeps it fresh.
func (t *Table) WriteMarkdown(w io.Writer) error {
	for _, from := range t.Dialects {
		for _, to := range t.Dialects {
			if from == to {
				continue
			}
			fmt.Fprintf(w, "#### %s %s → %s %s\n\n", from.Agent, from.Version, to.Agent, to.Version)
			fmt.Fprintf(w, "| | %s | %s | Mark | Seen live | Note |\n|---|---|---|---|---|---|\n", from.Agent, to.Agent)
			for _, r := range t.Rows(from, to) {
				target := r.To
				if target == "" {
					target = "—"
				}
				fmt.Fprintf(w, "| %s | `%s` | %s | %s | %s | %s |\n", r.Kind, r.From, codeOrDash(target), r.Mark, liveCell(r.Verified), mdEscape(r.Note))
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

// WriteText writes the same tables as aligned plain text.
func (t *Table) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, from := range t.Dialects {
		for _, to := range t.Dialects {
			if from == to {
				continue
			}
			fmt.Fprintf(tw, "%s %s -> %s %s\n", from.Agent, from.Version, to.Agent, to.Version)
			fmt.Fprintf(tw, "KIND\tFROM\tTO\tMARK\tLIVE\tNOTE\n")
			for _, r := range t.Rows(from, to) {
				target := r.To
				if target == "" {
					target = "-"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Kind, r.From, target, r.Mark, liveCell(r.Verified), r.Note)
			}
			fmt.Fprintln(tw)
		}
	}
	return tw.Flush()
}

// WriteJSON writes the whole table: the canonical vocabulary, every dialect
// and the pairwise rows.
func (t *Table) WriteJSON(w io.Writer) error {
	pairs := map[string][]Row{}
	for _, from := range t.Dialects {
		for _, to := range t.Dialects {
			if from != to {
				pairs[from.Name+"->"+to.Name] = t.Rows(from, to)
			}
		}
	}
	keys := make([]string, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
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
	case "unverified":
		return "UNVERIFIED"
	}
	return "-"
}
