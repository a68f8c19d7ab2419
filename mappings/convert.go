package mappings

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookx-dev/hookx/internal/jsregex"
	"mvdan.cc/sh/v3/syntax"
)

// The conversions the data cannot express as renames: small named functions
// the table refers to by name. Each converts between a dialect's form and the
// canonical form; a dialect that reuses another's conventions names the same
// functions.

// InputConverter converts a tool's arguments between a dialect's form and
// the canonical form, in place. Both directions return notes on anything
// that did not carry exactly.
type InputConverter struct {
	ToCanonical   func(args map[string]any) []string
	FromCanonical func(args map[string]any) []string
	// Args are the dialect's own arguments the converter reads and writes,
	// beyond the tool's plain renames; Canonical are the canonical
	// arguments it turns them into.
	Args, Canonical []string
	// Uncarried, where set, says why a call (in the dialect's arguments)
	// has no one-call canonical counterpart, or "": a guard fails closed
	// on such a call rather than show its hook something else.
	Uncarried func(args map[string]any) string
	// LineArgs are the canonical arguments FromCanonical writes into one
	// line of the dialect's text (a patch's header): a value with a line
	// break would be read back as other lines, so a guard fails closed
	// on it rather than show its hook another call.
	LineArgs []string
}

var inputConverters = sync.OnceValue(func() map[string]*InputConverter {
	return map[string]*InputConverter{
		"applyPatch": applyPatch, // patch.go
		// Claude Read: offset (1-based, 0 read as 1) and limit ⇄ start_line/end_line (T§6.2, S5).
		"offsetLimit": offsetLimit(1),
		// Qwen's read_file: offset 0-based ("the 0-based line number to
		// start reading from", its tool schema) and limit.
		"offsetLimit0": offsetLimit(0),
		// Claude's legacy MultiEdit carries its edits as edits[] (CC§8.2): one
		// edit call is a list of one; a list of several has no one-call
		// counterpart and is left as it is.
		"editList": {
			Args:      []string{"edits"},
			Canonical: []string{"old_string", "new_string", "replace_all"},
			ToCanonical: func(a map[string]any) []string {
				edits, _ := a["edits"].([]any)
				one, _ := firstOnly(edits).(map[string]any)
				if one == nil {
					if len(edits) > 1 {
						return []string{fmt.Sprintf("MultiEdit's %d edits cannot be expressed as one edit call", len(edits))}
					}
					return nil
				}
				delete(a, "edits")
				for _, k := range []string{"old_string", "new_string", "replace_all"} {
					if v, ok := one[k]; ok {
						a[k] = v
					}
				}
				return nil
			},
			FromCanonical: func(a map[string]any) []string {
				edit := map[string]any{}
				for _, k := range []string{"old_string", "new_string", "replace_all"} {
					if v, ok := a[k]; ok {
						edit[k] = v
						delete(a, k)
					}
				}
				if len(edit) > 0 {
					a["edits"] = []any{edit}
				}
				return nil
			},
		},
		// Cline's run_commands takes commands, a list of shell command
		// strings (its schema, @cline/core core@166853), and its input union
		// also accepts commands as one string, command or cmd: every form is
		// the canonical command, several commands one per line (each runs,
		// in order, as the lines of one shell script would).
		"clineCommands": {
			Args:      []string{"commands", "command", "cmd", "args"},
			Canonical: []string{"command"},
			Uncarried: clineCommandsUncarried,
			ToCanonical: func(a map[string]any) []string {
				cmds, _ := clineCommandList(a)
				delete(a, "commands")
				delete(a, "cmd")
				delete(a, "args")
				if len(cmds) == 0 {
					return nil
				}
				a["command"] = strings.Join(cmds, "\n")
				if len(cmds) > 1 {
					return []string{fmt.Sprintf("run_commands' %d commands are given as one command, one per line", len(cmds))}
				}
				return nil
			},
			FromCanonical: func(a map[string]any) []string {
				if c, ok := a["command"].(string); ok {
					delete(a, "command")
					a["commands"] = []any{c}
				}
				return nil
			},
		},
		// Cline's editor writes new_text as the whole file when the file
		// does not exist, old_text or not; only insert_line makes it an
		// insert (r4, @cline/core core@213001: insert_line first, then
		// "if(!await HS(j))return US(j,X.new_text,Z)", then old_text). So
		// new_text is also the canonical content a write guard checks,
		// unless insert_line is set (null is unset: its schema is
		// nullable().optional()). Back, a write's content is new_text
		// without old_text, which creates the file.
		"clineEditor": {
			Canonical: []string{"content"},
			ToCanonical: func(a map[string]any) []string {
				if text, isString := a["new_text"].(string); isString && a["insert_line"] == nil {
					a["content"] = text
				}
				return nil
			},
			FromCanonical: func(a map[string]any) []string {
				content, isString := a["content"].(string)
				if !isString {
					return nil
				}
				delete(a, "content")
				if _, has := a["new_string"]; has {
					return nil // an edit's own text; content was the same
				}
				a["new_string"] = content
				if _, has := a["old_string"]; !has {
					return []string{"a whole-file write is carried as editor without old_text, which creates the file; Cline's editor refuses it when the file exists"}
				}
				return nil
			},
		},
		// Cline's read_files takes files, a list of {path, start_line,
		// end_line} (its schema; the input union also takes file_path,
		// file_paths, paths and bare strings): one file is the canonical
		// read, several have no one-call counterpart.
		"clineReadFiles": {
			Args:      []string{"files"},
			Canonical: []string{"file_path", "start_line", "end_line"},
			Uncarried: func(a map[string]any) string {
				for _, k := range []string{"file_path", "filePath", "file_paths", "paths"} {
					if _, ok := a[k]; ok {
						return "read_files names its files in " + k + ", a form hookx does not carry"
					}
				}
				// files absent is a bare path or list of paths (given as
				// commands, clineInbound) or a top-level {path}: read, but
				// shown to a guard as a read of nothing.
				if _, isList := a["files"].([]any); !isList {
					return "read_files names its files in a form hookx does not carry"
				}
				files, _ := a["files"].([]any)
				if len(files) > 1 {
					return fmt.Sprintf("read_files reads %d files, which no one read call does", len(files))
				}
				if one, isObject := firstOnly(files).(map[string]any); isObject && one["path"] == nil {
					return "read_files names its file in a form hookx does not carry"
				}
				return ""
			},
			ToCanonical: func(a map[string]any) []string {
				files, _ := a["files"].([]any)
				one, _ := firstOnly(files).(map[string]any)
				if p, isString := firstOnly(files).(string); isString {
					one = map[string]any{"path": p}
				}
				if one == nil {
					return nil
				}
				delete(a, "files")
				if p, ok := one["path"]; ok {
					a["file_path"] = p
				}
				for _, k := range []string{"start_line", "end_line"} {
					if v, ok := one[k]; ok {
						a[k] = v
					}
				}
				return nil
			},
			FromCanonical: func(a map[string]any) []string {
				f := map[string]any{}
				if p, ok := a["file_path"]; ok {
					f["path"] = p
					delete(a, "file_path")
				}
				for _, k := range []string{"start_line", "end_line"} {
					if v, ok := a[k]; ok {
						f[k] = v
						delete(a, k)
					}
				}
				a["files"] = []any{f}
				return nil
			},
		},
		// Pi's edit carries its replacements as edits[] of {oldText,
		// newText}, each matched against the original file (Pi 1.6.0
		// core/tools/edit.js:10-20): one is one edit call; several, or an
		// entry with anything else, have no one-call counterpart, and a
		// guard of another agent fails closed on them.
		"piEdits": {
			Args:      []string{"edits"},
			Canonical: []string{"old_string", "new_string"},
			ToCanonical: func(a map[string]any) []string {
				if _, has := a["edits"]; !has {
					return nil
				}
				one, ok := piOneEdit(a["edits"])
				if !ok {
					return []string{"Pi's edits[] other than one {oldText, newText} cannot be expressed as one edit call"}
				}
				delete(a, "edits")
				a["old_string"], a["new_string"] = one["oldText"], one["newText"]
				return nil
			},
			FromCanonical: func(a map[string]any) []string {
				var notes []string
				edit := map[string]any{}
				for k, to := range map[string]string{"old_string": "oldText", "new_string": "newText"} {
					if v, ok := a[k]; ok {
						edit[to] = v
						delete(a, k)
					}
				}
				if ra, _ := a["replace_all"].(bool); ra {
					notes = append(notes, "Pi's edit replaces one unique match; replace_all has no counterpart")
				}
				delete(a, "replace_all")
				if len(edit) > 0 {
					a["edits"] = []any{edit}
				}
				return notes
			},
			Uncarried: func(a map[string]any) string {
				if _, has := a["edits"]; !has {
					return ""
				}
				if _, ok := piOneEdit(a["edits"]); !ok {
					if l, isList := a["edits"].([]any); isList {
						return fmt.Sprintf("%d edits in one call", len(l))
					}
					return "edits is not a list of one {oldText, newText}"
				}
				return ""
			},
		},
		// Gemini web_fetch has no url argument: the URL lives in the prompt (T§6.2).
		"urlInPrompt": {
			Canonical: []string{"url"},
			ToCanonical: func(a map[string]any) []string {
				p, _ := a["prompt"].(string)
				if u := urlRE().FindString(p); u != "" {
					a["url"] = u
					return nil
				}
				return []string{"web_fetch prompt holds no URL"}
			},
			FromCanonical: func(a map[string]any) []string {
				u, _ := a["url"].(string)
				delete(a, "url")
				p, _ := a["prompt"].(string)
				if u != "" && !strings.Contains(p, u) {
					a["prompt"] = strings.TrimSpace(u + "\n" + p)
				}
				return nil
			},
		},
		// Factory Droid's Glob takes patterns, one glob or a list of them
		// (its tool schema, seen live 2026-11-27): one pattern is the
		// canonical pattern; several have no one-call counterpart.
		"droidGlob": {
			Args:      []string{"patterns"},
			Canonical: []string{"pattern"},
			ToCanonical: func(a map[string]any) []string {
				p, ok := droidPatterns(a["patterns"])
				switch {
				case !ok:
				case len(p) > 1:
					return []string{fmt.Sprintf("Glob's %d patterns cannot be expressed as one glob call", len(p))}
				default:
					a["pattern"] = strings.Join(p, "") // the one, or none
					delete(a, "patterns")
				}
				return nil
			},
			FromCanonical: func(a map[string]any) []string {
				if p, ok := a["pattern"]; ok {
					a["patterns"] = p
					delete(a, "pattern")
				}
				return nil
			},
			Uncarried: func(a map[string]any) string {
				if p, ok := droidPatterns(a["patterns"]); len(p) > 1 {
					return fmt.Sprintf("%d patterns in one call", len(p))
				} else if l, _ := a["patterns"].([]any); !ok && len(l) > 1 {
					return fmt.Sprintf("%d patterns in one call", len(l))
				}
				return ""
			},
		},
		// Factory Droid's Grep output_mode is file_paths or content (its
		// tool schema); the canonical values are Claude Code's
		// (files_with_matches, content, count).
		"droidGrepMode": {
			ToCanonical: func(a map[string]any) []string {
				if a["output_mode"] == "file_paths" {
					a["output_mode"] = "files_with_matches"
				}
				return nil
			},
			FromCanonical: func(a map[string]any) []string {
				switch a["output_mode"] {
				case "files_with_matches":
					a["output_mode"] = "file_paths"
				case "count":
					delete(a, "output_mode")
					return []string{`output_mode "count" has no counterpart; Grep's default output was asked for`}
				}
				return nil
			},
		},
		// Claude todos: {content, status, activeForm} (T§6.2).
		"claudeTodos": {
			ToCanonical: func(a map[string]any) []string {
				mapTodos(a, func(t map[string]any) {
					if v, ok := t["activeForm"]; ok {
						t["active_form"] = v
						delete(t, "activeForm")
					}
				})
				return nil
			},
			FromCanonical: func(a map[string]any) []string {
				var notes []string
				mapTodos(a, func(t map[string]any) {
					if v, ok := t["active_form"]; ok {
						t["activeForm"] = v
						delete(t, "active_form")
					} else if _, ok := t["activeForm"]; !ok {
						t["activeForm"] = t["content"]
					}
					if s, _ := t["status"].(string); s == "cancelled" || s == "blocked" {
						notes = append(notes, fmt.Sprintf("todo status %q has no counterpart; left as is", s))
					}
				})
				return notes
			},
		},
		// Gemini todos: {description, status} (T§6.2).
		"geminiTodos": {
			ToCanonical: func(a map[string]any) []string {
				mapTodos(a, func(t map[string]any) {
					if v, ok := t["description"]; ok {
						t["content"] = v
						delete(t, "description")
					}
				})
				return nil
			},
			FromCanonical: func(a map[string]any) []string {
				mapTodos(a, func(t map[string]any) {
					if v, ok := t["content"]; ok {
						t["description"] = v
						delete(t, "content")
					}
					delete(t, "active_form")
				})
				return nil
			},
		},
	}
})

