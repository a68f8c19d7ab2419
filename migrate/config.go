package migrate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/tailscale/hujson"
)

// ConfigName is the project config of hookx migrate, at the project's root:
// what a team's `hookx migrate` and `hookx migrate --check` do without flags.
const ConfigName = ".hookx.jsonc"

// Config is a project's .hookx.jsonc.
type Config struct {
	// From is the dialect whose settings are the source.
	From string
	// To lists the target dialects, in the file's order; "all" stands for
	// every dialect whose settings the project has.
	To []string
	// Plugin is a plugin (or extension) directory also read, relative to
	// the config's directory unless absolute.
	Plugin string
	// Defaults apply to every target; Targets[name] overrides them for one.
	Defaults TargetOptions
	Targets  map[string]TargetOptions
}

// TargetOptions are the migrate options a config can set per target; nil:
// not set (the default, or the flag).
type TargetOptions struct {
	// Wrap false is --no-wrap: the commands are copied as they are instead
	// of running through hookx wrap --host <target>.
	Wrap   *bool `json:"wrap"`
	Strict *bool `json:"strict"`
	Prune  *bool `json:"prune"`
	// FailClosed is --fail-closed: every guard's hookx wrap blocks when
	// the hook errors or times out.
	FailClosed *bool `json:"failClosed"`
}

// For returns the options of one target: its own over the defaults.
func (c *Config) For(target string) TargetOptions {
	o := c.Defaults
	t := c.Targets[target]
	if t.Wrap != nil {
		o.Wrap = t.Wrap
	}
	if t.Strict != nil {
		o.Strict = t.Strict
	}
	if t.Prune != nil {
		o.Prune = t.Prune
	}
	if t.FailClosed != nil {
		o.FailClosed = t.FailClosed
	}
	return o
}

// configKeys are the keys a config's top level takes; targetKeys those of
// a target's options (also allowed at the top level, as defaults).
var (
	targetKeys = []string{"wrap", "failClosed", "strict", "prune"}
	configKeys = append([]string{"from", "to", "plugin", "targets"}, targetKeys...)
)

