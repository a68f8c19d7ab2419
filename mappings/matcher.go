package mappings

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"

	"github.com/hookx-dev/hookx/internal/jsregex"
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
	// Regex is the flavour of the agent's regexes: "" or "javascript"
	// (JavaScript's RegExp, package jsregex), "rust" (Rust's regex
	// crate, Codex) or "go" (Go's regexp, Crush: the engine hookx runs,
	// so read exactly; "*" is no "match all" there but an invalid regex).
	Regex string `json:"regex"`
	// Anchored is set when a regex must match the whole tool name (Copilot
	// CLI: "ba" does not fire for bash, seen live).
	Anchored bool `json:"anchored"`
}

// compileMatchers compiles the dialect's exact-list pattern.
func (d *Dialect) compileMatchers() error {
	d.exactList = nil
	if r := d.Matchers.Regex; r != "" && r != "javascript" && r != "rust" && r != "go" {
		return fmt.Errorf("%s: matchers.regex: %q is not javascript, rust or go", d.Name, r)
	}
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
	d.exactOnce.Do(func() { _ = d.compileMatchers() })
	return d.exactList != nil && d.exactList.MatchString(m)
}

// ToolMatcher is one tool matcher as its own dialect reads it. A nil
// *ToolMatcher matches every tool.
type ToolMatcher struct {
	d    *Dialect
	src  string
	all  bool
	list []string // an exact list
	re   Regexp   // a regex
}

// Regexp is a matcher regex compiled as its agent reads it.
type Regexp interface {
	// MatchString reports whether the regex matches anywhere in s; the
	// error says it could not be evaluated on s.
	MatchString(s string) (bool, error)
	// HasAssertions reports whether the regex has an anchor, a word
	// boundary or a lookaround.
	HasAssertions() bool
}

// Regex compiles a matcher regex in the dialect's flavour (its agent's
// engine). The error says hookx cannot evaluate it as the agent does.
func (d *Dialect) Regex(m string) (Regexp, error) {
	switch d.Matchers.Regex {
	case "rust":
		return compileRust(m)
	case "go":
		re, err := regexp.Compile(m)
		if err != nil {
			return nil, fmt.Errorf("%s rejects the regex %q, and with it the whole configuration: %w", d.Agent, m, err)
		}
		t, _ := syntax.Parse(m, syntax.Perl)
		return goRegexp{re, t != nil && hasAssertion(t)}, nil
	}
	re, err := jsregex.Compile(m)
	if err != nil {
		return nil, err // a typed nil would not be nil
	}
	return re, nil
}

// rustRegexp is a Rust regex crate pattern (Regex::new, unanchored, as
// Codex 0.169.0 calls it with regex 1.12.3) read by Go's RE2, its near
// relative, on printable-ASCII names only. compileRust refuses whatever the
// two read differently (rustDiffers): what is left is checked against Rust
// itself by TestRustMatchersLikeRust (Debian's regex 1.7.1, so the syntax
// 1.7 and 1.12 read differently is refused too), and against Codex's own
// validation by conformance.TestCodexKeepsTheMatchersHookxEvaluates.
type rustRegexp struct {
	re         *regexp.Regexp
	assertions bool
}

// rustOnly finds syntax that Go's RE2 reads differently from Rust's regex
// crate, or that only one of them reads: class set operations (&&, --, ~~),
// Unicode classes, \Q…\E, octal escapes, {,n}.
var rustOnly = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`&&|--|~~|\\[pPQ0-7]|\{,`)
})

func compileRust(m string) (Regexp, error) {
	w := rustOnly().FindString(m)
	var marked string
	if w == "" {
		w, marked = rustDiffers(m)
	}
	if w != "" {
		return nil, fmt.Errorf("hookx cannot evaluate the Rust regex %q: %q is read differently by Go's RE2", m, w)
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return nil, fmt.Errorf("hookx cannot evaluate the Rust regex %q: %w", m, err)
	}
	if t, err := syntax.Parse(marked, syntax.Perl); err == nil && rustCost(t) > rustBudget {
		return nil, fmt.Errorf("hookx cannot evaluate the Rust regex %q: it may exceed Rust's size limit, and Codex would drop it", m)
	}
	t, _ := syntax.Parse(m, syntax.Perl)
	if t != nil && matchesNothing(t) {
		return nil, fmt.Errorf("hookx cannot evaluate the Rust regex %q: it has a class that matches nothing, which Rust before 1.8 rejects", m)
	}
	return rustRegexp{re: re, assertions: t != nil && hasAssertion(t)}, nil
}

