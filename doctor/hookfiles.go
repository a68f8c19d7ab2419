package doctor

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/hookx-dev/hookx/migrate/clinehooks"
	"mvdan.cc/sh/v3/syntax"
)

// checkHookFiles reads what hookx migrate wrote for an agent that runs one
// executable file per event (Cline): beside its entries file
// (hookx.hooks.json), a dispatcher per event that has entries. An event
// whose file is missing or is the user's own runs none of hookx's
// entries; a dispatcher whose entries file is gone refuses every call; a
// dispatcher of another hookx version, or edited, is stale.
func (c *checker) checkHookFiles() {
	for _, d := range c.tbl.Dialects {
		if !d.Settings.HookFiles {
			continue
		}
		// Every directory the agent runs hook files from: a dispatcher
		// there reads the entries file beside it ($0's directory).
		for _, dir := range hookFileDirs(d, c.opts) {
			c.checkHookDir(d, dir)
		}
	}
}

func (c *checker) checkHookDir(d *mappings.Dialect, hd hookDir) {
	dir := hd.path
	name := path.Base(d.Settings.Project)
	entriesPath, entries := filepath.Join(dir, name), hd.show(name)
	data, err := safefile.ReadRegular(entriesPath, migrate.MaxFileSize)
	haveEntries := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		haveEntries = false
	}
	withEntries := map[string]bool{}
	if haveEntries {
		evs, _ := migrate.HookFileEvents(d, data) // one that does not parse: checkFile says so
		for _, ev := range evs {
			withEntries[ev] = true
		}
	}
	for _, h := range agentHookFiles(d, dir, false) {
		c.checkOwnHookFile(d, hd, h)
	}
	for _, e := range d.Events {
		p := filepath.Join(dir, e.Name)
		f := hd.file(d, e.Name)
		guard := e.Output.BlocksOnFailure()
		script, err := safefile.ReadRegular(p, migrate.MaxFileSize)
		fix := hd.migrateFix(d)
		fi, lerr := os.Lstat(p)
		switch {
		case lerr == nil && fi.Mode()&fs.ModeSymlink != 0 && withEntries[e.Name]:
			// Cline runs the regular files of the directory only (n8,
			// core@702735: readdir's Dirent.isFile(), false for a link).
			c.addFile(f, -1, ruleDispatcherMissing, fmt.Sprintf("%s has %s entries, but the %s dispatcher beside it is a symbolic link, which %s does not run: it runs none of them", entries, e.Name, e.Name, d.Agent), "replace the link with the file it points to, or delete it and "+fix)
		case err != nil && withEntries[e.Name]:
			c.addFile(f, -1, ruleDispatcherMissing, fmt.Sprintf("%s has %s entries, but there is no %s dispatcher beside it: %s runs none of them", entries, e.Name, e.Name, d.Agent), fix)
		case err != nil:
		case !clinehooks.Owned(script):
			if withEntries[e.Name] {
				c.addFile(f, -1, ruleDispatcherNotHookx, fmt.Sprintf("this is not the dispatcher hookx writes: %s runs it, and none of the %s entries of %s", d.Agent, e.Name, entries),
					fmt.Sprintf("rename it and %s; or run the entries from it: hookx dispatch --host %s --event %s -- \"$0\", with the same stdin, and print its answer", fix, d.Name, e.Name))
			}
		case !haveEntries && guard:
			c.addFile(f, -1, ruleDispatcherNoEntries, fmt.Sprintf("a dispatcher hookx wrote, but %s is missing: it refuses every call (it fails closed)", entries), fix+", or delete the dispatcher")
		case !haveEntries:
			c.addFile(f, -1, ruleDispatcherStale, fmt.Sprintf("a dispatcher hookx wrote, but %s is missing: it runs nothing", entries), fix+", or delete the dispatcher")
		default:
			_, v, _ := clinehooks.Stamp(script)
			switch {
			case !migrate.DispatcherCurrent(script, e.Name, guard):
				c.addFile(f, -1, ruleDispatcherStale, "the dispatcher was edited, or written by a hookx that wrote another script: what it runs is not what hookx migrate writes", fix+" (it is updated in place)")
			case c.opts.HookxVersion != "" && v != c.opts.HookxVersion:
				c.addFile(f, -1, ruleDispatcherStale, fmt.Sprintf("the dispatcher was written by hookx %s; this is hookx %s", v, c.opts.HookxVersion), fix+" (it is updated in place)")
			case !withEntries[e.Name]:
				c.addFile(f, -1, ruleDispatcherStale, fmt.Sprintf("%s has no %s entries any more: the dispatcher runs nothing", path.Base(filepath.ToSlash(entries)), e.Name), "delete it")
			}
		}
	}
}

