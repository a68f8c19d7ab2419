package mappings

import (
	"fmt"
	"slices"
)

// The sentences below are said twice: by hookx wrap when a hook runs, and
// by hookx migrate when it writes the entry. Both say them from here, so
// that the report and the run-time finding cannot drift apart.

// StopCapText says that agent ends a loop of blocks on its event (a Stop
// event whose Output.BlockCap is n) after n consecutive blocks, counted
// only between tool uses where resetByTools (Output.BlockCapResetByTools).
func StopCapText(agent, event string, n int, resetByTools bool) string {
	return fmt.Sprintf("%s ends the turn after %d consecutive %s blocks%s", agent, n, event, CapScope(resetByTools))
}

// CapScope says which blocks a cap counts: only those with no tool use
// between them where resetByTools (Output.BlockCapResetByTools), else all
// of a turn's.
func CapScope(resetByTools bool) string {
	if resetByTools {
		return " with no tool use between them"
	}
	return ""
}

// EnvFileText says that the exports a hook writes into the session file
// that hookx wrap gives it in the variable name (Claude's CLAUDE_ENV_FILE)
// do not reach host's later shell commands.
func EnvFileText(name, host string) string {
	return fmt.Sprintf("%s is a session file hookx created; the exports the hook writes to it do not reach %s's later shell commands", name, host)
}

// EnvFileLost reports whether a hook of hook's event hookEvent, run on
// host's event hostEvent, is given a session env file (Command.EnvFile)
// whose exports host does not carry to its later shell commands: its own
// agent gives it one there and host gives none of the same name on
// hostEvent.
func EnvFileLost(hook *Dialect, hookEvent string, host *Dialect, hostEvent string) bool {
	c := hook.Command
	if c.EnvFile == "" || !slices.Contains(c.EnvFileEvents, hookEvent) {
		return false
	}
	return host.Command.EnvFile != c.EnvFile || !slices.Contains(host.Command.EnvFileEvents, hostEvent)
}