func matchesNothing(t *syntax.Regexp) bool {
	if t.Op == syntax.OpNoMatch || t.Op == syntax.OpCharClass && len(t.Rune) == 0 {
		return true
	}
	return slices.ContainsFunc(t.Sub, matchesNothing)
}

func hasAssertion(t *syntax.Regexp) bool {
	switch t.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	return slices.ContainsFunc(t.Sub, hasAssertion)
}

func (r rustRegexp) MatchString(s string) (bool, error) {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false, fmt.Errorf("%q: hookx reads Rust regexes on printable ASCII names only", s)
		}
	}
	return r.re.MatchString(s), nil
}

func (r rustRegexp) HasAssertions() bool { return r.assertions }

// goRegexp is a matcher regex of an agent written in Go (Crush:
// regexp.Compile and MatchString, unanchored), read by the same engine.
type goRegexp struct {
	re         *regexp.Regexp
	assertions bool
}

func (r goRegexp) MatchString(s string) (bool, error) { return r.re.MatchString(s), nil }

func (r goRegexp) HasAssertions() bool { return r.assertions }

// ErrMatcher is wrapped by the errors of a matcher hookx cannot evaluate as
// its agent would.
var ErrMatcher = errors.New("matcher not evaluated")

// matcherError is err, marked as ErrMatcher.
type matcherError struct{ err error }

func (e matcherError) Error() string   { return e.err.Error() }
func (e matcherError) Unwrap() []error { return []error{ErrMatcher, e.err} }

// ToolMatcher compiles a tool matcher the way the dialect's agent reads it:
// a regex in the dialect's flavour (Regex). It returns an error wrapping
// ErrMatcher when hookx cannot evaluate it: a construct hookx does not read
// as every engine the agents run on would, or a regex JavaScript rejects
// (Claude never fires one; Gemini compares it as a string, and no tool name
// holds the characters that make one invalid, so such a matcher is an error
// here too).
func (d *Dialect) ToolMatcher(m string) (*ToolMatcher, error) {
	tm := &ToolMatcher{d: d, src: m}
	if d.Matchers.Trim {
		m = jsregex.Trim(m)
	}
	switch {
	case d.MatchesAll(m):
		tm.all = true
	case d.IsExactList(m):
		for _, f := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if f = strings.TrimSpace(f); f != "" {
				tm.list = append(tm.list, f)
			}
		}
	default:
		if d.Matchers.Anchored {
			m = "^(?:" + m + ")$"
		}
		re, err := d.Regex(m)
		if err != nil {
			return nil, matcherError{err}
		}
		tm.re = re
	}
	return tm, nil
}

