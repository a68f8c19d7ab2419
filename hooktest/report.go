package hooktest

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hookx-dev/hookx/internal/findings"
	"github.com/hookx-dev/hookx/internal/printable"
)

// Failed counts the cells that ran and failed.
func Failed(cells []Cell) int {
	n := 0
	for _, c := range cells {
		if c.Ran && !c.Pass {
			n++
		}
	}
	return n
}

// WriteMatrix prints cases × hosts, each cell "ok" or "FAIL" with what the
// host does ("-": the host has no such event or tool), then each failure.
func WriteMatrix(w io.Writer, cells []Cell) {
	var cases, hosts []string
	at := map[[2]string]Cell{}
	for _, c := range cells {
		if !slices.Contains(cases, c.Case) {
			cases = append(cases, c.Case)
		}
		if !slices.Contains(hosts, c.Host) {
			hosts = append(hosts, c.Host)
		}
		at[[2]string{c.Case, c.Host}] = c
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "CASE\t%s\n", strings.Join(hosts, "\t"))
	for _, cs := range cases {
		row := []string{printable.String(cs)}
		for _, h := range hosts {
			c, ok := at[[2]string{cs, h}]
			switch {
			case !ok || !c.Ran:
				row = append(row, "-")
			case c.Pass:
				row = append(row, "ok "+c.Did)
			default:
				row = append(row, "FAIL "+c.Did)
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
	var n, ran int
	for _, c := range cells {
		if !c.Ran {
			continue
		}
		ran++
		if c.Pass {
			continue
		}
		n++
		if c.Did == "no answer" {
			fmt.Fprintf(w, "FAIL %s on %s: %s", printable.String(c.Case), c.Host, c.Why)
		} else {
			fmt.Fprintf(w, "FAIL %s on %s: %s; the host would %s", printable.String(c.Case), c.Host, c.Why, c.Did)
		}
		if c.Reason != "" {
			fmt.Fprintf(w, " (%s)", printable.String(firstLine(c.Reason)))
		}
		fmt.Fprintln(w)
		for _, note := range c.Notes {
			fmt.Fprintf(w, "  %s\n", printable.String(note))
		}
	}
	for _, c := range cells {
		if !c.Ran && len(c.Notes) > 0 {
			fmt.Fprintf(w, "not run: %s on %s: %s\n", printable.String(c.Case), c.Host, printable.String(strings.Join(c.Notes, "; ")))
		}
	}
	fmt.Fprintf(w, "%d cases, %d cells, %d failed\n", len(cases), ran, n)
}

// jsonCell is a cell in --json's test extras.
type jsonCell struct {
	Case   string   `json:"case"`
	Host   string   `json:"host"`
	Pass   bool     `json:"pass"`
	Expect string   `json:"expect"`
	Did    string   `json:"did"`
	Reason string   `json:"reason,omitempty"`
	Why    string   `json:"why,omitempty"`
	Notes  []string `json:"notes,omitempty"`
}

// WriteJSON prints the project's findings document (internal/findings):
// a finding per failed cell (ruleId "fail", an error), and every cell that
// ran under "test".
func WriteJSON(w io.Writer, cells []Cell) error {
	var fs []findings.Finding
	out := []jsonCell{}
	for _, c := range cells {
		if !c.Ran {
			continue
		}
		out = append(out, jsonCell{c.Case, c.Host, c.Pass, c.Expect, c.Did, c.Reason, c.Why, c.Notes})
		if c.Pass {
			continue
		}
		problem := c.Case + ": " + c.Why
		if c.Did != "no answer" {
			problem += "; the host would " + c.Did
		}
		f := findings.Finding{RuleID: "fail", Severity: findings.Error, Problem: problem,
			Agent: c.Agent, Host: c.Host, Event: c.Event, Matcher: c.Matcher, Command: c.Command, File: c.File}
		fs = append(fs, f)
	}
	d := findings.New("test", fs)
	d.Test = map[string]any{"cells": out, "failed": Failed(cells)}
	return d.Write(w)
}

// WriteJUnit writes JUnit XML: a suite per host, a test case per cell.
func WriteJUnit(w io.Writer, cells []Cell) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type tc struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Failure   *failure `xml:"failure,omitempty"`
	}
	type suite struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []tc   `xml:"testcase"`
	}
	type suites struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []suite  `xml:"testsuite"`
	}
	var s suites
	idx := map[string]int{}
	for _, c := range cells {
		if !c.Ran {
			continue
		}
		i, ok := idx[c.Host]
		if !ok {
			i = len(s.Suites)
			idx[c.Host] = i
			s.Suites = append(s.Suites, suite{Name: "hookx test " + c.Host})
		}
		t := tc{Name: c.Case, Classname: c.Host}
		if !c.Pass {
			t.Failure = &failure{Message: c.Why + "; the host would " + c.Did, Text: strings.Join(append([]string{c.Reason}, c.Notes...), "\n")}
			s.Suites[i].Failures++
		}
		s.Suites[i].Tests++
		s.Suites[i].Cases = append(s.Suites[i].Cases, t)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