// InputConverterByName returns a named converter, or nil.
func InputConverterByName(name string) *InputConverter { return inputConverters()[name] }

var urlRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s"'<>]+`) })

func mapTodos(a map[string]any, f func(map[string]any)) {
	list, _ := a["todos"].([]any)
	for _, item := range list {
		if t, ok := item.(map[string]any); ok {
			f(t)
		}
	}
}

// droidPatterns is what Factory Droid's Glob runs of its patterns argument
// (0.225.2): one string or a list of them, each trimmed (JavaScript's trim),
// the empty ones dropped. ok is false for any other shape.
func droidPatterns(v any) (patterns []string, ok bool) {
	var list []any
	switch v := v.(type) {
	case string:
		list = []any{v}
	case []any:
		list = v
	default:
		return nil, false
	}
	for _, x := range list {
		s, isString := x.(string)
		if !isString {
			return nil, false
		}
		if s = jsregex.Trim(s); s != "" {
			patterns = append(patterns, s)
		}
	}
	return patterns, true
}

// clineCommandList reads run_commands' commands in every form its input
// union takes (core@166853): commands as a list of strings or one string,
// command (with its argv list args: {command, args} runs the executable
// command with args, no shell), cmd. ok is false when a value is of
// another kind.
func clineCommandList(a map[string]any) (cmds []string, ok bool) {
	ok = true
	for _, k := range []string{"commands", "command", "cmd"} {
		switch v := a[k].(type) {
		case nil:
		case string:
			if k == "command" && a["args"] != nil {
				line, argsOK := clineArgv(v, a["args"])
				ok = ok && argsOK
				v = line
			}
			cmds = append(cmds, v)
		case []any:
			for _, c := range v {
				s, isString := c.(string)
				if !isString {
					ok = false
					continue
				}
				cmds = append(cmds, s)
			}
		default:
			ok = false
		}
	}
	return cmds, ok
}