// ownHook is a hook file of the user's own (not hookx's dispatcher) that
// the agent runs for an event: regular, named after the event.
type ownHook struct {
	path  string
	event *mappings.Event
	text  []byte
}

// agentHookFiles lists the files of dir the agent runs for one of its
// events (Cline: the event's name, any case, with one of the endings it
// runs), and, unless withHookx, only those hookx did not write; a file it
// does not run (a link, not a regular file, another name) is not one.
func agentHookFiles(d *mappings.Dialect, dir string, withHookx bool) []ownHook {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	names := make([]string, len(d.Events))
	for i, e := range d.Events {
		names[i] = e.Name
	}
	var out []ownHook
	for _, de := range ents {
		ev := clinehooks.EventOf(de.Name(), names)
		if ev == "" {
			continue
		}
		p := filepath.Join(dir, de.Name())
		// Cline runs every regular file of the name, executable or not,
		// with the interpreter its #! line or its extension names (gl,
		// core@716173), and no link (n8, core@702735: Dirent.isFile()).
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		text, err := readAtMost(p, migrate.MaxFileSize)
		// hookx writes its dispatcher under the event's own name only
		// (checkHookDir checks that file): a file under another name that
		// starts with hookx's header is one hookx did not write, which
		// Cline runs as it runs any.
		if err != nil || (!withHookx && de.Name() == ev && clinehooks.Owned(text)) {
			continue
		}
		out = append(out, ownHook{path: p, event: d.Event(ev), text: text})
	}
	return out
}

// HookFiles returns the hook files of the user's own that an agent running
// one executable file per event (Cline) runs under opts: Command is the
// file, Event the event its name maps to. hookx's dispatchers are not
// among them (Hooks reads their entries file).
func HookFiles(opts Options) []Hook {
	if opts.Dir == "" {
		opts.Dir = "."
	}
	if opts.Table == nil {
		return nil
	}
	var out []Hook
	for _, d := range opts.Table.Dialects {
		for _, dir := range hookFileDirs(d, opts) {
			for _, h := range agentHookFiles(d, dir.path, false) {
				out = append(out, Hook{File: h.path, Dialect: d.Name, Event: h.event.Name, AgentEvent: h.event.Name, Command: h.path})
			}
		}
	}
	return out
}

// checkOwnHookFile flags a guard of the user's own that Cline runs and
// that refuses only by its exit code, which Cline never reads
// (core@704656): a shell script with a literal non-zero exit whose text
// never names cancel, overrideInput or HOOK_CONTROL (the answers Cline
// reads) nor hookx, and that hands its stdout to no other script or
// interpreter (which might answer for it). Static: a script that builds
// its answer elsewhere is not flagged.
func (c *checker) checkOwnHookFile(d *mappings.Dialect, hd hookDir, h ownHook) {
	if h.event == nil || !h.event.Output.BlocksOnFailure() || !shellHookFile(h.path, h.text) {
		return
	}
	for _, w := range []string{"cancel", "overrideInput", "HOOK_CONTROL", "hookx"} {
		if bytes.Contains(h.text, []byte(w)) {
			return
		}
	}
	// CRLF line endings (a checkout with autocrlf): "exit 2\r" is an
	// error of sh's that exits non-zero too; read as the LF script.
	text := bytes.ReplaceAll(h.text, []byte("\r\n"), []byte("\n"))
	prog, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(bytes.NewReader(text), h.path)
	if err != nil {
		return
	}
	exitOff, delegates := -1, false
	syntax.Walk(prog, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		name := call.Args[0].Lit()
		switch {
		case name == "exit" && len(call.Args) > 1:
			if v := call.Args[1].Lit(); v != "" && strings.Trim(v, "0123456789") == "" && strings.Trim(v, "0") != "" && exitOff < 0 {
				exitOff = int(call.Pos().Offset())
			}
		case name == "" || name == "exec" || name == "source" || name == "." || name == "eval" || strings.Contains(name, "/") || interpreters[strings.TrimRight(name, "0123456789.")]:
			delegates = true
		}
		return true
	})
	if exitOff < 0 || delegates {
		return
	}
	f := hd.file(d, filepath.Base(h.path))
	f.data = text
	c.addFile(f, exitOff, ruleExitCodeIgnored,
		fmt.Sprintf("%s runs this file for every %s and never reads its exit code: this exit refuses nothing, the tool runs; only {\"cancel\":true} (or overrideInput, a HOOK_CONTROL line) on stdout refuses", d.Agent, h.event.Name),
		fmt.Sprintf("answer {\"cancel\":true,\"errorMessage\":\"why\"} on stdout; or keep the guard as it is (a Claude guard), move it out of %s and run it from a file there with: hookx wrap --from claude --host %s -- <file>", hd.shown, d.Name))
}

