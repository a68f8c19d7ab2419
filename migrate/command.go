package migrate

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookx-dev/hookx/mappings"
	"mvdan.cc/sh/v3/syntax"
)

// hydrateRE is Gemini's hydrateString pattern: /\${(.*?)}/g.
var hydrateRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{(.*?)\}`) })

// hostSubstituted lists the bare references a target's host replaces in
// the text of a command, quotes or not, before any shell runs (the table's
// command.preSubstitute).
func hostSubstituted(d *mappings.Dialect) []string {
	var refs []string
	for _, s := range d.Command.PreSubstitute {
		refs = append(refs, s.Ref)
	}
	return refs
}

// commandForm decides the command of one hook for the target: the text the
// hook's own agent would run, with what hookx wrap must give it (the --env
// words, quoted; wrapEnv holds NAME=VALUE pairs it adds to). A wrapped
// command is never rewritten: wrap prepares it at run time exactly as its
// author's agent does. It returns ok false, having reported why, when the
// hook cannot be written: it refers to a plugin directory that is unknown.
func (p *planner) commandForm(sh srcHandler, cmd string, args, wrapEnv []string, env map[string]string,
	note func(Level, string, string)) (string, []string, []string, bool) {
	base := Item{Guard: p.sourceGuard(sh.event), Source: sh.where, Event: sh.event, Matcher: deref(sh.matcher), Command: sh.h.fields.Command}
	lost := func(what, reason, fix string) {
		it := base
		it.Level, it.What, it.Reason, it.Fix = NotCarried, what, reason, fix
		p.add(it)
	}
	refs := p.pluginRefsIn(append([]string{cmd}, args...))
	pr := p.from.Plugin
	if pr == nil {
		pr = &mappings.Plugin{}
	}
	for _, v := range refs.unknown {
		lost("$"+v+": the hook is not written", fmt.Sprintf("hookx does not know the directory %s names, and %s would run the hook with it wrong or empty; a guard would fail open", v, p.to.Agent),
			"replace it with the absolute path, then migrate again")
	}
	if len(refs.roots) > 0 && p.opts.PluginRoot == "" {
		lost(strings.Join(refs.roots, ", ")+": the hook is not written", "it names the plugin's or extension's directory, which is unknown without --plugin; written as is it would fail open",
			"migrate with --plugin DIR")
	}
	if len(refs.unknown) > 0 || len(refs.roots) > 0 && p.opts.PluginRoot == "" {
		return "", nil, nil, false
	}
	if len(pr.Hydrate) > 0 && p.opts.PluginRoot != "" {
		// Exactly the agent's own load-time replacement.
		hydrate := func(s string) string {
			return hydrateRE().ReplaceAllStringFunc(s, func(m string) string {
				switch v := pr.Hydrate[m[2:len(m)-1]]; v {
				case "root":
					switch {
					case p.opts.PluginOut && p.opts.Wrap:
						// The target plugin's own root, which wrap's
						// emulation of this load-time replacement fills in
						// from the environment its agent exports.
						return "${" + PluginRootVar(p.to) + "}"
					case p.opts.PluginOut:
						return m // rewritten with the variables below
					}
					return p.opts.PluginRoot
				case "":
					return m
				default:
					return v
				}
			})
		}
		cmd = hydrate(cmd)
		for i := range args {
			args[i] = hydrate(args[i])
		}
	}

	f, perr := parseCommand(cmd, p.from.Shell)
	if perr != nil && len(args) == 0 {
		note(Warning, "the command does not parse", fmt.Sprintf("%s's shell (%s) would reject it too: %v; it is carried as written", p.from.Agent, p.from.Shell, perr))
	}
	names := refNames(cmd, f)
	for _, a := range args {
		names = append(names, refNames(a, nil)...)
	}
	slices.Sort(names)
	names = slices.Compact(names)

	if p.opts.Wrap {
		var envWords []string
		for _, kv := range wrapEnv {
			envWords = append(envWords, HostQuote(kv))
		}
		if len(refs.roots) > 0 {
			for _, v := range pr.RootVars {
				if p.opts.PluginOut {
					// The target's placeholder, which its agent replaces
					// in the text when it loads the plugin: left unescaped.
					envWords = append(envWords, ShellQuote(v+"=${"+PluginRootVar(p.to)+"}"))
					continue
				}
				envWords = append(envWords, HostQuote(v+"="+p.opts.PluginRoot))
			}
		}
		keys := make([]string, 0, len(env))
		for k := range env {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			envWords = append(envWords, HostQuote(k+"="+env[k]))
			if p.from.Settings.ExpandsVars && loadExpanded().MatchString(env[k]) {
				note(Approximate, "env "+k, p.from.Agent+" expands $VAR in it from its own environment when it loads the settings; hookx wrap passes it as written")
			}
		}
		for _, v := range names {
			if reason := p.wrapLacks(v); reason != "" {
				note(NotCarried, "$"+v, reason)
			}
		}
		return cmd, args, envWords, true
	}

	// Not wrapped: the target's host runs the text, so rewrite it.
	if len(args) > 0 {
		parts := []string{quoteArg(cmd)}
		for _, a := range args {
			parts = append(parts, quoteArg(a))
		}
		cmd = strings.Join(parts, " ")
		note(Approximate, "exec-form args", "written as one shell command with every argument quoted")
		f, perr = parseCommand(cmd, p.from.Shell)
	}
	if perr == nil {
		edits, missing := rewriteEdits(cmd, f, p.envRules(), p.isSourceVar)
		lit, left := protectEdits(cmd, f, hostSubstituted(p.to))
		cmd = applyEdits(cmd, append(edits, lit...))
		missing = append(missing, p.unreadVars(cmd, missing)...)
		if missing = slices.Compact(missing); len(missing) > 0 {
			// Written, the hook would run with the variable unset: a path
			// built on it points nowhere (exit 127, and a guard fails
			// open). Not writing it is what the report can say.
			for _, v := range missing {
				fix := "migrate without --no-wrap: hookx wrap gives the hook " + v + " as " + p.from.Agent + " does"
				if p.wrapLacks(v) != "" {
					fix = "keep this hook in " + p.from.Agent + " only, or write the " + p.to.Agent + " entry by hand"
				}
				lost("$"+v+": the hook is not written", fmt.Sprintf("%s gives hooks no counterpart of %s; the command would see it unset", p.to.Agent, v), fix)
			}
			return "", nil, nil, false
		}
		for _, r := range left {
			note(Approximate, r+" in a quoted here-doc or comment", p.to.Agent+" replaces "+r+" in the command text before the shell runs, even there; the text changes")
		}
	}
	if len(env) > 0 && !p.to.Settings.Shape.EnvField {
		keys := make([]string, 0, len(env))
		for k := range env {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var pre strings.Builder
		for _, k := range keys {
			if !p.from.Settings.ExpandsVars {
				fmt.Fprintf(&pre, "export %s=%s; ", k, ShellQuote(env[k]))
				continue
			}
			// The agent expands $VAR in settings strings at load (Gemini:
			// GC§8.3; Qwen Code): the shell expands the same names, and
			// nothing else. A plain assignment neither splits nor globs.
			v, exact := loadExpandedWord(env[k])
			if !exact {
				note(Approximate, "env "+k, p.from.Agent+" expands ${…} forms in it when it loads the settings that the shell cannot express; written as they are")
			}
			fmt.Fprintf(&pre, "%s=%s; export %s; ", k, v, k)
		}
		cmd = pre.String() + cmd
		note(Approximate, "env", "set by an export prefix on the command: "+p.to.Agent+" handlers have no env field")
	}
	if re := p.to.Command.LoadVar(); re != nil {
		// The target expands $NAME in its settings strings when it loads
		// them (Gemini CLI, TerminaI), into the command text, unquoted:
		// leave those to the shell, as the hook's own agent did.
		if f, err := parseCommand(cmd, p.to.Shell); err == nil {
			edits, left := loadProtectEdits(cmd, f, re)
			cmd = applyEdits(cmd, edits)
			for _, r := range left {
				note(Approximate, r+" expanded at load", p.to.Agent+" replaces "+r+" with the value from its own environment when it loads the settings, into the command text, where hookx cannot write it another way; the command may read differently")
			}
		}
	}
	return cmd, nil, nil, true
}

// loadExpandedWord is a shell word (for an assignment) that gives what an
// agent's resolveEnvVarsInString gives for s: each $NAME or ${NAME} is the
// variable's value where it is set (even empty) and stays as written where
// it is not; every other character is literal ($(…), $1 and $$ too).
// exact is false where a ${…} holds what is not a shell name (Gemini's
// ${NAME:-default}, or a name no shell has): it is kept as written.
func loadExpandedWord(s string) (word string, exact bool) {
	exact = true
	var b strings.Builder
	lit := func(t string) {
		if t != "" {
			b.WriteString(ShellQuote(t))
		}
	}
	last := 0
	for _, m := range loadExpanded().FindAllStringSubmatchIndex(s, -1) {
		lit(s[last:m[0]])
		last = m[1]
		name := strings.TrimSuffix(strings.TrimPrefix(s[m[2]:m[3]], "{"), "}")
		if !shellName().MatchString(name) {
			exact = false
			lit(s[m[0]:m[1]])
			continue
		}
		fmt.Fprintf(&b, "${%s-%s}", name, ShellQuote(s[m[0]:m[1]]))
	}
	lit(s[last:])
	if b.Len() == 0 {
		return "''", exact
	}
	return b.String(), exact
}

var shellName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// loadExpanded matches what Gemini's resolveEnvVarsInString expands.
var loadExpanded = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$(\w+|\{[^}]+\})`) })

