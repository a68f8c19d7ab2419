package clinehooks

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestDispatch: the dispatcher's answer is Cline's: nothing without an
// opinion, the first refusal (after which nothing runs), the context of
// the rest; on a guard event, every failure to answer is a refusal.
func TestDispatch(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("entries run with /bin/bash -c")
	}
	type ent struct {
		Command string `json:"command"`
		Timeout int    `json:"timeout,omitempty"`
	}
	deny := `echo '{"cancel":true,"errorMessage":"no"}'`
	for _, tc := range []struct {
		name    string
		event   string
		entries map[string][]ent // nil: no entries file
		want    string           // the answer; a prefix when it ends in "…"
		ran     bool             // the file "ran" exists afterwards
	}{
		{"no entries for the event", "PreToolUse", map[string][]ent{"PostToolUse": {{Command: deny}}}, "", false},
		{"no opinion", "PreToolUse", map[string][]ent{"PreToolUse": {{Command: "true"}}}, "", false},
		{"context joined", "PreToolUse", map[string][]ent{"PreToolUse": {{Command: `echo '{"context":"a"}'`}, {Command: `echo '{"context":"b"}'`}}},
			`{"context":"a\nb"}` + "\n", false},
		{"first refusal wins, nothing after it", "PreToolUse", map[string][]ent{"PreToolUse": {{Command: deny}, {Command: "touch ran"}}},
			`{"cancel":true,"errorMessage":"no"}` + "\n", false},
		{"a refusal after an allow", "PreToolUse", map[string][]ent{"PreToolUse": {{Command: "touch ran"}, {Command: "echo log; printf 'HOOK_CONTROL\\t%s\\n' '{\"cancel\": true, \"errorMessage\": \"no\"}'"}}},
			`{"cancel":true,"errorMessage":"no"}` + "\n", true},
		// A rewrite does not end it: a later guard's refusal wins (a
		// rewrite returned at once let rm -rf run past the guard after it).
		{"a rewrite, then no opinion", "PreToolUse", map[string][]ent{"PreToolUse": {{Command: `echo '{"overrideInput":{"commands":["echo no"]},"context":"no"}'`}, {Command: "touch ran"}}},
			`{"overrideInput":{"commands":["echo no"]},"context":"no"}` + "\n", true},
		{"a rewrite, then a refusal", "PreToolUse", map[string][]ent{"PreToolUse": {{Command: `echo '{"overrideInput":{"commands":["pnpm i && rm -rf /x"]}}'`}, {Command: deny}, {Command: "touch ran"}}},
			`{"cancel":true,"errorMessage":"no"}` + "\n", false},
		{"cannot start", "PreToolUse", map[string][]ent{"PreToolUse": {{Command: "/nonexistent/hookx wrap"}, {Command: "touch ran"}}}, `{"cancel":true,"errorMessage":"hookx could not translate this hook call: PreToolUse entry 1 of …`, false},
		{"killed", "PreToolUse", map[string][]ent{"PreToolUse": {{Command: "kill -9 $$"}}}, `{"cancel":true,…`, false},
		{"timed out", "PreToolUse", map[string][]ent{"PreToolUse": {{Command: "sleep 5", Timeout: 200}}}, `{"cancel":true,…`, false},
		{"not JSON", "PreToolUse", map[string][]ent{"PreToolUse": {{Command: "echo cancel"}}}, `{"cancel":true,…`, false},
		{"no entries file", "PreToolUse", nil, `{"cancel":true,…`, false},
		{"no entries file, not a guard event", "TaskStart", nil, "", false},
		{"not a guard event: a failure refuses nothing", "TaskStart", map[string][]ent{"TaskStart": {{Command: "exit 127"}}}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.entries != nil {
				b, _ := json.Marshal(tc.entries)
				if err := os.WriteFile(filepath.Join(dir, DataFile), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			wd, _ := os.Getwd()
			defer os.Chdir(wd)
			os.Chdir(dir)
			var stderr bytes.Buffer
			got := string(Dispatch(context.Background(), DispatchOptions{Host: "cline", Event: tc.event, Script: filepath.Join(dir, tc.event), Stdin: []byte(`{}`), Stderr: &stderr}))
			if want, ok := strings.CutSuffix(tc.want, "…"); ok {
				if !strings.HasPrefix(got, want) {
					t.Errorf("answer %q, want it to start %q (stderr %s)", got, want, stderr.String())
				}
			} else if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s\nstderr: %s", diff, stderr.String())
			}
			if _, err := os.Stat(filepath.Join(dir, "ran")); (err == nil) != tc.ran {
				t.Errorf("a later hook ran: %v, want %v", err == nil, tc.ran)
			}
		})
	}
}

