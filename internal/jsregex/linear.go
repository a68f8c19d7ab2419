package jsregex

import (
	"fmt"
	"regexp"
	"strings"
)

// linear returns the pattern as a Go (RE2) regexp, which matches in time
// linear in the subject, when that is safe: the tree has no lookaround and
// no backreference (RE2 has neither), and no repeat that can iterate more
// than once holds another such repeat or an alternation (the shapes that
// make a backtracking engine, JavaScript's included, take exponential time).
// Otherwise it returns nil and the pattern runs on regexp2 under
// MatchTimeout.
//
// Why both engines: regexp2 bounds a match by a wall-clock budget, so on a
// loaded machine a simple matcher such as ^(Bash)$ could run past it and
// fail a guard closed for no reason. For the patterns RE2 takes, whether the
// pattern matches is the same question for both engines (the sets are the
// same explicit BMP ranges), and RE2 answers it without a clock. A pattern
// that would keep JavaScript busy for long stays on regexp2, whose timeout
// then stands for the agent hanging.
func linear(tree *node) *regexp.Regexp {
	var b strings.Builder
	if !emitLinear(&b, tree, false) {
		return nil
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil // a repeat count over RE2's 1000, say: regexp2 reads it
	}
	return re
}

// emitLinear writes n in RE2 syntax. inLoop says n is inside a repeat that
// can iterate more than once. It reports false for what RE2 must not run.
func emitLinear(b *strings.Builder, n *node, inLoop bool) bool {
	switch n.kind {
	case kindAlt:
		return emitLinearAlts(b, n.alts, inLoop)
	case kindGroup:
		if n.look != "" && n.look != "?:" {
			return false // a lookaround
		}
		b.WriteString("(?:")
		ok := emitLinearAlts(b, n.alts, inLoop)
		b.WriteString(")")
		return ok
	case kindRepeat:
		loops := n.max < 0 || n.max > 1
		if loops && inLoop {
			return false // a repeat in a repeat
		}
		b.WriteString("(?:")
		if !emitLinear(b, n.item, inLoop || loops) {
			return false
		}
		b.WriteString(")")
		switch {
		case n.max < 0:
			fmt.Fprintf(b, "{%d,}", n.min)
		default:
			fmt.Fprintf(b, "{%d,%d}", n.min, n.max)
		}
		return true // laziness changes which match, not whether one
	case kindSet:
		if len(n.set) == 0 {
			b.WriteString(`[^\x{0}-\x{10FFFF}]`)
			return true
		}
		b.WriteString("[")
		for _, r := range n.set {
			fmt.Fprintf(b, `\x{%X}`, r[0])
			if r[1] != r[0] {
				fmt.Fprintf(b, `-\x{%X}`, r[1])
			}
		}
		b.WriteString("]")
		return true
	case kindAssert:
		// Without the m flag JavaScript's ^ and $ are the ends of the
		// input, and its \b and \B are ASCII, as RE2's are.
		b.WriteString(map[string]string{"^": `\A`, "$": `\z`, `\b`: `\b`, `\B`: `\B`}[n.assert])
		return true
	}
	return false // a backreference
}

func emitLinearAlts(b *strings.Builder, alts [][]*node, inLoop bool) bool {
	if inLoop && len(alts) > 1 {
		return false // an alternation in a repeat
	}
	for i, seq := range alts {
		if i > 0 {
			b.WriteString("|")
		}
		for _, t := range seq {
			if !emitLinear(b, t, inLoop) {
				return false
			}
		}
	}
	return true
}