// clineArgv is {command, args} as one shell command line: command, then
// each of args quoted as one literal word (the executable gets them as
// argv, unexpanded). ok is false when args is not a list of strings that
// quote.
func clineArgv(command string, args any) (line string, ok bool) {
	list, isList := args.([]any)
	if !isList {
		return command, false
	}
	words := []string{command}
	for _, arg := range list {
		s, isString := arg.(string)
		if !isString {
			return command, false
		}
		q, err := syntax.Quote(s, syntax.LangBash)
		if err != nil {
			return command, false
		}
		words = append(words, q)
	}
	return strings.Join(words, " "), true
}

// clineCommandsUncarried says why a run_commands call cannot be shown to
// another agent's hook as one shell command: a command that is not a
// string (Cline's union takes objects with a command too), which a guard
// would not see.
func clineCommandsUncarried(a map[string]any) string {
	if _, ok := clineCommandList(a); !ok {
		return "run_commands holds a command that is not a string, which no shell call carries"
	}
	return ""
}

// piOneEdit is the one {oldText, newText} of a Pi edits[] list, with no
// other member, or false.
func piOneEdit(v any) (map[string]any, bool) {
	l, _ := v.([]any)
	one, _ := firstOnly(l).(map[string]any)
	if one == nil || len(one) != 2 {
		return nil, false
	}
	_, o := one["oldText"].(string)
	_, n := one["newText"].(string)
	return one, o && n
}

// firstOnly returns the only element of list, or nil.
func firstOnly(list []any) any {
	if len(list) != 1 {
		return nil
	}
	return list[0]
}

func intArg(a map[string]any, key string) (int, bool) {
	switch v := a[key].(type) {
	case float64:
		return int(v), true
	case int:
		return v, true
	case json.Number:
		n, err := v.Int64()
		return int(n), err == nil
	}
	return 0, false
}

// ToolResult is a tool's result in canonical form.
type ToolResult struct {
	Output    string // the text the model sees (stdout and stderr merged, for a shell)
	Stdout    string // shell only, when known apart from stderr
	Stderr    string
	Display   string // the short text shown to the user
	ExitCode  *int   // shell only, when known
	Failed    bool   // the call failed (a non-zero shell exit or a tool error)
	Error     string // the tool's own error message
	ErrorType string
	// DisplayJSON is Display's JSON encoding as the agent sent it, when it
	// was a string: a converter can copy it instead of re-encoding megabytes.
	DisplayJSON json.RawMessage

	// A file read: the 1-based first line, the lines shown and the lines in
	// the file, when known (0: unknown). Output is then the file's text only.
	StartLine, NumLines, TotalLines int
	// A file write or edit: whether it created the file, and the content
	// before, when known.
	Created  *bool
	Original *string
	// Matches are a content search's matches, when known.
	Matches []Match
	// Cwd is the event's cwd, for converters that show paths relative to it.
	Cwd string
}

// Match is one line a content search found.
type Match struct {
	File string // absolute when known
	Line int
	Text string
}

// ResponseConverter converts a tool_response between a dialect's form and a
// ToolResult. ToCanonical receives the raw tool_response (nil when the event
// has none) and the event's error text; FromCanonical returns the
// tool_response to send (nil for none) and the error text for failure events.
type ResponseConverter struct {
	ToCanonical   func(resp json.RawMessage, errText string) (ToolResult, error)
	FromCanonical func(r ToolResult, input map[string]any) (resp any, errText string)
	Exact         bool // the conversion is faithful both ways
}

// ResponseConverterByName returns a named converter, or nil.
func ResponseConverterByName(name string) *ResponseConverter { return responseConverters()[name] }

