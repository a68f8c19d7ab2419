//go:build unix

package agentrun

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// TestRecorder: the recorder sees what bash runs, as a -c string (BASH_ENV),
// a login shell's -c string (the profile), and a persistent shell's simple
// commands (the DEBUG trap), and RanCommand finds the case's command in
// each, but not in a simple command that only mentions it.
func TestRecorder(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, tc := range []struct {
		name string
		args []string
		cmd  string
		want bool
	}{
		{"bash -c", []string{"-c", "rm -rf build"}, "rm -rf build", true},
		{"bash -lc", []string{"-lc", "rm -rf build"}, "rm -rf build", true},
		{"eval quoted", []string{"-c", `eval 'printf '\''%s'\'' x'`}, `printf '%s' x`, true},
		{"interactive", []string{"-i", "-c", "true; rm -rf build"}, "rm -rf build", true},
		{"not run", []string{"-c", "echo hi"}, "rm -rf build", false},
		{"persistent shell", []string{"-i"}, "rm -rf build", true},
		{"only mentioned in a persistent shell", []string{"-i"}, "rm -rf build", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			rc := filepath.Join(home, ".hookx-live-bashrc")
			for _, f := range []string{rc, filepath.Join(home, ".bashrc"), filepath.Join(home, ".bash_profile")} {
				if err := os.WriteFile(f, []byte(recorder), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c := exec.Command("bash", tc.args...)
			c.Dir = home
			c.Env = []string{"HOME=" + home, "BASH_ENV=" + rc, "PATH=/usr/bin:/bin"}
			if tc.args[0] == "-i" && len(tc.args) == 1 {
				// Commands typed into it, as a persistent tool shell gets them.
				in := "cd .\nrm -rf build\nexit\n"
				if tc.want == false {
					in = "echo 'rm -rf build'\nexit\n"
				}
				c.Stdin = strings.NewReader(in)
			}
			_ = c.Run()
			o := &Outcome{Sandbox: &driver.Sandbox{Home: home}}
			if got := o.RanCommand(tc.cmd); got != tc.want {
				t.Errorf("RanCommand(%q) = %v, want %v; recorded %q", tc.cmd, got, tc.want, o.Ran())
			}
		})
	}
}
