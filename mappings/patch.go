package mappings

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Codex's apply_patch reaches hooks as {command: <the patch>} (codex-rs
// ApplyPatchHandler.pre_tool_use_payload): a "*** Begin Patch" envelope of
// file operations, each "*** Add File: P" (every line +), "*** Delete File:
// P" or "*** Update File: P" (an optional "*** Move to: Q", then chunks that
// each start with "@@", of " " context, "-" removed and "+" added lines).
// One call of another agent's edit tool is one Update of one file with one
// chunk (old text → new text), or one Add (a new file from nothing); any
// other patch has no one-call counterpart.
//
// The patch is read as Codex's parser reads it (codex-rs/apply-patch
// src/parser.rs, parse_patch in lenient mode): the text trimmed and split
// into lines (\n or \r\n), a hunk's header line trimmed before its marker
// is cut (so "*** Add File: .env " adds ".env"), a Move to line taken as it
// is, and each path resolved against the turn's cwd by
// AbsolutePathBuf::resolve_path_against_base (codex-rs/utils/absolute-path:
// a leading "~" or "~/" is the home directory, then a lexical join that
// removes "." and ".." without looking at the disk).

const (
	patchBegin  = "*** Begin Patch"
	patchEnd    = "*** End Patch"
	patchAdd    = "*** Add File: "
	patchDelete = "*** Delete File: "
	patchUpdate = "*** Update File: "
	patchMove   = "*** Move to: "
	patchEOF    = "*** End of File"
)

// patchHunk is one file operation of a patch, as Codex parses it.
type patchHunk struct {
	op         string // patchAdd, patchDelete or patchUpdate
	path, move string
	hasMove    bool
	header     int // index in the patch's lines of the header
	moveLine   int // and of the Move to line, when hasMove
	content    string
	chunks     []patchChunk
}

type patchChunk struct {
	old, new []string
}