var responseConverters = sync.OnceValue(func() map[string]*ResponseConverter {
	return map[string]*ResponseConverter{
		"claudeBash": {
			ToCanonical: func(resp json.RawMessage, errText string) (ToolResult, error) {
				var r ToolResult
				if resp != nil {
					_, fields, err := SplitObject(resp)
					if err != nil {
						return r, fmt.Errorf("tool_response: %w", err)
					}
					if r.Stdout, err = stringValue(fields["stdout"]); err != nil {
						return r, fmt.Errorf("tool_response.stdout: %w", err)
					}
					if r.Stderr, err = stringValue(fields["stderr"]); err != nil {
						return r, fmt.Errorf("tool_response.stderr: %w", err)
					}
					if d := fields["stdout"]; r.Stderr == "" && len(d) > 0 && d[0] == '"' {
						r.DisplayJSON = d
					}
					r.Output = joinLines(r.Stdout, r.Stderr)
					r.Display = r.Output
					zero := 0
					r.ExitCode = &zero
				}
				if errText != "" {
					r.Failed = true
					first, rest, _ := strings.Cut(errText, "\n")
					if n, ok := strings.CutPrefix(first, "Exit code "); ok {
						if code, err := strconv.Atoi(n); err == nil {
							r.ExitCode = &code
							r.Output, r.Display = rest, rest
							return r, nil
						}
					}
					r.Error, r.Output, r.Display = errText, errText, errText
				}
				return r, nil
			},
			FromCanonical: func(r ToolResult, _ map[string]any) (any, string) {
				if r.Failed {
					if r.ExitCode != nil {
						return nil, strings.TrimRight(fmt.Sprintf("Exit code %d\n%s", *r.ExitCode, r.Output), "\n")
					}
					return nil, cmp.Or(r.Error, r.Output)
				}
				if r.Stdout == "" && r.Stderr == "" && r.DisplayJSON != nil && r.Display != "" {
					// Copy the agent's own encoding of a possibly huge text
					// instead of encoding it again.
					var b bytes.Buffer
					b.Grow(len(r.DisplayJSON) + 64)
					b.WriteString(`{"stdout":`)
					b.Write(r.DisplayJSON)
					b.WriteString(`,"stderr":"","interrupted":false,"isImage":false}`)
					return json.RawMessage(b.Bytes()), ""
				}
				stdout := r.Stdout
				if r.Stdout == "" && r.Stderr == "" {
					stdout = cmp.Or(r.Display, r.Output)
				}
				return map[string]any{"stdout": stdout, "stderr": r.Stderr, "interrupted": false, "isImage": false}, ""
			},
		},
		"claudeRead": {
			ToCanonical: func(resp json.RawMessage, errText string) (ToolResult, error) {
				r, m, err := claudeObject(resp, errText)
				if r.Failed && strings.HasPrefix(errText, claudeReadNotFound) {
					r.ErrorType = fileNotFound
				}
				if err != nil || r.Failed || m == nil {
					return r, err
				}
				f, _ := m["file"].(map[string]any)
				r.Output, _ = f["content"].(string)
				r.Display = r.Output
				r.StartLine, _ = intArg(f, "startLine")
				r.NumLines, _ = intArg(f, "numLines")
				r.TotalLines, _ = intArg(f, "totalLines")
				return r, nil
			},
			// Claude's Read result: the lines read, no notice, and the counts
			// of what was read (T§8; PostToolUse.Read.json).
			FromCanonical: func(r ToolResult, input map[string]any) (any, string) {
				if r.Failed && r.ErrorType == fileNotFound && r.Cwd != "" {
					// Claude's own message (PostToolUseFailure.Read.json).
					return nil, claudeReadNotFound + " Note: your current working directory is " + r.Cwd + "."
				}
				if r.Failed {
					return nil, cmp.Or(r.Error, r.Output)
				}
				start, num, total := r.StartLine, r.NumLines, r.TotalLines
				if total == 0 {
					start, _ = intArg(input, "offset")
					start = max(start, 1)
					num = lineCount(r.Output)
					total = start - 1 + num
				}
				return map[string]any{"type": "text", "file": map[string]any{
					"filePath": input["file_path"], "content": r.Output,
					"numLines": num, "startLine": start, "totalLines": total,
				}}, ""
			},
		},
		"claudeWrite": {
			ToCanonical: func(resp json.RawMessage, errText string) (ToolResult, error) {
				r, m, err := claudeObject(resp, errText)
				if err != nil || r.Failed || m == nil {
					return r, err
				}
				p, _ := m["filePath"].(string)
				r.Output, r.Display = "Successfully wrote to "+p, "Successfully wrote to "+p
				created := m["type"] == "create"
				r.Created = &created
				if o, ok := m["originalFile"].(string); ok {
					r.Original = &o
				}
				return r, nil
			},
			// Claude's Write result (PostToolUse.Write.json): "create" or
			// "update", with the content before an update.
			FromCanonical: func(r ToolResult, input map[string]any) (any, string) {
				if r.Failed {
					return nil, cmp.Or(r.Error, r.Output)
				}
				kind := "update"
				if r.Created != nil && *r.Created {
					kind = "create"
				}
				var original any
				if r.Original != nil && kind == "update" {
					original = *r.Original
				}
				return map[string]any{"type": kind, "filePath": input["file_path"], "content": input["content"],
					"structuredPatch": []any{}, "originalFile": original, "userModified": false}, ""
			},
		},
		"claudeEdit": {
			ToCanonical: func(resp json.RawMessage, errText string) (ToolResult, error) {
				r, m, err := claudeObject(resp, errText)
				if err != nil || r.Failed || m == nil {
					return r, err
				}
				p, _ := m["filePath"].(string)
				r.Output, r.Display = "Successfully modified file: "+p, "Successfully modified file: "+p
				if o, ok := m["originalFile"].(string); ok {
					r.Original = &o
				}
				return r, nil
			},
			// Claude's Edit result (PostToolUse.Edit.json).
			FromCanonical: func(r ToolResult, input map[string]any) (any, string) {
				if r.Failed {
					return nil, cmp.Or(r.Error, r.Output)
				}
				replaceAll, _ := input["replace_all"].(bool)
				var original any
				if r.Original != nil {
					original = *r.Original
				}
				return map[string]any{"filePath": input["file_path"], "oldString": input["old_string"],
					"newString": input["new_string"], "originalFile": original, "structuredPatch": []any{},
					"userModified": false, "replaceAll": replaceAll}, ""
			},
		},
		"claudeGlob": {
			ToCanonical: claudeObjectToCanonical(func(m map[string]any) string {
				return strings.Join(stringList(m["filenames"]), "\n")
			}),
			// Claude's Glob result lists paths relative to the cwd
			// (PostToolUse.Glob.json); Gemini's text has a header line and
			// absolute paths (AfterTool.glob.json).
			FromCanonical: func(r ToolResult, _ map[string]any) (any, string) {
				if r.Failed {
					return nil, cmp.Or(r.Error, r.Output)
				}
				// Qwen Code's adds a "---" line under the header
				// (PostToolUse.glob.json); Factory Droid's is bare relative
				// paths (./notes.txt) or "No matching files found".
				files := []string{}
				header := false
				for i, l := range nonEmptyLines(r.Output) {
					if i == 0 && (strings.HasPrefix(l, "Found ") && strings.HasSuffix(l, ":") || strings.HasPrefix(l, "No files found") || l == "No matching files found") {
						header = true
						continue
					}
					if i == 1 && header && l == "---" {
						continue
					}
					if !filepath.IsAbs(l) {
						l = filepath.Clean(l)
					}
					files = append(files, relativeTo(r.Cwd, l))
				}
				return map[string]any{"filenames": files, "numFiles": len(files), "truncated": false, "durationMs": 0}, ""
			},
		},
		"claudeGrep": {
			ToCanonical: claudeObjectToCanonical(func(m map[string]any) string {
				if c, ok := m["content"].(string); ok {
					return c
				}
				return strings.Join(stringList(m["filenames"]), "\n")
			}),
			// Claude's Grep result in content mode: path:line:text lines,
			// paths relative to the cwd (PostToolUse.Grep.json).
			FromCanonical: func(r ToolResult, _ map[string]any) (any, string) {
				if r.Failed {
					return nil, cmp.Or(r.Error, r.Output)
				}
				content := r.Output
				if r.Matches != nil {
					lines := make([]string, len(r.Matches))
					for i, m := range r.Matches {
						lines[i] = fmt.Sprintf("%s:%d:%s", relativeTo(r.Cwd, m.File), m.Line, m.Text)
					}
					content = strings.Join(lines, "\n")
				}
				n := len(nonEmptyLines(content))
				return map[string]any{"mode": "content", "content": content, "numFiles": 0, "filenames": []any{},
					"numLines": n, "totalLines": n}, ""
			},
		},
		// claudeGeneric is used for Claude tools without a converter of their own:
		// the structured response travels as its JSON text.
		"claudeGeneric": {
			ToCanonical: func(resp json.RawMessage, errText string) (ToolResult, error) {
				r := ToolResult{Error: errText, Failed: errText != ""}
				var s string
				if resp != nil && json.Unmarshal(resp, &s) == nil {
					r.Output = s
				} else if resp != nil {
					r.Output = string(resp)
				} else {
					r.Output = errText
				}
				r.Display = r.Output
				return r, nil
			},
			FromCanonical: func(r ToolResult, _ map[string]any) (any, string) {
				if r.Failed {
					return nil, cmp.Or(r.Error, r.Output)
				}
				return r.Output, ""
			},
		},
		"geminiShell": {
			ToCanonical: func(resp json.RawMessage, _ string) (ToolResult, error) {
				r, llm, err := geminiFields(resp, false)
				if err != nil {
					return r, err
				}
				// Only the tail of llmContent matters here: decode just that,
				// not megabytes of output that returnDisplay repeats.
				if code, ok := lastExitCode(stringTail(llm, 4096)); ok {
					r.ExitCode = &code
					r.Failed = r.Failed || code != 0
				} else if !r.Failed {
					zero := 0
					r.ExitCode = &zero
				}
				// The merged output is what returnDisplay shows (live, T§8).
				r.Output = r.Display
				return r, nil
			},
			FromCanonical: func(r ToolResult, _ map[string]any) (any, string) {
				if r.DisplayJSON != nil && r.Display != "" && r.Output == r.Display {
					// Splice the agent's own encoding of a possibly huge text
					// into both fields instead of encoding it twice.
					body := r.DisplayJSON[1 : len(r.DisplayJSON)-1]
					var b bytes.Buffer
					b.Grow(2*len(r.DisplayJSON) + 128)
					b.WriteString(`{"llmContent":"<untrusted_context>\nOutput: `)
					b.Write(body)
					if r.ExitCode != nil && *r.ExitCode != 0 {
						fmt.Fprintf(&b, `\nExit Code: %d`, *r.ExitCode)
					}
					b.WriteString(`\n</untrusted_context>","returnDisplay":`)
					b.Write(r.DisplayJSON)
					b.WriteString(`}`)
					return json.RawMessage(b.Bytes()), ""
				}
				var b strings.Builder
				b.WriteString("<untrusted_context>\nOutput: ")
				// A failed shell command never carries an error object in
				// Gemini (T§15 S4): the text goes into the output.
				out := cmp.Or(r.Output, r.Display, r.Error)
				if out == "" {
					out = "(empty)"
				}
				b.WriteString(out)
				if r.ExitCode != nil && *r.ExitCode != 0 {
					fmt.Fprintf(&b, "\nExit Code: %d", *r.ExitCode)
				}
				b.WriteString("\n</untrusted_context>")
				return map[string]any{"llmContent": b.String(), "returnDisplay": cmp.Or(r.Display, r.Output, r.Error)}, ""
			},
		},
		// read_file: a partial read's text starts with a notice (live-findings
		// 2026-11-23) that is Gemini's, not the file's; the line counts are
		// read from it.
		"geminiRead": {
			ToCanonical: func(resp json.RawMessage, _ string) (ToolResult, error) {
				r, err := geminiToCanonical(resp)
				if err != nil || r.Failed {
					return r, err
				}
				if start, end, total, text, ok := cutReadNotice(r.Output, r.Display); ok {
					r.Output, r.StartLine, r.NumLines, r.TotalLines = text, start, end-start+1, total
					return r, nil
				}
				r.StartLine, r.NumLines = 1, len(strings.Split(r.Output, "\n"))
				r.TotalLines = r.NumLines
				return r, nil
			},
			FromCanonical: func(r ToolResult, input map[string]any) (any, string) {
				if r.Failed && r.ErrorType == fileNotFound {
					// Gemini's own result (AfterTool.read_file.missing.json).
					p, _ := input["file_path"].(string)
					return map[string]any{
						"llmContent":    "Could not read file because no file was found at the specified path.",
						"returnDisplay": "File not found.",
						"error":         map[string]any{"message": "File not found: " + p, "type": fileNotFound},
					}, ""
				}
				if r.Failed || r.TotalLines == 0 {
					return geminiTextFromCanonical(r, input)
				}
				end := r.StartLine + r.NumLines - 1
				if r.StartLine <= 1 && end >= r.TotalLines {
					return map[string]any{"llmContent": r.Output, "returnDisplay": ""}, ""
				}
				p, _ := input["file_path"].(string)
				return map[string]any{
					"llmContent":    fmt.Sprintf(readNotice, r.StartLine, end, r.TotalLines, end+1) + r.Output,
					"returnDisplay": fmt.Sprintf("Read lines %d-%d of %d from %s", r.StartLine, end, r.TotalLines, relativeTo(r.Cwd, p)),
				}, ""
			},
		},
		// write_file (WriteFileToolInvocation.execute in 0.61.0): the message
		// and the diff display object; the diff text itself is not rebuilt.
		"geminiWrite": {
			ToCanonical: func(resp json.RawMessage, _ string) (ToolResult, error) { return geminiToCanonical(resp) },
			FromCanonical: func(r ToolResult, input map[string]any) (any, string) {
				if r.Failed {
					return geminiTextFromCanonical(r, input)
				}
				p, _ := input["file_path"].(string)
				content, _ := input["content"].(string)
				created := r.Created != nil && *r.Created
				msg := "Successfully overwrote file: " + p + "."
				if created {
					msg = "Successfully created and wrote to new file: " + p + "."
				}
				return map[string]any{
					"llmContent":    msg + " Here is the updated code:\n" + content,
					"returnDisplay": geminiFileDisplay(p, r.Original, content, created),
				}, ""
			},
		},
		// replace (EditToolInvocation.execute in 0.61.0).
		"geminiEdit": {
			ToCanonical: func(resp json.RawMessage, _ string) (ToolResult, error) { return geminiToCanonical(resp) },
			FromCanonical: func(r ToolResult, input map[string]any) (any, string) {
				if r.Failed || r.Original == nil {
					return geminiTextFromCanonical(r, input)
				}
				p, _ := input["file_path"].(string)
				oldS, _ := input["old_string"].(string)
				newS, _ := input["new_string"].(string)
				n := 1
				if all, _ := input["allow_multiple"].(bool); all {
					n = -1
				}
				count := strings.Count(*r.Original, oldS)
				if n == 1 || oldS == "" {
					count = min(count, 1)
				}
				content := strings.Replace(*r.Original, oldS, newS, n)
				return map[string]any{
					"llmContent":    fmt.Sprintf("Successfully modified file: %s (%d replacements). Here is the updated code:\n%s", p, count, content),
					"returnDisplay": geminiFileDisplay(p, r.Original, content, false),
				}, ""
			},
		},
		// glob (GlobLogic in 0.61.0): a header line, then absolute paths.
		"geminiGlob": {
			ToCanonical: func(resp json.RawMessage, _ string) (ToolResult, error) { return geminiToCanonical(resp) },
			FromCanonical: func(r ToolResult, input map[string]any) (any, string) {
				if r.Failed {
					return geminiTextFromCanonical(r, input)
				}
				pattern, _ := input["pattern"].(string)
				dir, _ := input["dir_path"].(string)
				dir = cmp.Or(dir, r.Cwd)
				files := nonEmptyLines(r.Output)
				if len(files) == 0 {
					return map[string]any{"llmContent": "No files found matching pattern \"" + pattern + "\" within " + dir, "returnDisplay": "No files found"}, ""
				}
				for i, f := range files {
					if !filepath.IsAbs(f) && r.Cwd != "" {
						files[i] = filepath.Join(r.Cwd, f)
					}
				}
				return map[string]any{
					"llmContent":    fmt.Sprintf("Found %d file(s) matching \"%s\" within %s, sorted by modification time (newest first):\n%s", len(files), pattern, dir, strings.Join(files, "\n")),
					"returnDisplay": fmt.Sprintf("Found %d matching file(s)", len(files)),
				}, ""
			},
		},
		// Qwen Code's grep_search: Gemini's shape, but its returnDisplay
		// is a summary string, so the matches are read from llmContent
		// ("File: <path>" then "L<n>: <line>", context lines "L<n>- ";
		// PostToolUse.grep_search.json). Paths are relative to the
		// searched directory.
		"qwenGrep": {
			ToCanonical: func(resp json.RawMessage, _ string) (ToolResult, error) {
				r, err := geminiToCanonical(resp)
				if err != nil || r.Failed || r.Matches != nil {
					return r, err
				}
				file := ""
				for _, l := range strings.Split(r.Output, "\n") {
					if f, ok := strings.CutPrefix(l, "File: "); ok {
						file = f
						continue
					}
					n, text, ok := strings.Cut(strings.TrimPrefix(l, "L"), ": ")
					if line, err := strconv.Atoi(n); ok && err == nil && file != "" && strings.HasPrefix(l, "L") {
						r.Matches = append(r.Matches, Match{File: file, Line: line, Text: text})
					}
				}
				return r, nil
			},
			FromCanonical: geminiTextFromCanonical,
		},
		"geminiText": {
			ToCanonical:   func(resp json.RawMessage, _ string) (ToolResult, error) { return geminiToCanonical(resp) },
			FromCanonical: geminiTextFromCanonical,
		},
		// Copilot CLI's toolResult, for every tool (live, 2026-11-23):
		// {resultType, textResultForLlm}; a failed call's hook gets error, a
		// string, instead (SDK PostToolUseFailureHookInput).
		"copilotResult": {
			ToCanonical:   copilotToCanonical,
			FromCanonical: copilotFromCanonical,
		},
	}
})

