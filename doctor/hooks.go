package doctor

// Hook is one command hook of a settings file, as its agent reads it: the
// reader doctor checks with, for hookx test to run a project's hooks as
// written.
type Hook struct {
	File    string // the settings file as doctor shows it (under Options.Dir)
	Dialect string // the file's dialect (mappings name)
	Event   string // the event key, as the file writes it
	// AgentEvent is the event as the agent names it (Crush folds
	// pre_tool_use into PreToolUse); "" when the agent has no such event.
	AgentEvent string
	Matcher    *string
	Command    string
	Timeout    *float64 // as written, in the agent's unit
	Env        map[string]string
	If         string // Claude Code's "if" condition, when present
}

// Hooks returns the command hooks of every settings file doctor reads
// under opts, in file order. Files that do not parse have none.
func Hooks(opts Options) []Hook {
	if opts.Dir == "" {
		opts.Dir = "."
	}
	if opts.Table == nil {
		return nil
	}
	c := &checker{opts: opts, tbl: opts.Table}
	var out []Hook
	for _, f := range c.readFiles() {
		c.checkFile(f)
		for _, h := range f.hooks {
			if h.typ != "command" || h.command == "" {
				continue
			}
			agentEvent := ""
			if h.ev != nil {
				agentEvent = h.ev.Name
			}
			out = append(out, Hook{AgentEvent: agentEvent, File: f.shown, Dialect: f.d.Name, Event: h.event, Matcher: h.matcher, Command: h.command, Timeout: h.timeout, Env: h.env, If: h.cond})
		}
	}
	return out
}
