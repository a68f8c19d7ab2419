package migrate

import (
	"regexp"
	"strings"
	"sync"
)

// ShellQuote quotes s as one POSIX shell word: single quotes, with each
// single quote written as '\”. sh -c and bash -c both read it back as s.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// envRule rewrites one variable reference in a hook command.
type envRule struct {
	to      string // the variable to use instead; "" with literal set
	literal string // a value to put in place of the reference (a resolved path)
	quote   bool   // double-quote the reference when it stands unquoted (a path)
}

// rewriteEnv rewrites the variable references of a shell command by rules,
// in the brace form, and returns the names of the references it found that
// match unknown (the source's variables without a counterpart). Text inside
// single quotes is left alone: the shell does not expand it.
func rewriteEnv(cmd string, rules map[string]envRule, unknown func(string) bool) (string, []string) {
	var out strings.Builder
	var missing []string
	const (
		plain = iota
		single
		double
	)
	state := plain
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case state == single:
			if c == '\'' {
				state = plain
			}
		case c == '\\' && i+1 < len(cmd):
			out.WriteByte(c)
			i++
			c = cmd[i]
		case c == '\'' && state == plain:
			state = single
		case c == '"':
			if state == double {
				state = plain
			} else {
				state = double
			}
		case c == '$':
			name, rest, end := parseRef(cmd, i)
			if name == "" {
				break
			}
			r, ok := rules[name]
			if !ok {
				if unknown != nil && unknown(name) {
					missing = append(missing, name)
				}
				break
			}
			var ref string
			if r.literal != "" {
				if rest != "" {
					break // ${VAR:-x} on a resolved path: keep it as written
				}
				if state == double {
					ref = strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`").Replace(r.literal)
				} else {
					ref = ShellQuote(r.literal)
				}
			} else {
				ref = "${" + r.to + rest + "}"
				if state == plain && r.quote {
					ref = `"` + ref + `"`
				}
			}
			out.WriteString(ref)
			i = end - 1
			continue
		}
		out.WriteByte(c)
	}
	return out.String(), missing
}

// parseRef parses $NAME or ${NAME...} at cmd[i] == '$'. rest is what follows
// the name inside braces (an operator such as :-x); end is the index after
// the reference.
func parseRef(cmd string, i int) (name, rest string, end int) {
	j := i + 1
	if j < len(cmd) && cmd[j] == '{' {
		k := j + 1
		for k < len(cmd) && isNameByte(cmd[k], k == j+1) {
			k++
		}
		close := strings.IndexByte(cmd[k:], '}')
		if k == j+1 || close < 0 {
			return "", "", 0
		}
		return cmd[j+1 : k], cmd[k : k+close], k + close + 1
	}
	k := j
	for k < len(cmd) && isNameByte(cmd[k], k == j) {
		k++
	}
	if k == j {
		return "", "", 0
	}
	return cmd[j:k], "", k
}

func isNameByte(c byte, first bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
}

// argPlaceholder matches the placeholders Claude Code substitutes in an
// exec-form argument (claude-code-hooks.md §7).
var argPlaceholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}`)
})

// quoteArg quotes one exec-form argument for a shell command line, keeping
// the placeholders Claude would have substituted as double-quoted variable
// references, which the environment rewriting then maps for the target.
func quoteArg(a string) string {
	locs := argPlaceholder().FindAllStringIndex(a, -1)
	if len(locs) == 0 {
		return ShellQuote(a)
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		if l[0] > last {
			b.WriteString(ShellQuote(a[last:l[0]]))
		}
		b.WriteString(`"` + a[l[0]:l[1]] + `"`)
		last = l[1]
	}
	if last < len(a) {
		b.WriteString(ShellQuote(a[last:]))
	}
	return b.String()
}

// doubleQuote quotes s as one shell word in double quotes: $VAR and ${VAR}
// still expand, nothing else does.
func doubleQuote(s string) string {
	if q := ShellQuote(s); q == s {
		return s // nothing to quote
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\', '`':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