func copilotToCanonical(resp json.RawMessage, errText string) (ToolResult, error) {
	var r ToolResult
	if resp != nil {
		_, fields, err := SplitObject(resp)
		if err != nil {
			return r, fmt.Errorf("toolResult: %w", err)
		}
		if r.Output, err = stringValue(fields["textResultForLlm"]); err != nil {
			return r, fmt.Errorf("toolResult.textResultForLlm: %w", err)
		}
		kind, err := stringValue(fields["resultType"])
		if err != nil {
			return r, fmt.Errorf("toolResult.resultType: %w", err)
		}
		r.Failed = kind == "failure"
	}
	if errText != "" {
		r.Failed, r.Error = true, errText
		r.Output = cmp.Or(r.Output, errText)
	}
	return r, nil
}

func copilotFromCanonical(r ToolResult, _ map[string]any) (any, string) {
	if r.Failed {
		// postToolUseFailure hooks get the message, not the result.
		return nil, cmp.Or(r.Error, r.Stderr, r.Output, "the tool failed")
	}
	return map[string]any{"resultType": "success", "textResultForLlm": cmp.Or(r.Output, r.Stdout)}, ""
}

// A read of a missing file: Claude's error starts with claudeReadNotFound;
// Gemini's error type is fileNotFound.
const (
	claudeReadNotFound = "File does not exist."
	fileNotFound       = "file_not_found"
)

