package wrap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/transcript"
	"github.com/hookx-dev/hookx/translate"
)

// fakeTranslation passes payloads through and records the hook's raw output.
type fakeTranslation struct {
	host   string
	hookEv string
	// hostEvent names the host's event for a payload that names none
	// (Copilot CLI's); "": the payload's hook_event_name.
	hostEvent string
	raw       *Output
	result    func(Output) Output
}

func (f *fakeTranslation) New(host, hook string) (Translator, error) { return f, nil }

func (f *fakeTranslation) DetectHost(payload []byte, getenv func(string) string) (string, error) {
	if f.host == "" {
		return "", errors.New("no idea")
	}
	return f.host, nil
}

func (f *fakeTranslation) HostEvent(host *mappings.Dialect, payload []byte) (string, error) {
	if f.hostEvent != "" {
		return f.hostEvent, nil
	}
	return eventName(payload), nil
}

func (f *fakeTranslation) Failure(host *mappings.Dialect, hostEvent string, err error) Output {
	return Output{Stdout: []byte(`{"failure":"` + hostEvent + `"}`)}
}

// Blocks is the real reading of the host's family: the Stop cap's count
// is tested against it.
func (f *fakeTranslation) Blocks(host *mappings.Dialect, hostEvent string, out Output) bool {
	v, _, err := translate.ReadOutput(host, hostEvent, translate.Output(out))
	return err == nil && v.Block
}

func (f *fakeTranslation) Event(p []byte) (*Event, error) {
	return &Event{Payload: p, Name: f.hookEv}, nil
}

func (f *fakeTranslation) Result(ctx ResultContext, out Output) (Output, []Finding) {
	f.raw = &out
	if f.result != nil {
		return f.result(out), nil
	}
	return Output{Stdout: []byte("{}")}, nil
}

func run(t *testing.T, f *fakeTranslation, stdin string, mod func(*Options), argv ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	opts := Options{
		Table: mappings.Default(), Translation: f,
		From: "claude", Host: "gemini", Command: argv,
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Environ: os.Environ(), PipeGrace: 50 * time.Millisecond, KillGrace: 100 * time.Millisecond,
	}
	if mod != nil {
		mod(&opts)
	}
	code := Run(opts)
	return code, out.String(), errb.String()
}

const beforeTool = `{"session_id":"s1","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"t","tool_name":"run_shell_command"}`

