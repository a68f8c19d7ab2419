package doctor

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// interpreterExit is the exit status an interpreter gives when the script
// it is asked to run does not exist. dash (Debian's and Ubuntu's sh) and
// BusyBox's ash exit 2 ("sh: 0: cannot open x: No such file"), bash and zsh
// 127; "sh" is read through the link it is on the agent's PATH
// (interpreterOf). Exit 2 blocks in most agents: a guard whose script moved
// blocks every call there (live: batch/droid/blocks-all/interpreter-script-missing).
var interpreterExit = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"sh": 127, "bash": 127, "dash": 2, "ash": 2, "busybox": 2, "zsh": 127,
		"python": 2, "python3": 2, "perl": 2,
		"node": 1, "ruby": 1, "deno": 1, "bun": 1,
	}
})

// launchers run the program named by their first non-option argument.
var launchers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"exec": true, "command": true, "env": true, "nohup": true, "time": true}
})

// preSubstituted reports a variable d's agent replaces in the command
// text with an already shell-quoted value when written bare (GC§9.1).
func preSubstituted(d *mappings.Dialect, name string) bool {
	return slices.ContainsFunc(d.Command.PreSubstitute, func(s mappings.Substitution) bool { return s.Ref == "$"+name })
}

// sets reports whether dialect d sets variable name for its hooks.
func sets(d *mappings.Dialect, name string) bool {
	if name == d.Env.ProjectDir || name == d.Env.SessionID || name == d.Env.Cwd || slices.Contains(d.Env.ProjectDirs, name) {
		return true
	}
	if _, ok := d.Env.Set[name]; ok {
		return true
	}
	if _, ok := d.Env.FromPayload[name]; ok {
		return true // where the payload has the field
	}
	for _, v := range d.Env.Known {
		if v == name || strings.HasSuffix(v, "*") && strings.HasPrefix(name, strings.TrimSuffix(v, "*")) {
			return true
		}
	}
	return false
}

// envPrefixes are the prefixes of agents' own variables, from the table.
func (c *checker) envPrefixes() []string {
	var ps []string
	for _, d := range c.tbl.Dialects {
		for _, n := range []string{d.Env.ProjectDir, d.Env.SessionID, d.Env.Cwd} {
			if i := strings.IndexByte(n, '_'); i > 0 && !slices.Contains(ps, n[:i+1]) {
				ps = append(ps, n[:i+1])
			}
		}
	}
	return ps
}

// projectVars are the values the agent gives the variables a command may
// use to name a file, for resolving the program path.
func (c *checker) projectVars(d *mappings.Dialect) map[string]string {
	abs, err := filepath.Abs(c.opts.Dir)
	if err != nil {
		abs = c.opts.Dir
	}
	vars := map[string]string{"HOME": c.opts.Home}
	for _, o := range c.tbl.Dialects {
		if sets(d, o.Env.ProjectDir) {
			vars[o.Env.ProjectDir] = abs
		}
	}
	return vars
}

// The parsers are made on first use: every hookx run, wrap's included,
// initialises this package.
var (
	shParser    = sync.OnceValue(func() *syntax.Parser { return syntax.NewParser(syntax.Variant(syntax.LangBash)) })
	posixParser = sync.OnceValue(func() *syntax.Parser { return syntax.NewParser(syntax.Variant(syntax.LangPOSIX)) })
)

// bashOnlyCommands are bash builtins and keywords a POSIX sh (dash) runs
// as programs it cannot find.
var bashOnlyCommands = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"[[": true, "source": true, "declare": true, "typeset": true, "shopt": true}
})

// checkPOSIX reports bash syntax in a hook the agent runs with sh -c,
// which is dash on Debian and Ubuntu (CC§4.3).
func (c *checker) checkPOSIX(h *hook) {
	d := h.f.d
	if d.Shell != "sh" || h.inner != nil {
		return
	}
	const why = "; %s runs hooks with sh -c, which is dash on Debian and Ubuntu, where %s"
	f, err := posixParser().Parse(strings.NewReader(h.command), "")
	if err != nil {
		msg := err.Error()
		if i := strings.Index(msg, "; tried parsing as posix"); i >= 0 {
			msg = msg[:i]
		}
		c.add(h, h.cmdOff, ruleBashSyntax, fmt.Sprintf("bash syntax in the command (%s)"+why, msg, d.Agent, c.consequence(h, d, 2, "Syntax error")),
			"write POSIX sh, or run it with bash -c '...' (or put it in a script with #!/bin/bash)")
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		if name := call.Args[0].Lit(); bashOnlyCommands()[name] {
			c.add(h, h.cmdOff, ruleBashBuiltin, fmt.Sprintf("%s is bash, not POSIX sh"+why, name, d.Agent, c.consequence(h, d, 127, name+": not found")),
				"write POSIX sh ([ ] for tests, . for source), or run it with bash -c '...'")
			return false
		}
		return true
	})
}

