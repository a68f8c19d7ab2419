package doctor

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookx-dev/hookx/internal/confine"
	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/tailscale/hujson"
)

// scopeFiles returns the parsed settings files of d that apply to the
// project: the checked ones, and the user file (read quietly when --user
// is not given: it still switches hooks off).
func (c *checker) scopeFiles(d *mappings.Dialect) []*file {
	var out []*file
	haveUser := false
	for _, f := range c.files {
		if f.d == d && f.root != nil {
			out = append(out, f)
			haveUser = haveUser || f.scope == "user"
		}
	}
	if !haveUser && c.opts.Home != "" && strings.HasPrefix(d.Settings.User, "~/") {
		p := filepath.Join(c.opts.Home, filepath.FromSlash(d.Settings.User[2:]))
		if data, err := safefile.ReadRegular(p, migrate.MaxFileSize); err == nil {
			if v, err := hujson.Parse(data); err == nil {
				out = append(out, &file{d: d, scope: "user", path: p, shown: d.Settings.User, data: data, root: &v})
			}
		}
	}
	return out
}

func (c *checker) hookCount(d *mappings.Dialect) int {
	n := 0
	for _, f := range c.files {
		if f.d == d {
			n += len(f.hooks)
		}
	}
	return n
}

// checkSwitches reports settings that switch hooks off.
func (c *checker) checkSwitches() {
	for _, d := range c.tbl.Dialects {
		n := c.hookCount(d)
		if n == 0 {
			continue
		}
		files := c.scopeFiles(d)
		for _, sw := range d.Settings.Off {
			for _, f := range files {
				v := f.root.Find(sw.Pointer)
				if v == nil {
					continue
				}
				if lit, ok := v.Value.(hujson.Literal); ok && string(lit) == sw.Value {
					c.addFile(f, v.StartOffset, ruleHooksOff, fmt.Sprintf("%s is %s; %s runs none of its settings hooks (%d found)", sw.Key, sw.Value, d.Agent, n),
						"delete the key to turn hooks back on")
				}
			}
		}
		if sw := d.Settings.On; sw != nil {
			c.checkOnSwitch(d, sw, files, n)
		}
		ptr := d.Settings.DisabledList
		if ptr == "" {
			continue
		}
		for _, f := range files {
			v := f.root.Find(ptr)
			if v == nil {
				continue
			}
			arr, ok := v.Value.(*hujson.Array)
			if !ok {
				continue
			}
			for i := range arr.Elements {
				s, ok := str(&arr.Elements[i])
				if !ok {
					continue
				}
				line, _ := f.lineCol(arr.Elements[i].StartOffset)
				list := strings.ReplaceAll(strings.TrimPrefix(ptr, "/"), "/", ".")
				for _, g := range c.files {
					if g.d != d {
						continue
					}
					for _, h := range g.hooks {
						// Matched against the name, else the command (GC§8.2).
						if h.name == s || h.name == "" && h.command == s {
							c.add(h, h.off, ruleHookDisabled, fmt.Sprintf("this hook is switched off by %s (%s:%d); %s never runs it", list, f.shown, line, d.Agent),
								"remove it from "+list+" (or /hooks enable it)")
						}
					}
				}
			}
		}
	}
}

// trustLevels are Gemini's trusted-folder values (GC§8.4).
const (
	trustFolder = "TRUST_FOLDER"
	trustParent = "TRUST_PARENT"
	doNotTrust  = "DO_NOT_TRUST"
)

