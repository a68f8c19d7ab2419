//go:build unix

package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// A doctorCase is a project with one guard that hookx doctor calls broken,
// and what the real agent must show for that verdict to be true.
type doctorCase struct {
	name    string
	classes []string // the doctor error classes it proves (doctorErrorClasses)
	dialect driver.Agent
	matcher string
	body    string // the guard script's body, run on any `rm -rf`
	// want are substrings of errors doctor must report for the guard.
	want []string
	// fires says whether the guard runs at all in the real agent ("never
	// fires": false; "fails open": true, and the tool runs anyway).
	fires bool
	// timeout, when set, replaces the scenario's timeout (in the dialect's
	// unit); a guard killed by it may or may not have started, so fires is
	// not checked.
	timeout int
}

// fired is the line every doctor-case guard runs first: it proves in the
// real agent whether the hook ran.
const fired = "mkdir -p \"$HOME/hooklog\"\n: > \"$HOME/hooklog/fired.$$.json\"\n"

func doctorCases() []doctorCase {
	return []doctorCase{
		// Never fires: a matcher with the other agent's tool name, and every
		// other "never fires" class, is in the batches (doctor_live_test.go).
		// Fails open: a deny in the other agent's idiom.
		{name: "fails-open/claude-decision-deny", classes: []string{"idiom-decision-deny", "probe-ignored-idiom"}, dialect: driver.Claude, matcher: "Bash",
			body: emit(`{"decision":"deny","reason":"DOCTOR: forbidden"}`), want: []string{"the guard fails open", "probe destructive shell command (Bash): ignored idiom"}, fires: true},
		// A byte-order mark before it: JavaScript's trim drops it, so
		// Claude Code reads the invalid decision "deny" and runs the tool
		// (doctor's probe on 244ac78 called this guard "blocked").
		{name: "fails-open/claude-decision-deny-bom", classes: []string{"probe-ignored-idiom"}, dialect: driver.Claude, matcher: "Bash",
			body: emit("\ufeff" + `{"decision":"deny","reason":"DOCTOR: forbidden"}`), want: []string{"probe destructive shell command (Bash): ignored idiom"}, fires: true},
		{name: "fails-open/gemini-permissionDecision-deny", classes: []string{"idiom-permissionDecision", "probe-ignored-idiom"}, dialect: driver.Gemini, matcher: "run_shell_command",
			body: emit(`{"hookSpecificOutput":{"hookEventName":"BeforeTool","permissionDecision":"deny","permissionDecisionReason":"DOCTOR: forbidden"}}`),
			want: []string{"the guard fails open", "probe destructive shell command (run_shell_command): ignored idiom"}, fires: true},
		// Fails open: a Gemini timeout written in seconds is milliseconds.
		// The guard denies 10 s after it starts (sooner once the
		// destructive command has run, when the deny is too late anyway;
		// the file is named by GEMINI_PROJECT_DIR, which the agent and
		// doctor's confined probe both set, while HOME differs there):
		// never within 30 ms, however late a loaded machine fires that
		// timer (a `sleep 2` could lose the race), and well within 30 s, so
		// an agent or probe that read 30 as seconds sees the deny and fails
		// the case.
		{name: "fails-open/gemini-timeout-in-seconds", classes: []string{"timeout-milliseconds", "probe-timed-out"}, dialect: driver.Gemini, matcher: "run_shell_command", timeout: 30,
			body: `end=$(($(date +%s) + 10)); while [ -e "$GEMINI_PROJECT_DIR/build/keep.txt" ] && [ "$(date +%s)" -lt $end ]; do sleep 0.1; done` + "\n" +
				emit(`{"decision":"deny","reason":"DOCTOR: forbidden"}`),
			want: []string{"timeout 30 is milliseconds in Gemini CLI", "probe destructive shell command (run_shell_command): timed out after 30ms"}, fires: true},
	}
}