// TestDispatchBudget: hooks that together outlast the budget are refused
// before Cline's own timeout would decide.
func TestDispatchBudget(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, DataFile), []byte(`{"PreToolUse":[{"command":"sleep 5","timeout":60000}]}`), 0o644)
	start := time.Now()
	got := Dispatch(context.Background(), DispatchOptions{Host: "cline", Event: "PreToolUse", Script: filepath.Join(dir, "PreToolUse"), Budget: 300 * time.Millisecond})
	if !bytes.HasPrefix(got, []byte(`{"cancel":true`)) || time.Since(start) > 4*time.Second {
		t.Errorf("answer %q after %v, want a refusal within the budget", got, time.Since(start))
	}
}

// TestRender: the dispatcher is valid sh whatever hookx's path, its
// header reads back, and a file without it is the user's.
func TestRender(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, guard := range []bool{true, false} {
		script := Render(`'/opt/my hookx/it'\''s/hookx'`, "1.2.3", "PreToolUse", guard)
		if ev, v, ok := Stamp(script); !ok || ev != "PreToolUse" || v != "1.2.3" {
			t.Errorf("Stamp = %q %q %v", ev, v, ok)
		}
		if bytes.Contains(script, []byte("\r")) {
			t.Error("CR in the script")
		}
		if out, err := exec.Command(sh, "-n", "-c", string(script)).CombinedOutput(); err != nil {
			t.Errorf("sh -n: %v\n%s", err, out)
		}
		if got := bytes.Contains(script, []byte("HOOK_CONTROL")); got != guard {
			t.Errorf("guard %v: fail-closed line present %v", guard, got)
		}
	}
	for _, own := range []string{"#!/bin/sh\necho hi\n", "# hookx-dispatcher event=PreToolUse version=1\n", ""} {
		if Owned([]byte(own)) {
			t.Errorf("Owned(%q) = true", own)
		}
	}
}

// TestRenderFailsClosedWithoutHookx: run by sh with no hookx to call, the
// guard's dispatcher prints the refusal as the last HOOK_CONTROL line.
func TestRenderFailsClosedWithoutHookx(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	p := filepath.Join(t.TempDir(), "PreToolUse")
	os.WriteFile(p, Render("/nonexistent/hookx", "1", "PreToolUse", true), 0o755)
	out, _ := exec.Command(sh, p).Output()
	want := "HOOK_CONTROL\t" + string(failClosedAnswer("PreToolUse")) + "\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDispatchRefusesDuplicateKeys: encoding/json keeps the last of a key
// written twice (in any case, for an entry's fields), so a hooks file
// with the guard under the first PreToolUse, or a second "Command", ran
// the other: dispatch let the call through where doctor showed the guard.
// It now refuses the file on a guard event, and says why. Fails on
// d8237c0.
func TestDispatchRefusesDuplicateKeys(t *testing.T) {
	guard := `{"command":"echo '{\"cancel\":true,\"errorMessage\":\"no\"}'"}`
	for _, file := range []string{
		`{"PreToolUse":[` + guard + `],"PreToolUse":[{"command":"true"}]}`,
		`{"PreToolUse":[{"command":"echo '{\"cancel\":true}'","Command":"true"}]}`,
		`{"PreToolUse":[{"type":"command","type":"x","command":"true"}]}`,
		`{"PreToolUse":[` + guard + `],"TaskStart":[],"TaskStart":[]}`,
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, DataFile), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		got := string(Dispatch(context.Background(), DispatchOptions{Host: "cline", Event: "PreToolUse", Script: filepath.Join(dir, "PreToolUse"), Stdin: []byte(`{}`), Stderr: &stderr}))
		if !strings.HasPrefix(got, `{"cancel":true`) || !strings.Contains(got, "twice") || !strings.Contains(stderr.String(), "twice") {
			t.Errorf("%s: answer %q (stderr %q), want a refusal saying a key is written twice", file, got, stderr.String())
		}
	}
}

