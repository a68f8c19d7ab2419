package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/spf13/cobra"
)

func init() {
	extraCommands = append(extraCommands, func(s streams) *cobra.Command { return newMigrateCmd(s, nil) })
}

type migrateOptions struct {
	s streams

	alias          map[string]bool // the alias flags given (migrateAliases)
	from, to       string
	dir            string
	user           bool
	plugin         string
	out            string
	allowOutside   string
	prune          bool
	dryRun, check  bool
	noWrap, strict bool
	json           bool
	quiet, verbose bool

	// hookx is how the migrated entries call hookx; empty: found with
	// hookxCommand. Tests set it.
	hookx string
	// home replaces the user's home directory; empty: os.UserHomeDir.
	home string
	// color colours the diff (see colorOn).
	color bool
	// beforeWrite, if set, runs between planning and writing (tests use it
	// to edit the target during a run).
	beforeWrite func()
}

// migrateAliases are the flags kept from when hookx knew two agents: each
// names a pair, and --from alone with the pair's source means that pair.
var migrateAliases = []struct{ flag, from, to string }{
	{"from-claude", "claude", "gemini"},
	{"from-gemini", "gemini", "claude"},
}

// dialects returns the source and target dialect names from --from/--to
// or an alias flag (the spellings may be mixed when they agree). Any two
// dialects of the table make a pair; --to may be left out only where an
// alias names the pair.
func (o *migrateOptions) dialects() (from, to string, err error) {
	tbl := mappings.Default()
	names := tbl.DialectNames()
	froms := map[string]bool{}
	tos := map[string]bool{}
	for _, a := range migrateAliases {
		if o.alias[a.flag] {
			froms[a.from], tos[a.to] = true, true
		}
	}
	if o.from != "" {
		froms[o.from] = true
	}
	if o.to != "" {
		tos[o.to] = true
	}
	if len(froms) != 1 {
		return "", "", fmt.Errorf("migrate: give exactly one source: --from %s --to %s (or --from-claude, --from-gemini)", strings.Join(names, "|"), strings.Join(names, "|"))
	}
	for n := range froms {
		from = n
	}
	if _, err := tbl.Dialect(from); err != nil {
		return "", "", fmt.Errorf("migrate: --from: %w", err)
	}
	if len(tos) > 1 {
		return "", "", fmt.Errorf("migrate: the flags name different targets (%s)", strings.Join(slices.Sorted(maps.Keys(tos)), ", "))
	}
	for n := range tos {
		to = n
	}
	if to == "" {
		for _, a := range migrateAliases {
			if a.from == from {
				to = a.to
			}
		}
	}
	if to == "" {
		return "", "", fmt.Errorf("migrate: --from %s: name the target with --to (one of %s)", from, strings.Join(slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == from }), ", "))
	}
	if _, err := tbl.Dialect(to); err != nil {
		return "", "", fmt.Errorf("migrate: --to: %w", err)
	}
	if to == from {
		return "", "", fmt.Errorf("migrate: --from and --to both name %s; hookx migrates between two agents", from)
	}
	return from, to, nil
}

// aliasSources lists the sources for which --to may be left out.
func aliasSources() string {
	var out []string
	for _, a := range migrateAliases {
		out = append(out, a.from)
	}
	return strings.Join(out, " or ")
}

