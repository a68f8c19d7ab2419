package migrate

import (
	"fmt"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
)

// blockReport says what a block of the hook becomes on each target event,
// from the code that renders it at run time (translate's BlockFindings):
// a guard whose block the target cannot honour is Weakened, named with
// its hook; the other differences (a cap on a loop of Stop blocks, a block
// carried another way) are said once per pair of events.
func (p *planner) blockReport(base Item, targets []*mappings.Event) {
	tr := &translate.Translator{Table: p.tbl, From: p.from, To: p.to}
	for _, t := range targets {
		for _, f := range tr.BlockFindings(base.Event, t.Name) {
			it := base
			it.What, it.Reason = "a block on "+t.Name, f.Why
			if f.Mark == mappings.None && base.Guard {
				it.Level = Weakened
				it.Fix = fmt.Sprintf("move the check to a hook that runs before the action on %s, or keep this hook in %s only", p.to.Agent, p.from.Agent)
				p.add(it)
				continue
			}
			key := base.Event + "\x00" + t.Name + "\x00" + f.Why
			if p.seenBlk[key] {
				continue
			}
			p.seenBlk[key] = true
			p.add(Item{Level: Approximate, Guard: base.Guard, Event: base.Event, What: it.What, Reason: f.Why})
		}
	}
}

// envFileReport says, for a hook of an event on which its own agent gives
// it a session env file (Claude's CLAUDE_ENV_FILE on SessionStart), that
// the exports it writes there do not reach the target's later shell
// commands, where the target gives no such file on the event it runs on
// (mappings.EnvFileLost). A command that names the variable uses it; any
// other may, from a script.
func (p *planner) envFileReport(base Item, sh srcHandler, targets []*mappings.Event) {
	v := p.from.Command.EnvFile
	for _, t := range targets {
		if !mappings.EnvFileLost(p.from, sh.event, p.to, t.Name) {
			continue
		}
		it := base
		it.Level, it.What = Approximate, "$"+v
		if !strings.Contains(strings.Join(append([]string{sh.h.fields.Command}, sh.h.fields.Args...), " "), v) {
			it.Level, it.What = Note, "$"+v+", if the hook writes to it"
		}
		it.Reason = mappings.EnvFileText(v, p.to.Agent)
		it.Fix = "set what later commands need another way on " + p.to.Agent + " (its own settings or the shell's profile)"
		p.add(it)
		return
	}
}
