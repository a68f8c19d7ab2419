//go:build unix

package conformance

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/mappings"
)

// The README block the suite writes its results table into.
const (
	resultsBegin = "<!-- BEGIN conformance results: HOOKX_CONFORMANCE_README=docs/conformance.md go test ./conformance -->"
	resultsEnd   = "<!-- END conformance results -->"
)

// provenEvents names the events a passing run shows working in the agent
// that ran it: the events of the scenario's hooks natively, or the host's
// events they were migrated to through hookx. A negative control (one that
// wants a settings warning) and a verbatim configuration prove none, nor
// does a scenario prove an event its host does not fire headless (silent).
func provenEvents(sc *scenario, path string, host driver.Agent) []string {
	if path != pathNative && path != pathHookx || sc.wantWarning != "" || sc.config != "" {
		return nil
	}
	tbl := mappings.Default()
	from, err1 := tbl.Dialect(string(sc.dialect))
	to, err2 := tbl.Dialect(string(host))
	if err1 != nil || err2 != nil {
		return nil
	}
	var evs []string
	for _, h := range sc.hooks {
		name := h.event
		if path == pathHookx {
			m, err := tbl.MapEvent(from, to, h.event)
			if err != nil || m.To == nil {
				continue
			}
			name = m.To.Name
		}
		// A scenario that passes by showing the event never fires in a
		// headless run (silent) proves nothing about it.
		if to.Event(name) != nil && !silent(host, name) && !slices.Contains(evs, name) {
			evs = append(evs, name)
		}
	}
	return evs
}

// resultsTable is the suite's results as a Markdown table: one row per
// canonical event, one column per agent the suite runs. A cell names the
// agent's event and says whether a scenario with a hook on it passed in
// that agent (seen live) or not.
func resultsTable(rows []row) string {
	tbl := mappings.Default()
	seen := map[driver.Agent]map[string]bool{}
	for _, x := range rows {
		if x.result != "PASS" {
			continue
		}
		if seen[x.host] == nil {
			seen[x.host] = map[string]bool{}
		}
		for _, e := range x.proves {
			seen[x.host][e] = true
		}
	}
	var b strings.Builder
	b.WriteString("| event |")
	for _, a := range driver.Agents {
		fmt.Fprintf(&b, " %s |", tbl.MustDialect(string(a)).Agent)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(driver.Agents)) + "\n")
	for _, c := range tbl.Canonical.Events {
		var cells []string
		has := false
		for _, a := range driver.Agents {
			ev, _ := tbl.MustDialect(string(a)).EventFor(c.ID)
			switch {
			case ev == nil:
				cells = append(cells, "")
			case seen[a][ev.Name]:
				cells = append(cells, "`"+ev.Name+"` seen live")
				has = true
			default:
				cells = append(cells, "`"+ev.Name+"` not run")
				has = true
			}
		}
		if has {
			fmt.Fprintf(&b, "| `%s` | %s |\n", c.ID, strings.Join(cells, " | "))
		}
	}
	return b.String()
}

// writeResults puts the results table into the README named by
// $HOOKX_CONFORMANCE_README (relative to the repository root), between its markers, when the whole suite ran
// (no -run filter) and passed: a partial run would mark too little live.
func writeResults(t *testing.T, table string) {
	file := os.Getenv("HOOKX_CONFORMANCE_README")
	if file == "" {
		return
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join("..", file) // relative to the repository root; tests run in conformance/
	}
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" || t.Failed() {
		t.Logf("HOOKX_CONFORMANCE_README: not written (only a whole, passing run writes it)")
		return
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Errorf("HOOKX_CONFORMANCE_README: %v", err)
		return
	}
	out, err := replaceBlock(b, table)
	if err != nil {
		t.Errorf("HOOKX_CONFORMANCE_README %s: %v", file, err)
		return
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Errorf("HOOKX_CONFORMANCE_README: %v", err)
	}
}

// replaceBlock replaces what lies between the results markers in doc.
func replaceBlock(doc []byte, table string) ([]byte, error) {
	i := bytes.Index(doc, []byte(resultsBegin))
	j := bytes.Index(doc, []byte(resultsEnd))
	if i < 0 || j < i {
		return nil, fmt.Errorf("no %q … %q block", resultsBegin, resultsEnd)
	}
	var out bytes.Buffer
	out.Write(doc[:i+len(resultsBegin)])
	out.WriteString("\n" + table)
	out.Write(doc[j:])
	return out.Bytes(), nil
}

// The README's results table names only events the table still has, in
// the agents the suite runs: after a change of the data, a stale table
// fails here, without running any agent.
func TestReadmeResultsNameTheTablesEvents(t *testing.T) {
	b, err := os.ReadFile("../docs/conformance.md")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(resultsBegin))
	j := bytes.Index(b, []byte(resultsEnd))
	if i < 0 || j < i {
		t.Fatalf("README.md has no conformance results block (%s)", resultsBegin)
	}
	block := string(b[i+len(resultsBegin) : j])
	live := 0
	for _, line := range strings.Split(strings.TrimSpace(block), "\n")[2:] {
		line = strings.TrimSpace(line)
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|"), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		if len(cells) != len(driver.Agents)+1 {
			t.Fatalf("results row %q has %d cells, want %d", line, len(cells), len(driver.Agents)+1)
		}
		canon := strings.Trim(cells[0], "`")
		for k, a := range driver.Agents {
			ev, _ := mappings.Default().MustDialect(string(a)).EventFor(canon)
			cell := cells[k+1]
			switch {
			case ev == nil && cell != "":
				t.Errorf("results: %s has no %s event, the README says %q", a, canon, cell)
			case ev != nil && !strings.HasPrefix(cell, "`"+ev.Name+"` "):
				t.Errorf("results: %s's %s event is %s, the README says %q (regenerate: HOOKX_CONFORMANCE_README=docs/conformance.md go test ./conformance)", a, canon, ev.Name, cell)
			}
			seen := strings.HasSuffix(cell, "seen live")
			if seen {
				live++
			}
			if ev == nil {
				continue
			}
			// The data's live marks and the suite's measured table agree:
			// a mark without a passing scenario cites the run it comes from.
			switch {
			case seen && !ev.Live:
				t.Errorf("%s's %s is seen live in the suite but not marked live in mappings/data/%s.jsonc", a, ev.Name, a)
			case !seen && ev.Live && ev.LiveBy == "":
				t.Errorf("%s's %s is marked live in mappings/data/%s.jsonc, but no scenario of the suite shows it: add one, or cite the run it was seen in (liveBy)", a, ev.Name, a)
			}
		}
	}
	if live == 0 {
		t.Error("the README's results table marks nothing seen live")
	}
}

func TestReplaceBlock(t *testing.T) {
	doc := "a\n" + resultsBegin + "\nold\n" + resultsEnd + "\nb\n"
	got, err := replaceBlock([]byte(doc), "new\n")
	if err != nil || string(got) != "a\n"+resultsBegin+"\nnew\n"+resultsEnd+"\nb\n" {
		t.Errorf("replaceBlock = %q, %v", got, err)
	}
	if _, err := replaceBlock([]byte("no block"), "x"); err == nil {
		t.Error("replaceBlock without markers: no error")
	}
}