// checkTrust reports a Gemini project whose folder is not trusted: Gemini
// registers no settings hooks there. It follows checkPathTrust in Gemini
// CLI 0.61.0: the environment first, then security.folderTrust.enabled,
// then the longest matching rule of trustedFolders.json.
func (c *checker) checkTrust() {
	c.checkProjectTrust()
	for _, d := range c.tbl.Dialects {
		if !d.Settings.FolderTrust || c.hookCount(d) == 0 {
			continue
		}
		var first *file
		for _, f := range c.files {
			if f.d == d && len(f.hooks) > 0 {
				first = f
				break
			}
		}
		env := c.opts.getenv
		if env("GEMINI_RESTRICTED_MODE") == "true" || env("GEMINI_CLI_TRUST_WORKSPACE") == "false" {
			c.addFile(first, -1, ruleUntrustedEnv, "the environment marks the folder untrusted (GEMINI_RESTRICTED_MODE or GEMINI_CLI_TRUST_WORKSPACE=false); "+d.Agent+" runs no settings hooks",
				"unset the variable")
			continue
		}
		if env("GEMINI_CLI_TRUST_WORKSPACE") == "true" {
			continue
		}
		enabled := true
		for _, f := range c.scopeFiles(d) {
			if f.scope != "user" {
				continue // a workspace cannot switch trust off for itself
			}
			if v := f.root.Find("/security/folderTrust/enabled"); v != nil {
				if lit, ok := v.Value.(hujson.Literal); ok && string(lit) == "false" {
					enabled = false
				}
			}
		}
		if !enabled {
			continue
		}
		level, tf, err := c.trustLevel()
		switch {
		case err != nil:
			c.addFile(first, -1, ruleTrustUnreadable, fmt.Sprintf("%s cannot read %s (%v) and refuses to start", d.Agent, tf, err), "fix or delete "+tf)
		case level == doNotTrust:
			c.addFile(first, -1, ruleFolderDistrusted, fmt.Sprintf("the project folder is marked DO_NOT_TRUST in %s; %s registers no settings hooks in an untrusted folder", tf, d.Agent),
				"trust the folder (gemini's /permissions, or set it to TRUST_FOLDER in "+tf+")")
		case level == "":
			c.addFile(first, -1, ruleFolderNotYet, fmt.Sprintf("the project folder is not trusted yet (no rule in %s); %s registers no settings hooks until it is, and a headless run exits 55", tf, d.Agent),
				"trust the folder when gemini asks, or set GEMINI_CLI_TRUST_WORKSPACE=true for headless runs")
		}
	}
}

// trustLevel returns the trust rule that applies to the project folder, ""
// when none does, and the file it came from as shown.
func (c *checker) trustLevel() (level, shown string, err error) {
	path := c.opts.getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	shown = path
	if path == "" {
		home := c.opts.getenv("GEMINI_CLI_HOME")
		shown = "~/.gemini/trustedFolders.json"
		if home == "" {
			home = c.opts.Home
		}
		if home == "" {
			return "", shown, nil
		}
		path = filepath.Join(home, ".gemini", "trustedFolders.json")
	}
	data, err := safefile.ReadRegular(path, migrate.MaxFileSize)
	if err != nil {
		return "", shown, nil
	}
	// strip-json-comments, then JSON.parse: comments pass, trailing commas do not.
	v, err := migrate.ParseJSONC(path, data)
	if err == nil && migrate.TrailingComma(&v) >= 0 {
		err = fmt.Errorf("trailing comma")
	}
	if err != nil {
		return "", shown, err
	}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return "", shown, fmt.Errorf("not a JSON object")
	}
	loc := confine.RealPath(c.opts.Dir)
	best := -1
	for i := range obj.Members {
		rule, _ := str(&obj.Members[i].Name)
		lv, _ := str(&obj.Members[i].Value)
		if lv != trustFolder && lv != trustParent && lv != doNotTrust {
			return "", shown, fmt.Errorf("invalid trust level %q for %q", lv, rule)
		}
		eff := rule
		if lv == trustParent {
			eff = filepath.Dir(rule)
		}
		if isSubpath(confine.RealPath(eff), loc) && len(rule) > best {
			best, level = len(rule), lv
		}
	}
	return level, shown, nil
}

