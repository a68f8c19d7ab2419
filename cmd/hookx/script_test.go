package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary run as hookx inside the scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"hookx": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script, one behaviour
// per script, named <command>_<behaviour>.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":   cmdExits,
			"crlf":    cmdCRLF,
			"allcrlf": cmdAllCRLF,
		},
		RequireUniqueNames: true,
	})
}

// exits CODE PROGRAM [ARGS...] runs a program and asserts its exact exit
// code; stdout and stderr are then available as after exec.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// crlf FILE rewrites a file's line endings to CRLF.
func cmdCRLF(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: crlf FILE")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b, 0o644))
}

// allcrlf FILE asserts that every line of a file ends in CRLF.
func cmdAllCRLF(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: allcrlf FILE")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	lf := bytes.Count(b, []byte("\n"))
	crlf := bytes.Count(b, []byte("\r\n"))
	if (lf == crlf) == neg {
		ts.Fatalf("%s: %d of %d line endings are CRLF", args[0], crlf, lf)
	}
}
