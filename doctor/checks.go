package doctor

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hookx-dev/hookx/internal/jsregex"
	"github.com/hookx-dev/hookx/mappings"
)

func (c *checker) checkFile(f *file) {
	c.parse(f)
	if f.root == nil {
		return
	}
	c.walk(f)
	for _, h := range f.hooks {
		c.checkHandler(h)
	}
	c.checkForeignReaders(f)
}

// checkForeignReaders notes the hooks of f that another agent of the
// project also runs itself, its own way (Copilot CLI runs
// .claude/settings.json's hooks): where the project has that agent's hooks
// folder, it is in use here.
func (c *checker) checkForeignReaders(f *file) {
	if f.scope != "project" && f.scope != "local" {
		return
	}
	rel, err := filepath.Rel(c.opts.Dir, f.path)
	if err != nil {
		return
	}
	for _, other := range c.tbl.Dialects {
		r := other.ReadsNatively(f.d.Name, filepath.ToSlash(rel))
		if r == nil || other.Settings.ProjectGlob == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(c.opts.Dir, filepath.Dir(filepath.FromSlash(other.Settings.ProjectGlob)))); err != nil {
			continue
		}
		// One finding for the file, naming each hook: the same paragraph
		// once per hook buried the rest of the report.
		var runs, copied []string
		first := -1
		for _, h := range f.hooks {
			if !slices.Contains(r.Events, h.event) {
				continue
			}
			if first < 0 {
				first = h.off
			}
			line, _ := f.lineCol(h.off)
			runs = append(runs, fmt.Sprintf("%s line %d", h.event, line))
			if _, loses := r.Loses[h.event]; (loses || slices.Contains(r.Guards, h.event)) && !slices.Contains(copied, h.event) {
				copied = append(copied, h.event)
			}
		}
		if first < 0 {
			continue
		}
		what := "1 hook"
		if len(runs) > 1 {
			what = fmt.Sprintf("%d hooks", len(runs))
		}
		why := fmt.Sprintf("%s runs the %s of this file too (%s), its own way: %s", other.Agent, what, strings.Join(runs, ", "), r.Differs)
		var lost []string
		for _, ev := range copied {
			if l, ok := r.Loses[ev]; ok {
				lost = append(lost, fmt.Sprintf("on %s, %s", ev, l))
			}
		}
		if len(lost) > 0 {
			why += "; " + strings.Join(lost, "; ")
		}
		fix := ""
		if len(copied) > 0 {
			fix = fmt.Sprintf("hookx migrate --from %s --to %s writes a copy of those on %s that acts as %s would; they then run twice: %s",
				f.d.Name, other.Name, strings.Join(copied, ", "), f.d.Agent, r.Twice)
		}
		c.addFile(f, first, ruleAlsoRunBy, why, fix)
	}
}

