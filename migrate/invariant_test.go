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

// TestMigratedMatcherAndWrappedEventAgree checks an invariant of the table,
// over every ordered pair of dialects and every tool event: if a hook's
// matcher, migrated to the host, fires on host tool T, then the event wrap
// gives that hook for T (with the --match migrate wrote) names a tool the
// hook's original matcher matches, as the hook's own agent reads it, with
// that tool's argument names. Where no tool fits, wrap skips the hook and
// migrate's report names T; where T runs commands or changes files with no
// counterpart in the hook's agent, wrap blocks it and the report names T.
//
// The matchers are generated from the table: every tool name and alias of
// the hook's dialect, alone, in alternations, as regexes, and MCP
// wildcards; the host tools are every tool name of the host plus MCP names.
func TestMigratedMatcherAndWrappedEventAgree(t *testing.T) {
	tbl := mappings.Default()
	checked, skipped := 0, 0
	for _, hook := range tbl.Dialects {
		for _, host := range tbl.Dialects {
			if hook == host || hook.Settings.HookFiles {
				continue
			}
			for _, ev := range hook.Events {
				if ev.Matcher != "tool" {
					continue
				}
				em, err := tbl.MapEvent(hook, host, ev.Name)
				if err != nil {
					t.Fatal(err)
				}
				if em.To == nil || em.To.Matcher != "tool" {
					continue
				}
				for _, m := range matcherForms(hook) {
					c, s := checkMatcher(t, tbl, hook, host, ev.Name, em.To.Name, m)
					checked, skipped = checked+c, skipped+s
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no host tool fired any migrated matcher: the test checks nothing")
	}
	t.Logf("%d (matcher, host tool) firings checked, %d of them skipped by wrap", checked, skipped)
}

// matcherForms returns the tool matchers a hook of d may carry, generated
// from the table.
func matcherForms(d *mappings.Dialect) []string {
	var names []string
	for _, tool := range d.Tools {
		names = append(names, tool.Name)
		names = append(names, tool.Aliases...)
	}
	forms := []string{"*", ""}
	for _, n := range names {
		forms = append(forms, n, "^"+n+"$", "^("+n+")$", n+".*", names[0]+"|"+n)
		// The alternation of every name that shares n's canonical tool.
		if tool := d.Tool(n); tool != nil && tool.Canonical != "" {
			alt := []string{n}
			for _, other := range d.Tools {
				if other.Canonical == tool.Canonical && other != tool {
					alt = append(alt, other.Name)
					alt = append(alt, other.Aliases...)
				}
			}
			if len(alt) > 1 {
				forms = append(forms, strings.Join(alt, "|"))
			}
		}
	}
	p, s := d.MCP.Prefix, d.MCP.Separator
	forms = append(forms,
		p+"srv"+s+".*",
		p+"my_srv"+s+".*",
		p+"srv"+s+"create",
		"Read|"+p+"srv"+s+".*",
	)
	return forms
}

// hostTools are the tool names a host may send: every tool of the table,
// and MCP tools, with Gemini's mcp_context where it sends one.
func hostTools(d *mappings.Dialect) []hostTool {
	var out []hostTool
	for _, tool := range d.Tools {
		out = append(out, hostTool{name: tool.Name, tool: tool})
	}
	for _, st := range [][2]string{{"srv", "create"}, {"my_srv", "create"}, {"srv", "do_it"}, {"srv_x", "create"}} {
		n, _ := d.MCPName(st[0], st[1])
		h := hostTool{name: n}
		if d.Name == "gemini" {
			h.mcpContext = map[string]string{"server_name": st[0], "tool_name": st[1]}
		}
		out = append(out, h)
	}
	return out
}

type hostTool struct {
	name       string
	tool       *mappings.Tool
	mcpContext map[string]string
}

// checkMatcher migrates one hook with matcher m and checks every host tool
// its migrated matcher fires on. It returns how many firings it checked and
// how many wrap skipped.
func checkMatcher(t *testing.T, tbl *mappings.Table, hook, host *mappings.Dialect, hookEvent, hostEvent, m string) (checked, skipped int) {
	t.Helper()
	settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{hookEvent: []any{map[string]any{
		"matcher": m, "hooks": []any{map[string]any{"type": "command", "command": "./guard.sh"}}}}}})
	res, err := migrate.Plan(migrate.Options{From: hook.Name, To: host.Name, Wrap: true, Hookx: "hookx"},
		[]migrate.Source{{Path: "settings.json", Scope: "project", Data: settings}}, migrate.Source{Path: "target.json"})
	if err != nil {
		t.Fatalf("%s→%s %s %q: migrate: %v", hook.Name, host.Name, hookEvent, m, err)
	}
	var report strings.Builder
	for _, it := range res.Items {
		fmt.Fprintf(&report, "%s: %s: %s\n", it.Level, it.What, it.Reason)
	}
	orig, origErr := hook.ToolMatcher(m)
	for _, e := range res.Entries {
		where := fmt.Sprintf("%s→%s %s %q (migrated to %q, %s)", hook.Name, host.Name, hookEvent, m, deref(e.Matcher), e.Command)
		if origErr != nil {
			t.Errorf("%s: migrated a matcher hookx cannot evaluate (%v)", where, origErr)
			continue
		}
		match, hasMatch := matchFlag(e.Command)
		if all := orig.All(); hasMatch == all || (hasMatch && match != m) {
			t.Errorf("%s: wrap --match is %q (given: %v), want the original matcher (given: %v)", where, match, hasMatch, !all)
			continue
		}
		migrated, err := host.ToolMatcher(deref(e.Matcher))
		if err != nil {
			t.Errorf("%s: the migrated matcher: %v", where, err)
			continue
		}
		var wrapMatch *mappings.ToolMatcher
		if hasMatch {
			if wrapMatch, err = hook.ToolMatcher(match); err != nil {
				t.Errorf("%s: wrap would refuse --match: %v", where, err)
				continue
			}
		}
		tr, err := translate.New(tbl, host.Name, hook.Name)
		if err != nil {
			t.Fatal(err)
		}
		tr.Match = wrapMatch
		for _, ht := range hostTools(host) {
			if ok, err := migrated.Match(ht.name); err != nil || !ok {
				continue
			}
			checked++
			got, err := tr.Event(hostPayload(hostEvent, ht))
			if err != nil && strings.Contains(err.Error(), "cannot be shown to the hook as one") {
				// The synthetic input is in a form of the host tool's
				// arguments that hookx does not carry (Cline's read_files
				// with files as one string): the guard fails closed, which
				// is a firing, in the safe direction (translate's tests
				// hold each such form).
				continue
			}
			if err != nil && strings.Contains(err.Error(), "the guard cannot judge it") {
				// A host tool that acts with no counterpart in the hook's
				// agent fails the guard closed: migrate's report says so.
				if !strings.Contains(report.String(), ht.name) {
					t.Errorf("%s: wrap blocks %s (%v), and migrate's report does not say so:\n%s", where, ht.name, err, report.String())
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: host tool %s: %v", where, ht.name, err)
				continue
			}
			if got.Skip {
				skipped++
				if !strings.Contains(report.String(), ht.name) && !(ht.tool == nil && strings.Contains(report.String(), "MCP tools reach the hook")) {
					t.Errorf("%s: wrap skips the hook for %s (%s), and migrate's report does not say so:\n%s", where, ht.name, got.SkipReason, report.String())
				}
				continue
			}
			checkEvent(t, where, hook, ht, orig, got)
		}
	}
	return checked, skipped
}

// checkEvent checks the translated event: its tool is one the original
// matcher matches, and its arguments carry that tool's names.
func checkEvent(t *testing.T, where string, hook *mappings.Dialect, ht hostTool, orig *mappings.ToolMatcher, got *translate.EventResult) {
	t.Helper()
	var p struct {
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
	}
	payload, err := translate.Inbound(hook, got.Payload, got.Event)
	if err == nil {
		err = json.Unmarshal(payload, &p)
	}
	if err != nil {
		t.Errorf("%s: host tool %s: the hook's payload: %v", where, ht.name, err)
		return
	}
	if p.ToolName != got.Tool {
		t.Errorf("%s: host tool %s: EventResult.Tool %q, payload tool_name %q", where, ht.name, got.Tool, p.ToolName)
	}
	if ok, err := orig.Match(p.ToolName); err != nil || !ok {
		t.Errorf("%s: host tool %s reaches the hook as %q, which its own matcher does not match", where, ht.name, p.ToolName)
		return
	}
	hookTool := hook.Tool(p.ToolName)
	if ht.tool == nil || hookTool == nil || hookTool.Canonical == "" {
		return // MCP, or passed on unchanged: no argument names to compare
	}
	for arg, canon := range ht.tool.Fields {
		want, ok := hookTool.ArgFor(canon)
		if !ok {
			continue
		}
		if _, ok := p.ToolInput[want]; !ok {
			t.Errorf("%s: host tool %s as %s: argument %s did not become %s: %v", where, ht.name, p.ToolName, arg, want, p.ToolInput)
		}
		if _, own := hookTool.Fields[arg]; arg != want && !own {
			if _, ok := p.ToolInput[arg]; ok {
				t.Errorf("%s: host tool %s as %s: the host's argument name %s reached the hook: %v", where, ht.name, p.ToolName, arg, p.ToolInput)
			}
		}
	}
}

// hostPayload is a host's tool event for ht, with a string value for every
// argument the table lists.
func hostPayload(event string, ht hostTool) []byte {
	input := map[string]any{}
	if ht.tool != nil {
		for _, arg := range slices.Sorted(func(yield func(string) bool) {
			for k := range ht.tool.Fields {
				if !yield(k) {
					return
				}
			}
		}) {
			if _, uncarried := ht.tool.FailClosed[arg]; uncarried {
				continue // fails a guard closed by design (translate's own tests)
			}
			input[arg] = "value of " + arg
			if _, isPath := ht.tool.Paths[arg]; isPath {
				// Absolute, so that no path is one hookx cannot resolve
				// (a relative replace path fails a guard closed).
				input[arg] = "/value of " + arg
			}
		}
	}
	p := map[string]any{
		"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
		"hook_event_name": event, "tool_name": ht.name, "tool_input": input,
	}
	if ht.mcpContext != nil {
		p["mcp_context"] = ht.mcpContext
	}
	b, _ := json.Marshal(p)
	return b
}

// matchFlag returns the word after --match in a wrap command, as the shell
// reads it (migrate writes it with ShellQuote).
func matchFlag(cmd string) (string, bool) {
	head, _, _ := strings.Cut(cmd, " -- ")
	_, rest, ok := strings.Cut(head, " --match ")
	if !ok {
		return "", false
	}
	var w strings.Builder
	for i := 0; i < len(rest) && rest[i] != ' '; i++ {
		switch rest[i] {
		case '\'':
			j := strings.IndexByte(rest[i+1:], '\'')
			w.WriteString(rest[i+1 : i+1+j])
			i += j + 1
		case '\\':
			i++
			w.WriteByte(rest[i])
		default:
			w.WriteByte(rest[i])
		}
	}
	return w.String(), true
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
