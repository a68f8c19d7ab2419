package wrap

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookx-dev/hookx/mappings"
)

// commandPrep is what an agent does to a hook's command before a process
// runs it. wrap does the hook's own agent's preparation, so that the hook
// runs exactly as its author's agent would run it, whatever the host did.
type commandPrep struct {
	// shell is the argv that runs a command string (the string follows).
	shell []string
	// preSubstitute rewrites the command text before the shell sees it:
	// in order, every occurrence of each ref, anywhere in the text, becomes
	// the shell-quoted value of the hook's environment variable from.
	preSubstitute []substitution
	// execPlaceholders are replaced, as plain text, by the hook's
	// environment variable of the same name in every element of an exec
	// form command (a program and its arguments, no shell).
	execPlaceholders []string
	// envFile names the variable that holds a session file the agent gives
	// the hooks of envFileEvents, for them to write export lines into.
	envFile       string
	envFileEvents []string
	// alsoSets are hook variables the agent sets beyond its table entry.
	alsoSets []string
	// loadExpand: the agent expands $NAME, ${NAME} and ${NAME:-default} in
	// the command when it loads its settings, from its own environment.
	loadExpand bool
}

type substitution struct{ ref, from string }

// commandPreps is keyed by dialect name. Data, not code: each entry cites
// where its agent does it.
var commandPreps = map[string]commandPrep{
	// Claude Code 2.1.330 spawns a shell-form hook with shell:true, which is
	// /bin/sh -c on Linux and macOS, also for "shell":"bash"
	// (../shared/reference/live-findings-2026-11-23.md). It substitutes
	// nothing in a shell-form command: ${CLAUDE_PROJECT_DIR} and
	// ${CLAUDE_PLUGIN_ROOT} are exported and the shell expands them. In exec
	// form (args) it replaces the three placeholders in each element as
	// plain strings (claude-code-hooks.md §7; the binary's hook runner:
	// `Ad.replaceAll("${CLAUDE_PROJECT_DIR}",()=>fo)`).
	"claude": {
		shell:            []string{"/bin/sh", "-c"},
		execPlaceholders: []string{"CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"},
		// claude-code-hooks.md §7; in the binary: `(o==="SessionStart"||
		// o==="Setup"||o==="CwdChanged"||o==="FileChanged")&&...
		// Vr.CLAUDE_ENV_FILE=await Y5a(...)`.
		envFile:       "CLAUDE_ENV_FILE",
		envFileEvents: []string{"SessionStart", "Setup", "CwdChanged", "FileChanged"},
	},
	// Gemini CLI 0.61.0 runs `bash -c` (getShellConfiguration) on the result
	// of expandCommand, which replaces these five bare references by regex,
	// in this order, even inside quotes, with escapeShellArg(value, "bash"),
	// i.e. shell-quote's quote([value]); the value of $GEMINI_PROJECT_DIR,
	// $GEMINI_CWD and $CLAUDE_PROJECT_DIR is input.cwd, which is also what
	// it exports as GEMINI_PROJECT_DIR. Source:
	// node_modules/@google/gemini-cli/bundle/chunk-5FZXKDXH.js, lines
	// 368528-368538 (expandCommand), 254696-254715 (escapeShellArg),
	// 2029-2051 (shell-quote's quote), 254693 (bash -c).
	//
	// Before that, when it loads the settings, resolveEnvVarsInObject
	// expands $NAME, ${NAME} and ${NAME:-default} in every string from the
	// gemini process's environment, leaving unset names as written
	// (chunk-2YTYPKEZ.js lines 15646-15670 and 16560). It also exports
	// CLAUDE_PROJECT_DIR and GEMINI_PLANS_DIR to hooks (line 368398).
	"gemini": {
		shell:      []string{"bash", "-c"},
		loadExpand: true,
		alsoSets:   []string{"CLAUDE_PROJECT_DIR", "GEMINI_PLANS_DIR"},
		preSubstitute: []substitution{
			{"$GEMINI_PROJECT_DIR", "GEMINI_PROJECT_DIR"},
			{"$GEMINI_CWD", "GEMINI_PROJECT_DIR"},
			{"$GEMINI_PLANS_DIR", "GEMINI_PLANS_DIR"},
			{"$GEMINI_SESSION_ID", "GEMINI_SESSION_ID"},
			{"$CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"},
		},
	},
}