// pluginRefsFound are the plugin-directory references of a command.
type pluginRefsFound struct{ roots, unknown []string }

func (p *planner) pluginRefsIn(texts []string) pluginRefsFound {
	pr := p.from.Plugin
	if pr == nil {
		pr = &mappings.Plugin{}
	}
	var out pluginRefsFound
	for _, t := range texts {
		for _, v := range pr.RootVars {
			if regexp.MustCompile(`\$\{?` + v + `\b`).MatchString(t) {
				out.roots = append(out.roots, "$"+v)
			}
		}
		for _, v := range pr.UnknownVars {
			if regexp.MustCompile(`\$\{?` + v + `\b`).MatchString(t) {
				out.unknown = append(out.unknown, v)
			}
		}
		for _, m := range hydrateRE().FindAllStringSubmatch(t, -1) {
			v, ok := pr.Hydrate[m[1]]
			switch {
			case !ok:
			case v == "":
				out.unknown = append(out.unknown, m[0])
			default:
				out.roots = append(out.roots, m[0])
			}
		}
	}
	slices.Sort(out.roots)
	slices.Sort(out.unknown)
	out.roots, out.unknown = slices.Compact(out.roots), slices.Compact(out.unknown)
	return out
}

// wrapLacks says why hookx wrap cannot give a wrapped hook the variable
// name its own agent would set, or "".
func (p *planner) wrapLacks(name string) string {
	fe := p.from.Env
	switch {
	case name == fe.ProjectDir, name == fe.Cwd, name == fe.SessionID:
		return ""
	case p.isSessionFile(name):
		return "" // envFileReport, for the events its agent gives it on
	case p.from.Plugin != nil && slices.Contains(p.from.Plugin.RootVars, name):
		return ""
	}
	if !p.isSourceVar(name) {
		return ""
	}
	return fmt.Sprintf("%s sets %s for its hooks; hookx wrap does not, so the command sees it unset", p.from.Agent, name)
}