func newMigrateCmd(s streams, runF func(*migrateOptions) error) *cobra.Command {
	opts := &migrateOptions{s: s}
	tbl := mappings.Default()
	cmd := &cobra.Command{
		Use:   "migrate --from DIALECT --to DIALECT [flags]",
		Short: "Migrate hook settings from one agent to another",
		Long: `migrate copies the hooks of one agent's settings into another's.
The dialects: ` + dialectList() + `.
--from-claude means --from claude --to gemini, --from-gemini means
--from gemini --to claude; with --from claude or --from gemini, --to may be
left out for the same pair.

--from claude (or --from-claude) reads .claude/settings.json and
.claude/settings.local.json (merged as Claude Code merges them) and edits
.gemini/settings.json; --from gemini (--from-gemini) reads
.gemini/settings.json and edits .claude/settings.json. With --user, the files
under your home directory are used instead; user hooks never go into a
project file.

--plugin DIR also reads the hooks/hooks.json of a Claude Code plugin (or,
with --from gemini, of a Gemini CLI extension). With --out DIR, only the
plugin is read, and it is converted into a Gemini extension (or a Claude
plugin) in DIR: hooks/hooks.json using the target's placeholder for its
directory (${extensionPath}, ${CLAUDE_PLUGIN_ROOT}), and a manifest
(gemini-extension.json, .claude-plugin/plugin.json) if it has none. Install
the result with the agent's own command (gemini extensions link DIR,
claude --plugin-dir DIR).

Safety: a target that resolves (through symlinks) outside the project, or
outside ~ with --user, or outside --out (the manifest and each copied
plugin file too), is refused unless --allow-outside
names its real path; the report names the real path written. The target is
written only if it still holds what the plan was made from (else migrate
plans again, and gives up with exit 3, writing nothing). Each entry hookx
owns records its source's agent and scope (@claude:project, @claude:local,
@gemini:user, @claude:plugin:<dir>); a run removes only stale entries of
sources it read: other agents' entries are kept, those of its agent's
sources it did not read are kept with a warning (--prune removes them). A
removed or weakened entry that can block is named, as weakened. Options added by hand to a
hookx wrap command are kept; other hand-made changes that a run would undo
are reported as weakened. --strict refuses not-carried and weakened items.

Each migrated command runs through "hookx wrap", so the hook keeps its
meaning on the new host (--no-wrap copies the commands as they are). Only the
entries hookx owns are touched: on Gemini they are named "hookx:...", on
Claude their command ends in the shell comment "# hookx:...". Everything
else in the target, comments and formatting included, is kept byte for byte,
and running migrate again changes nothing.

It prints the unified diff of the target on stdout and the report on stderr
(--json: both as one JSON object on stdout), writes the target atomically and
keeps the previous version as <file>` + migrate.BackupSuffix + `.

` + exitCodesHelp,
		Example: `  # Preview: the diff of .gemini/settings.json on stdout, the report on stderr
  hookx migrate --from claude --dry-run

  # Write it (the previous file is kept as settings.json.hookx.bak)
  hookx migrate --from claude

  # In CI: exit 1 when .gemini/settings.json is stale, silently
  hookx migrate --from claude --check -q

  # The other way, and the user-level settings
  hookx migrate --from gemini --to claude
  hookx migrate --from claude --user

  # Convert a Claude Code plugin into a Gemini CLI extension
  hookx migrate --from claude --plugin ./my-plugin --out ./my-extension`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if _, _, err := opts.dialects(); err != nil {
				return withCode(exitBadInput, err)
			}
			if opts.quiet && opts.verbose {
				return withCode(exitBadInput, errors.New("migrate: --quiet and --verbose cannot be combined"))
			}
			if opts.user && c.Flags().Changed("dir") {
				return withCode(exitBadInput, errors.New("migrate: --user migrates the settings in your home directory; it cannot be combined with --dir"))
			}
			if !opts.user && opts.out == "" && !c.Flags().Changed("dir") {
				from, _, _ := opts.dialects()
				st := mappings.Default().MustDialect(from).Settings
				marker := st.Project
				if st.ProjectGlob != "" {
					marker = path.Dir(st.ProjectGlob) // the folder it reads (.github/hooks)
				}
				opts.dir = findProject(".", marker)
			}
			if opts.dryRun && opts.check {
				return withCode(exitBadInput, errors.New("migrate: --dry-run and --check cannot be combined"))
			}
			if opts.out != "" && (opts.plugin == "" || opts.user) {
				return withCode(exitBadInput, errors.New("migrate: --out converts a plugin or extension: use it with --plugin, without --user"))
			}
			color, err := colorOn(c, s.Out)
			if err != nil {
				return err
			}
			opts.color = color
			if runF != nil {
				return runF(opts)
			}
			return migrateRun(opts)
		},
	}
	f := cmd.Flags()
	opts.alias = map[string]bool{}
	for _, a := range migrateAliases {
		from, to := tbl.MustDialect(a.from), tbl.MustDialect(a.to)
		f.BoolFunc(a.flag, fmt.Sprintf("the same as --from %s --to %s: %s hooks into %s settings", a.from, a.to, from.Agent, to.Agent),
			func(v string) error {
				b, err := strconv.ParseBool(v)
				opts.alias[a.flag] = b
				return err
			})
		f.Lookup(a.flag).NoOptDefVal = "true"
	}
	f.StringVar(&opts.from, "from", "", "the `dialect` to migrate from: "+strings.Join(tbl.DialectNames(), ", "))
	f.StringVar(&opts.to, "to", "", "the `dialect` to migrate to (optional only with --from "+aliasSources()+")")
	f.StringVar(&opts.out, "out", "", "convert the --plugin into a plugin or extension of the target in this `directory`")
	f.StringVar(&opts.allowOutside, "allow-outside", "", "write the target even though it resolves to this real `path`, outside the project (or ~, or --out)")
	f.BoolVar(&opts.prune, "prune", false, "also remove hookx entries whose source (a plugin, say) this run did not read")
	f.StringVar(&opts.dir, "dir", ".", "the project `directory`")
	f.BoolVar(&opts.user, "user", false, "migrate the user settings (~/.claude ⇄ ~/.gemini) instead of the project's")
	f.StringVar(&opts.plugin, "plugin", "", "also migrate the hooks/hooks.json of this plugin (or, --from gemini, extension) `directory`")
	f.BoolVar(&opts.dryRun, "dry-run", false, "print the diff and the report, write nothing")
	f.BoolVar(&opts.check, "check", false, "write nothing; exit 1 if the target is not up to date (for CI)")
	f.BoolVar(&opts.noWrap, "no-wrap", false, "copy the commands as they are, for hooks that already speak the target's protocol")
	f.BoolVar(&opts.strict, "strict", false, "exit 1 without writing if any hook or part of one cannot be carried, or a guard would be weakened")
	f.BoolVar(&opts.json, "json", false, "print the report and the planned changes as JSON")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "print nothing but errors; the exit code tells (with --check: 1 when stale)")
	f.BoolVarP(&opts.verbose, "verbose", "v", false, "print the full report even when the target is up to date")
	f.StringVar(&opts.hookx, "hookx-path", "", "how migrated entries invoke hookx (default: hookx if it is on PATH, else this binary's path)")
	_ = f.MarkHidden("hookx-path")
	return cmd
}

