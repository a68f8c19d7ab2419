package wrap

// Regression tests for how wrap answers the host when hookx itself fails or
// is stopped early, and for what it hands the hook and writes to the trace.

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/mappings"
)

// The trace holds the host's payloads (secrets): it ends up mode 0600 even
// when the file already existed with a looser mode, which OpenFile's 0600
// (applied only when it creates the file) would leave as it was.
func TestTraceToExistingLooseFileIsMadePrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	f := &fakeTranslation{hookEv: "PreToolUse"}
	run(t, f, beforeTool, func(o *Options) { o.TracePath = path }, "true")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); len(b) > 0 && fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("trace with the host's payload written to a file of mode %v, want 0600 (or refuse)", fi.Mode().Perm())
	}
}

// panicky is a translator that fails with a runtime panic, the way an
// internal error in the translation does.
type panicky struct{ fakeTranslation }

func (p *panicky) New(host, hook string) (Translator, error) { return p, nil }
func (p *panicky) Result(ctx ResultContext, out Output) (Output, []Finding) {
	panic("a bug in the translation")
}

// An internal error of hookx is its own failure: Run recovers and fails
// closed on a guard event with exit 0 and one JSON object. A panic's exit 2
// with a Go traceback would read as a deny on every event on a Gemini host
// (and an endless AfterAgent loop), and as a blocking error on every event
// on a Claude host.
func TestInternalPanicAnswersHost(t *testing.T) {
	p := &panicky{fakeTranslation{hookEv: "PreToolUse"}}
	var code int
	var out string
	func() {
		defer func() {
			if v := recover(); v != nil {
				t.Fatalf("Run panicked (hookx would die with exit 2 and a traceback): %v", v)
			}
		}()
		code, out, _ = runWith(t, p, beforeTool, nil, "true")
	}()
	if code != 0 || out != `{"failure":"BeforeTool"}`+"\n" {
		t.Errorf("Run = %d, %q; want 0 and hookx's failure answer for BeforeTool", code, out)
	}
}

