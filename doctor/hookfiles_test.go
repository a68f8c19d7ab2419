package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate/clinehooks"
)

// TestClineOwnHookFiles holds which of a project's Cline hook files doctor
// lists and which it flags as refusing by exit code only (HX319).
func TestClineOwnHookFiles(t *testing.T) {
	guard := "#!/bin/bash\nif grep -q rm; then echo no >&2; exit 2; fi\n"
	dispatcher := string(clinehooks.Render("hookx", "0.1.0-dev", "PreToolUse", true))
	cases := []struct {
		name, file, text string
		exec             bool
		listed           string // the event it is listed under, "" if not
		flagged          bool
	}{
		{"exit 2 guard", "PreToolUse", guard, true, "PreToolUse", true},
		{"any case, .sh", "pretooluse.sh", "#!/bin/sh\nexit 1\n", true, "PreToolUse", true},
		{"env bash", "PreToolUse.bash", "#!/usr/bin/env bash\nexit 2\n", true, "PreToolUse", true},
		{"no #!, .sh", "PreToolUse.sh", "exit 2\n", true, "PreToolUse", true},
		{"answers cancel", "PreToolUse", "#!/bin/sh\necho '{\"cancel\":true}'\nexit 2\n", true, "PreToolUse", false},
		{"answers overrideInput", "PreToolUse", "#!/bin/sh\njq '{overrideInput:{}}'\nexit 1\n", true, "PreToolUse", false},
		{"HOOK_CONTROL", "PreToolUse", "#!/bin/sh\nprintf 'HOOK_CONTROL\\t%s\\n' \"$a\"\nexit 2\n", true, "PreToolUse", false},
		{"through hookx", "PreToolUse", "#!/bin/sh\nexec hookx wrap --from claude --host cline -- ./g.sh\n", true, "PreToolUse", false},
		{"hands on to a script", "PreToolUse", "#!/bin/sh\n./answer.sh || exit 2\n", true, "PreToolUse", false},
		{"hands on to python", "PreToolUse", "#!/bin/sh\npython3 answer.py || exit 2\n", true, "PreToolUse", false},
		{"exit 0 only", "PreToolUse", "#!/bin/sh\nexit 0\n", true, "PreToolUse", false},
		{"exit $?", "PreToolUse", "#!/bin/sh\nfalse\nexit $?\n", true, "PreToolUse", false},
		{"python file", "PreToolUse.py", "#!/usr/bin/env python3\nimport sys\nsys.exit(2)\n", true, "PreToolUse", false},
		{"no #!, no extension", "PreToolUse", "exit 2\n", true, "PreToolUse", false},
		{"not a guard event", "TaskComplete", "#!/bin/sh\nexit 2\n", true, "TaskComplete", false},
		{"hookx's dispatcher", "PreToolUse", dispatcher, true, "", false},
		{"not executable", "PreToolUse", guard, false, "", false},
		{"a name Cline does not run", "PreToolUse.txt", guard, true, "", false},
		{"no event's name", "guard.sh", guard, true, "", false},
		{"does not parse", "PreToolUse", "#!/bin/sh\nif then exit 2\n", true, "PreToolUse", false},
	}
	tbl := mappings.Default()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			proj := t.TempDir()
			dir := filepath.Join(proj, ".clinerules", "hooks")
			mode := os.FileMode(0o644)
			if tc.exec {
				mode = 0o755
			}
			write(t, proj, ".clinerules/hooks/"+tc.file, tc.text)
			if err := os.Chmod(filepath.Join(dir, tc.file), mode); err != nil {
				t.Fatal(err)
			}
			var listed []Hook
			if tc.listed != "" {
				p := filepath.Join(dir, tc.file)
				listed = []Hook{{File: p, Dialect: "cline", Event: tc.listed, AgentEvent: tc.listed, Command: p}}
			}
			if diff := cmp.Diff(listed, HookFiles(Options{Table: tbl, Dir: proj})); diff != "" {
				t.Errorf("HookFiles (-want +got):\n%s", diff)
			}
			fs, err := Check(Options{Table: tbl, Dir: proj, Getenv: func(string) string { return "" }})
			if err != nil {
				t.Fatal(err)
			}
			flagged := false
			for _, f := range fs {
				if f.RuleID == ruleExitCodeIgnored.ID {
					flagged = true
				}
			}
			if flagged != tc.flagged {
				t.Errorf("HX319: got %v, want %v; findings: %v", flagged, tc.flagged, fs)
			}
		})
	}
}

// TestClineEntriesDuplicateKey: a key written twice in hookx.hooks.json
// (in any case: encoding/json reads "Command" into command too) is read by
// hookx dispatch, which refuses the file, not by Cline; HX215 said "Cline
// keeps only the last one" and missed "command"/"Command". Fails on
// d8237c0.
func TestClineEntriesDuplicateKey(t *testing.T) {
	for _, entries := range []string{
		`{"PreToolUse": [{"type": "command", "command": "true"}], "PreToolUse": []}`,
		`{"PreToolUse": [{"type": "command", "command": "true", "Command": "false"}]}`,
	} {
		proj := t.TempDir()
		write(t, proj, ".clinerules/hooks/hookx.hooks.json", entries)
		write(t, proj, ".clinerules/hooks/PreToolUse", string(clinehooks.Render("hookx", "0.1.0-dev", "PreToolUse", true)))
		fs, err := Check(Options{Table: mappings.Default(), Dir: proj, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		var msgs []string
		for _, f := range fs {
			if f.RuleID == ruleDuplicateKey.ID {
				msgs = append(msgs, f.Problem)
			}
		}
		want := "hookx dispatch, which reads this file, refuses it"
		if len(msgs) != 1 || !strings.Contains(msgs[0], want) || strings.Contains(msgs[0], "Cline keeps") {
			t.Errorf("%s: HX215 %q, want one saying %q", entries, msgs, want)
		}
	}
}
