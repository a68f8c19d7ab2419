package main

import (
	"github.com/hookx-dev/hookx/internal/wrapcli"
	"github.com/spf13/cobra"
)

func init() {
	extraCommands = append(extraCommands, func(s streams) *cobra.Command { return newWrapCmd(s, nil) })
}

// newWrapCmd is wrap for --help and flag errors; a hook call takes
// parseWrapDirect. runF, for tests, gets the parsed options in place of the
// run.
func newWrapCmd(s streams, runF func(*wrapcli.Options) error) *cobra.Command {
	opts := wrapcli.New(s.In, s.Out, s.Err)
	cmd := &cobra.Command{
		Use:   "wrap --from DIALECT [flags] -- COMMAND [ARG...]",
		Short: "Run a hook written for one agent under another",
		Long: `wrap runs a hook written for one agent (--from) under another (the host).
It translates the host's event on stdin into the hook's dialect, runs the
hook, and translates the hook's stdout, stderr and exit status into what the
host must receive: always exit 0, with the decision in the JSON on stdout.
Findings (what could not be carried exactly) go to stderr as "hookx: ...":
what happened to the hook's answer on every call, the table's routine
approximations only with --verbose; --trace records all of them.

When the host speaks the hook's own dialect, the hook runs untouched: stdin,
stdout, stderr and its exit status pass straight through.

One argument after -- is a shell string, prepared and run exactly the way
the hook's own agent does it: Claude Code runs /bin/sh -c on it unchanged;
Gemini CLI first replaces $GEMINI_PROJECT_DIR, $GEMINI_CWD, $GEMINI_PLANS_DIR,
$GEMINI_SESSION_ID and $CLAUDE_PROJECT_DIR anywhere in the text with the
shell-quoted value, then runs bash -c. Several arguments are run directly,
with no shell; for a Claude hook, ${CLAUDE_PROJECT_DIR}, ${CLAUDE_PLUGIN_ROOT}
and ${CLAUDE_PLUGIN_DATA} are replaced in each of them first (Claude's exec
form). Write the command in single quotes, with each $ that starts a name
written '\$', as hookx migrate does: then no host substitutes anything in
it before wrap does.

The hook gets the host's environment plus the variables its own agent sets
(CLAUDE_PROJECT_DIR, CLAUDE_CODE_SESSION_ID, CLAUDECODE=1 for a Claude hook, and CLAUDE_ENV_FILE, a session file, on
SessionStart; GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_SESSION_ID for a Gemini
hook), never replacing one the host set, then the --env variables, and runs
in the host's working directory.

--event names the event the hook was registered on in its own agent. A host
event that its own agent would have sent as another event is answered with
no decision and the hook does not run: Gemini's AfterTool carries Claude's
PostToolUse and PostToolUseFailure alike, so a wrapped Claude PostToolUse
hook with --event PostToolUse runs only for successful calls. migrate writes
it where the host's event carries several of the hook's events.

A Claude Stop hook on a Gemini host keeps Claude's cap of 8 consecutive
blocks per session; the count lives in $XDG_STATE_HOME/hookx/stop
(default ~/.local/state/hookx/stop). A stop hook sees stop_hook_active as
its own agent sends it (Claude keeps it true after a continuation that used
tools, Gemini does not); Claude's cap, which a Gemini AfterAgent hook is
never told of, is reported.

A Claude hook whose first stdout line is {"async":true} is not waited for:
wrap answers the host at once with no decision and leaves the hook to a
detached "hookx wrap-supervise", which kills its process group at
asyncTimeout (15s by default).

transcript_path names a copy of the host's transcript in the hook's own
agent's format (prompts, replies, tool calls and results), kept per session
in $XDG_STATE_HOME/hookx/transcripts and updated with the new records on
each call. A Gemini AfterAgent hook on a Claude Stop also gets prompt and
the whole prompt_response, recovered from Claude's transcript.

If hookx itself fails (unreadable event, unknown event), it blocks on the
events that guard an action (PreToolUse/BeforeTool, UserPromptSubmit/
BeforeAgent) and warns elsewhere.

` + wrapExitCodesHelp,
		Example: `  hookx wrap --from claude -- '"'\$'CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'
  hookx wrap --from gemini --timeout 30s -- python3 hooks/check.py`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Command = args
			if runF != nil {
				return runF(opts)
			}
			return executeWrap(opts)
		},
	}
	cmd.Flags().SetInterspersed(false) // everything after the command is the hook's
	opts.AddFlags(cmd.Flags())
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return wrapUsageError(opts, err) })
	return cmd
}

// parseWrapDirect parses `hookx wrap` arguments with wrap's flags alone,
// without cobra's command tree: wrap runs on every hook call of the host.
// It declines (ok false) whatever cobra must answer: --help, the root's
// flags, a flag error (answered as wrapUsageError); newWrapCmd parses the
// same flags, and cobra then parses the arguments afresh.
func parseWrapDirect(args []string, s streams) (opts *wrapcli.Options, ok bool) {
	if len(args) == 0 || args[0] != "wrap" {
		return nil, false
	}
	opts, err := wrapcli.Parse(args[1:], s.In, s.Out, s.Err)
	return opts, err == nil
}

// executeWrap runs wrap with the parsed flags and the hook's command.
func executeWrap(opts *wrapcli.Options) error {
	code, err := opts.Execute()
	if err != nil {
		return withCode(exitBadInput, err)
	}
	if code != 0 {
		return silentExit(code)
	}
	return nil
}

// wrapUsageError answers a flag error as wrapcli's AnswerUsage does: as
// hookx's own failure for a host, a usage error for a person.
func wrapUsageError(opts *wrapcli.Options, err error) error {
	code, usage := opts.AnswerUsage(err)
	if usage != nil {
		return withCode(exitBadInput, usage)
	}
	return silentExit(code)
}
