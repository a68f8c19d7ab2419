package migrate

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// ShellQuote quotes s as one POSIX shell word: single quotes, with each
// single quote written as '\”. sh -c and bash -c both read it back as s.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// HostQuote quotes s as one shell word that no host substitutes anything
// in: single quotes, with each single quote written '\” and each $ that
// starts a name, a digit or a brace written '\$'. sh -c and bash -c read
// it back as s, and it still reads as s. Without that, Gemini CLI would
// replace $GEMINI_PROJECT_DIR and four more bare references anywhere in
// the text, quotes or not (expandCommand), and expand every $NAME and
// ${NAME} it has a value for when it loads the settings
// (resolveEnvVarsInString, gemini-cli-hooks.md §8.3); Claude Code refuses
// a settings hook whose text holds ${CLAUDE_PLUGIN_ROOT}.
func HostQuote(s string) string {
	q := ShellQuote(s)
	if q == s {
		return s // a plain word has no $
	}
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			b.WriteString(`'\''`)
		case c == '$' && i+1 < len(s) && (s[i+1] == '{' || s[i+1] == '_' || isASCIILetter(s[i+1]) || '0' <= s[i+1] && s[i+1] <= '9'):
			b.WriteString(`'\$'`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	out := b.String()
	// Drop the empty '' that a leading or trailing escape leaves.
	if len(out) > 2 && strings.HasPrefix(out, "''") && out[2] == '\\' {
		out = out[2:]
	}
	if len(out) > 4 && strings.HasSuffix(out, `\'''`) {
		out = out[:len(out)-2]
	}
	return out
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// shellLang is the parser variant for a dialect's shell.
func shellLang(shell string) syntax.LangVariant {
	if shell == "bash" {
		return syntax.LangBash
	}
	return syntax.LangPOSIX
}

// parseCommand parses a hook command as its agent's shell reads it.
func parseCommand(cmd, shell string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(shellLang(shell)), syntax.KeepComments(true)).
		Parse(strings.NewReader(cmd), "")
}

// varRef is one parameter expansion in a command: $NAME or ${NAME...}.
type varRef struct {
	name       string
	start, end int  // byte offsets of the whole expansion
	short      bool // $NAME, not ${NAME}
	plain      bool // ${NAME} or $NAME with no operator
	context    refContext
}

// refContext is where an expansion stands, which decides how a
// replacement must be written.
type refContext int

const (
	unquoted refContext = iota // word splitting applies
	inDouble                   // inside "…" (or an unquoted here-doc body)
)

// commandRefs lists the parameter expansions of a parsed command, with the
// quoting context of each: the innermost of "…", a here-doc body, $(…) or
// `…` that holds it decides.
func commandRefs(f *syntax.File) []varRef {
	type span struct {
		start, end int
		ctx        refContext
	}
	var spans []span
	var refs []varRef
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DblQuoted:
			spans = append(spans, span{int(n.Pos().Offset()), int(n.End().Offset()), inDouble})
		case *syntax.Redirect:
			if n.Hdoc != nil && (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && !quotedDelim(n.Word) {
				spans = append(spans, span{int(n.Hdoc.Pos().Offset()), int(n.Hdoc.End().Offset()), inDouble})
			}
		case *syntax.CmdSubst:
			spans = append(spans, span{int(n.Pos().Offset()), int(n.End().Offset()), unquoted})
		case *syntax.ParamExp:
			if n.Param == nil {
				return true
			}
			refs = append(refs, varRef{
				name: n.Param.Value, start: int(n.Pos().Offset()), end: int(n.End().Offset()),
				short: n.Short,
				plain: !n.Excl && !n.Length && !n.Width && n.Index == nil && n.Slice == nil && n.Repl == nil && n.Names == 0 && n.Exp == nil,
			})
		}
		return true
	})
	for i := range refs {
		best := -1
		for j, s := range spans {
			if s.start <= refs[i].start && refs[i].end <= s.end && (best < 0 || s.start >= spans[best].start) {
				best = j
			}
		}
		if best >= 0 {
			refs[i].context = spans[best].ctx
		}
	}
	return refs
}