// checkCommand checks what a command hook will run.
func (c *checker) checkCommand(h *hook) {
	d := h.f.d
	f, err := shParser().Parse(strings.NewReader(h.command), "")
	if err != nil {
		c.add(h, h.cmdOff, ruleInvalidShell, fmt.Sprintf("the command is not valid shell (%v); %s", err, c.consequence(h, d, 2, "syntax error")), "fix the quoting")
		return
	}
	c.checkVars(h, f)
	c.checkPOSIX(h)
	wrapped := false
	for _, st := range f.Stmts {
		call := firstCall(st.Cmd)
		if call == nil {
			continue
		}
		args := c.words(d, call.Args)
		if isWrap, inner := hookxWrap(args); isWrap {
			c.checkHookx(h, args, inner)
			wrapped = true
			continue
		}
		script := c.checkProgram(h, d, args)
		if script != "" {
			c.staticIdioms(h, script)
		}
	}
	if !wrapped {
		c.staticIdioms(h, "")
	}
}

// firstCall is the simple command that runs first in a statement.
func firstCall(cmd syntax.Command) *syntax.CallExpr {
	for {
		switch x := cmd.(type) {
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				return nil
			}
			return x
		case *syntax.BinaryCmd:
			cmd = x.X.Cmd
		default:
			return nil
		}
	}
}

// words are the arguments the shell makes of a command's words (expand's
// Fields: quote removal, parameters, ~, field splitting; no globbing), as
// the hook's agent's shell would. A word that cannot be known without
// running the shell is one "" with ok false in place.
func (c *checker) words(d *mappings.Dialect, ws []*syntax.Word) []word {
	vars := c.projectVars(d)
	out := make([]word, 0, len(ws))
	for _, w := range ws {
		raw := w.Lit()
		if raw == "" {
			var b strings.Builder
			syntax.NewPrinter().Print(&b, w)
			raw = b.String()
		}
		fs, ok := wordFields(w, vars)
		if !ok {
			out = append(out, word{raw: raw})
			continue
		}
		for _, f := range fs {
			r := raw
			if len(fs) > 1 {
				r = f
			}
			out = append(out, word{s: f, ok: true, raw: r})
		}
	}
	return out
}

type word struct {
	s   string // the value the shell gives it
	ok  bool   // s is known without running the shell
	raw string // as written
}

// wordFields are the fields the shell makes of w (mvdan.cc/sh's
// expand.Fields, as migrate reads words), with vars the only variables
// set. ok is false where they cannot be known without running the shell:
// a variable vars does not hold (or holds empty), a command or process
// substitution, an arithmetic error.
func wordFields(w *syntax.Word, vars map[string]string) ([]string, bool) {
	known, braces := true, 0
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ParamExp:
			if x.Param == nil || vars[x.Param.Value] == "" {
				known = false
			}
		case *syntax.Lit:
			// Brace expansion multiplies: a hostile {a,b}{a,b}... would
			// take seconds (expand caps it, late); no program path needs it.
			if braces += strings.Count(x.Value, "{"); braces > maxBraces {
				known = false
			}
		}
		return known
	})
	if !known {
		return nil, false
	}
	fs, err := expand.Fields(&expand.Config{Env: knownEnv(vars)}, w)
	if err != nil {
		return nil, false
	}
	return fs, true
}

// maxBraces is the most brace expansions doctor expands in one word.
const maxBraces = 4

// knownEnv is an expand.Environ of the variables doctor knows the agent
// gives a hook (expand itself also asks for IFS and PWD: unset, the
// defaults).
type knownEnv map[string]string

func (e knownEnv) Get(name string) expand.Variable {
	v, ok := e[name]
	if !ok {
		return expand.Variable{}
	}
	return expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}
}

