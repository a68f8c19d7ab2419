package migrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/tailscale/hujson"
)

// InputError is a settings file hookx refuses to read or edit. It names the
// file and, when known, the line and column of the problem.
type InputError struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// doc is one parsed settings file.
type doc struct {
	path string
	data []byte
	root hujson.Value
}

func (d *doc) errAt(off int, format string, args ...any) *InputError {
	line, col := lineCol(d.data, off)
	return &InputError{Path: d.path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func lineCol(b []byte, off int) (line, col int) {
	off = min(max(off, 0), len(b))
	line = 1 + bytes.Count(b[:off], []byte("\n"))
	col = 1 + off - (bytes.LastIndexByte(b[:off], '\n') + 1)
	return line, col
}

// MaxDepth and MaxFileSize bound a settings file before it is parsed: the
// parser recurses once per level, and no agent's settings come near either.
const (
	MaxDepth    = 512
	MaxFileSize = 16 << 20
)

// checkBounds refuses a file larger than MaxFileSize or nested deeper than
// MaxDepth, naming the line and column of the bracket that crosses the
// limit. It skips strings and comments, so it never recurses.
func checkBounds(path string, data []byte) error {
	if len(data) > MaxFileSize {
		return &InputError{Path: path, Msg: fmt.Sprintf("is larger than %d MiB; no agent's settings file is this large", MaxFileSize>>20)}
	}
	depth := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '/':
			if i+1 < len(data) && data[i+1] == '/' {
				for i < len(data) && data[i] != '\n' {
					i++
				}
			} else if i+1 < len(data) && data[i+1] == '*' {
				end := bytes.Index(data[i+2:], []byte("*/"))
				if end < 0 {
					return nil // the parser reports the open comment
				}
				i += 2 + end + 1
			}
		case '{', '[':
			if depth++; depth > MaxDepth {
				line, col := lineCol(data, i)
				return &InputError{Path: path, Line: line, Col: col, Msg: fmt.Sprintf("nested more than %d levels deep; hookx refuses it before parsing", MaxDepth)}
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}

var hujsonPos = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`) })

// ParseJSONC parses a settings file as JSONC (hujson) after bounding its
// size and nesting (checkBounds), so that no input can exhaust the parser.
// An error is an *InputError, with the line and column when known. It
// checks syntax only; what an agent accepts beyond it is the caller's.
func ParseJSONC(path string, data []byte) (hujson.Value, error) {
	if err := checkBounds(path, data); err != nil {
		return hujson.Value{}, err
	}
	v, err := hujson.Parse(data)
	if err != nil {
		if m := hujsonPos().FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			return hujson.Value{}, &InputError{Path: path, Line: line, Col: col, Msg: "does not parse: " + m[3]}
		}
		return hujson.Value{}, &InputError{Path: path, Msg: "does not parse: " + err.Error()}
	}
	return v, nil
}

// parseDoc parses a JSONC settings file and refuses what no agent would read:
// an empty file, a syntax error, a root that is not an object, duplicate keys.
func parseDoc(path string, data []byte) (*doc, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &InputError{Path: path, Msg: "file is empty (an agent reads it as invalid JSON); delete it or write {}"}
	}
	v, err := ParseJSONC(path, data)
	if err != nil {
		return nil, err
	}
	d := &doc{path: path, data: data, root: v}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, d.errAt(v.StartOffset, "the top level must be a JSON object")
	}
	if err := d.checkDuplicates(&d.root, ""); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *doc) checkDuplicates(v *hujson.Value, ptr string) error {
	switch c := v.Value.(type) {
	case *hujson.Object:
		seen := map[string]bool{}
		for i := range c.Members {
			name := litString(c.Members[i].Name.Value.(hujson.Literal))
			if seen[name] {
				return d.errAt(c.Members[i].Name.StartOffset, "duplicate key %q in %s (agents keep only one of them)", name, orRoot(ptr))
			}
			seen[name] = true
			if err := d.checkDuplicates(&c.Members[i].Value, ptr+"/"+escapePtr(name)); err != nil {
				return err
			}
		}
	case *hujson.Array:
		for i := range c.Elements {
			if err := d.checkDuplicates(&c.Elements[i], ptr+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "the top-level object"
	}
	return ptr
}

// escapePtr escapes one JSON-pointer token (RFC 6901).
func escapePtr(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// TrailingComma returns the offset of the first trailing comma (which
// Gemini CLI's settings loader rejects), or -1.
func TrailingComma(v *hujson.Value) int {
	switch c := v.Value.(type) {
	case *hujson.Object:
		for i := range c.Members {
			if off := TrailingComma(&c.Members[i].Value); off >= 0 {
				return off
			}
		}
		if n := len(c.Members); n > 0 && c.Members[n-1].Value.AfterExtra != nil {
			return c.Members[n-1].Value.EndOffset + commaIn(c.Members[n-1].Value.AfterExtra)
		}
	case *hujson.Array:
		for i := range c.Elements {
			if off := TrailingComma(&c.Elements[i]); off >= 0 {
				return off
			}
		}
		if n := len(c.Elements); n > 0 && c.Elements[n-1].AfterExtra != nil {
			return c.Elements[n-1].EndOffset + commaIn(c.Elements[n-1].AfterExtra)
		}
	}
	return -1
}

// commaIn is the comma's offset in the extra after a last element.
func commaIn(after hujson.Extra) int {
	return max(bytes.IndexByte(after, ','), 0)
}

// CommentAt returns the offset of the first comment, or -1.
func CommentAt(v *hujson.Value) int {
	if i := extraComment(v.BeforeExtra); i >= 0 {
		return v.StartOffset - len(v.BeforeExtra) + i
	}
	switch c := v.Value.(type) {
	case *hujson.Object:
		for i := range c.Members {
			if off := CommentAt(&c.Members[i].Name); off >= 0 {
				return off
			}
			if off := CommentAt(&c.Members[i].Value); off >= 0 {
				return off
			}
		}
		if i := extraComment(c.AfterExtra); i >= 0 {
			return v.EndOffset - 1 - len(c.AfterExtra) + i
		}
	case *hujson.Array:
		for i := range c.Elements {
			if off := CommentAt(&c.Elements[i]); off >= 0 {
				return off
			}
		}
		if i := extraComment(c.AfterExtra); i >= 0 {
			return v.EndOffset - 1 - len(c.AfterExtra) + i
		}
	}
	if i := extraComment(v.AfterExtra); i >= 0 {
		return v.EndOffset + i
	}
	return -1
}

func extraComment(e hujson.Extra) int {
	if e.IsStandard() {
		return -1
	}
	for i := 0; i+1 < len(e); i++ {
		if e[i] == '/' && (e[i+1] == '/' || e[i+1] == '*') {
			return i
		}
	}
	return 0
}

// standardJSON returns v as plain JSON.
func standardJSON(v *hujson.Value) []byte {
	c := v.Clone()
	c.Standardize()
	return c.Pack()
}

// minimal returns v as compact standard JSON.
func minimal(v *hujson.Value) []byte {
	c := v.Clone()
	c.Minimize()
	return c.Pack()
}

// group is one matcher group of a settings file.
type group struct {
	matcher    *string
	sequential *bool
	off        int
	handlers   []rawHandler
}

// rawHandler is one handler as written, with its known fields decoded.
type rawHandler struct {
	off    int
	raw    json.RawMessage // compact standard JSON, for identity
	keys   []string
	fields handlerFields
}

// handlerFields are the handler fields of either dialect that migrate reads.
type handlerFields struct {
	Type          string            `json:"type"`
	Command       string            `json:"command"`
	Args          []string          `json:"args"`
	Shell         string            `json:"shell"`
	If            string            `json:"if"`
	Timeout       *float64          `json:"timeout"`
	Async         bool              `json:"async"`
	AsyncRewake   bool              `json:"asyncRewake"`
	StatusMessage string            `json:"statusMessage"`
	Description   string            `json:"description"`
	Name          string            `json:"name"`
	Env           map[string]string `json:"env"`
	OnFailure     string            `json:"onFailure"`
	Once          bool              `json:"once"`
}

// event is one event key of a settings file's hooks object.
type event struct {
	name   string
	off    int
	groups []group
}

// readHooks reads the events of a settings file of the given shape,
// refusing shapes no agent accepts. An absent hooks key gives no events.
// Where the events sit at the file's root (hooksKey ""), a root member that
// is no array is not an event: its key is returned in others.
func (d *doc) readHooks(shape mappings.Shape) (evs []event, others []string, err error) {
	hv := d.root.Find(shape.HooksPointer())
	if hv == nil {
		return nil, nil, nil
	}
	obj, ok := hv.Value.(*hujson.Object)
	if !ok {
		return nil, nil, d.errAt(hv.StartOffset, "%s must be an object of event names", shape.Hooks())
	}
	prefix := shape.Hooks() + "."
	if shape.Hooks() == "" {
		prefix = ""
	}
	for i := range obj.Members {
		m := &obj.Members[i]
		name := litString(m.Name.Value.(hujson.Literal))
		if slices.Contains(shape.Reserved, name) {
			continue
		}
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok && prefix == "" {
			others = append(others, name)
			continue
		}
		if !ok {
			return nil, nil, d.errAt(m.Value.StartOffset, "%s%s must be an array of matcher groups", prefix, name)
		}
		ev := event{name: name, off: m.Name.StartOffset}
		for j := range arr.Elements {
			g, err := d.readGroup(prefix+name, j, &arr.Elements[j], shape)
			if err != nil {
				return nil, nil, err
			}
			ev.groups = append(ev.groups, g)
		}
		evs = append(evs, ev)
	}
	return evs, others, nil
}

func (d *doc) readGroup(ev string, j int, v *hujson.Value, shape mappings.Shape) (group, error) {
	g := group{off: v.StartOffset}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return g, d.errAt(v.StartOffset, "%s[%d] must be an object", ev, j)
	}
	if !shape.Grouped() && v.Find("/hooks") == nil {
		// A list of handlers (Copilot CLI): the entry is a group of one,
		// with the handler's own matcher, if it has one.
		if m := v.Find("/matcher"); m != nil {
			lit, ok := m.Value.(hujson.Literal)
			if !ok || lit.Kind() != '"' {
				return g, d.errAt(m.StartOffset, "%s[%d].matcher must be a string", ev, j)
			}
			s := lit.String()
			g.matcher = &s
		}
		rh, err := d.readHandler(v, obj, shape, fmt.Sprintf("%s[%d]", ev, j))
		if err != nil {
			return g, err
		}
		g.handlers = append(g.handlers, rh)
		return g, nil
	}
	var hooks *hujson.Value
	for i := range obj.Members {
		m := &obj.Members[i]
		switch key := litString(m.Name.Value.(hujson.Literal)); key {
		case "matcher":
			lit, ok := m.Value.Value.(hujson.Literal)
			if !ok || lit.Kind() != '"' {
				return g, d.errAt(m.Value.StartOffset, "%s[%d].matcher must be a string", ev, j)
			}
			s := lit.String()
			g.matcher = &s
		case "sequential":
			lit, ok := m.Value.Value.(hujson.Literal)
			if !ok || (lit.Kind() != 't' && lit.Kind() != 'f') {
				return g, d.errAt(m.Value.StartOffset, "%s[%d].sequential must be true or false", ev, j)
			}
			b := lit.Bool()
			g.sequential = &b
		case "hooks":
			hooks = &m.Value
		}
	}
	if hooks == nil {
		return g, d.errAt(v.StartOffset, "%s[%d] has no nested \"hooks\" array (both agents discard such an entry)", ev, j)
	}
	arr, ok := hooks.Value.(*hujson.Array)
	if !ok {
		return g, d.errAt(hooks.StartOffset, "%s[%d].hooks must be an array", ev, j)
	}
	for k := range arr.Elements {
		h := &arr.Elements[k]
		hobj, ok := h.Value.(*hujson.Object)
		if !ok {
			return g, d.errAt(h.StartOffset, "%s[%d].hooks[%d] must be an object", ev, j, k)
		}
		rh, err := d.readHandler(h, hobj, shape, fmt.Sprintf("%s[%d].hooks[%d]", ev, j, k))
		if err != nil {
			return g, err
		}
		g.handlers = append(g.handlers, rh)
	}
	return g, nil
}

// readHandler reads one handler; its command and timeout are read from the
// shape's fields (Copilot CLI's bash and timeoutSec), or else from
// command and timeout, which the agent also takes.
func (d *doc) readHandler(h *hujson.Value, hobj *hujson.Object, shape mappings.Shape, where string) (rawHandler, error) {
	raw := minimal(h)
	rh := rawHandler{off: h.StartOffset, raw: raw}
	for i := range hobj.Members {
		rh.keys = append(rh.keys, litString(hobj.Members[i].Name.Value.(hujson.Literal)))
	}
	if err := json.Unmarshal(raw, &rh.fields); err != nil {
		return rh, d.errAt(h.StartOffset, "%s: %v", where, err)
	}
	var own map[string]json.RawMessage
	_ = json.Unmarshal(raw, &own)
	if c := own[shape.CommandField]; c != nil && shape.CommandField != "command" {
		if err := json.Unmarshal(c, &rh.fields.Command); err != nil {
			return rh, d.errAt(h.StartOffset, "%s.%s: %v", where, shape.CommandField, err)
		}
	}
	if t := own[shape.TimeoutField]; t != nil && shape.TimeoutField != "timeout" {
		if err := json.Unmarshal(t, &rh.fields.Timeout); err != nil {
			return rh, d.errAt(h.StartOffset, "%s.%s: %v", where, shape.TimeoutField, err)
		}
	}
	if rh.fields.Type == "" && shape.TypeOptional {
		// The agent runs a handler without a type as a command (Crush
		// has no type field at all).
		rh.fields.Type = "command"
	}
	if rh.fields.Type == "" {
		return rh, d.errAt(h.StartOffset, "%s has no \"type\"", where)
	}
	return rh, nil
}

// litString is Literal.String with a fast path for names without escapes,
// which is nearly all of them.
func litString(l hujson.Literal) string {
	if len(l) >= 2 && l[0] == '"' && bytes.IndexByte(l, '\\') < 0 {
		return string(l[1 : len(l)-1])
	}
	return l.String()
}