// patchLines is Codex's patch.trim().lines().
func patchLines(patch string) []string {
	t := strings.TrimSpace(patch) // Rust's trim and Go's TrimSpace share one set of spaces
	if t == "" {
		return nil
	}
	lines := strings.Split(t, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// parsePatch is Codex's parse_patch (lenient mode), keeping where each
// hunk's header sits in lines.
func parsePatch(lines []string) ([]patchHunk, error) {
	body, err := patchBody(lines)
	if err != nil {
		return nil, err
	}
	var hunks []patchHunk
	for i := 0; i < len(body.lines); {
		h, n, err := parseHunk(body.lines[i:], body.offset+i)
		if err != nil {
			return nil, err
		}
		hunks = append(hunks, h)
		i += n
	}
	return hunks, nil
}

type patchSpan struct {
	lines  []string
	offset int // index of lines[0] in the patch's lines
}

func patchBody(lines []string) (patchSpan, error) {
	strict := func(l []string, off int) (patchSpan, error) {
		switch {
		case len(l) == 0 || strings.TrimSpace(l[0]) != patchBegin:
			return patchSpan{}, fmt.Errorf("the first line of the patch must be '%s'", patchBegin)
		case len(l) < 2 || strings.TrimSpace(l[len(l)-1]) != patchEnd:
			return patchSpan{}, fmt.Errorf("the last line of the patch must be '%s'", patchEnd)
		}
		return patchSpan{l[1 : len(l)-1], off + 1}, nil
	}
	s, err := strict(lines, 0)
	if err == nil {
		return s, nil
	}
	// Lenient: a heredoc around the patch.
	if n := len(lines); n >= 4 && (lines[0] == "<<EOF" || lines[0] == "<<'EOF'" || lines[0] == `<<"EOF"`) && strings.HasSuffix(lines[n-1], "EOF") {
		return strict(lines[1:n-1], 1)
	}
	return patchSpan{}, err
}

// parseHunk is Codex's parse_one_hunk.
func parseHunk(lines []string, at int) (patchHunk, int, error) {
	first := strings.TrimSpace(lines[0])
	if path, ok := strings.CutPrefix(first, patchAdd); ok {
		h := patchHunk{op: patchAdd, path: path, header: at}
		n := 1
		var b strings.Builder
		for _, l := range lines[1:] {
			add, ok := strings.CutPrefix(l, "+")
			if !ok {
				break
			}
			b.WriteString(add + "\n")
			n++
		}
		h.content = b.String()
		return h, n, nil
	}
	if path, ok := strings.CutPrefix(first, patchDelete); ok {
		return patchHunk{op: patchDelete, path: path, header: at}, 1, nil
	}
	path, ok := strings.CutPrefix(first, patchUpdate)
	if !ok {
		return patchHunk{}, 0, fmt.Errorf("'%s' is not a valid hunk header", first)
	}
	h := patchHunk{op: patchUpdate, path: path, header: at}
	rest, n := lines[1:], 1
	if len(rest) > 0 {
		if mv, ok := strings.CutPrefix(rest[0], patchMove); ok {
			h.move, h.hasMove, h.moveLine = mv, true, at+1
			rest, n = rest[1:], n+1
		}
	}
	for len(rest) > 0 {
		if strings.TrimSpace(rest[0]) == "" {
			rest, n = rest[1:], n+1
			continue
		}
		if strings.HasPrefix(rest[0], "*") {
			break
		}
		c, used, err := parseChunk(rest, len(h.chunks) == 0)
		if err != nil {
			return patchHunk{}, 0, err
		}
		h.chunks = append(h.chunks, c)
		rest, n = rest[used:], n+used
	}
	if len(h.chunks) == 0 {
		return patchHunk{}, 0, fmt.Errorf("update file hunk for path '%s' is empty", path)
	}
	return h, n, nil
}

// parseChunk is Codex's parse_update_file_chunk.
func parseChunk(lines []string, allowMissingContext bool) (patchChunk, int, error) {
	start := 0
	switch {
	case lines[0] == "@@" || strings.HasPrefix(lines[0], "@@ "):
		start = 1
	case !allowMissingContext:
		return patchChunk{}, 0, fmt.Errorf("expected update hunk to start with a @@ context marker, got: '%s'", lines[0])
	}
	if start >= len(lines) {
		return patchChunk{}, 0, fmt.Errorf("update hunk does not contain any lines")
	}
	var c patchChunk
	n := 0
	for _, l := range lines[start:] {
		if l == patchEOF {
			if n == 0 {
				return patchChunk{}, 0, fmt.Errorf("update hunk does not contain any lines")
			}
			n++
			break
		}
		if l == "" {
			c.old, c.new = append(c.old, ""), append(c.new, "")
		} else {
			switch l[0] {
			case ' ':
				c.old, c.new = append(c.old, l[1:]), append(c.new, l[1:])
			case '+':
				c.new = append(c.new, l[1:])
			case '-':
				c.old = append(c.old, l[1:])
			default:
				if n == 0 {
					return patchChunk{}, 0, fmt.Errorf("unexpected line found in update hunk: '%s'", l)
				}
				return c, n + start, nil
			}
		}
		n++
	}
	return c, n + start, nil
}

// codexPatchPath is AbsolutePathBuf::resolve_path_against_base(p, cwd).
func codexPatchPath(p, cwd string) (string, string) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		return p, "Codex takes " + p + " in the home directory of its process"
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), ""
	}
	if !filepath.IsAbs(cwd) {
		return p, "the event has no absolute cwd to resolve " + p + " against"
	}
	return filepath.Join(cwd, p), ""
}

// resolvePatch gives every path of a patch as the absolute path Codex
// writes: the patch comes back with each header naming it. A patch Codex
// would refuse comes back as it was (Codex applies none of it).
func resolvePatch(patch, cwd string) (string, string) {
	lines := patchLines(patch)
	hunks, err := parsePatch(lines)
	if err != nil {
		return patch, ""
	}
	var uncertain []string
	set := func(i int, marker, p string) {
		abs, why := codexPatchPath(p, cwd)
		if why == "" && strings.ContainsAny(abs, "\r\n") {
			// A cwd with a line break would split the header written
			// below into lines of their own ("+x/.env" read as the
			// added file's text, the file as the cwd's first line).
			why = "the path Codex writes, " + strconv.Quote(abs) + ", holds a line break, which a patch's header line cannot"
		}
		if why != "" {
			uncertain = append(uncertain, why)
		}
		lines[i] = marker + abs
	}
	for _, h := range hunks {
		set(h.header, h.op, h.path)
		if h.hasMove {
			set(h.moveLine, patchMove, h.move)
		}
	}
	return strings.Join(lines, "\n") + "\n", strings.Join(uncertain, "; ")
}

