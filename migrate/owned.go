package migrate

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// An owned id is hookx:<Event>:<n>:<hash8>@<origin>: the origin names the
// source the entry came from (project, local, user, or plugin:<dir> for a
// plugin or extension), so that a run removes only entries of sources it
// read. Ids written before origins existed have no @<origin>.
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

// sourceOrigin is how the ids of entries made from s name it.
func sourceOrigin(s Source) string {
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
	return escapeOrigin(o)
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
}

// wrapCmd is a parsed `<hookx> wrap [flags] -- <command>`.
type wrapCmd struct {
	flags []wrapFlag
	sep   int // byte offset of the "--" that ends the flags
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
			w.flags = append(w.flags, wrapFlag{name: name, text: cmd[start:end], start: start, end: end})
		} else if n := len(w.flags); n > 0 {
			prev := &w.flags[n-1]
			prev.end = end
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

// keepUserFlags returns next with the wrap options of prev that next lacks
// (a --fail-closed the user added by hand, say) inserted before its "--",
// and the names of those options.
func keepUserFlags(prev, next string) (string, []string) {
	pw, ok1 := parseWrap(prev)
	nw, ok2 := parseWrap(next)
	if !ok1 || !ok2 {
		return next, nil
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
		if !have[f.name] {
			add = append(add, f.text)
			names = append(names, f.name)
			have[f.name] = true
			without.WriteString(strings.TrimSuffix(prev[last:f.start], " "))
			last = f.end
		}
	}
	if len(add) == 0 {
		return next, nil
	}
	if without.WriteString(prev[last:]); without.String() == next {
		return prev, names // only the user's flags differ: keep them where they are
	}
	return next[:nw.sep] + strings.Join(add, " ") + " " + next[nw.sep:], names
}
