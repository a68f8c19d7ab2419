// Package mappings holds hookx's mapping table: how the events, tools, tool
// arguments, values and output contracts of each agent's hook protocol
// correspond. The table is data (JSONC files embedded from data/), loaded
// strictly and validated as a whole.
//
// Each dialect maps its names onto a canonical vocabulary (data/canonical.jsonc),
// so adding a dialect is one data file: a Gemini fork can reuse Gemini's
// protocol rules and converters by name.
package mappings

import (
	"bytes"
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tailscale/hujson"
)

//go:generate go run -tags hookx_gentable ./internal/gentable table_gen.go

//go:embed data/*.jsonc
var dataFS embed.FS

// Data holds the table's source files, data/*.jsonc, for Load.
var Data fs.FS = dataFS

// Mark says how faithfully a mapping carries a thing across.
type Mark string

// The three marks of translation.md §0.
const (
	Exact       Mark = "exact"       // same observable effect
	Approximate Mark = "approximate" // close, with a stated difference
	None        Mark = "none"        // cannot be expressed
)

// markRank orders the marks, the least faithful last; "" is Exact.
func markRank(m Mark) int {
	switch m {
	case Approximate:
		return 1
	case None:
		return 2
	}
	return 0
}

// worse returns the less faithful of two marks.
func worse(a, b Mark) Mark {
	if markRank(b) > markRank(a) {
		return b
	}
	if a == "" {
		return Exact
	}
	return a
}

// Concept is one entry of the canonical vocabulary.
type Concept struct {
	ID  string `json:"id"`
	Doc string `json:"doc"`
	// Acts says, for a canonical tool whose guards keep an action from
	// happening (running commands, changing files), what a tool that does
	// the same does ("runs commands"); a Tool's acts names these ids.
	Acts string `json:"acts"`
}

// Canonical is the shared vocabulary every dialect maps onto.
type Canonical struct {
	Events []Concept `json:"events"`
	Tools  []Concept `json:"tools"`
}

// Tool returns the canonical tool id, or nil.
func (c *Canonical) Tool(id string) *Concept {
	for i := range c.Tools {
		if c.Tools[i].ID == id {
			return &c.Tools[i]
		}
	}
	return nil
}

// Dialect is one agent's hook protocol.
type Dialect struct {
	Name     string `json:"name"`
	Agent    string `json:"agent"`
	Version  string `json:"version"`
	Protocol string `json:"protocol"` // the family whose Go code reads and renders hook output (Protocols)
	Shell    string `json:"shell"`    // the shell hook commands run under: "sh" or "bash"
	// Command is how the agent turns a hook's command into a process.
	Command Command `json:"command"`
	// Plugin is how the agent packages hooks for others to install; nil
	// where hookx knows no such package.
	Plugin *Plugin `json:"plugin"`
	// PluginHost is set where the agent runs hooks only through a plugin
	// that hookx generates (Pi's extension); nil for an agent with
	// command hooks of its own.
	PluginHost *PluginHost `json:"pluginHost"`
	Settings   Settings    `json:"settings"`
	Timeout    Timeout     `json:"timeout"`
	// HeldOutput is what the agent does when a hook exits while something
	// it started still holds its stdout or stderr open.
	HeldOutput HeldOutput        `json:"heldOutput"`
	Env        Env               `json:"env"`
	MCP        MCPStyle          `json:"mcp"`
	Matchers   MatcherRules      `json:"matchers"` // how a tool matcher is read
	Derive     map[string]string `json:"derive"`   // payload field -> named deriver
	// Private lists payload fields this agent sends that mean nothing to
	// another agent's hooks; they are dropped in translation (T§3.1).
	Private []string `json:"private"`
	// Signature lists payload fields only this agent sends among the
	// dialects that share an event name: they tell which agent is the host.
	Signature []string `json:"signature"`
	// Detect says what tells this agent apart as a host before the event
	// name does (NDIALECT §4).
	Detect Detect `json:"detect"`
	// Reading is how a gemini-family agent picks what it reads of a hook's
	// streams and exit code; the zero value is Gemini CLI 0.61.0's.
	Reading Reading `json:"reading"`
	// Verification says how the dialect's facts were established, where
	// they were not seen in the conformance suite's runs of the agent; nil
	// for a dialect the suite runs.
	Verification *Verification `json:"verification"`
	// AbsolutePaths is set when the agent gives its hooks every tool path
	// absolute: another agent's paths are resolved for them the way that
	// agent's tool resolves them (the tool's "paths").
	AbsolutePaths bool `json:"absolutePaths"`
	// ReadsSettings lists other dialects' settings files the agent runs
	// hooks from itself (Copilot CLI reads .claude/settings.json).
	ReadsSettings []ForeignSettings `json:"readsSettings"`
	// Payload is how the agent's own payload differs in form from the
	// snake_case one translation works on (Copilot's camelCase).
	Payload PayloadShape `json:"payload"`
	// AsyncAck is set where a hook may answer at once and go on in the
	// background, not waited for; nil where every hook is waited for.
	AsyncAck *AsyncAck `json:"asyncAck"`
	// DefaultResponse names the response converter for tools without one.
	DefaultResponse string   `json:"defaultResponse"`
	Events          []*Event `json:"events"`
	Tools           []*Tool  `json:"tools"`
	Lacks           Lacks    `json:"lacks"`
	// StderrAsOutput is set where the agent, finding nothing on a hook's
	// stdout, reads its stderr as the output instead, JSON and all, at any
	// exit but 2 (Qwen Code's hook runner: stdout || stderr).
	StderrAsOutput bool `json:"stderrAsOutput"`
	// FoldEvents is set where the agent reads an event name of its
	// settings in any case, with or without underscores (Crush:
	// pre_tool_use is PreToolUse, config/load.go:1399-1409).
	FoldEvents bool `json:"foldEvents"`
	// OutputForm names the agent's own output form, which its family's
	// reader is given in the family's terms first (translate's
	// outputForms; "crush": Crush's decision, halt, context and
	// updated_input beside Claude Code's hookSpecificOutput); "": none.
	OutputForm string `json:"outputForm"`
	// EmptyAnswer is what the agent is answered on stdout when there is
	// nothing to say (an event the hook does not run on, a hook not waited
	// for, a block past the hook's own agent's stop cap): a JSON object,
	// or "" for no output at all.
	EmptyAnswer string `json:"emptyAnswer"`
	// Transcript is the session transcript the agent writes and names in
	// transcript_path.
	Transcript Transcript `json:"transcript"`

	eventByName     map[string]*Event
	eventByCanon    map[string]*Event
	toolByName      map[string]*Tool
	toolByCanon     map[string]*Tool
	alternateEvents map[string]*Event // canonical ids carried by an event's "also"
	exactList       *regexp.Regexp    // Matchers.ExactList, compiled on first use (exactOnce)
	exactOnce       sync.Once
	indexOnce       sync.Once // the lookups above are built (index.go)
}

// Settings says where a dialect keeps its settings, how strict they are and
// what shape its hooks take there.
type Settings struct {
	Project    string `json:"project"`
	Local      string `json:"local"`
	User       string `json:"user"`
	StrictJSON bool   `json:"strictJSON"`
	// ProjectGlob, where set, names every project file the agent reads
	// hooks from (Copilot CLI: .github/hooks/*.json); Project is the one
	// hookx writes.
	ProjectGlob string `json:"projectGlob"`
	Shape       Shape  `json:"shape"`
	// Off lists the settings that turn every hook of the file's agent off.
	Off []Switch `json:"off"`
	// DisabledList points at a list of hook names (or commands) the agent
	// skips, merged across its settings files.
	DisabledList string `json:"disabledList"`
	// LegacyHookKeys are keys beside the events that are old switches,
	// with the setting that replaced each.
	LegacyHookKeys map[string]string `json:"legacyHookKeys"`
	// ProjectTrust is where the agent records that it trusts a project,
	// for doctor; nil where project hooks need no trust step of this kind.
	ProjectTrust *ProjectTrust `json:"projectTrust"`
	// Notices are what a user must do before the agent runs hooks written
	// to its settings (Codex's trust gates); migrate reports them whenever
	// the target holds its entries, and does none of it itself.
	Notices []Notice `json:"notices"`
	// On is the setting that must hold its Value for any hook of the
	// agent to run (TerminaI's tools.enableHooks); absent, hooks are off.
	On *Switch `json:"on"`
	// FolderTrust is set where the agent runs a workspace's hooks only in
	// a trusted folder.
	FolderTrust bool `json:"folderTrust"`
	// HookFiles is set where the agent reads no settings file but runs one
	// executable file per event, named after it, from the directory of the
	// Project and User files (Cline's .clinerules/hooks/PreToolUse). The
	// Project and User files are then hookx's own list of entries, which
	// the dispatcher files hookx migrate writes beside them run through
	// hookx dispatch; migrate does not read such hooks as a source.
	HookFiles bool `json:"hookFiles"`
	// HookDirs and UserHookDirs are every directory whose files such an
	// agent runs, in the project and under the home directory (~/): the
	// directories of Project and User, and the others it reads too.
	HookDirs     []string `json:"hookDirs"`
	UserHookDirs []string `json:"userHookDirs"`
	// ExpandsVars is set where the agent expands $VAR and ${VAR} in every
	// string of its settings when it loads them, from its own environment:
	// a handler's env values too.
	ExpandsVars bool `json:"expandsVars"`
}

// Switch is a setting whose Value (a JSON literal) turns hooks off (Off)
// or, for On, is the one that lets them run.
type Switch struct {
	Pointer string `json:"pointer"` // a JSON pointer into the settings file
	Key     string `json:"key"`     // as a person writes it
	Value   string `json:"value"`
	// Legacy are older places of the same setting that the agent moves to
	// Pointer when it loads a file without Pointer (TerminaI's top-level
	// enableHooks): in a file, Pointer wins, then the first Legacy found.
	Legacy []LegacyKey `json:"legacy"`
}