// TestDoctorVerdictsHoldInRealAgents checks, for each class of doctor
// error, that the real agent does what doctor says: doctor (with --probe)
// reports the guard, and the guard's own agent, run natively (the oracle),
// either never runs it or runs it and still runs the destructive command.
func TestDoctorVerdictsHoldInRealAgents(t *testing.T) {
	p := requireAgents(t)
	for _, dc := range doctorCases() {
		t.Run(dc.name, func(t *testing.T) {
			t.Parallel()
			bin := requireHookx(t)
			event := "PreToolUse"
			if dc.dialect == driver.Gemini {
				event = "BeforeTool"
			}
			sc := &scenario{
				name: dc.name, dialect: dc.dialect,
				steps:   []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN")},
				hooks:   []hookDef{{event: event, matcher: dc.matcher, script: "guard"}},
				scripts: map[string]string{"guard": fired + readInput + "case \"$input\" in\n*'rm -rf'*)\n" + dc.body + "\n;;\nesac\nexit 0\n"},
				files:   map[string]string{"build/keep.txt": "keep\n"},
			}
			sb := newSandbox(t, p, "")
			if err := sc.writeProject(sb); err != nil {
				t.Fatal(err)
			}
			if dc.timeout != 0 {
				if err := setTimeout(sb.Path(settingsFile(dc.dialect)), dc.timeout); err != nil {
					t.Fatal(err)
				}
			}

			// hookx doctor, with the agent's own environment.
			res, err := sb.Run(context.Background(), driver.Cmd{
				Path: bin, Args: []string{"doctor", "--probe", "--json", "--dir", sb.Project},
				Env: sb.Env(dc.dialect, "http://127.0.0.1:9"),
			})
			if err != nil {
				t.Fatal(err)
			}
			var out struct {
				Findings []struct {
					Problem, Severity string
				} `json:"findings"`
			}
			if err := json.Unmarshal([]byte(res.Stdout), &out); err != nil {
				t.Fatalf("hookx doctor --json: %v\n%s", err, res)
			}
			for _, w := range dc.want {
				found := false
				for _, f := range out.Findings {
					found = found || f.Severity == "error" && strings.Contains(f.Problem, w)
				}
				if res.ExitCode != 1 || !found {
					t.Fatalf("hookx doctor did not report an error containing %q (exit %d):\n%s", w, res.ExitCode, res.Stdout)
				}
			}

			// The oracle: the guard's own agent.
			o, err := runAgent(t, p, sb, dc.dialect, sc)
			if err != nil {
				t.Fatal(err)
			}
			var problems []string
			problems = append(problems, commonProblems(o)...)
			if got := len(o.hookLogs("fired.")) > 0; got != dc.fires && dc.timeout == 0 {
				problems = append(problems, fmt.Sprintf("the guard ran: %v, doctor says %v", got, dc.fires))
			}
			if o.exists("build/keep.txt") {
				problems = append(problems, "build/ was not removed: the guard held, so doctor's error is false")
			}
			if len(problems) > 0 {
				t.Errorf("%s on %s:\n- %s\n\n%s", dc.name, dc.dialect, strings.Join(problems, "\n- "), o.describe())
			}
			t.Logf("%s: doctor said %q; %s confirmed it (agent run %s)", dc.name, dc.want, dc.dialect, o.res.Duration.Round(time.Millisecond))
		})
	}
	// The batches (doctor_live_test.go): every class, fixed and broken.
	for _, b := range liveBatches() {
		t.Run("batch/"+string(b.agent)+"/"+b.name, func(t *testing.T) {
			t.Parallel()
			testLiveBatch(t, b)
		})
	}
}

// setTimeout rewrites every handler timeout of a scenario's settings.
func setTimeout(file string, timeout int) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var v map[string]map[string][]map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	for _, groups := range v["hooks"] {
		for _, g := range groups {
			hs, _ := g["hooks"].([]any)
			for _, h := range hs {
				if m, ok := h.(map[string]any); ok {
					m["timeout"] = timeout
				}
			}
		}
	}
	b, err = json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(file, b, 0o644)
}