func migrateRun(opts *migrateOptions) error {
	tbl := mappings.Default()
	fromName, toName, err := opts.dialects()
	if err != nil {
		return withCode(exitBadInput, err)
	}
	from, err := tbl.Dialect(fromName)
	if err != nil {
		return withCode(exitInternal, err)
	}
	to, err := tbl.Dialect(toName)
	if err != nil {
		return withCode(exitInternal, err)
	}
	if _, what := migrate.PluginManifest(to); opts.out != "" && what == "" {
		return withCode(exitBadInput, fmt.Errorf("--out: hookx knows no plugin format of %s to convert into", to.Agent))
	}

	// base is the directory the settings paths are relative to; shown is
	// how that directory is written in messages.
	base, shown := opts.dir, opts.dir
	if opts.user {
		base = opts.home
		if base == "" {
			if base, err = os.UserHomeDir(); err != nil {
				return withCode(exitInternal, err)
			}
		}
		shown = "~"
	}
	rel := func(setting string) string { return filepath.FromSlash(strings.TrimPrefix(setting, "~/")) }
	showPath := func(r string) string { return filepath.Join(shown, r) }
	if shown == "~" {
		showPath = func(r string) string { return "~/" + filepath.ToSlash(r) }
	}

	var names []string // relative to base
	switch {
	case opts.out != "":
		// Converting a plugin: its hooks only.
	case opts.user:
		names = []string{rel(from.Settings.User)}
	default:
		names = []string{rel(from.Settings.Project)}
		if g := from.Settings.ProjectGlob; g != "" {
			// Every file the agent reads (Copilot CLI: .github/hooks/*.json).
			matches, _ := filepath.Glob(filepath.Join(base, rel(g)))
			names = names[:0]
			for _, m := range matches {
				if r, err := filepath.Rel(base, m); err == nil {
					names = append(names, r)
				}
			}
			if len(names) == 0 {
				names = []string{rel(g)}
			}
		}
		if from.Settings.Local != "" {
			names = append(names, rel(from.Settings.Local))
		}
	}
	var sources []migrate.Source
	var looked []string
	for _, n := range names {
		data, err := readSettings(filepath.Join(base, n), showPath(n))
		if err != nil {
			return err
		}
		looked = append(looked, showPath(n))
		if data == nil {
			continue
		}
		scope := "project"
		if opts.user {
			scope = "user"
		} else if from.Settings.Local != "" && n == rel(from.Settings.Local) {
			scope = "local"
		}
		sources = append(sources, migrate.Source{Path: showPath(n), Scope: scope, Data: data})
	}
	var pluginRoot string
	if opts.plugin != "" {
		p := filepath.Join(opts.plugin, migrate.PluginHooks)
		data, err := readSettings(p, p)
		if err != nil {
			return err
		}
		_, what := migrate.PluginManifest(from)
		if what == "" {
			return withCode(exitBadInput, fmt.Errorf("--plugin: hookx knows no plugin format of %s", from.Agent))
		}
		if data == nil {
			return withCode(exitBadInput, fmt.Errorf("%s: no such file (a %s keeps its hooks in %s)", p, what, migrate.PluginHooks))
		}
		if pluginRoot, err = migrate.RealPath(opts.plugin); err != nil {
			return withCode(exitInternal, err)
		}
		origin := pluginRoot
		if opts.out != "" {
			// The ids of a converted plugin travel with it: no local path.
			origin = filepath.Base(pluginRoot)
		}
		sources = append(sources, migrate.Source{Path: p, Scope: "plugin", Origin: origin, Data: data})
	}
	if len(sources) == 0 {
		return withCode(exitBadInput, fmt.Errorf("no %s settings found (looked for %s)", from.Agent, strings.Join(looked, " and ")))
	}

	// The target, and the directory it must stay in.
	targetRel := rel(to.Settings.Project)
	if opts.user {
		targetRel = rel(to.Settings.User)
	}
	targetPath, targetShown, scopeDir, scopeName := filepath.Join(base, targetRel), showPath(targetRel), base, "the project "+shown
	labelRel := filepath.ToSlash(targetRel)
	if opts.user {
		scopeName = "your home directory"
	}
	if opts.out != "" {
		targetPath = filepath.Join(opts.out, migrate.PluginHooks)
		targetShown, scopeDir, scopeName = targetPath, opts.out, "--out "+opts.out
		labelRel = filepath.ToSlash(migrate.PluginHooks)
	}
	real, err := inScope(targetPath, targetShown, scopeDir, scopeName, opts.allowOutside)
	if err != nil {
		return err
	}

	hookx := opts.hookx
	var hookxWarning string
	if hookx == "" && !opts.noWrap {
		hookx, hookxWarning = hookxCommand()
		if hookxWarning == "" && filepath.IsAbs(hookx) && !opts.user {
			hookxWarning = "hookx is not on PATH, so the entries call it by its absolute path on this machine, " + hookx +
				", which is now in a project file; on another machine that path may not exist (hookx migrate --check there still counts the entries up to date)"
		}
	}
	planOpts := migrate.Options{
		Table: tbl, From: fromName, To: toName,
		Wrap: !opts.noWrap, Hookx: hookx, PluginRoot: pluginRoot,
		PluginOut: opts.out != "", Prune: opts.prune,
		// Where hookx lives on this machine does not make a project stale.
		AnyHookxPath: opts.check,
	}
	if !opts.user && opts.out == "" {
		planOpts.Project, _ = filepath.Abs(base)
	}

	// Plan, then write only over what was planned from: a target edited
	// during the run is planned again, at most three times.
	for attempt := 1; ; attempt++ {
		targetData, err := readSettings(targetPath, targetShown)
		if err != nil {
			return err
		}
		res, err := migrate.Plan(planOpts, sources, migrate.Source{Path: targetShown, Data: targetData})
		var inErr *migrate.InputError
		switch {
		case errors.As(err, &inErr):
			return withCode(exitBadInput, err)
		case err != nil:
			return withCode(exitInternal, err)
		}
		res.RealTarget = real
		if hookxWarning != "" && len(res.Entries) > 0 {
			res.Items = append(res.Items, migrate.Item{Level: migrate.Warning, What: "hookx location", Reason: hookxWarning,
				Fix: "go install ./cmd/hookx (or put hookx on PATH) and migrate again; the entries are updated in place"})
		}

		fromLabel, toLabel := "a/"+labelRel, "b/"+labelRel
		if res.Created {
			fromLabel = "/dev/null"
		}
		diff := ""
		if res.Changed() {
			diff = migrate.UnifiedDiff(fromLabel, toLabel, res.Before, res.After)
		}
		// A converted plugin needs a manifest of the target's kind.
		var manifestPath string
		var manifest []byte
		if opts.out != "" {
			rel, _ := migrate.PluginManifest(to)
			manifestPath = filepath.Join(opts.out, rel)
			if _, err := os.Lstat(manifestPath); errors.Is(err, fs.ErrNotExist) {
				srcRel, _ := migrate.PluginManifest(from)
				src, _ := os.ReadFile(filepath.Join(opts.plugin, srcRel))
				manifest = migrate.NewManifest(from, src, pluginRoot)
				// Like the hooks file, it must stay inside --out.
				if _, err := inScope(manifestPath, manifestPath, opts.out, scopeName, opts.allowOutside); err != nil {
					return err
				}
				diff += migrate.UnifiedDiff("/dev/null", "b/"+filepath.ToSlash(rel), nil, manifest)
			}
		}
		// And the plugin's other files: its scripts.
		var files []migrate.PluginFile
		if opts.out != "" {
			all, err := migrate.PluginFiles(opts.plugin, opts.out, from)
			if err != nil {
				return withCode(exitInternal, err)
			}
			for _, f := range all {
				switch {
				case f.Conflict:
					res.Items = append(res.Items, migrate.Item{Level: migrate.Warning, Source: filepath.Join(opts.out, f.Rel),
						What: "left alone", Reason: "the plugin's " + f.Rel + " differs from this file, which hookx does not replace",
						Fix: "copy it over by hand if the converted hooks need the plugin's version"})
				case f.Missing:
					// A directory of --out that resolves elsewhere must not
					// carry the copy out of it.
					to := filepath.Join(opts.out, f.Rel)
					if _, err := inScope(to, to, opts.out, scopeName, opts.allowOutside); err != nil {
						return err
					}
					files = append(files, f)
				}
			}
		}
		changed := res.Changed() || manifest != nil || len(files) > 0

		notCarried, weakened := res.Count(migrate.NotCarried), res.Count(migrate.Weakened)
		refused := opts.strict && notCarried+weakened > 0
		write := !opts.dryRun && !opts.check && !refused && changed

		if write {
			if opts.beforeWrite != nil {
				opts.beforeWrite()
			}
			err := migrate.WriteFile(targetPath, res.Before, res.After)
			if errors.Is(err, migrate.ErrChanged) && attempt < 3 {
				continue
			}
			if err == nil && manifest != nil {
				err = migrate.WriteFile(manifestPath, nil, manifest)
			}
			for _, f := range files {
				if err == nil {
					err = migrate.CopyPluginFile(opts.plugin, opts.out, f.Rel)
				}
			}
			if err != nil {
				if errors.Is(err, migrate.ErrReadOnly) {
					err = fmt.Errorf("%s: %w", targetShown, errors.Unwrap(err))
				}
				if errors.Is(err, migrate.ErrChanged) {
					err = fmt.Errorf("%s changed while hookx was writing it, %d times; run migrate again when it is quiet", targetShown, attempt)
				}
				printReport(opts, res, diff, false)
				return withCode(exitInternal, fmt.Errorf("nothing written: %w", err))
			}
		}
		printReport(opts, res, diff, write)
		if !opts.json {
			verb := "Would copy"
			if write {
				verb = "Copied"
				if manifest != nil {
					fmt.Fprintf(opts.s.Err, "Wrote %s (new manifest).\n", manifestPath)
				}
			}
			for _, f := range files {
				fmt.Fprintf(opts.s.Err, "%s %s from the plugin.\n", verb, filepath.Join(opts.out, f.Rel))
			}
		}

		switch {
		case refused:
			return withCode(exitChanges, fmt.Errorf("--strict: %d item(s) cannot be carried to %s and %d would weaken a guard; nothing written", notCarried, to.Agent, weakened))
		case opts.check && changed:
			return withCode(exitChanges, fmt.Errorf("%s is not up to date; run hookx migrate without --check", targetShown))
		}
		return nil
	}
}

