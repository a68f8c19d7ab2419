//go:build unix

package driver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	sb, err := NewSandbox(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(sb.Project, ".git")); err != nil {
		t.Errorf("project is not a git repository: %v", err)
	}
	env := sb.Env(Claude, "http://127.0.0.1:1")
	tests := []struct {
		name         string
		script       string
		timeout      time.Duration
		wantExit     int
		wantTimedOut bool
		wantOut      string
	}{
		{"exit code and env", `echo "$HOME|$ANTHROPIC_BASE_URL|$(pwd)"; exit 3`, 10 * time.Second, 3, false,
			sb.Home + "|http://127.0.0.1:1|" + sb.Project + "\n"},
		{"timeout kills the group", `sleep 30 & echo $! > bg.pid; sleep 30`, 300 * time.Millisecond, -1, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res, err := sb.Run(context.Background(), Cmd{Path: "/bin/sh", Args: []string{"-c", tt.script}, Env: env, Timeout: tt.timeout})
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode != tt.wantExit || res.TimedOut != tt.wantTimedOut || res.Stdout != tt.wantOut {
				t.Errorf("got exit %d timedOut %v stdout %q, want %d %v %q", res.ExitCode, res.TimedOut, res.Stdout, tt.wantExit, tt.wantTimedOut, tt.wantOut)
			}
			// Run must not wait for the children's sleep 30: any bound well
			// under 30 s tells, and a loaded machine needs room (it was 5 s).
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("run took %s", d)
			}
			if b, err := os.ReadFile(sb.Path("bg.pid")); err == nil {
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				// A SIGKILLed process is gone once the kernel has run it
				// to its end, which a loaded machine may delay: wait for
				// that (a zombie counts), up to 20 s, where the sleep 30 of
				// a survivor would still be running.
				deadline := time.Now().Add(20 * time.Second)
				for syscall.Kill(pid, 0) == nil && !isZombie(pid) && time.Now().Before(deadline) {
					time.Sleep(10 * time.Millisecond)
				}
				if err := syscall.Kill(pid, 0); err == nil && !isZombie(pid) {
					t.Errorf("background child %d survived the group kill", pid)
				}
			}
		})
	}
}

func isZombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] == "Z"
}

// A daemon the agent detaches into a session of its own outlives the
// group kill; EndLeftovers ends it by its PID and reports it (Cline's hub
// daemon, issue 30).
func TestRunEndsDetachedLeftovers(t *testing.T) {
	sb, err := NewSandbox(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sb.Run(context.Background(), Cmd{
		Path: "/bin/sh", Args: []string{"-c", "setsid sleep 300 </dev/null >/dev/null 2>&1 & sleep 0.3"},
		Env: sb.baseEnv(), EndLeftovers: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Leftover) != 1 || !strings.Contains(res.Leftover[0], "sleep 300") {
		t.Fatalf("Leftover = %q, want the detached sleep", res.Leftover)
	}
	pid, _ := strconv.Atoi(strings.Fields(res.Leftover[0])[0])
	time.Sleep(100 * time.Millisecond)
	if b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat")); err == nil && !strings.Contains(string(b), ") Z ") {
		t.Errorf("the detached process %d still runs: %s", pid, b)
	}
	if left := sb.Running(); len(left) != 0 {
		t.Errorf("processes with the sandbox HOME left: %v", left)
	}
}

// Gemini CLI and Qwen Code run without relaunching themselves (one load of
// their bundle, not two), and only with the variable their launcher gives
// the relaunched process, which each agent's environment ledger shows its
// hooks inherit: what a hook sees does not change.
func TestNoRelaunchIsWhatTheHooksSeeAnyway(t *testing.T) {
	sb, err := NewSandbox(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Agent{Gemini, Qwen} {
		v := NoRelaunch[a]
		name, _, _ := strings.Cut(v, "=")
		if name == "" || !slices.Contains(sb.Env(a, "http://127.0.0.1:1"), v) {
			t.Errorf("%s: Env has no %q", a, v)
		}
		user := &Sandbox{Home: sb.Home, Tmp: sb.Tmp, Project: sb.Project, Relaunch: true}
		if slices.ContainsFunc(user.Env(a, "http://127.0.0.1:1"), func(kv string) bool { return strings.HasPrefix(kv, name+"=") }) {
			t.Errorf("%s: Env with Relaunch has %s", a, name)
		}
		ledger, err := os.ReadFile(filepath.Join("..", "..", "..", "mappings", "data", "evidence", string(a)+"-env.jsonc"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(ledger), `"name": "`+name+`"`) {
			t.Errorf("%s: %s is not in its environment ledger: the hooks would see a variable their agent does not give them", a, name)
		}
	}
}
