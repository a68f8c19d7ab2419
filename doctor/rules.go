package doctor

import (
	"fmt"
	"regexp"
	"slices"
)

// Rule is one class of finding. Every finding carries its rule, and its
// severity is the rule's: a finding cannot be added without one.
//
// The ids are stable: a rule is never renumbered or reused (a test holds the
// registry against testdata/rules.golden). The hundreds group them by what
// happens to the hook:
//
//	HX1xx  rejected     the agent rejects the settings file, or drops it whole
//	       (unchecked: hookx itself does not read it)
//	HX2xx  never-fires  the agent loads the file but never runs the hook
//	HX3xx  fails-open   the hook runs but its guard lets the call through, or
//	       cannot-run   it cannot run at all (what that does depends on the
//	                    agent and event: the finding says)
//	HX4xx  warnings     the hook fires, but not as its author probably meant
//	HX5xx  notes        for information
type Rule struct {
	ID       string   `json:"id"`   // HX and three digits
	Name     string   `json:"name"` // short, kebab-case
	Severity Severity `json:"severity"`
	// Consequence is what happens to the hook: rejected, never-fires,
	// fails-open, cannot-run for errors; a short class for warnings and
	// notes.
	Consequence string `json:"consequence"`
	Summary     string `json:"summary"` // one line
}

// The error consequences.
const (
	Rejected   = "rejected"
	NeverFires = "never-fires"
	FailsOpen  = "fails-open"
	CannotRun  = "cannot-run"
	// Unchecked: hookx cannot read the file (past its bounds), so it
	// cannot say what the agent does.
	Unchecked = "unchecked"
)

var registry []*Rule

func rule(id, name string, sev Severity, consequence, summary string) *Rule {
	r := &Rule{ID: id, Name: name, Severity: sev, Consequence: consequence, Summary: summary}
	registry = append(registry, r)
	return r
}