func (e knownEnv) Each(f func(name string, vr expand.Variable) bool) {
	for n, v := range e {
		if !f(n, expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}) {
			return
		}
	}
}

// hookxWrap recognises "hookx wrap ... -- COMMAND" and returns the inner
// command.
func hookxWrap(args []word) (bool, string) {
	if len(args) < 2 || !args[0].ok || filepath.Base(args[0].s) != "hookx" || args[1].s != "wrap" {
		return false, ""
	}
	for i, a := range args {
		if a.s == "--" && i+1 < len(args) {
			return true, args[i+1].s
		}
	}
	return true, ""
}

// checkProgram checks that the program a command starts exists and can
// run; it returns the path of the script file it runs, if known.
func (c *checker) checkProgram(h *hook, d *mappings.Dialect, args []word) string {
	for len(args) > 0 && args[0].ok && launchers()[args[0].s] {
		args = args[1:]
		for len(args) > 0 && (strings.HasPrefix(args[0].s, "-") || strings.Contains(args[0].s, "=")) {
			args = args[1:]
		}
	}
	if len(args) == 0 || !args[0].ok || args[0].s == "" {
		return ""
	}
	prog, shown := args[0].s, args[0].raw
	if !strings.Contains(prog, "/") {
		if shellBuiltins()[prog] {
			return ""
		}
		if err := c.lookPath(prog); err != nil {
			c.add(h, h.cmdOff, ruleProgramNotFound, fmt.Sprintf("%s is not on the PATH the agent passes to hooks; %s", prog, c.consequence(h, d, 127, prog+": not found")),
				"install it, or write its full path")
			return ""
		}
		code, isInterp := interpreterExit()[prog]
		if !isInterp {
			return ""
		}
		if real, ok := interpreterExit()[c.interpreterOf(prog)]; ok {
			code = real
		}
		for _, a := range args[1:] {
			if strings.HasPrefix(a.s, "-") {
				if a.s == "-c" || a.s == "-e" || a.s == "-m" {
					return ""
				}
				continue
			}
			if !a.ok {
				return ""
			}
			p := c.resolve(a.s)
			if _, err := os.Stat(p); err != nil {
				c.add(h, h.cmdOff, ruleScriptNotFound, fmt.Sprintf("%s's script %s does not exist; %s", prog, a.raw, c.consequence(h, d, code, "can't open file "+a.s)),
					"fix the path (relative paths are resolved in the project directory)")
				return ""
			}
			return p
		}
		return ""
	}
	p := c.resolve(prog)
	fi, err := os.Stat(p)
	if err != nil {
		c.add(h, h.cmdOff, ruleFileNotFound, fmt.Sprintf("%s does not exist; %s", shown, c.consequence(h, d, 127, prog+": not found")),
			"fix the path (relative paths are resolved in the project directory)")
		return ""
	}
	if fi.IsDir() {
		c.add(h, h.cmdOff, ruleIsDirectory, fmt.Sprintf("%s is a directory; %s", shown, c.consequence(h, d, 126, prog+": Is a directory")), "name the script inside it")
		return ""
	}
	if fi.Mode()&0o111 == 0 {
		c.add(h, h.cmdOff, ruleNotExecutable, fmt.Sprintf("%s is not executable; %s", shown, c.consequence(h, d, 126, prog+": Permission denied")),
			"chmod +x "+shown+" (and commit the mode)")
		return p
	}
	if interpreter := shebang(p); interpreter != "" {
		var missing bool
		if strings.Contains(interpreter, "/") {
			fi, err := os.Stat(interpreter)
			missing = err != nil || fi.IsDir()
		} else {
			err := c.lookPath(interpreter)
			missing = err != nil
		}
		if missing {
			c.add(h, h.cmdOff, ruleNoInterpreter, fmt.Sprintf("%s's interpreter %s is not installed (or not on the agent's PATH); %s", shown, interpreter, c.consequence(h, d, 127, interpreter+": No such file or directory")),
				"install "+filepath.Base(interpreter)+" or change the #! line")
		}
	}
	return p
}