// quotedDelim reports a here-doc delimiter with quotes: its body is
// literal.
func quotedDelim(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.Lit); !ok {
			return true
		}
		if strings.Contains(p.(*syntax.Lit).Value, `\`) {
			return true
		}
	}
	return false
}

// literalTexts are the spans of a command whose text the shell never
// expands but a host's text substitution still reaches: single-quoted
// strings, quoted here-doc bodies and comments.
func literalTexts(f *syntax.File) [][2]int {
	var out [][2]int
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			out = append(out, [2]int{int(n.Pos().Offset()), int(n.End().Offset())})
		case *syntax.Redirect:
			if n.Hdoc != nil && quotedDelim(n.Word) {
				out = append(out, [2]int{int(n.Hdoc.Pos().Offset()), int(n.Hdoc.End().Offset())})
			}
		}
		return true
	})
	for _, c := range f.Stmts {
		for _, cm := range c.Comments {
			out = append(out, [2]int{int(cm.Pos().Offset()), int(cm.End().Offset())})
		}
	}
	return out
}

// envRule rewrites one variable reference in a hook command.
type envRule struct {
	to      string // the variable to use instead; "" with literal set
	literal string // a value to put in place of the reference (a resolved path)
	quote   bool   // double-quote the reference when it stands unquoted (a path)
}

type edit struct {
	start, end int
	text       string
}

func applyEdits(s string, edits []edit) string {
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	var b strings.Builder
	last := 0
	for _, e := range edits {
		if e.start < last {
			continue // nested in an edit already made
		}
		b.WriteString(s[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// rewriteEdits rewrites the variable references of a parsed shell command by
// rules, in the brace form, where the shell would expand them (never in
// single quotes, a quoted here-doc or a comment), quoting a path only
// where it stands unquoted; it returns the names of the references it
// found that match unknown (the source's variables without a
// counterpart). It is for commands copied to the other agent as they are
// (--no-wrap); a wrapped command is never rewritten.
func rewriteEdits(cmd string, f *syntax.File, rules map[string]envRule, unknown func(string) bool) ([]edit, []string) {
	var missing []string
	var edits []edit
	for _, r := range commandRefs(f) {
		rule, ok := rules[r.name]
		if !ok {
			if unknown != nil && unknown(r.name) {
				missing = append(missing, r.name)
			}
			continue
		}
		var text string
		switch {
		case rule.literal != "" && !r.plain:
			continue // ${VAR:-x} on a resolved path: keep it as written
		case rule.literal != "" && r.context == inDouble:
			text = strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`").Replace(rule.literal)
		case rule.literal != "":
			text = ShellQuote(rule.literal)
		case r.short:
			text = "${" + rule.to + "}"
		default:
			text = "${" + rule.to + cmd[r.start+2+len(r.name):r.end]
		}
		if rule.literal == "" && r.context == unquoted && rule.quote {
			text = `"` + text + `"`
		}
		edits = append(edits, edit{r.start, r.end, text})
	}
	return edits, missing
}

// protectEdits rewrites, in the single-quoted strings of a parsed
// command, each of refs the host would substitute in the text so that it
// no longer matches ('…$NAME…' becomes '…'\$'NAME…'), and returns the
// refs it could not protect: those in a quoted here-doc body or a comment
// (the latter harmless).
func protectEdits(cmd string, f *syntax.File, refs []string) ([]edit, []string) {
	var edits []edit
	var left []string
	for _, span := range literalTexts(f) {
		text := cmd[span[0]:span[1]]
		single := strings.HasPrefix(text, "'")
		for _, ref := range refs {
			for off := strings.Index(text, ref); off >= 0; {
				if !single {
					left = append(left, ref)
					break
				}
				edits = append(edits, edit{span[0] + off, span[0] + off + 1, `'\$'`})
				next := strings.Index(text[off+1:], ref)
				if next < 0 {
					break
				}
				off += 1 + next
			}
		}
	}
	return edits, slices.Compact(left)
}

// loadProtectEdits rewrites what a target's load-time expansion (re,
// mappings.Command.LoadVar) would replace in the text of a command so that
// it no longer matches and the shell alone expands it, as under the hook's
// own agent: $NAME and ${NAME} become ${NAME-}, which bash reads the same;
// in single quotes, '…$NAME…' becomes '…'\$'NAME…', and an escaped \$NAME
// becomes \$""NAME. It returns what it could not protect: an expansion
// with an operator (${NAME:-x}), or text in a quoted here-doc or a comment.
func loadProtectEdits(cmd string, f *syntax.File, re *regexp.Regexp) ([]edit, []string) {
	refs := map[int]varRef{}
	for _, r := range commandRefs(f) {
		refs[r.start] = r
	}
	lits := literalTexts(f)
	var edits []edit
	var left []string
	for _, m := range re.FindAllStringSubmatchIndex(cmd, -1) {
		name := ""
		for g := 2; g+1 < len(m) && g <= 4; g += 2 {
			if m[g] >= 0 {
				name = cmd[m[g]:m[g+1]]
				break
			}
		}
		if !shellName().MatchString(name) && strings.Trim(name, "0123456789") != "" {
			continue // no environment holds such a name: left as written
		}
		if r, ok := refs[m[0]]; ok {
			if r.plain && r.end == m[1] {
				edits = append(edits, edit{r.start, r.end, "${" + r.name + "-}"})
			} else {
				left = append(left, cmd[m[0]:m[1]])
			}
			continue
		}
		single, literal := false, false
		for _, sp := range lits {
			if sp[0] <= m[0] && m[1] <= sp[1] {
				literal = true
				single = single || strings.HasPrefix(cmd[sp[0]:], "'")
			}
		}
		switch {
		case single:
			edits = append(edits, edit{m[0], m[0] + 1, `'\$'`})
		case !literal && m[0] > 0 && cmd[m[0]-1] == '\\':
			// An escaped \$NAME, quoted or not: \$""NAME reads the same.
			edits = append(edits, edit{m[0], m[0] + 1, `$""`})
		default:
			left = append(left, cmd[m[0]:m[1]])
		}
	}
	return edits, slices.Compact(left)
}

