package wrap

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// TestPassThroughExecsInPlace: a same-dialect run named up front replaces
// hookx with the hook's own shell command (Claude Code's /bin/sh), unless a
// flag or the agent's own command preparation needs hookx to stay; when the exec fails, the hook still runs as a child.
func TestPassThroughExecsInPlace(t *testing.T) {
	tests := []struct {
		name     string
		mod      func(*Options)
		wantExec bool
	}{
		{"host named, no flags", nil, true},
		{"host detected from stdin", func(o *Options) { o.Host = "auto" }, false},
		{"other dialect", func(o *Options) { o.Host = "gemini" }, false},
		{"--fail-closed", func(o *Options) { o.FailClosed = true }, false},
		{"--timeout", func(o *Options) { o.Timeout = time.Second }, false},
		{"--trace", func(o *Options) { o.TracePath = t.TempDir() + "/trace" }, false},
		{"--env", func(o *Options) { o.Env = []string{"Y=2"} }, false},
		// The agent's own preparation needs hookx: Claude's exec form
		// substitutes its placeholders.
		{"a command the agent prepares", func(o *Options) { o.Command = []string{"echo", "${CLAUDE_PROJECT_DIR}"} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotArgv []string
			f := &fakeTranslation{host: "claude", hookEv: "PreToolUse"}
			code, stdout, _ := run(t, f, beforeTool, func(o *Options) {
				o.Host = "claude"
				o.Environ = []string{"PATH=/usr/bin:/bin", "X=1"}
				o.Exec = func(argv0 string, argv, env []string) error {
					gotArgv = argv
					if !slices.Equal(env, []string{"PATH=/usr/bin:/bin", "X=1"}) {
						t.Errorf("exec env = %q, want the host's own", env)
					}
					return errors.New("exec refused by the test")
				}
				if tt.mod != nil {
					tt.mod(o)
				}
			}, "echo ran")
			if exec := gotArgv != nil; exec != tt.wantExec {
				t.Fatalf("exec called = %v, want %v", exec, tt.wantExec)
			}
			if tt.wantExec && !slices.Equal(gotArgv, []string{"/bin/sh", "-c", "echo ran"}) {
				t.Errorf("exec argv = %q, want the hook's own shell command", gotArgv)
			}
			if tt.wantExec && (code != 0 || stdout != "ran\n") {
				t.Errorf("after a failed exec: Run = %d, %q; want the hook run as a child", code, stdout)
			}
		})
	}
}