// LegacyKey is an older place of a setting.
type LegacyKey struct {
	Pointer string `json:"pointer"`
	Key     string `json:"key"`
}

// Places are the pointers that set the switch in one file, in the order
// the agent reads them: the first one present decides.
func (s *Switch) Places() []LegacyKey {
	out := []LegacyKey{{Pointer: s.Pointer, Key: s.Key}}
	return append(out, s.Legacy...)
}

// ProjectTrust is a TOML file in which [<Table>."<project dir>"] with
// <Key> = "<Value>" trusts a project (Codex: ~/.codex/config.toml,
// [projects."/abs"] trust_level = "trusted").
type ProjectTrust struct {
	File  string `json:"file"`
	Table string `json:"table"`
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Notice is one step a user must take for the agent to run migrated hooks.
type Notice struct {
	// Scope is "project" for a step only project settings need; "": any.
	Scope string `json:"scope"`
	What  string `json:"what"`
	Why   string `json:"why"`
	// Fix says what to do; {project} stands for the project's absolute
	// directory.
	Fix string `json:"fix"`
}

// Shape is the form of the hooks in a dialect's settings file (NDIALECT §2).
// Load fills in the defaults of the fields left out.
type Shape struct {
	// HooksKey names the root member holding the events; "" puts the events
	// at the file's root (Droid). Default "hooks".
	HooksKey *string `json:"hooksKey"`
	// RootKeys, when not empty, are the only root keys the agent accepts:
	// migrate never writes another, and reports what it could not write.
	RootKeys []string `json:"rootKeys"`
	// Envelope holds the root members a new file starts with.
	Envelope map[string]any `json:"envelope"`
	// Groups: events hold {matcher, hooks:[…]} groups (default true);
	// false: a list of handlers.
	Groups *bool `json:"groups"`
	// CommandField and TimeoutField name the handler's command and timeout
	// (default "command", "timeout").
	CommandField string `json:"commandField"`
	TimeoutField string `json:"timeoutField"`
	// NameField names the handler's name, with which hookx marks the
	// entries it owns; "": no name, hookx marks its command instead.
	NameField string `json:"nameField"`
	// LabelField names the text shown while the hook runs.
	LabelField string `json:"labelField"`
	ShellField bool   `json:"shellField"` // handlers can choose their shell
	Sequential bool   `json:"sequential"` // groups can run their handlers in order
	EnvField   bool   `json:"envField"`   // handlers can set environment variables
	// HandlerKeys are the handler fields the agent accepts; migrate writes
	// no other and reports what it cannot write.
	HandlerKeys []string `json:"handlerKeys"`
	// AsyncField names the handler field that runs a hook in the
	// background, not waited for, its answer deciding nothing (Claude's
	// and Codex's "async"); "": the agent waits for every hook.
	AsyncField string `json:"asyncField"`
	// HandlerTypes are the handler types the agent runs; it discards a
	// handler of another (doctor). Unset: not known.
	HandlerTypes []string `json:"handlerTypes"`
	// BadHandlerDropsFile: a handler whose type the agent cannot read (none,
	// or one it does not have) makes it reject the whole file, so that none
	// of the file's hooks run; otherwise it discards that handler alone.
	BadHandlerDropsFile bool `json:"badHandlerDropsFile"`
	// TypeOptional: the agent runs a handler without a "type" as a command.
	TypeOptional bool `json:"typeOptional"`
	// Unread names handler fields people write that the agent does not
	// read, with what happens instead (Codex: timeoutSec); doctor warns.
	Unread map[string]string `json:"unread"`
	// Reserved are members of the hooks object that hold no event
	// (TerminaI's hooks.disabled): readers skip them, migrate keeps them.
	Reserved []string `json:"reserved"`
}

// Hooks returns the root key holding the events ("" for the root itself).
func (s Shape) Hooks() string {
	if s.HooksKey == nil {
		return "hooks"
	}
	return *s.HooksKey
}

// HooksPointer is the JSON pointer of the object holding the events.
func (s Shape) HooksPointer() string {
	if k := s.Hooks(); k != "" {
		return "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
	}
	return ""
}

// Grouped reports whether events hold matcher groups.
func (s Shape) Grouped() bool { return s.Groups == nil || *s.Groups }

// RootKeyAllowed reports whether the agent accepts a root key.
func (s Shape) RootKeyAllowed(key string) bool {
	return len(s.RootKeys) == 0 || slices.Contains(s.RootKeys, key)
}

// Detect is what tells an agent apart as the host of a hook call.
type Detect struct {
	// Env lists environment variables this agent alone sets for its hooks:
	// one that is set decides.
	Env []string `json:"env"`
	// Fields lists payload fields this agent alone sends, among all the
	// dialects of the table: one that is present decides.
	Fields []string `json:"fields"`
}

// Reading is how an agent of the gemini family reads a hook's result.
type Reading struct {
	// Streams is "" or "stdoutFirst" (Gemini CLI 0.61.0: stdout at any
	// exit code, stderr only when stdout is empty, either parsed as JSON)
	// or "byExit" (TerminaI: stdout only at exit 0, stderr only at any
	// other exit or a signal, and then as plain text only).
	Streams string `json:"streams"`
	// BlockingExits are the exit codes whose text is a block; empty: every
	// exit code from 2 up (Gemini CLI 0.61.0).
	BlockingExits []int `json:"blockingExits"`
}

// ByExit reports whether the exit code decides which stream is read.
func (r Reading) ByExit() bool { return r.Streams == "byExit" }

// String says how the agent reads a hook's result, for a report:
// "reads stdout only at exit 0 and stderr otherwise, and blocks only at
// exit 2", or "reads JSON on stdout at any exit code, and blocks with text
// at exit 2 and up".
func (r Reading) String() string {
	how := "reads JSON on stdout at any exit code"
	if r.ByExit() {
		how = "reads stdout only at exit 0 and stderr otherwise"
	}
	if len(r.BlockingExits) == 0 {
		return how + ", and blocks with text at exit 2 and up"
	}
	codes := make([]string, len(r.BlockingExits))
	for i, c := range r.BlockingExits {
		codes[i] = fmt.Sprint(c)
	}
	return how + ", and blocks only at exit " + strings.Join(codes, " or ")
}

// Blocks reports whether text at a non-zero exit code is a block.
func (r Reading) Blocks(exit int) bool {
	if len(r.BlockingExits) == 0 {
		return exit >= 2
	}
	return slices.Contains(r.BlockingExits, exit)
}

// Verification is how a dialect whose rows are not all proven by the
// conformance suite in CI was checked: read from its source, and its
// "live" rows from LiveRun: a few runs outside CI, or, where InCI is set,
// the suite's own runs of it in CI (Pi: the suite runs it, but not on
// every row).
type Verification struct {
	Source  string `json:"source"`  // the source read: repository@commit
	LiveRun string `json:"liveRun"` // the runs its "live" rows come from
	InCI    bool   `json:"inCI"`    // LiveRun is the conformance suite, in CI
}

// liveOutsideCI reports whether d's "live" rows were seen only in runs
// outside CI.
func (d *Dialect) liveOutsideCI() bool { return d.Verification != nil && !d.Verification.InCI }

// Timeout gives a dialect's timeout unit and defaults.
type Timeout struct {
	Unit string `json:"unit"` // "s" or "ms"
	// Whole is set where a timeout must be a whole, non-negative number:
	// any other drops the whole settings file (Codex reads a u64).
	Whole bool `json:"whole"`
	// MsFrom, where set, is the value from which the agent reads a timeout
	// as milliseconds whatever Unit says (Qwen Code: 1000 and more).
	MsFrom   float64            `json:"msFrom"`
	Default  float64            `json:"default"`
	PerEvent map[string]float64 `json:"perEvent"`
	// MaxPerEvent caps what an event's hooks may be given, where the agent
	// caps it.
	MaxPerEvent map[string]float64 `json:"maxPerEvent"`
}

// Duration is how long the agent gives a hook whose timeout says n: n of
// the timeout's units, or milliseconds from MsFrom on.
func (t Timeout) Duration(n float64) time.Duration {
	return time.Duration(t.Seconds(n) * float64(time.Second))
}

// Seconds is how many seconds the agent reads a timeout value n as.
func (t Timeout) Seconds(n float64) float64 {
	if t.Unit == "ms" || (t.MsFrom > 0 && n >= t.MsFrom) {
		return n / 1000
	}
	return n
}

// Value is the timeout value to write for at least sec seconds, the
// smallest whole number the agent reads as that long; ms is set when it is
// written in milliseconds although Unit is seconds (it reaches MsFrom).
func (t Timeout) Value(sec float64) (v int64, ms bool) {
	if t.Unit == "ms" {
		return int64(math.Ceil(sec*1000 - 1e-9)), false
	}
	v = int64(math.Ceil(sec - 1e-9))
	if t.MsFrom > 0 && float64(v) >= t.MsFrom {
		return int64(math.Ceil(sec*1000 - 1e-9)), true
	}
	return v, false
}

// HeldOutput is how an agent reads a hook whose output is still held open
// after it exited (a background process it started inherited the pipe).
type HeldOutput struct {
	// Wait is "quiet": read what arrived once no output came for QuietMS
	// (and at most CapMS after the hook exited); or "eof": wait for end of
	// file on both streams, for as long as it takes (past the hook's
	// timeout, the hook counts as timed out).
	Wait    string `json:"wait"`
	QuietMS int    `json:"quietMs"`
	CapMS   int    `json:"capMs"`
	// Refuse is set when the agent refuses such a capture if it is an
	// unfinished JSON object or a document that grants, rewrites or
	// injects; on events with output.heldBlocks the refusal is a block,
	// elsewhere a non-blocking error. Exit 2 is never refused.
	Refuse bool `json:"refuse"`
	// BlockNotHarmless lists events on which a decision "block" counts as
	// a document that acts (and so is refused when held).
	BlockNotHarmless []string `json:"blockNotHarmless"`
	// ContextHarmlessAtExit0 lists events on which additionalContext at
	// exit 0 does not count as injecting.
	ContextHarmlessAtExit0 []string `json:"contextHarmlessAtExit0"`
}

// Env names the environment variables a dialect gives its hooks.
type Env struct {
	ProjectDir string            `json:"projectDir"`
	SessionID  string            `json:"sessionID"`
	Cwd        string            `json:"cwd"`
	Set        map[string]string `json:"set"`
	// ProjectDirs are other variables the agent sets to the project
	// directory for its hooks (Qwen: CLAUDE_PROJECT_DIR and
	// GEMINI_PROJECT_DIR beside QWEN_PROJECT_DIR); wrap sets them too.
	ProjectDirs []string `json:"projectDirs"`
	// Known lists the other variables the agent sets for its hooks, for
	// doctor; a name ending in * stands for any suffix.
	Known []string `json:"known"`
	// PayloadVars: the agent also gives each top-level field of the hook's
	// payload whose name is an identifier and whose value is a string, a
	// boolean or a number as a variable of that name, over any other
	// (Droid: $tool_name, $session_id, $cwd...).
	PayloadVars bool `json:"payloadVars"`
	// FromPayload names variables the agent sets from its hook's payload,
	// in the agent's own field names (name -> a field, or field.member
	// inside an object), each only where the payload has it (Crush:
	// CRUSH_TOOL_INPUT_COMMAND from tool_input.command).
	FromPayload map[string]string `json:"fromPayload"`
}

// Command is what an agent does to a hook's command before a process runs
// it: wrap does the hook's own agent's preparation, so that the hook runs
// exactly as its author's agent would run it, whatever the host did.
type Command struct {
	// Argv runs a command string (the string follows), e.g. /bin/sh -c.
	Argv []string `json:"argv"`
	// PreSubstitute rewrites the command text before the shell sees it: in
	// order, every occurrence of each Ref, anywhere in the text, becomes
	// the shell-quoted value of the hook's environment variable From.
	PreSubstitute []Substitution `json:"preSubstitute"`
	// ExecPlaceholders are replaced, as plain text, by the hook's
	// environment variable of the same name in every element of an exec
	// form command (a program and its arguments, no shell).
	ExecPlaceholders []string `json:"execPlaceholders"`
	// EnvFile names the variable that holds a session file the agent gives
	// the hooks of EnvFileEvents, for them to write export lines into.
	EnvFile       string   `json:"envFile"`
	EnvFileEvents []string `json:"envFileEvents"`
	// AlsoSets are hook variables the agent sets beyond its env block that
	// it does not have itself.
	AlsoSets []string `json:"alsoSets"`
	// LoadExpand: the agent expands $NAME, ${NAME} and ${NAME:-default} in
	// the command when it loads its settings, from its own environment.
	LoadExpand bool `json:"loadExpand"`
	// LoadExpandNamesOnly narrows LoadExpand to $NAME and ${NAME} with NAME
	// a shell name ([A-Za-z_][A-Za-z0-9_]*); ${NAME:-default} and any other
	// ${…} stay as written (TerminaI's resolveString).
	LoadExpandNamesOnly bool `json:"loadExpandNamesOnly"`
}

// LoadVar is the pattern of what the agent expands in a command when it
// loads its settings (LoadExpand), nil where it expands nothing: groups 1
// and 2 are the name ($NAME, ${NAME}), group 3, where the agent has it,
// the default of ${NAME:-default}. Gemini CLI's resolveEnvVarsInString is
// /\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g; TerminaI's resolveString
// (LoadExpandNamesOnly) /\$\{([a-zA-Z_][a-zA-Z0-9_]*)\}|\$([a-zA-Z_][a-zA-Z0-9_]*)/g.
func (c Command) LoadVar() *regexp.Regexp {
	switch {
	case !c.LoadExpand:
		return nil
	case c.LoadExpandNamesOnly:
		return loadNameVar()
	}
	return loadVar()
}

var (
	loadVar     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$(?:(\w+)|\{([^}]+?)(?::-([^}]*))?\})`) })
	loadNameVar = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\$(?:([a-zA-Z_][a-zA-Z0-9_]*)|\{([a-zA-Z_][a-zA-Z0-9_]*)\})`)
	})
)

