package doctor

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// IgnoreDirective starts a comment that silences findings in a settings
// file its agent reads with comments (Gemini CLI, Qwen Code, TerminaI):
//
//	// hookx-ignore HX201[,HX204 ...] reason
//
// On a line of its own it silences those rules on the next line; after
// something on the line, on that line. A strict-JSON file (Claude Code's,
// Codex's, Copilot's, Droid's) has no comments: the agent rejects the file
// (HX105), so there --ignore (or the project's configuration) silences.
const IgnoreDirective = "hookx-ignore"

// silence is one hookx-ignore comment.
type silence struct {
	line   int // the line whose findings it silences
	at     int // the line it is written on
	col    int
	rules  []string
	reason string
}

// silences finds the hookx-ignore comments of a parsed file.
func (f *file) silences() []silence {
	if f.root == nil {
		return nil
	}
	var out []silence
	extra := func(e hujson.Extra, start int) {
		for _, cm := range comments(e) {
			text := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(cm.text, "//"), "/*"), "*/"))
			rest, ok := strings.CutPrefix(text, IgnoreDirective)
			if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
				continue
			}
			off := start + cm.off
			line, col := f.lineCol(off)
			s := silence{line: line, at: line, col: col}
			lineStart := bytes.LastIndexByte(f.data[:off], '\n') + 1
			if len(bytes.TrimSpace(f.data[lineStart:off])) == 0 {
				// On a line of its own: the line after the comment (after
				// its end, for a /* */ over several lines).
				end, _ := f.lineCol(off + len(cm.text))
				s.line = end + 1
			}
			words := strings.Fields(rest)
			i := 0
			for ; i < len(words); i++ {
				ids := strings.Split(strings.Trim(words[i], ","), ",")
				if !slices.ContainsFunc(ids, func(id string) bool { return ruleID.MatchString(id) }) {
					break
				}
				for _, id := range ids {
					if id != "" {
						s.rules = append(s.rules, id)
					}
				}
			}
			s.reason = strings.Join(words[i:], " ")
			out = append(out, s)
		}
	}
	var walk func(v *hujson.Value)
	walk = func(v *hujson.Value) {
		extra(v.BeforeExtra, v.StartOffset-len(v.BeforeExtra))
		switch c := v.Value.(type) {
		case *hujson.Object:
			for i := range c.Members {
				walk(&c.Members[i].Name)
				walk(&c.Members[i].Value)
			}
			extra(c.AfterExtra, v.EndOffset-1-len(c.AfterExtra))
		case *hujson.Array:
			for i := range c.Elements {
				walk(&c.Elements[i])
			}
			extra(c.AfterExtra, v.EndOffset-1-len(c.AfterExtra))
		}
		extra(v.AfterExtra, v.EndOffset)
	}
	walk(f.root)
	return out
}

type comment struct {
	off  int
	text string
}

// comments splits an Extra (whitespace and comments only, as hujson
// guarantees) into its comments.
func comments(e hujson.Extra) []comment {
	var out []comment
	for i := 0; i+1 < len(e); i++ {
		if e[i] != '/' {
			continue
		}
		switch e[i+1] {
		case '/':
			j := bytes.IndexByte(e[i:], '\n')
			if j < 0 {
				j = len(e) - i
			}
			out = append(out, comment{i, string(e[i : i+j])})
			i += j
		case '*':
			j := bytes.Index(e[i+2:], []byte("*/"))
			if j < 0 {
				return out
			}
			out = append(out, comment{i, string(e[i : i+2+j+2])})
			i += 2 + j + 1
		}
	}
	return out
}

// silenceFindings marks the findings that --ignore or a hookx-ignore
// comment silences, and reports a hookx-ignore comment that names no rule
// or an unknown one.
func (c *checker) silenceFindings() {
	byFile := map[*file][]silence{}
	for _, f := range c.files {
		if f.d.Settings.StrictJSON {
			continue // the agent rejects the comment itself (HX105)
		}
		ss := f.silences()
		byFile[f] = ss
		for _, s := range ss {
			if len(s.rules) == 0 {
				c.addFileAt(f, ruleIgnoreNoRule, s.at, s.col, IgnoreDirective+" names no rule, so it silences nothing", "write "+IgnoreDirective+" HX<nnn> <reason>")
			}
			for _, id := range s.rules {
				if _, ok := LookupRule(id); !ok {
					c.addFileAt(f, ruleIgnoreNoRule, s.at, s.col, fmt.Sprintf("%s names %s, which is no rule of doctor, so it silences nothing", IgnoreDirective, id), "hookx doctor --rules lists the rules")
				}
			}
		}
	}
	for i := range c.findings {
		fd := &c.findings[i]
		if slices.Contains(c.opts.Ignore, fd.RuleID) {
			fd.Silenced = "--ignore " + fd.RuleID
			continue
		}
		if fd.Line == 0 {
			continue
		}
		if c.opts.NoInlineIgnore {
			continue
		}
		for _, s := range byFile[c.origin[i]] {
			if s.line == fd.Line && slices.Contains(s.rules, fd.RuleID) {
				fd.Silenced = fmt.Sprintf("%s at %s:%d", IgnoreDirective, fd.File, s.at)
				if s.reason != "" {
					fd.Silenced += ": " + s.reason
				}
				break
			}
		}
	}
}

// Active returns the findings nothing silences, and Silenced those that
// --ignore or a hookx-ignore comment silences.
func Active(fs []Finding) (active, silenced []Finding) {
	active, silenced = []Finding{}, []Finding{}
	for _, f := range fs {
		if f.Silenced != "" {
			silenced = append(silenced, f)
		} else {
			active = append(active, f)
		}
	}
	return active, silenced
}
