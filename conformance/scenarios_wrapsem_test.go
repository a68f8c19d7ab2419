//go:build unix

package conformance

import (
	"fmt"
	"os"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// wrapsemScenarios are the scenarios of issue 8 items 5 to 7: which
// post-tool hooks fire for a failed call, stop_hook_active after a
// continuation that used tools, and hooks that ask not to be waited for.
func wrapsemScenarios() []*scenario {
	var list []*scenario

	// A successful and a failing shell command. Claude fires PostToolUse for
	// the first and PostToolUseFailure for the second; Gemini fires AfterTool
	// for both (a failed command is an "Exit Code: N" line, reference README
	// fact 13).
	kindSteps := []action{shell("printf OK%s -RAN"), shell("printf FAIL%s -RAN; exit 3")}
	logAs := func(label string) string { return readInput + "LABEL=" + label + "\n" + logInput }
	list = append(list,
		&scenario{
			name: "posttool-kind/claude-success-and-failure", dialect: driver.Claude, steps: kindSteps,
			hooks: []hookDef{
				{event: "PostToolUse", matcher: "Bash", script: "ok"},
				{event: "PostToolUseFailure", matcher: "Bash", script: "failed"},
			},
			scripts: map[string]string{"ok": logAs("ok"), "failed": logAs("failed")},
			check: func(o *outcome) []string {
				return append(firedFor(o, "ok", kindSteps[0].text), firedFor(o, "failed", kindSteps[1].text)...)
			},
		},
		&scenario{
			name: "posttool-kind/gemini-aftertool-on-failure", dialect: driver.Gemini, steps: kindSteps,
			hooks:   []hookDef{{event: "AfterTool", matcher: "run_shell_command", script: "after"}},
			scripts: map[string]string{"after": logAs("after")},
			check: func(o *outcome) []string {
				return firedFor(o, "after", kindSteps[1].text, kindSteps[0].text)
			},
		},
	)

	// A stop hook that blocks once "unless stop_hook_active", as Claude's
	// docs recommend; the continuation uses a tool. Claude says true on the
	// next Stop, Gemini false (live 2026-11-23). Claude: the hook blocks
	// once, 3 model calls; Gemini: it blocks again after the tool-using
	// continuation, and once more is text only: 4 model calls.
	stopSteps := []action{say("first answer"), shell("printf CONT%s -RAN"), say("second answer")}
	unlessActive := func(out string) string {
		return readInput + "LABEL=stop\n" + logInput +
			"case \"$input\" in *'\"stop_hook_active\":true'*|*'\"stop_hook_active\": true'*) exit 0;; esac\n" + emit(out)
	}
	calls := func(n int) func(o *outcome) []string {
		return func(o *outcome) []string {
			if got := len(o.srv.Main()); got != n {
				return []string{fmt.Sprintf("the model was called %d times, want %d", got, n)}
			}
			return nil
		}
	}
	list = append(list,
		&scenario{
			name: "stop-tools/claude-block-unless-active", dialect: driver.Claude, steps: stopSteps,
			hooks:   []hookDef{{event: "Stop", script: "stop"}},
			scripts: map[string]string{"stop": unlessActive(`{"decision":"block","reason":"STOP-TOOLS-C: run the check"}`)},
			maxMain: 15,
			check:   calls(3),
		},
		&scenario{
			name: "stop-tools/gemini-deny-unless-active", dialect: driver.Gemini, steps: stopSteps,
			hooks:   []hookDef{{event: "AfterAgent", script: "stop"}},
			scripts: map[string]string{"stop": unlessActive(`{"decision":"deny","reason":"STOP-TOOLS-G: run the check"}`)},
			maxMain: 15,
			check:   calls(4),
		},
	)

	// A hook whose first stdout line is {"async":true}, on the first of two
	// shell commands. Claude does not wait for it: the second command runs
	// while the hook still polls for its marker. Gemini has no such rule and
	// waits for the hook, which gives up after 12 s by the clock (under
	// load Claude took 3–16 s a run, so 60 polls could end first; Claude
	// ends an async hook at 15 s). No timing is measured:
	// the hook itself sees whether the host went on without it. A third
	// command holds the host until the hook has finished looking (it marks
	// async-done either way), so the host's exit cannot end the hook before
	// it sees the marker (CI failed so on a loaded machine); under a host
	// that waited for the hook, async-done is there already.
	asyncSteps := []action{
		shell("printf ASYNC%s -RAN"), shell("touch next.marker"),
		shell(`end=$(($(date +%s)+30)); until [ -e "$HOME/async-done" ] || [ "$(date +%s)" -ge "$end" ]; do sleep 0.1; done`),
	}
	asyncHook := readInput + "case \"$input\" in *ASYNC*) ;; *) exit 0;; esac\n" +
		"touch \"$HOME/async-started\"\necho '{\"async\":true}'\n" +
		"trap 'touch \"$HOME/async-done\"' EXIT\n" +
		"end=$(($(date +%s)+12))\nwhile [ \"$(date +%s)\" -lt \"$end\" ]; do\n" +
		"  if [ -e \"$HOME/project/next.marker\" ]; then touch \"$HOME/async-overlapped\"; exit 0; fi\n" +
		"  sleep 0.1\ndone\n"
	asyncCheck := func(waited bool) func(o *outcome) []string {
		return func(o *outcome) []string {
			var p []string
			if _, err := os.Stat(o.sb.Home + "/async-started"); err != nil {
				p = append(p, "the hook did not run")
			}
			if !o.exists("next.marker") {
				p = append(p, "the second command did not run")
			}
			_, err := os.Stat(o.sb.Home + "/async-overlapped")
			if overlapped := err == nil; overlapped == waited {
				p = append(p, fmt.Sprintf("the host went on while the hook ran: %v, want %v", overlapped, !waited))
			}
			return p
		}
	}
	list = append(list,
		&scenario{
			name: "async/claude-first-line-not-waited-for", dialect: driver.Claude, steps: asyncSteps,
			hooks:   []hookDef{{event: "PostToolUse", matcher: "Bash", script: "async"}},
			scripts: map[string]string{"async": asyncHook},
			check:   asyncCheck(false),
		},
		&scenario{
			name: "async/gemini-waited-for", dialect: driver.Gemini, steps: asyncSteps,
			hooks:   []hookDef{{event: "AfterTool", matcher: "run_shell_command", script: "async"}},
			scripts: map[string]string{"async": asyncHook},
			check:   asyncCheck(true),
		},
	)
	return list
}