// patchEdit is the one edit a patch holds, when it holds exactly one.
type patchEdit struct {
	path     string
	old, new string
}

// onePatchEdit reads a patch as one edit, or says why it is not one.
func onePatchEdit(patch string) (patchEdit, string) {
	hunks, err := parsePatch(patchLines(patch))
	if err != nil {
		return patchEdit{}, "Codex refuses the patch (" + err.Error() + ")"
	}
	if len(hunks) != 1 {
		return patchEdit{}, fmt.Sprintf("the patch holds %d file operations; an edit call holds one", len(hunks))
	}
	h := hunks[0]
	switch {
	case h.path == "~" || strings.HasPrefix(h.path, "~/"):
		// Another agent's edit tool takes ~/x as a file in the project
		// (path.resolve), Codex as one in the home directory: a hook
		// shown ~/.bashrc would check another file than Codex writes.
		return patchEdit{}, "Codex takes " + h.path + " in the home directory of its process; an edit call's path would name a file in the project"
	case h.op == patchAdd:
		return patchEdit{path: h.path, new: h.content}, ""
	case h.op == patchDelete:
		return patchEdit{}, "the patch deletes " + h.path + "; an edit call cannot"
	case h.hasMove:
		return patchEdit{}, "the patch moves " + h.path + " to " + h.move + "; an edit call cannot"
	case len(h.chunks) > 1:
		return patchEdit{}, "the patch changes the file in several places; an edit call changes one"
	}
	c := h.chunks[0]
	if len(c.old) == 0 {
		return patchEdit{}, "the patch's change has no text to find"
	}
	return patchEdit{path: h.path, old: strings.Join(c.old, "\n"), new: strings.Join(c.new, "\n")}, ""
}

// editPatch writes one edit as a patch: an Add for an edit from nothing, an
// Update of one chunk otherwise.
func editPatch(path, old, new string) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	lines := func(prefix, s string) {
		for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			b.WriteString(prefix + l + "\n")
		}
	}
	if old == "" {
		b.WriteString("*** Add File: " + path + "\n")
		if new != "" {
			lines("+", new)
		}
	} else {
		b.WriteString("*** Update File: " + path + "\n@@\n")
		lines("-", old)
		lines("+", new)
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

// applyPatch is the converter of Codex's apply_patch (inputConverters).
var applyPatch = &InputConverter{
	Args:      []string{"command"},
	Canonical: []string{"file_path", "old_string", "new_string", "content"},
	LineArgs:  []string{"file_path"}, // editPatch's "*** Add File: " or "*** Update File: " line
	ToCanonical: func(a map[string]any) []string {
		patch, _ := a["command"].(string)
		e, why := onePatchEdit(patch)
		if why != "" {
			return []string{why}
		}
		delete(a, "command")
		a["file_path"], a["old_string"], a["new_string"] = e.path, e.old, e.new
		if e.old == "" {
			a["content"] = e.new // an added file, as a whole-file write
		}
		return nil
	},
	Uncarried: func(a map[string]any) string {
		if p, ok := a["command"].(string); ok {
			_, why := onePatchEdit(p)
			return why
		}
		return ""
	},
	FromCanonical: func(a map[string]any) []string {
		path, _ := a["file_path"].(string)
		old, _ := a["old_string"].(string)
		new, _ := a["new_string"].(string)
		if content, ok := a["content"].(string); ok && old == "" && new == "" {
			new = content // a whole-file write; a patch adds the file
			notes := []string{"a write is carried as a patch that adds the file; Codex's apply_patch refuses to add a file that exists"}
			delete(a, "content")
			delete(a, "file_path")
			if path != "" {
				a["command"] = editPatch(path, "", new)
			}
			return notes
		}
		delete(a, "content")
		var notes []string
		if all, _ := a["replace_all"].(bool); all {
			notes = append(notes, "replace_all has no counterpart in a patch, which changes the first match of its context")
		}
		for _, k := range []string{"file_path", "old_string", "new_string", "replace_all"} {
			delete(a, k)
		}
		if path != "" {
			a["command"] = editPatch(path, old, new)
		}
		return notes
	},
}
