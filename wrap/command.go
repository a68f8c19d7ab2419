package wrap

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
)

// prepareCommand is how the hook's own agent turns command into a process:
// one element is a command string for its shell, after its text
// substitution; several are a program and its arguments, after its
// placeholder substitution. env is the hook's environment, which supplies
// the values; agentEnv is the environment of the agent's own process, for
// what the agent expands when it loads its settings. missing names the variables a substitution referred to that
// env does not hold.
func prepareCommand(dialect string, command, env, agentEnv []string) (argv []string, shell bool, missing []string) {
	prep, ok := mappings.CommandOf(dialect)
	if !ok {
		prep = mappings.Command{Argv: []string{"sh", "-c"}}
	}
	return prepareWith(prep, command, env, agentEnv)
}

// prepareWith is prepareCommand with the agent's preparation given.
func prepareWith(prep mappings.Command, command, env, agentEnv []string) (argv []string, shell bool, missing []string) {
	if len(command) != 1 {
		argv = make([]string, len(command))
		for i, a := range command {
			for _, name := range prep.ExecPlaceholders {
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
	if re := prep.LoadVar(); re != nil {
		cmd = loadExpand(cmd, agentEnv, re)
	}
	for _, s := range prep.PreSubstitute {
		if !strings.Contains(cmd, s.Ref) {
			continue
		}
		v, set := lookupEnvOK(env, s.From)
		if !set {
			missing = append(missing, s.From)
		}
		cmd = strings.ReplaceAll(cmd, s.Ref, quoteLikeShellQuote(v))
	}
	return append(append([]string(nil), prep.Argv...), cmd), true, missing
}

// preparedAsIs reports a command that dialect's preparation leaves
// unchanged: no text its agent expands or substitutes.
func preparedAsIs(dialect string, command []string) bool {
	prep, ok := mappings.CommandOf(dialect)
	if !ok {
		return false
	}
	if len(command) != 1 {
		for _, a := range command {
			for _, name := range prep.ExecPlaceholders {
				if strings.Contains(a, "${"+name+"}") {
					return false
				}
			}
		}
		return true
	}
	if prep.LoadExpand && strings.Contains(command[0], "$") {
		return false
	}
	for _, s := range prep.PreSubstitute {
		if strings.Contains(command[0], s.Ref) {
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

// loadExpand is Gemini's resolveEnvVarsInString without custom variables:
// a set variable's value, else the default of ${NAME:-default}, else the
// text as written; re (mappings.Command.LoadVar) says which forms: with
// TerminaI's, $NAME and ${NAME} alone.
func loadExpand(s string, env []string, re *regexp.Regexp) string {
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
		if len(g) > 6 && g[6] >= 0 {
			return m[g[6]:g[7]]
		}
		return m
	})
}

// hookVars are the variables an agent sets for its hooks (and not for
// itself).
func hookVars(d *mappings.Dialect) []string {
	vars := append([]string{d.Env.ProjectDir, d.Env.Cwd, d.Env.SessionID}, d.Env.ProjectDirs...)
	for k := range d.Env.Set {
		vars = append(vars, k)
	}
	for k := range d.Env.FromPayload {
		vars = append(vars, k)
	}
	prep := d.Command
	vars = append(vars, prep.AlsoSets...)
	if prep.EnvFile != "" {
		vars = append(vars, prep.EnvFile)
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
	argv, shell, missing := prepareWith(r.hook.Command, r.Command, env, without(r.Environ, hookVars(host)))
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
	prep := r.hook.Command
	if hookEvent != "" && prep.EnvFile != "" && slices.Contains(prep.EnvFileEvents, hookEvent) {
		if _, set := lookupEnvOK(env, prep.EnvFile); !set {
			if f, err := r.sessionEnvFile(env, hookEvent); err != nil {
				r.reportf("cannot create the session file for %s: %v", prep.EnvFile, err)
			} else {
				env = append(env, prep.EnvFile+"="+f)
				host := "the host"
				if r.host != nil {
					host = r.host.Agent
				}
				r.report([]Finding{{Text: mappings.EnvFileText(prep.EnvFile, host), Notice: true}})
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
	// hookx's own directory (the stop counters' parent) and env in it,
	// both this user's alone: someone else's, or a symlink, is refused.
	dir := filepath.Join(os.TempDir(), "hookx-"+strconv.Itoa(os.Getuid()), "env")
	if r.StateDir != "" {
		dir = filepath.Join(filepath.Dir(r.StateDir), "env")
	}
	if err := safefile.PrivateDir(dir, 2); err != nil {
		return "", err
	}
	session, _ := lookupEnvOK(env, r.hook.Env.SessionID)
	if session == "" {
		session = "nosession"
	}
	name := unsafeFileChars().ReplaceAllString(session, "_") + "-" + hookEvent + ".sh"
	f, _, err := safefile.Append(filepath.Join(dir, name), 0o600)
	if err != nil {
		return "", err
	}
	return f.Name(), f.Close()
}