// TestDispatchHeldStdout: an entry that exits but leaves a process holding
// its stdout is refused (its answer cannot be known), and the reason says
// so: it was "could not start". Fails on d8237c0.
func TestDispatchHeldStdout(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("entries run with /bin/bash -c")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, DataFile), []byte(`{"PreToolUse":[{"command":"sleep 4 & echo '{}'"}]}`), 0o644)
	var stderr bytes.Buffer
	got := string(Dispatch(context.Background(), DispatchOptions{Host: "cline", Event: "PreToolUse", Script: filepath.Join(dir, "PreToolUse"), Stdin: []byte(`{}`), Stderr: &stderr}))
	if !strings.HasPrefix(got, `{"cancel":true`) || !strings.Contains(got, "holding its stdout") || strings.Contains(got, "could not start") {
		t.Errorf("answer %q, want a refusal saying a process held its stdout", got)
	}
}

// TestCRLFDispatcherRunsAsWritten: a dispatcher checked out with CRLF line
// endings (git's autocrlf) is hookx's: Cline runs it with sh, the #! line
// trimmed (core@715458), and sh does what the LF script does: hookx's
// answer and nothing after it, or the refusal where hookx does not answer
// (its \r trimmed by Cline's reader, as control() trims it). It was taken
// for the user's own file (migrate: "not carried"; doctor: HX331, "Cline
// runs it, and none of the entries"), which is false. The real shells are
// the oracle. Fails on d8237c0 (Owned).
func TestCRLFDispatcherRunsAsWritten(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh")
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake hookx")
	crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
	script := crlf(Render(shellSingle(fake), "0.1.0", "PreToolUse", true))
	if !Owned(script) {
		t.Fatalf("a CRLF dispatcher is not hookx's:\n%q", script)
	}
	if ev, v, _ := Stamp(script); ev != "PreToolUse" || v != "0.1.0" {
		t.Errorf("Stamp: %q %q", ev, v)
	}
	path := filepath.Join(dir, "PreToolUse")
	if err := os.WriteFile(path, script, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sh := range []string{"sh", "bash", "dash"} {
		if _, err := exec.LookPath(sh); err != nil {
			continue
		}
		for _, c := range []struct{ hookx, want string }{
			{"#!/bin/sh\n[ \"$6\" = -- ] && [ \"$7\" = \"$HOOKX_WANT\" ] && echo '{\"context\":\"ok\"}'\n", `{"context":"ok"}` + "\n"},
			{"#!/bin/sh\necho '{\"context\":\"half\"}'; exit 1\n", string(failClosedAnswer("PreToolUse")) + "\n"},
		} {
			if err := os.WriteFile(fake, []byte(c.hookx), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(sh, path) // as Cline runs it (gl, core@716173)
			cmd.Env = append(os.Environ(), "HOOKX_WANT="+path)
			out, _ := cmd.Output()
			if diff := cmp.Diff(c.want, string(control(out))); diff != "" {
				t.Errorf("%s: Cline's answer (-want +got):\n%s\nstdout %q", sh, diff, out)
			}
		}
	}
}
