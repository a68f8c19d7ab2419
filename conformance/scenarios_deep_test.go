//go:build unix

package conformance

import (
	"os"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// deepInputScenarios: the model's shell call carries an argument nested
// 10,001 arrays deep (issue 23, item 7). Go's encoding/json stops at
// 10,000 levels; Factory Droid's runtime (Bun) reads and writes it, so its
// hooks get it. A guard run through hookx under --host auto (and named) must
// block `rm -rf build` exactly as Droid's own guard does (the native
// oracle): before, hookx could not read the event nor tell the host.
func deepInputScenarios() []*scenario {
	const depth = 10_001
	steps := []action{{kind: "shell", text: "rm -rf build", deep: depth}, shell("printf ALLOW%s -RAN")}
	ref := hosts[driver.Droid].projectRef + "/" + hosts[driver.Droid].hookDir + "/"
	logged := "LABEL=guard\n" + logInput
	claudeGuard := onDangerous(logged + "echo 'DEEP-GUARD: rm -rf build is forbidden' >&2; exit 2")
	geminiGuard := onDangerous(logged + emit(`{"decision":"deny","reason":"DEEP-GUARD: rm -rf build is forbidden"}`))
	// sawDeep adds to guardCheck whether the guard got the argument whole:
	// Droid's own does; Claude's Bash and Gemini's shell tool have no such
	// argument, so hookx does not pass it on (a finding).
	sawDeep := func(want bool) func(o *outcome) []string {
		return func(o *outcome) []string {
			p := guardCheck("DEEP-GUARD")(o)
			logs := o.hookLogs("guard.")
			if len(logs) != 1 {
				return append(p, "the guard ran "+strings.Repeat("I", len(logs))+" times, want once")
			}
			b, _ := os.ReadFile(logs[0])
			deep := strings.Contains(string(b), strings.Repeat("[", depth)+strings.Repeat("]", depth))
			if deep != want {
				p = append(p, "the guard's input holds the 10,001-level argument: "+map[bool]string{true: "yes", false: "no"}[deep])
			}
			return p
		}
	}
	wrapped := func(flags, script string) hookDef {
		return hookDef{event: "PreToolUse", matcher: "Execute", raw: "hookx wrap " + flags + " -- " + ref + script + ".sh"}
	}
	files := map[string]string{"build/keep.txt": "keep\n"}
	return []*scenario{
		{
			name: "deep-input/droid-native", dialect: driver.Droid, steps: steps, to: []driver.Agent{}, files: files,
			hooks:   []hookDef{{event: "PreToolUse", matcher: "Execute", script: "guard"}},
			scripts: map[string]string{"guard": claudeGuard},
			check:   sawDeep(true),
		},
		{
			name: "deep-input/droid-wrap-claude-auto", dialect: driver.Droid, steps: steps, to: []driver.Agent{}, files: files, needsHookx: true,
			hooks:   []hookDef{wrapped("--from claude --host auto", "guard")},
			scripts: map[string]string{"guard": claudeGuard},
			check:   sawDeep(false),
		},
		{
			name: "deep-input/droid-wrap-gemini-auto", dialect: driver.Droid, steps: steps, to: []driver.Agent{}, files: files, needsHookx: true,
			hooks:   []hookDef{wrapped("--from gemini --host auto", "guard")},
			scripts: map[string]string{"guard": geminiGuard},
			check:   sawDeep(false),
		},
		{
			name: "deep-input/droid-wrap-gemini-named", dialect: driver.Droid, steps: steps, to: []driver.Agent{}, files: files, needsHookx: true,
			hooks:   []hookDef{wrapped("--from gemini --host droid", "guard")},
			scripts: map[string]string{"guard": geminiGuard},
			check:   sawDeep(false),
		},
	}
}