// ParseConfig reads a .hookx.jsonc (JSONC: comments and trailing commas
// allowed). Every problem is reported with the file (name) and line:
// unknown keys, values of the wrong type, unknown dialect names.
func ParseConfig(name string, data []byte, tbl *mappings.Table) (*Config, error) {
	if tbl == nil {
		tbl = mappings.Default()
	}
	v, err := hujson.Parse(data)
	if err != nil {
		// The message may quote the file's bytes: no control characters
		// reach the terminal.
		return nil, fmt.Errorf("%s: %s", name, strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return '?'
			}
			return r
		}, strings.TrimPrefix(err.Error(), "hujson: ")))
	}
	at := func(off int) string { return fmt.Sprintf("%s:%d", name, 1+bytes.Count(data[:off], []byte("\n"))) }
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, fmt.Errorf("%s: the config is a JSON object ({\"from\": ..., \"to\": [...]}), not %s", at(v.StartOffset), configKind(v))
	}
	var errs []error
	bad := func(val *hujson.Value, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{at(val.StartOffset)}, args...)...))
	}
	dialect := func(val *hujson.Value, key string) (string, bool) {
		s, ok := configString(val)
		if !ok {
			bad(val, "%q: want a dialect name (%s), not %s", key, strings.Join(tbl.DialectNames(), ", "), configKind(*val))
			return "", false
		}
		if _, err := tbl.Dialect(s); err != nil {
			bad(val, "%q: %v", key, err)
			return "", false
		}
		return s, true
	}
	c := &Config{Targets: map[string]TargetOptions{}}
	seen := map[string]bool{}
	for i := range obj.Members {
		m := &obj.Members[i]
		key, _ := configString(&m.Name)
		if seen[key] {
			bad(&m.Name, "%q is given twice", key)
			continue
		}
		seen[key] = true
		switch {
		case key == "from":
			c.From, _ = dialect(&m.Value, key)
		case key == "to":
			if s, ok := configString(&m.Value); ok && s == "all" {
				c.To = []string{"all"}
				break
			} else if ok {
				// One target: "to": "codex".
				if d, ok := dialect(&m.Value, "to"); ok {
					c.To = []string{d}
				}
				break
			}
			arr, ok := m.Value.Value.(*hujson.Array)
			if !ok {
				bad(&m.Value, "\"to\": want a list of dialect names ([\"codex\", \"copilot\"]) or \"all\", not %s", configKind(m.Value))
				break
			}
			for j := range arr.Elements {
				if d, ok := dialect(&arr.Elements[j], "to"); ok {
					if slices.Contains(c.To, d) {
						bad(&arr.Elements[j], "\"to\": %s is named twice", d)
					}
					c.To = append(c.To, d)
				}
			}
		case key == "plugin":
			s, ok := configString(&m.Value)
			if !ok || s == "" {
				bad(&m.Value, "\"plugin\": want a directory (a string), not %s", configKind(m.Value))
			}
			c.Plugin = s
		case key == "targets":
			tobj, ok := m.Value.Value.(*hujson.Object)
			if !ok {
				bad(&m.Value, "\"targets\": want an object of options per dialect ({\"codex\": {\"wrap\": false}}), not %s", configKind(m.Value))
				break
			}
			for j := range tobj.Members {
				tm := &tobj.Members[j]
				d, ok := dialect(&tm.Name, "targets")
				if !ok {
					continue
				}
				if _, dup := c.Targets[d]; dup {
					bad(&tm.Name, "\"targets\": %s is given twice", d)
					continue
				}
				o, ok := tm.Value.Value.(*hujson.Object)
				if !ok {
					bad(&tm.Value, "\"targets\": %s: want an object of options (%s), not %s", d, strings.Join(targetKeys, ", "), configKind(tm.Value))
					continue
				}
				var to TargetOptions
				for k := range o.Members {
					om := &o.Members[k]
					ok, _ := configString(&om.Name)
					if !slices.Contains(targetKeys, ok) {
						bad(&om.Name, "\"targets\": %s: unknown option %q (the options: %s)", d, ok, strings.Join(targetKeys, ", "))
						continue
					}
					setOption(&to, ok, &om.Value, bad)
				}
				c.Targets[d] = to
			}
		case slices.Contains(targetKeys, key):
			setOption(&c.Defaults, key, &m.Value, bad)
		default:
			bad(&m.Name, "unknown key %q (the keys: %s)", key, strings.Join(configKeys, ", "))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for _, d := range append([]string{""}, slices.Sorted(maps.Keys(c.Targets))...) {
		if o := c.For(d); o.FailClosed != nil && *o.FailClosed && o.Wrap != nil && !*o.Wrap {
			where := "the config"
			if d != "" {
				where = "target " + d
			}
			return nil, fmt.Errorf("%s: %s: \"failClosed\" needs hookx wrap, and \"wrap\" is false", name, where)
		}
	}
	return c, nil
}

// setOption sets one boolean option of a target.
func setOption(o *TargetOptions, key string, val *hujson.Value, bad func(*hujson.Value, string, ...any)) {
	lit, ok := val.Value.(hujson.Literal)
	if !ok || lit.Kind() != 't' && lit.Kind() != 'f' {
		bad(val, "%q: want true or false, not %s", key, configKind(*val))
		return
	}
	b := lit.Bool()
	switch key {
	case "wrap":
		o.Wrap = &b
	case "strict":
		o.Strict = &b
	case "prune":
		o.Prune = &b
	case "failClosed":
		o.FailClosed = &b
	}
}

// configString returns a JSON string's value.
func configString(v *hujson.Value) (string, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return "", false
	}
	return lit.String(), true
}

// configKind names a value's JSON kind for messages.
func configKind(v hujson.Value) string {
	switch x := v.Value.(type) {
	case *hujson.Object:
		return "an object"
	case *hujson.Array:
		return "a list"
	case hujson.Literal:
		switch x.Kind() {
		case '"':
			return "a string"
		case '0':
			return "a number"
		case 't', 'f':
			return "a boolean"
		case 'n':
			return "null"
		}
	}
	return "something else"
}

// NewConfig renders a .hookx.jsonc that names a source and its targets,
// with a comment on each key, for hookx migrate --init.
func NewConfig(from string, to []string) []byte {
	names, _ := json.Marshal(to)
	var b bytes.Buffer
	fmt.Fprintf(&b, `// hookx migrate's project config: "hookx migrate" copies the hooks of
// %q into every dialect of "to"; "hookx migrate --check" (CI) exits 1
// when one of them is stale. Flags override these keys.
{
  // The dialect whose settings hold the team's hooks.
  "from": %q,
  // The dialects to keep in step with it ("all": every dialect whose
  // settings the project has).
  "to": %s
  // Options for every target ("wrap", "failClosed", "strict", "prune"),
  // or per target:
  // "targets": {"codex": {"wrap": false}}
}
`, from, from, strings.ReplaceAll(string(names), ",", ", "))
	return b.Bytes()
}
