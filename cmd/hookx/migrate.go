package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/spf13/cobra"
)

func init() {
	extraCommands = append(extraCommands, func(s streams) *cobra.Command { return newMigrateCmd(s, nil) })
}

type migrateOptions struct {
	s streams

	fromClaude, fromGemini bool
	dir                    string
	user                   bool
	plugin                 string
	dryRun, check          bool
	noWrap, strict         bool
	json                   bool

	// hookx is how the migrated entries call hookx; empty: found with
	// hookxCommand. Tests set it.
	hookx string
	// home replaces the user's home directory; empty: os.UserHomeDir.
	home string
	// color colours the diff (see colorOn).
	color bool
}

func newMigrateCmd(s streams, runF func(*migrateOptions) error) *cobra.Command {
	opts := &migrateOptions{s: s}
	cmd := &cobra.Command{
		Use:   "migrate (--from-claude | --from-gemini) [flags]",
		Short: "Migrate hook settings between Claude Code and Gemini CLI",
		Long: `migrate copies the hooks of one agent's settings into the other's.

--from-claude reads .claude/settings.json and .claude/settings.local.json
(merged as Claude Code merges them) and edits .gemini/settings.json;
--from-gemini reads .gemini/settings.json and edits .claude/settings.json.
With --user, the files under your home directory are used instead; user hooks
never go into a project file.

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
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if opts.fromClaude == opts.fromGemini {
				return withCode(exitBadInput, errors.New("migrate: give exactly one of --from-claude or --from-gemini"))
			}
			if opts.dryRun && opts.check {
				return withCode(exitBadInput, errors.New("migrate: --dry-run and --check cannot be combined"))
			}
			if opts.plugin != "" && !opts.fromClaude {
				return withCode(exitBadInput, errors.New("migrate: --plugin reads a Claude Code plugin; use it with --from-claude"))
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
	f.BoolVar(&opts.fromClaude, "from-claude", false, "migrate Claude Code hooks into Gemini CLI settings")
	f.BoolVar(&opts.fromGemini, "from-gemini", false, "migrate Gemini CLI hooks into Claude Code settings")
	f.StringVar(&opts.dir, "dir", ".", "the project `directory`")
	f.BoolVar(&opts.user, "user", false, "migrate the user settings (~/.claude ⇄ ~/.gemini) instead of the project's")
	f.StringVar(&opts.plugin, "plugin", "", "also migrate the hooks/hooks.json of this Claude Code plugin `directory`")
	f.BoolVar(&opts.dryRun, "dry-run", false, "print the diff and the report, write nothing")
	f.BoolVar(&opts.check, "check", false, "write nothing; exit 1 if the target is not up to date (for CI)")
	f.BoolVar(&opts.noWrap, "no-wrap", false, "copy the commands as they are, for hooks that already speak the target's protocol")
	f.BoolVar(&opts.strict, "strict", false, "exit 1 without writing if any hook or part of one cannot be carried")
	f.BoolVar(&opts.json, "json", false, "print the report and the planned changes as JSON")
	f.StringVar(&opts.hookx, "hookx-path", "", "how migrated entries invoke hookx (default: hookx if it is on PATH, else this binary's path)")
	_ = f.MarkHidden("hookx-path")
	return cmd
}

func migrateRun(opts *migrateOptions) error {
	tbl := mappings.Default()
	fromName, toName := "claude", "gemini"
	if opts.fromGemini {
		fromName, toName = toName, fromName
	}
	from, err := tbl.Dialect(fromName)
	if err != nil {
		return withCode(exitInternal, err)
	}
	to, err := tbl.Dialect(toName)
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
	rel := func(setting string) string { return filepath.FromSlash(strings.TrimPrefix(setting, "~/")) }
	showPath := func(r string) string { return filepath.Join(shown, r) }
	if shown == "~" {
		showPath = func(r string) string { return "~/" + filepath.ToSlash(r) }
	}

	var names []string // relative to base
	if opts.user {
		names = []string{rel(from.Settings.User)}
	} else {
		names = []string{rel(from.Settings.Project)}
		if from.Settings.Local != "" {
			names = append(names, rel(from.Settings.Local))
		}
	}
	var sources []migrate.Source
	var looked []string
	for i, n := range names {
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
		} else if i == 1 {
			scope = "local"
		}
		sources = append(sources, migrate.Source{Path: showPath(n), Scope: scope, Data: data})
	}
	var pluginRoot string
	if opts.plugin != "" {
		p := filepath.Join(opts.plugin, "hooks", "hooks.json")
		data, err := readSettings(p, p)
		if err != nil {
			return err
		}
		if data == nil {
			return withCode(exitBadInput, fmt.Errorf("%s: no such file (a plugin keeps its hooks in hooks/hooks.json)", p))
		}
		sources = append(sources, migrate.Source{Path: p, Scope: "plugin", Data: data})
		if pluginRoot, err = filepath.Abs(opts.plugin); err != nil {
			return withCode(exitInternal, err)
		}
	}
	if len(sources) == 0 {
		return withCode(exitBadInput, fmt.Errorf("no %s settings found (looked for %s)", from.Agent, strings.Join(looked, " and ")))
	}

	targetRel := rel(to.Settings.Project)
	if opts.user {
		targetRel = rel(to.Settings.User)
	}
	targetPath := filepath.Join(base, targetRel)
	targetData, err := readSettings(targetPath, showPath(targetRel))
	if err != nil {
		return err
	}

	hookx := opts.hookx
	var hookxWarning string
	if hookx == "" && !opts.noWrap {
		hookx, hookxWarning = hookxCommand()
	}
	res, err := migrate.Plan(migrate.Options{
		Table: tbl, From: fromName, To: toName,
		Wrap: !opts.noWrap, Hookx: hookx, PluginRoot: pluginRoot,
	}, sources, migrate.Source{Path: showPath(targetRel), Data: targetData})
	var inErr *migrate.InputError
	switch {
	case errors.As(err, &inErr):
		return withCode(exitBadInput, err)
	case err != nil:
		return withCode(exitInternal, err)
	}
	if hookxWarning != "" && len(res.Entries) > 0 {
		res.Items = append(res.Items, migrate.Item{Level: migrate.Warning, What: "hookx location", Reason: hookxWarning,
			Fix: "go install ./cmd/hookx (or put hookx on PATH) and migrate again; the entries are updated in place"})
	}

	fromLabel, toLabel := "a/"+filepath.ToSlash(targetRel), "b/"+filepath.ToSlash(targetRel)
	if res.Created {
		fromLabel = "/dev/null"
	}
	diff := ""
	if res.Changed() {
		diff = migrate.UnifiedDiff(fromLabel, toLabel, res.Before, res.After)
	}
	notCarried := res.Count(migrate.NotCarried)
	refused := opts.strict && notCarried > 0
	write := !opts.dryRun && !opts.check && !refused && res.Changed()

	if write {
		if err := migrate.WriteFile(targetPath, res.Before, res.After); err != nil {
			if errors.Is(err, migrate.ErrReadOnly) {
				err = fmt.Errorf("%s: %w", showPath(targetRel), errors.Unwrap(err))
			}
			printReport(opts, res, diff, false)
			return withCode(exitInternal, fmt.Errorf("nothing written: %w", err))
		}
	}
	printReport(opts, res, diff, write)

	switch {
	case refused:
		return withCode(exitChanges, fmt.Errorf("--strict: %d item(s) cannot be carried to %s; nothing written", notCarried, to.Agent))
	case opts.check && res.Changed():
		return withCode(exitChanges, fmt.Errorf("%s is not up to date; run hookx migrate without --check", showPath(targetRel)))
	}
	return nil
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
	data, err := os.ReadFile(path)
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
	if opts.color {
		io.WriteString(opts.s.Out, migrate.Colorize(diff))
	} else {
		io.WriteString(opts.s.Out, diff)
	}
	io.WriteString(opts.s.Err, migrate.FormatReport(res, written, opts.dryRun || opts.check))
}
