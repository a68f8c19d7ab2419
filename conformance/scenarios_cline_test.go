//go:build unix

package conformance

import (
	"fmt"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/mappings"
)

// clineScenarios prove Cline 3.0.65 live both ways (issue 30), with as few
// Cline runs as that takes (each costs 10-30 s):
//
//   - cline/<dialect>-guard-on-cline: a Claude, Gemini and Codex shell guard,
//     each natively on its own agent (the oracle) and on Cline as
//     `hookx migrate --from <dialect> --to cline` writes it: its entry in
//     .clinerules/hooks/hookx.hooks.json and the PreToolUse dispatcher that
//     runs `hookx dispatch` (the same file Cline runs, nothing by hand). The
//     model first runs a harmless command (it must run and its output reach
//     the model), then `rm -rf build`: it must not run, the model's next
//     request must carry the guard's reason, and the task must go on (the
//     overrideInput deny, as cline/cline-overrideInput does natively).
//   - cline/cline-cancel: a Cline hook answering {"cancel":true,
//     "errorMessage":…} natively on Cline (the oracle: the tool does not
//     run and the task ends) and wrapped onto Claude and Gemini with
//     `hookx wrap --from cline`: the tool does not run, and the turn ends
//     there too where the host can end it (the table's stop).
//   - cline/cline-overrideInput: a Cline hook answering overrideInput with
//     a command that only prints the reason, natively: the oracle of the
//     answer hookx gives a shell deny once the call can be replaced (the
//     task goes on, the model gets the reason).
//   - cline/claude-exit2-unwrapped: the negative control, a Claude guard put
//     straight into Cline's hook file: it fires, sees the command, blocks
//     with exit 2 and a reason, and Cline runs the command anyway (it
//     reads no exit code).
func clineScenarios() []*scenario {
	cl := driver.Cline
	toCline := []driver.Agent{cl}
	steps := []action{shell("printf ALLOW%s -RAN; sleep 0.3"), shell("rm -rf build")}
	files := map[string]string{"build/keep.txt": "keep\n"}
	guard := func(name string, d driver.Agent, body, marker string) *scenario {
		hs := hosts[d]
		return &scenario{
			name: name, dialect: d, to: toCline, noPeer: true, steps: steps, files: files,
			hooks:   []hookDef{{event: hs.preTool, matcher: hs.shellMatcher, script: "guard"}},
			scripts: map[string]string{"guard": "LABEL=guard\n" + readInput + logInput + "case \"$input\" in\n*'rm -rf build'*)\n" + body + "\n;;\nesac\nexit 0\n"},
			check:   clineGuardCheck(marker),
		}
	}
	clineHook := func(body string) map[string]string {
		return map[string]string{"PreToolUse": "LABEL=cline\n" + readInput + logInput +
			"case \"$input\" in\n*'rm -rf build'*)\n" + body + "\n;;\nesac\nexit 0\n"}
	}
	return []*scenario{
		guard("cline/claude-guard-on-cline", driver.Claude,
			"echo 'GUARD-CL-C: rm -rf build is forbidden' >&2; exit 2", "GUARD-CL-C"),
		guard("cline/gemini-guard-on-cline", driver.Gemini,
			emit(`{"decision":"deny","reason":"GUARD-CL-G: rm -rf build is forbidden"}`), "GUARD-CL-G"),
		guard("cline/codex-guard-on-cline", driver.Codex,
			emit(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"GUARD-CL-X: rm -rf build is forbidden"}}`), "GUARD-CL-X"),
		{
			name: "cline/cline-cancel", dialect: cl, to: []driver.Agent{driver.Claude, driver.Gemini}, steps: steps, files: files,
			hooks:   []hookDef{{event: "PreToolUse", script: "PreToolUse"}},
			scripts: clineHook(emit(`{"cancel":true,"errorMessage":"GUARD-CL-CANCEL: rm -rf build is forbidden"}`)),
			check:   clineCancelCheck("GUARD-CL-CANCEL"),
		},
		{
			// What hookx answers for a shell deny once the call can be
			// replaced (issue 30): the command becomes one that only prints
			// the reason, and the task goes on with the model told why.
			name: "cline/cline-overrideInput", dialect: cl, to: []driver.Agent{}, steps: steps, files: files,
			hooks:   []hookDef{{event: "PreToolUse", script: "PreToolUse"}},
			scripts: clineHook(emit(`{"overrideInput":{"commands":["printf '%s\\n' 'GUARD-CL-OVR: rm -rf build is forbidden'"]},"context":"GUARD-CL-OVR: rm -rf build is forbidden"}`)),
			check:   clineGuardCheck("GUARD-CL-OVR"),
		},
		{
			// A Claude Read guard that refuses one file by its absolute
			// path, as Claude Code gives it; Cline's model reads it as
			// <project>/sub/../secret.txt, which Cline reads as
			// <project>/secret.txt (core@215082). hookx showed the guard
			// the path as written, and the guard let it through (d8237c0);
			// it now gets the path Cline reads.
			name: "cline/claude-read-guard-on-cline", dialect: driver.Claude, to: toCline, noPeer: true,
			steps: []action{read("sub/../secret.txt")},
			files: map[string]string{"secret.txt": "SECRET-CL-R\n", "sub/keep.txt": "keep\n"},
			hooks: []hookDef{{event: hosts[driver.Claude].preTool, matcher: "Read", script: "guard"}},
			scripts: map[string]string{"guard": "LABEL=guard\n" + readInput + logInput +
				"case \"$input\" in\n*'\"file_path\":\"'\"$PWD/secret.txt\"'\"'*)\necho 'GUARD-CL-R: secret.txt is not to be read' >&2; exit 2\n;;\nesac\nexit 0\n"},
			check: func(o *outcome) []string {
				p := noLeak(o)
				if len(o.hookLogs("guard.")) == 0 {
					p = append(p, "the guard did not run")
				}
				for i, r := range o.srv.Main() {
					if strings.Contains(r.AllText(), "SECRET-CL-R") {
						p = append(p, fmt.Sprintf("model request %d carries secret.txt's content: the guard did not block the read", i+1))
					}
				}
				return p
			},
		},
		{
			name: "cline/claude-exit2-unwrapped", dialect: cl, to: []driver.Agent{}, steps: steps, files: files,
			hooks:   []hookDef{{event: "PreToolUse", script: "PreToolUse"}},
			scripts: clineHook("echo 'GUARD-CL-RAW: rm -rf build is forbidden' >&2; exit 2"),
			check:   clineIgnoresExitCode,
		},
	}
}

// handWrap writes, for a dialect whose hooks hookx migrate does not read
// (hostSpec.noMigrateFrom: Cline's hook files), what docs/cline.md tells
// users to write: each hook of the scenario behind `hookx wrap --from
// <dialect> --host <host>`, on the host's event for it (the table's
// mapping), in the host's settings.
func handWrap(sb *driver.Sandbox, sc *scenario, host driver.Agent, log *strings.Builder) []string {
	tbl := mappings.Default()
	from, to := tbl.MustDialect(string(sc.dialect)), tbl.MustDialect(string(host))
	hs := hosts[host]
	if hs.hookFiles {
		return []string{fmt.Sprintf("handWrap writes settings, and %s's hooks are files: hookx migrate writes them", host)}
	}
	var hooks []hookDef
	for _, h := range sc.hooks {
		m, err := tbl.MapEvent(from, to, h.event)
		if err != nil || m.To == nil {
			return []string{fmt.Sprintf("%s's %s has no event in %s: %v", sc.dialect, h.event, host, err)}
		}
		cmd := "hookx wrap --from " + string(sc.dialect) + " --host " + string(host)
		if h.matcher != "" {
			cmd += " --match " + shq(h.matcher)
		}
		cmd += " -- " + shq(sc.command(h))
		hooks = append(hooks, hookDef{event: m.To.Name, raw: cmd})
	}
	if err := sb.WriteJSON(hs.settings, hs.render(hooks, func(h hookDef) string { return h.raw }, hs.timeout)); err != nil {
		return []string{err.Error()}
	}
	fmt.Fprintf(log, "wrote %s by hand (hookx migrate does not read %s hooks)\n", hs.settings, sc.dialect)
	return nil
}

// shq quotes s for sh, in single quotes.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// afterBlock: the model's requests, in order: 0 asks for the harmless
// command, 1 (with its output) for rm -rf build, 2 (if the task went on)
// gets the blocked call's result.
func afterBlock(o *outcome) (next string, wentOn bool) {
	m := o.srv.Main()
	if len(m) < 3 {
		return "", false
	}
	return m[2].AllText(), true
}

// harmlessRan: the harmless command's output reached the model.
func harmlessRan(o *outcome) []string {
	m := o.srv.Main()
	if len(m) < 2 || !strings.Contains(m[1].AllText(), "ALLOW-RAN") {
		return []string{"the harmless command's output ALLOW-RAN did not reach the model"}
	}
	return nil
}

// noLeak: no process of the run is left (Cline's hub daemon included).
func noLeak(o *outcome) []string {
	if left := o.sb.Running(); len(left) > 0 {
		return []string{fmt.Sprintf("processes of the run still running after it: %v", left)}
	}
	return nil
}

// clineGuardCheck: the harmless command ran, rm -rf build did not, and the
// model's next request holds the guard's reason, as in the guard's own
// agent. Whether the task went on is logged: Cline's cancel ends it before
// the model hears of the reason (a failure here), an overrideInput that
// only prints the reason lets it go on.
func clineGuardCheck(marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		p := append(harmlessRan(o), noLeak(o)...)
		if !o.exists("build/keep.txt") {
			p = append(p, "the guard did not block: build/ was removed")
		}
		next, wentOn := afterBlock(o)
		switch {
		case !wentOn:
			p = append(p, fmt.Sprintf("the task ended after the blocked call (%d model requests): the model never got the guard's reason %s", len(o.srv.Main()), marker))
		case !strings.Contains(next, marker):
			p = append(p, fmt.Sprintf("the task went on, but the model's next request lacks the guard's reason %s", marker))
		}
		o.note = fmt.Sprintf("task went on after the block: %v (%d model requests)", wentOn, len(o.srv.Main()))
		return p
	}
}

// clineCancelCheck: a Cline hook's cancel: the harmless command ran,
// rm -rf build did not, and the task ended right after the refused call
// where the host can end it (the table's tool.before stop: Cline itself,
// Claude, Gemini); elsewhere the model got the reason.
func clineCancelCheck(marker string) func(o *outcome) []string {
	return func(o *outcome) []string {
		p := append(harmlessRan(o), noLeak(o)...)
		if !o.exists("build/keep.txt") {
			p = append(p, "the hook did not block: build/ was removed")
		}
		ev, _ := mappings.Default().MustDialect(string(o.host)).EventFor("tool.before")
		next, wentOn := afterBlock(o)
		switch {
		case ev != nil && ev.Output.Stop && wentOn:
			p = append(p, fmt.Sprintf("the task went on after the cancel (%d model requests), which %s can end", len(o.srv.Main()), o.host))
		case (ev == nil || !ev.Output.Stop) && !strings.Contains(next, marker):
			p = append(p, fmt.Sprintf("the model did not get the reason %s", marker))
		}
		o.note = fmt.Sprintf("task went on after the cancel: %v (%d model requests)", wentOn, len(o.srv.Main()))
		return p
	}
}

// clineIgnoresExitCode: the negative control. The hook fired on both calls
// and saw rm -rf build, and Cline ran it all the same.
func clineIgnoresExitCode(o *outcome) []string {
	p := append(harmlessRan(o), noLeak(o)...)
	if n := len(o.hookLogs("cline.")); n != 2 {
		p = append(p, fmt.Sprintf("the Cline hook ran %d times, want 2", n))
	}
	if o.exists("build/keep.txt") {
		p = append(p, "build/ survived: Cline honoured a hook's exit 2, which it is known to ignore")
	}
	return p
}