// interpreters run a script whose stdout a hook file may pass on as its
// own answer.
var interpreters = map[string]bool{"python": true, "node": true, "bash": true, "sh": true, "zsh": true, "dash": true, "deno": true, "bun": true, "ruby": true, "perl": true, "php": true, "npx": true, "uv": true, "go": true, "java": true, "pwsh": true}

// shellHookFile reports whether the agent runs the file with a shell: its
// #! line names one, or, with none, its name ends in a shell's extension.
func shellHookFile(path string, text []byte) bool {
	if line, ok := bytes.CutPrefix(text, []byte("#!")); ok {
		line, _, _ = bytes.Cut(line, []byte("\n"))
		fields := strings.Fields(string(line))
		if len(fields) == 0 {
			return false
		}
		prog := filepath.Base(fields[0])
		if prog == "env" && len(fields) > 1 {
			prog = fields[len(fields)-1]
		}
		return prog == "sh" || prog == "bash" || prog == "zsh" || prog == "dash"
	}
	// With none, Cline picks by the name's ending, and runs a name with
	// none of its endings with bash (gl, core@716173: return["bash",$]).
	switch strings.ToLower(filepath.Ext(path)) {
	case ".sh", ".bash", ".zsh", "":
		return true
	}
	return false
}

// hookDir is a directory whose files an agent runs, one per event: its
// path, as findings show it, and its scope ("project", or "user" for one
// under the home directory, shown under ~ as the user's settings are).
type hookDir struct {
	path, shown, scope string
}

// file is the file name of the directory as a doctor file of its scope.
func (hd hookDir) file(d *mappings.Dialect, name string) *file {
	return &file{d: d, scope: hd.scope, path: filepath.Join(hd.path, name), shown: hd.show(name)}
}

// show is name of the directory as findings show it.
func (hd hookDir) show(name string) string {
	if hd.scope == "user" {
		return hd.shown + "/" + name
	}
	return filepath.Join(hd.shown, name)
}

// migrateFix is the command that writes the directory's dispatchers again.
func (hd hookDir) migrateFix(d *mappings.Dialect) string {
	if hd.scope == "user" {
		return "run hookx migrate --to " + d.Name + " --user"
	}
	return "run hookx migrate --to " + d.Name
}

// hookFileDirs are the directories whose files an agent that runs one
// executable file per event runs under opts (the table's hookDirs, and
// with User its userHookDirs; none for another agent).
func hookFileDirs(d *mappings.Dialect, opts Options) []hookDir {
	if !d.Settings.HookFiles {
		return nil
	}
	var dirs []hookDir
	for _, rel := range d.Settings.HookDirs {
		p := filepath.Join(opts.Dir, filepath.FromSlash(rel))
		dirs = append(dirs, hookDir{p, p, "project"})
	}
	if opts.User && opts.Home != "" {
		for _, rel := range d.Settings.UserHookDirs {
			dirs = append(dirs, hookDir{filepath.Join(opts.Home, filepath.FromSlash(strings.TrimPrefix(rel, "~/"))), rel, "user"})
		}
	}
	return dirs
}

// readAtMost reads a regular file (through a link: the agent runs what it
// points to) of at most max bytes; a bigger one, or one that is no longer
// regular when opened, is an error.
func readAtMost(p string, max int) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err == nil && len(b) > max {
		err = fmt.Errorf("%s: over %d bytes", p, max)
	}
	return b, err
}
