package main

import (
	"bytes"
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

	"github.com/hookx-dev/hookx/internal/findings"
	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
	failClosed     bool
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

	// config is the project's .hookx.jsonc, if it has one; changed says
	// which flags were given (they override it).
	config  *migrate.Config
	changed map[string]bool
	// init: write a .hookx.jsonc from what the project has.
	init bool
}

// migrateAliases are the flags kept from when hookx knew two agents: each
// names a pair, and --from alone with the pair's source means that pair.
var migrateAliases = []struct{ flag, from, to string }{
	{"from-claude", "claude", "gemini"},
	{"from-gemini", "gemini", "claude"},
}

// dialects returns the source and target dialect names from --from/--to,
// an alias flag (the spellings may be mixed when they agree) or the
// project config. --to takes a list (codex,copilot,qwen) or "all", which
// is returned as is (migrateRun finds the dialects it stands for). Any two
// dialects of the table make a pair; --to may be left out only where an
// alias names the pair.
func (o *migrateOptions) dialects() (from string, to []string, err error) {
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
	} else if len(froms) == 0 && o.config != nil && o.config.From != "" {
		froms[o.config.From] = true
	}
	var list []string // --to's names, in order
	if o.to != "" {
		for _, n := range strings.Split(o.to, ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				return "", nil, fmt.Errorf("migrate: --to %q: an empty name in the list", o.to)
			}
			if slices.Contains(list, n) {
				return "", nil, fmt.Errorf("migrate: --to names %s twice", n)
			}
			list = append(list, n)
		}
	} else if len(tos) == 0 && o.config != nil {
		list = o.config.To
	}
	if len(froms) != 1 {
		return "", nil, fmt.Errorf("migrate: give exactly one source: --from %s --to %s (or --from-claude, --from-gemini)", strings.Join(names, "|"), strings.Join(names, "|"))
	}
	for n := range froms {
		from = n
	}
	if _, err := tbl.Dialect(from); err != nil {
		return "", nil, fmt.Errorf("migrate: --from: %w", err)
	}
	if len(list) > 0 && len(tos) > 0 && (len(list) > 1 || !tos[list[0]]) {
		for _, n := range list {
			tos[n] = true
		}
	}
	if len(tos) > 1 {
		return "", nil, fmt.Errorf("migrate: the flags name different targets (%s)", strings.Join(slices.Sorted(maps.Keys(tos)), ", "))
	}
	if len(list) == 0 {
		for n := range tos {
			list = []string{n}
		}
	}
	if len(list) == 0 {
		for _, a := range migrateAliases {
			if a.from == from {
				list = []string{a.to}
			}
		}
	}
	if len(list) == 0 {
		return "", nil, fmt.Errorf("migrate: --from %s: name the target with --to (one of %s, a list of them, or all)", from, strings.Join(slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == from }), ", "))
	}
	if slices.Contains(list, "all") {
		if len(list) > 1 {
			return "", nil, errors.New("migrate: --to all stands alone; it cannot be listed with other targets")
		}
		return from, list, nil
	}
	for _, n := range list {
		if _, err := tbl.Dialect(n); err != nil {
			return "", nil, fmt.Errorf("migrate: --to: %w", err)
		}
		if n == from {
			return "", nil, fmt.Errorf("migrate: --from and --to both name %s; hookx migrates between two agents", from)
		}
	}
	return from, list, nil
}

// targetOptions returns the options for one target: a flag given on the
// command line, else the project config's value for the target, else the
// default.
func (o *migrateOptions) targetOptions(to string) (wrap, strict, prune, failClosed bool) {
	wrap, strict, prune, failClosed = !o.noWrap, o.strict, o.prune, o.failClosed
	if o.config == nil {
		return
	}
	c := o.config.For(to)
	if c.FailClosed != nil && !o.changed["fail-closed"] {
		failClosed = *c.FailClosed
	}
	if c.Wrap != nil && !o.changed["no-wrap"] {
		wrap = *c.Wrap
	}
	if c.Strict != nil && !o.changed["strict"] {
		strict = *c.Strict
	}
	if c.Prune != nil && !o.changed["prune"] {
		prune = *c.Prune
	}
	return
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
left out for the same pair. --to takes a list (--to codex,copilot,qwen) or
all (every dialect whose settings the project has, and those the config
names): every target is planned before any is written, and bad input in one,
or --strict refusing one, writes none.

A project config, ` + migrate.ConfigName + ` (JSONC) at the project's root, names
the source and the targets, so that a team runs plain "hookx migrate" (and
"hookx migrate --check" in CI): {"from": "claude", "to": ["codex", "qwen"],
"plugin": "DIR", "wrap": true, "failClosed": false, "strict": false, "prune":
false, "targets": {"qwen": {"failClosed": true}}}; flags override it. --init writes one from the
settings the project has, and never overwrites one. --check prints nothing
when every target is up to date, else one line per target that is stale,
missing or has an entry hookx owns edited by hand, and exits 1.

--from reads the source agent's project settings (several files merged as
that agent merges them) and --to edits the target's:

` + settingsFiles() + `
With --user, the files under your home directory are used instead; user
hooks never go into a project file.

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

  # A team: one source, several targets, named once in .hookx.jsonc
  hookx migrate --from claude --to codex,copilot,qwen
  hookx migrate --init && hookx migrate && hookx migrate --check

  # The other way, and the user-level settings
  hookx migrate --from gemini --to claude
  hookx migrate --from claude --user

  # Convert a Claude Code plugin into a Gemini CLI extension
  hookx migrate --from claude --plugin ./my-plugin --out ./my-extension`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			opts.changed = map[string]bool{}
			c.Flags().Visit(func(f *pflag.Flag) { opts.changed[f.Name] = true })
			if opts.quiet && opts.verbose {
				return withCode(exitBadInput, errors.New("migrate: --quiet and --verbose cannot be combined"))
			}
			if opts.user && c.Flags().Changed("dir") {
				return withCode(exitBadInput, errors.New("migrate: --user migrates the settings in your home directory; it cannot be combined with --dir"))
			}
			if opts.init {
				if opts.user || opts.out != "" || opts.plugin != "" || opts.dryRun || opts.check || opts.to != "" {
					return withCode(exitBadInput, errors.New("migrate: --init writes the project's "+migrate.ConfigName+"; it takes only --dir and --from"))
				}
				if runF != nil {
					return runF(opts)
				}
				return migrateInit(opts)
			}
			// The project config: in --dir, or found as the source is,
			// from here up to the repository root.
			if !opts.user && opts.out == "" {
				if !c.Flags().Changed("dir") {
					if d := findProject(".", migrate.ConfigName); fileExists(filepath.Join(d, migrate.ConfigName)) {
						opts.dir = d
					}
				}
				cfg, err := loadConfig(opts.dir)
				if err != nil {
					return err
				}
				opts.config = cfg
				if cfg != nil && cfg.Plugin != "" && opts.plugin == "" {
					if opts.plugin, err = configPlugin(opts.dir, cfg.Plugin); err != nil {
						return err
					}
				}
			}
			if _, _, err := opts.dialects(); err != nil {
				return withCode(exitBadInput, err)
			}
			if !opts.user && opts.out == "" && !c.Flags().Changed("dir") && opts.config == nil {
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
	f.StringVar(&opts.to, "to", "", "the `dialect`s to migrate to: one, a list (codex,copilot,qwen) or all (every dialect whose settings the project has, and the config's); optional only with --from "+aliasSources()+" or a "+migrate.ConfigName)
	f.StringVar(&opts.out, "out", "", "convert the --plugin into a plugin or extension of the target in this `directory`")
	f.StringVar(&opts.allowOutside, "allow-outside", "", "write the target even though it resolves to this real `path`, outside the project (or ~, or --out)")
	f.BoolVar(&opts.prune, "prune", false, "also remove hookx entries whose source (a plugin, say) this run did not read")
	f.StringVar(&opts.dir, "dir", ".", "the project `directory`")
	f.BoolVar(&opts.user, "user", false, "migrate the user settings (~/.claude ⇄ ~/.gemini) instead of the project's")
	f.StringVar(&opts.plugin, "plugin", "", "also migrate the hooks/hooks.json of this plugin (or, --from gemini, extension) `directory`")
	f.BoolVar(&opts.dryRun, "dry-run", false, "print the diff and the report, write nothing")
	f.BoolVar(&opts.check, "check", false, "write nothing; print nothing when every target is up to date, else one line per target that is not, and exit 1 (for CI)")
	f.BoolVar(&opts.init, "init", false, "write the project config "+migrate.ConfigName+" from the settings the project has (the source: the dialect with hooks, or --from; the targets: the others); never overwrites one")
	f.BoolVar(&opts.failClosed, "fail-closed", false, "every guard's hookx wrap blocks when the hook errors or times out (hookx wrap --fail-closed), whatever its source says")
	f.BoolVar(&opts.noWrap, "no-wrap", false, "copy the commands as they are, for hooks that already speak the target's protocol")
	f.BoolVar(&opts.strict, "strict", false, "exit 1 without writing if any hook or part of one cannot be carried, or a guard would be weakened")
	f.BoolVar(&opts.json, "json", false, "print the report and the planned changes as JSON")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "print nothing but errors; the exit code tells (with --check: 1 when stale)")
	f.BoolVarP(&opts.verbose, "verbose", "v", false, "print the full report even when the target is up to date")
	f.StringVar(&opts.hookx, "hookx-path", "", "how migrated entries invoke hookx (default: hookx if it is on PATH, else this binary's path)")
	_ = f.MarkHidden("hookx-path")
	return cmd
}

// targetRun is the plan for one target of a run, made before anything is
// written.
type targetRun struct {
	to                      *mappings.Dialect
	targetPath, targetShown string
	res                     *migrate.Result
	diff                    string
	manifestPath            string
	manifest                []byte
	// pluginPath is a plugin host's generated plugin (Pi's extension),
	// written when plugin differs from pluginBefore.
	pluginPath, pluginShown string
	pluginBefore, plugin    []byte
	files                   []migrate.PluginFile
	dispatchers             []migrate.HookFile
	changed, refused        bool
	strict                  bool
}

// migrateRun migrates the source into each target. Every target is
// planned before any is written: bad input for one (exit 2), or --strict
// refusing one, leaves every target as it was.
func migrateRun(opts *migrateOptions) error {
	tbl := mappings.Default()
	fromName, toNames, err := opts.dialects()
	if err != nil {
		return withCode(exitBadInput, err)
	}
	from, err := tbl.Dialect(fromName)
	if err != nil {
		return withCode(exitInternal, err)
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
	if slices.Contains(toNames, "all") {
		toNames = opts.allTargets(tbl, from, base)
		if len(toNames) == 0 {
			return withCode(exitBadInput, fmt.Errorf("migrate: --to all: %s has no settings of another agent, and no %s names one; name the targets with --to", shown, migrate.ConfigName))
		}
	}
	if len(toNames) > 1 && opts.out != "" {
		return withCode(exitBadInput, fmt.Errorf("migrate: --out converts a plugin into one target; --to names %d", len(toNames)))
	}
	for _, toName := range toNames {
		to := tbl.MustDialect(toName)
		if _, what := migrate.PluginManifest(to); opts.out != "" && what == "" {
			return withCode(exitBadInput, fmt.Errorf("--out: hookx knows no plugin format of %s to convert into", to.Agent))
		}
	}
	rel := func(setting string) string { return filepath.FromSlash(strings.TrimPrefix(setting, "~/")) }
	showPath := func(r string) string { return filepath.Join(shown, r) }
	if shown == "~" {
		showPath = func(r string) string { return "~/" + filepath.ToSlash(r) }
	}

	sources, looked, err := readSources(opts, from, base, showPath)
	if err != nil {
		return err
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

	hookx := opts.hookx
	var hookxWarning string
	if hookx == "" {
		hookx, hookxWarning = hookxCommand()
		if hookxWarning == "" && filepath.IsAbs(hookx) && !opts.user {
			hookxWarning = "hookx is not on PATH, so the entries call it by its absolute path on this machine, " + hookx +
				", which is now in a project file; on another machine that path may not exist (hookx migrate --check there still counts the entries up to date)"
		}
	}

	// plan makes the plan for one target from what is on disk now.
	plan := func(to *mappings.Dialect) (*targetRun, error) {
		t := &targetRun{to: to}
		wrap, strict, prune, failClosed := opts.targetOptions(to.Name)
		t.strict = strict
		if failClosed && !wrap {
			return nil, withCode(exitBadInput, fmt.Errorf("migrate: %s: --fail-closed needs hookx wrap, and the commands are copied as they are (--no-wrap, or \"wrap\": false in %s)", to.Name, migrate.ConfigName))
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
		t.targetPath, t.targetShown = targetPath, targetShown
		real, err := inScope(targetPath, targetShown, scopeDir, scopeName, opts.allowOutside)
		if err != nil {
			return nil, err
		}
		planOpts := migrate.Options{
			Table: tbl, From: fromName, To: to.Name,
			Wrap: wrap, Hookx: hookx, PluginRoot: pluginRoot,
			PluginOut: opts.out != "", Prune: prune, FailClosed: failClosed,
			// Where hookx lives on this machine does not make a project stale.
			AnyHookxPath: opts.check,
			Version:      stampVersion(),
		}
		if !wrap && opts.hookx == "" {
			planOpts.Hookx = "" // as before: --no-wrap names no hookx
		}
		if !opts.user && opts.out == "" {
			planOpts.Project, _ = filepath.Abs(base)
		}
		targetData, err := readSettings(targetPath, targetShown)
		if err != nil {
			return nil, err
		}
		res, err := migrate.Plan(planOpts, sources, migrate.Source{Path: targetShown, Data: targetData})
		var inErr *migrate.InputError
		switch {
		case errors.As(err, &inErr):
			return nil, withCode(exitBadInput, err)
		case err != nil:
			return nil, withCode(exitInternal, err)
		}
		res.RealTarget = real
		if hookxWarning != "" && wrap && len(res.Entries) > 0 {
			res.Items = append(res.Items, migrate.Item{Level: migrate.Warning, What: "hookx location", Reason: hookxWarning,
				Fix: "go install ./cmd/hookx (or put hookx on PATH) and migrate again; the entries are updated in place"})
		}
		t.res = res

		fromLabel, toLabel := "a/"+labelRel, "b/"+labelRel
		if res.Created {
			fromLabel = "/dev/null"
		}
		if res.Changed() {
			t.diff = migrate.UnifiedDiff(fromLabel, toLabel, res.Before, res.After)
		}
		// A plugin host needs its plugin beside the hooks file, owned by
		// hookx and updated in place like it.
		if res.Plugin != nil {
			rel := filepath.FromSlash(res.Plugin.Path)
			t.pluginPath, t.pluginShown = filepath.Join(base, rel), showPath(rel)
			if _, err := inScope(t.pluginPath, t.pluginShown, scopeDir, scopeName, opts.allowOutside); err != nil {
				return nil, err
			}
			if t.pluginBefore, err = readSettings(t.pluginPath, t.pluginShown); err != nil {
				return nil, err
			}
			if !bytes.Equal(t.pluginBefore, res.Plugin.Data) {
				t.plugin = res.Plugin.Data
				from := "a/" + filepath.ToSlash(rel)
				if t.pluginBefore == nil {
					from = "/dev/null"
				}
				t.diff += migrate.UnifiedDiff(from, "b/"+filepath.ToSlash(rel), t.pluginBefore, t.plugin)
			}
		}
		// A converted plugin needs a manifest of the target's kind.
		if opts.out != "" {
			rel, _ := migrate.PluginManifest(to)
			t.manifestPath = filepath.Join(opts.out, rel)
			if _, err := os.Lstat(t.manifestPath); errors.Is(err, fs.ErrNotExist) {
				srcRel, _ := migrate.PluginManifest(from)
				src, _ := os.ReadFile(filepath.Join(opts.plugin, srcRel))
				t.manifest = migrate.NewManifest(from, src, pluginRoot)
				// Like the hooks file, it must stay inside --out.
				if _, err := inScope(t.manifestPath, t.manifestPath, opts.out, scopeName, opts.allowOutside); err != nil {
					return nil, err
				}
				t.diff += migrate.UnifiedDiff("/dev/null", "b/"+filepath.ToSlash(rel), nil, t.manifest)
			}
			// And the plugin's other files: its scripts.
			all, err := migrate.PluginFiles(opts.plugin, opts.out, from)
			if err != nil {
				return nil, withCode(exitInternal, err)
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
						return nil, err
					}
					t.files = append(t.files, f)
				}
			}
		}
		// An agent that runs one file per event (Cline) gets a dispatcher
		// per event beside the entries file.
		if to.Settings.HookFiles {
			hfs, err := migrate.HookFiles(to, res, migrate.HostQuote(hookx), stampVersion(), opts.check)
			if err != nil {
				return nil, withCode(exitInternal, err)
			}
			for _, hf := range hfs {
				p := filepath.Join(filepath.Dir(targetPath), hf.Name)
				shownP := filepath.Join(filepath.Dir(targetShown), hf.Name)
				if _, err := inScope(p, shownP, scopeDir, scopeName, opts.allowOutside); err != nil {
					return nil, err
				}
				hf.Path, hf.Shown = p, shownP
				from := "a/" + path.Join(path.Dir(labelRel), hf.Name)
				if hf.Before == nil {
					from = "/dev/null"
				}
				t.diff += migrate.UnifiedDiff(from, "b/"+path.Join(path.Dir(labelRel), hf.Name), hf.Before, hf.After)
				t.dispatchers = append(t.dispatchers, hf)
			}
		}
		t.changed = res.Changed() || t.manifest != nil || len(t.files) > 0 || len(t.dispatchers) > 0 || t.plugin != nil
		t.refused = strict && res.Count(migrate.NotCarried)+res.Count(migrate.Weakened) > 0
		return t, nil
	}

	// Plan every target before writing any.
	var runs []*targetRun
	for _, toName := range toNames {
		t, err := plan(tbl.MustDialect(toName))
		if err != nil {
			if len(toNames) > 1 {
				err = fmt.Errorf("%w (nothing written for any target)", err)
			}
			return err
		}
		runs = append(runs, t)
	}
	var refused []string
	for _, t := range runs {
		if t.refused {
			refused = append(refused, t.to.Name)
		}
	}
	write := !opts.dryRun && !opts.check && len(refused) == 0
	if opts.check && !opts.json && !opts.verbose {
		return checkLines(opts, runs)
	}

	// A read-only target (WriteFile refuses it) is known now: with
	// several targets, none is written rather than some.
	if write && len(runs) > 1 {
		for _, t := range runs {
			if fi, err := os.Stat(t.res.RealTarget); t.changed && err == nil && fi.Mode().Perm()&0o200 == 0 {
				return withCode(exitInternal, fmt.Errorf("nothing written for any target: %s: %w (mode %v); make it writable to migrate into it", t.targetShown, migrate.ErrReadOnly, fi.Mode().Perm()))
			}
		}
	}

	// Write each changed target over what it was planned from: a target
	// edited during the run is planned again, at most three times.
	reports := []migrate.TargetJSON{}
	all := []findings.Finding{}
	written := map[*targetRun]bool{}
	var writeErr error
	for i, t := range runs {
		if !write || !t.changed || writeErr != nil {
			continue
		}
		for attempt := 1; ; attempt++ {
			if opts.beforeWrite != nil {
				opts.beforeWrite()
			}
			err := migrate.WriteFile(t.targetPath, t.res.Before, t.res.After)
			if errors.Is(err, migrate.ErrChanged) && attempt < 3 {
				if t, err = plan(t.to); err != nil {
					writeErr = err
					break
				}
				runs[i] = t
				if !t.changed {
					break
				}
				continue
			}
			if err == nil && t.manifest != nil {
				err = migrate.WriteFile(t.manifestPath, nil, t.manifest)
			}
			if err == nil && t.plugin != nil {
				err = migrate.WriteFile(t.pluginPath, t.pluginBefore, t.plugin)
			}
			for _, f := range t.files {
				if err == nil {
					err = migrate.CopyPluginFile(opts.plugin, opts.out, f.Rel)
				}
			}
			for _, hf := range t.dispatchers {
				if err == nil {
					err = migrate.WriteExecutable(hf.Path, hf.Before, hf.After)
				}
			}
			if err != nil {
				if errors.Is(err, migrate.ErrReadOnly) {
					err = fmt.Errorf("%s: %w", t.targetShown, errors.Unwrap(err))
				}
				if errors.Is(err, migrate.ErrChanged) {
					err = fmt.Errorf("%s changed while hookx was writing it, %d times; run migrate again when it is quiet", t.targetShown, attempt)
				}
				writeErr = withCode(exitInternal, fmt.Errorf("nothing written: %w", err))
				if n := len(written); n > 0 {
					var done []string
					for _, w := range runs {
						if written[w] {
							done = append(done, w.targetShown)
						}
					}
					writeErr = withCode(exitInternal, fmt.Errorf("%s: nothing written there (%s written before it): %w", t.targetShown, strings.Join(done, ", "), err))
				}
			} else {
				written[t] = true
			}
			break
		}
	}
	for _, t := range runs {
		if fs, r := printReport(opts, t.res, t.diff, written[t]); r != nil {
			all = append(all, fs...)
			reports = append(reports, *r)
		}
		if !opts.json {
			verb := "Would copy"
			if written[t] {
				verb = "Copied"
				if t.manifest != nil {
					fmt.Fprintf(opts.s.Err, "Wrote %s (new manifest).\n", t.manifestPath)
				}
				if t.plugin != nil {
					fmt.Fprintf(opts.s.Err, "Wrote %s (the %s plugin hookx generates; it runs the hooks of %s).\n", t.pluginShown, t.to.Agent, t.targetShown)
				}
			}
			for _, f := range t.files {
				fmt.Fprintf(opts.s.Err, "%s %s from the plugin.\n", verb, filepath.Join(opts.out, f.Rel))
			}
			for _, hf := range t.dispatchers {
				if opts.quiet {
					break
				}
				v := "Would write"
				if written[t] {
					v = "Wrote"
				}
				fmt.Fprintf(opts.s.Err, "%s %s (the %s dispatcher, executable).\n", v, hf.Shown, hf.Event)
			}
		}
	}
	if opts.json {
		doc := findings.New("migrate", all)
		doc.Migrate = migrateJSON{Targets: reports}
		_ = doc.Write(opts.s.Out)
	}
	if writeErr != nil {
		return writeErr
	}

	stale := 0
	for _, t := range runs {
		if t.changed {
			stale++
		}
	}
	switch {
	case len(refused) > 0:
		notCarried, weakened := 0, 0
		for _, t := range runs {
			if t.strict {
				notCarried += t.res.Count(migrate.NotCarried)
				weakened += t.res.Count(migrate.Weakened)
			}
		}
		into := tbl.MustDialect(refused[0]).Agent
		if len(refused) > 1 {
			into = strings.Join(refused, ", ")
		}
		nothing := "nothing written"
		if len(runs) > 1 {
			nothing = "nothing written for any target"
		}
		return withCode(exitChanges, fmt.Errorf("--strict: %d item(s) cannot be carried to %s and %d would weaken a guard; %s", notCarried, into, weakened, nothing))
	case opts.check && stale > 0:
		if len(runs) == 1 {
			return withCode(exitChanges, fmt.Errorf("%s is not up to date; run hookx migrate without --check", runs[0].targetShown))
		}
		return withCode(exitChanges, fmt.Errorf("%d of %d targets are not up to date; run hookx migrate without --check", stale, len(runs)))
	}
	return nil
}

// checkLines is --check's output: nothing when every target is up to
// date, else one line per target that is not, saying why, and exit 1.
func checkLines(opts *migrateOptions, runs []*targetRun) error {
	stale := 0
	for _, t := range runs {
		if !t.changed {
			// Silent, but a guard that is not carried is never left unsaid.
			if !opts.quiet && slices.ContainsFunc(t.res.Items, migrate.Item.GuardLost) {
				io.WriteString(opts.s.Err, migrate.FormatUpToDate(t.res))
			}
			continue
		}
		stale++
		if !opts.quiet {
			fmt.Fprintf(opts.s.Err, "hookx migrate --check: %s: %s\n", t.targetShown, staleReason(t))
		}
	}
	if stale > 0 {
		return silentExit(exitChanges)
	}
	return nil
}

// staleReason says in a few words why a target is not up to date: it is
// missing, an entry hookx owns was edited (its source handler is the same,
// its text is not), or the source changed.
func staleReason(t *targetRun) string {
	res := t.res
	if res.Created {
		return fmt.Sprintf("missing (%d entr%s to add); run hookx migrate", len(res.Entries), pluralY(len(res.Entries)))
	}
	counts := map[string]int{}
	for _, e := range res.Entries {
		counts[e.Change]++
		// The id names the source handler (its hash): the same id in the
		// target with other content means the entry was edited there.
		if e.Change == "update" && bytes.Contains(res.Before, []byte(e.ID+`"`)) {
			return fmt.Sprintf("owned entry %s (%s) was edited (by hand, or by another hookx version): its source did not change; hookx migrate would replace it (edit the source instead)", e.ID, e.Event)
		}
	}
	var parts []string
	for _, c := range []struct{ key, word string }{{"add", "to add"}, {"update", "to update"}} {
		if n := counts[c.key]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, c.word))
		}
	}
	if n := len(res.Removed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d to remove", n))
	}
	if len(parts) == 0 {
		parts = append(parts, "its file would change")
	}
	return "stale (" + strings.Join(parts, ", ") + "); run hookx migrate"
}