// findProject is the directory migrate works on when --dir is not given:
// the nearest of dir and its parents that holds the source agent's settings
// (settings, e.g. ".claude/settings.json"), not above the repository root
// (a directory with .git); dir itself when none does. So migrate run from a
// subdirectory finds the project's .claude, as the agents do.
func findProject(dir, settings string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, filepath.FromSlash(settings))); err == nil {
			if d == abs {
				return dir
			}
			return d
		}
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// inScope returns the real path of the target, refusing (exit 2) one that
// resolves outside dir unless allow names that real path.
func inScope(target, shown, dir, dirName, allow string) (string, error) {
	real, err := migrate.RealPath(target)
	if errors.Is(err, syscall.ENOTDIR) {
		return "", withCode(exitBadInput, fmt.Errorf("%s: a parent of it is a file, not a directory", shown))
	}
	if err != nil {
		return "", withCode(exitInternal, err)
	}
	root, err := migrate.RealPath(dir)
	if err != nil {
		return "", withCode(exitInternal, err)
	}
	if r, err := filepath.Rel(root, real); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return real, nil
	}
	if allow != "" {
		if a, err := migrate.RealPath(allow); err == nil && a == real {
			return real, nil
		}
	}
	return "", withCode(exitBadInput, fmt.Errorf("%s resolves to %s, outside %s; nothing written (pass --allow-outside %s to write there)", shown, real, dirName, real))
}

