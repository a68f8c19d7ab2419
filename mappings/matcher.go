package mappings

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// MatcherRules say how a dialect reads a tool matcher (CC§6, GC§7).
type MatcherRules struct {
	// ExactList is the pattern of a matcher read as a list of exact names,
	// split on | and , (Claude); "" when every matcher is a regex.
	ExactList string `json:"exactList"`
	// Aliases is set when a matcher that names a tool's alias fires for the
	// tool, while the hook is still told the tool's own name (Claude: Task
	// fires for Agent).
	Aliases bool `json:"aliases"`
	// Trim is set when the matcher is trimmed of white space first.
	Trim bool `json:"trim"`
}

// compileMatchers compiles the dialect's exact-list pattern.
func (d *Dialect) compileMatchers() error {
	d.exactList = nil
	if d.Matchers.ExactList == "" {
		return nil
	}
	re, err := regexp.Compile(d.Matchers.ExactList)
	if err != nil {
		return fmt.Errorf("%s: matchers.exactList: %w", d.Name, err)
	}
	d.exactList = re
	return nil
}

// IsExactList reports whether the dialect reads m as a list of exact names.
func (d *Dialect) IsExactList(m string) bool {
	d.ensureIndex()
	return d.exactList != nil && d.exactList.MatchString(m)
}

// ToolMatcher is one tool matcher as its own dialect reads it. A nil
// *ToolMatcher matches every tool.
type ToolMatcher struct {
	d    *Dialect
	src  string
	all  bool
	list []string       // an exact list
	re   *regexp.Regexp // a regex
}

// jsOnlyRE2 matches RE2 syntax that JavaScript regexes do not have: inline
// flags, \A \z \Q…\E, POSIX classes, named groups in Go's (?P<…>) form.
// It is compiled on first use: wrap's start-up pays for no regexp it does
// not use.
var jsOnlyRE2 = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\(\?[imsU-]+[:)]|\(\?P<|\\[AzQE]|\[\[:[a-z]+:\]\]`)
})

// NotJavaScript says why expr is not a JavaScript regex with the same
// meaning in Go, or "" when it is one as far as hookx can tell.
func NotJavaScript(expr string) string {
	if m := jsOnlyRE2().FindString(expr); m != "" {
		return "RE2-only syntax " + strconv.Quote(m)
	}
	return ""
}

// ToolMatcher compiles a tool matcher the way the dialect's agent reads it.
// It returns an error when hookx cannot evaluate it: a regex Go's RE2 cannot
// read, or syntax that means something else in JavaScript. (Gemini compares
// a regex JavaScript rejects as a string; no tool name holds the characters
// that make one invalid, so such a matcher is an error here too.)
func (d *Dialect) ToolMatcher(m string) (*ToolMatcher, error) {
	tm := &ToolMatcher{d: d, src: m}
	if d.Matchers.Trim {
		m = strings.TrimSpace(m)
	}
	switch {
	case m == "" || m == "*":
		tm.all = true
	case d.IsExactList(m):
		for _, f := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if f = strings.TrimSpace(f); f != "" {
				tm.list = append(tm.list, f)
			}
		}
	default:
		if why := NotJavaScript(m); why != "" {
			return nil, fmt.Errorf("the matcher %q is not a JavaScript regex (%s)", m, why)
		}
		re, err := regexp.Compile(m)
		if err != nil {
			return nil, fmt.Errorf("the matcher %q is a regex Go's RE2 cannot evaluate (%v)", m, err)
		}
		tm.re = re
	}
	return tm, nil
}

// String returns the matcher as written.
func (m *ToolMatcher) String() string {
	if m == nil {
		return ""
	}
	return m.src
}

// All reports whether the matcher matches every tool.
func (m *ToolMatcher) All() bool { return m == nil || m.all }

// Matches reports whether the matcher fires for a tool whose tool_name is
// name. Where the dialect resolves aliases, a matcher naming an alias of
// the tool fires too.
func (m *ToolMatcher) Matches(name string) bool {
	if m.All() {
		return true
	}
	names := []string{name}
	if t := m.d.Tool(name); m.d.Matchers.Aliases && t != nil && t.Name == name {
		names = append(names, t.Aliases...)
	}
	for _, n := range names {
		switch {
		case m.list != nil && slices.Contains(m.list, n),
			m.re != nil && m.re.MatchString(n):
			return true
		}
	}
	return false
}

// ToolsFor returns every tool of the dialect for a canonical tool id: the
// primary one first, then the legacy ones in table order.
func (d *Dialect) ToolsFor(canonical string) []*Tool {
	d.ensureIndex()
	var out []*Tool
	if t := d.toolByCanon[canonical]; t != nil {
		out = append(out, t)
	}
	for _, t := range d.Tools {
		if t.Canonical == canonical && t.Legacy {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		if t, _ := d.ToolFor(canonical); t != nil {
			out = append(out, t) // a tool that also performs it
		}
	}
	return out
}

// HookTool maps the host's tool name to the tool a hook of dialect hook
// sees, given the hook's own matcher m (nil: every tool). Of the hook's
// tools that stand for the host's tool, its primary tool first, then its
// legacy ones, it picks the first m matches: a Claude hook matching LS sees
// Gemini's list_directory as LS, one matching MultiEdit and not Edit sees
// replace as MultiEdit. fits is false when m matches none of them, nor the
// name the hook would otherwise be given: the hook's own agent would not
// have run it. An unknown host name is an error, with fits saying whether
// m matches it unchanged.
func (t *Table) HookTool(host, hook *Dialect, name string, m *ToolMatcher) (tm ToolMapping, fits bool, err error) {
	tm, err = t.MapTool(host, hook, name)
	if err != nil {
		return tm, m.Matches(name), err
	}
	if tm.From == nil || tm.From.Canonical == "" { // MCP, or no canonical concept
		passed := tm.Name
		if passed == "" {
			passed = name
		}
		return tm, m.Matches(passed), nil
	}
	for _, c := range slices.Concat(hook.ToolsFor(tm.From.Canonical), alsoTools(hook, tm.From)) {
		if !m.Matches(c.Name) {
			continue
		}
		if c == tm.To {
			return tm, true, nil
		}
		mark := worse(tm.From.Mark, c.Mark)
		if c.Legacy {
			mark = worse(mark, Approximate)
		}
		why := fmt.Sprintf("presented as %s, the tool the hook's matcher names", c.Name)
		if m.All() {
			why = fmt.Sprintf("presented under %s's name %s", hook.Agent, c.Name)
		}
		note := joinNotes(why, joinNotes(c.Note, tm.From.Note))
		return ToolMapping{From: tm.From, To: c, Name: c.Name, Mark: mark, Note: note, Live: tm.From.Live && c.Live}, true, nil
	}
	if tm.To == nil {
		return tm, m.Matches(name), nil // passed on unchanged
	}
	return tm, false, nil
}

// alsoTools are the tools of d that stand for the other canonical tools t
// also performs.
func alsoTools(d *Dialect, t *Tool) []*Tool {
	var out []*Tool
	for _, a := range t.Also {
		out = append(out, d.ToolsFor(a)...)
	}
	return out
}
