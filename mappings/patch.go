package mappings

import (
	"fmt"
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

// patchEdit is the one edit a patch holds, when it holds exactly one.
type patchEdit struct {
	path     string
	old, new string
}

// onePatchEdit reads a patch as one edit, or says why it is not one.
func onePatchEdit(patch string) (patchEdit, string) {
	lines := strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) < 2 || strings.TrimSpace(lines[0]) != "*** Begin Patch" || strings.TrimSpace(lines[len(lines)-1]) != "*** End Patch" {
		return patchEdit{}, "the patch is not one *** Begin Patch … *** End Patch envelope"
	}
	body := lines[1 : len(lines)-1]
	var ops []int
	for i, l := range body {
		if strings.HasPrefix(l, "*** ") && !strings.HasPrefix(l, "*** End of File") {
			if !strings.HasPrefix(l, "*** Move to: ") {
				ops = append(ops, i)
			}
		}
	}
	if len(ops) != 1 || ops[0] != 0 {
		return patchEdit{}, fmt.Sprintf("the patch holds %d file operations; an edit call holds one", len(ops))
	}
	head, rest := body[0], body[1:]
	var e patchEdit
	var oldL, newL []string
	switch {
	case strings.HasPrefix(head, "*** Add File: "):
		e.path = strings.TrimPrefix(head, "*** Add File: ")
		for _, l := range rest {
			if !strings.HasPrefix(l, "+") {
				return patchEdit{}, "an added file's line does not start with +"
			}
			newL = append(newL, l[1:])
		}
		e.new = strings.Join(newL, "\n")
		if len(newL) > 0 {
			e.new += "\n"
		}
		return e, ""
	case strings.HasPrefix(head, "*** Update File: "):
		e.path = strings.TrimPrefix(head, "*** Update File: ")
	default:
		return patchEdit{}, "the patch deletes a file; an edit call cannot"
	}
	chunks := 0
	for _, l := range rest {
		switch {
		case strings.HasPrefix(l, "*** Move to: "):
			return patchEdit{}, "the patch moves the file; an edit call cannot"
		case l == "*** End of File":
		case strings.HasPrefix(l, "@@"):
			chunks++
			if chunks > 1 {
				return patchEdit{}, "the patch changes the file in several places; an edit call changes one"
			}
		case strings.HasPrefix(l, "-"):
			oldL = append(oldL, l[1:])
		case strings.HasPrefix(l, "+"):
			newL = append(newL, l[1:])
		case strings.HasPrefix(l, " "), l == "":
			c := strings.TrimPrefix(l, " ")
			oldL, newL = append(oldL, c), append(newL, c)
		default:
			return patchEdit{}, fmt.Sprintf("the patch has a line %q that is no context, removal or addition", l)
		}
	}
	if len(oldL) == 0 {
		return patchEdit{}, "the patch's change has no text to find"
	}
	e.old, e.new = strings.Join(oldL, "\n"), strings.Join(newL, "\n")
	return e, ""
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