// Plugin is a dialect's package of hooks (a Claude Code plugin, a Gemini
// CLI extension): its hooks in hooks/hooks.json, shaped like a settings
// file's events, and its own directory named in a command by placeholders.
type Plugin struct {
	Manifest string `json:"manifest"` // the manifest's path inside the directory, slash-separated
	What     string `json:"what"`     // what the agent calls it
	// RootVar is the placeholder (as a variable name) for the directory in
	// a converted package's commands.
	RootVar string `json:"rootVar"`
	// RootVars are exported with the plugin root (the shell expands them;
	// exec form substitutes them).
	RootVars []string `json:"rootVars"`
	// UnknownVars are plugin directories hookx cannot know.
	UnknownVars []string `json:"unknownVars"`
	// Hydrate are the ${key} placeholders the agent replaces as text when it
	// loads the package, with the value: "root" for its directory, "/" for
	// the path separator, "" when hookx cannot know it.
	Hydrate map[string]string `json:"hydrate"`
}

// PluginHost is the generated plugin through which an agent without
// command hooks runs them (Pi: .pi/extensions/hookx.ts): the plugin's path
// and its hooks data file, relative to the project, and the agent's events
// the plugin runs hooks on. migrate writes both files, doctor checks them.
type PluginHost struct {
	Extension string   `json:"extension"`
	Hooks     string   `json:"hooks"`
	Events    []string `json:"events"`
	// Format names the generator of both files (migrate's pluginFormats).
	Format string `json:"format"`
}

// Substitution is one text replacement of Command.PreSubstitute.
type Substitution struct {
	Ref  string `json:"ref"`
	From string `json:"from"`
}

// CommandOf returns how dialect's agent prepares a hook's command, without
// building the table where the generated one has it.
func CommandOf(dialect string) (Command, bool) {
	if generatedCommands != nil {
		c, ok := generatedCommands()[dialect]
		return c, ok
	}
	d, err := Default().Dialect(dialect)
	if err != nil {
		return Command{}, false
	}
	return d.Command, true
}

// generatedCommands maps each dialect to its Command (table_gen.go).
var generatedCommands func() map[string]Command

// MCPStyle says how a dialect names MCP tools.
type MCPStyle struct {
	// PluginPrefix starts the server part of a plugin's MCP tools, which
	// have no defined name on other agents (T§7).
	PluginPrefix string `json:"pluginPrefix"`
	Prefix       string `json:"prefix"`
	Separator    string `json:"separator"`
	Sanitize     bool   `json:"sanitize"`
	MaxLength    int    `json:"maxLength"`
	// Live says the naming was seen in a real run of the agent with an MCP
	// server (LiveBy: which); a pairing of two namings is "live" in the
	// compatibility table only where both were.
	Live   bool   `json:"live"`
	LiveBy string `json:"liveBy"`
	// Bare is set where an MCP tool is named by its own tool name alone
	// (sanitised as Bare says), and Prefix+server+Separator+tool only when
	// that name is already taken (TerminaI): the name does not say the
	// server.
	Bare *MCPBare `json:"bare"`
}

// MCPBare is how a dialect that names MCP tools bare makes the name: each
// run of a character Unsafe matches becomes "_"; a name longer than
// MaxLength keeps its first Head and last Tail characters around Join.
type MCPBare struct {
	Unsafe    string `json:"unsafe"`
	MaxLength int    `json:"maxLength"`
	Head      int    `json:"head"`
	Join      string `json:"join"`
	Tail      int    `json:"tail"`
}

// Lacks lists canonical ids a dialect has no counterpart for, with the reason.
type Lacks struct {
	Events map[string]string `json:"events"`
	Tools  map[string]string `json:"tools"`
}

// Event is one hook event of a dialect.
type Event struct {
	Name         string             `json:"name"`
	Canonical    string             `json:"canonical"`
	Also         []string           `json:"also"`
	Mark         Mark               `json:"mark"` // "none": it stands for no other agent's event (Note says why)
	Note         string             `json:"note"`
	Matcher      string             `json:"matcher"` // "tool", "value", "exact" or "ignored"
	MatcherField string             `json:"matcherField"`
	Route        string             `json:"route"`   // named router choosing among canonical+also
	Convert      string             `json:"convert"` // named payload converter
	Fields       map[string]string  `json:"fields"`  // dialect field -> canonical field
	Values       map[string][]Value `json:"values"`  // dialect field -> value map
	Defaults     map[string]any     `json:"defaults"`
	Private      []string           `json:"private"` // event fields dropped in translation
	Output       Output             `json:"output"`
	// StopActive is set on the events that end a turn and tell their hooks
	// whether a stop hook's block already continued it.
	StopActive *StopActive `json:"stopActive"`
	// Live is set when the event's payload and output handling were seen in
	// a real run of the agent; anything else is a reading of docs or source.
	Live bool `json:"live"`
	// LiveBy cites where a live event was seen when no scenario of the
	// conformance suite shows it (a finding in the reference, with its
	// date); the suite's results table is otherwise the evidence.
	LiveBy string `json:"liveBy"`
	// Source is where a dialect the conformance suite cannot run has this
	// event: file:line in its source, or "live" with the run.
	Source string `json:"source"`
}

// StopActive says how an agent tells a stop hook that the turn is already a
// continuation that a stop hook's block started.
type StopActive struct {
	// Field is the payload's boolean: true in a continuation.
	Field string `json:"field"`
	// Chain is the payload field that stays the same through one chain of
	// continuations and changes with the user's next prompt. Empty where
	// the agent sends none (Factory Droid: its message_id changes with every
	// stop): a session's stops are then one chain, which ends when the hook
	// does not block.
	Chain string `json:"chain"`
	// ResetByTools is set where the field is false again after a
	// continuation in which the model used tools.
	ResetByTools bool `json:"resetByTools"`
}

