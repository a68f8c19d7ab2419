//go:build unix

package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
)

// What a tool touches, on every host that has the argument (issue 23,
// items 2 and 3):
//
//   - patch-guard: a Claude guard on Write|Edit that allows only paths
//     under the project (absolute, as Claude sends them) and never the
//     project's .env, and a Gemini guard on write_file|replace that
//     protects prod.env, run natively and through hookx on Codex, where
//     the model edits with apply_patch: an added .env, an update through
//     sub/../.env, a file added at ../outside.txt, a move of notes.txt
//     onto .env, all refused; a relative new file written. The same with
//     a guard that matches a file_path ending in /.env, and with a
//     header padded with a space (Codex trims it).
//   - shell-dir: a Claude guard that allows rm only at the project root
//     (its event's cwd), natively (cd sub, then rm -rf docs: Claude's cwd
//     is sub) and through hookx on Gemini (run_shell_command dir_path sub)
//     and Qwen (directory <project>/sub): the rm is refused, sub/docs
//     stays. Codex shows its hooks no workdir (CX§6), so it has no such
//     run.

// patchAction is one file operation: on Codex an apply_patch call with
// the path as the model wrote it; on the other hosts the file tool call
// that makes the same change (a move is the write of its destination).
func patchAction(op, path, to, old, new string) action {
	return action{kind: "patch", text: op, path: path, content: to, old: old, new: new}
}

// shellIn runs cmd in the project directory dir: Gemini's dir_path, Qwen's
// directory; Claude has no such argument (a cd step comes first).
func shellIn(dir, cmd string) action { return action{kind: "shellin", path: dir, text: cmd} }

// codexPatchArgs make Codex offer its apply_patch tool: the fake model's
// metadata names no apply_patch tool type, a model of Codex's own catalog
// (its binary's bundled models, "apply_patch_tool_type": "freeform") does
// (features.apply_patch_freeform alone did not: "unsupported call"). The
// call is a freeform custom_tool_call (a function_call is refused:
// "tool apply_patch invoked with incompatible payload").
var codexPatchArgs = []string{"-c", `model="gpt-5.5"`}

func init() {
	patchText := func(a action) string {
		var b strings.Builder
		b.WriteString("*** Begin Patch\n")
		switch a.text {
		case "add":
			b.WriteString("*** Add File: " + a.path + "\n+" + strings.TrimSuffix(a.new, "\n") + "\n")
		case "update":
			b.WriteString("*** Update File: " + a.path + "\n@@\n-" + a.old + "\n+" + a.new + "\n")
		case "move":
			b.WriteString("*** Update File: " + a.path + "\n*** Move to: " + a.content + "\n@@\n-" + a.old + "\n+" + a.new + "\n")
		}
		b.WriteString("*** End Patch\n")
		return b.String()
	}
	// target is the absolute path of the file the operation changes (abs
	// is the patch's own path in the project).
	target := func(a action, abs string) string {
		if a.text == "move" {
			return filepath.Join(filepath.Dir(abs), a.content)
		}
		return abs
	}
	hosts[driver.Codex].tools["patch"] = func(a action, _ string) fakemodel.Call {
		return fakemodel.Call{Name: "apply_patch", Input: patchText(a)}
	}
	fileCall := func(write, edit func(abs, content, old, new string) fakemodel.Call) func(action, string) fakemodel.Call {
		return func(a action, path string) fakemodel.Call {
			abs := target(a, strings.TrimSpace(path)) // the file Codex changes: it trims a header's path
			if a.text == "update" {
				return edit(abs, "", a.old, a.new)
			}
			return write(abs, a.new+"\n", "", "")
		}
	}
	hosts[driver.Claude].tools["patch"] = fileCall(
		func(abs, content, _, _ string) fakemodel.Call {
			return call("Write", map[string]any{"file_path": abs, "content": content})
		},
		func(abs, _, old, new string) fakemodel.Call {
			return call("Edit", map[string]any{"file_path": abs, "old_string": old, "new_string": new})
		})
	hosts[driver.Gemini].tools["patch"] = fileCall(
		func(abs, content, _, _ string) fakemodel.Call {
			return call("write_file", map[string]any{"file_path": abs, "content": content})
		},
		func(abs, _, old, new string) fakemodel.Call {
			return call("replace", map[string]any{"file_path": abs, "instruction": "fake edit", "old_string": old, "new_string": new})
		})
	hosts[driver.Claude].tools["shellin"] = func(a action, _ string) fakemodel.Call {
		return call("Bash", map[string]any{"command": a.text, "description": "fake call"})
	}
	hosts[driver.Gemini].tools["shellin"] = func(a action, _ string) fakemodel.Call {
		return call("run_shell_command", map[string]any{"command": a.text, "description": "fake call", "dir_path": a.path})
	}
	hosts[driver.Qwen].tools["shellin"] = func(a action, abs string) fakemodel.Call {
		return call("run_shell_command", map[string]any{"command": a.text, "description": "fake call", "is_background": false, "directory": abs})
	}
}

