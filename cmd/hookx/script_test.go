package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary run as hookx, and as the fake hook programs
// the wrap scripts run, inside the scripts.
func TestMain(m *testing.M) {
	// doctor --probe and hookx test re-execute os.Executable (this binary)
	// as their confining helper, and hookx test as hookx wrap.
	// A Cline dispatcher runs it as hookx dispatch (dispatch_test.go).
	if len(os.Args) > 1 && (os.Args[1] == confine.HelperName || os.Args[1] == "wrap" || os.Args[1] == "dispatch") {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	testscript.Main(m, map[string]func(){
		"hookx":    func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"fakehook": fakehook,
		"probe":    probe,
		// hookx held right before its rename, and hookx that lets it go
		// when it finds the lock taken (or, where there is none, when it
		// is done): two migrate processes at the moment they collide.
		"hookx-held":   hookxHeld,
		"hookx-waiter": hookxWaiter,
	})
}

// hookxHeld runs hookx with its first write held right before the rename
// (migrate.WriteSeams): it creates $SEAM/held and waits for $SEAM/go.
func hookxHeld() {
	dir := os.Getenv("SEAM")
	var once sync.Once
	migrate.WriteSeams.BeforeRename = func(string) {
		once.Do(func() {
			os.WriteFile(filepath.Join(dir, "held"), nil, 0o644)
			poll(30*time.Second, func() bool {
				_, err := os.Stat(filepath.Join(dir, "go"))
				return err == nil
			})
		})
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// hookxWaiter runs hookx and creates $SEAM/go when its write finds the
// lock taken, or when it is done.
func hookxWaiter() {
	release := func() { os.WriteFile(filepath.Join(os.Getenv("SEAM"), "go"), nil, 0o644) }
	migrate.WriteSeams.LockBusy = func(string) { release() }
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	release()
	os.Exit(code)
}

// TestScripts runs the end-to-end scripts in testdata/script, one behaviour
// per script, named <command>_<behaviour>.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// wrap's stop-loop counters stay inside the script's work dir.
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/state")
			// The payloads captured from the real agents, the module's
			// shared fixtures, as payloads/<dialect>-<version>/<name>.json.
			if err := os.CopyFS(env.WorkDir+"/payloads", os.DirFS("../../testdata/payloads")); err != nil {
				return err
			}
			// The demo project (hookx test --init runs on it).
			return os.CopyFS(env.WorkDir+"/demo", os.DirFS("../../demo"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":    cmdExits,
			"crlf":     cmdCRLF,
			"allcrlf":  cmdAllCRLF,
			"dead":     cmdDead,
			"kill-pid": cmdKillPid,
			"waitfor":  cmdWaitFor,
		},
		RequireUniqueNames: true,
		// HOOKX_UPDATE_SCRIPTS=1 rewrites the files the scripts cmp against.
		UpdateScripts: os.Getenv("HOOKX_UPDATE_SCRIPTS") == "1",
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

// cmdDead checks that the process whose pid is in each file is gone, giving
// a killed process up to 10 s to be reaped (a loaded machine is slow); with
// !, that each is alive now:
//
//	dead PIDFILE...
func cmdDead(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: dead PIDFILE...")
	}
	for _, f := range args {
		pid := readPid(ts, f)
		gone := func() bool { return processGone(ts, pid) }
		if neg {
			if gone() {
				ts.Fatalf("process %d is gone", pid)
			}
			continue
		}
		if !poll(10*time.Second, gone) {
			ts.Fatalf("process %d still alive after 10s", pid)
		}
	}
}

// cmdWaitFor waits up to 30 s for each file to exist: for
// a process started in the background to get going, on a machine of any
// load, instead of a fixed sleep.
//
//	waitfor FILE...
func cmdWaitFor(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: waitfor FILE...")
	}
	for _, f := range args {
		ok := poll(30*time.Second, func() bool {
			_, err := os.Stat(ts.MkAbs(f))
			return err == nil
		})
		if !ok {
			ts.Fatalf("%s did not appear within 30s", f)
		}
	}
}

// poll reports whether cond became true within d.
func poll(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// readPid reads the pid in file f, giving its writer (a shell's
// "echo $! > f" creates the file before it writes) a moment to finish.
func readPid(ts *testscript.TestScript, f string) int {
	var pid int
	var err error
	poll(5*time.Second, func() bool {
		var b []byte
		if b, err = os.ReadFile(ts.MkAbs(f)); err == nil {
			pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		return err == nil
	})
	ts.Check(err)
	return pid
}

// cmdKillPid kills the process whose pid is in each file:
//
//	kill-pid PIDFILE...
func cmdKillPid(ts *testscript.TestScript, neg bool, args []string) {
	for _, f := range args {
		killProcess(ts, readPid(ts, f))
	}
}

// fakehook is a hook program with scripted behaviour, in this order: save
// stdin and the environment, print, start a grandchild, close stdout, sleep,
// crash, exit.
//
//	-stdin FILE      write what stdin held to FILE
//	-env FILE        write the environment, sorted, to FILE
//	-out S, -outfile F   print S (or F's content) on stdout
//	-err S, -errfile F   print S (or F's content) on stderr
//	-big N           print N MiB on stdout
//	-grandchild D    leave a background process holding stdout and stderr for D
//	-pidfile FILE    write the pid (of the grandchild, with -grandchild) to FILE
//	-closeout        close stdout and stderr, then go on
//	-sleep D         sleep D
//	-ignoreterm      ignore SIGTERM
//	-crash SIG       kill itself with signal SIG (a number)
//	-exit N          exit with status N
func fakehook() {
	fl := flag.NewFlagSet("fakehook", flag.ExitOnError)
	stdinFile := fl.String("stdin", "", "")
	envFile := fl.String("env", "", "")
	out := fl.String("out", "", "")
	outFile := fl.String("outfile", "", "")
	errS := fl.String("err", "", "")
	errFile := fl.String("errfile", "", "")
	big := fl.Int("big", 0, "")
	grandchild := fl.Duration("grandchild", 0, "")
	pidFile := fl.String("pidfile", "", "")
	closeOut := fl.Bool("closeout", false, "")
	sleep := fl.Duration("sleep", 0, "")
	ignoreTerm := fl.Bool("ignoreterm", false, "")
	crash := fl.Int("crash", 0, "")
	exit := fl.Int("exit", 0, "")
	transcript := fl.String("transcript", "", "")
	fl.Parse(os.Args[1:])

	if *ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
	}
	if *stdinFile != "" || *transcript != "" {
		b, _ := io.ReadAll(os.Stdin)
		if *stdinFile != "" {
			must(os.WriteFile(*stdinFile, b, 0o644))
		}
		if *transcript != "" {
			// Copy the file the event's transcript_path names.
			var ev struct {
				Path string `json:"transcript_path"`
			}
			must(json.Unmarshal(b, &ev))
			t, err := os.ReadFile(ev.Path)
			must(err)
			must(os.WriteFile(*transcript, t, 0o644))
		}
	}
	if *envFile != "" {
		env := os.Environ()
		slices.Sort(env)
		must(os.WriteFile(*envFile, []byte(strings.Join(env, "\n")+"\n"), 0o644))
	}
	print := func(w io.Writer, s, file string) {
		if file != "" {
			b, err := os.ReadFile(file)
			must(err)
			w.Write(b)
		}
		io.WriteString(w, s)
	}
	print(os.Stdout, *out, *outFile)
	print(os.Stderr, *errS, *errFile)
	if *big > 0 {
		w := bufio.NewWriterSize(os.Stdout, 1<<16)
		line := []byte(strings.Repeat("x", 1023) + "\n")
		for range *big * 1024 {
			w.Write(line)
		}
		w.Flush()
	}
	if *grandchild > 0 {
		exe, err := os.Executable()
		must(err)
		c := exec.Command(exe, "-sleep", grandchild.String())
		c.Args[0] = "fakehook"
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		must(c.Start())
		if *pidFile != "" {
			writePid(*pidFile, c.Process.Pid)
		}
	} else if *pidFile != "" {
		writePid(*pidFile, os.Getpid())
	}
	if *closeOut {
		os.Stdout.Close()
		os.Stderr.Close()
	}
	time.Sleep(*sleep)
	if *crash > 0 {
		// The Go runtime turns most signals into a traceback and exit 2;
		// a shell dies of them.
		must(syscall.Exec("/bin/sh", []string{"sh", "-c", fmt.Sprintf("kill -%d $$", *crash)}, os.Environ()))
	}
	os.Exit(*exit)
}

// writePid writes pid to file whole or not at all (a rename), so that a
// script waiting for the file never reads it half-written.
func writePid(file string, pid int) {
	must(os.WriteFile(file+".tmp", []byte(strconv.Itoa(pid)), 0o644))
	must(os.Rename(file+".tmp", file))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakehook:", err)
		os.Exit(99)
	}
}