// AsyncAck is how a hook tells its agent not to wait for it: the first line
// of its stdout, once it holds a "}", is a JSON object with Field true. The
// agent then goes on at once and lets the hook run in the background for at
// most TimeoutField (a number in Unit) or DefaultTimeout.
type AsyncAck struct {
	Field          string  `json:"field"`
	TimeoutField   string  `json:"timeoutField"`
	Unit           string  `json:"unit"` // "s" or "ms"
	DefaultTimeout float64 `json:"defaultTimeout"`
}

// Bound is how long the agent lets a hook that answered ack run in the
// background; ok is false when ack is not an acknowledgement.
func (a *AsyncAck) Bound(ack []byte) (bound time.Duration, ok bool) {
	var m map[string]json.RawMessage
	if a == nil || json.Unmarshal(ack, &m) != nil || string(m[a.Field]) != "true" {
		return 0, false
	}
	n := a.DefaultTimeout
	var t float64
	if json.Unmarshal(m[a.TimeoutField], &t) == nil && t != 0 && !math.IsNaN(t) {
		n = t // JavaScript's "asyncTimeout || default"
	}
	unit := time.Second
	if a.Unit == "ms" {
		unit = time.Millisecond
	}
	if n <= 0 {
		return 0, true
	}
	return time.Duration(n * float64(unit)), true
}

// Value maps one enumerated payload value.
type Value struct {
	Value     string `json:"value"`
	Canonical string `json:"canonical"`
	Mark      Mark   `json:"mark"`
	Note      string `json:"note"`
}

// Output is what a dialect's host does with a hook's answer on one event.
type Output struct {
	// Block is what a block does: "deny" (the action does not happen, the
	// reason reaches the model or user), "feedback" (the reason reaches the
	// model, the action stands), "hide_output" (the tool result is replaced
	// by the reason), "continue" (the reason starts another turn) or "none".
	Block string `json:"block"`
	// Context is where additionalContext goes: "model", "continue" (keeps the
	// turn going) or "none".
	Context string `json:"context"`
	// PlainText is what plain stdout at exit 0 becomes: "context",
	// "systemMessage" or "ignored".
	PlainText string `json:"plainText"`
	// SystemMessage is "shown" (the default) or "discarded".
	SystemMessage string `json:"systemMessage"`
	Ask           bool   `json:"ask"` // the event can ask the user to confirm
	// AskHangs is set where the agent's ask is never answered in a
	// headless run, which then hangs (Gemini CLI's BeforeTool, T§15 S3):
	// an ask is rendered there as a deny unless told otherwise (wrap
	// --ask ask).
	AskHangs     bool   `json:"askHangs"`
	Allow        string `json:"allow"` // "skips_prompt" or "none"
	RewriteInput bool   `json:"rewriteInput"`
	// RewriteAnnounced is set where the agent tells the model that a hook
	// rewrote the tool input (Gemini appends "[System] Tool input
	// parameters (…) were modified by a hook before execution." to the
	// tool's result).
	RewriteAnnounced bool `json:"rewriteAnnounced"`
	ReplaceOutput    bool `json:"replaceOutput"`
	Stop             bool `json:"stop"`     // continue:false stops the agent
	BlockCap         int  `json:"blockCap"` // consecutive blocks the host honours; 0: no cap
	// BlockCapResetByTools is set where the agent counts the blocks of its
	// BlockCap since the model last used a tool: a stop loop whose
	// continuations use tools is not capped (Claude Code); unset, the count
	// runs on across tool round trips (Qwen Code).
	BlockCapResetByTools bool `json:"blockCapResetByTools"`
	// PermissionDecision is set where a decision is written as
	// hookSpecificOutput.permissionDecision rather than a top-level
	// decision (Claude's PreToolUse, CC§3.2).
	PermissionDecision bool `json:"permissionDecision"`
	// Guard is set on the events that guard an action (a tool call, a
	// prompt): where hookx's own failure blocks rather than warns.
	Guard bool `json:"guard"`
	// FailClosed is set on the other events where a hook's block keeps
	// something from happening or from the model (a Gemini AfterTool deny
	// hides the tool's output; a Claude PostToolUse block sends the model a
	// reason): there too, an answer hookx cannot read or produce is a
	// block, as on guard events (issue 8, items 8 and 11).
	FailClosed bool `json:"failClosed"`
	// HeldBlocks is set where the agent's refusal of a held capture
	// (HeldOutput.Refuse) is a block rather than a non-blocking error.
	HeldBlocks bool `json:"heldBlocks"`
	// StopFailsAction is set where continue:false also stops the action
	// itself (Gemini fails the tool, GC§4).
	StopFailsAction bool `json:"stopFailsAction"`
	// StderrShown is set where a failing hook's stderr is shown to the user
	// (Claude's SessionStart and SessionEnd, CC§2.2).
	StderrShown bool `json:"stderrShown"`
	// Keys, where set, are the only output keys the agent accepts on this
	// event: top-level names, and hookSpecificOutput.<name> for the fields
	// of hookSpecificOutput. Any other key fails the hook there (Codex), so
	// hookx writes no other and reports what it left out. Unset: the agent
	// ignores keys it does not know.
	Keys []string `json:"keys"`
	// RewriteNeedsAllow is set where a rewritten tool input is only applied
	// beside permissionDecision "allow" (Codex); there "allow" grants
	// nothing else (Allow is not "skips_prompt").
	RewriteNeedsAllow bool `json:"rewriteNeedsAllow"`
	// BehaviorDecision is set where the decision is written as
	// hookSpecificOutput.decision {behavior, message} (the permission
	// dialog's PermissionRequest, in Claude Code and Codex).
	BehaviorDecision bool `json:"behaviorDecision"`
	// StopReplacesOutput is set where continue:false replaces the tool's
	// result with the stop reason (TerminaI's AfterTool): the one way a hook
	// there keeps a tool's output from the model.
	StopReplacesOutput bool `json:"stopReplacesOutput"`
	// StopBlocks is set where continue:false is read as the event's block,
	// whatever the block does (Qwen Code's Stop and SubagentStop continue
	// the turn on isBlockingDecision() || shouldStopExecution()): the
	// agent cannot stop there, and a stop for such a host is not written.
	StopBlocks bool `json:"stopBlocks"`
	// DecisionIgnored is set where the agent does not read a top-level
	// decision (Droid's PreToolUse, UserPromptSubmit and PostToolUse): a
	// hook's decision there blocks nothing, and a block for such a host is
	// written as permissionDecision where the event has it, else as exit 2
	// with the reason on stderr.
	DecisionIgnored bool `json:"decisionIgnored"`
	// StopByExit is set where the agent reads no continue:false and stops
	// only on an exit code of its own (Exits, effect "stop"): a stop for
	// such a host is written as that exit, with the reason on stderr
	// (Crush's exit 49).
	StopByExit bool `json:"stopByExit"`
	// Discarded is set where the agent drops the hooks' result unread: no
	// exit code, field or text of it has any effect (TerminaI's
	// SessionStart). Context is then "none" and Block "none".
	Discarded bool `json:"discarded"`
	// Exits are the exit codes to which the agent gives an effect of their
	// own on this event, beyond what its protocol family's reading gives
	// them, by code: "block" (the event's block, stderr the reason, whatever
	// stdout says), "stop" (the agent stops, stderr the reason, whatever
	// stdout says; on an event whose block denies, the action does not run)
	// or "context" (stderr reaches the model beside the result, which
	// otherwise stands). Factory Droid aborts on a PreToolUse hook's exit 3
	// and blocks the prompt on a UserPromptSubmit hook's. Only the Claude
	// family's reader reads them.
	Exits map[string]string `json:"exits"`
	// RewritePrompt is set where hookSpecificOutput.updatedInput.prompt
	// replaces the user's prompt (Factory Droid's UserPromptSubmit). No
	// other agent takes one: hookx refuses a prompt so rewritten rather
	// than send it unrewritten.
	RewritePrompt bool `json:"rewritePrompt"`
	// ModelFields are the hookSpecificOutput fields of a model hook that
	// the agent acts on, all in Gemini CLI's hook LLM format: llm_request
	// (merged into the model request: a hook may redact what the model
	// sees), llm_response (a synthetic response beside a BeforeModel block;
	// the replacement of an AfterModel chunk) and toolConfig (the tools the
	// model may call). hookx passes each on to a host event that acts on
	// it, and reports it not carried elsewhere.
	ModelFields []string `json:"modelFields"`
}

// ExitEffect is the effect the agent gives exit code exit on this event
// where it is one of its own (Exits), or "".
func (o Output) ExitEffect(exit int) string {
	if len(o.Exits) == 0 {
		return ""
	}
	return o.Exits[strconv.Itoa(exit)]
}

// StopExit is the exit code to which the agent gives the effect "stop" on
// this event (Exits), the smallest of them; 0 when none.
func (o Output) StopExit() int {
	best := 0
	for code, effect := range o.Exits {
		if n, err := strconv.Atoi(code); err == nil && effect == "stop" && (best == 0 || n < best) {
			best = n
		}
	}
	return best
}

// Accepts reports whether the agent accepts an output key on this event
// (a top-level name, or hookSpecificOutput.<name>).
func (o Output) Accepts(key string) bool { return o.Keys == nil || slices.Contains(o.Keys, key) }

// Transcript describes an agent's session transcript: where it is, the
// format package transcript reads and writes, and what a transcript
// translated into this format holds.
type Transcript struct {
	File    string `json:"file"`
	Format  string `json:"format"` // a format package transcript knows: "claude", "gemini", …
	Live    bool   `json:"live"`   // its records were seen in real runs
	Carries string `json:"carries"`
	Lacks   string `json:"lacks"`
	// ReadOnly says package transcript reads the format but does not write
	// it: a hook of another agent under this one gets a translated copy, a
	// hook of this agent under another gets the host's own file.
	ReadOnly bool `json:"readOnly"`
	// Tools renames the tool calls the transcript records where the agent
	// shows its hooks another name or other arguments (Codex records
	// exec_command {cmd}; its hooks see Bash {command}); by recorded name.
	Tools map[string]TranscriptTool `json:"tools"`
}