// argPlaceholder matches the placeholders Claude Code substitutes in an
// exec-form argument (claude-code-hooks.md §7).
var argPlaceholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}`)
})

// quoteArg quotes one exec-form argument for a shell command line, keeping
// the placeholders Claude would have substituted as double-quoted variable
// references, which the environment rewriting then maps for the target.
func quoteArg(a string) string {
	locs := argPlaceholder().FindAllStringIndex(a, -1)
	if len(locs) == 0 {
		return ShellQuote(a)
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		if l[0] > last {
			b.WriteString(ShellQuote(a[last:l[0]]))
		}
		b.WriteString(`"` + a[l[0]:l[1]] + `"`)
		last = l[1]
	}
	if last < len(a) {
		b.WriteString(ShellQuote(a[last:]))
	}
	return b.String()
}

// wrapCall is a command that is one call of hookx wrap.
type wrapCall struct {
	from       string
	failClosed bool
	timeout    string   // --timeout, as written
	extra      []string // flags other than --from, --host, --timeout and --fail-closed
	env        []string // --env values
	command    []string // after --
}

// WrapValueFlags are hookx wrap's flags that take a value; a test in
// cmd/hookx keeps them in step with the command's own.
var WrapValueFlags = map[string]bool{"--from": true, "--host": true, "--timeout": true, "--env": true,
	"--ask": true, "--trace": true, "--match": true, "--event": true, "--host-event": true}

// parseWrapCall recognizes a command that is exactly one `hookx wrap …`
// call whose words are all literal, and returns its parts.
func parseWrapCall(cmd, shell string) (*wrapCall, bool) {
	f, err := parseCommand(cmd, shell)
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) < 3 {
		return nil, false
	}
	words := make([]string, len(call.Args))
	for i, w := range call.Args {
		for _, p := range w.Parts {
			switch p.(type) {
			case *syntax.Lit, *syntax.SglQuoted:
			case *syntax.DblQuoted:
				for _, q := range p.(*syntax.DblQuoted).Parts {
					if _, lit := q.(*syntax.Lit); !lit {
						return nil, false
					}
				}
			default:
				return nil, false
			}
		}
		s, err := wordValue(w)
		if err != nil {
			return nil, false
		}
		words[i] = s
	}
	if path.Base(words[0]) != "hookx" || words[1] != "wrap" {
		return nil, false
	}
	wc := &wrapCall{}
	rest := words[2:]
	for len(rest) > 0 {
		a := rest[0]
		rest = rest[1:]
		name, val, hasVal := strings.Cut(a, "=")
		if WrapValueFlags[name] && !hasVal {
			if len(rest) == 0 {
				return nil, false
			}
			val, rest = rest[0], rest[1:]
		}
		switch {
		case a == "--":
			wc.command = rest
			rest = nil
		case name == "--from":
			wc.from = val
		case name == "--timeout":
			wc.timeout = val
		case name == "--host", name == "--host-event", name == "--match", name == "--event", a == "-v", a == "--verbose":
			// Derived again from the entry's own group, or diagnostics only.
		case a == "--fail-closed":
			wc.failClosed = true
		case name == "--env":
			wc.env = append(wc.env, val)
		case WrapValueFlags[name]:
			wc.extra = append(wc.extra, name, val)
		case !strings.HasPrefix(a, "-"):
			wc.command = append([]string{a}, rest...)
			rest = nil
		default:
			return nil, false
		}
	}
	if wc.from == "" || len(wc.command) == 0 {
		return nil, false
	}
	return wc, true
}

// wordValue is the one string a literal shell word stands for, after quote
// removal.
func wordValue(w *syntax.Word) (string, error) {
	fs, err := expand.Fields(nil, w)
	if err != nil {
		return "", err
	}
	if len(fs) != 1 {
		return "", fmt.Errorf("%d fields", len(fs))
	}
	return fs[0], nil
}
