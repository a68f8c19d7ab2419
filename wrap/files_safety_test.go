package wrap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// denyHook answers with a block, which the pass-through fake hands on.
const denyHook = `echo '{"decision":"block","reason":"guarded"}'`

// fileState is what a refused write must leave as it was.
type fileState struct {
	data string
	mode os.FileMode
}

func stateOf(t *testing.T, path string) fileState {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	return fileState{string(b), fi.Mode().Perm()}
}

// --trace FILE is refused when FILE is a symlink (followed, appended to and
// made 0600 on the old code) or an existing file others can read (made 0600
// on the old code): nothing is written, nothing is re-moded, stderr says
// why, and the hook's answer is the one without a trace. A new file is
// created 0600; a private one of the user's is appended to.
func TestTraceNeverWritesWhereOthersCan(t *testing.T) {
	pass := func() *fakeTranslation { return &fakeTranslation{result: func(o Output) Output { return o }} }
	_, wantOut, _ := run(t, pass(), beforeTool, nil, "sh", "-c", denyHook)
	if !strings.Contains(wantOut, "block") {
		t.Fatalf("the hook's answer without a trace: %q", wantOut)
	}
	for _, tt := range []struct {
		name    string
		setup   func(dir string) (trace, victim string)
		refused string // "" when the line must be written
	}{
		{"symlink to another file", func(dir string) (string, string) {
			victim := filepath.Join(dir, "victim")
			os.WriteFile(victim, []byte("secret\n"), 0o644)
			trace := filepath.Join(dir, "trace.jsonl")
			os.Symlink(victim, trace)
			return trace, victim
		}, "symbolic link"},
		{"dangling symlink", func(dir string) (string, string) {
			trace := filepath.Join(dir, "trace.jsonl")
			os.Symlink(filepath.Join(dir, "created-by-link"), trace)
			return trace, ""
		}, "symbolic link"},
		{"existing file others can read", func(dir string) (string, string) {
			trace := filepath.Join(dir, "trace.jsonl")
			os.WriteFile(trace, []byte("old\n"), 0o644)
			return trace, trace
		}, "others can read or write it"},
		{"new file", func(dir string) (string, string) { return filepath.Join(dir, "trace.jsonl"), "" }, ""},
		{"existing private file", func(dir string) (string, string) {
			trace := filepath.Join(dir, "trace.jsonl")
			os.WriteFile(trace, []byte("old\n"), 0o600)
			return trace, ""
		}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			trace, victim := tt.setup(dir)
			var before fileState
			if victim != "" {
				before = stateOf(t, victim)
			}
			_, out, errs := run(t, pass(), beforeTool, func(o *Options) { o.TracePath = trace }, "sh", "-c", denyHook)
			if out != wantOut {
				t.Errorf("answer with --trace %q, want %q as without", out, wantOut)
			}
			if tt.refused == "" {
				st := stateOf(t, trace)
				if !strings.Contains(st.data, `"exit"`) || st.mode != 0o600 {
					t.Errorf("trace %q mode %v; want a line in a 0600 file (stderr %q)", st.data, st.mode, errs)
				}
				return
			}
			if !strings.Contains(errs, "trace: ") || !strings.Contains(errs, tt.refused) || !strings.Contains(errs, "not written") {
				t.Errorf("stderr %q; want the trace refused: %s", errs, tt.refused)
			}
			if victim != "" {
				if after := stateOf(t, victim); after != before {
					t.Errorf("%s became %+v, was %+v", victim, after, before)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "created-by-link")); err == nil {
				t.Error("the trace created the dangling link's target")
			}
		})
	}
}