// TranscriptTool is how one recorded tool call reads as the dialect's tool.
type TranscriptTool struct {
	Name string `json:"name"` // the dialect's tool
	// Fields maps recorded arguments to the tool's; an argument not listed
	// is not shown to hooks and is dropped.
	Fields map[string]string `json:"fields"`
	// Input, for a tool whose recorded input is text rather than
	// arguments (Codex's freeform apply_patch), is the argument holding it.
	Input string `json:"input"`
}

// Writable reports whether package transcript can write the format, so
// that a hook of this dialect can be given a translated copy.
func (t Transcript) Writable() bool { return t.Format != "" && !t.ReadOnly }

// Tool is one built-in tool of a dialect.
type Tool struct {
	Name      string `json:"name"`
	Canonical string `json:"canonical"`
	// Also lists other canonical tools this one performs too (Codex's
	// apply_patch writes whole files as well as editing them): it stands
	// for them where the dialect has no tool of its own for them, and a
	// matcher naming it stands for their tools on the other side.
	Also []string `json:"also"`
	// Acts lists the canonical tools (with an acts phrase in canonical.jsonc)
	// whose kind of action this tool performs where another agent has no
	// counterpart for it (TerminaI's manage_processes runs commands, as a
	// shell does): a guard of that agent whose matcher names one of its
	// tools of that kind, or every tool, would never be shown the call, so
	// it fails closed on it (Table.Unjudged).
	Acts []string `json:"acts"`
	// ActsWhen narrows Acts to calls whose argument has one of the values
	// (TerminaI's manage_processes runs a command on operation start, send
	// and restart, not on list). A call without the argument, or with a
	// value that is not a string, acts: its guard fails closed.
	ActsWhen map[string][]string `json:"actsWhen"`
	Only     string              `json:"only"` // the reason this tool has no canonical concept
	Aliases  []string            `json:"aliases"`
	Legacy   bool                `json:"legacy"` // accepted on input, never emitted
	Mark     Mark                `json:"mark"`
	Note     string              `json:"note"`
	Fields   map[string]string   `json:"fields"` // dialect argument -> canonical argument
	Convert  string              `json:"convert"`
	// Paths names, for each path argument, the resolver that gives the
	// path this agent's tool really uses (paths.go).
	Paths map[string]string `json:"paths"`
	// Cwd names the argument, one of Paths, that sets the directory the
	// tool runs in (a shell's working directory). A hook whose agent's tool
	// has no such argument gets that directory, resolved as this agent
	// resolves it, as its event's cwd: where its own agent would have run
	// the command.
	Cwd string `json:"cwd"`
	// Hidden lists arguments of the model's call that change what the tool
	// touches but that the agent does not show its hooks, with the
	// evidence: no hook, of any dialect, can check them.
	Hidden map[string]string `json:"hidden"`
	// FailClosed lists arguments that change what the tool touches and
	// that no other agent's tool can carry (a list of directories where
	// the others take one), with the reason: a call that has one fails a
	// guard of another dialect closed, since the guard would check less
	// than the tool touches.
	FailClosed map[string]string `json:"failClosed"`
	Response   string            `json:"response"`
	Required   []string          `json:"required"`
	Defaults   map[string]any    `json:"defaults"`
	// Descriptive lists arguments that only describe the call (to the
	// model or the user) and change nothing it does: a hook's rewrite of
	// one that the other side cannot hold is dropped with a finding, where
	// a rewrite of any other such argument blocks the call.
	Descriptive []string `json:"descriptive"`
	Live        bool     `json:"live"` // seen in a real run of the agent
	// Source is where a dialect the conformance suite cannot run has this
	// tool: file:line in its source, or "live" with the run.
	Source string `json:"source"`
	// ArgsUnverified is set where the tool's argument names were not read
	// in its agent: on a guard event, an argument the row does not list or
	// a required one missing fails the guard closed.
	ArgsUnverified bool `json:"argsUnverified"`
	// OutputReplace is what the real agent did with a replaced result of
	// this tool (updatedToolOutput), as seen live: "applied" (Bash, T§15 S2;
	// Read, conformance suite), "ignored" (Edit: the model still gets the
	// agent's own result), or "" when nobody has checked.
	OutputReplace string `json:"outputReplace"`

	canonField map[string]string // canonical argument -> dialect argument
}

// Acting reports whether a call of the tool with input does what its Acts
// say (ActsWhen); where unsure, it does.
func (t *Tool) Acting(input map[string]any) bool {
	if len(t.Acts) == 0 {
		return false
	}
	for arg, values := range t.ActsWhen {
		if v, ok := input[arg].(string); ok && !slices.Contains(values, v) {
			return false
		}
	}
	return true
}

// ArgFor returns the dialect's argument name for a canonical argument.
func (t *Tool) ArgFor(canonical string) (string, bool) {
	if t.canonField == nil && t.Canonical != "" {
		// Its dialect was not validated here (ensureIndex): its arguments
		// are few, and no two name the same canonical argument.
		for arg, c := range t.Fields {
			if c == canonical {
				return arg, true
			}
		}
		return "", false
	}
	s, ok := t.canonField[canonical]
	return s, ok
}

// Table is the whole mapping table.
type Table struct {
	Canonical Canonical
	Dialects  []*Dialect

	byName map[string]*Dialect
	lazy   *lazy // set when the dialects are built on first use (Lazy)
}

var (
	defaultOnce  sync.Once
	defaultTable *Table
	defaultErr   error
)

// generated builds the table from its Go literal (table_gen.go); set at
// init, called once by Default.
var generated func() *Table

// generatedShell returns a dialect's hook shell and whether it exists
// (table_gen.go).
var generatedShell func(dialect string) (string, bool)

// generatedNames lists the generated table's dialects, in its order
// (table_gen.go).
var generatedNames []string

// HookShell returns the shell a dialect's agent runs hook commands with
// ("sh" or "bash") and whether the dialect exists, without building the
// table: a pass-through wrap needs nothing else from it.
func HookShell(dialect string) (string, bool) {
	if generatedShell != nil {
		return generatedShell(dialect)
	}
	d, err := Default().Dialect(dialect)
	if err != nil {
		return "", false
	}
	return d.Shell, true
}

// Names lists the embedded table's dialects in its order, without
// building the table (wrap's help needs nothing else).
func Names() []string {
	if generatedNames != nil {
		return slices.Clone(generatedNames)
	}
	return Default().DialectNames()
}

// Default returns the embedded table, validated and indexed once. It is built
// from table_gen.go, the data files compiled to Go (go generate ./mappings),
// or from the data files when that is absent. It panics if the data is
// invalid, which the package's tests rule out.
func Default() *Table {
	defaultOnce.Do(func() {
		if generated == nil {
			defaultTable, defaultErr = Load(dataFS, "data")
			return
		}
		t := generated()
		t.indexNames()
		defaultTable = t
	})
	if defaultErr != nil {
		panic("hookx: embedded mapping table: " + defaultErr.Error())
	}
	return defaultTable
}

