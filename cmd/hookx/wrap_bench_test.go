package main

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// BenchmarkWrapCommandLine is what hookx's command line cost every wrapped
// hook call before wrap runs, through cobra: the command tree built for
// wrap, and its flags parsed. A hook call now takes parseWrapDirect
// (BenchmarkWrapCommandLineDirect); --help and usage errors still go this way.
func BenchmarkWrapCommandLine(b *testing.B) {
	args := []string{"wrap", "--from", "claude", "--host", "gemini", "--", "cat >/dev/null"}
	b.ReportAllocs()
	for b.Loop() {
		root := newRootCmd(streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, args)
		wrap, _, err := root.Find(args)
		if err != nil {
			b.Fatal(err)
		}
		ran := false
		wrap.RunE = func(*cobra.Command, []string) error { ran = true; return nil }
		root.SetArgs(args)
		if _, err := root.ExecuteC(); err != nil || !ran {
			b.Fatal(err, ran)
		}
	}
}

// BenchmarkWrapCommandLineDirect is what hookx's command line costs every
// wrapped hook call: wrap's flags parsed, with no command tree.
func BenchmarkWrapCommandLineDirect(b *testing.B) {
	args := []string{"wrap", "--from", "claude", "--host", "gemini", "--", "cat >/dev/null"}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := parseWrapDirect(args, streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}); !ok {
			b.Fatal("declined")
		}
	}
}
