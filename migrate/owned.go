package migrate

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// An owned id is hookx:<Event>:<n>:<hash8>@<dialect>:<scope>: the origin
// names the source the entry came from, its dialect and its scope (project,
// local, user, or plugin:<dir> for a plugin or extension), so that a run
// removes only entries of sources it read: a run from Gemini's settings
// never takes the entries of Claude's for its own stale ones. The hash is
// of the source handler (event, matcher, the handler's JSON). Ids written
// by older hookx versions have only the scope (@project), or no origin at
// all; see entryOrigin for how those are attributed.
var ownedID = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^hookx:[A-Za-z]+:[0-9]+:[0-9a-f]{8}(@[A-Za-z0-9._~/%:+-]+)?$`)
})

// IsOwnedID reports whether s has the form of an id hookx writes. Only
// together with the hookx command form (see exactOwned) does it make an
// entry hookx's.
func IsOwnedID(s string) bool { return ownedID().MatchString(s) }

// idOrigin returns the origin part of an owned id, "" for an old id.
func idOrigin(id string) string {
	if _, o, ok := strings.Cut(id, "@"); ok {
		return o
	}
	return ""
}

// baseID is an id without its origin.
func baseID(id string) string {
	b, _, _ := strings.Cut(id, "@")
	return b
}

// escapeOrigin keeps an origin (a directory for plugins) inside the id's
// alphabet: other bytes are written %XX. A path with spaces or a newline
// thus never ends a Claude command's marker comment early.
func escapeOrigin(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._~/:+-", c) >= 0) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// sourceOrigin is how the ids of entries made from s, a source of the
// dialect from, name it: <dialect>:<scope>.
func sourceOrigin(from string, s Source) string {
	o := s.Origin
	switch {
	case s.Scope == "plugin" && o != "":
		o = "plugin:" + o
	case o != "":
	case s.Scope == "plugin":
		o = "plugin:" + s.Path
	case s.Scope == "":
		o = "project"
	default:
		o = s.Scope
	}
	return escapeOrigin(from + ":" + o)
}

// entryOrigin is what an owned entry of the target tells of its source:
// the dialect and the scope, each "" where it does not tell. An id of this
// hookx names both. An id of an older hookx names the scope only
// (@project), or nothing; its dialect is then the one its command's
// hookx wrap --from names, if any (a --no-wrap entry's command names none).
type entryOrigin struct {
	dialect, scope string // as in the id (escapeOrigin's alphabet)
	legacy         bool   // written by an older hookx
}

// key is the origin as this hookx writes it, "" unless both parts are known.
func (o entryOrigin) key() string {
	if o.dialect == "" || o.scope == "" {
		return ""
	}
	return o.dialect + ":" + o.scope
}

// mayBe reports whether the entry may have come from origin key (a
// dialect:scope this run read): nothing it tells contradicts it.
func (o entryOrigin) mayBe(key string) bool {
	d, s, _ := strings.Cut(key, ":")
	return (o.dialect == "" || o.dialect == d) && (o.scope == "" || o.scope == s)
}

// originOf reads the origin of an owned entry with this id and command.
func (p *planner) originOf(id, command string) entryOrigin {
	o := idOrigin(id)
	if d, scope, ok := strings.Cut(o, ":"); ok {
		if _, err := p.tbl.Dialect(d); err == nil {
			return entryOrigin{dialect: d, scope: scope}
		}
	}
	eo := entryOrigin{scope: o, legacy: true}
	if w, ok := parseWrap(command); ok {
		if d, ok := w.value("--from"); ok {
			if _, err := p.tbl.Dialect(d); err == nil {
				eo.dialect = d
			}
		}
	}
	return eo
}

// unescapeOrigin undoes escapeOrigin (for messages); text that is not
// escapeOrigin's is returned as it is.
func unescapeOrigin(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// exactOwned reports whether a handler with this id (its name, or its
// command's marker) and command is one hookx wrote: the id must have
// hookx's form, and the command must be `hookx wrap … -- …` or, for a
// --no-wrap entry, the id must name its origin. A user's own hook that is
// merely named like hookx's ids is not hookx's.
func exactOwned(id, command string) bool {
	if !IsOwnedID(id) {
		return false
	}
	_, ok := parseWrap(command)
	return ok || idOrigin(id) != ""
}

// wrapFlag is one option of a `hookx wrap` command with its value words.
type wrapFlag struct {
	name       string // "--timeout", "--fail-closed"
	text       string // as written, values included
	start, end int
	words      []*syntax.Word // the option's word and its value words
}

// wrapCmd is a parsed `<hookx> wrap [flags] -- <command>`.
type wrapCmd struct {
	flags []wrapFlag
	sep   int // byte offset of the "--" that ends the flags
}

// value is the value of the wrap option name (--from claude,
// --from=claude, --match 'Read|LS'), its shell quoting undone; ok is false
// when the command has no such option or its value is no plain literal.
func (w *wrapCmd) value(name string) (string, bool) {
	for _, f := range w.flags {
		if f.name != name {
			continue
		}
		s, err := expand.Literal(nil, f.words[0])
		if err != nil {
			return "", false
		}
		if _, v, ok := strings.Cut(s, "="); ok {
			return v, true
		}
		if len(f.words) < 2 {
			return "", false
		}
		v, err := expand.Literal(nil, f.words[1])
		return v, err == nil
	}
	return "", false
}

// parseWrap parses cmd as hookx's command form: one simple command whose
// second word is wrap, with --from and --host options, then "--" and the
// hook's own command. It reads shell text with mvdan.cc/sh, so quoting in
// the hookx path or the flags cannot fool it.
func parseWrap(cmd string) (*wrapCmd, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) < 4 || call.Args[1].Lit() != "wrap" {
		return nil, false
	}
	w := &wrapCmd{sep: -1}
	var from, host bool
	for i := 2; i < len(call.Args); i++ {
		a := call.Args[i]
		lit := a.Lit()
		if lit == "--" {
			if i == len(call.Args)-1 {
				return nil, false
			}
			w.sep = int(a.Pos().Offset())
			break
		}
		start, end := int(a.Pos().Offset()), int(a.End().Offset())
		if strings.HasPrefix(lit, "-") {
			name, _, _ := strings.Cut(lit, "=")
			from = from || name == "--from"
			host = host || name == "--host"
			w.flags = append(w.flags, wrapFlag{name: name, text: cmd[start:end], start: start, end: end, words: []*syntax.Word{a}})
		} else if n := len(w.flags); n > 0 {
			prev := &w.flags[n-1]
			prev.end = end
			prev.words = append(prev.words, a)
			prev.text = cmd[prev.start:end]
		} else {
			return nil, false
		}
	}
	if w.sep < 0 || !from || !host {
		return nil, false
	}
	return w, true
}

// keptByHand are the wrap options a hand-edited entry keeps when the run
// does not write them: none can make the hook block less. The others
// (--env, --event, --host-event) can keep the hook from running or from
// blocking (--event of another event: wrap never runs it; --env PATH=…: it
// cannot start and fails open), so a target file carrying them would stay
// "unchanged" while the guard no longer guards.
var keptByHand = map[string]bool{"--fail-closed": true, "--trace": true, "--verbose": true, "-v": true, "--ask": true}

// keepUserFlags returns next with the wrap options of prev that next lacks
// (a --fail-closed the user added by hand, say) inserted before its "--",
// and the names of those options; dropped names the options of prev that
// next lacks and that are not kept (see keptByHand).
func keepUserFlags(prev, next string) (cmd string, kept, dropped []string) {
	pw, ok1 := parseWrap(prev)
	nw, ok2 := parseWrap(next)
	if !ok1 || !ok2 {
		return next, nil, nil
	}
	// --match is the source matcher as of this run: a stale one must not
	// survive a matcher that became match-all.
	have := map[string]bool{"--match": true}
	for _, f := range nw.flags {
		have[f.name] = true
	}
	var add, names []string
	var without strings.Builder // prev without the flags next lacks
	last := 0
	for _, f := range pw.flags {
		if !have[f.name] && !keptByHand[f.name] {
			if !slices.Contains(dropped, f.name) {
				dropped = append(dropped, f.name)
			}
			continue
		}
		if !have[f.name] {
			add = append(add, f.text)
			names = append(names, f.name)
			have[f.name] = true
			without.WriteString(strings.TrimSuffix(prev[last:f.start], " "))
			last = f.end
		}
	}
	if len(add) == 0 {
		return next, nil, dropped
	}
	if without.WriteString(prev[last:]); without.String() == next && len(dropped) == 0 {
		return prev, names, nil // only the user's flags differ: keep them where they are
	}
	return next[:nw.sep] + strings.Join(add, " ") + " " + next[nw.sep:], names, dropped
}
