package mappings

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/hookx-dev/hookx/internal/jsregex"
)

// Path arguments. Claude Code expands every file path to an absolute one
// before its hooks run (CC§1 "Paths"); Gemini CLI's tools accept paths
// relative to the workspace and its hooks get them as the model wrote them
// (live-findings 2026-11-23). A tool row names, per path argument, how its
// agent turns the argument into the path the tool really uses; a hook of a
// dialect with "absolutePaths" gets that path.

// PathContext is what a path resolver may look at.
type PathContext struct {
	// Cwd is the event's cwd: for Gemini CLI the target directory its tools
	// resolve against (Config.targetDir and Config.cwd are both the launch
	// directory in 0.61.0).
	Cwd string
	// Exists reports whether a file or directory exists; some resolvers
	// look at the disk, as the agent does.
	Exists func(path string) bool
}

// PathResolver turns a path argument into the absolute path the agent's tool
// will use. uncertain is non-empty, and says why, when that path cannot be
// known from the payload and the disk alone.
type PathResolver func(p string, c PathContext) (resolved, uncertain string)

var pathResolvers = sync.OnceValue(func() map[string]PathResolver {
	return map[string]PathResolver{
		// read_file and write_file: resolveDefensiveToolPath (NUL bytes
		// removed, a leading @ dropped unless that path exists), then
		// path.resolve against the target directory, then resolveToRealPath
		// (decodeURIComponent, path.resolve again).
		"geminiFile": func(p string, c PathContext) (string, string) {
			return geminiResolve(geminiDefensive(p, c), c, true)
		},
		// replace: an absolute path loses its NUL bytes; a relative one is
		// looked up first as target directory + path, and only when that does
		// not exist searched for across the workspace (correctPath), which
		// hookx does not repeat.
		"geminiEditFile": func(p string, c PathContext) (string, string) {
			clean := strings.ReplaceAll(p, "\x00", "")
			if filepath.IsAbs(clean) {
				return geminiResolve(clean, c, true)
			}
			sanitized := geminiDefensive(p, c)
			direct, unc := geminiResolve(sanitized, c, false)
			if unc != "" {
				return direct, unc
			}
			if c.Exists != nil && c.Exists(direct) {
				return geminiResolve(sanitized, c, true)
			}
			return direct, "Gemini CLI searches the workspace for a file ending in " + sanitized + " when " + direct + " does not exist"
		},
		// glob and grep_search: path.resolve against the target directory,
		// then resolveToRealPath.
		"geminiSearchDir": func(p string, c PathContext) (string, string) {
			return geminiResolve(p, c, true)
		},
		// list_directory and run_shell_command: path.resolve only.
		"geminiDir": func(p string, c PathContext) (string, string) {
			return geminiResolve(p, c, false)
		},
		// Copilot CLI's view, create and edit ask for an absolute path, and
		// take a relative one against the session's cwd (live, 2026-11-23:
		// view {"path":"f.txt"} read <cwd>/f.txt; the hook got "f.txt").
		// Whether it expands ~ was not seen.
		"copilotPath": func(p string, c PathContext) (string, string) {
			if strings.HasPrefix(p, "~") {
				return p, "whether Copilot CLI expands ~ is not known"
			}
			return nodeResolve(c.Cwd, p)
		},
		// Qwen Code's glob and grep_search (0.24.4: validateToolParamValues,
		// resolveAndValidatePath): the path trimmed and shell-unescaped
		// (unescapeShellSpecials), ~ expanded, then path.resolve against
		// the target directory; no realpath.
		"qwenSearchDir": func(p string, c PathContext) (string, string) {
			p = jsregex.Trim(p) // JavaScript's trim: U+FEFF is space, U+0085 is not
			if strings.HasPrefix(p, "~") {
				return p, "Qwen Code expands ~ to the home directory of its process"
			}
			if strings.Contains(p, `\`) {
				return p, "Qwen Code removes shell escapes from the path"
			}
			return nodeResolve(c.Cwd, p)
		},
		// Codex's apply_patch: every path of the patch (added, deleted,
		// updated, and a move's destination) as Codex writes it, against
		// the turn's cwd (patch.go); a patch Codex refuses is left as it is.
		"codexPatch": func(p string, c PathContext) (string, string) {
			return resolvePatch(p, c.Cwd)
		},
		// Qwen Code's run_shell_command directory (0.24.4,
		// validateToolParamValues: "Directory must be an absolute path.";
		// execute: cwd = params.directory || targetDir): used as written,
		// so the kernel, not path.resolve, reads any "..", after symbolic
		// links.
		"qwenShellDir": func(p string, c PathContext) (string, string) {
			if !filepath.IsAbs(p) {
				return p, "Qwen Code refuses a relative directory"
			}
			if slices.Contains(strings.Split(p, "/"), "..") {
				return p, "Qwen Code runs the command in " + p + " as written, where .. follows symbolic links"
			}
			return filepath.Clean(p), ""
		},
		// OpenCode's and Kilo Code's file tools (edit, write, read, glob,
		// grep, lsp; opencode-ai 1.18.33 @96855265, @96894640, @96869370,
		// @96864137, @96866187; Kilo 7.7.9 the same code): an absolute path
		// as written, a relative one joined to the session's directory
		// (path.join or path.resolve, the same for a relative path). ~ is
		// not expanded: it is a directory named ~ there.
		"opencodePath": func(p string, c PathContext) (string, string) {
			if filepath.IsAbs(p) {
				return p, ""
			}
			return nodeResolve(c.Cwd, p)
		},
		// The directory OpenCode's and Kilo Code's bash (workdir) and Kilo's
		// background_process run in: path.resolve(directory, workdir)
		// (ShellTool.resolvePath, opencode-ai 1.18.33 @96851959; Kilo 7.7.9
		// @108894051).
		"opencodeDir": func(p string, c PathContext) (string, string) {
			return nodeResolve(c.Cwd, p)
		},
		// Crush's file tools (edit, multiedit, view, write, ls) and the
		// directories of bash, glob and grep: an absolute path as written,
		// a relative one joined to its working directory with Go's
		// filepath.Join (filepathext.SmartJoin; ls expands ~ first).
		"crushPath": func(p string, c PathContext) (string, string) {
			if strings.HasPrefix(p, "~") {
				return p, "Crush's ls expands ~ to the home directory; its other tools do not"
			}
			if filepath.IsAbs(p) {
				return p, ""
			}
			return filepath.Join(c.Cwd, p), ""
		},
		// Cline's editor asks for "the absolute path" (its schema,
		// core@167450); how it takes a relative one was not seen.
		"clinePath": func(p string, c PathContext) (string, string) {
			if !filepath.IsAbs(p) {
				r, _ := nodeResolve(c.Cwd, p)
				return r, "how Cline takes a relative path was not seen"
			}
			return filepath.Clean(p), ""
		},
		// Pi's file tools (1.6.0 core/tools/path-utils.js:35-44,
		// utils/paths.js): a leading @ stripped, unicode spaces made plain,
		// ~ expanded, then resolved against the session's cwd; read also
		// tries macOS spellings of a missing file.
		"piPath": func(p string, c PathContext) (string, string) {
			if strings.HasPrefix(p, "~") || strings.HasPrefix(p, "@") {
				return p, "Pi expands ~ and strips a leading @ before it uses the path"
			}
			if strings.ContainsFunc(p, func(r rune) bool { return r > 0x7f && unicode.IsSpace(r) }) {
				return p, "Pi turns unicode spaces in a path into plain ones"
			}
			return nodeResolve(c.Cwd, p)
		},
		// Factory Droid's Read, Create, Edit and LS: taken against the
		// session's cwd as Node's path.resolve would (read in its binary, not
		// seen live with a relative path); whether it expands ~ is not known.
		"droidPath": func(p string, c PathContext) (string, string) {
			if strings.HasPrefix(p, "~") {
				return p, "whether Factory Droid expands ~ is not known"
			}
			return nodeResolve(c.Cwd, p)
		},
	}
})

// PathResolverByName returns a named path resolver, or nil.
func PathResolverByName(name string) PathResolver { return pathResolvers()[name] }

// geminiDefensive is Gemini CLI's resolveDefensiveToolPath.
func geminiDefensive(p string, c PathContext) string {
	clean := strings.ReplaceAll(p, "\x00", "")
	exists := func(q string) bool {
		abs, unc := nodeResolve(c.Cwd, q)
		return unc == "" && c.Exists != nil && c.Exists(abs)
	}
	if exists(clean) {
		return clean
	}
	if strings.HasPrefix(clean, "@") && len(clean) > 1 {
		stripped := strings.TrimLeft(clean[1:], `/\`)
		if strings.HasPrefix(clean, "@/") || strings.HasPrefix(clean, `@\`) {
			if stripped != "" {
				return stripped
			}
			return clean
		}
		first, _, _ := strings.Cut(strings.ReplaceAll(stripped, `\`, "/"), "/")
		if first != "" {
			if exists("@" + first) {
				return clean
			}
			return stripped
		}
	}
	return clean
}

// geminiResolve is path.resolve(targetDir, p), followed, when real is set,
// by the decodeURIComponent and second path.resolve of resolveToRealPath.
// Symbolic links are not followed (Gemini's realpath step): the hook sees
// the link's path, a documented limit.
func geminiResolve(p string, c PathContext, real bool) (string, string) {
	abs, unc := nodeResolve(c.Cwd, p)
	if unc != "" || !real {
		return abs, unc
	}
	if dec, ok := decodeURIComponent(abs); ok {
		abs = filepath.Clean(dec)
	}
	return abs, ""
}

// nodeResolve is Node's path.resolve(base, p) on POSIX.
func nodeResolve(base, p string) (string, string) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), ""
	}
	if !filepath.IsAbs(base) {
		return p, "the event has no absolute cwd to resolve " + p + " against"
	}
	return filepath.Join(base, p), ""
}

// decodeURIComponent is JavaScript's: %XX escapes of well-formed UTF-8
// sequences are decoded; anything malformed is an error (false), and the
// agent keeps the path as it was.
func decodeURIComponent(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '%' {
			b.WriteByte(s[i])
			i++
			continue
		}
		first, ok := hexByte(s, i)
		if !ok {
			return "", false
		}
		n := 1
		switch {
		case first < 0x80:
		case first&0xE0 == 0xC0:
			n = 2
		case first&0xF0 == 0xE0:
			n = 3
		case first&0xF8 == 0xF0:
			n = 4
		default:
			return "", false
		}
		seq := []byte{first}
		for k := 1; k < n; k++ {
			c, ok := hexByte(s, i+3*k)
			if !ok || c&0xC0 != 0x80 {
				return "", false
			}
			seq = append(seq, c)
		}
		if r, size := utf8.DecodeRune(seq); r == utf8.RuneError && size <= 1 && n > 1 {
			return "", false // overlong, surrogate or out of range
		}
		b.Write(seq)
		i += 3 * n
	}
	return b.String(), true
}

func hexByte(s string, i int) (byte, bool) {
	if i+2 >= len(s) || s[i] != '%' {
		return 0, false
	}
	hi, ok1 := unhex(s[i+1])
	lo, ok2 := unhex(s[i+2])
	return hi<<4 | lo, ok1 && ok2
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
