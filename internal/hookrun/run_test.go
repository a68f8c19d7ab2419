//go:build unix

package hookrun

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
)

// TestMain lets the test binary be the confining helper (hookx probe-exec)
// and a stand-in for hookx wrap ("fakewrap"), which does what its hook
// command says, so that the runner's own contract is tested apart from
// wrap's.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case confine.HelperName:
			fmt.Fprintln(os.Stderr, confine.Main(os.Args[2:]))
			os.Exit(3)
		case "fakewrap":
			fakeWrap(os.Args[2:])
			return
		}
	}
	os.Exit(m.Run())
}

// report is what the fake wrap saw.
type report struct {
	Args  []string
	Env   []string
	Dir   string
	Stdin string
}

// fakeWrap runs the "hook" after --: one word and its argument.
func fakeWrap(args []string) {
	i := slices.Index(args, "--")
	what, arg, _ := strings.Cut(args[i+1], " ")
	n, _ := strconv.Atoi(arg)
	switch what {
	case "exit":
		os.Exit(n)
	case "say":
		fmt.Print("out")
		fmt.Fprint(os.Stderr, "err")
	case "stdout":
		os.Stdout.Write(make([]byte, n))
	case "stderr":
		os.Stderr.Write(make([]byte, n))
	case "report":
		in, _ := readAll(os.Stdin)
		dir, _ := os.Getwd()
		env := os.Environ()
		slices.Sort(env)
		b, _ := json.Marshal(report{Args: args, Env: env, Dir: dir, Stdin: string(in)})
		os.Stdout.Write(b)
	case "term":
		// Told to stop, it says so in arg, then stops.
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGTERM)
		go func() { <-c; os.WriteFile(arg, []byte("term\n"), 0o644); os.Exit(143) }()
		time.Sleep(30 * time.Second)
	case "crash":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Second)
	case "hold":
		// A child that keeps the output open long after wrap exits.
		fmt.Print("before")
		c := exec.Command("sleep", arg)
		c.Stdout = os.Stdout
		c.Start()
		os.Exit(0)
	case "write":
		if err := os.WriteFile(arg, []byte("x"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "read":
		if _, err := os.ReadFile(arg); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func readAll(f *os.File) ([]byte, error) {
	var b []byte
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			return b, nil
		}
	}
}

// world is a project, a home and a sandbox with a copy of the project.
type world struct {
	dir, home string
	box       *Sandbox
}

func newWorld(t *testing.T) world {
	t.Helper()
	dir, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file.txt"), []byte("project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "secret"), []byte("key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	box, err := NewSandbox("hookrun-test-", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(box.Close)
	return world{dir, home, box}
}