func isSubpath(parent, child string) bool {
	rel, err := filepath.Rel(parent, child)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// checkProjectTrust reports a project whose agent keeps its trust in a TOML
// table (settings.projectTrust: Codex's [projects."<dir>"] trust_level)
// and does not trust it: the agent then reads none of the project's hooks.
func (c *checker) checkProjectTrust() {
	for _, d := range c.tbl.Dialects {
		pt := d.Settings.ProjectTrust
		if pt == nil || c.opts.Home == "" {
			continue
		}
		var first *file
		for _, f := range c.files {
			if f.d == d && f.scope == "project" && len(f.hooks) > 0 {
				first = f
				break
			}
		}
		if first == nil {
			continue
		}
		dir, err := filepath.Abs(c.opts.Dir)
		if err != nil {
			continue
		}
		path := filepath.Join(c.opts.Home, filepath.FromSlash(strings.TrimPrefix(pt.File, "~/")))
		data, _ := safefile.ReadRegular(path, migrate.MaxFileSize)
		got, found := tomlTableValue(string(data), pt.Table, dir, pt.Key)
		fix := fmt.Sprintf("add [%s.%q] with %s = %q to %s (or trust the project when %s asks)", pt.Table, dir, pt.Key, pt.Value, pt.File, d.Agent)
		switch {
		case found && got == pt.Value:
		case found:
			c.addFile(first, -1, ruleProjectDistrust, fmt.Sprintf("%s marks the project %s = %q; %s reads none of its hooks", pt.File, pt.Key, got, d.Agent), fix)
		default:
			c.addFile(first, -1, ruleProjectNotYet, fmt.Sprintf("the project is not trusted in %s; %s reads none of its hooks until it is", pt.File, d.Agent), fix)
		}
	}
}

// tomlTableValue finds key = "value" under [table."name"] (or 'name', or a
// bare name) in TOML text: enough of TOML for one trust setting, never a
// general reader.
func tomlTableValue(text, table, name, key string) (string, bool) {
	in := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			head := strings.TrimSpace(strings.Trim(line, "[]"))
			in = false
			if rest, ok := strings.CutPrefix(head, table+"."); ok {
				rest = strings.TrimSpace(rest)
				if len(rest) >= 2 && (rest[0] == '"' || rest[0] == '\'') && rest[len(rest)-1] == rest[0] {
					rest = rest[1 : len(rest)-1]
				}
				in = rest == name
			}
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != key {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.Index(v, "#"); i > 0 && (v[0] != '"' || strings.LastIndex(v[:i], "\"") > 0) {
			v = strings.TrimSpace(v[:i])
		}
		return strings.Trim(v, `"'`), true
	}
	return "", false
}

// checkOnSwitch reports an agent whose hooks run only when a key says so
// (TerminaI's tools.enableHooks) and whose settings files, project and
// user, leave it off: none of its n hooks runs, and a guard fails open.
// The project's value wins over the user's, as its settings merge.
func (c *checker) checkOnSwitch(d *mappings.Dialect, sw *mappings.Switch, files []*file, n int) {
	var first *file
	var at *hujson.Value
	var atKey string
	var on, set bool
	for _, scope := range []string{"user", "project"} {
		for _, f := range files {
			if f.scope != scope {
				continue
			}
			if first == nil && scope == "project" || first == nil && len(f.hooks) > 0 {
				first = f
			}
			if v, key := migrate.SwitchValue(sw, f.root); v != nil {
				lit, ok := v.Value.(hujson.Literal)
				on, set, at, atKey = ok && string(lit) == sw.Value, true, v, key
				if !on {
					first = f
				}
			}
		}
	}
	if on || first == nil {
		return
	}
	off := -1
	key, why := sw.Key, "not set"
	if set {
		off, key, why = at.StartOffset, atKey, "not "+sw.Value
	}
	c.addFile(first, off, ruleHooksNotOn, fmt.Sprintf("%s is %s; %s runs none of its settings hooks (%d found), so every guard fails open", key, why, d.Agent, n),
		fmt.Sprintf("set %s to %s (hookx migrate --to %s does)", sw.Key, sw.Value, d.Name))
}