// The stop counters live in a directory of hookx's own. Where that
// directory (or its parent) is a symlink or writable by others,
// a counter planted there is not read: on the old code a planted count of
// 8 made a Claude Stop hook's block on Gemini no decision (a block became
// an allow), and a counter was written there.
func TestStopCounterOnlyInAPrivateDirectory(t *testing.T) {
	gemini := mappings.Default().MustDialect("gemini")
	payload := `{"session_id":"s1","hook_event_name":"AfterAgent","prompt":"p","prompt_response":"r","stop_hook_active":false}`
	for _, tt := range []struct {
		name  string
		setup func(base string) (stateDir string)
	}{
		{"parent writable by others", func(base string) string {
			os.MkdirAll(filepath.Join(base, "hookx", "stop"), 0o700)
			os.Chmod(filepath.Join(base, "hookx"), 0o777)
			return filepath.Join(base, "hookx", "stop")
		}},
		{"state directory a symlink", func(base string) string {
			other := filepath.Join(base, "elsewhere")
			os.MkdirAll(other, 0o700)
			os.MkdirAll(filepath.Join(base, "hookx"), 0o700)
			os.Symlink(other, filepath.Join(base, "hookx", "stop"))
			return filepath.Join(base, "hookx", "stop")
		}},
		{"state directory its group can write", func(base string) string {
			os.MkdirAll(filepath.Join(base, "hookx", "stop"), 0o700)
			os.Chmod(filepath.Join(base, "hookx", "stop"), 0o770)
			return filepath.Join(base, "hookx", "stop")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stateDir := tt.setup(t.TempDir())
			cmd := []string{strings.Replace(blockUnlessActive, "%s", "block", 1)} // as stopRun runs it
			r := &runner{Options: Options{From: "claude", StateDir: stateDir, Command: cmd}, host: gemini}
			file := r.stopFile([]byte(payload))
			planted := "8 " + chainID([]byte(payload), stopChain(gemini.Event("AfterAgent"))) + " 0\n"
			if err := os.WriteFile(file, []byte(planted), 0o666); err != nil {
				t.Fatal(err)
			}
			os.Chmod(file, 0o666)
			before := stateOf(t, file)
			out, errs := stopRun(t, stateDir, "gemini", "claude", "Stop", "block", payload)
			if !strings.Contains(out, "again") {
				t.Errorf("answer %q (stderr %q): the planted count ended the hook's block", out, errs)
			}
			if !strings.Contains(errs, "stop-loop counter: ") || !strings.Contains(errs, "refused") {
				t.Errorf("stderr %q; want the counter's directory refused", errs)
			}
			if after := stateOf(t, file); after != before {
				t.Errorf("the planted counter became %+v, was %+v", after, before)
			}
		})
	}
}

// CLAUDE_ENV_FILE is a file hookx creates in a directory of its own: a
// symlink planted in the file's place, or a directory that is a symlink or
// writable by others, is refused (on the old code the hook was handed the
// symlink and appended its exports to its target), and no file is named.
func TestSessionEnvFileOnlyInAPrivateDirectory(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(base string) (stateDir, victim string)
	}{
		{"symlink in the file's place", func(base string) (string, string) {
			victim := filepath.Join(base, "victim")
			os.WriteFile(victim, []byte("x\n"), 0o644)
			os.MkdirAll(filepath.Join(base, "hookx", "env"), 0o700)
			os.Symlink(victim, filepath.Join(base, "hookx", "env", "s1-SessionStart.sh"))
			return filepath.Join(base, "hookx", "stop"), victim
		}},
		{"env directory a symlink", func(base string) (string, string) {
			other := filepath.Join(base, "elsewhere")
			os.MkdirAll(other, 0o700)
			os.MkdirAll(filepath.Join(base, "hookx"), 0o700)
			os.Symlink(other, filepath.Join(base, "hookx", "env"))
			return filepath.Join(base, "hookx", "stop"), ""
		}},
		{"parent writable by others", func(base string) (string, string) {
			os.MkdirAll(filepath.Join(base, "hookx"), 0o700)
			os.Chmod(filepath.Join(base, "hookx"), 0o777)
			return filepath.Join(base, "hookx", "stop"), ""
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stateDir, victim := tt.setup(t.TempDir())
			var before fileState
			if victim != "" {
				before = stateOf(t, victim)
			}
			claude := mappings.Default().MustDialect("claude")
			r := &runner{Options: Options{From: "claude", StateDir: stateDir}, hook: claude}
			f, err := r.sessionEnvFile([]string{"CLAUDE_CODE_SESSION_ID=s1"}, "SessionStart")
			if err == nil || !strings.Contains(err.Error(), "refused") {
				t.Errorf("sessionEnvFile = %q, %v; want it refused", f, err)
			}
			if victim != "" {
				if after := stateOf(t, victim); after != before {
					t.Errorf("%s became %+v, was %+v", victim, after, before)
				}
			}
		})
	}
	// A private directory: the file is created 0600.
	base := t.TempDir()
	r := &runner{Options: Options{From: "claude", StateDir: filepath.Join(base, "hookx", "stop")}, hook: mappings.Default().MustDialect("claude")}
	f, err := r.sessionEnvFile([]string{"CLAUDE_CODE_SESSION_ID=s1"}, "SessionStart")
	if err != nil {
		t.Fatal(err)
	}
	if st := stateOf(t, f); st.mode != 0o600 {
		t.Errorf("%s: mode %v, want 0600", f, st.mode)
	}
}