// MatchesAll reports whether the agent reads matcher m, already trimmed
// where it trims, as every tool: "" always, "*" unless its regexes are Go's
// (Crush), which reject it.
func (d *Dialect) MatchesAll(m string) bool {
	return m == "" || m == "*" && d.Matchers.Regex != "go"
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

// Match reports whether the matcher fires for a tool whose tool_name is
// name. Where the dialect resolves aliases, a matcher naming an alias of
// the tool fires too. The error (wrapping ErrMatcher) says the regex could
// not be evaluated on name: it took too long, or name has characters
// JavaScript reads as two units; the caller fails closed.
func (m *ToolMatcher) Match(name string) (bool, error) {
	if m.All() {
		return true, nil
	}
	names := []string{name}
	if t := m.d.Tool(name); m.d.Matchers.Aliases && t != nil && t.Name == name {
		names = append(names, t.Aliases...)
	}
	for _, n := range names {
		if m.list != nil && slices.Contains(m.list, n) {
			return true, nil
		}
		if m.re != nil {
			ok, err := m.re.MatchString(n)
			if err != nil {
				return false, matcherError{err}
			}
			if ok {
				return true, nil
			}
		}
	}
	return false, nil
}

// MatchesEveryName reports whether the matcher fires for every tool name,
// MCP tools included: it matches all, or is a regex without assertions that
// matches the empty string, and so matches at the start of any name. A
// regex with a lookahead or an anchor (^(?!Bash)) is not read as one.
func (m *ToolMatcher) MatchesEveryName() bool {
	if m.All() {
		return true
	}
	if m.re == nil || m.re.HasAssertions() {
		return false
	}
	ok, err := m.re.MatchString("")
	return ok && err == nil
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
// m matches it unchanged. An error wrapping ErrMatcher says m could not be
// evaluated (fits is false): the caller cannot know whether the hook's own
// agent would run the hook, and fails closed.
func (t *Table) HookTool(host, hook *Dialect, name string, m *ToolMatcher) (tm ToolMapping, fits bool, err error) {
	tm, err = t.MapTool(host, hook, name)
	if err != nil {
		if bm, fits, ok, berr := bareMCPTool(host, hook, name, m); ok {
			return bm, fits, berr
		}
		fits, merr := m.Match(name)
		if merr != nil {
			return tm, false, merr
		}
		return tm, fits, err
	}
	if tm.From == nil || tm.From.Canonical == "" { // MCP, or no canonical concept
		passed := tm.Name
		if passed == "" {
			passed = name
		}
		if server, tool, ok := host.SplitMCP(name, nil); ok && tm.From == nil && hook.MCP.Bare != nil {
			// The hook's agent would give it one of several names (TerminaI:
			// bare, or server__tool when that one is taken): the one its
			// matcher names.
			for _, n := range hook.MCPNames(server, tool) {
				if ok, err := m.Match(n); err != nil || ok {
					if n != tm.Name {
						tm.Note = joinNotes(fmt.Sprintf("presented as %s, the name the hook's matcher names", n), tm.Note)
					}
					tm.Name = n
					return tm, ok, err
				}
			}
		}
		if splits := host.MCPSplits(name); tm.From == nil && len(splits) > 1 {
			return ambiguousMCPTool(hook, tm, splits, m)
		}
		fits, err := m.Match(passed)
		return tm, fits, err
	}
	for _, c := range slices.Concat(hook.ToolsFor(tm.From.Canonical), alsoTools(hook, tm.From)) {
		if ok, err := m.Match(c.Name); err != nil {
			return tm, false, err
		} else if !ok {
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
		fits, err := m.Match(name) // passed on unchanged
		return tm, fits, err
	}
	return tm, false, nil
}

// bareMCPTool maps a host tool name that is not one of the host's tools,
// where the host names MCP tools bare (TerminaI): it may be an MCP tool of
// any server. ok is false where there is nothing to decide: the host names
// MCP tools with their server, the hook's agent has no MCP naming, or m
// matches every name (the name is passed on as it is). Otherwise the tool
// is presented under the one server m names that it fits (approximate: the
// name does not say the server); where m names MCP tools and hookx cannot
// tell which server's this is, the error wraps ErrMatcher and the caller
// fails closed.
func bareMCPTool(host, hook *Dialect, name string, m *ToolMatcher) (tm ToolMapping, fits, ok bool, err error) {
	if host.MCP.Bare == nil || hook.MCP.Prefix == "" || m.MatchesEveryName() {
		return ToolMapping{}, false, false, nil
	}
	src := m.String()
	if !strings.Contains(src, hook.MCP.Prefix) {
		return ToolMapping{}, false, false, nil // it names no MCP tool
	}
	servers := regexp.MustCompile(regexp.QuoteMeta(hook.MCP.Prefix)+`([A-Za-z0-9_.-]+?)`+regexp.QuoteMeta(hook.MCP.Separator)).FindAllStringSubmatch(src, -1)
	var hits []string
	for _, sm := range servers {
		n, _ := hook.MCPName(sm[1], name)
		if slices.Contains(hits, n) {
			continue
		}
		yes, err := m.Match(n)
		if err != nil {
			return ToolMapping{}, false, true, err
		}
		if yes {
			hits = append(hits, n)
		}
	}
	if len(hits) == 1 {
		return ToolMapping{Name: hits[0], Mark: Approximate,
			Note: fmt.Sprintf("%s's name %s does not say its MCP server; presented as %s, the one tool of that name the hook's matcher names (%s)", host.Agent, name, hits[0], host.MCPNote())}, true, true, nil
	}
	if len(hits) == 0 {
		// The matcher names MCP tools, not this one under any server it
		// spells out; under another server a pattern may still match it.
		if probe, _ := hook.MCPName("hookx-unnamed-server", name); !func() bool { ok, err := m.Match(probe); return ok || err != nil }() {
			fits, err := m.Match(name)
			return ToolMapping{}, fits, true, err
		}
	}
	return ToolMapping{}, false, true, matcherError{fmt.Errorf("%s names MCP tools without their server, and %s may be the tool of %s the hook's matcher %q names: hookx cannot tell which",
		host.Agent, name, map[bool]string{true: "several servers", false: "a server"}[len(hits) > 1], src)}
}

// ambiguousMCPTool maps an MCP tool whose name splits into server and
// tool in several ways (splits, MCPSplits'): the host's agent knows which
// server it came from, hookx does not. A matcher naming it under any split
// runs the hook, presented under the first name the matcher names: a guard
// of server my_server (mcp__my_server__.*) must run on OpenCode's
// my_server_delete_repo, which the first split alone makes my's
// server_delete_repo, and let it run unguarded.
func ambiguousMCPTool(hook *Dialect, tm ToolMapping, splits [][2]string, m *ToolMatcher) (ToolMapping, bool, error) {
	first := tm.Name
	for _, sp := range splits {
		for _, n := range hook.MCPNames(sp[0], sp[1]) {
			ok, err := m.Match(n)
			if err != nil {
				return tm, false, err
			}
			if !ok {
				continue
			}
			if n != first {
				tm.Name = n
				tm.Note = joinNotes(fmt.Sprintf("presented as %s (server %s), the name the hook's matcher names: the host's name does not say where its server's name ends", n, sp[0]), tm.Note)
			}
			tm.Mark = worse(tm.Mark, Approximate)
			return tm, true, nil
		}
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

// counterpart reports whether the host's tool has a tool of the other
// dialect that stands for it.
func (t *Table) counterpart(host, other *Dialect, tool *Tool) bool {
	tm, err := t.MapTool(host, other, tool.Name)
	return err == nil && tm.To != nil
}

// Unjudged reports what the host's tool name does that a hook of dialect
// hook, whose own matcher is m, would guard but cannot judge: the tool acts
// (Tool.Acts: it runs commands, changes files) with no counterpart in the
// hook's dialect, and m names a tool of the hook's agent that acts so, or
// every tool. Shown the call under a name it does not know, or never
// shown it, the guard would let it run; its caller fails the guard closed
// with the phrases returned ("runs commands"). nil: the hook can judge the
// call, or would not guard it.
func (t *Table) Unjudged(host, hook *Dialect, name string, m *ToolMatcher) ([]string, error) {
	src := host.Tool(name)
	if src == nil || len(src.Acts) == 0 || t.counterpart(host, hook, src) {
		return nil, nil
	}
	var out []string
	for _, a := range src.Acts {
		named := m.MatchesEveryName()
		for _, c := range hook.ToolsFor(a) {
			if named {
				break
			}
			ok, err := m.Match(c.Name)
			if err != nil {
				return nil, err
			}
			named = ok
		}
		if phrase := t.Canonical.Tool(a).Acts; named && !slices.Contains(out, phrase) {
			out = append(out, phrase)
		}
	}
	return out, nil
}

// ActingFor returns the host's tools that act as the canonical tool does
// (Tool.Acts) and have no counterpart in dialect hook: a hook of that
// dialect guarding the canonical tool must be run for them too, to fail
// closed there (Unjudged).
func (t *Table) ActingFor(host, hook *Dialect, canonical string) []*Tool {
	var out []*Tool
	for _, tool := range host.Tools {
		if slices.Contains(tool.Acts, canonical) && !t.counterpart(host, hook, tool) {
			out = append(out, tool)
		}
	}
	return out
}