// runWith runs Run with the translation tr and returns its exit status,
// stdout and stderr.
func runWith(t *testing.T, tr Translation, stdin string, mod func(*Options), argv ...string) (int, string, string) {
	var outb, errb syncBuf
	opts := Options{
		Table: mappings.Default(), Translation: tr,
		From: "claude", Host: "gemini", Command: argv,
		Stdin: strings.NewReader(stdin), Stdout: &outb, Stderr: &errb,
		Environ: os.Environ(), PipeGrace: 50 * time.Millisecond, KillGrace: 100 * time.Millisecond,
	}
	if mod != nil {
		mod(&opts)
	}
	code := Run(opts)
	return code, outb.String(), errb.String()
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// A variable the host set is never replaced or removed, even when its value
// is empty: a hook testing ${VAR+set} (or a tool treating an empty value as
// "set, disabled") sees the same environment under wrap. Only a variable
// hookx adds counts as unset when empty.
func TestHookEnvKeepsEmptyHostVars(t *testing.T) {
	table := mappings.Default()
	claude, _ := table.Dialect("claude")
	gemini, _ := table.Dialect("gemini")
	got := hookEnv([]string{"HOOKX_TEST_EMPTY=", "GEMINI_PROJECT_DIR=/g"}, gemini, claude, []byte(beforeTool))
	if !slices.Contains(got, "HOOKX_TEST_EMPTY=") {
		t.Errorf("hookEnv dropped the host's empty HOOKX_TEST_EMPTY: %q", got)
	}
}

// SIGTERM from the host while hookx still waits for the event on stdin stops
// it at once with 128+SIGTERM: a host that kills hookx on its timeout must
// not have to close stdin first, and the abandoned hook never starts.
func TestSignalWhileReadingStdinStops(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	sigs := make(chan os.Signal, 4)
	marker := filepath.Join(t.TempDir(), "ran")
	done := make(chan int, 1)
	go func() {
		code, _, _ := runWith(t, &fakeTranslation{hookEv: "PreToolUse"}, "", func(o *Options) {
			o.Stdin = pr
			o.Signals = sigs
		}, "sh", "-c", "touch "+marker)
		done <- code
	}()
	time.Sleep(100 * time.Millisecond)
	sigs <- syscall.SIGTERM
	select {
	case <-time.After(2 * time.Second):
		// Let it go on: the host now closes stdin.
		pw.Write([]byte(beforeTool))
		pw.Close()
		time.Sleep(500 * time.Millisecond)
		if _, err := os.Stat(marker); err == nil {
			t.Errorf("hookx ignored SIGTERM while reading stdin, then started the hook anyway")
		} else {
			t.Errorf("hookx ignored SIGTERM for 2s while reading stdin")
		}
	case code := <-done:
		if code != 128+int(syscall.SIGTERM) {
			t.Errorf("Run = %d after SIGTERM, want %d", code, 128+int(syscall.SIGTERM))
		}
	}
}

// stringField splits the payload instead of decoding it (a payload can hold
// megabytes of tool output) and reads every field as encoding/json does:
// the last of duplicate keys, nothing from what does not parse, nothing
// that is not a top-level string.
func TestStringFieldReadsAsEncodingJSON(t *testing.T) {
	big := strings.Repeat("x", 2<<20)
	for _, payload := range []string{
		`{"cwd":"/p","session_id":"s"}`,
		`{"tool_response":{"output":"` + big + `"},"cwd":"/after/big"}`,
		`{"cwd":"/first","cwd":"/last"}`,
		`{"cwd":"/p"`,
		`{"cwd":1}`,
		`{"x":{"cwd":"/nested"}}`,
		`{"cwd":"a\u00e9\"b"}`,
		`[]`,
		``,
	} {
		var m map[string]json.RawMessage
		var want string
		if json.Unmarshal([]byte(payload), &m) == nil {
			json.Unmarshal(m["cwd"], &want)
		}
		if got := stringField([]byte(payload), "cwd"); got != want {
			t.Errorf("stringField(%.60q, cwd) = %q, want %q (encoding/json)", payload, got, want)
		}
	}
}

// A hook gets every project-directory variable its own agent sets (Qwen
// sets QWEN_PROJECT_DIR, CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR; Droid
// FACTORY_PROJECT_DIR, CLAUDE_PROJECT_DIR and DROID_PROJECT_DIR), whatever
// the host, and none of the host's own that its agent does not set.
func TestHookEnvHasEveryProjectVariableOfTheHooksAgent(t *testing.T) {
	table := mappings.Default()
	payload := []byte(`{"hook_event_name":"PreToolUse","cwd":"/p","session_id":"s"}`)
	for _, tt := range []struct {
		host, hook string
		environ    []string
		want, not  []string
	}{
		{"claude", "qwen", []string{"CLAUDE_PROJECT_DIR=/p", "CLAUDECODE=1"},
			[]string{"QWEN_PROJECT_DIR=/p", "CLAUDE_PROJECT_DIR=/p", "GEMINI_PROJECT_DIR=/p"}, []string{"CLAUDECODE"}},
		{"qwen", "droid", []string{"QWEN_PROJECT_DIR=/p", "CLAUDE_PROJECT_DIR=/p", "GEMINI_PROJECT_DIR=/p"},
			[]string{"FACTORY_PROJECT_DIR=/p", "CLAUDE_PROJECT_DIR=/p", "DROID_PROJECT_DIR=/p"}, []string{"QWEN_PROJECT_DIR", "GEMINI_PROJECT_DIR"}},
	} {
		host, hook := table.MustDialect(tt.host), table.MustDialect(tt.hook)
		got := hookEnv(tt.environ, host, hook, payload)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s hook on %s: env %q lacks %s", tt.hook, tt.host, got, w)
			}
		}
		for _, n := range tt.not {
			if slices.ContainsFunc(got, func(kv string) bool { return strings.HasPrefix(kv, n+"=") }) {
				t.Errorf("%s hook on %s: env %q holds the host's own %s", tt.hook, tt.host, got, n)
			}
		}
	}
}
