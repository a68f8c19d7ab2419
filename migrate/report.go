package migrate

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookx-dev/hookx/internal/printable"
)

var levelTitles = []struct {
	level Level
	title string
}{
	{NotCarried, "Not carried"},
	{Weakened, "Weakened"},
	{Approximate, "Approximate"},
	{Warning, "Warnings"},
	{Note, "Notes"},
}

// FormatReport renders the report for people. written says whether the
// target was written; dry whether the run was only a look (--dry-run,
// --check).
func FormatReport(r *Result, written, dry bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "hookx migrate: %s → %s\n", r.From, r.To)
	for _, s := range r.Sources {
		fmt.Fprintf(&b, "  read   %s (%s, %d handler%s)\n", printable.String(s.Path), s.Scope, s.Handlers, plural(s.Handlers))
	}
	state := ""
	if r.Created {
		state = " (new file)"
	}
	fmt.Fprintf(&b, "  target %s%s\n", printable.String(r.Target), state)
	if r.RealTarget != "" && r.RealTarget != r.Target {
		fmt.Fprintf(&b, "         real path %s\n", printable.String(r.RealTarget))
	}

	how := "each runs through hookx wrap"
	if !r.Wrapped {
		how = "commands copied as they are (--no-wrap)"
	}
	fmt.Fprintf(&b, "\nEntries hookx owns in the target (%d; %s):\n", len(r.Entries), how)
	counts := map[string]int{}
	for _, e := range r.Entries {
		counts[e.Change]++
		m := "(all)"
		if e.Matcher != nil {
			m = *e.Matcher
		}
		fmt.Fprintf(&b, "  %-9s %s %s  ← %s %s  [%s]\n", e.Change, e.Event, printable.String(m), e.SourceEvent, printable.String(e.Source), printable.String(e.ID))
	}
	for _, id := range r.Removed {
		fmt.Fprintf(&b, "  %-9s %s\n", "removed", printable.String(id))
	}

	for _, lt := range levelTitles {
		n := r.Count(lt.level)
		if n == 0 {
			continue
		}
		if lt.level == NotCarried || lt.level == Weakened {
			fmt.Fprintf(&b, "\n%s (%d; --strict refuses these):\n", lt.title, n)
		} else {
			fmt.Fprintf(&b, "\n%s (%d):\n", lt.title, n)
		}
		for _, it := range r.Items {
			if it.Level == lt.level {
				writeItem(&b, it)
			}
		}
	}

	fmt.Fprintf(&b, "\nSummary: %d entr%s (%d added, %d updated, %d unchanged, %d removed); %d not carried, ",
		len(r.Entries), pluralY(len(r.Entries)), counts["add"], counts["update"], counts["unchanged"], len(r.Removed), r.Count(NotCarried))
	if n := r.Count(Weakened); n > 0 {
		fmt.Fprintf(&b, "%d weakened, ", n)
	}
	fmt.Fprintf(&b, "%d approximate, %d warning%s.", r.Count(Approximate), r.Count(Warning), plural(r.Count(Warning)))
	switch {
	case !r.Changed():
		b.WriteString(" The target is up to date.\n")
	case written:
		real := r.Target
		if r.RealTarget != "" {
			real = r.RealTarget
		}
		fmt.Fprintf(&b, " Wrote %s", printable.String(real))
		if !r.Created {
			fmt.Fprintf(&b, " (previous version in %s%s)", printable.String(real), BackupSuffix)
		}
		b.WriteString(".\n")
	case dry:
		b.WriteString(" Nothing written.\n")
	default:
		b.WriteString(" Nothing written.\n")
	}
	return b.String()
}

// writeItem renders one item: where, what, the command, why and the fix,
// each on its own line, whatever the settings hold (printable). A guard
// not carried or weakened says that it is a guard.
func writeItem(b *strings.Builder, it Item) {
	var head []string
	for _, s := range []string{it.Source, it.Event} {
		if s != "" {
			head = append(head, s)
		}
	}
	if it.Matcher != "" {
		head = append(head, "matcher "+it.Matcher)
	}
	what := it.What
	if it.GuardLost() {
		what = "guard: " + what
	}
	if len(head) > 0 {
		fmt.Fprintf(b, "  %s: %s\n", printable.String(strings.Join(head, " ")), printable.String(what))
	} else {
		fmt.Fprintf(b, "  %s\n", printable.String(what))
	}
	if it.Command != "" {
		fmt.Fprintf(b, "      command: %s\n", printable.String(it.Command))
	}
	if it.Reason != "" {
		fmt.Fprintf(b, "      why: %s\n", printable.String(it.Reason))
	}
	if it.Fix != "" {
		fmt.Fprintf(b, "      fix: %s\n", printable.String(it.Fix))
	}
}

// FormatUpToDate is the report of a run that changes nothing: one line
// with the target, how many entries hookx owns there, and how many items a
// full report (-v) would list; then, in full, every guard that is not
// carried or is weakened (Item.GuardLost), which no run may leave unsaid.
func FormatUpToDate(r *Result) string {
	target := printable.String(r.Target)
	if abs, _ := filepath.Abs(r.Target); r.RealTarget != "" && r.RealTarget != abs {
		target += " (real path " + printable.String(r.RealTarget) + ")"
	}
	line := fmt.Sprintf("hookx migrate: %s is up to date (%d entr%s)", target, len(r.Entries), pluralY(len(r.Entries)))
	var parts []string
	var guards []Item
	for _, lt := range levelTitles {
		n := 0
		for _, it := range r.Items {
			switch {
			case it.Level != lt.level:
			case it.GuardLost():
				guards = append(guards, it)
			default:
				n++
			}
		}
		if n > 0 && lt.level != Note {
			parts = append(parts, fmt.Sprintf("%d %s", n, strings.ToLower(string(lt.level))))
		}
	}
	if len(parts) > 0 {
		line += "; " + strings.Join(parts, ", ") + ": -v lists them"
	}
	var b strings.Builder
	b.WriteString(line + "\n")
	if len(guards) > 0 {
		fmt.Fprintf(&b, "Guards not carried or weakened (%d; --strict refuses these):\n", len(guards))
		for _, it := range guards {
			writeItem(&b, it)
		}
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func pluralY(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}