// checkEventName reports an event name the agent does not know, and
// whether the name is known.
// commands are the hooks under the key, which the finding names.
func (c *checker) checkEventName(f *file, name string, off int, commands []string) bool {
	if f.d.Event(name) != nil {
		return true
	}
	h := &hook{f: f, event: name, command: strings.Join(commands, "\n")}
	affects := ""
	switch len(commands) {
	case 0:
	case 1:
		affects = fmt.Sprintf(" (%s)", strconv.Quote(commands[0]))
	default:
		qs := make([]string, len(commands))
		for i, c := range commands {
			qs[i] = strconv.Quote(c)
		}
		affects = fmt.Sprintf(" (%d hooks: %s)", len(commands), strings.Join(qs, ", "))
	}
	for _, r := range f.d.ReadsSettings {
		if slices.Contains(r.Events, name) {
			// Copilot CLI takes Claude's event names in its own files too,
			// and runs those hooks its own way (readsSettings).
			other := c.tbl.MustDialect(r.Dialect)
			fix := "register it on the " + f.d.Agent + " event instead"
			if m, err := c.tbl.MapEvent(other, f.d, name); err == nil && m.To != nil {
				fix = fmt.Sprintf("for a %s hook, register hookx wrap --from %s -- <command> on %s instead", other.Agent, other.Name, m.To.Name)
			}
			c.add(h, off, ruleCompatEvent, fmt.Sprintf("%s is a %s event, which %s runs in its own compatibility mode: %s%s", name, other.Agent, f.d.Agent, r.Differs, affects), fix)
			return false
		}
	}
	for _, other := range c.tbl.Dialects {
		if other == f.d || other.Event(name) == nil {
			continue
		}
		fix := "move the hook to the right agent's settings"
		if m, err := c.tbl.MapEvent(other, f.d, name); err == nil && m.To != nil {
			fix = fmt.Sprintf("rename it to %s (or run hookx migrate --from %s --to %s)", m.To.Name, other.Name, f.d.Name)
		}
		c.add(h, off, ruleForeignEvent, fmt.Sprintf("%s is a %s event; %s drops event names it does not know, so these hooks never fire%s", name, other.Agent, f.d.Agent, affects), fix)
		return false
	}
	names := f.d.EventNames()
	fix := "use one of " + f.d.Agent + "'s event names (hookx mappings lists them)"
	if s := mappings.Suggest(name, names); s != "" {
		fix = didYouMean(s)
	}
	c.add(h, off, ruleUnknownEvent, fmt.Sprintf("unknown event %q; %s drops event names it does not know, so these hooks never fire%s", name, f.d.Agent, affects), fix)
	return false
}

// matchesAll reports whether d's agent runs a hook with matcher m for every
// tool (mappings.Dialect.MatchesAll: Crush rejects "*").
func matchesAll(d *mappings.Dialect, m *string) bool { return m == nil || d.MatchesAll(*m) }

