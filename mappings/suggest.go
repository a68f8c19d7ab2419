package mappings

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Suggest returns the candidate closest to word, for a "did you mean"
// hint, or "" when none is close: a candidate that differs only in case
// wins; otherwise the one with the smallest edit distance, if that distance
// is at most a quarter of word's length (at least 1, at most 2): close
// enough for a typo, not so loose that PreToolUse suggests PostToolUse.
func Suggest(word string, candidates []string) string {
	best, bestD := "", -1
	limit := min(max(utf8.RuneCountInString(word)/4, 1), 2)
	for _, c := range candidates {
		if c == word {
			continue
		}
		if strings.EqualFold(c, word) {
			return c
		}
		if d := editDistance(strings.ToLower(word), strings.ToLower(c)); d <= limit && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// DidYouMean is Suggest phrased for an error message: "; did you mean X?",
// or "".
func DidYouMean(word string, candidates []string) string {
	if s := Suggest(word, candidates); s != "" {
		return "; did you mean " + s + "?"
	}
	return ""
}

// EventHint explains an event name d does not have: another dialect's
// event of that name and d's counterpart of it, or the closest of d's own
// names. It returns "" when it has nothing to say.
func (t *Table) EventHint(d *Dialect, name string) string {
	for _, other := range t.all() {
		e := other.Event(name)
		if other == d || e == nil {
			continue
		}
		if mine, _ := d.EventFor(e.Canonical); mine != nil {
			return fmt.Sprintf("; %s is a %s event, %s's is %s", name, other.Agent, d.Agent, mine.Name)
		}
		return fmt.Sprintf("; %s is a %s event, which %s does not have", name, other.Agent, d.Agent)
	}
	return DidYouMean(name, d.EventNames())
}

// EventNames lists the dialect's event names.
func (d *Dialect) EventNames() []string {
	names := make([]string, len(d.Events))
	for i, e := range d.Events {
		names[i] = e.Name
	}
	return names
}

// ToolNames lists the dialect's tool names and their aliases.
func (d *Dialect) ToolNames() []string {
	var names []string
	for _, t := range d.Tools {
		names = append(names, t.Name)
		names = append(names, t.Aliases...)
	}
	return names
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
