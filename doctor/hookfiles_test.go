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
		// Cline runs a file with no #! and no extension with bash (gl,
		// core@716173), executable or not, and no link (n8): doctor
		// skipped the first two, which Cline runs. Fails on d8237c0.
		{"no #!, no extension", "PreToolUse", "exit 2\n", true, "PreToolUse", true},
		{"CRLF", "PreToolUse", "#!/bin/sh\r\nexit 2\r\n", true, "PreToolUse", true},
		{"not a guard event", "TaskComplete", "#!/bin/sh\nexit 2\n", true, "TaskComplete", false},
		{"hookx's dispatcher", "PreToolUse", dispatcher, true, "", false},
		// hookx writes its dispatcher under the event's own name only;
		// doctor checks that one (checkHookDir). A file under another
		// name Cline runs (pretooluse.sh) that starts with the header is
		// a file hookx did not write: doctor and doctor --probe skipped
		// it, and Cline runs it. Fails on 4b34c1f.
		{"hookx's header under another name", "pretooluse.sh", dispatcher + "rm -rf \"$HOME\"\n", true, "PreToolUse", false},
		{"hookx's CRLF header under another name", "PreToolUse.sh", strings.ReplaceAll(dispatcher, "\n", "\r\n"), true, "PreToolUse", false},
		{"not executable", "PreToolUse", guard, false, "PreToolUse", true},
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

// TestClineHookDirs: Cline runs the hook files of .cline/hooks/ too (and,
// for the user, ~/Documents/Cline/Hooks/; @cline/shared's
// resolveHooksConfigSearchPaths): doctor read only .clinerules/hooks/ and
// ~/.cline/hooks/, so an exit-2 guard there (HX319) and a dispatcher with
// no entries beside it (HX332, it refuses every call) went unreported.
// Fails on d8237c0.
func TestClineHookDirs(t *testing.T) {
	guard := "#!/bin/sh\nexit 2\n"
	dispatcher := string(clinehooks.Render("hookx", "0.1.0-dev", "PreToolUse", true))
	for _, c := range []struct {
		dir  string
		user bool
	}{{".cline/hooks", false}, {"Documents/Cline/Hooks", true}, {".clinerules/hooks", false}, {".cline/hooks", true}} {
		for _, h := range []struct{ file, text, rule string }{{"PreToolUse.sh", guard, ruleExitCodeIgnored.ID}, {"PreToolUse", dispatcher, ruleDispatcherNoEntries.ID}} {
			proj, home := t.TempDir(), t.TempDir()
			base := proj
			if c.user {
				base = home
			}
			write(t, base, c.dir+"/"+h.file, h.text)
			if err := os.Chmod(filepath.Join(base, c.dir, h.file), 0o755); err != nil {
				t.Fatal(err)
			}
			fs, err := Check(Options{Table: mappings.Default(), Dir: proj, Home: home, User: c.user, Getenv: func(string) string { return "" }})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range fs {
				found = found || f.RuleID == h.rule
			}
			if !found {
				t.Errorf("%s/%s (user %v): no %s in %v", c.dir, h.file, c.user, h.rule, fs)
			}
		}
	}
}

// TestClineCRLFDispatcher: a dispatcher checked out with CRLF line endings
// runs the entries as the LF one does (clinehooks.TestCRLFDispatcherRunsAsWritten):
// doctor said HX331, "Cline runs it, and none of the entries". It is now
// current; a dispatcher with only some lines CRLF is edited (HX430).
// Fails on d8237c0.
func TestClineCRLFDispatcher(t *testing.T) {
	entries := `{"PreToolUse": [{"type": "command", "command": "hookx wrap --from claude --host cline -- ./g.sh"}]}`
	lf := string(clinehooks.Render("hookx", "0.1.0-dev", "PreToolUse", true))
	for _, c := range []struct {
		name, script string
		want         []string
	}{
		{"CRLF throughout", strings.ReplaceAll(lf, "\n", "\r\n"), nil},
		{"CRLF in part", strings.Replace(lf, "\n", "\r\n", 3), []string{ruleDispatcherStale.ID}},
	} {
		proj := t.TempDir()
		write(t, proj, ".clinerules/hooks/hookx.hooks.json", entries)
		write(t, proj, ".clinerules/hooks/PreToolUse", c.script)
		fs, err := Check(Options{Table: mappings.Default(), Dir: proj, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range fs {
			if strings.HasPrefix(f.RuleID, "HX33") || f.RuleID == ruleDispatcherStale.ID {
				got = append(got, f.RuleID)
			}
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: dispatcher findings (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestClineLinkedHookFiles: Cline runs no symbolic link in its hook
// directories (n8, core@702735: Dirent.isFile()): a dispatcher that is a
// link runs none of hookx's entries (HX330; doctor said nothing), and a
// linked guard of the user's own is not listed. Fails on d8237c0.
func TestClineLinkedHookFiles(t *testing.T) {
	proj := t.TempDir()
	write(t, proj, ".clinerules/hooks/hookx.hooks.json", `{"PreToolUse": [{"type": "command", "command": "hookx wrap --from claude --host cline -- ./g.sh"}]}`)
	write(t, proj, "dispatcher", string(clinehooks.Render("hookx", "0.1.0-dev", "PreToolUse", true)))
	write(t, proj, "guard.sh", "#!/bin/sh\nexit 2\n")
	dir := filepath.Join(proj, ".clinerules", "hooks")
	if err := os.Symlink(filepath.Join(proj, "dispatcher"), filepath.Join(dir, "PreToolUse")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(proj, "guard.sh"), filepath.Join(dir, "PreToolUse.sh")); err != nil {
		t.Fatal(err)
	}
	if got := HookFiles(Options{Table: mappings.Default(), Dir: proj}); len(got) != 0 {
		t.Errorf("HookFiles lists links Cline does not run: %v", got)
	}
	fs, err := Check(Options{Table: mappings.Default(), Dir: proj, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		if strings.HasPrefix(f.RuleID, "HX33") || f.RuleID == ruleExitCodeIgnored.ID || f.RuleID == ruleDispatcherStale.ID {
			got = append(got, f.RuleID)
		}
	}
	if diff := cmp.Diff([]string{ruleDispatcherMissing.ID}, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