// prepareCommand is how the hook's own agent turns command into a process:
// one element is a command string for its shell, after its text
// substitution; several are a program and its arguments, after its
// placeholder substitution. env is the hook's environment, which supplies
// the values; agentEnv is the environment of the agent's own process, for
// what the agent expands when it loads its settings. missing names the variables a substitution referred to that
// env does not hold.
func prepareCommand(dialect string, command, env, agentEnv []string) (argv []string, shell bool, missing []string) {
	prep, ok := commandPreps[dialect]
	if !ok {
		prep = commandPrep{shell: []string{"sh", "-c"}}
	}
	if len(command) != 1 {
		argv = make([]string, len(command))
		for i, a := range command {
			for _, name := range prep.execPlaceholders {
				ph := "${" + name + "}"
				if !strings.Contains(a, ph) {
					continue
				}
				v, set := lookupEnvOK(env, name)
				if !set {
					missing = append(missing, name)
				}
				a = strings.ReplaceAll(a, ph, v)
			}
			argv[i] = a
		}
		return argv, false, missing
	}
	cmd := command[0]
	if prep.loadExpand {
		cmd = loadExpand(cmd, agentEnv)
	}
	for _, s := range prep.preSubstitute {
		if !strings.Contains(cmd, s.ref) {
			continue
		}
		v, set := lookupEnvOK(env, s.from)
		if !set {
			missing = append(missing, s.from)
		}
		cmd = strings.ReplaceAll(cmd, s.ref, quoteLikeShellQuote(v))
	}
	return append(append([]string(nil), prep.shell...), cmd), true, missing
}

// preparedAsIs reports a command that dialect's preparation leaves
// unchanged: no text its agent expands or substitutes.
func preparedAsIs(dialect string, command []string) bool {
	prep, ok := commandPreps[dialect]
	if !ok {
		return false
	}
	if len(command) != 1 {
		for _, a := range command {
			for _, name := range prep.execPlaceholders {
				if strings.Contains(a, "${"+name+"}") {
					return false
				}
			}
		}
		return true
	}
	if prep.loadExpand && strings.Contains(command[0], "$") {
		return false
	}
	for _, s := range prep.preSubstitute {
		if strings.Contains(command[0], s.ref) {
			return false
		}
	}
	return true
}