// isSessionFile reports the variable through which the source's session
// hooks hand exports to later shell commands (CLAUDE_ENV_FILE).
func (p *planner) isSessionFile(name string) bool {
	return p.from.Command.EnvFile != "" && p.from.Command.EnvFile == name
}

// refNames are the names of the variables a command expands: from the
// parse where there is one, else every $NAME and ${NAME in the text.
func refNames(cmd string, f *syntax.File) []string {
	var names []string
	if f != nil {
		for _, r := range commandRefs(f) {
			names = append(names, r.name)
		}
		return names
	}
	for _, m := range nameRE().FindAllStringSubmatch(cmd, -1) {
		names = append(names, m[1])
	}
	return names
}

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`) })

// hookxInvariant is a compact handler group with the first word of each
// `<hookx> wrap …` command written as plain hookx, whatever path to hookx
// it held: two groups that differ only in where hookx lives compare equal.
func hookxInvariant(group []byte) []byte {
	var g map[string]any
	if json.Unmarshal(group, &g) != nil {
		return group
	}
	hs, _ := g["hooks"].([]any)
	for _, h := range hs {
		hm, _ := h.(map[string]any)
		cmd, _ := hm["command"].(string)
		f, err := parseCommand(cmd, "bash")
		if err != nil || len(f.Stmts) == 0 {
			continue
		}
		call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) < 2 {
			continue
		}
		first, err1 := wordValue(call.Args[0])
		second, err2 := wordValue(call.Args[1])
		if err1 != nil || err2 != nil || path.Base(first) != "hookx" || second != "wrap" {
			continue
		}
		w := call.Args[0]
		hm["command"] = cmd[:w.Pos().Offset()] + "hookx" + cmd[w.End().Offset():]
	}
	return compact(marshal(g))
}

// unreadVars are the source's variables (those the AST check above finds
// missing or renames) that the command still names in text the parse does
// not read as an expansion: inside single quotes handed to sh -c or eval,
// in a quoted here-doc fed to a shell, as printenv's argument. The target
// does not set them, so a path built on one points nowhere when the text
// runs and a guard fails open (exit 127); not knowing, hookx does not
// write the hook. have are the names already found.
func (p *planner) unreadVars(cmd string, have []string) []string {
	var out []string
	for _, name := range identRE().FindAllString(cmd, -1) {
		if slices.Contains(have, name) || slices.Contains(out, name) || p.targetSets(name) {
			continue
		}
		if _, renamed := p.envRules()[name]; renamed || p.isSourceVar(name) {
			out = append(out, name)
		}
	}
	return out
}

var identRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`) })

// targetSets reports whether the target's agent sets name for its hooks.
func (p *planner) targetSets(name string) bool {
	te := p.to.Env
	if name == te.ProjectDir || name == te.SessionID || name == te.Cwd || slices.Contains(te.ProjectDirs, name) {
		return true
	}
	if _, ok := te.Set[name]; ok {
		return true
	}
	return slices.ContainsFunc(te.Known, func(k string) bool {
		pre, star := strings.CutSuffix(k, "*")
		return k == name || star && strings.HasPrefix(name, pre)
	})
}