func TestRawOutput(t *testing.T) {
	tests := []struct {
		name string
		argv []string
		mod  func(*Options)
		want Output
	}{
		{"exit and streams", []string{"sh", "-c", "echo out; echo err >&2; exit 3"}, nil,
			Output{Stdout: []byte("out\n"), Stderr: []byte("err\n"), ExitCode: 3}},
		{"stdin reaches the hook", []string{"sh", "-c", "cat"}, nil,
			Output{Stdout: []byte(beforeTool)}},
		{"crash", []string{"sh", "-c", "kill -9 $$"}, nil,
			Output{ExitCode: 137, Signaled: true, FailReason: "hook killed by signal 9 (killed)"}},
		{"timeout", []string{"sleep", "10"}, func(o *Options) { o.Timeout = 50 * time.Millisecond },
			Output{ExitCode: 143, TimedOut: true, FailReason: "hook timed out after 50ms"}},
		{"over the bound", []string{"head", "-c", "5000", "/dev/zero"}, func(o *Options) { o.MaxOutput = 4096 },
			Output{Failed: true, FailReason: "hook stdout over the 4096-byte limit (5000 bytes)"}},
		{"not found, run directly", []string{"no-such-hook-xyz", "-x"}, nil,
			Output{Stderr: []byte("hookx: no-such-hook-xyz: command not found\n"), ExitCode: 127, FailReason: "hookx: no-such-hook-xyz: command not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeTranslation{hookEv: "PreToolUse"}
			code, stdout, _ := run(t, f, beforeTool, tt.mod, tt.argv...)
			if code != 0 || stdout != "{}\n" {
				t.Errorf("Run = %d, %q; want 0, {}", code, stdout)
			}
			if f.raw == nil {
				t.Fatal("Result was not called")
			}
			got := *f.raw
			if !bytes.Equal(got.Stdout, tt.want.Stdout) || !bytes.Equal(got.Stderr, tt.want.Stderr) ||
				got.ExitCode != tt.want.ExitCode || got.TimedOut != tt.want.TimedOut ||
				got.Failed != tt.want.Failed || got.FailReason != tt.want.FailReason {
				t.Errorf("raw output:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestStdinBound(t *testing.T) {
	f := &fakeTranslation{hookEv: "PreToolUse"}
	code, stdout, _ := run(t, f, beforeTool, func(o *Options) { o.MaxStdin = 80 }, "true")
	if code != 0 || stdout != `{"failure":"BeforeTool"}`+"\n" {
		t.Errorf("Run = %d, %q; want hookx's failure answer for BeforeTool", code, stdout)
	}
	if f.raw != nil {
		t.Error("the hook ran on a refused payload")
	}
}

func TestHookEnv(t *testing.T) {
	table := mappings.Default()
	claude, _ := table.Dialect("claude")
	gemini, _ := table.Dialect("gemini")
	terminai, _ := table.Dialect("terminai")
	tests := []struct {
		name       string
		environ    []string
		host, hook *mappings.Dialect
		want       []string
	}{
		{"claude hook on gemini", []string{"GEMINI_PROJECT_DIR=/g", "CLAUDE_PROJECT_DIR=/kept"}, gemini, claude,
			// The host's own GEMINI_PROJECT_DIR is not Claude's: dropped.
			[]string{"CLAUDE_PROJECT_DIR=/kept", "CLAUDE_CODE_SESSION_ID=s1", "CLAUDECODE=1", "CLAUDE_CODE_CHILD_SESSION=1"}},
		{"project from cwd", []string{"CLAUDE_PROJECT_DIR="}, gemini, claude,
			[]string{"CLAUDE_PROJECT_DIR=/p", "CLAUDE_CODE_SESSION_ID=s1", "CLAUDECODE=1", "CLAUDE_CODE_CHILD_SESSION=1"}},
		{"gemini hook on claude", []string{"CLAUDE_PROJECT_DIR=/c"}, claude, gemini,
			[]string{"CLAUDE_PROJECT_DIR=/c", "GEMINI_PROJECT_DIR=/c", "GEMINI_CWD=/c", "GEMINI_SESSION_ID=s1"}},
		// TerminaI sets its project dir under three names (terminai.md:23).
		{"terminai hook on claude", []string{"CLAUDE_PROJECT_DIR=/c"}, claude, terminai,
			[]string{"CLAUDE_PROJECT_DIR=/c", "TERMINAI_PROJECT_DIR=/c", "GEMINI_PROJECT_DIR=/c"}},
		{"terminai hook on gemini", []string{"GEMINI_PROJECT_DIR=/g", "GEMINI_SESSION_ID=s0"}, gemini, terminai,
			[]string{"GEMINI_PROJECT_DIR=/g", "TERMINAI_PROJECT_DIR=/g", "CLAUDE_PROJECT_DIR=/g"}},
		{"claude hook on terminai", []string{"TERMINAI_PROJECT_DIR=/t", "GEMINI_PROJECT_DIR=/t", "CLAUDE_PROJECT_DIR=/t"}, terminai, claude,
			[]string{"CLAUDE_PROJECT_DIR=/t", "CLAUDE_CODE_SESSION_ID=s1", "CLAUDECODE=1", "CLAUDE_CODE_CHILD_SESSION=1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := hookEnv(tt.environ, tt.host, tt.hook, []byte(beforeTool))
			if !slices.Equal(got, tt.want) {
				t.Errorf("hookEnv:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestStopCapState(t *testing.T) {
	dir := t.TempDir()
	block := func(Output) Output { return Output{Stdout: []byte(`{"decision":"deny","reason":"again"}`)} }
	f := &fakeTranslation{hookEv: "Stop", result: block}
	payload := func(active bool) string {
		a := "false"
		if active {
			a = "true"
		}
		return `{"session_id":"s/../1","hook_event_name":"AfterAgent","timestamp":"t","stop_hook_active":` + a + `}`
	}
	mod := func(o *Options) { o.StateDir = dir }
	for i := range 9 {
		_, out, _ := run(t, f, payload(i > 0), mod, "true")
		want := `{"decision":"deny","reason":"again"}` + "\n"
		if i == 8 {
			want = "{}\n"
		}
		if out != want {
			t.Fatalf("firing %d: got %q, want %q", i+1, out, want)
		}
	}
	// The hook's counter file is removed once the count is reset (the
	// session's stop state and its lock stay), and its name never leaves
	// the state dir.
	entries, _ := filepath.Glob(filepath.Join(dir, "*"))
	all := slices.Clone(entries)
	entries = slices.DeleteFunc(entries, func(e string) bool {
		return strings.HasSuffix(e, ".lock") && slices.Contains(all, strings.TrimSuffix(e, ".lock"))
	})
	if len(entries) != 1 || !strings.Contains(entries[0], "s1-session-") {
		t.Errorf("state dir holds %v after a reset, want the session's state alone", entries)
	}
	run(t, f, payload(true), mod, "true")
	matches, _ := filepath.Glob(filepath.Join(dir, "s1-[0-9a-f]*"))
	if len(matches) != 1 {
		t.Errorf("counter files %v, want one named after the sanitised session", matches)
	}
}

func TestTraceMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	f := &fakeTranslation{hookEv: "PreToolUse"}
	run(t, f, beforeTool, func(o *Options) { o.TracePath = path }, "true")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("trace mode %v, want 0600", fi.Mode().Perm())
	}
}

// BenchmarkRun is the whole wrap path with a trivial child: read the event,
// translate (a pass-through fake), run /bin/true, answer.
func BenchmarkRun(b *testing.B) {
	f := &fakeTranslation{hookEv: "PreToolUse"}
	for b.Loop() {
		Run(Options{
			Table: mappings.Default(), Translation: f,
			From: "claude", Host: "gemini", Command: []string{"true", "x"},
			Stdin: strings.NewReader(beforeTool), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer),
			Environ: os.Environ(),
		})
	}
}

// BenchmarkRunBigPayload is wrap.Run on a 10 MB event (a tool's big
// output), the hook reading it all, with no --trace: hookx's own share
// should be the copy into the hook's stdin.
func BenchmarkRunBigPayload(b *testing.B) {
	out := strings.Repeat("line of tool output\n", 10<<20/20)
	payload, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": "/p", "hook_event_name": "AfterTool",
		"tool_name": "run_shell_command", "tool_input": map[string]string{"command": "x"}, "tool_response": map[string]string{"llmContent": out}})
	f := &fakeTranslation{hookEv: "PostToolUse"}
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		Run(Options{
			Table: mappings.Default(), Translation: f,
			From: "claude", Host: "gemini", Command: []string{"sh", "-c", "cat >/dev/null"},
			Stdin: bytes.NewReader(payload), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer),
			Environ: os.Environ(),
		})
	}
}

// BenchmarkExecBaseline is the baseline: the same child run with plain
// os/exec, stdin given and output collected.
func BenchmarkExecBaseline(b *testing.B) {
	for b.Loop() {
		cmd := exec.Command("true", "x")
		cmd.Stdin = strings.NewReader(beforeTool)
		cmd.Stdout, cmd.Stderr = new(bytes.Buffer), new(bytes.Buffer)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHeldOutputWaitsAsTheHooksAgent: once the hook has exited, output a
// background process still holds is waited for the way the hook's own agent
// waits (mappings.HeldOutput): Claude while output keeps coming, Gemini
// until end of file, bounded by the timeout.
func TestHeldOutputWaitsAsTheHooksAgent(t *testing.T) {
	tests := []struct {
		name       string
		from       string
		timeout    time.Duration
		script     string
		wantStdout string
		wantHeld   bool
		wantTimed  bool
	}{
		{"claude: output that keeps coming is waited for", "claude", 0,
			`(for i in 1 2 3 4 5 6; do sleep 0.03; echo x; done) & exit 0`, "x\nx\nx\nx\nx\nx\n", false, false},
		{"claude: a quiet held pipe is given up on", "claude", 0,
			`echo x; sleep 5 & exit 0`, "x\n", true, false},
		{"gemini: a late verdict is waited for", "gemini", 0,
			`(sleep 0.3; echo late) & exit 0`, "late\n", false, false},
		{"gemini: held past the timeout is a timeout", "gemini", 300 * time.Millisecond,
			`echo early; sleep 5 & exit 0`, "early\n", false, true},
		// Cline reads stdout 1000 ms after the exit, held or not
		// (core@704656): a cancel printed before exit is its answer.
		// hookx waited for end of file, timed out and let the call run.
		{"cline: read a second after the exit, held or not", "cline", 3 * time.Second,
			`echo '{"cancel":true}'; sleep 5 & exit 0`, "{\"cancel\":true}\n", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeTranslation{hookEv: "PreToolUse"}
			host := "gemini"
			if tt.from == "gemini" {
				host, f.hookEv = "claude", "BeforeTool"
			}
			run(t, f, beforeTool, func(o *Options) {
				o.From, o.Host, o.Timeout = tt.from, host, tt.timeout
				o.PipeGrace = 150 * time.Millisecond // Claude's quiet window, shortened
			}, "sh", "-c", tt.script)
			if f.raw == nil {
				t.Fatal("Result was not called")
			}
			got := *f.raw
			if string(got.Stdout) != tt.wantStdout || got.Held != tt.wantHeld || got.TimedOut != tt.wantTimed {
				t.Errorf("got stdout %q held %v timed out %v (%s); want %q %v %v",
					got.Stdout, got.Held, got.TimedOut, got.FailReason, tt.wantStdout, tt.wantHeld, tt.wantTimed)
			}
		})
	}
}

// blockUnlessActive is a stop hook that blocks once "unless
// stop_hook_active", as Claude's docs recommend; it prints decision, which
// the pass-through fake hands to the host as is.
const blockUnlessActive = `grep -q '"stop_hook_active":true' && { echo '{}'; exit 0; }; echo '{"decision":"` + "%s" + `","reason":"again"}'`

func stopRun(t *testing.T, dir, host, from, hookEv, decision, payload string) (string, string) {
	t.Helper()
	f := &fakeTranslation{hookEv: hookEv, result: func(o Output) Output { return o }}
	if d := mappings.Default().MustDialect(host); d.Payload.Own() {
		ev, _ := d.EventFor("agent.stop") // its payload names no event
		f.hostEvent = ev.Name
	}
	_, out, errs := run(t, f, payload, func(o *Options) { o.StateDir = dir; o.Host = host; o.From = from },
		strings.Replace(blockUnlessActive, "%s", decision, 1))
	return out, errs
}

// Gemini says stop_hook_active false again after a continuation that used
// tools; Claude says true. A Claude hook that blocks once unless the flag is
// set must block once on Gemini too, not on every tool-using continuation.
func TestStopActiveStaysTrueForClaudeHookAfterToolUse(t *testing.T) {
	dir := t.TempDir()
	ev := func(prompt string) string {
		return `{"session_id":"s1","hook_event_name":"AfterAgent","prompt":"` + prompt + `","stop_hook_active":false}`
	}
	steps := []struct{ prompt, want string }{
		{"p1", "deny"}, // the turn ends: the hook blocks
		{"p1", "{}"},   // the continuation used tools: Claude would say true
		{"p2", "deny"}, // the user's next prompt is a new chain
	}
	for i, s := range steps {
		out, errs := stopRun(t, dir, "gemini", "claude", "Stop", "deny", ev(s.prompt))
		if !strings.Contains(out, s.want) {
			t.Fatalf("stop %d: got %q (stderr %q), want %s", i+1, out, errs, s.want)
		}
	}
}

// Claude says stop_hook_active true on every Stop after a block, tools or
// not; Gemini says false after a continuation that used tools. A Gemini
// hook on Claude is told false when the transcript shows tool use since its
// block, and true after a text-only continuation.
func TestStopActiveResetsForGeminiHookAfterToolUse(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "t.jsonl")
	os.WriteFile(transcript, []byte(`{"type":"user","message":{"content":"go"}}`+"\n"), 0o600)
	ev := func(active string) string {
		return `{"session_id":"s1","transcript_path":"` + transcript + `","prompt_id":"A","hook_event_name":"Stop","stop_hook_active":` + active + `}`
	}
	appendLine := func(s string) {
		f, _ := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(s + "\n")
		f.Close()
	}
	out, _ := stopRun(t, dir, "claude", "gemini", "AfterAgent", "block", ev("false"))
	if !strings.Contains(out, "block") {
		t.Fatalf("first stop: got %q, want a block", out)
	}
	appendLine(`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"}]}}`)
	out, errs := stopRun(t, dir, "claude", "gemini", "AfterAgent", "block", ev("true"))
	if !strings.Contains(out, "block") || !strings.Contains(errs, "the hook gets false") {
		t.Fatalf("after a tool-using continuation: got %q (stderr %q), want a block and the flag reported", out, errs)
	}
	appendLine(`{"type":"assistant","message":{"content":[{"type":"text","text":"done"}]}}`)
	out, errs = stopRun(t, dir, "claude", "gemini", "AfterAgent", "block", ev("true"))
	if strings.Contains(out, "block") {
		t.Fatalf("after a text-only continuation: got %q (stderr %q), want no block", out, errs)
	}
}

// Claude Code writes its transcript behind its Stop hooks: the continuation's
// tool use may not be in the file when the Stop hook starts (CI saw a Gemini
// hook told true so, and the loop ended a turn early). wrap waits until the
// transcript holds the stop's last reply before reading it for tool use.
func TestStopActiveWaitsForClaudesTranscript(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "t.jsonl")
	os.WriteFile(transcript, []byte(`{"type":"user","message":{"content":"go"}}`+"\n"), 0o600)
	ev := func(active, last string) string {
		return `{"session_id":"s1","transcript_path":"` + transcript + `","prompt_id":"A","hook_event_name":"Stop","stop_hook_active":` + active + `,"last_assistant_message":"` + last + `"}`
	}
	appendLine := func(s string) {
		f, _ := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(s + "\n")
		f.Close()
	}
	appendLine(`{"type":"assistant","message":{"content":[{"type":"text","text":"first answer"}]}}`)
	out, _ := stopRun(t, dir, "claude", "gemini", "AfterAgent", "block", ev("false", "first answer"))
	if !strings.Contains(out, "block") {
		t.Fatalf("first stop: got %q, want a block", out)
	}
	// The continuation's records land 200 ms after its Stop hook starts.
	go func() {
		time.Sleep(200 * time.Millisecond)
		appendLine(`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"}]}}` + "\n" +
			`{"type":"assistant","message":{"content":[{"type":"text","text":"second answer"}]}}`)
	}()
	out, errs := stopRun(t, dir, "claude", "gemini", "AfterAgent", "block", ev("true", "second answer"))
	if !strings.Contains(out, "block") || !strings.Contains(errs, "the hook gets false") {
		t.Fatalf("a tool-using continuation written late: got %q (stderr %q), want a block and the flag reported", out, errs)
	}
}

// The same on every host that keeps stop_hook_active true after tools
// (Claude's family), each with its own transcript format: a real
// transcript of that agent (testdata/transcripts), cut before its first
// tool call at the block, then whole. Copilot's camelCase payload is left
// to TestStopCapsHoldWithoutStopActiveData.
func TestStopActiveResetsForGeminiHookOnEveryHost(t *testing.T) {
	// Every host whose stop flag stays true after tools, from the table;
	// these must be among them (Droid was missing: its Stop declared no
	// stopActive, and a Gemini hook there was told Droid's true).
	var hosts []string
	for _, d := range mappings.Default().Dialects {
		ev, _ := d.EventFor("agent.stop")
		if ev != nil && ev.StopActive != nil && !ev.StopActive.ResetByTools && d.Transcript.Format != "" {
			hosts = append(hosts, d.Name)
		}
	}
	for _, want := range []string{"claude", "codex", "copilot", "droid", "qwen"} {
		if !slices.Contains(hosts, want) {
			t.Errorf("%s: no stop event that keeps stop_hook_active after tools (stopActive)", want)
		}
	}
	for _, host := range hosts {
		t.Run(host, func(t *testing.T) {
			d := mappings.Default().MustDialect(host)
			ev, _ := d.EventFor("agent.stop")
			files, _ := filepath.Glob(filepath.Join("..", "testdata", "transcripts", d.Transcript.Format+"-*.jsonl"))
			if len(files) == 0 {
				t.Fatalf("no captured %s transcript", d.Transcript.Format)
			}
			data, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			var before []byte
			for rest := data; len(rest) > 0; {
				line, next, _ := bytes.Cut(rest, []byte("\n"))
				if found, _ := transcript.HasToolCalls(d.Transcript.Format, append(append([]byte{}, line...), '\n')); found {
					break
				}
				before, rest = append(append(before, line...), '\n'), next
			}
			dir := t.TempDir()
			tp := filepath.Join(dir, "t.jsonl")
			os.WriteFile(tp, before, 0o600)
			// The host's payload in its own names (Copilot's says sessionId
			// and transcriptPath: wrap read transcript_path there and never
			// saw Copilot's tool calls).
			own := d.Payload.Inverse()
			name := func(n string) string {
				if o := own[n]; o != "" {
					return o
				}
				return n
			}
			payload := func(active string) string {
				m := map[string]any{name("session_id"): "s1", name("transcript_path"): tp, ev.StopActive.Field: active == "true"}
				if ev.StopActive.Chain != "" {
					m[ev.StopActive.Chain] = "A"
				}
				if !d.Payload.Own() {
					m["hook_event_name"] = ev.Name
				}
				b, _ := json.Marshal(m)
				return string(b)
			}
			out, errs := stopRun(t, dir, host, "gemini", "AfterAgent", "block", payload("false"))
			if !strings.Contains(out, "block") && !strings.Contains(out, "again") {
				t.Fatalf("first stop: got %q (stderr %q), want a block", out, errs)
			}
			os.WriteFile(tp, data, 0o600)
			_, errs = stopRun(t, dir, host, "gemini", "AfterAgent", "block", payload("true"))
			if !strings.Contains(errs, "the hook gets false") {
				t.Fatalf("after the agent's own tool call: stderr %q, want the hook told false", errs)
			}
		})
	}
}

// Claude ends the turn after 8 consecutive Stop blocks; a Gemini AfterAgent
// hook, whose agent has no cap, is never told. wrap reports it.
func TestStopHostCapIsReportedForGeminiHook(t *testing.T) {
	dir := t.TempDir()
	f := &fakeTranslation{hookEv: "AfterAgent", result: func(Output) Output { return Output{Stdout: []byte(`{"decision":"block","reason":"again"}`)} }}
	ev := `{"session_id":"s1","prompt_id":"A","hook_event_name":"Stop","stop_hook_active":true}`
	for i := range 9 {
		_, _, errs := run(t, f, ev, func(o *Options) { o.StateDir = dir; o.Host = "claude"; o.From = "gemini" }, "true")
		reported := strings.Contains(errs, "Claude Code ends the turn after 8 consecutive Stop blocks")
		if reported != (i == 8) {
			t.Fatalf("stop %d: reported %v (stderr %q), want it on the 9th only", i+1, reported, errs)
		}
	}
}

// Claude Code reads the first line of a hook's stdout once it holds a "}",
// once: {"async":true} there (and only there) means "do not wait for me".
func TestAsyncAckIsTheFirstLineOnly(t *testing.T) {
	ack := mappings.Default()
	claude, _ := ack.Dialect("claude")
	tests := []struct {
		name   string
		writes []string
		want   bool
	}{
		{"one line", []string{`{"async":true}` + "\n"}, true},
		{"split across writes", []string{`{"asy`, `nc":true}`, "\nmore"}, true},
		{"no newline yet", []string{` {"async":true} `}, true},
		{"with a timeout", []string{`{"async":true,"asyncTimeout":5000}` + "\n"}, true},
		{"async false", []string{`{"async":false}` + "\n"}, false},
		{"a verdict first", []string{`{"decision":"block"}` + "\n" + `{"async":true}` + "\n"}, false},
		{"plain text first", []string{"working\n", `{"async":true}` + "\n"}, false},
		{"not an object", []string{`["async"]}` + "\n"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found := make(chan time.Duration, 1)
			var sink bytes.Buffer
			w := &firstLine{w: &sink, check: claude.AsyncAck.Bound, found: found}
			for _, s := range tt.writes {
				w.Write([]byte(s))
			}
			got := len(found) == 1
			if got != tt.want {
				t.Errorf("async %v, want %v", got, tt.want)
			}
			if sink.String() != strings.Join(tt.writes, "") {
				t.Errorf("output not passed on whole: %q", sink.String())
			}
		})
	}
}

// Without a supervisor the host is still answered at once, and the hook,
// which could not be left running unbounded, is stopped.
func TestAsyncHookWithoutSupervisorIsStopped(t *testing.T) {
	f := &fakeTranslation{hookEv: "PostToolUse"}
	pidFile := filepath.Join(t.TempDir(), "pid")
	start := time.Now()
	_, out, errs := run(t, f, beforeTool, nil, `echo '{"async":true}'; echo $$ > `+pidFile+`; sleep 30`)
	if out != "{}\n" || !strings.Contains(errs, "stopped it") {
		t.Fatalf("got %q, stderr %q; want {} and the hook reported stopped", out, errs)
	}
	if time.Since(start) > 20*time.Second {
		t.Fatalf("wrap waited for the async hook")
	}
	if f.raw != nil {
		t.Errorf("the async hook's output was translated: %+v", f.raw)
	}
}

// A hook that says {"async":true} and exits at once is still one its own
// agent did not wait for: no decision, whatever it printed after.
func TestAsyncHookThatExitsAtOnceDecidesNothing(t *testing.T) {
	f := &fakeTranslation{hookEv: "PreToolUse"}
	for range 20 {
		_, out, errs := run(t, f, beforeTool, nil, `echo '{"async":true}'; echo '{"decision":"block","reason":"late"}'`)
		if out != "{}\n" || !strings.Contains(errs, "asked not to be waited for") {
			t.Fatalf("got %q, stderr %q; want {} and the async report", out, errs)
		}
	}
}

// --event: a host event that the hook's own agent would send as another
// event (a failed call for a PostToolUse hook) does not run the hook.
func TestEventOfAnotherKindDoesNotRunTheHook(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	f := &fakeTranslation{hookEv: "PostToolUseFailure"}
	_, out, errs := run(t, f, beforeTool, func(o *Options) { o.Event = "PostToolUse" }, "touch "+marker)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the hook ran")
	}
	if out != "{}\n" || !strings.Contains(errs, "registered on PostToolUse") {
		t.Fatalf("got %q, stderr %q", out, errs)
	}
	f.hookEv = "PostToolUse"
	run(t, f, beforeTool, func(o *Options) { o.Event = "PostToolUse" }, "touch "+marker)
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the hook did not run for its own event")
	}
}