func splitList(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == '|' || r == ',' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func (c *checker) checkMatcher(h *hook) {
	ev, d := h.ev, h.f.d
	if matchesAll(d, h.matcher) {
		return
	}
	m := *h.matcher
	switch ev.Matcher {
	case "ignored":
		c.add(h, h.matcherOff, ruleMatcherIgnored, fmt.Sprintf("%s ignores the matcher on %s; the hook fires every time", d.Agent, h.event), "delete the matcher")
	case "tool":
		c.checkToolMatcher(h, m)
	case "exact":
		values := eventValues(ev)
		if slices.Contains(values, m) || len(values) == 0 {
			return
		}
		parts := splitList(m)
		if strings.ContainsAny(m, "|,") && len(parts) > 1 {
			c.add(h, h.matcherOff, ruleExactList, fmt.Sprintf("%s compares %s matchers as exact strings, so %q matches no %s and the hook never fires", d.Agent, h.event, m, ev.MatcherField),
				fmt.Sprintf("write one group per value (%s)", strings.Join(parts, ", ")))
			return
		}
		fix := "use one of " + strings.Join(values, ", ")
		if s := mappings.Suggest(m, values); s != "" {
			fix = didYouMean(s)
		}
		c.add(h, h.matcherOff, ruleMatcherValue, fmt.Sprintf("%q is not a %s %s of %s; the hook never fires", m, h.event, ev.MatcherField, d.Agent), fix)
	case "value":
		values := eventValues(ev)
		if len(values) == 0 {
			return
		}
		if d.IsExactList(m) {
			for _, p := range splitList(m) {
				if !slices.Contains(values, p) {
					fix := "use one of " + strings.Join(values, ", ")
					if s := mappings.Suggest(p, values); s != "" {
						fix = didYouMean(s)
					}
					c.add(h, h.matcherOff, ruleMatcherPart, fmt.Sprintf("%q is not a %s %s of %s; that part never matches", p, h.event, ev.MatcherField, d.Agent), fix)
				}
			}
			return
		}
		matches, ok := c.jsMatcher(h, m)
		if !ok {
			return
		}
		if !slices.ContainsFunc(values, matches) {
			c.add(h, h.matcherOff, ruleMatcherValue, fmt.Sprintf("%q matches no %s %s of %s; the hook never fires", m, h.event, ev.MatcherField, d.Agent), "use one of "+strings.Join(values, ", "))
		}
	}
}

func eventValues(ev *mappings.Event) []string {
	var vs []string
	for _, v := range ev.Values[ev.MatcherField] {
		vs = append(vs, v.Value)
	}
	return vs
}

// checkToolMatcher finds tool matchers that can never match a tool of their
// agent: another agent's names, typos, regexes that match nothing.
func (c *checker) checkToolMatcher(h *hook, m string) {
	d := h.f.d
	if d.Matchers.Trim {
		m = jsregex.Trim(m) // Gemini's String.prototype.trim
	}
	names := d.ToolNames()
	if d.IsExactList(m) {
		for _, p := range splitList(m) {
			if slices.Contains(names, p) || strings.HasPrefix(p, d.MCP.Prefix) && strings.Count(p, d.MCP.Separator) >= 2 {
				continue
			}
			c.unknownTool(h, p, names, true)
		}
		return
	}
	// Anything else is a regex in the agent's flavour, anchored where the
	// agent anchors it (the table's ToolMatcher, as migrate and wrap read it).
	matches, ok := c.toolMatcher(h, m)
	if !ok {
		return
	}
	if slices.ContainsFunc(names, matches) {
		return
	}
	// MCP tools have open-ended names: a pattern in the agent's MCP form may
	// match one.
	for _, alt := range splitAlternatives(m) {
		if c.namesOwnMCP(d, alt) {
			return
		}
	}
	parts := splitAlternatives(m)
	if strings.Contains(m, "(?") {
		// Lookarounds and groups do not split into names: the whole regex.
		c.unknownTool(h, m, names, false)
		return
	}
	if len(parts) == 1 {
		c.unknownTool(h, strings.Trim(m, "^$()"), names, false)
		return
	}
	for _, p := range parts {
		p = strings.Trim(p, "^$()")
		if pm, err := d.ToolMatcher(p); err == nil && !slices.ContainsFunc(names, lenientTool(pm)) {
			c.unknownTool(h, p, names, false)
		}
	}
}

// jsMatcher compiles m as the hook's agent reads it (JavaScript's RegExp,
// or Codex's Rust regex crate). A regex JavaScript rejects never fires (Claude drops it; Gemini compares it
// as a string, which no tool name or value equals), and is reported; one
// hookx cannot evaluate is noted as unchecked. ok is false for both.
func (c *checker) jsMatcher(h *hook, m string) (matches func(string) bool, ok bool) {
	re, err := h.f.d.Regex(m)
	var e *jsregex.Error
	switch {
	case err == nil:
		return lenient(re), true
	case errors.As(err, &e) && e.Invalid:
		c.add(h, h.matcherOff, ruleInvalidRegex, fmt.Sprintf("%v, so %s never fires the hook", e, h.f.d.Agent), "fix the regex, or write the names as a list")
	default:
		c.add(h, h.matcherOff, ruleNotChecked, err.Error()+"; not checked", "")
	}
	return nil, false
}

// toolMatcher compiles a tool matcher as the hook's agent reads it
// (mappings.ToolMatcher) and reports one that never fires or that hookx
// cannot evaluate, as jsMatcher does; ok is false for both.
func (c *checker) toolMatcher(h *hook, m string) (matches func(string) bool, ok bool) {
	tm, err := h.f.d.ToolMatcher(m)
	var e *jsregex.Error
	switch {
	case err == nil:
		return lenientTool(tm), true
	case errors.As(err, &e) && e.Invalid:
		c.add(h, h.matcherOff, ruleInvalidRegex, fmt.Sprintf("%v, so %s never fires the hook", e, h.f.d.Agent), "fix the regex, or write the names as a list")
	case h.f.d.Matchers.Regex == "go":
		// hookx compiles with the agent's own engine: the agent rejects it
		// too, and Crush with it its whole configuration (config/load.go:
		// 1426-1437): no hook of it runs.
		c.add(h, h.matcherOff, ruleInvalidRegex, fmt.Sprintf("%v; no hook runs", err), `fix the regex; an empty matcher (or none) matches every tool, not "*"`)
	default:
		c.add(h, h.matcherOff, ruleNotChecked, err.Error()+"; not checked", "")
	}
	return nil, false
}

// lenientTool is tm.Match, true where the match cannot be evaluated.
func lenientTool(tm *mappings.ToolMatcher) func(string) bool {
	return func(s string) bool {
		ok, err := tm.Match(s)
		return ok || err != nil
	}
}

// lenient is re.MatchString, true where the match cannot be evaluated
// (too slow): doctor only claims "never fires" when it knows.
func lenient(re mappings.Regexp) func(string) bool {
	return func(s string) bool {
		ok, err := re.MatchString(s)
		return ok || err != nil
	}
}

// namesOwnMCP reports a matcher alternative written in d's own MCP naming
// (the table's mcp declaration, read by the same SplitMCP migrate uses):
// d's prefix, a server, d's separator and a tool part. Agents that share a
// naming (Claude Code, Codex CLI and Droid's mcp__server__tool; Gemini CLI
// and Qwen Code's mcp_server_tool) each own it. Where another agent's
// longer prefix starts it (mcp__github__x on TerminaI or Copilot CLI, whose
// MCP names have no prefix), it is taken for that agent's naming.
func (c *checker) namesOwnMCP(d *mappings.Dialect, alt string) bool {
	alt = strings.TrimSuffix(strings.TrimLeft(alt, "^("), "$")
	alt = strings.TrimSuffix(alt, ")")
	if _, _, ok := d.SplitMCP(alt, nil); !ok {
		return false
	}
	o := c.mcpNaming(alt)
	return o == nil || o.MCP.Prefix == d.MCP.Prefix
}

// mcpNaming returns the dialect whose MCP prefix is the longest prefix of
// name, or nil. Of two with one prefix (Gemini CLI's and Crush's mcp_), an
// agent run live comes before one verified from source only.
func (c *checker) mcpNaming(name string) *mappings.Dialect {
	var best *mappings.Dialect
	for _, o := range c.tbl.Dialects {
		if o.MCP.Prefix == "" || !strings.HasPrefix(name, o.MCP.Prefix) {
			continue
		}
		if best == nil || len(o.MCP.Prefix) > len(best.MCP.Prefix) ||
			len(o.MCP.Prefix) == len(best.MCP.Prefix) && best.Verification != nil && o.Verification == nil {
			best = o
		}
	}
	return best
}

// unknownTool reports a matcher part that names no tool of the agent.
func (c *checker) unknownTool(h *hook, name string, names []string, exact bool) {
	d := h.f.d
	for _, o := range c.tbl.Dialects {
		if o == d {
			continue
		}
		if c.mcpNaming(name) == o && !c.namesOwnMCP(d, name) {
			c.add(h, h.matcherOff, ruleForeignMCP, fmt.Sprintf("%s is %s's MCP naming; %s names MCP tools %s, so this never matches", name, o.Agent, d.Agent, d.MCPForm()),
				"write the "+d.Agent+" form (hookx migrate converts it)")
			return
		}
		if o.Tool(name) == nil {
			continue
		}
		fix := "name " + d.Agent + "'s tool"
		if tm, err := c.tbl.MapTool(o, d, name); err == nil && tm.To != nil {
			fix = fmt.Sprintf("write %s", tm.To.Name)
			if d.Protocol == "gemini" {
				fix = fmt.Sprintf("write ^(%s)$", tm.To.Name)
			}
		}
		c.add(h, h.matcherOff, ruleForeignTool, fmt.Sprintf("%s is a %s tool name; %s calls its tools differently, so this matcher never matches it", name, o.Agent, d.Agent), fix)
		return
	}
	fix := "name one of " + d.Agent + "'s tools (hookx mappings lists them)"
	if s := mappings.Suggest(name, names); s != "" {
		fix = didYouMean(s)
	} else if c.mcpNaming(name) == d {
		// An MCP server name alone is an exact name no tool has (CC§6 rule 7).
		fix = fmt.Sprintf("name the tool too, or all of the server's: %s%s.*", name, d.MCP.Separator)
	}
	what := fmt.Sprintf("%q matches no %s tool", name, d.Agent)
	if !exact {
		what = fmt.Sprintf("the matcher %q matches no %s tool", name, d.Agent)
	}
	if d.MCP.Bare != nil {
		// Any other name may be an MCP tool's: the agent names them bare.
		// A note, not an error: hookx migrate writes such names for MCP
		// matchers; a typo of a built-in name still gets its suggestion.
		if mappings.Suggest(name, names) == "" {
			fix = ""
		}
		c.add(h, h.matcherOff, ruleBareMCP, strings.Replace(what, " tool", " built-in tool", 1)+
			fmt.Sprintf("; %s names MCP tools %s, so the hook fires only for an MCP tool of that name (matching is case-sensitive)", d.Agent, d.MCPForm()), fix)
		return
	}
	c.add(h, h.matcherOff, ruleUnknownTool, what+"; the hook never fires (matching is case-sensitive)", fix)
}

// splitAlternatives splits a regex at its top-level '|'.
func splitAlternatives(re string) []string {
	var alts []string
	depth, start, inClass := 0, 0, false
	for i := 0; i < len(re); i++ {
		switch ch := re[i]; {
		case ch == '\\':
			i++
		case inClass:
			if ch == ']' {
				inClass = false
			}
		case ch == '[':
			inClass = true
		case ch == '(':
			depth++
		case ch == ')':
			depth--
		case ch == '|' && depth <= 1:
			alts = append(alts, re[start:i])
			start = i + 1
		}
	}
	return append(alts, re[start:])
}

func (c *checker) checkHandler(h *hook) {
	d := h.f.d
	drops := func(what string) string {
		if d.Settings.Shape.BadHandlerDropsFile {
			return d.Agent + " rejects the whole file, so none of its hooks run"
		}
		return what
	}
	if h.typ == "" && d.Settings.Shape.TypeOptional {
		h.typ = "command"
	}
	if h.typ == "" {
		c.add(h, h.off, ruleHandlerNoType, "the handler has no \"type\"; "+drops(d.Agent+" discards it"), `add "type": "command"`)
		return
	}
	types, ok := handlerTypes()[d.Protocol]
	if t := d.Settings.Shape.HandlerTypes; len(t) > 0 {
		types, ok = t, true
	}
	if ok && !slices.Contains(types, h.typ) {
		c.add(h, h.off, ruleHandlerType, fmt.Sprintf("%s has no %q handler type; %s", d.Agent, h.typ, drops("it discards the handler")), "use one of "+strings.Join(types, ", "))
		return
	}
	c.checkTimeout(h)
	c.checkCondition(h)
	if h.typ != "command" || h.ev == nil {
		return
	}
	if h.command == "" {
		c.add(h, h.off, ruleNoCommand, "a command hook without a command; "+d.Agent+" cannot run it", `add "command"`)
		return
	}
	c.checkCommand(h)
}

// checkTimeout catches a timeout written in the other agent's unit.
func (c *checker) checkTimeout(h *hook) {
	if h.timeout == nil {
		return
	}
	d, t := h.f.d, *h.timeout
	secs := d.Timeout.Seconds(t)
	show := strconv.FormatFloat(t, 'f', -1, 64)
	switch {
	case d.Timeout.Whole && (t < 0 || t != math.Trunc(t)):
		c.add(h, h.timeoutOff, ruleTimeoutNotWhole, fmt.Sprintf("timeout %s is not a whole number of %s; %s drops the whole file, so none of its hooks run", show, timeoutUnitName(d.Timeout.Unit), d.Agent),
			fmt.Sprintf("write %s", strconv.FormatFloat(math.Max(1, math.Ceil(t)), 'f', -1, 64)))
	case t <= 0:
		c.add(h, h.timeoutOff, ruleTimeoutNotPos, fmt.Sprintf("timeout %s is not positive; %s uses its default", show, d.Agent), "delete it or write a positive number")
	case d.Timeout.MsFrom > 0 && t >= d.Timeout.MsFrom:
		c.add(h, h.timeoutOff, ruleTimeoutAsMs, fmt.Sprintf("timeout %s is read as milliseconds by %s (%gs), though its timeouts are seconds: from %g on, a value is milliseconds", show, d.Agent, secs, d.Timeout.MsFrom),
			fmt.Sprintf("write %s for the same %gs; if you meant %s seconds, write %s (milliseconds)", strconv.FormatFloat(math.Ceil(secs), 'f', -1, 64), secs, show, strconv.FormatFloat(t*1000, 'f', -1, 64)))
	case d.Timeout.Unit == "ms" && t < 1000:
		c.add(h, h.timeoutOff, ruleTimeoutShort, fmt.Sprintf("timeout %s is milliseconds in %s (%gs); the hook is killed before it can answer and fails open", show, d.Agent, secs),
			fmt.Sprintf("write %s if you meant %s seconds", strconv.FormatFloat(t*1000, 'f', -1, 64), show))
	case d.Timeout.Unit == "s" && t >= 1000:
		c.add(h, h.timeoutOff, ruleTimeoutLong, fmt.Sprintf("timeout %s is seconds in %s (%.0f minutes); a hung hook holds the agent that long", show, d.Agent, t/60),
			fmt.Sprintf("write %s if you meant %s milliseconds", strconv.FormatFloat(t/1000, 'f', -1, 64), show))
	}
	if capv, ok := d.Timeout.MaxPerEvent[h.event]; ok && t > capv {
		c.add(h, h.timeoutOff, ruleTimeoutCapped, fmt.Sprintf("%s gives %s hooks at most %g%s", d.Agent, h.event, capv, d.Timeout.Unit), "")
	}
}

// handlerTypes are the handler types each protocol runs (CC§4.3, GC§8.2),
// where the dialect's settings.shape.handlerTypes does not say; any other
// is discarded.
var handlerTypes = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"claude": {"command", "prompt", "agent", "http", "mcp_tool"},
		"gemini": {"command", "plugin", "runtime"},
	}
})

// conditionField is the protocols whose handlers take an "if" permission
// rule, evaluated only on tool events (CC§4.3).
var conditionField = sync.OnceValue(func() map[string]bool { return map[string]bool{"claude": true} })

// checkCondition reports an "if" where the agent never evaluates it.
func (c *checker) checkCondition(h *hook) {
	if h.cond == "" || h.ev == nil {
		return
	}
	d := h.f.d
	switch {
	case !conditionField()[d.Protocol] || len(d.Settings.Shape.HandlerKeys) > 0 && !slices.Contains(d.Settings.Shape.HandlerKeys, "if"):
		c.add(h, h.condOff, ruleIfIgnored, fmt.Sprintf("%s has no \"if\" on handlers and ignores it; the hook runs on every %s", d.Agent, h.event),
			"narrow it with the matcher, or test the input in the hook")
	case h.ev.Matcher != "tool":
		c.add(h, h.condOff, ruleIfNotTool, fmt.Sprintf("%s evaluates \"if\" only on tool events; on %s a hook with \"if\" never runs", d.Agent, h.event), "delete the \"if\"")
	}
}