// readNotice is what Gemini CLI 0.61.0 puts before the lines of a partial
// read (ReadFileToolInvocation.execute).
const readNotice = "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines %d-%d of %d total lines.\nAction: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use start_line: %d.\n\n--- FILE CONTENT (truncated) ---\n"

var readNoticeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\nIMPORTANT: The file content has been truncated\.\nStatus: Showing lines (\d+)-(\d+) of (\d+) total lines\.\nAction: [^\n]*\n\n--- FILE CONTENT \(truncated\) ---\n`)
})

// cutReadNotice splits Gemini's notice off a partial read's text. The
// display text says the read was partial, so a file that starts with a
// look-alike notice is not cut.
func cutReadNotice(llm, display string) (start, end, total int, text string, ok bool) {
	if !strings.HasPrefix(display, "Read lines ") && !strings.HasSuffix(display, "(some lines were shortened)") {
		return 0, 0, 0, "", false
	}
	m := readNoticeRE().FindStringSubmatch(llm)
	if m == nil {
		return 0, 0, 0, "", false
	}
	start, _ = strconv.Atoi(m[1])
	end, _ = strconv.Atoi(m[2])
	total, _ = strconv.Atoi(m[3])
	if start < 1 || end < start-1 {
		return 0, 0, 0, "", false
	}
	return start, end, total, llm[len(m[0]):], true
}

// lineCount counts lines as Claude's Read does: a last line without a
// newline counts.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// relativeTo shows p relative to dir when it lies inside it.
func relativeTo(dir, p string) string {
	if dir == "" || !filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return p
	}
	return rel
}

// claudeObject decodes a Claude tool_response object; a failure or a
// string response comes back in the ToolResult with a nil map.
func claudeObject(resp json.RawMessage, errText string) (ToolResult, map[string]any, error) {
	if errText != "" {
		return ToolResult{Failed: true, Error: errText, Output: errText, Display: errText}, nil, nil
	}
	var m map[string]any
	if resp == nil {
		return ToolResult{}, nil, nil
	}
	if err := json.Unmarshal(resp, &m); err != nil {
		var s string
		if json.Unmarshal(resp, &s) == nil {
			return ToolResult{Output: s, Display: s}, nil, nil
		}
		return ToolResult{}, nil, fmt.Errorf("tool_response: %w", err)
	}
	return ToolResult{}, m, nil
}

func claudeObjectToCanonical(text func(map[string]any) string) func(json.RawMessage, string) (ToolResult, error) {
	return func(resp json.RawMessage, errText string) (ToolResult, error) {
		if errText != "" {
			return ToolResult{Failed: true, Error: errText, Output: errText, Display: errText}, nil
		}
		var m map[string]any
		if resp != nil {
			if err := json.Unmarshal(resp, &m); err != nil {
				var s string
				if json.Unmarshal(resp, &s) == nil {
					return ToolResult{Output: s, Display: s}, nil
				}
				return ToolResult{}, fmt.Errorf("tool_response: %w", err)
			}
		}
		out := text(m)
		return ToolResult{Output: out, Display: out}, nil
	}
}

// geminiFileDisplay is the returnDisplay of Gemini's file-changing tools,
// without fileDiff and diffStat, which hookx does not rebuild.
func geminiFileDisplay(p string, original *string, content string, created bool) map[string]any {
	var orig any
	if original != nil {
		orig = *original
	} else if created {
		orig = ""
	}
	return map[string]any{"fileName": filepath.Base(p), "filePath": p, "originalContent": orig,
		"newContent": content, "isNewFile": created, "isBuildFile": false}
}

func geminiTextFromCanonical(r ToolResult, _ map[string]any) (any, string) {
	resp := map[string]any{"llmContent": r.Output, "returnDisplay": cmp.Or(r.Display, r.Output)}
	if r.Failed {
		resp["error"] = map[string]any{"message": cmp.Or(r.Error, r.Output), "type": cmp.Or(r.ErrorType, "unknown")}
	}
	return resp, ""
}

func geminiToCanonical(resp json.RawMessage) (ToolResult, error) {
	r, _, err := geminiFields(resp, true)
	return r, err
}

// geminiFields reads a Gemini tool_response; it decodes llmContent into
// Output only when asked, and returns it raw.
func geminiFields(resp json.RawMessage, decodeLLM bool) (ToolResult, json.RawMessage, error) {
	var r ToolResult
	if resp == nil {
		return r, nil, nil
	}
	_, fields, err := SplitObject(resp)
	if err != nil {
		return r, nil, fmt.Errorf("tool_response: %w", err)
	}
	if decodeLLM {
		r.Output = partsText(fields["llmContent"])
	}
	r.Display = partsText(fields["returnDisplay"])
	if d := fields["returnDisplay"]; len(d) > 0 && d[0] == '{' {
		geminiDisplayObject(d, &r)
	}
	if d := fields["returnDisplay"]; len(d) > 0 && d[0] == '"' {
		r.DisplayJSON = d
	}
	if e := fields["error"]; e != nil && string(e) != "null" {
		var ge struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		}
		if json.Unmarshal(e, &ge) != nil {
			ge.Message = partsText(e) // an error that is not the usual object
		}
		r.Failed, r.Error, r.ErrorType = true, ge.Message, ge.Type
	}
	return r, fields["llmContent"], nil
}

// geminiDisplayObject reads what a structured returnDisplay tells: a file
// diff's original content and whether the file is new (write_file, replace),
// a search's matches (grep_search).
func geminiDisplayObject(d json.RawMessage, r *ToolResult) {
	var o struct {
		OriginalContent *string `json:"originalContent"`
		IsNewFile       *bool   `json:"isNewFile"`
		Matches         []struct {
			FilePath     string `json:"filePath"`
			AbsolutePath string `json:"absolutePath"`
			LineNumber   int    `json:"lineNumber"`
			Line         string `json:"line"`
		} `json:"matches"`
	}
	if json.Unmarshal(d, &o) != nil {
		return
	}
	r.Created = o.IsNewFile
	if o.OriginalContent != nil && (o.IsNewFile == nil || !*o.IsNewFile) {
		r.Original = o.OriginalContent
	}
	for _, m := range o.Matches {
		r.Matches = append(r.Matches, Match{File: cmp.Or(m.AbsolutePath, m.FilePath), Line: m.LineNumber, Text: m.Line})
	}
}

// stringTail returns the text of the last n bytes or so of a JSON string or
// parts array, cut at an escape boundary; the whole text for anything else.
func stringTail(raw json.RawMessage, n int) string {
	if len(raw) < n+2 || raw[0] != '"' {
		return partsText(raw)
	}
	body := raw[1 : len(raw)-1]
	cut := len(body) - n
	// Step back to a byte that no backslash escapes.
	for cut > 0 && body[cut-1] == '\\' {
		cut--
	}
	// An even run of backslashes before cut is complete escapes; an odd run
	// means cut sits inside one: skip forward past it.
	run := 0
	for i := cut - 1; i >= 0 && body[i] == '\\'; i-- {
		run++
	}
	tail := body[cut:]
	if run%2 == 1 {
		tail = body[cut+1:]
	}
	if s, err := UnquoteString(append(append([]byte{'"'}, tail...), '"')); err == nil {
		return s
	}
	return partsText(raw)
}

// stringValue decodes a JSON string; absent or null is "".
func stringValue(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	return UnquoteString(raw)
}

// partsText returns the text of a string, or of an array of Gemini parts, or
// the JSON itself for anything else.
func partsText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		if s, err := UnquoteString(raw); err == nil {
			return s
		}
	}
	var parts []struct {
		Text *string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var texts []string
		for _, p := range parts {
			if p.Text != nil {
				texts = append(texts, *p.Text)
			}
		}
		if len(texts) > 0 {
			return strings.Join(texts, "\n")
		}
	}
	return string(raw)
}

// lastExitCode finds the last "Exit Code: N" line Gemini adds after a shell
// command's output; the command can print a look-alike line itself (T§3.2).
func lastExitCode(llm string) (int, bool) {
	const marker = "\nExit Code: "
	// Gemini writes the line near the end, before the process group line and
	// the closing tag; a look-alike further up is the command's own output.
	if len(llm) > 4096 {
		llm = llm[len(llm)-4096:]
	}
	for end := len(llm); end > 0; {
		i := strings.LastIndex(llm[:end], marker)
		if i < 0 {
			return 0, false
		}
		rest := llm[i+len(marker):]
		line, _, _ := strings.Cut(rest, "\n")
		if n, err := strconv.Atoi(line); err == nil {
			return n, true
		}
		end = i
	}
	return 0, false
}

func joinLines(a, b string) string {
	if b == "" {
		return a
	}
	if a == "" {
		return b
	}
	return a + "\n" + b
}

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// EventConverter adjusts an event's top-level payload fields between a
// dialect's form and the canonical form, in place.
type EventConverter struct {
	ToCanonical   func(p map[string]any)
	FromCanonical func(p map[string]any)
}

// EventConverterByName returns a named converter, or nil.
func EventConverterByName(name string) *EventConverter { return eventConverters()[name] }

// noResponseText is what Gemini sends when the turn produced no text.
const noResponseText = "[no response text]"

var eventConverters = sync.OnceValue(func() map[string]*EventConverter {
	return map[string]*EventConverter{
		"geminiAfterAgent": {
			ToCanonical: func(p map[string]any) {
				if p["response"] == noResponseText {
					delete(p, "response")
				}
			},
			FromCanonical: func(p map[string]any) {
				if s, _ := p["response"].(string); s == "" {
					p["response"] = noResponseText
				}
			},
		},
		"geminiNotification": {
			ToCanonical: func(p map[string]any) {
				if d, ok := p["details"].(map[string]any); ok {
					if t, ok := d["title"]; ok {
						p["title"] = t
					}
				}
			},
			FromCanonical: func(p map[string]any) {
				if _, ok := p["details"]; !ok {
					d := map[string]any{}
					if t, ok := p["title"]; ok {
						d["title"] = t
					}
					p["details"] = d
				}
				delete(p, "title")
			},
		},
	}
})

// Router picks which canonical event a payload carries, for a dialect event
// that carries several.
// It is given the payload's tool result in canonical form.
type Router func(r ToolResult) string

var routers = sync.OnceValue(func() map[string]Router {
	return map[string]Router{
		// A Gemini AfterTool is a failure when tool_response.error is present, or
		// when a shell command's last "Exit Code: N" line has N ≠ 0 (T§3.2); the
		// geminiShell converter reads both into Failed.
		"geminiAfterTool": func(r ToolResult) string {
			if r.Failed {
				return "tool.failed"
			}
			return "tool.after"
		},
		// Pi's tool_result (through hookx's extension) is a failure when
		// Pi says isError: the extension then sends the text as error.
		"failedResult": func(r ToolResult) string {
			if r.Failed {
				return "tool.failed"
			}
			return "tool.after"
		},
	}
})

// RouterByName returns a named router, or nil.
func RouterByName(name string) Router { return routers()[name] }

// DeriveContext is what a deriver may look at.
type DeriveContext struct {
	Field func(name string) []byte // a field of the payload being built, as JSON
	// Source is a field of the host's own payload, as JSON (nil when it
	// has none), for ids the target derives from one the source keeps to
	// itself.
	Source    func(name string) []byte
	Canonical string // the canonical event
	MCPServer string // set for MCP tools
	MCPTool   string
	Now       func() time.Time
}

// stableToolUseID is an id made from the session and the tool call, so a
// PreToolUse and its PostToolUse get the same id when their input matches.
func stableToolUseID(c DeriveContext) string {
	h := sha256.New()
	h.Write(c.Field("session_id"))
	h.Write(c.Field("tool_name"))
	h.Write(c.Field("tool_input"))
	return "toolu_hookx_" + hex.EncodeToString(h.Sum(nil))[:24]
}

// Deriver computes a field the target dialect's hooks expect and the source
// dialect does not send. It returns false when the field does not apply.
type Deriver func(c DeriveContext) (any, bool)

var derivers = sync.OnceValue(func() map[string]Deriver {
	return map[string]Deriver{
		"timestamp": func(c DeriveContext) (any, bool) {
			return c.Now().UTC().Format("2006-01-02T15:04:05.000Z"), true
		},
		// timestampMs is Copilot CLI's: milliseconds since the epoch.
		"timestampMs": func(c DeriveContext) (any, bool) {
			return c.Now().UnixMilli(), true
		},
		// toolUseID makes a stable id from the session and the tool call, so a
		// PreToolUse and its PostToolUse get the same id when their input matches.
		"toolUseID": func(c DeriveContext) (any, bool) {
			if !strings.HasPrefix(c.Canonical, "tool.") {
				return nil, false
			}
			return stableToolUseID(c), true
		},
		// hostToolUseID gives a hook the host's own id of the tool call
		// where the host keeps it to itself (Claude's and Qwen Code's
		// tool_use_id are private), and toolUseID's stable id where the
		// host sends none: a plugin host's hook always gets one.
		"hostToolUseID": func(c DeriveContext) (any, bool) {
			if !strings.HasPrefix(c.Canonical, "tool.") {
				return nil, false
			}
			var id string
			if c.Source != nil && json.Unmarshal(c.Source("tool_use_id"), &id) == nil && id != "" {
				return id, true
			}
			return stableToolUseID(c), true
		},
		// turnID gives a Codex hook the turn_id Codex sends on every event of a
		// turn (not on SessionStart or SessionEnd): the id of the user prompt
		// the event belongs to, where the host has one (Claude's prompt_id).
		"turnID": func(c DeriveContext) (any, bool) {
			if c.Canonical == "session.start" || c.Canonical == "session.end" || c.Source == nil {
				return nil, false
			}
			var id string
			if json.Unmarshal(c.Source("prompt_id"), &id) != nil || id == "" {
				return nil, false
			}
			return id, true
		},
		"mcpContext": func(c DeriveContext) (any, bool) {
			if c.MCPServer == "" || !strings.HasPrefix(c.Canonical, "tool.") {
				return nil, false
			}
			return map[string]any{"server_name": c.MCPServer, "tool_name": c.MCPTool}, true
		},
	}
})

// DeriverByName returns a named deriver, or nil.
func DeriverByName(name string) Deriver { return derivers()[name] }

// SplitMCP splits an MCP tool name into server and tool. known lists server
// names to prefer when the split is ambiguous; nil splits at the first
// separator, as Gemini does.
func (d *Dialect) SplitMCP(name string, known []string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, d.MCP.Prefix)
	if !ok || d.MCP.Prefix == "" && d.MCP.Separator == "" || d.Tool(name) != nil {
		return "", "", false
	}
	for _, k := range known {
		if t, ok := strings.CutPrefix(rest, k+d.MCP.Separator); ok && t != "" {
			return k, t, true
		}
	}
	server, tool, ok = strings.Cut(rest, d.MCP.Separator)
	if !ok || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}

// MCPSplits are every way an MCP tool name of d splits into server and
// tool, the first separator's first (SplitMCP's): where the separator may
// also stand inside a server's or a tool's name (OpenCode's server_tool,
// Crush's and Pi's mcp_server_tool, with servers and tools named
// my_server, create_issue), the name alone does not say which server's
// tool it is.
func (d *Dialect) MCPSplits(name string) [][2]string {
	first, _, ok := d.SplitMCP(name, nil)
	if !ok {
		return nil
	}
	rest := name[len(d.MCP.Prefix):]
	out := [][2]string{}
	for i := len(first); i+len(d.MCP.Separator) < len(rest); i++ {
		if strings.HasPrefix(rest[i:], d.MCP.Separator) && i > 0 {
			out = append(out, [2]string{rest[:i], rest[i+len(d.MCP.Separator):]})
		}
	}
	return out
}

var mcpUnsafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9_\-.:]`) })

