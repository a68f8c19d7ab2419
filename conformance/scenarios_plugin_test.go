//go:build unix

package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/mappings"
)

// pluginHostScenarios prove, live and offline, a plugin host (issue 29: Pi,
// OpenCode, Kilo Code; hostSpec.plugin) running the hooks of the other
// agents as `hookx migrate --from <dialect> --to <host>` writes them: the
// generated plugin and its entries file, nothing by hand. The family is
// named after the host (pi/…). Each guard also runs natively on its own
// agent, the oracle of what the host must do:
//
//   - <host>/claude-exit2, <host>/claude-permissionDecision-deny,
//     <host>/gemini-decision-deny, <host>/codex-permissionDecision-deny: a
//     shell guard blocks `rm -rf build` (it must not run, the guard's reason
//     must reach the model) and lets a harmless command run (its output
//     reaches the model);
//   - <host>/claude-file-guard: a Claude Write|Edit guard refuses a write
//     and an edit of .env through the host's own file tools, and lets a
//     harmless write and a read through;
//   - <host>/claude-rewrite: a Claude updatedInput rewrite; the rewritten
//     command runs, the original does not;
//   - <host>/claude-awkward-dir: a Claude guard in a project directory named
//     `My Project's; touch INJECTED;`: it blocks, the harmless command runs,
//     and the name never runs as code;
//   - <host>/hookx-missing: the migrated guard with hookx not on the host's
//     PATH (no native run): the plugin fails closed, the call is refused
//     with the reason, and the command does not run.
func pluginHostScenarios(host driver.Agent) []*scenario {
	to := []driver.Agent{host}
	fam := string(host) + "/"
	tag := strings.ToUpper(string(host))
	guard := func(name string, d driver.Agent, body, marker string) *scenario {
		hs := hosts[d]
		return &scenario{
			name: fam + name, dialect: d, to: to, noPeer: true, steps: guardSteps,
			hooks:   []hookDef{{event: hs.preTool, matcher: hs.shellMatcher, script: "guard"}},
			scripts: map[string]string{"guard": "LABEL=guard\n" + onDangerousLogged(body)},
			files:   map[string]string{"build/keep.txt": "keep\n"},
			check:   guardCheck(marker),
		}
	}
	deny := func(event, marker string) string {
		return emit(`{"hookSpecificOutput":{"hookEventName":"` + event + `","permissionDecision":"deny","permissionDecisionReason":"` + marker + `: rm -rf build is forbidden"}}`)
	}
	m := func(s string) string { return "GUARD-" + tag + "-" + s }
	fileReason := m("FILE")
	awkward := guard("claude-awkward-dir", driver.Claude, deny("PreToolUse", m("AWK")), m("AWK"))
	awkward.projectName = awkwardProject
	awkward.hooks[0].raw = `"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`
	awkward.check = and(awkward.check, noInjection)
	missing := guard("hookx-missing", driver.Claude, "echo '"+m("MISSING")+": rm -rf build is forbidden' >&2; exit 2", m("MISSING"))
	missing.noNative, missing.hideHookx = true, true
	missing.steps = []action{shell("touch ran.marker; printf ALLOW%s -RAN")}
	missing.check = failedClosed
	list := []*scenario{
		guard("claude-exit2", driver.Claude, "echo '"+m("C-EXIT2")+": rm -rf build is forbidden' >&2; exit 2", m("C-EXIT2")),
		guard("claude-permissionDecision-deny", driver.Claude, deny("PreToolUse", m("C-DENY")), m("C-DENY")),
		guard("gemini-decision-deny", driver.Gemini, emit(`{"decision":"deny","reason":"`+m("G-DENY")+`: rm -rf build is forbidden"}`), m("G-DENY")),
		guard("codex-permissionDecision-deny", driver.Codex, deny("PreToolUse", m("X-DENY")), m("X-DENY")),
		{
			name: fam + "claude-file-guard", dialect: driver.Claude, to: to, noPeer: true,
			steps:   []action{write(".env", "SECRET=stolen\n"), edit(".env", "SECRET=kept", "SECRET=edited"), write("ok.txt", "fine\n"), read("ok.txt")},
			files:   map[string]string{".env": "SECRET=kept\n"},
			hooks:   []hookDef{{event: "PreToolUse", matcher: "Write|Edit", script: "guard"}},
			scripts: map[string]string{"guard": readInput + "LABEL=guard\n" + logInput + "case \"$input\" in *'.env\"'*)\n" + emit(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"`+fileReason+`: .env is off limits"}}`) + ";;\nesac\nexit 0\n"},
			check:   fileGuardCheck(".env", fileReason),
		},
		{
			name: fam + "claude-rewrite", dialect: driver.Claude, to: to, noPeer: true,
			steps:   []action{shell("printf ORIG%s -RAN")},
			hooks:   []hookDef{{event: "PreToolUse", matcher: "Bash", script: "rewrite"}},
			scripts: map[string]string{"rewrite": readInput + "case \"$input\" in *ORIG*) " + emit(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"printf REWR%s -OK"}}}`) + ";; esac\n"},
			check:   rewritten,
		},
		awkward,
		missing,
	}
	// Where the host has an event after the tool that carries context to
	// the model (Pi's tool_result), a Claude PostToolUse hook's
	// additionalContext must reach the model beside the tool's output.
	if ev, _ := mappings.Default().MustDialect(string(host)).EventFor("tool.after"); ev != nil && ev.Output.Context == "model" {
		marker := m("POSTCTX")
		list = append(list, &scenario{
			name: fam + "claude-posttool-context", dialect: driver.Claude, to: to, noPeer: true,
			steps:   []action{shell("printf POST%s -OUT")},
			hooks:   []hookDef{{event: "PostToolUse", matcher: "Bash", script: "post"}},
			scripts: map[string]string{"post": "cat >/dev/null\n" + emit(`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"`+marker+`: mind the output"}}`)},
			check: func(o *outcome) []string {
				last := o.srv.LastMain()
				if last == nil || !strings.Contains(last.AllText(), marker) || !strings.Contains(last.AllText(), "POST-OUT") {
					return []string{fmt.Sprintf("the model's request after the tool lacks the hook's context %s or the output POST-OUT", marker)}
				}
				return nil
			},
		})
	}
	return list
}

