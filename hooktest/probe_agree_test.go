//go:build unix

package hooktest

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/doctor"
	"github.com/hookx-dev/hookx/mappings"
)

// TestMain lets the test binary stand in for hookx wrap: "record FILE"
// appends what it was started with to FILE.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "record" {
		record(os.Args[2], os.Args[3:])
		return
	}
	os.Exit(m.Run())
}

// recorded is one start of wrap: its arguments and the event on its stdin,
// the project's copy (its working directory) written $PROJ.
type recorded struct {
	Args  []string
	Event string
}

func record(file string, args []string) {
	in, _ := io.ReadAll(os.Stdin)
	dir, _ := os.Getwd()
	in = bytes.ReplaceAll(in, []byte(dir), []byte("$PROJ"))
	// The clock is not the event's: a timestamp is the time of the run,
	// and a derived call id hashes the copy's path.
	var m map[string]any
	if json.Unmarshal(in, &m) == nil {
		for _, k := range []string{"timestamp", "tool_use_id"} {
			if _, ok := m[k]; ok {
				m[k] = "$" + k
			}
		}
		in, _ = json.Marshal(m)
	}
	// Limits differ by design (the probe cuts at its own limit, hookx test
	// gives wrap the agent's); the event and the hook do not.
	if i := slices.Index(args, "--timeout"); i >= 0 {
		args = slices.Delete(args, i, i+2)
	}
	b, _ := json.Marshal(recorded{Args: args, Event: string(in)})
	f, err := os.OpenFile(file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		os.Exit(3)
	}
	f.Write(append(b, '\n'))
	f.Close()
}

func readRecords(t *testing.T, file string) []recorded {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rs []recorded
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r recorded
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	slices.SortFunc(rs, func(a, b recorded) int { return strings.Compare(a.Event, b.Event) })
	return rs
}

// TestProbeEventIsTestEvent holds doctor --probe to hookx test: for each
// agent's pre-tool hook and each canned call of the probe, the probe starts
// wrap with the arguments and the event hookx test starts it with for the
// same hook, host and action (one builder, hookrun.BuildEvent). Copilot CLI
// names its tool "toolName": the probe's own builder read "tool_name" and
// so never probed a Copilot hook with a matcher.
func TestProbeEventIsTestEvent(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tbl := mappings.Default()
	for _, tc := range []struct {
		dialect, file, settings string
	}{
		{"claude", ".claude/settings.json", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"./guard.sh"}]}]}}`},
		{"gemini", ".gemini/settings.json", `{"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"./guard.sh"}]}]}}`},
		{"copilot", ".github/hooks/a.json", `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./guard.sh","matcher":"bash|create"}]}}`},
		{"crush", "crush.json", `{"hooks":{"pre_tool_use":[{"name":"g","command":"./guard.sh"}]}}`},
	} {
		t.Run(tc.dialect, func(t *testing.T) {
			dir, home := t.TempDir(), t.TempDir()
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, tc.file)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.settings), 0o644); err != nil {
				t.Fatal(err)
			}
			getenv := func(k string) string {
				if k == "PATH" {
					return os.Getenv("PATH")
				}
				return ""
			}
			probeLog, testLog := filepath.Join(t.TempDir(), "probe"), filepath.Join(t.TempDir(), "test")
			fs, err := doctor.Check(doctor.Options{Table: tbl, Dir: dir, Home: home, Getenv: getenv,
				Probe: true, ProbeUnconfined: true, ProbeWrap: []string{self, "record", probeLog}})
			if err != nil {
				t.Fatal(err)
			}
			probes := 0
			for _, f := range fs {
				if strings.Contains(f.Problem, "probe ") {
					probes++
					if strings.Contains(f.Problem, "()") {
						t.Errorf("the probe names no tool: %s", f.Problem)
					}
				}
			}
			if probes != 3 {
				t.Errorf("%d probes, want 3: %v", probes, fs)
			}
			var cases []Case
			for i, e := range []Event{
				{Name: "shell", Command: "ls"},
				{Name: "shell", Command: "rm -rf /"},
				{Name: "write", Path: ".env", Content: "API_KEY=doctor-probe\n"},
			} {
				cases = append(cases, Case{Name: string(rune('a' + i)), Hook: Hook{Command: "./guard.sh", Dialect: tc.dialect},
					Event: e, Expect: Expect{Outcome: "allow"}, Hosts: []string{tc.dialect}})
			}
			if _, err := Run(&File{Cases: cases}, Options{Table: tbl, Dir: dir, Home: home, Getenv: getenv,
				Unconfined: true, Wrap: []string{self, "record", testLog}}); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(readRecords(t, testLog), readRecords(t, probeLog)); d != "" {
				t.Errorf("the probe's wrap (-hookx test +doctor --probe):\n%s", d)
			}
		})
	}
}