// quoteLikeShellQuote is Gemini's escapeShellArg(arg, "bash"): "" for an
// empty value, else the npm package shell-quote's quote([arg]), byte for
// byte (see commandPreps for where). Its double-quoted form escapes ! with
// a backslash, which bash keeps inside double quotes: that is Gemini's
// behaviour, and so it is reproduced.
func quoteLikeShellQuote(s string) string {
	if s == "" {
		return ""
	}
	hasQuoteOrSpace := func(withSingle, withBackslash bool) bool {
		for _, r := range s {
			switch {
			case r == '"', isJSSpace(r), withSingle && r == '\'', withBackslash && r == '\\':
				return true
			}
		}
		return false
	}
	if hasQuoteOrSpace(false, true) && !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	if hasQuoteOrSpace(true, false) {
		var b strings.Builder
		b.WriteByte('"')
		for _, r := range s {
			if strings.ContainsRune("\"\\$`!", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
		return b.String()
	}
	// s.replace(/([A-Za-z]:)?([#!"$&'()*,:;<=>?@[\\\]^`{|}])/g, "$1\\$2")
	const special = "#!\"$&'()*,:;<=>?@[\\]^`{|}"
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if isASCIILetter(c) && i+2 < len(s) && s[i+1] == ':' && strings.IndexByte(special, s[i+2]) >= 0 {
			b.WriteString(s[i:i+2] + `\` + s[i+2:i+3])
			i += 3
			continue
		}
		if strings.IndexByte(special, c) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// loadVar is resolveEnvVarsInString's /\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g.
var loadVar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$(?:(\w+)|\{([^}]+?)(?::-([^}]*))?\})`) })

// loadExpand is Gemini's resolveEnvVarsInString without custom variables:
// a set variable's value, else the default of ${NAME:-default}, else the
// text as written.
func loadExpand(s string, env []string) string {
	re := loadVar()
	return re.ReplaceAllStringFunc(s, func(m string) string {
		g := re.FindStringSubmatchIndex(m)
		name := ""
		switch {
		case g[2] >= 0:
			name = m[g[2]:g[3]]
		case g[4] >= 0:
			name = m[g[4]:g[5]]
		}
		if v, ok := lookupEnvOK(env, name); ok {
			return v
		}
		if g[6] >= 0 {
			return m[g[6]:g[7]]
		}
		return m
	})
}

// hookVars are the variables an agent sets for its hooks (and not for
// itself).
func hookVars(d *mappings.Dialect) []string {
	vars := []string{d.Env.ProjectDir, d.Env.Cwd, d.Env.SessionID}
	for k := range d.Env.Set {
		vars = append(vars, k)
	}
	prep := commandPreps[d.Name]
	vars = append(vars, prep.alsoSets...)
	if prep.envFile != "" {
		vars = append(vars, prep.envFile)
	}
	return slices.DeleteFunc(vars, func(v string) bool { return v == "" })
}

// without returns environ without the variables named in drop.
func without(environ, drop []string) []string {
	return slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(drop, k)
	})
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isJSSpace is JavaScript's \s: ECMAScript WhiteSpace and LineTerminator.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}

func lookupEnvOK(environ []string, name string) (string, bool) {
	for i := len(environ) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(environ[i], "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// prepare is the hook's argv, prepared the way its own agent prepares it,
// with a finding for each value that substitution lacked.
func (r *runner) prepare(env []string) ([]string, bool) {
	host := r.host
	if host == nil {
		host = r.hook // pass-through: the host is the hook's own agent
	}
	argv, shell, missing := prepareCommand(r.hook.Name, r.Command, env, without(r.Environ, hookVars(host)))
	for _, name := range slices.Compact(missing) {
		r.report([]Finding{{Text: fmt.Sprintf("the command refers to %s, which %s would set; it is unset here, so it was substituted empty", name, r.hook.Agent), Notice: true}})
	}
	return argv, shell
}

// withExtraEnv adds what the hook's agent gives the hooks of hookEvent
// beyond hookx's own variables: a session env file where the agent gives
// one (an empty hookEvent: the host is the hook's agent and did it), then
// --env, last.
func (r *runner) withExtraEnv(env []string, hookEvent string) []string {
	prep := commandPreps[r.hook.Name]
	if hookEvent != "" && prep.envFile != "" && slices.Contains(prep.envFileEvents, hookEvent) {
		if _, set := lookupEnvOK(env, prep.envFile); !set {
			if f, err := r.sessionEnvFile(env, hookEvent); err != nil {
				r.reportf("cannot create the session file for %s: %v", prep.envFile, err)
			} else {
				env = append(env, prep.envFile+"="+f)
				r.report([]Finding{{Text: fmt.Sprintf("%s is a session file hookx created; the exports the hook writes to it do not reach the host's later shell commands", prep.envFile), Notice: true}})
			}
		}
	}
	if len(r.Env) == 0 {
		return env
	}
	set := map[string]bool{}
	for _, kv := range r.Env {
		k, _, _ := strings.Cut(kv, "=")
		set[k] = true
	}
	out := make([]string, 0, len(env)+len(r.Env))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !set[k] {
			out = append(out, kv)
		}
	}
	return append(out, r.Env...)
}

var unsafeFileChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]`) })

// sessionEnvFile creates an empty file, private to the user, for the hook
// to append export lines to, named for the session and the event.
func (r *runner) sessionEnvFile(env []string, hookEvent string) (string, error) {
	dir := filepath.Join(os.TempDir(), "hookx-env")
	if r.StateDir != "" {
		dir = filepath.Join(filepath.Dir(r.StateDir), "env")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	session, _ := lookupEnvOK(env, r.hook.Env.SessionID)
	if session == "" {
		session = "nosession"
	}
	name := unsafeFileChars().ReplaceAllString(session, "_") + "-" + hookEvent + ".sh"
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return "", err
	}
	return f.Name(), f.Close()
}