func (w world) run(t *testing.T, command string, mod func(*Run)) translate.Output {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tbl := mappings.Default()
	r := Run{
		Hook: Hook{Dialect: "claude", Event: "PreToolUse", Command: command},
		Host: tbl.MustDialect("claude"), HostEvent: "PreToolUse",
		Payload: []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`),
		Box:     w.box, Wrap: []string{self, "fakewrap"},
		Home: w.home, Dir: w.dir,
		Getenv: func(k string) string {
			return map[string]string{"PATH": "/usr/bin:/bin", "SECRET_TOKEN": "t0k3n", "LANG": "C.UTF-8"}[k]
		},
		Limit: 10 * time.Second,
	}
	if mod != nil {
		mod(&r)
	}
	return r.Do()
}

// TestRunOutcome holds what Do returns for each way wrap can end: its exit
// code as it is, its streams up to the cap (a stream over it left out and
// Overflow set, as translate.Output says), a signal, a run past the limit
// (told to stop with SIGTERM first), output held open by a child after
// wrap exits, a wrap that cannot start.
func TestRunOutcome(t *testing.T) {
	w := newWorld(t)
	term := filepath.Join(t.TempDir(), "term")
	// What the comparison leaves out: the output's bytes where only their
	// size matters, and the failure's text where only its kind does.
	type got struct {
		Stdout, Stderr                                  string
		StdoutLen, StderrLen                            int
		ExitCode                                        int
		Overflow, TimedOut, Signaled, Failed, HasStdout bool
		FailReason                                      string
	}
	for _, tc := range []struct {
		name    string
		command string
		mod     func(*Run)
		want    got
		maxTime time.Duration
		check   func(t *testing.T)
	}{
		{name: "exit 0", command: "exit 0", want: got{HasStdout: false}},
		{name: "exit 2", command: "exit 2", want: got{ExitCode: 2}},
		{name: "exit 127", command: "exit 127", want: got{ExitCode: 127}},
		{name: "streams", command: "say", want: got{Stdout: "out", Stderr: "err", StdoutLen: 3, StderrLen: 3, HasStdout: true}},
		{name: "stdout at the cap", command: fmt.Sprint("stdout ", OutputCap), want: got{StdoutLen: OutputCap, HasStdout: true}},
		{name: "stdout over the cap", command: fmt.Sprint("stdout ", OutputCap+1), want: got{Overflow: true}},
		{name: "stderr at the cap", command: fmt.Sprint("stderr ", OutputCap), want: got{StderrLen: OutputCap}},
		{name: "stderr over the cap", command: fmt.Sprint("stderr ", OutputCap+1), want: got{Overflow: true}},
		{name: "crash", command: "crash", want: got{ExitCode: -1, Signaled: true}},
		{name: "past the limit", command: "term " + term, mod: func(r *Run) { r.Limit = 300 * time.Millisecond },
			want: got{TimedOut: true, FailReason: "timed out after 300ms"}, maxTime: 5 * time.Second,
			check: func(t *testing.T) {
				if b, err := os.ReadFile(term); err != nil || string(b) != "term\n" {
					t.Errorf("wrap was not told to stop with SIGTERM (it stops the hook's process group with it): %q, %v", b, err)
				}
			}},
		{name: "output held by a child", command: "hold 20", want: got{Failed: true, Stdout: "before", StdoutLen: 6, HasStdout: true, FailReason: "exec: WaitDelay expired before I/O complete"},
			maxTime: 5 * time.Second},
		{name: "wrap cannot start", command: "exit 0", mod: func(r *Run) { r.Wrap = []string{filepath.Join(w.dir, "no-such-hookx"), "wrap"} },
			want: got{Failed: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			out := w.run(t, tc.command, tc.mod)
			took := time.Since(start)
			g := got{
				StdoutLen: len(out.Stdout), StderrLen: len(out.Stderr),
				ExitCode: out.ExitCode, Overflow: out.Overflow, TimedOut: out.TimedOut, Signaled: out.Signaled, Failed: out.Failed,
				HasStdout: out.Stdout != nil, FailReason: out.FailReason,
			}
			if len(out.Stdout) < 100 {
				g.Stdout = string(out.Stdout)
			}
			if len(out.Stderr) < 100 {
				g.Stderr = string(out.Stderr)
			}
			if tc.name == "wrap cannot start" && g.FailReason != "" {
				g.FailReason = "" // the OS's words
			}
			if d := cmp.Diff(tc.want, g); d != "" {
				t.Errorf("Do (-want +got):\n%s", d)
			}
			if tc.maxTime > 0 && took > tc.maxTime {
				t.Errorf("took %s, want at most %s", took, tc.maxTime)
			}
			if tc.check != nil {
				tc.check(t)
			}
		})
	}
}

// TestRunArgs holds how Do starts wrap: the hook's dialect and event, the
// host and its event, wrap's timeout where set, the settings' variables
// in order, the matcher only where the host is another agent (its own
// agent matched it before the run), and the command after --, as one
// argument however it is written.
func TestRunArgs(t *testing.T) {
	w := newWorld(t)
	tbl := mappings.Default()
	m := "Bash|Write"
	hostile := "echo 'a b'; rm -rf \"$HOME\"\n--host gemini"
	for _, tc := range []struct {
		name string
		mod  func(*Run)
		want []string
	}{
		{"own agent", func(r *Run) { r.Hook.Matcher = &m },
			[]string{"--from", "claude", "--host", "claude", "--event", "PreToolUse", "--host-event", "PreToolUse", "--", "report"}},
		{"other host", func(r *Run) {
			r.Hook.Matcher = &m
			r.Host, r.HostEvent = tbl.MustDialect("gemini"), "BeforeTool"
		}, []string{"--from", "claude", "--host", "gemini", "--event", "PreToolUse", "--host-event", "BeforeTool", "--match", "Bash|Write", "--", "report"}},
		{"timeout and variables", func(r *Run) {
			r.WrapTimeout = 1500 * time.Millisecond
			r.Hook.Env = map[string]string{"Z": "1", "A": "x=y z", "M": "", "B": "2", "Y": "3", "C": "4", "X": "5"}
		}, []string{"--from", "claude", "--host", "claude", "--event", "PreToolUse", "--host-event", "PreToolUse", "--timeout", "1.5s",
			"--env", "A=x=y z", "--env", "B=2", "--env", "C=4", "--env", "M=", "--env", "X=5", "--env", "Y=3", "--env", "Z=1", "--", "report"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := w.run(t, "report", tc.mod)
			var r report
			if err := json.Unmarshal(out.Stdout, &r); err != nil {
				t.Fatalf("%v: %s", err, out.Stderr)
			}
			if d := cmp.Diff(tc.want, r.Args); d != "" {
				t.Errorf("wrap's arguments (-want +got):\n%s", d)
			}
		})
	}
	t.Run("hostile command", func(t *testing.T) {
		out := w.run(t, "report "+hostile, nil)
		var r report
		if err := json.Unmarshal(out.Stdout, &r); err != nil {
			t.Fatalf("%v: %s", err, out.Stderr)
		}
		if got := r.Args[len(r.Args)-2:]; !slices.Equal(got, []string{"--", "report " + hostile}) {
			t.Errorf("the command reached wrap as %q", got)
		}
	})
}

// TestRunEnv holds the environment and place of a run: wrap's model of
// what the host sets for its hooks (wrap.AgentEnv: its project variable,
// the payload's fields it exports), a home and temp of the sandbox's, the
// user's PATH and locale and nothing else of theirs, the copy of the
// project as the working directory, the payload on stdin.
func TestRunEnv(t *testing.T) {
	w := newWorld(t)
	tbl := mappings.Default()
	crushPayload := `{"event":"PreToolUse","hook_event_name":"PreToolUse","session_id":"s1","cwd":"/p","tool_name":"bash","tool_input":{"command":"rm -rf /"}}`
	for _, tc := range []struct {
		name string
		mod  func(*Run)
		want []string // variables that must be set so
		none []string // names that must not be set
	}{
		{"claude", nil,
			[]string{"CLAUDE_PROJECT_DIR=" + w.box.Proj, "HOME=" + w.box.Home, "TMPDIR=" + w.box.Tmp, "PATH=/usr/bin:/bin", "LANG=C.UTF-8"},
			[]string{"SECRET_TOKEN", "GEMINI_PROJECT_DIR", "CRUSH_TOOL_INPUT_COMMAND"}},
		{"gemini", func(r *Run) { r.Host, r.HostEvent = tbl.MustDialect("gemini"), "BeforeTool" },
			[]string{"GEMINI_PROJECT_DIR=" + w.box.Proj, "HOME=" + w.box.Home},
			[]string{"SECRET_TOKEN"}},
		{"crush exports the payload", func(r *Run) {
			r.Host, r.HostEvent, r.Payload = tbl.MustDialect("crush"), "PreToolUse", []byte(crushPayload)
		}, []string{"CRUSH_TOOL_NAME=bash", "CRUSH_TOOL_INPUT_COMMAND=rm -rf /"},
			[]string{"SECRET_TOKEN"}},
		{"no PATH of the user's", func(r *Run) {
			r.Getenv = func(string) string { return "" }
		}, []string{"PATH=/usr/local/bin:/usr/bin:/bin"},
			[]string{"LANG"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var payload []byte
			out := w.run(t, "report", func(r *Run) {
				if tc.mod != nil {
					tc.mod(r)
				}
				payload = r.Payload
			})
			var r report
			if err := json.Unmarshal(out.Stdout, &r); err != nil {
				t.Fatalf("%v: %s", err, out.Stderr)
			}
			for _, kv := range tc.want {
				if !slices.Contains(r.Env, kv) {
					t.Errorf("%s not in the environment %q", kv, r.Env)
				}
			}
			for _, k := range tc.none {
				if slices.ContainsFunc(r.Env, func(kv string) bool { return strings.HasPrefix(kv, k+"=") }) {
					t.Errorf("%s is set: %q", k, r.Env)
				}
			}
			if confine.RealPath(r.Dir) != confine.RealPath(w.box.Proj) {
				t.Errorf("ran in %s, want the copy %s", r.Dir, w.box.Proj)
			}
			if r.Stdin != string(payload) {
				t.Errorf("stdin %q, want the payload %q", r.Stdin, payload)
			}
		})
	}
}

// TestRunConfinement holds Exec: with the confining helper, wrap (and so
// the hook) writes only in the sandbox and reads neither the real project
// nor the home; without it, the same run reaches both (which is why only
// an explicit unconfined run may leave it out).
func TestRunConfinement(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	confined := func(r *Run) { r.Exec = []string{self, confine.HelperName} }
	for _, tc := range []struct {
		name     string
		command  func(w world) string
		confined bool
		wantExit int
	}{
		{"write into the sandbox, confined", func(w world) string { return "write " + filepath.Join(w.box.Proj, "new.txt") }, true, 0},
		{"write into the real project, confined", func(w world) string { return "write " + filepath.Join(w.dir, "new.txt") }, true, 1},
		{"write into the real project, unconfined", func(w world) string { return "write " + filepath.Join(w.dir, "new.txt") }, false, 0},
		{"read the home, confined", func(w world) string { return "read " + filepath.Join(w.home, "secret") }, true, 1},
		{"read the home, unconfined", func(w world) string { return "read " + filepath.Join(w.home, "secret") }, false, 0},
		{"read the real project, confined", func(w world) string { return "read " + filepath.Join(w.dir, "file.txt") }, true, 1},
		{"read the copy, confined", func(w world) string { return "read " + filepath.Join(w.box.Proj, "file.txt") }, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.confined {
				if err := confine.Available(); err != nil {
					if os.Getenv("CI") == "true" {
						t.Fatalf("CI=true: the confined run must be tested here, but %v", err)
					}
					t.Skipf("cannot confine here: %v", err)
				}
			}
			w := newWorld(t)
			var mod func(*Run)
			if tc.confined {
				mod = confined
			}
			out := w.run(t, tc.command(w), mod)
			if out.ExitCode != tc.wantExit || out.Failed || out.Signaled {
				t.Errorf("exit %d (failed %v, signaled %v, stderr %q), want exit %d", out.ExitCode, out.Failed, out.Signaled, out.Stderr, tc.wantExit)
			}
			_, err := os.Stat(filepath.Join(w.dir, "new.txt"))
			if wrote := err == nil; wrote != (tc.wantExit == 0 && strings.Contains(tc.name, "real project")) {
				t.Errorf("the real project's new.txt exists: %v", wrote)
			}
		})
	}
}