// MCPName builds the dialect's name for an MCP tool. exact is false when the
// name had to be sanitised or shortened (T§7), and always where the dialect
// names MCP tools bare (MCPNote says why).
func (d *Dialect) MCPName(server, tool string) (name string, exact bool) {
	if d.MCP.Bare != nil {
		return d.bareMCPName(tool), false
	}
	body := server + d.MCP.Separator + tool
	exact = true
	if d.MCP.Sanitize {
		clean := mcpUnsafe().ReplaceAllString(body, "_")
		exact = clean == body
		body = clean
	}
	name = d.MCP.Prefix + body
	if d.MCP.MaxLength > 0 && len(name) > d.MCP.MaxLength {
		name = name[:30] + "..." + name[len(name)-30:]
		exact = false
	}
	return name, exact
}

// MCPNames are every name the dialect may give an MCP tool: MCPName's, and
// where it names MCP tools bare, the server's form it takes when that name
// is already taken (Prefix+server+Separator+tool, unsanitised).
func (d *Dialect) MCPNames(server, tool string) []string {
	n, _ := d.MCPName(server, tool)
	if d.MCP.Bare == nil {
		return []string{n}
	}
	return []string{n, d.MCP.Prefix + server + d.MCP.Separator + tool}
}

// MCPNote says why an MCP name built by MCPName is not the tool's exact
// counterpart.
func (d *Dialect) MCPNote() string {
	if d.MCP.Bare != nil {
		return fmt.Sprintf("%s names an MCP tool by its own name, without its server (%s<server>%s<tool> only when that name is taken): another server's tool of that name looks the same",
			d.Agent, d.MCP.Prefix, d.MCP.Separator)
	}
	return "the MCP name is sanitised or shortened on the target"
}

