package migrate

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/internal/jsregex"
	"github.com/hookx-dev/hookx/mappings"
)

// matchesAll reports whether d's agent runs a hook with matcher m for
// every tool: none, "", or "*" where "*" is no invalid regex (Crush's Go
// regexp rejects it, and the whole configuration with it).
func matchesAll(d *mappings.Dialect, m *string) bool { return m == nil || d.MatchesAll(*m) }

func splitList(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == '|' || r == ',' }) {
		if f = strings.TrimSpace(f); f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// isExactList reports whether a dialect reads m as a list of exact names.
func isExactList(d *mappings.Dialect, m string) bool { return d.IsExactList(m) }

// splitAlternatives splits a regex at its top-level '|'.
func splitAlternatives(re string) []string {
	var alts []string
	depth, start, inClass := 0, 0, false
	for i := 0; i < len(re); i++ {
		switch c := re[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			alts = append(alts, re[start:i])
			start = i + 1
		}
	}
	return append(alts, re[start:])
}

// matchOut is one matcher of the target and the source value it came from
// (lifecycle matchers are split into one entry per value).
type matchOut struct {
	matcher *string
	value   string
}

// matcherPlan is what becomes of one source matcher.
type matcherPlan struct {
	outs   []matchOut // empty: the group can never fire on the target
	drop   string     // why it was dropped
	inert  bool       // the source entry never fires on its own host either
	notes  []string   // for information: what a regex matched, approximate names
	narrow []string   // names left out that the target has no tool or value for
	weaker []string   // calls of the target the entry no longer covers: a guard guards less
	differ []string   // where the target entry fires differently, no guard weaker for it
	// closed names the target's tools the entry fires on that hookx wrap
	// blocks, as the hook cannot judge them (unjudged).
	closed []string
}

func strp(s string) *string { return &s }

func (p *planner) translateMatcher(src, dst *mappings.Event, m *string) matcherPlan {
	switch {
	case src.Matcher == "tool" && dst.Matcher == "tool":
		return p.toolMatcher(m, p.opts.Wrap && (src.Output.Guard || dst.Output.Guard))
	case src.Matcher == "tool" || dst.Matcher == "tool":
		return matcherPlan{drop: fmt.Sprintf("a %s matcher cannot become a %s matcher", src.Matcher, dst.Matcher)}
	}
	return p.valueMatcher(src, dst, m)
}

// toolMatcher translates a tool matcher. guarded is set where hookx wrap
// fails the hook closed on a host tool it cannot judge (Table.Unjudged): a
// wrapped hook on a guard event; the matcher then names those tools too.
func (p *planner) toolMatcher(m *string, guarded bool) matcherPlan {
	var plan matcherPlan
	if matchesAll(p.from, m) {
		plan.outs = []matchOut{{}}
		plan.closed = p.unjudged(nil, nil, guarded)
		return plan
	}
	var names, mcp []string
	add := func(src string) {
		tm, err := p.tbl.MapTool(p.from, p.to, src)
		switch {
		case err != nil:
			plan.narrow = append(plan.narrow, fmt.Sprintf("%q is not a %s %s tool; left out", src, p.from.Agent, p.from.Version))
		case tm.Mark == mappings.None:
			plan.narrow = append(plan.narrow, fmt.Sprintf("%s has no %s counterpart (%s); left out", src, p.to.Agent, tm.Note))
		default:
			if tm.Mark == mappings.Approximate && tm.Note != "" {
				plan.notes = append(plan.notes, fmt.Sprintf("%s → %s is approximate: %s", src, tm.Name, tm.Note))
			}
			if !slices.Contains(names, tm.Name) {
				names = append(names, tm.Name)
			}
			if server, tool, ok := p.from.SplitMCP(src, nil); ok && tm.From == nil {
				// Every name the target may give the MCP tool (TerminaI's
				// bare name, and server__tool when that one is taken).
				for _, n := range p.to.MCPNames(server, tool) {
					if !slices.Contains(names, n) {
						names = append(names, n)
					}
				}
			}
			// A tool that also does what another tool of the target does
			// (Codex's apply_patch also writes files) stands for both.
			// The target's tools that do the same with no counterpart in
			// the hook's agent (TerminaI's manage_processes runs commands):
			// the wrapped hook must run for them, for hookx wrap to fail
			// the guard closed there (Table.Unjudged).
			if tm.From != nil && guarded {
				for _, c := range append([]string{tm.From.Canonical}, tm.From.Also...) {
					for _, t := range p.tbl.ActingFor(p.to, p.from, c) {
						if !slices.Contains(names, t.Name) {
							names = append(names, t.Name)
						}
					}
				}
			}
			if tm.From != nil {
				for _, a := range tm.From.Also {
					if t, _ := p.to.ToolFor(a); t != nil && !slices.Contains(names, t.Name) {
						names = append(names, t.Name)
					}
				}
			}
		}
	}
	if isExactList(p.from, *m) {
		for _, n := range splitList(*m) {
			add(n)
		}
	} else {
		var rest []string
		for _, alt := range splitAlternatives(*m) {
			if pat, ok := p.mcpPattern(alt); ok {
				if _, err := p.from.Regex(alt); err != nil {
					return matcherPlan{drop: fmt.Sprintf("the MCP pattern %q is not carried: %v", alt, err)}
				}
				if _, err := p.to.Regex(pat); err != nil {
					return matcherPlan{drop: fmt.Sprintf("the MCP pattern %q is not carried: its translation %q: %v", alt, pat, err)}
				}
				mcp = append(mcp, pat)
				continue
			}
			rest = append(rest, alt)
		}
		if len(rest) > 0 {
			expr := strings.Join(rest, "|")
			// The regex as its own agent reads it: a JavaScript regex
			// (T§10.1), aliases included.
			fm, err := p.from.ToolMatcher(expr)
			if e := (*jsregex.Error)(nil); errors.As(err, &e) && e.Invalid {
				// Claude never matches it; Gemini compares it as a string,
				// which no tool name equals.
				return matcherPlan{inert: true, drop: fmt.Sprintf("%v, so %s never fires it", err, p.from.Agent)}
			}
			if err != nil {
				return matcherPlan{drop: fmt.Sprintf("%v, so its tool set is unknown", err)}
			}
			fires := func(name string) (bool, *matcherPlan) {
				ok, err := fm.Match(name)
				if err != nil {
					return false, &matcherPlan{drop: fmt.Sprintf("the matcher %q is not carried: %v", *m, err)}
				}
				return ok, nil
			}
			if fm.MatchesEveryName() {
				plan.outs = []matchOut{{}}
				plan.closed = p.unjudged(fm, nil, guarded)
				return plan
			}
			mcpSample := p.from.MCP.Prefix + "server" + p.from.MCP.Separator + "tool"
			if mcpHit, fail := fires(mcpSample); fail != nil {
				return *fail
			} else if strings.Contains(expr, p.from.MCP.Prefix) {
				plan.weaker = append(plan.weaker, fmt.Sprintf("the MCP part of %q could not be translated structurally; only built-in tools are matched", expr))
			} else if mcpHit {
				plan.weaker = append(plan.weaker, fmt.Sprintf("%q also matches MCP tools (%s); only built-in tools are matched", expr, mcpSample))
			}
			var hit []string
			for _, t := range p.from.Tools {
				ok, fail := fires(t.Name)
				if fail != nil {
					return *fail
				}
				if ok {
					hit = append(hit, t.Name)
					continue
				}
				for _, a := range t.Aliases {
					if ok, fail := fires(a); fail != nil {
						return *fail
					} else if ok {
						// Gemini matches tool_name only, never an alias.
						plan.narrow = append(plan.narrow, fmt.Sprintf("%s is an old name of %s: %s %s never runs a hook for it, as hooks are given tool_name %s; left out (rename it to %s)",
							a, t.Name, p.from.Agent, p.from.Version, t.Name, t.Name))
					}
				}
			}
			if len(hit) > 0 && (len(hit) > 1 || hit[0] != expr) {
				plan.notes = append(plan.notes, fmt.Sprintf("regex %q matches the %s tools %s", expr, p.from.Agent, strings.Join(hit, ", ")))
			}
			for _, h := range hit {
				add(h)
			}
		}
	}
	if len(names) == 0 && len(mcp) == 0 {
		plan.drop = fmt.Sprintf("the matcher %q matches no %s tool", *m, p.to.Agent)
		if why := append(slices.Clone(plan.weaker), plan.narrow...); len(why) > 0 {
			plan.drop += ": " + strings.Join(why, "; ")
		}
		return plan
	}
	var out string
	if isExactList(p.to, strings.Join(names, "|")) && len(mcp) == 0 {
		out = strings.Join(names, "|")
	} else {
		alts := make([]string, 0, len(names)+len(mcp))
		for _, n := range names {
			alts = append(alts, regexp.QuoteMeta(n))
		}
		out = "^(" + strings.Join(append(alts, mcp...), "|") + ")$"
	}
	plan.outs = []matchOut{{matcher: &out}}
	plan.differ = append(plan.differ, p.unfit(*m, out, len(mcp) > 0, guarded)...)
	if src, err := p.from.ToolMatcher(*m); err == nil {
		if dst, err := p.to.ToolMatcher(out); err == nil {
			plan.closed = p.unjudged(src, dst, guarded)
		}
	}
	return plan
}

// unfit lists the target tools the migrated matcher out fires on for which
// the source matcher m names no tool: wrap --match does not run the hook
// for them (mappings.Table.HookTool).
func (p *planner) unfit(m, out string, mcp, guarded bool) []string {
	src, err := p.from.ToolMatcher(m)
	if err != nil {
		return nil
	}
	dst, err := p.to.ToolMatcher(out)
	if err != nil {
		return nil
	}
	var skipped, unknown, notes []string
	for _, t := range p.to.Tools {
		if ok, err := dst.Match(t.Name); err != nil || !ok {
			continue // out is hookx's own anchored list of names
		}
		if acts, err := p.tbl.Unjudged(p.to, p.from, t.Name, src); guarded && err == nil && len(acts) > 0 {
			continue // blocked, not skipped (unjudged)
		}
		_, fits, err := p.tbl.HookTool(p.to, p.from, t.Name, src)
		switch {
		case errors.Is(err, mappings.ErrMatcher):
			unknown = append(unknown, t.Name)
		case !fits:
			skipped = append(skipped, t.Name)
		}
	}
	if len(unknown) > 0 {
		notes = append(notes, fmt.Sprintf("%s fires it for %s, where hookx cannot evaluate %q; hookx wrap fails closed there",
			p.to.Agent, strings.Join(unknown, ", "), m))
	}
	if len(skipped) > 0 {
		notes = append(notes, fmt.Sprintf("%s fires it for %s, for which it names no %s tool; hookx wrap does not run the hook there",
			p.to.Agent, strings.Join(skipped, ", "), p.from.Agent))
	}
	if mcp {
		notes = append(notes, fmt.Sprintf("MCP tools reach the hook under their %s names, and hookx wrap runs it only for those %q matches (a server name with %q in it can split differently)",
			p.from.Agent, m, "_"))
	}
	return notes
}

// unjudged names the target's tools that the migrated matcher dst (nil:
// every tool) fires on, that run commands or change files with no
// counterpart in the hook's agent, and that the hook's matcher src (nil:
// every tool) guards by kind: hookx wrap blocks them (Table.Unjudged).
func (p *planner) unjudged(src, dst *mappings.ToolMatcher, guarded bool) []string {
	if !guarded {
		return nil
	}
	var closed []string
	for _, t := range p.to.Tools {
		if ok, err := dst.Match(t.Name); err != nil || !ok {
			continue
		}
		if acts, err := p.tbl.Unjudged(p.to, p.from, t.Name, src); err == nil && len(acts) > 0 {
			closed = append(closed, fmt.Sprintf("%s (%s)", t.Name, strings.Join(acts, " and ")))
		}
	}
	return closed
}

// mcpPattern translates one regex alternative that names MCP tools of the
// source dialect into the target's naming (T§7): mcp__github__.* becomes
// mcp_github_.*. The server part must be literal.
func (p *planner) mcpPattern(alt string) (string, bool) {
	a := strings.TrimPrefix(alt, "^")
	anchored := strings.HasSuffix(a, "$") && !strings.HasSuffix(a, `\$`)
	a = strings.TrimSuffix(a, "$")
	rest, ok := strings.CutPrefix(a, p.from.MCP.Prefix)
	if !ok || p.from.MCP.Prefix == "" {
		return "", false
	}
	var out, bare string
	switch server, tool, found := strings.Cut(rest, p.from.MCP.Separator); {
	case found && server != "" && regexp.QuoteMeta(server) == server:
		out = p.to.MCP.Prefix + server + p.to.MCP.Separator + tool
		bare = tool
	case len(p.from.MCP.Separator) > 1:
		// A pattern over the server too (mcp__.*__delete.*): the source's
		// separator cannot occur inside a name part, so each one is a
		// separator and becomes the target's.
		out = p.to.MCP.Prefix + strings.ReplaceAll(rest, p.from.MCP.Separator, p.to.MCP.Separator)
		if i := strings.LastIndex(rest, p.from.MCP.Separator); i >= 0 {
			bare = rest[i+len(p.from.MCP.Separator):]
		}
	default:
		out = p.to.MCP.Prefix + rest
	}
	if !anchored && !strings.HasSuffix(out, ".*") {
		out += ".*" // the source regex was unanchored at the end
	}
	if p.to.MCP.Bare != nil {
		// The target names an MCP tool by its own name and says no server
		// (TerminaI): the tool part alone matches it too, whatever its
		// server; hookx wrap --match runs the hook only where the source
		// matcher names that server.
		if bare == "" || !anchored && !strings.HasSuffix(bare, ".*") {
			bare += ".*"
		}
		lits := strings.NewReplacer(`\`, "", "*", "", "+", "", "?", "", "(", "", ")", "", "[", "", "]", "", "{", "", "}", "", "|", "", "^", "", "$", "").Replace(bare)
		if regexp.MustCompile(p.to.MCP.Bare.Unsafe).MatchString(lits) {
			bare = ".*" // the bare name is sanitised: hookx wrap decides
		}
		out += "|" + bare
	}
	return out, true
}

func (p *planner) valueMatcher(src, dst *mappings.Event, m *string) matcherPlan {
	var plan matcherPlan
	// The source values the matcher selects; all == true means every value.
	all := matchesAll(p.from, m) || src.Matcher == "ignored"
	var vals []string
	universe := src.Values[src.MatcherField]
	switch {
	case all:
	case src.Matcher == "exact":
		vals = []string{*m}
		known := false
		for _, v := range universe {
			known = known || v.Value == *m
		}
		if !known {
			return matcherPlan{inert: true, drop: fmt.Sprintf("%s compares %s matchers as exact strings and never sends %s %q, so this entry never fires there either",
				p.from.Agent, src.Name, src.MatcherField, *m)}
		}
	case isExactList(p.from, *m):
		vals = splitList(*m)
	default:
		re, err := p.from.Regex(*m)
		if err != nil {
			return matcherPlan{drop: fmt.Sprintf("the matcher %q is not carried: %v", *m, err)}
		}
		if ok, err := re.MatchString(""); err != nil {
			return matcherPlan{drop: fmt.Sprintf("the matcher %q is not carried: %v", *m, err)}
		} else if ok {
			all = true
			break
		}
		for _, v := range universe {
			ok, err := re.MatchString(v.Value)
			if err != nil {
				return matcherPlan{drop: fmt.Sprintf("the matcher %q is not carried: %v", *m, err)}
			}
			if ok {
				vals = append(vals, v.Value)
			}
		}
		plan.notes = append(plan.notes, fmt.Sprintf("regex %q matches the %s values %s", *m, src.MatcherField, strings.Join(vals, ", ")))
	}
	field := src.MatcherField
	if field == "" {
		field = dst.MatcherField
	}
	mapAll := func(exactOnly bool) (out []string) {
		for _, v := range vals {
			vm := p.tbl.MapValue(src, dst, field, v, exactOnly)
			if vm.Mark == mappings.None {
				plan.narrow = append(plan.narrow, fmt.Sprintf("%s: not carried (%s)", v, vm.Note))
				continue
			}
			if vm.Mark == mappings.Approximate {
				plan.notes = append(plan.notes, fmt.Sprintf("%s %q → %q is approximate: %s", field, v, vm.Value, vm.Note))
			}
			if !slices.Contains(out, vm.Value) {
				out = append(out, vm.Value)
			}
		}
		return out
	}
	switch dst.Matcher {
	case "ignored":
		if !all {
			if len(mapAll(false)) == 0 {
				plan.drop = fmt.Sprintf("%s never sends %s %s", p.to.Agent, field, strings.Join(vals, "|"))
				return plan
			}
			plan.differ = append(plan.differ, fmt.Sprintf("%s ignores the matcher on %s; the hook fires for every %s (wrap does not re-check it)", p.to.Agent, dst.Name, field))
		}
		plan.outs = []matchOut{{}}
	case "exact":
		if all {
			plan.outs = []matchOut{{}}
			return plan
		}
		for _, v := range mapAll(true) {
			plan.outs = append(plan.outs, matchOut{matcher: strp(v), value: v})
		}
		if len(plan.outs) == 0 {
			plan.drop = fmt.Sprintf("no %s value of %q has an exact %s counterpart", field, *m, p.to.Agent)
		}
	case "value":
		if all && src.Matcher == "ignored" && len(universe) == 0 {
			universe = src.Values[dst.MatcherField]
			field = dst.MatcherField
		}
		if all && src.Matcher == "ignored" && len(universe) > 0 {
			// The source host only ever sends these values: say so on the target.
			for _, v := range universe {
				vals = append(vals, v.Value)
			}
			all = false
		}
		if all {
			plan.outs = []matchOut{{}}
			return plan
		}
		out := mapAll(src.Matcher == "value") // never widen a source's value list
		if len(out) == 0 {
			plan.drop = fmt.Sprintf("no %s value of %q has a %s counterpart", field, strings.Join(vals, "|"), p.to.Agent)
			return plan
		}
		plan.outs = []matchOut{{matcher: strp(strings.Join(out, "|")), value: strings.Join(out, "|")}}
	}
	return plan
}