// guardSteps: the model first runs `rm -rf build` (to be refused), then a
// harmless command (to run).
var guardSteps = []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN")}

// onDangerousLogged is onDangerous with the hook's stdin logged (LABEL
// set before it).
func onDangerousLogged(body string) string {
	return readInput + logInput + "case \"$input\" in\n*'rm -rf build'*)\n" + body + "\n;;\nesac\nexit 0\n"
}

// and runs both checks.
func and(a, b func(o *outcome) []string) func(o *outcome) []string {
	return func(o *outcome) []string { return append(a(o), b(o)...) }
}

// noInjection: no INJECTED file appeared (awkwardProject ran as code).
func noInjection(o *outcome) []string {
	var p []string
	for _, dir := range []string{o.sb.Project, o.sb.Home, filepath.Dir(o.sb.Project)} {
		if _, err := os.Stat(filepath.Join(dir, "INJECTED")); err == nil {
			p = append(p, "the project directory's name ran as code: "+filepath.Join(dir, "INJECTED")+" exists")
		}
	}
	return p
}

// rewritten: the rewritten command ran and the original did not.
func rewritten(o *outcome) []string {
	rs := lastResults(o)
	if len(rs) != 1 {
		return []string{fmt.Sprintf("the model got %d tool results, want 1", len(rs))}
	}
	var p []string
	if strings.Contains(rs[0].Text, "ORIG-RAN") {
		p = append(p, "the original command ran")
	}
	if !strings.Contains(rs[0].Text, "REWR-OK") {
		p = append(p, fmt.Sprintf("the rewritten command's output REWR-OK did not reach the model; it got %q", rs[0].Text))
	}
	return p
}

// failedClosed: with hookx not to be found, the guarded call was refused
// with the plugin's reason and did not run.
func failedClosed(o *outcome) []string {
	var p []string
	if o.exists("ran.marker") {
		p = append(p, "the command ran although hookx could not be started (the guard failed open)")
	}
	rs := lastResults(o)
	if len(rs) != 1 {
		return append(p, fmt.Sprintf("the model got %d tool results, want 1", len(rs)))
	}
	if !strings.Contains(rs[0].Text, "failed closed") || !strings.Contains(rs[0].Text, "hookx") || strings.Contains(rs[0].Text, "ALLOW-RAN") {
		p = append(p, fmt.Sprintf("the refused call's result %q does not say the hookx guard failed closed", rs[0].Text))
	}
	return p
}

// openCodeKiloScenarios are the few of Pi's plugin-host scenarios that
// also run on OpenCode 1.18.33 and Kilo Code 7.7.9 (issue 29), sharing
// Pi's native runs: a Claude exit-2 guard, a Claude permissionDecision
// guard in the awkward directory (blocks
// `rm -rf build` with the reason reaching the model, lets the harmless
// command run, the name never runs as code), a Codex guard, a Gemini guard,
// a Claude file guard on the write and edit tools, the rewrite, a Claude
// PostToolUse hook's context reaching the model after the tool
// (tool.execute.after), and hookx missing (fails closed). An OpenCode run
// is about 10 s, a Kilo run about 20 s, so not the whole family.
var openCodeKiloScenarios = []string{
	"pi/claude-exit2", "pi/claude-awkward-dir", "pi/codex-permissionDecision-deny", "pi/gemini-decision-deny", "pi/claude-file-guard",
	"pi/claude-rewrite", "pi/claude-posttool-context", "pi/hookx-missing",
}

// alsoToOpenCodeKilo adds OpenCode and Kilo to the targets of
// openCodeKiloScenarios.
func alsoToOpenCodeKilo(list []*scenario) {
	for _, sc := range list {
		if slices.Contains(openCodeKiloScenarios, sc.name) {
			sc.to = append(slices.Clip(sc.to), driver.OpenCode, driver.Kilo)
		}
	}
}