// shellBuiltins are the POSIX and bash builtins and keywords a command
// may start with: they need no program on PATH.
var shellBuiltins = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`: . [ [[ ]] { } ! alias bg break builtin cd command continue declare echo eval exec exit
		export false fc fg getopts hash history jobs kill let local printf pwd read readonly return set shift source
		test times trap true type typeset ulimit umask unalias unset wait if then else fi for while until do done case esac function`) {
		m[n] = true
	}
	return m
})

// resolve makes a command's path absolute: hooks run in the project directory.
func (c *checker) resolve(p string) string {
	if strings.HasPrefix(p, "~/") && c.opts.Home != "" {
		return filepath.Join(c.opts.Home, p[2:])
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.opts.Dir, p)
}

// shebang returns the interpreter a script's #! line names ("env X" gives X).
func shebang(path string) string {
	fh, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	buf := make([]byte, 256)
	n, _ := io.ReadFull(fh, buf)
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	rest, ok := bytes.CutPrefix(line, []byte("#!"))
	if !ok {
		return ""
	}
	fields := strings.Fields(string(rest))
	if len(fields) == 0 {
		return ""
	}
	if filepath.Base(fields[0]) == "env" {
		for _, a := range fields[1:] {
			if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
				return a
			}
		}
		return ""
	}
	return fields[0]
}

// consequence says what the agent does when the hook exits with code and
// message, read with the agent's own output rules.
func (c *checker) consequence(h *hook, d *mappings.Dialect, code int, msg string) string {
	ev := h.ev
	if ev != nil && d != h.f.d {
		ev = h.inner
	}
	if ev == nil {
		return "the hook cannot run"
	}
	v, _, err := translate.ReadOutput(d, ev.Name, translate.Output{ExitCode: code, Stderr: []byte(msg)})
	switch {
	case err != nil:
		return "the hook cannot run"
	case v.Block && (ev.Output.Block == "" || ev.Output.Block == "none"):
		return fmt.Sprintf("%s reports exit %d as a hook error, and the hook does nothing", d.Agent, code)
	case v.Block:
		return fmt.Sprintf("%s reads exit %d with a message as a block, so %s", d.Agent, code, blockEffect()[ev.Output.Block](ev.Name))
	case ev.Output.Block == "deny":
		return fmt.Sprintf("%s treats exit %d as a non-blocking error, so the guard fails open", d.Agent, code)
	default:
		return fmt.Sprintf("%s treats exit %d as a non-blocking error, so the hook does nothing", d.Agent, code)
	}
}

// blockEffect says what a block does, by the table's Output.Block.
var blockEffect = sync.OnceValue(func() map[string]func(event string) string {
	return map[string]func(event string) string{
		"deny":        func(e string) string { return "every " + e + " is blocked" },
		"feedback":    func(e string) string { return "every " + e + " sends the error to the model" },
		"hide_output": func(e string) string { return "every " + e + " hides the tool's output from the model" },
		"continue": func(e string) string {
			return "every " + e + " sends the error back as a new prompt and the turn never ends"
		},
	}
})

