// Package clinehooks is what hookx migrate writes for Cline, which reads no
// settings file but runs one executable file per event from
// .clinerules/hooks/ (PreToolUse, PostToolUse, …), with no matcher.
//
// migrate keeps the migrated entries in hookx.hooks.json in that directory
// (the Cline dialect's settings file: events at the root, each a list of
// {type, command, timeout}, the commands hookx wrap --host cline …) and
// writes one dispatcher per event beside it: a POSIX sh script of a few
// lines that hands Cline's payload to hookx dispatch (Dispatch). The
// dispatcher holds no hook and no matcher: which hooks run is decided in
// Go, by the entries' own hookx wrap --match (the hook's own agent's
// matcher model), so the script stays the same for every project and is
// read at a glance. If hookx cannot answer (not installed, killed), the
// script refuses the tool itself (fails closed) on an event whose answer
// guards something.
package clinehooks

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// DataFile is the name of the entries file beside the dispatchers. Cline
// runs no file of this name: it is no event's, and .json is none of the
// extensions Cline runs (core@702440).
const DataFile = "hookx.hooks.json"

// Marker starts the second line of every dispatcher hookx writes; a file
// without it is the user's own, which migrate never overwrites.
const Marker = "# hookx-dispatcher "

// Render is the dispatcher for event: hookx is how to call hookx, already
// quoted for sh; version is stamped in the header, which doctor compares
// with its own; guard: the event's answer can refuse something, so the
// script refuses the tool when hookx does not answer. The bytes are the
// same for the same arguments (migrate's idempotence).
func Render(hookx, version, event string, guard bool) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "#!/bin/sh\n")
	fmt.Fprintf(&b, "%sevent=%s version=%s\n", Marker, event, version)
	fmt.Fprintf(&b, "# Written by hookx migrate --to cline, and updated in place by the next run:\n")
	fmt.Fprintf(&b, "# change the hooks in their own agent's settings and migrate again, not here.\n")
	fmt.Fprintf(&b, "# Cline runs this file for every %s. hookx dispatch runs the %s entries\n", event, event)
	fmt.Fprintf(&b, "# of %s beside it, each through hookx wrap (whose --match is the\n", DataFile)
	fmt.Fprintf(&b, "# hook's own matcher), and prints Cline's answer: the first refusal wins.\n")
	fmt.Fprintf(&b, "%s dispatch --host cline --event %s -- \"$0\" && exit 0\n", hookx, event)
	if guard {
		fmt.Fprintf(&b, "# hookx did not answer (not installed, or it failed): refuse, as a guard would.\n")
		fmt.Fprintf(&b, "printf 'HOOK_CONTROL\\t%%s\\n' %s\n", shellSingle(string(failClosedAnswer(event))))
	}
	return b.Bytes()
}

// failClosedAnswer is the cancel the dispatcher prints when hookx does not
// answer. The last HOOK_CONTROL line is what Cline reads, whatever hookx
// printed before it failed.
func failClosedAnswer(event string) []byte {
	return []byte(`{"cancel":true,"errorMessage":"hookx dispatch did not answer for ` + event + ` (is hookx installed?); the hooks hookx migrate wrote here fail closed"}`)
}

// shellSingle quotes s in single quotes for sh (s holds none).
func shellSingle(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// stampRE reads the header of a dispatcher, LF or CRLF: one checked out
// with CRLF line endings (git's autocrlf) is still hookx's, and Cline runs
// it as hookx wrote it (see LF).
var stampRE = regexp.MustCompile(`(?m)\A#![^\n]*\n` + regexp.QuoteMeta(Marker) + `event=(\S+) version=(\S+)\r?\n`)

// Stamp reads a dispatcher's header: the event and the hookx version that
// wrote it; ok is false for a file hookx did not write (the user's own).
func Stamp(script []byte) (event, version string, ok bool) {
	m := stampRE.FindSubmatch(script)
	if m == nil {
		return "", "", false
	}
	return string(m[1]), string(m[2]), true
}

// Owned reports whether a file at a dispatcher's path is hookx's, which
// migrate may replace.
func Owned(script []byte) bool {
	_, _, ok := Stamp(script)
	return ok
}

// LF is script with CRLF line endings made LF, when every line of it ends
// in CRLF (as git's autocrlf checks a file out), else script. Such a
// dispatcher does what hookx wrote: Cline reads its #! line with the \r
// trimmed (Il, core@715458: split(/\r?\n/)[0].trim()) and runs it with
// sh (gl, core@716173: ["sh", file]); sh reads "$0" as written on the dispatch line, then
// "exit 0\r" is an error that ends the script (dash and bash), so nothing
// runs after hookx's answer; where hookx does not answer, the refusal's
// line is printed with a \r that Cline trims (zl, core@703349) before it
// parses it. Seen in dash and bash (TestCRLFDispatcherRunsAsWritten).
func LF(script []byte) []byte {
	lines := bytes.SplitAfter(script, []byte("\n"))
	for _, l := range lines {
		if len(l) > 0 && !bytes.HasSuffix(l, []byte("\r\n")) {
			return script
		}
	}
	return bytes.ReplaceAll(script, []byte("\r\n"), []byte("\n"))
}

// Extensions are the name endings with which Cline runs a hook file of an
// event (core@702440 and Il, Bq after it): "PreToolUse", "PreToolUse.sh",
// "pretooluse.py"; the event's name is matched case-insensitively.
var Extensions = []string{"", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1"}

// EventOf returns the event among events whose hook file Cline runs under
// name, and "" for a name Cline runs for no event.
func EventOf(name string, events []string) string {
	low := strings.ToLower(name)
	for _, ext := range Extensions {
		if !strings.HasSuffix(low, ext) {
			continue
		}
		base := low[:len(low)-len(ext)]
		for _, e := range events {
			if strings.ToLower(e) == base {
				return e
			}
		}
	}
	return ""
}