// Rules returns every rule, in id order.
func Rules() []Rule {
	out := make([]Rule, len(registry))
	for i, r := range registry {
		out[i] = *r
	}
	slices.SortFunc(out, func(a, b Rule) int {
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
	return out
}

// LookupRule returns the rule with the id (HX201) or the name
// (unknown-event), and whether there is one.
func LookupRule(idOrName string) (Rule, bool) {
	for _, r := range registry {
		if r.ID == idOrName || r.Name == idOrName {
			return *r, true
		}
	}
	return Rule{}, false
}

var ruleID = regexp.MustCompile(`^HX[1-9][0-9]{2}$`)

// validateRules checks the registry's invariants; a test calls it.
func validateRules() error {
	ids, names := map[string]bool{}, map[string]bool{}
	group := map[byte][]string{
		'1': {Rejected, Unchecked}, '2': {NeverFires}, '3': {FailsOpen, CannotRun},
	}
	for _, r := range registry {
		switch {
		case !ruleID.MatchString(r.ID):
			return fmt.Errorf("%s: the id is not HX and three digits", r.ID)
		case ids[r.ID]:
			return fmt.Errorf("%s: the id is used twice", r.ID)
		case names[r.Name]:
			return fmt.Errorf("%s: the name %s is used twice", r.ID, r.Name)
		case r.Name == "" || r.Summary == "" || r.Consequence == "":
			return fmt.Errorf("%s: no name, summary or consequence", r.ID)
		}
		ids[r.ID], names[r.Name] = true, true
		want := map[byte]Severity{'1': Error, '2': Error, '3': Error, '4': Warning, '5': Note}[r.ID[2]]
		if r.Severity != want {
			return fmt.Errorf("%s: severity %s in the %cxx group, want %s", r.ID, r.Severity, r.ID[2], want)
		}
		if cs, ok := group[r.ID[2]]; ok && !slices.Contains(cs, r.Consequence) {
			return fmt.Errorf("%s: consequence %s in the %cxx group, want one of %v", r.ID, r.Consequence, r.ID[2], cs)
		}
	}
	return nil
}

// HX1xx: the agent rejects the settings file, or drops it whole.
var (
	ruleEmptyFile       = rule("HX101", "empty-file", Error, Rejected, "the settings file is empty: the agent reads it as invalid JSON and loads none of it")
	ruleInvalidJSON     = rule("HX102", "invalid-json", Error, Rejected, "the settings file does not parse: the agent rejects it")
	ruleUnreadableFile  = rule("HX103", "unreadable-file", Error, Unchecked, "the file is past hookx's bounds (size, nesting): hookx does not read it")
	ruleTrailingComma   = rule("HX104", "trailing-comma", Error, Rejected, "a trailing comma: the agent parses strict JSON and rejects the file")
	ruleStrictComment   = rule("HX105", "comment-in-strict-json", Error, Rejected, "a comment in a file the agent reads as strict JSON: it rejects the file")
	ruleRootNotObject   = rule("HX106", "root-not-object", Error, Rejected, "the top level is not an object: the agent loads no settings from it")
	ruleRootKey         = rule("HX107", "root-key-rejected", Error, Rejected, "a root key the agent does not accept in this file: it drops the whole file")
	ruleTimeoutNotWhole = rule("HX108", "timeout-not-whole", Error, Rejected, "a timeout that is not a whole number where the agent needs one: it drops the whole file")
)

// HX2xx: the agent loads the file but never runs the hook.
var (
	// A plugin host (Pi, OpenCode, Kilo Code): the plugin hookx generates
	// and its hooks file.
	rulePluginMissing    = rule("HX240", "plugin-missing", Error, NeverFires, "the hooks file of hookx's plugin is there, the plugin (or the hooks file) is not: the agent runs none of the hooks, or refuses every tool")
	rulePluginStale      = rule("HX421", "plugin-stale", Warning, "runs-differently", "hookx's generated plugin was written by another hookx, or edited")
	rulePluginEvent      = rule("HX241", "plugin-event-not-run", Error, NeverFires, "an entry of hookx's plugin hooks file for an event the generated plugin does not run: the plugin skips it, and the hook never runs")
	rulePluginUntrusted  = rule("HX242", "plugin-untrusted", Error, NeverFires, "the agent does not load the project's plugin (Pi: an untrusted project): its guards never run")
	ruleHooksNotObject   = rule("HX201", "hooks-not-object", Error, NeverFires, "the hooks key is not an object of event names: the agent runs none of them")
	ruleEventsNested     = rule("HX202", "events-nested", Error, NeverFires, "events wrapped in an object where the agent reads them at the root: it ignores every hook under it")
	ruleEventNotArray    = rule("HX203", "event-not-array", Error, NeverFires, "an event's value is not an array of matcher groups: the agent runs none of its hooks")
	ruleForeignEvent     = rule("HX204", "foreign-event", Error, NeverFires, "another agent's event name: the agent drops event names it does not know")
	ruleUnknownEvent     = rule("HX205", "unknown-event", Error, NeverFires, "an event name no agent has: the agent drops it")
	ruleGroupNotObject   = rule("HX206", "group-not-object", Error, NeverFires, "a matcher group is not an object: the agent discards it")
	ruleMatcherNotString = rule("HX207", "matcher-not-string", Error, NeverFires, "the matcher is not a string: the agent discards the group")
	ruleFlatShape        = rule("HX208", "flat-shape", Error, NeverFires, "matcher and command side by side, without a nested hooks array: the agent discards the entry")
	ruleGroupNoHooks     = rule("HX209", "group-without-hooks", Error, NeverFires, "a matcher group without a hooks array: the agent discards it")
	ruleGroupHooksArray  = rule("HX210", "group-hooks-not-array", Error, NeverFires, "a group's hooks is not an array: the agent discards the group")
	ruleHandlerNotObject = rule("HX211", "handler-not-object", Error, NeverFires, "a handler is not an object: the agent discards it")
	ruleHandlerNoType    = rule("HX212", "handler-without-type", Error, NeverFires, "a handler without a type: the agent discards it")
	ruleHandlerType      = rule("HX213", "unknown-handler-type", Error, NeverFires, "a handler type the agent does not have: it discards the handler")
	ruleNoCommand        = rule("HX214", "command-missing", Error, NeverFires, "a command handler without a command: the agent cannot run it")
	ruleDuplicateKey     = rule("HX215", "duplicate-key", Error, NeverFires, "a key written twice: the agent keeps only the last, so the first is ignored")
	ruleExactList        = rule("HX216", "exact-matcher-list", Error, NeverFires, "a list in a matcher the agent compares as an exact string: it matches nothing")
	ruleMatcherValue     = rule("HX217", "unknown-matcher-value", Error, NeverFires, "a matcher that matches no value the event has: the hook never fires")
	ruleInvalidRegex     = rule("HX218", "invalid-regex", Error, NeverFires, "a matcher the agent's regex engine rejects: the hook never fires")
	ruleForeignMCP       = rule("HX219", "foreign-mcp-naming", Error, NeverFires, "an MCP tool named the way another agent names them: the matcher never matches")
	ruleForeignTool      = rule("HX220", "foreign-tool-name", Error, NeverFires, "another agent's tool name in a matcher: it never matches")
	ruleUnknownTool      = rule("HX221", "unknown-tool", Error, NeverFires, "a matcher that matches no tool of the agent: the hook never fires")
	ruleIfNotTool        = rule("HX222", "if-on-non-tool-event", Error, NeverFires, "an \"if\" on an event without tools: the agent never runs the hook")
	ruleHookDisabled     = rule("HX223", "hook-disabled", Error, NeverFires, "the hook is in the agent's list of disabled hooks")
	ruleHooksOff         = rule("HX224", "hooks-switched-off", Error, NeverFires, "a setting switches all of the agent's settings hooks off")
	ruleHooksNotOn       = rule("HX225", "hooks-not-switched-on", Error, NeverFires, "the setting that turns the agent's hooks on is missing or off: every guard fails open")
	ruleUntrustedEnv     = rule("HX226", "untrusted-by-environment", Error, NeverFires, "the environment marks the folder untrusted: the agent runs no settings hooks")
	ruleTrustUnreadable  = rule("HX227", "trust-file-unreadable", Error, NeverFires, "the agent cannot read its trusted-folders file and refuses to start")
	ruleFolderDistrusted = rule("HX228", "folder-distrusted", Error, NeverFires, "the project folder is marked untrusted: the agent registers no settings hooks")
	ruleProjectDistrust  = rule("HX229", "project-distrusted", Error, NeverFires, "the agent's config marks the project untrusted: it reads none of its hooks")
)

// HX3xx: the hook runs but fails open, or cannot run.
var (
	ruleInvalidShell        = rule("HX301", "invalid-shell", Error, CannotRun, "the command is not valid shell")
	ruleProgramNotFound     = rule("HX302", "program-not-found", Error, CannotRun, "the program is not on the PATH the agent passes to hooks")
	ruleScriptNotFound      = rule("HX303", "script-not-found", Error, CannotRun, "the script an interpreter is given does not exist")
	ruleFileNotFound        = rule("HX304", "file-not-found", Error, CannotRun, "the program's path does not exist")
	ruleIsDirectory         = rule("HX305", "program-is-directory", Error, CannotRun, "the program's path is a directory")
	ruleNotExecutable       = rule("HX306", "not-executable", Error, CannotRun, "the program is not executable")
	ruleNoInterpreter       = rule("HX307", "interpreter-missing", Error, CannotRun, "the #! interpreter of the script is not installed")
	ruleHookxNotFound       = rule("HX308", "hookx-not-found", Error, CannotRun, "hookx is not where the agent looks for it")
	ruleGuardForeignVar     = rule("HX309", "foreign-variable-in-guard", Error, FailsOpen, "a guard reads another agent's environment variable: it expands to nothing")
	ruleGuardUnsetVar       = rule("HX310", "unset-variable-in-guard", Error, FailsOpen, "a guard reads a variable the agent never sets: it expands to nothing")
	ruleTimeoutShort        = rule("HX311", "timeout-too-short", Error, FailsOpen, "a timeout in seconds where the agent counts milliseconds: the hook is killed before it answers")
	ruleDecisionDeny        = rule("HX312", "decision-deny-ignored", Error, FailsOpen, "a guard answers {\"decision\":\"deny\"} where the agent accepts only approve or block")
	ruleDenyNonZero         = rule("HX313", "deny-on-stdout-with-exit", Error, FailsOpen, "a guard prints a deny and exits non-zero: the agent reads stdout only at exit 0")
	rulePermissionDeny      = rule("HX314", "permission-decision-ignored", Error, FailsOpen, "a guard answers permissionDecision where the agent ignores it")
	ruleProbeTimeout        = rule("HX315", "probe-timed-out", Error, FailsOpen, "probed, the guard outlives its timeout: the agent kills it and runs the tool")
	ruleProbeIdiom          = rule("HX316", "probe-ignored-idiom", Error, FailsOpen, "probed, the guard answers in an idiom the agent ignores")
	ruleProbeFailedOpen     = rule("HX317", "probe-failed-open", Error, FailsOpen, "probed, the guard fails: the agent runs the tool")
	ruleDecisionBlock       = rule("HX318", "decision-block-ignored", Error, FailsOpen, "a guard answers {\"decision\":\"block\"} where the agent reads no such decision")
	ruleExitCodeIgnored     = rule("HX319", "exit-code-ignored", Error, FailsOpen, "a hook file the agent runs reads no exit code (Cline), yet the shell script refuses only with a non-zero exit: it never blocks")
	ruleDispatcherMissing   = rule("HX330", "dispatcher-missing", Error, CannotRun, "hookx's entries for an event the agent runs from a file per event (Cline), with no dispatcher file: none of them run")
	ruleDispatcherNotHookx  = rule("HX331", "dispatcher-not-hookx", Error, CannotRun, "a file of the name of hookx's dispatcher that hookx did not write: the agent runs it, not hookx's entries")
	ruleDispatcherNoEntries = rule("HX332", "dispatcher-without-entries", Error, CannotRun, "a dispatcher hookx wrote whose entries file is missing: a guard event's refuses every call")
)

// HX4xx: warnings.
var (
	ruleCompatEvent     = rule("HX401", "compat-mode-event", Warning, "runs-differently", "another agent's event the agent runs in its own compatibility mode")
	ruleMatcherPart     = rule("HX402", "matcher-part-unknown", Warning, "part-never-matches", "one part of a matcher list names no value of the event")
	ruleTimeoutNotPos   = rule("HX403", "timeout-not-positive", Warning, "default-used", "a timeout that is not positive: the agent uses its default")
	ruleTimeoutAsMs     = rule("HX404", "timeout-read-as-ms", Warning, "wrong-unit", "a timeout large enough that the agent reads it as milliseconds")
	ruleTimeoutLong     = rule("HX405", "timeout-very-long", Warning, "wrong-unit", "a timeout in milliseconds where the agent counts seconds: a hung hook holds the agent")
	ruleIfIgnored       = rule("HX406", "if-ignored", Warning, "runs-too-often", "an \"if\" the agent does not have: the hook runs every time")
	ruleBashSyntax      = rule("HX407", "bash-syntax", Warning, "shell-dependent", "bash syntax in a command the agent runs with sh -c (dash on Debian and Ubuntu)")
	ruleBashBuiltin     = rule("HX408", "bash-builtin", Warning, "shell-dependent", "a bash builtin in a command the agent runs with sh -c (dash on Debian and Ubuntu)")
	ruleQuotedSubst     = rule("HX409", "quoted-substituted-variable", Warning, "breaks-on-paths", "a bare variable inside double quotes the agent pastes already quoted")
	ruleForeignVar      = rule("HX410", "foreign-variable", Warning, "empty-value", "another agent's environment variable: it expands to nothing")
	ruleUnsetVar        = rule("HX411", "unset-variable", Warning, "empty-value", "a variable the agent never sets: it expands to nothing")
	ruleLegacyKey       = rule("HX412", "legacy-key", Warning, "ignored-key", "a legacy key the agent skips")
	ruleUnreadField     = rule("HX413", "unread-field", Warning, "ignored-key", "a handler field the agent does not read")
	ruleFolderNotYet    = rule("HX414", "folder-not-trusted-yet", Warning, "until-trusted", "the project folder is not trusted yet: no settings hooks until it is")
	ruleProjectNotYet   = rule("HX415", "project-not-trusted-yet", Warning, "until-trusted", "the project is not trusted in the agent's config yet: no hooks until it is")
	ruleStaleEntries    = rule("HX416", "stale-hookx-entries", Warning, "stale", "hookx's entries do not run what their source says now")
	ruleGuardNotCarried = rule("HX417", "guard-not-carried", Warning, "weaker-guard", "a source guard that hookx's entries do not carry, or carry weaker")
	ruleProbeSlow       = rule("HX418", "probe-slow", Warning, "slow", "probed, the guard did not answer within the probe's limit")
	ruleDispatcherStale = rule("HX430", "stale-dispatcher", Warning, "stale", "a dispatcher hookx wrote is edited, of another hookx version, or runs no entries")
	ruleProbeAskHangs   = rule("HX419", "probe-ask-hangs", Warning, "hangs", "probed, the guard asks where a headless run hangs on the question")
	ruleIgnoreNoRule    = rule("HX420", "ignore-names-no-rule", Warning, "silences-nothing", "a hookx-ignore comment that names no rule of doctor")
)

// HX5xx: notes.
var (
	ruleAlsoRunBy      = rule("HX501", "also-run-by", Note, "info", "another agent of the project runs this hook too, its own way")
	ruleMatcherIgnored = rule("HX502", "matcher-ignored", Note, "info", "the agent ignores the matcher on this event")
	ruleNotChecked     = rule("HX503", "matcher-not-checked", Note, "info", "hookx cannot evaluate the matcher")
	ruleBareMCP        = rule("HX504", "maybe-mcp-tool", Note, "info", "a name that is no built-in tool: it matches only an MCP tool of that name")
	ruleTimeoutCapped  = rule("HX505", "timeout-capped", Note, "info", "the agent caps the timeout of this event")
	ruleProbeNotRun    = rule("HX506", "probe-not-run", Note, "info", "the probe could not run, or could not read the answer")
	// HX507 is not used: it was the unread answer, which HX506 covers.
	ruleProbeBlocked = rule("HX508", "probe-blocked", Note, "info", "probed, the guard blocked the call")
	ruleProbeAsks    = rule("HX509", "probe-asks", Note, "info", "probed, the guard asks the user to confirm")
	ruleProbeAllowed = rule("HX510", "probe-allowed", Note, "info", "probed, the guard allowed the call")
)