// A Copilot agentStop hook that always blocks ends the turn after 8 blocks
// in Copilot CLI; under a host without a cap (Codex) wrap ends it the same
// way, as its finding says it does.
func TestCopilotStopCapUnderUncappedHost(t *testing.T) {
	dir := t.TempDir()
	f := &fakeTranslation{hookEv: "agentStop", result: func(Output) Output { return Output{Stdout: []byte(`{"decision":"block","reason":"again"}`)} }}
	for i := range 9 {
		ev := fmt.Sprintf(`{"session_id":"s1","turn_id":"T","hook_event_name":"Stop","stop_hook_active":%v}`, i > 0)
		_, out, _ := run(t, f, ev, func(o *Options) { o.StateDir = dir; o.Host = "codex"; o.From = "copilot" }, "true")
		if blocked := strings.Contains(out, "block"); blocked != (i < 8) {
			t.Fatalf("stop %d: %q, want a block on the first 8 only", i+1, out)
		}
	}
}

// On a Copilot host, whose payload says sessionId, the blocks of a hook
// whose agent has no cap (Gemini) are counted, and Copilot's own cap is
// reported when it ends the turn.
func TestStopHostCapIsReportedOnCopilot(t *testing.T) {
	dir := t.TempDir()
	f := &fakeTranslation{hookEv: "AfterAgent", result: func(Output) Output { return Output{Stdout: []byte(`{"decision":"block","reason":"again"}`)} }}
	for i := range 9 {
		ev := fmt.Sprintf(`{"hook_event_name":"agentStop","sessionId":"s1","stopReason":"end_turn","stop_hook_active":%v}`, i > 0)
		_, _, errs := run(t, f, ev, func(o *Options) { o.StateDir = dir; o.Host = "copilot"; o.From = "gemini" }, "true")
		reported := strings.Contains(errs, "Copilot CLI ends the turn after 8 consecutive agentStop blocks")
		if reported != (i == 8) {
			t.Fatalf("stop %d: reported %v (stderr %q), want it on the 9th only", i+1, reported, errs)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "s1-[0-9a-f]*")); len(m) != 1 {
		t.Errorf("counter files %v, want one named after Copilot's sessionId", m)
	}
}