func touchesScenarios() []*scenario {
	var list []*scenario
	// Claude: only paths under the project, never its .env; the payload's
	// cwd is the project.
	claudeGuard := readInput + "LABEL=guard\n" + logInput +
		`fp=$(printf '%s' "$input" | sed -n 's/.*"file_path":"\([^"]*\)".*/\1/p')` + "\n" +
		`cwd=$(printf '%s' "$input" | sed -n 's/.*"cwd":"\([^"]*\)".*/\1/p')` + "\n" +
		"case \"$fp\" in\n" +
		"\"$cwd\"/.env) echo 'PATCH-GUARD: .env is off limits' >&2; exit 2;;\n" +
		"\"$cwd\"/*) exit 0;;\n" +
		"*) echo \"PATCH-GUARD: $fp is outside the project\" >&2; exit 2;;\n" +
		"esac\n"
	claudeSteps := []action{
		patchAction("add", ".env", "", "", "SECRET=stolen"),
		patchAction("update", "sub/../.env", "", "SECRET=kept", "SECRET=edited"),
		patchAction("add", "../outside.txt", "", "", "escaped"),
		patchAction("move", "notes.txt", ".env", "note", "SECRET=moved"),
		patchAction("add", "ok.txt", "", "", "fine"),
	}
	list = append(list, &scenario{
		name: "patch-guard/claude-exit2", dialect: driver.Claude, steps: claudeSteps, to: []driver.Agent{driver.Codex}, noPeer: true,
		files:   map[string]string{".env": "SECRET=kept\n", "notes.txt": "note\n"},
		hooks:   []hookDef{{event: "PreToolUse", matcher: "Write|Edit", script: "guard"}},
		scripts: map[string]string{"guard": claudeGuard},
		check:   patchGuardCheck(".env", 4),
	})
	// A guard as many are written: a file_path ending in /.env. Claude
	// sends it absolute, so it matches; a relative or padded path that
	// reached it as written (b20418e) did not.
	suffixGuard := readInput + "LABEL=guard\n" + logInput + "case \"$input\" in *'\"file_path\":\"'*'/.env\"'*)\n" +
		"echo 'PATCH-GUARD: .env is off limits' >&2; exit 2;;\nesac\nexit 0\n"
	list = append(list, &scenario{
		name: "patch-guard/claude-env-suffix", dialect: driver.Claude, to: []driver.Agent{driver.Codex}, noPeer: true,
		steps: []action{
			patchAction("update", ".env", "", "SECRET=kept", "SECRET=edited"),
			patchAction("update", ".env ", "", "SECRET=kept", "SECRET=padded"),
			patchAction("add", "ok.txt", "", "", "fine"),
		},
		files:   map[string]string{".env": "SECRET=kept\n"},
		hooks:   []hookDef{{event: "PreToolUse", matcher: "Write|Edit", script: "guard"}},
		scripts: map[string]string{"guard": suffixGuard},
		check:   patchGuardCheck(".env", 2),
	})
	// Gemini refuses a .env path itself: its guard protects prod.env, as
	// the model wrote it (Gemini's hooks get paths as written).
	geminiGuard := readInput + "LABEL=guard\n" + logInput + "case \"$input\" in *'prod.env\"'*)\n" +
		emit(`{"decision":"deny","reason":"PATCH-GUARD: prod.env is off limits"}`) + ";;\nesac\nexit 0\n"
	geminiSteps := []action{
		patchAction("add", "prod.env", "", "", "SECRET=stolen"),
		patchAction("update", "prod.env ", "", "SECRET=kept", "SECRET=padded"),
		patchAction("update", "sub/../prod.env", "", "SECRET=kept", "SECRET=edited"),
		patchAction("move", "notes.txt", "prod.env", "note", "SECRET=moved"),
		patchAction("add", "ok.txt", "", "", "fine"),
	}
	list = append(list, &scenario{
		name: "patch-guard/gemini-deny", dialect: driver.Gemini, steps: geminiSteps, to: []driver.Agent{driver.Codex}, noPeer: true,
		files:   map[string]string{"prod.env": "SECRET=kept\n", "notes.txt": "note\n"},
		hooks:   []hookDef{{event: "BeforeTool", matcher: "write_file|replace", script: "guard"}},
		scripts: map[string]string{"guard": geminiGuard},
		check:   patchGuardCheck("prod.env", 4),
	})

	// rm only at the project root (named "project", the default).
	rmGuard := readInput + "LABEL=guard\n" + logInput +
		`cwd=$(printf '%s' "$input" | sed -n 's/.*"cwd":"\([^"]*\)".*/\1/p')` + "\n" +
		"case \"$input\" in *'rm -rf'*)\n" +
		"  case \"$cwd\" in */project) ;; *) echo \"RM-GUARD: rm only at the project root, not in $cwd\" >&2; exit 2;; esac;;\n" +
		"esac\nexit 0\n"
	list = append(list, &scenario{
		name: "shell-dir/claude-rm-at-root", dialect: driver.Claude, to: []driver.Agent{driver.Gemini, driver.Qwen}, noPeer: true,
		steps:   []action{shell("cd sub"), shellIn("sub", "rm -rf docs")},
		files:   map[string]string{"sub/docs/a.txt": "keep\n"},
		hooks:   []hookDef{{event: "PreToolUse", matcher: "Bash", script: "guard"}},
		scripts: map[string]string{"guard": rmGuard},
		check: func(o *outcome) []string {
			var p []string
			if !o.exists("sub/docs/a.txt") {
				p = append(p, "sub/docs was removed: the guard did not see the directory the command ran in")
			}
			rs := lastResults(o)
			if len(rs) != 2 || !strings.Contains(rs[1].Text, "RM-GUARD") {
				p = append(p, fmt.Sprintf("the rm's result lacks the guard's reason RM-GUARD: %v", rs))
			}
			return p
		},
	})
	return list
}

// patchGuardCheck: file kept, every refused call's result carries a reason
// (the guard's, or hookx's for a move, which no edit call can show), the
// last, harmless write went through.
func patchGuardCheck(file string, refused int) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		if b, _ := os.ReadFile(o.sb.Path(file)); string(b) != "SECRET=kept\n" {
			p = append(p, fmt.Sprintf("%s = %q: the guard did not hold", file, b))
		}
		if b, _ := os.ReadFile(o.sb.Path("ok.txt")); !strings.HasPrefix(string(b), "fine") {
			p = append(p, fmt.Sprintf("ok.txt = %q, want the harmless write to go through", b))
		}
		if _, err := os.Stat(o.sb.Path("../outside.txt")); err == nil {
			p = append(p, "../outside.txt was written")
		}
		rs := lastResults(o)
		if len(rs) != refused+1 {
			return append(p, fmt.Sprintf("the model got %d tool results, want %d", len(rs), refused+1))
		}
		for i := range refused {
			if !strings.Contains(rs[i].Text, "PATCH-GUARD") && !strings.Contains(rs[i].Text, "guard cannot check") {
				p = append(p, fmt.Sprintf("refused call %d's result %q lacks the guard's reason", i, rs[i].Text))
			}
		}
		return p
	}
}