// checkVars reports variables the agent never sets.
func (c *checker) checkVars(h *hook, f *syntax.File) {
	d := h.f.d
	assigned := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil {
				assigned[x.Name.Value] = true
			}
		case *syntax.WordIter:
			assigned[x.Name.Value] = true
		}
		return true
	})
	prefixes := c.envPrefixes()
	seen := map[string]bool{}
	report := func(name string) {
		if seen[name] || assigned[name] || h.env[name] != "" || sets(d, name) || c.opts.getenv(name) != "" {
			return
		}
		if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(name, p) }) {
			return
		}
		seen[name] = true
		foreignVar, unsetVar := ruleForeignVar, ruleUnsetVar
		if h.ev != nil && h.ev.Output.Guard {
			foreignVar, unsetVar = ruleGuardForeignVar, ruleGuardUnsetVar
		}
		for _, o := range c.tbl.Dialects {
			if o == d || !sets(o, name) {
				continue
			}
			fix := "use " + d.Agent + "'s own variable"
			if r := sameRole(o, d, name); r != "" {
				fix = fmt.Sprintf("write ${%s}", r)
			} else if name == o.Env.SessionID {
				// TerminaI sets no session variable (terminai.md:23).
				fix = fmt.Sprintf("%s sets no session variable: read session_id from the JSON on stdin (jq -r .session_id)", d.Agent)
			}
			c.add(h, h.cmdOff, foreignVar, fmt.Sprintf("$%s is set by %s, not by %s; it expands to nothing here", name, o.Agent, d.Agent), fix)
			return
		}
		fix := "read the value from the JSON on stdin (e.g. jq -r .tool_input.command)"
		c.add(h, h.cmdOff, unsetVar, fmt.Sprintf("$%s is never set by %s; it expands to nothing, so the hook sees an empty value", name, d.Agent), fix)
	}
	var inDbl []*syntax.DblQuoted
	syntax.Walk(f, func(n syntax.Node) bool {
		if q, ok := n.(*syntax.DblQuoted); ok {
			inDbl = append(inDbl, q)
		}
		pe, ok := n.(*syntax.ParamExp)
		if !ok || pe.Param == nil {
			return true
		}
		name := pe.Param.Value
		if pe.Short && preSubstituted(d, name) && !seen["quoted:"+name] {
			for _, q := range inDbl {
				if q.Pos().Offset() <= pe.Pos().Offset() && pe.End().Offset() <= q.End().Offset() {
					seen["quoted:"+name] = true
					c.add(h, h.cmdOff, ruleQuotedSubst, fmt.Sprintf("bare $%s inside double quotes; %s pastes an already shell-quoted value there, which breaks on paths with spaces or @", name, d.Agent),
						fmt.Sprintf("write \"${%s}\"", name))
					break
				}
			}
		}
		report(name)
		return true
	})
	// A shell the command runs (sh -c '…', eval '…', a quoted here-doc
	// fed to sh) or printenv reads the variable where the parse above sees
	// only text.
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		prog := path.Base(call.Args[0].Lit())
		switch {
		case prog == "printenv":
			for _, a := range call.Args[1:] {
				report(a.Lit())
			}
		case runsShellText[prog]:
			var texts []string
			for _, a := range call.Args[1:] {
				for _, part := range a.Parts {
					if sq, ok := part.(*syntax.SglQuoted); ok {
						texts = append(texts, sq.Value)
					}
				}
			}
			for _, r := range st.Redirs {
				if r.Hdoc != nil {
					for _, part := range r.Hdoc.Parts {
						if l, ok := part.(*syntax.Lit); ok {
							texts = append(texts, l.Value)
						}
					}
				}
			}
			for _, t := range texts {
				for _, m := range shellVarRE().FindAllStringSubmatch(t, -1) {
					report(m[1])
				}
			}
		}
		return true
	})
}

// runsShellText are the commands that run a quoted argument or a here-doc
// as shell text, where a variable the parse saw as text expands.
var runsShellText = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "eval": true}

var shellVarRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`) })

// sameRole returns d's variable for the role name has in o.
func sameRole(o, d *mappings.Dialect, name string) string {
	switch name {
	case o.Env.ProjectDir:
		return d.Env.ProjectDir
	case o.Env.SessionID:
		return d.Env.SessionID
	case o.Env.Cwd:
		return cmpOr(d.Env.Cwd, d.Env.ProjectDir)
	}
	return ""
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// The deny idioms, as they appear in a script's text.
var (
	topDecisionDeny   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["']?\bdecision["']?\s*:\s*["']?deny\b`) })
	topDecisionBlock  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["']?\bdecision["']?\s*:\s*["']?block\b`) })
	permissionDeny    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["']?permissionDecision["']?\s*:\s*["']?deny\b`) })
	staticScriptLimit = int64(256 << 10)
	// exitNonZero finds a non-zero exit in shell, Python or JavaScript.
	exitNonZero  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bexit\s*\(?\s*[1-9]`) })
	writesStderr = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`>&\s*2|\b2>|sys\.stderr|console\.error|process\.stderr|STDERR`)
	})
)

// staticIdioms reports a guard whose text answers with a deny its agent
// ignores. script is a file the command runs ("" for the command itself).
// A text that also writes the agent's own idiom is taken for a hook that
// speaks both dialects and left to --probe.
func (c *checker) staticIdioms(h *hook, script string) {
	d := h.f.d
	if h.ev == nil || h.ev.Output.Block != "deny" || !h.ev.Output.Guard {
		return
	}
	text := h.command
	where := "the command"
	if script != "" {
		fi, err := os.Stat(script)
		if err != nil || fi.Size() > staticScriptLimit {
			return
		}
		b, err := os.ReadFile(script)
		if err != nil {
			return
		}
		text, where = string(b), filepath.Base(script)
	}
	pd := h.ev.Output.PermissionDecision
	switch {
	case pd && !agentBlocks(d, h.event, `{"decision":"deny"}`) && topDecisionDeny().MatchString(text) && !permissionDeny().MatchString(text) && !topDecisionBlock().MatchString(text):
		c.add(h, h.cmdOff, ruleDecisionDeny, fmt.Sprintf("%s answers {\"decision\":\"deny\"}; %s accepts only approve or block there, rejects the answer and runs the tool, so the guard fails open", where, d.Agent),
			`answer {"hookSpecificOutput":{"hookEventName":"`+h.event+`","permissionDecision":"deny","permissionDecisionReason":"..."}} or exit 2 with the reason on stderr`)
	case !agentBlocks(d, h.event, `{"decision":"block","reason":"r"}`) && topDecisionBlock().MatchString(text) && !permissionDeny().MatchString(text) && !topDecisionDeny().MatchString(text) && !exitNonZero().MatchString(text):
		// Crush reads only allow or deny (hooks/input.go:202-211), Factory
		// Droid no top-level decision on PreToolUse: the tool runs.
		c.add(h, h.cmdOff, ruleDecisionBlock, fmt.Sprintf("%s answers {\"decision\":\"block\"}; %s reads no such decision on %s and runs the tool, so the guard fails open", where, d.Agent, h.ev.Name),
			blockIdiomFix(d, h.ev.Name))
	case d.Reading.ByExit() && (topDecisionDeny().MatchString(text) || topDecisionBlock().MatchString(text)) && exitNonZero().MatchString(text) && !writesStderr().MatchString(text):
		c.add(h, h.cmdOff, ruleDenyNonZero, fmt.Sprintf("%s answers a deny on stdout and exits non-zero; %s reads stdout only at exit 0, so it ignores the deny and runs the tool: the guard fails open", where, d.Agent),
			`exit 0 after printing {"decision":"deny","reason":"..."}, or print the reason on stderr and exit 2`)
	case !agentBlocks(d, h.event, `{"permissionDecision":"deny"}`) && !agentBlocks(d, h.event, `{"hookSpecificOutput":{"hookEventName":"`+h.event+`","permissionDecision":"deny"}}`) && permissionDeny().MatchString(text) && !topDecisionDeny().MatchString(text) && !topDecisionBlock().MatchString(text):
		c.add(h, h.cmdOff, rulePermissionDeny, fmt.Sprintf("%s answers permissionDecision \"deny\"; %s ignores it and runs the tool, so the guard fails open", where, d.Agent),
			`answer {"decision":"deny","reason":"..."}`)
	}
}

// blockIdiomFix is the deny d's agent reads on event, for a guard whose
// {"decision":"block"} it ignores: permissionDecision where the event has
// it (and, for an agent that also reads its own top-level "deny", that);
// exit 2 always blocks.
func blockIdiomFix(d *mappings.Dialect, event string) string {
	fix := `exit 2 with the reason on stderr`
	if agentBlocks(d, event, `{"hookSpecificOutput":{"hookEventName":"`+event+`","permissionDecision":"deny"}}`) {
		fix = `answer {"hookSpecificOutput":{"hookEventName":"` + event + `","permissionDecision":"deny","permissionDecisionReason":"..."}}, or ` + fix
	}
	if agentBlocks(d, event, `{"decision":"deny"}`) {
		fix = `answer {"decision":"deny","reason":"..."}, or ` + strings.TrimPrefix(fix, "answer ")
	}
	return fix
}

// agentBlocks reports whether d's agent blocks on event when a hook prints
// stdout and exits 0, as wrap's reader (translate.ReadOutput) reads it: a
// deny in the agent's own idiom, not one hookx only reads as the deny it
// means.
func agentBlocks(d *mappings.Dialect, event, stdout string) bool {
	v, _, err := translate.ReadOutput(d, event, translate.Output{Stdout: []byte(stdout)})
	return err == nil && v.Block && v.Ignored == ""
}

// interpreterOf is the name of the program prog is on the agent's PATH,
// through its symbolic links (/bin/sh -> dash); "" when not found.
func (c *checker) interpreterOf(prog string) string {
	p, err := c.opts.lookPath(prog)
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return filepath.Base(real)
}