// pluralY is "y" for one, "ies" otherwise (entry, entries).
func pluralY(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}

// allTargets is --to all: every dialect but the source whose project
// settings exist under base, and those the project config names.
func (o *migrateOptions) allTargets(tbl *mappings.Table, from *mappings.Dialect, base string) []string {
	var out []string
	for _, name := range tbl.DialectNames() {
		if name == from.Name {
			continue
		}
		st := tbl.MustDialect(name).Settings
		file := st.Project
		if o.user {
			file = st.User
		}
		has := func(p string) bool {
			_, err := os.Stat(filepath.Join(base, filepath.FromSlash(strings.TrimPrefix(p, "~/"))))
			return err == nil
		}
		found := file != "" && has(file)
		if g := st.ProjectGlob; !o.user && g != "" {
			m, _ := filepath.Glob(filepath.Join(base, filepath.FromSlash(g)))
			found = found || len(m) > 0
		}
		if o.config != nil && slices.Contains(o.config.To, name) {
			found = true
		}
		if found {
			out = append(out, name)
		}
	}
	return out
}

// readSources reads the source dialect's settings files under base (the
// project's, or the user's with --user; none when converting a plugin).
func readSources(opts *migrateOptions, from *mappings.Dialect, base string, showPath func(string) string) (sources []migrate.Source, looked []string, err error) {
	rel := func(setting string) string { return filepath.FromSlash(strings.TrimPrefix(setting, "~/")) }
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
	for _, n := range names {
		data, err := readSettings(filepath.Join(base, n), showPath(n))
		if err != nil {
			return nil, nil, err
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
	return sources, looked, nil
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

// printReport prints one target's diff and report; with --json it prints
// nothing and returns the target's findings and JSON object instead (a run
// of several targets prints them as one document).
func printReport(opts *migrateOptions, res *migrate.Result, diff string, written bool) ([]findings.Finding, *migrate.TargetJSON) {
	if opts.json {
		t := res.JSON(written, diff)
		return res.Findings(), &t
	}
	if opts.quiet {
		return nil, nil // the exit code says it; errors still go to stderr
	}
	if opts.color {
		io.WriteString(opts.s.Out, migrate.Colorize(diff))
	} else {
		io.WriteString(opts.s.Out, diff)
	}
	if diff == "" && !opts.verbose {
		// Up to date: one line, like gofmt -l printing nothing.
		io.WriteString(opts.s.Err, migrate.FormatUpToDate(res))
		return nil, nil
	}
	io.WriteString(opts.s.Err, migrate.FormatReport(res, written, opts.dryRun || opts.check))
	return nil, nil
}

// migrateJSON is migrate's extras in its --json document: one object per
// target, in the order of --to.
type migrateJSON struct {
	Targets []migrate.TargetJSON `json:"targets"`
}

// fileExists reports whether path names something (a symlink counts).
func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// loadConfig reads dir's .hookx.jsonc; none gives nil, nil. A config that
// does not parse, or has unknown keys or bad values, is bad input (exit 2)
// with the file and line.
func loadConfig(dir string) (*migrate.Config, error) {
	p := filepath.Join(dir, migrate.ConfigName)
	data, err := readSettings(p, p)
	if err != nil || data == nil {
		return nil, err
	}
	cfg, err := migrate.ParseConfig(p, data, mappings.Default())
	if err != nil {
		return nil, withCode(exitBadInput, err)
	}
	return cfg, nil
}

// configPlugin resolves the config's plugin directory against the project
// and refuses one that resolves outside it: a repository's config must not
// make migrate read, and write paths to, a directory elsewhere on this
// machine.
func configPlugin(dir, plugin string) (string, error) {
	where := filepath.Join(dir, migrate.ConfigName)
	if filepath.IsAbs(plugin) {
		return "", withCode(exitBadInput, fmt.Errorf("%s: \"plugin\": %q: give a directory inside the project, relative to the config (or pass --plugin)", where, plugin))
	}
	p := filepath.Join(dir, plugin)
	real, err := migrate.RealPath(p)
	if err != nil {
		return "", withCode(exitInternal, err)
	}
	root, err := migrate.RealPath(dir)
	if err != nil {
		return "", withCode(exitInternal, err)
	}
	if r, err := filepath.Rel(root, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", withCode(exitBadInput, fmt.Errorf("%s: \"plugin\": %q resolves to %s, outside the project; pass --plugin to read it", where, plugin, real))
	}
	return p, nil
}

// migrateInit writes a .hookx.jsonc naming the source (--from, or the one
// dialect whose settings hold hooks of their own) and the targets (every
// other dialect whose settings the project has). An existing config is
// never overwritten.
func migrateInit(opts *migrateOptions) error {
	tbl := mappings.Default()
	dir := opts.dir
	p := filepath.Join(dir, migrate.ConfigName)
	if fileExists(p) {
		return withCode(exitBadInput, fmt.Errorf("%s exists; hookx migrate --init never overwrites it (edit it, or remove it first)", p))
	}
	showPath := func(r string) string { return filepath.Join(dir, r) }
	// A dialect has hooks of its own when migrating it would write an
	// entry: hookx's own entries (written by an earlier migrate) do not
	// count.
	var present, withHooks []string
	for _, name := range tbl.DialectNames() {
		d := tbl.MustDialect(name)
		sources, _, err := readSources(&migrateOptions{}, d, dir, showPath)
		if err != nil {
			return err
		}
		if len(sources) == 0 {
			continue
		}
		present = append(present, name)
		other := "claude"
		if name == other {
			other = "gemini"
		}
		res, err := migrate.Plan(migrate.Options{Table: tbl, From: name, To: other, Wrap: true, Hookx: "hookx"}, sources, migrate.Source{Path: "-"})
		if err != nil {
			return withCode(exitBadInput, err)
		}
		if len(res.Entries) > 0 {
			withHooks = append(withHooks, name)
		}
	}
	from := opts.from
	switch {
	case from != "":
		if _, err := tbl.Dialect(from); err != nil {
			return withCode(exitBadInput, fmt.Errorf("migrate: --from: %w", err))
		}
	case len(withHooks) == 1:
		from = withHooks[0]
	case len(withHooks) == 0:
		return withCode(exitBadInput, fmt.Errorf("migrate --init: no agent's settings in %s hold hooks; name the source with --from", dir))
	default:
		return withCode(exitBadInput, fmt.Errorf("migrate --init: the settings of %s all hold hooks; name the one the team edits with --from", strings.Join(withHooks, ", ")))
	}
	to := slices.DeleteFunc(present, func(n string) bool { return n == from })
	if len(to) == 0 {
		return withCode(exitBadInput, fmt.Errorf("migrate --init: %s has no settings of another agent; create the targets' settings files (or write %s by hand with \"to\")", dir, migrate.ConfigName))
	}
	data := migrate.NewConfig(from, to)
	if _, err := migrate.ParseConfig(p, data, tbl); err != nil {
		return withCode(exitInternal, err) // what --init writes must read back
	}
	if err := migrate.WriteFile(p, nil, data); err != nil {
		return withCode(exitInternal, fmt.Errorf("%s: %w", p, err))
	}
	if !opts.quiet {
		fmt.Fprintf(opts.s.Err, "Wrote %s: from %s to %s. Run hookx migrate to write the targets, hookx migrate --check in CI.\n", p, from, strings.Join(to, ", "))
	}
	return nil
}