// Load reads canonical.jsonc and every other *.jsonc in dir of fsys as a
// dialect, decodes each strictly (unknown keys are errors) and validates the
// whole table, returning every problem found joined into one error.
func Load(fsys fs.FS, dir string) (*Table, error) {
	t := &Table{byName: map[string]*Dialect{}}
	if err := decodeFile(fsys, path.Join(dir, "canonical.jsonc"), &t.Canonical); err != nil {
		return nil, err
	}
	names, err := fs.Glob(fsys, path.Join(dir, "*.jsonc"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	for _, name := range names {
		if path.Base(name) == "canonical.jsonc" {
			continue
		}
		d := new(Dialect)
		if err := decodeFile(fsys, name, d); err != nil {
			return nil, err
		}
		if want := strings.TrimSuffix(path.Base(name), ".jsonc"); d.Name != want {
			return nil, fmt.Errorf("%s: a dialect's file is named after it: name %q, want %q", name, d.Name, want)
		}
		t.Dialects = append(t.Dialects, d)
	}
	if err := t.index(); err != nil {
		return nil, err
	}
	return t, nil
}

// init prepares an empty table for indexing.
func (t *Table) reset() { t.byName = map[string]*Dialect{} }

func decodeFile(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	std, err := hujson.Standardize(b)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(std))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// index builds the lookup maps and validates the table.
func (t *Table) index() error {
	t.reset()
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	canonEvents := map[string]bool{}
	for _, c := range t.Canonical.Events {
		if canonEvents[c.ID] {
			bad("canonical: event %q listed twice", c.ID)
		}
		canonEvents[c.ID] = true
	}
	canonTools := map[string]bool{}
	for _, c := range t.Canonical.Tools {
		if canonTools[c.ID] {
			bad("canonical: tool %q listed twice", c.ID)
		}
		canonTools[c.ID] = true
	}

	for _, d := range t.Dialects {
		if _, dup := t.byName[d.Name]; dup {
			bad("dialect %q defined twice", d.Name)
		}
		t.byName[d.Name] = d
		if !slices.Contains(Protocols, d.Protocol) {
			bad("%s: unknown protocol %q (known: %s)", d.Name, d.Protocol, strings.Join(Protocols, ", "))
		}
		errs = append(errs, d.Settings.Shape.fill(d.Name))
		if len(d.Command.Argv) == 0 {
			bad("%s: command.argv is empty", d.Name)
		}
		if ph := d.PluginHost; ph != nil {
			if ph.Extension == "" || ph.Hooks == "" || ph.Format == "" {
				bad("%s: pluginHost needs extension, hooks and format", d.Name)
			}
			for _, e := range ph.Events {
				if !slices.ContainsFunc(d.Events, func(ev *Event) bool { return ev.Name == e }) {
					bad("%s: pluginHost event %q is not one of its events", d.Name, e)
				}
			}
		}
		if st := d.Settings; st.HookFiles {
			// The directory hookx migrate writes to is one the agent runs.
			if !slices.Contains(st.HookDirs, path.Dir(st.Project)) || st.User != "" && !slices.Contains(st.UserHookDirs, path.Dir(st.User)) {
				bad("%s: settings: hookDirs and userHookDirs must hold the directories of project and user", d.Name)
			}
			for _, u := range st.UserHookDirs {
				if !strings.HasPrefix(u, "~/") {
					bad("%s: settings: userHookDirs %q is not under ~/", d.Name, u)
				}
			}
		} else if len(d.Settings.HookDirs)+len(d.Settings.UserHookDirs) > 0 {
			bad("%s: settings: hookDirs without hookFiles", d.Name)
		}
		if pl := d.Plugin; pl != nil && (pl.Manifest == "" || pl.RootVar == "" || pl.What == "") {
			bad("%s: plugin needs manifest, what and rootVar", d.Name)
		}
		errs = append(errs, d.Payload.validate(d.Name))
		if d.Timeout.Unit != "s" && d.Timeout.Unit != "ms" {
			bad("%s: timeout unit %q is neither s nor ms", d.Name, d.Timeout.Unit)
		}
		if d.Timeout.MsFrom != 0 && (d.Timeout.Unit != "s" || d.Timeout.MsFrom < 1) {
			bad("%s: timeout.msFrom needs unit s and a value of 1 or more", d.Name)
		}
		if err := d.compileMatchers(); err != nil {
			errs = append(errs, err)
		}
		d.exactOnce.Do(func() {}) // compiled: IsExactList has nothing to do
		if responseConverters()[d.DefaultResponse] == nil {
			bad("%s: unknown defaultResponse %q", d.Name, d.DefaultResponse)
		}
		for field, name := range d.Derive {
			if _, ok := derivers()[name]; !ok {
				bad("%s: derive %s: unknown deriver %q", d.Name, field, name)
			}
		}
		d.eventByName = map[string]*Event{}
		d.eventByCanon = map[string]*Event{}
		d.alternateEvents = map[string]*Event{}
		for _, e := range d.Events {
			if _, dup := d.eventByName[e.Name]; dup {
				bad("%s: event %q listed twice", d.Name, e.Name)
			}
			d.eventByName[e.Name] = e
			if !canonEvents[e.Canonical] {
				bad("%s: event %s: unknown canonical event %q", d.Name, e.Name, e.Canonical)
			}
			if e.Mark == None {
				// The agent has the event, and it stands for nothing of
				// another agent's (TerminaI's AfterAgent): its note says why.
				if strings.TrimSpace(e.Note) == "" || len(e.Also) > 0 {
					bad("%s: event %s is marked none without a note, or with also", d.Name, e.Name)
				}
				if _, lacked := d.Lacks.Events[e.Canonical]; lacked {
					bad("%s: event %s is marked none and its %q listed under lacks: say it once, in its note", d.Name, e.Name, e.Canonical)
				}
			} else {
				if other, dup := d.eventByCanon[e.Canonical]; dup {
					bad("%s: events %s and %s both map to %q", d.Name, other.Name, e.Name, e.Canonical)
				}
				d.eventByCanon[e.Canonical] = e
			}
			for _, a := range e.Also {
				if !canonEvents[a] {
					bad("%s: event %s: unknown canonical event %q in also", d.Name, e.Name, a)
				}
				d.alternateEvents[a] = e
			}
			if _, lacked := d.Lacks.Events[e.Canonical]; lacked {
				bad("%s: event %s maps to %q, which the dialect says it lacks", d.Name, e.Name, e.Canonical)
			}
			if !slices.Contains([]string{"tool", "value", "exact", "ignored"}, e.Matcher) {
				bad("%s: event %s: matcher kind %q is not tool, value, exact or ignored", d.Name, e.Name, e.Matcher)
			}
			if (e.Matcher == "value" || e.Matcher == "exact") && e.MatcherField == "" {
				bad("%s: event %s: a %s matcher needs matcherField", d.Name, e.Name, e.Matcher)
			}
			if e.LiveBy != "" && !e.Live {
				bad("%s: event %s: liveBy cites a run, but the event is not marked live", d.Name, e.Name)
			}
			if e.Convert != "" && eventConverters()[e.Convert] == nil {
				bad("%s: event %s: unknown converter %q", d.Name, e.Name, e.Convert)
			}
			if e.StopActive != nil && e.StopActive.Field == "" {
				bad("%s: event %s: stopActive needs a field", d.Name, e.Name)
			}
			if e.Route != "" && routers()[e.Route] == nil {
				bad("%s: event %s: unknown router %q", d.Name, e.Name, e.Route)
			}
			if len(e.Also) > 0 && e.Route == "" {
				bad("%s: event %s carries several canonical events but names no router", d.Name, e.Name)
			}
			errs = append(errs, e.Output.validate(d.Name+": event "+e.Name))
			if len(e.Output.Exits) > 0 && d.Protocol != "claude" {
				// Read by the Claude family's reader only: elsewhere they
				// would be declared and silently not acted on.
				bad("%s: event %s: output.exits is read only for the claude protocol, not %q", d.Name, e.Name, d.Protocol)
			}
			for field, vals := range e.Values {
				seen := map[string]bool{}
				primary := map[string]int{}
				for _, v := range vals {
					if seen[v.Value] {
						bad("%s: event %s: %s value %q listed twice", d.Name, e.Name, field, v.Value)
					}
					seen[v.Value] = true
					if v.Mark == "" || v.Mark == Exact {
						primary[v.Canonical]++
					} else if v.Note == "" {
						bad("%s: event %s: %s value %q is %s without a note", d.Name, e.Name, field, v.Value, v.Mark)
					}
				}
				for c, n := range primary {
					if n > 1 {
						bad("%s: event %s: %d exact %s values map to %q", d.Name, e.Name, n, field, c)
					}
				}
			}
		}
		for id, reason := range d.Lacks.Events {
			if !canonEvents[id] {
				bad("%s: lacks unknown canonical event %q", d.Name, id)
			}
			if strings.TrimSpace(reason) == "" {
				bad("%s: lacks event %q without a reason", d.Name, id)
			}
		}
		for _, c := range t.Canonical.Events {
			_, has := d.eventByCanon[c.ID]
			_, alt := d.alternateEvents[c.ID]
			_, lacked := d.Lacks.Events[c.ID]
			if !has && !alt && !lacked && d.unmappedEvent(c.ID) == nil {
				bad("%s: canonical event %q is neither mapped nor listed under lacks", d.Name, c.ID)
			}
		}

		if w := d.HeldOutput.Wait; w != "quiet" && w != "eof" {
			bad("%s: heldOutput.wait %q is neither quiet nor eof", d.Name, w)
		}
		if d.HeldOutput.Wait == "quiet" && (d.HeldOutput.QuietMS <= 0 || d.HeldOutput.CapMS < d.HeldOutput.QuietMS) {
			bad("%s: heldOutput: quiet needs quietMs > 0 and capMs ≥ quietMs", d.Name)
		}
		for _, name := range slices.Concat(d.HeldOutput.BlockNotHarmless, d.HeldOutput.ContextHarmlessAtExit0) {
			if d.eventByName[name] == nil {
				bad("%s: heldOutput names unknown event %q", d.Name, name)
			}
		}
		for _, e := range d.Events {
			if e.Output.HeldBlocks && !d.HeldOutput.Refuse {
				bad("%s: event %s: heldBlocks without heldOutput.refuse", d.Name, e.Name)
			}
		}
		d.toolByName = map[string]*Tool{}
		d.toolByCanon = map[string]*Tool{}
		for _, tool := range d.Tools {
			for _, n := range append([]string{tool.Name}, tool.Aliases...) {
				if _, dup := d.toolByName[n]; dup {
					bad("%s: tool name %q listed twice", d.Name, n)
				}
				d.toolByName[n] = tool
			}
			for _, a := range tool.Acts {
				if c := t.Canonical.Tool(a); c == nil || c.Acts == "" {
					bad("%s: tool %s: acts %q is no canonical tool with an acts phrase", d.Name, tool.Name, a)
				}
				if a == tool.Canonical {
					bad("%s: tool %s: acts its own canonical tool %q", d.Name, tool.Name, a)
				}
			}
			if len(tool.ActsWhen) > 0 && len(tool.Acts) == 0 {
				bad("%s: tool %s: actsWhen without acts", d.Name, tool.Name)
			}
			if tool.Canonical == "" {
				if strings.TrimSpace(tool.Only) == "" {
					bad("%s: tool %s has neither a canonical id nor an \"only\" reason", d.Name, tool.Name)
				}
				continue
			}
			if !canonTools[tool.Canonical] {
				bad("%s: tool %s: unknown canonical tool %q", d.Name, tool.Name, tool.Canonical)
			}
			if _, lacked := d.Lacks.Tools[tool.Canonical]; lacked && !tool.Legacy {
				bad("%s: tool %s maps to %q, which the dialect says it lacks", d.Name, tool.Name, tool.Canonical)
			}
			if !tool.Legacy {
				if other, dup := d.toolByCanon[tool.Canonical]; dup {
					bad("%s: tools %s and %s are both the primary %q tool", d.Name, other.Name, tool.Name, tool.Canonical)
				}
				d.toolByCanon[tool.Canonical] = tool
			}
			for _, a := range tool.Also {
				if !canonTools[a] {
					bad("%s: tool %s: unknown canonical tool %q in also", d.Name, tool.Name, a)
				}
				if _, lacked := d.Lacks.Tools[a]; !lacked {
					bad("%s: tool %s: also %q needs a lacks entry saying which tool stands for it", d.Name, tool.Name, a)
				}
			}
			if tool.Convert != "" && inputConverters()[tool.Convert] == nil {
				bad("%s: tool %s: unknown converter %q", d.Name, tool.Name, tool.Convert)
			}
			for arg, name := range tool.Paths {
				if pathResolvers()[name] == nil {
					bad("%s: tool %s: path %s: unknown resolver %q", d.Name, tool.Name, arg, name)
				}
				if _, ok := tool.Fields[arg]; !ok && (inputConverters()[tool.Convert] == nil || !slices.Contains(inputConverters()[tool.Convert].Args, arg)) {
					bad("%s: tool %s: path %s is not in fields", d.Name, tool.Name, arg)
				}
			}
			for arg := range tool.FailClosed {
				if _, ok := tool.Fields[arg]; !ok {
					bad("%s: tool %s: failClosed %s is not in fields", d.Name, tool.Name, arg)
				}
			}
			if _, ok := tool.Paths[tool.Cwd]; tool.Cwd != "" && !ok {
				bad("%s: tool %s: cwd %s has no path resolver in paths", d.Name, tool.Name, tool.Cwd)
			}
			if tool.OutputReplace != "" && tool.OutputReplace != "applied" && tool.OutputReplace != "ignored" {
				bad("%s: tool %s: outputReplace %q is neither applied nor ignored", d.Name, tool.Name, tool.OutputReplace)
			}
			if tool.Response != "" && responseConverters()[tool.Response] == nil {
				bad("%s: tool %s: unknown response converter %q", d.Name, tool.Name, tool.Response)
			}
			if tool.Mark != "" && tool.Mark != Exact && tool.Mark != Approximate {
				bad("%s: tool %s: mark %q", d.Name, tool.Name, tool.Mark)
			}
			tool.canonField = map[string]string{}
			for arg, c := range tool.Fields {
				if prev, dup := tool.canonField[c]; dup {
					bad("%s: tool %s: arguments %s and %s both map to %q", d.Name, tool.Name, prev, arg, c)
				}
				tool.canonField[c] = arg
			}
			for _, a := range tool.Descriptive {
				if _, ok := tool.Fields[a]; !ok {
					bad("%s: tool %s: descriptive argument %q is not in fields", d.Name, tool.Name, a)
				}
			}
			for _, r := range tool.Required {
				if _, ok := tool.Fields[r]; !ok {
					bad("%s: tool %s: required argument %q is not in fields", d.Name, tool.Name, r)
				}
			}
		}
		for _, c := range t.Canonical.Tools {
			_, has := d.toolByCanon[c.ID]
			_, lacked := d.Lacks.Tools[c.ID]
			legacyOnly := false
			for _, tool := range d.Tools {
				if tool.Canonical == c.ID && tool.Legacy {
					legacyOnly = true
				}
			}
			if has && lacked {
				bad("%s: canonical tool %q is both mapped and listed under lacks", d.Name, c.ID)
			}
			if !has && !lacked {
				if legacyOnly {
					bad("%s: canonical tool %q has only legacy tools; list it under lacks too", d.Name, c.ID)
				} else {
					bad("%s: canonical tool %q is neither mapped nor listed under lacks", d.Name, c.ID)
				}
			}
		}
		for id, reason := range d.Lacks.Tools {
			if !canonTools[id] {
				bad("%s: lacks unknown canonical tool %q", d.Name, id)
			}
			if strings.TrimSpace(reason) == "" {
				bad("%s: lacks tool %q without a reason", d.Name, id)
			}
		}
		if d.EmptyAnswer != "" && !jsonObject(d.EmptyAnswer) {
			bad("%s: emptyAnswer %q is not a JSON object", d.Name, d.EmptyAnswer)
		}
		if len(d.Transcript.Tools) > 0 && d.Transcript.Format == "" {
			bad("%s: transcript.tools without a transcript.format", d.Name)
		}
		for rec, tt := range d.Transcript.Tools {
			if tool := d.toolByName[tt.Name]; tool == nil || tool.Name != tt.Name {
				bad("%s: transcript.tools[%s]: %q is not one of its tools", d.Name, rec, tt.Name)
			}
			if tt.Input != "" && len(tt.Fields) > 0 {
				bad("%s: transcript.tools[%s]: input and fields exclude each other", d.Name, rec)
			}
		}
		d.indexOnce.Do(func() {}) // its lookups are built: ensureIndex has nothing to do
	}
	return errors.Join(errs...)
}

// Protocols are the protocol families whose Go code reads and renders hook
// output; a dialect names one (NDIALECT §1).
var Protocols = []string{"claude", "gemini", "copilot", "cline", "pi", "opencode"}

// fill sets the shape's defaults and checks it.
func (s *Shape) fill(dialect string) error {
	if s.HooksKey == nil {
		k := "hooks"
		s.HooksKey = &k
	}
	if s.Groups == nil {
		g := true
		s.Groups = &g
	}
	if s.CommandField == "" {
		s.CommandField = "command"
	}
	if s.TimeoutField == "" {
		s.TimeoutField = "timeout"
	}
	var errs []error
	if k := *s.HooksKey; k != "" && !s.RootKeyAllowed(k) {
		errs = append(errs, fmt.Errorf("%s: settings.shape: rootKeys lack the hooksKey %q", dialect, k))
	}
	for k := range s.Envelope {
		if !s.RootKeyAllowed(k) {
			errs = append(errs, fmt.Errorf("%s: settings.shape: envelope key %q is not in rootKeys", dialect, k))
		}
	}
	if len(s.HandlerKeys) > 0 {
		for _, k := range []string{"type", s.CommandField, s.TimeoutField, s.NameField, s.LabelField, s.AsyncField} {
			if k == "type" && s.TypeOptional {
				continue // a handler without a type runs as a command (Crush has no type)
			}
			if k != "" && !slices.Contains(s.HandlerKeys, k) {
				errs = append(errs, fmt.Errorf("%s: settings.shape: handlerKeys lack %q, a field the shape names", dialect, k))
			}
		}
	}
	return errors.Join(errs...)
}

// outputKeys are the top-level output keys hookx may write, in any family.
var outputKeys = []string{"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason", "hookSpecificOutput"}

func (o Output) validate(where string) error {
	var errs []error
	check := func(field, v string, allowed ...string) {
		if v != "" && !slices.Contains(allowed, v) {
			errs = append(errs, fmt.Errorf("%s: output.%s %q is not one of %s", where, field, v, strings.Join(allowed, ", ")))
		}
	}
	check("block", o.Block, "deny", "feedback", "hide_output", "continue", "none")
	check("context", o.Context, "model", "continue", "none")
	check("plainText", o.PlainText, "context", "systemMessage", "ignored")
	check("systemMessage", o.SystemMessage, "shown", "discarded")
	check("allow", o.Allow, "skips_prompt", "none")
	if o.Discarded && (o.Context != "none" || o.Block != "none" || o.Stop || o.SystemMessage != "discarded") {
		errs = append(errs, fmt.Errorf("%s: output.discarded with a context, block, stop or shown systemMessage", where))
	}
	if o.AskHangs && !o.Ask {
		errs = append(errs, fmt.Errorf("%s: output.askHangs on an event that cannot ask", where))
	}
	if o.BlockCapResetByTools && o.BlockCap == 0 {
		errs = append(errs, fmt.Errorf("%s: output.blockCapResetByTools without a blockCap", where))
	}
	if o.RewriteNeedsAllow && (o.Allow == "skips_prompt" || !o.RewriteInput) {
		errs = append(errs, fmt.Errorf("%s: output.rewriteNeedsAllow needs rewriteInput and an allow that skips nothing", where))
	}
	for _, k := range o.Keys {
		if top, _, _ := strings.Cut(k, "."); !slices.Contains(outputKeys, top) {
			errs = append(errs, fmt.Errorf("%s: output.keys: %q is no output key hookx writes", where, k))
		}
	}
	for code, effect := range o.Exits {
		n, err := strconv.Atoi(code)
		switch {
		case err != nil || n < 1 || n > 255 || strconv.Itoa(n) != code:
			errs = append(errs, fmt.Errorf("%s: output.exits: %q is no exit code from 1 to 255", where, code))
		case n == 2:
			errs = append(errs, fmt.Errorf("%s: output.exits: exit 2 is the protocol's own block, read before any other", where))
		case !slices.Contains([]string{"block", "stop", "context"}, effect):
			errs = append(errs, fmt.Errorf("%s: output.exits[%s]: %q is not one of block, stop, context", where, code, effect))
		case effect == "block" && (o.Block == "" || o.Block == "none"):
			errs = append(errs, fmt.Errorf("%s: output.exits[%s]: block on an event that cannot block", where, code))
		case effect == "stop" && !o.Stop:
			errs = append(errs, fmt.Errorf("%s: output.exits[%s]: stop on an event where the agent cannot stop (output.stop)", where, code))
		case effect == "context" && o.Context != "model":
			errs = append(errs, fmt.Errorf("%s: output.exits[%s]: context on an event whose context does not reach the model", where, code))
		}
	}
	if o.RewritePrompt && !(o.Guard && o.Block == "deny") {
		errs = append(errs, fmt.Errorf("%s: output.rewritePrompt on an event that guards nothing", where))
	}
	if (o.Guard || o.FailClosed) && !slices.Contains([]string{"deny", "feedback", "hide_output"}, o.Block) {
		errs = append(errs, fmt.Errorf("%s: output.guard or failClosed on an event whose block (%q) keeps nothing from happening", where, o.Block))
	}
	return errors.Join(errs...)
}

// DialectNames lists the table's dialects, in its order.
func (t *Table) DialectNames() []string {
	if t.lazy != nil {
		return slices.Clone(t.lazy.names)
	}
	names := make([]string, 0, len(t.Dialects))
	for _, d := range t.Dialects {
		names = append(names, d.Name)
	}
	return names
}

// Dialect returns the named dialect.
func (t *Table) Dialect(name string) (*Dialect, error) {
	d, ok := t.lookup(name)
	if !ok {
		names := t.DialectNames()
		return nil, fmt.Errorf("unknown dialect %q (known: %s)%s", name, strings.Join(names, ", "), DidYouMean(name, names))
	}
	return d, nil
}

// Event returns the dialect's event of that name, or nil.
func (d *Dialect) Event(name string) *Event {
	d.ensureIndex()
	if e := d.eventByName[name]; e != nil || !d.FoldEvents {
		return e
	}
	for _, e := range d.Events {
		if foldEvent(e.Name) == foldEvent(name) {
			return e
		}
	}
	return nil
}

// ReadsAnswersLike reports whether d's agent reads a tool guard's answer as
// o's does: one protocol family, one output form, and the same top-level
// decision on the tool guard. Where not (a Crush guard's
// {"decision":"deny"} on Claude Code, a Codex guard's {"decision":"block"}
// on Factory Droid), a hook copied unwrapped answers in a form the other
// ignores.
func (d *Dialect) ReadsAnswersLike(o *Dialect) bool {
	if d.Protocol != o.Protocol || d.OutputForm != o.OutputForm {
		return false
	}
	a, _ := d.EventFor("tool.before")
	b, _ := o.EventFor("tool.before")
	return a == nil || b == nil || a.Output.DecisionIgnored == b.Output.DecisionIgnored
}

// foldEvent is an event name as an agent that folds them reads it: any
// case, underscores dropped (Crush's normalizeHookEvent).
func foldEvent(name string) string { return strings.ToLower(strings.ReplaceAll(name, "_", "")) }

// EventFor returns the dialect's event for a canonical event id: the event
// mapped to it, or the event that also carries it. It returns nil when the
// dialect has none, with the reason from its lacks list.
func (d *Dialect) EventFor(canonical string) (*Event, string) {
	d.ensureIndex()
	if e := d.eventByCanon[canonical]; e != nil {
		return e, ""
	}
	if e := d.alternateEvents[canonical]; e != nil {
		return e, ""
	}
	if e := d.unmappedEvent(canonical); e != nil {
		return nil, e.Note
	}
	return nil, d.Lacks.Events[canonical]
}

// unmappedEvent is the dialect's event marked none for a canonical event:
// it has an event at about that point that does not do what the canonical
// event does (its note says why).
func (d *Dialect) unmappedEvent(canonical string) *Event {
	for _, e := range d.Events {
		if e.Canonical == canonical && e.Mark == None {
			return e
		}
	}
	return nil
}

// Tool returns the dialect's tool of that name or alias, or nil.
func (d *Dialect) Tool(name string) *Tool {
	d.ensureIndex()
	return d.toolByName[name]
}

// ToolFor returns the dialect's primary tool for a canonical tool id, or nil
// and the reason it has none.
func (d *Dialect) ToolFor(canonical string) (*Tool, string) {
	d.ensureIndex()
	if t := d.toolByCanon[canonical]; t != nil {
		return t, ""
	}
	for _, t := range d.Tools {
		if slices.Contains(t.Also, canonical) {
			return t, ""
		}
	}
	if r, ok := d.Lacks.Tools[canonical]; ok {
		return nil, r
	}
	return nil, d.Agent + " has no counterpart"
}

// EventMapping is how one event of a source dialect lands in a target dialect.
type EventMapping struct {
	From, To *Event
	Mark     Mark
	Note     string // why it is approximate or impossible
	Live     bool   // both sides were seen in real runs
}

// MapEvent maps an event name from one dialect to another. An event without
// a counterpart comes back with To nil, Mark None and the reason.
func (t *Table) MapEvent(from, to *Dialect, name string) (EventMapping, error) {
	e := from.Event(name)
	if e == nil {
		return EventMapping{}, fmt.Errorf("unknown %s event %q%s", from.Agent, name, t.EventHint(from, name))
	}
	m := EventMapping{From: e}
	if e.Mark == None {
		m.Mark, m.Note = None, e.Note
		return m, nil
	}
	target, reason := to.EventFor(e.Canonical)
	if target == nil {
		m.Mark, m.Note = None, reason
		return m, nil
	}
	m.To = target
	m.Live = e.Live && target.Live
	m.Mark = worse(e.Mark, target.Mark)
	m.Note = joinNotes(e.Note, target.Note)
	if target.Canonical != e.Canonical { // reached through "also"
		m.Mark = worse(m.Mark, Approximate)
		m.Note = joinNotes(fmt.Sprintf("%s also fires %s for this", to.Agent, target.Name), m.Note)
	}
	return m, nil
}

// ToolMapping is how one tool name of a source dialect lands in a target.
type ToolMapping struct {
	From, To *Tool
	Name     string // the target name (for MCP tools, built from the source name)
	Mark     Mark
	Note     string
	Live     bool // both sides were seen in real runs
}

// MapTool maps a tool name, MCP names included. A tool without a counterpart
// comes back with an empty Name, Mark None and the reason; an unknown name is
// an error.
func (t *Table) MapTool(from, to *Dialect, name string) (ToolMapping, error) {
	if server, tool, ok := from.SplitMCP(name, nil); ok {
		n, exact := to.MCPName(server, tool)
		m := ToolMapping{Name: n, Mark: Exact, Live: true}
		if !exact {
			m.Mark, m.Note = Approximate, to.MCPNote()
		}
		if from.MCP.Separator == "_" && strings.Contains(server+tool, "_") {
			m.Mark, m.Note = Approximate, "the MCP server/tool split is ambiguous without mcp_context"
		}
		if from.MCP.PluginPrefix != "" && strings.HasPrefix(server, from.MCP.PluginPrefix) {
			m.Mark, m.Note = Approximate, "a plugin's MCP server has no defined name on the target"
		}
		return m, nil
	}
	src := from.Tool(name)
	if src == nil {
		return ToolMapping{}, fmt.Errorf("unknown %s tool %q", from.Agent, name)
	}
	m := ToolMapping{From: src}
	if src.Canonical == "" {
		m.Mark, m.Note = None, src.Only
		return m, nil
	}
	dst, reason := to.ToolFor(src.Canonical)
	if dst == nil {
		m.Mark, m.Note = None, reason
		return m, nil
	}
	m.To, m.Name = dst, dst.Name
	m.Live = src.Live && dst.Live
	m.Mark = worse(src.Mark, dst.Mark)
	m.Note = joinNotes(src.Note, dst.Note)
	if dst.Canonical != src.Canonical { // reached through "also"
		m.Mark = worse(m.Mark, Approximate)
		m.Note = joinNotes(fmt.Sprintf("%s does this with %s", to.Agent, dst.Name), m.Note)
	}
	return m, nil
}

// ValueMapping is how one enumerated value lands in a target dialect.
type ValueMapping struct {
	Value string
	Mark  Mark
	Note  string
}

// MapValue maps an enumerated payload value of an event field. exactOnly
// refuses approximate mappings (matchers must never be widened, T§4). A
// field the table does not enumerate is copied unchanged.
func (t *Table) MapValue(from, to *Event, field, value string, exactOnly bool) ValueMapping {
	src, dst := from.Values[field], to.Values[canonFieldName(from, to, field)]
	if src == nil && dst == nil {
		return ValueMapping{Value: value, Mark: Exact}
	}
	var canon string
	mark := Exact
	note := ""
	found := false
	for _, v := range src {
		if v.Value == value {
			canon, found = v.Canonical, true
			mark, note = worse(mark, v.Mark), v.Note
		}
	}
	if !found {
		return ValueMapping{Mark: None, Note: fmt.Sprintf("%s %q is not a known value", field, value)}
	}
	var best *Value
	for i, v := range dst {
		if v.Canonical != canon {
			continue
		}
		if best == nil || (v.Mark == "" || v.Mark == Exact) {
			best = &dst[i]
		}
	}
	if best == nil {
		return ValueMapping{Mark: None, Note: fmt.Sprintf("%s %q has no counterpart", field, value)}
	}
	mark = worse(mark, best.Mark)
	note = joinNotes(note, best.Note)
	if exactOnly && mark != Exact {
		return ValueMapping{Mark: None, Note: fmt.Sprintf("%s %q maps only approximately (%s)", field, value, note)}
	}
	return ValueMapping{Value: best.Value, Mark: mark, Note: note}
}

// canonFieldName returns the target's name of an enumerated field: the same
// name unless a field rename says otherwise.
func canonFieldName(from, to *Event, field string) string {
	c, ok := from.Fields[field]
	if !ok {
		return field
	}
	for f, tc := range to.Fields {
		if tc == c {
			return f
		}
	}
	return field
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "" || a == b:
		return a
	}
	return a + "; " + b
}

// EventOwner returns the dialect that has an event of that name, preferring
// one where the event guards an action, or nil when none has it. It answers
// a host whose dialect is not known otherwise.
func (t *Table) EventOwner(name string) *Dialect {
	var owner *Dialect
	for _, d := range t.all() {
		if e := d.Event(name); e != nil {
			if e.Output.Guard {
				return d
			}
			if owner == nil {
				owner = d
			}
		}
	}
	return owner
}

// LikelyHost is the dialect to answer in when the host cannot be told: one
// that has the event and is not the hook's own (a wrapped hook runs under
// another agent), preferring one where the event guards an action, so that
// a failure there blocks; failing that, the event's owner, then any other
// dialect. Nil only for a table with no dialect.
func (t *Table) LikelyHost(event, hook string) *Dialect {
	var guard, has, other *Dialect
	for _, d := range t.all() {
		if d.Name == hook {
			continue
		}
		other = cmp.Or(other, d)
		if e := d.Event(event); e != nil {
			has = cmp.Or(has, d)
			if e.Output.Guard {
				guard = cmp.Or(guard, d)
			}
		}
	}
	if d := cmp.Or(guard, has, t.EventOwner(event), other); d != nil {
		return d
	}
	if ds := t.all(); len(ds) > 0 {
		return ds[0]
	}
	return nil
}

// BlocksOnFailure reports whether a failure to read or produce the hook's
// answer is a block on this event: it guards an action, or its block keeps
// a tool's result from standing unchallenged.
func (o Output) BlocksOnFailure() bool { return o.Guard || o.FailClosed }

// MustDialect returns the named dialect and panics if there is none; for
// names that come from the table itself.
func (t *Table) MustDialect(name string) *Dialect {
	d, err := t.Dialect(name)
	if err != nil {
		panic(err)
	}
	return d
}

// jsonObject reports whether s is one JSON object.
func jsonObject(s string) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal([]byte(s), &m) == nil && m != nil
}