// MCPForm is how the dialect names MCP tools, for people.
func (d *Dialect) MCPForm() string {
	q := d.MCP.Prefix + "<server>" + d.MCP.Separator + "<tool>"
	if d.MCP.Bare != nil {
		return "<tool> (" + q + " only when that name is taken)"
	}
	return q
}

// bareMCPName is JavaScript's name.replace(/unsafe/g, "_"), shortened to
// head+join+tail past maxLength, over UTF-16 units as JavaScript counts
// them (TerminaI's generateValidName).
func (d *Dialect) bareMCPName(tool string) string {
	b := d.MCP.Bare
	re := regexp.MustCompile(b.Unsafe)
	var out strings.Builder
	for _, r := range tool {
		if !re.MatchString(string(r)) {
			out.WriteRune(r)
			continue
		}
		out.WriteByte('_')
		if r > 0xFFFF {
			out.WriteByte('_') // a surrogate pair: two units, each replaced
		}
	}
	n := out.String()
	if b.MaxLength > 0 && len(n) > b.MaxLength { // ASCII now: bytes are units
		n = n[:b.Head] + b.Join + n[len(n)-b.Tail:]
	}
	return n
}

// offsetLimit converts a tool's offset and limit, with first the offset of
// a file's first line (1 for Claude's Read, which also reads 0 as 1; 0 for
// Qwen's read_file), to the canonical 1-based start_line/end_line and back.
func offsetLimit(first int) *InputConverter {
	return &InputConverter{
		Args:      []string{"offset", "limit"},
		Canonical: []string{"start_line", "end_line"},
		ToCanonical: func(a map[string]any) []string {
			off, hasOff := intArg(a, "offset")
			lim, hasLim := intArg(a, "limit")
			delete(a, "offset")
			delete(a, "limit")
			if !hasOff && !hasLim {
				return nil
			}
			start := max(off-first+1, 1)
			a["start_line"] = start
			if hasLim {
				a["end_line"] = start + lim - 1
			}
			return nil
		},
		FromCanonical: func(a map[string]any) []string {
			start, hasStart := intArg(a, "start_line")
			end, hasEnd := intArg(a, "end_line")
			delete(a, "start_line")
			delete(a, "end_line")
			if !hasStart && !hasEnd {
				return nil
			}
			if !hasStart || start < 1 {
				start = 1
			}
			a["offset"] = start - 1 + first
			if hasEnd && end >= start {
				a["limit"] = end - start + 1
			}
			return nil
		},
	}
}