// readSettings reads a settings file; a missing file gives nil, nil.
func readSettings(path, shown string) ([]byte, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, syscall.ENOTDIR) {
		// A file where a directory should be: .gemini or .claude itself.
		return nil, withCode(exitBadInput, fmt.Errorf("%s: a parent of it is a file, not a directory", shown))
	}
	if err != nil {
		return nil, withCode(exitInternal, err)
	}
	if fi.IsDir() {
		return nil, withCode(exitBadInput, fmt.Errorf("%s: is a directory, not a settings file", shown))
	}
	if fi.Size() > migrate.MaxFileSize {
		// Refused before reading it into memory.
		return nil, withCode(exitBadInput, fmt.Errorf("%s: is larger than %d MiB; no agent's settings file is this large", shown, migrate.MaxFileSize>>20))
	}
	data, err := safefile.ReadRegular(path, migrate.MaxFileSize)
	if errors.Is(err, safefile.ErrRefused) {
		return nil, withCode(exitBadInput, fmt.Errorf("%s: %w", shown, err))
	}
	if err != nil {
		return nil, withCode(exitInternal, err)
	}
	return data, nil
}

// hookxCommand returns how a host should invoke this binary: "hookx" when
// PATH finds this very executable, else its absolute path (symlinks
// resolved). The warning is set when the binary is a temporary build.
func hookxCommand() (cmd, warning string) {
	exe, err := os.Executable()
	if err != nil {
		return "hookx", "cannot locate the running hookx; the entries call plain hookx"
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	if lp, err := exec.LookPath("hookx"); err == nil {
		if a, err := filepath.Abs(lp); err == nil {
			if r, err := filepath.EvalSymlinks(a); err == nil {
				fa, errA := os.Stat(r)
				fb, errB := os.Stat(exe)
				if errA == nil && errB == nil && os.SameFile(fa, fb) {
					return "hookx", ""
				}
			}
		}
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		// A go run build is deleted on exit: name hookx and say so.
		return "hookx", "hookx runs from a temporary go run build and is not on PATH; the entries call plain hookx, which the host must find on its PATH"
	}
	return exe, ""
}

// migrateJSON is the --json output.
type migrateJSON struct {
	*migrate.Result
	Changed bool   `json:"changed"`
	Written bool   `json:"written"`
	Diff    string `json:"diff"`
}

func printReport(opts *migrateOptions, res *migrate.Result, diff string, written bool) {
	if opts.json {
		enc := json.NewEncoder(opts.s.Out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if res.Entries == nil {
			res.Entries = []migrate.Entry{}
		}
		if res.Items == nil {
			res.Items = []migrate.Item{}
		}
		_ = enc.Encode(migrateJSON{Result: res, Changed: res.Changed(), Written: written, Diff: diff})
		return
	}
	if opts.quiet {
		return // the exit code says it; errors still go to stderr
	}
	if opts.color {
		io.WriteString(opts.s.Out, migrate.Colorize(diff))
	} else {
		io.WriteString(opts.s.Out, diff)
	}
	if diff == "" && !opts.verbose {
		// Up to date: one line, like gofmt -l printing nothing.
		io.WriteString(opts.s.Err, migrate.FormatUpToDate(res))
		return
	}
	io.WriteString(opts.s.Err, migrate.FormatReport(res, written, opts.dryRun || opts.check))
}
