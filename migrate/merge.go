package migrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// editor makes targeted edits to a parsed settings file: the values it
// inserts are indented like their neighbours, with the file's line ending,
// and nothing else is touched.
type editor struct {
	root *hujson.Value
	nl   string
	unit string
}

func newEditor(d *doc) *editor {
	e := &editor{root: &d.root, nl: "\n", unit: detectIndent(d.data)}
	if bytes.Contains(d.data, []byte("\r\n")) {
		e.nl = "\r\n"
	}
	return e
}

// detectIndent returns the whitespace of the first indented line that is
// not a comment.
func detectIndent(b []byte) string {
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		t := bytes.TrimLeft(line, " \t")
		if len(t) == len(line) || len(bytes.TrimSpace(t)) == 0 {
			continue
		}
		if t[0] == '*' || t[0] == '/' {
			continue // a comment's line, not the file's indentation
		}
		if line[0] == '\t' {
			return "\t"
		}
		return string(line[:len(line)-len(t)])
	}
	return "  "
}

// indentAt returns the leading whitespace of the line where the value at ptr
// starts.
func (e *editor) indentAt(ptr string) string {
	e.root.UpdateOffsets()
	b := e.root.Pack()
	v := e.root.Find(ptr)
	start := bytes.LastIndexByte(b[:v.StartOffset], '\n') + 1
	end := start
	for end < len(b) && (b[end] == ' ' || b[end] == '\t') {
		end++
	}
	return string(b[start:end])
}

// text renders v indented for a line that starts with ind.
func (e *editor) text(v any, ind string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(ind, e.unit)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	if e.nl != "\n" {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte(e.nl))
	}
	return out
}

func (e *editor) patch(op, ptr string, value []byte) error {
	p, _ := json.Marshal(ptr)
	var b bytes.Buffer
	fmt.Fprintf(&b, `[{"op":%q,"path":%s`, op, p)
	if value != nil {
		b.WriteString(`,"value":`)
		b.Write(value)
	}
	b.WriteString("}]")
	return e.root.Patch(b.Bytes())
}

// childIndent is the indentation for a new child of the composite at ptr:
// that of its last child when it sits on a line of its own, else one unit
// more than the composite's line. base returns the composite's line
// indentation; computing it packs the file, so it is done only when needed.
func (e *editor) childIndent(ptr string, last *hujson.Extra) (base func() string, ind string) {
	var b *string
	base = func() string {
		if b == nil {
			s := e.indentAt(ptr)
			b = &s
		}
		return *b
	}
	if last != nil {
		if i := bytes.LastIndexByte(*last, '\n'); i >= 0 {
			if ws := (*last)[i+1:]; len(bytes.Trim(ws, " \t")) == 0 {
				return base, string(ws)
			}
		}
	}
	return base, base() + e.unit
}

// fixNewlines gives a lone LF the file's CRLF: hujson moves comments and
// keeps "the" newline as a bare LF.
func (e *editor) fixNewlines(b hujson.Extra) hujson.Extra {
	if e.nl != "\r\n" {
		return b
	}
	return bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
}

func trimRightSpace(b []byte) []byte { return bytes.TrimRight(b, " \t\r\n") }

// addMember adds key to the object at ptr, after its last member.
func (e *editor) addMember(ptr, key string, v any) error {
	obj := e.root.Find(ptr).Value.(*hujson.Object)
	var last *hujson.Extra
	colon := hujson.Extra(" ")
	if n := len(obj.Members); n > 0 {
		last = &obj.Members[n-1].Name.BeforeExtra
		if ws := obj.Members[n-1].Value.BeforeExtra; len(bytes.Trim(ws, " \t")) == 0 {
			colon = slices.Clone(ws)
		}
	}
	base, ind := e.childIndent(ptr, last)
	if err := e.patch("add", ptr+"/"+escapePtr(key), e.text(v, ind)); err != nil {
		return err
	}
	obj = e.root.Find(ptr).Value.(*hujson.Object)
	m := &obj.Members[len(obj.Members)-1]
	m.Name.BeforeExtra = append(trimRightSpace(m.Name.BeforeExtra), e.nl+ind...)
	m.Value.BeforeExtra = colon
	if !bytes.Contains(obj.AfterExtra, []byte("\n")) {
		obj.AfterExtra = append(trimRightSpace(obj.AfterExtra), e.nl+base()...)
	}
	obj.AfterExtra = e.fixNewlines(obj.AfterExtra)
	return nil
}

// appendElems appends vs to the array at ptr, in one patch.
func (e *editor) appendElems(ptr string, vs []any) error {
	if len(vs) == 0 {
		return nil
	}
	arr := e.root.Find(ptr).Value.(*hujson.Array)
	var last *hujson.Extra
	if n := len(arr.Elements); n > 0 {
		last = &arr.Elements[n-1].BeforeExtra
	}
	base, ind := e.childIndent(ptr, last)
	p, _ := json.Marshal(ptr + "/-")
	var b bytes.Buffer
	b.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"op":"add","path":%s,"value":`, p)
		b.Write(e.text(v, ind))
		b.WriteByte('}')
	}
	b.WriteByte(']')
	if err := e.root.Patch(b.Bytes()); err != nil {
		return err
	}
	arr = e.root.Find(ptr).Value.(*hujson.Array)
	for i := len(arr.Elements) - len(vs); i < len(arr.Elements); i++ {
		el := &arr.Elements[i]
		el.BeforeExtra = append(trimRightSpace(el.BeforeExtra), e.nl+ind...)
	}
	if !bytes.Contains(arr.AfterExtra, []byte("\n")) {
		arr.AfterExtra = append(trimRightSpace(arr.AfterExtra), e.nl+base()...)
	}
	arr.AfterExtra = e.fixNewlines(arr.AfterExtra)
	return nil
}

// closeOnOwnLine re-indents the closing bracket of the array at ptr to its
// opening line's indentation when it sits on a line of its own: removing
// the last element leaves that element's indentation in front of it.
func (e *editor) closeOnOwnLine(ptr string) {
	v := e.root.Find(ptr)
	if v == nil {
		return
	}
	arr, ok := v.Value.(*hujson.Array)
	if !ok {
		return
	}
	i := bytes.LastIndexByte(arr.AfterExtra, '\n')
	if i < 0 || len(bytes.Trim(arr.AfterExtra[i+1:], " \t")) != 0 {
		return
	}
	arr.AfterExtra = append(arr.AfterExtra[:i+1], e.indentAt(ptr)...)
}

// replaceElem replaces the array element at ptr, keeping what surrounds it.
func (e *editor) replaceElem(ptr string, v any) error {
	return e.patch("replace", ptr, e.text(v, e.indentAt(ptr)))
}

// ownedEntry is a hookx-owned group found in the target.
type ownedEntry struct {
	idx    int
	id     string
	std    []byte
	origin entryOrigin
}

// ownedID returns the id of a target group hookx owns: a group with exactly
// one handler whose name (Gemini) or command marker (Claude) is hookx's id
// and whose command has hookx's form (see exactOwned). looksOwned is set
// for a group that has such an id but not the form: a user's hook, left
// alone.
func (p *planner) ownedID(g *hujson.Value) (id string, looksOwned bool) {
	if p.to.Settings.Shape.Grouped() {
		hv := g.Find("/hooks")
		if hv == nil {
			return "", false
		}
		if arr, ok := hv.Value.(*hujson.Array); !ok || len(arr.Elements) != 1 {
			return "", false
		}
	}
	str := func(field string) string {
		f := g.Find(field)
		if f == nil {
			return ""
		}
		lit, ok := f.Value.(hujson.Literal)
		if !ok || lit.Kind() != '"' {
			return ""
		}
		return lit.String()
	}
	shape := p.to.Settings.Shape
	cmd := str(p.handlerPtr() + escapePtr(shape.CommandField))
	if shape.NameField != "" {
		id = str(p.handlerPtr() + escapePtr(shape.NameField))
	} else {
		id = claudeMarker(cmd)
	}
	if exactOwned(id, cmd) {
		return id, false
	}
	return "", IsOwnedID(id)
}

// idParts splits an owned id's base into its event, ordinal and hash.
func idParts(id string) (event, n, hash string) {
	parts := strings.Split(strings.TrimPrefix(baseID(id), OwnedPrefix), ":")
	if len(parts) != 3 {
		return "", "", ""
	}
	return parts[0], parts[1], parts[2]
}

// sameHandler reports whether two ids are of the same source handler: the
// same event and hash (the hash is of the handler itself), at any
// position.
func sameHandler(a, b string) bool {
	ea, _, ha := idParts(a)
	eb, _, hb := idParts(b)
	return ea == eb && ha == hb
}

// sameSlot reports whether two ids are of the same position of the same
// source event.
func sameSlot(a, b string) bool {
	ea, na, _ := idParts(a)
	eb, nb, _ := idParts(b)
	return ea == eb && na == nb
}

func compact(b []byte) []byte {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return b
	}
	return out.Bytes()
}

// apply puts the entries into the target: an owned entry with the same id
// (or, failing that, the same source slot) is replaced in place when it
// differs, stale owned entries of the sources read are removed (others are
// kept, or removed with Options.Prune and reported), new ones appended to
// their event's list. It returns the packed file and the removed ids.
func (p *planner) apply(d *doc, entries []Entry) ([]byte, []string, error) {
	e := newEditor(d)
	hooksPtr := p.to.Settings.Shape.HooksPointer()
	if hv := e.root.Find(hooksPtr); hv == nil {
		if len(entries) == 0 {
			return e.root.Pack(), nil, nil
		}
		if err := e.addMember("", p.to.Settings.Shape.Hooks(), map[string]any{}); err != nil {
			return nil, nil, err
		}
	}
	hooks := e.root.Find(hooksPtr).Value.(*hujson.Object)

	var events []string
	existing := map[string][]ownedEntry{}
	allOwned := map[string]bool{}
	for i := range hooks.Members {
		m := &hooks.Members[i]
		name := litString(m.Name.Value.(hujson.Literal))
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok || slices.Contains(p.to.Settings.Shape.Reserved, name) {
			continue
		}
		allOwned[name] = len(arr.Elements) > 0
		for j := range arr.Elements {
			id, looks := p.ownedID(&arr.Elements[j])
			if id != "" {
				std := minimal(&arr.Elements[j])
				v, _ := p.readGroupView(std)
				existing[name] = append(existing[name], ownedEntry{idx: j, id: id, std: std, origin: p.originOf(id, v.command)})
				continue
			}
			allOwned[name] = false
			if looks {
				line, _ := lineCol(d.data, arr.Elements[j].StartOffset)
				p.add(Item{Level: Note, Source: fmt.Sprintf("%s:%d", d.path, line), Event: name,
					What:   "left alone an entry named like hookx's",
					Reason: "its id has hookx's form but its command is not hookx's (hookx wrap … -- …), so it is taken for the user's own",
					Fix:    "if it is an old hookx entry, delete it by hand"})
			}
		}
		if len(existing[name]) > 0 {
			events = append(events, name)
		}
	}
	want := map[string][]int{}
	for i, en := range entries {
		if _, ok := want[en.Event]; !ok && !slices.Contains(events, en.Event) {
			events = append(events, en.Event)
		}
		want[en.Event] = append(want[en.Event], i)
	}

	var removed []string
	for _, ev := range events {
		ex := existing[ev]
		pair := map[int]int{} // entry index -> existing index in ex
		used := make([]bool, len(ex))
		match := func(same func(ex ownedEntry, id string) bool) {
			for _, i := range want[ev] {
				if _, done := pair[i]; done {
					continue
				}
				for k := range ex {
					if !used[k] && same(ex[k], entries[i].ID) {
						pair[i], used[k] = k, true
						break
					}
				}
			}
		}
		// The same entry; then the same source handler (its hash) from a
		// source the entry may have come from (an older hookx's id, which
		// names no dialect, or no source at all: the hash proves it), at
		// the same position or another; then the same position of the same
		// source, whose hook changed.
		match(func(x ownedEntry, id string) bool { return x.id == id })
		match(func(x ownedEntry, id string) bool { return baseID(x.id) == baseID(id) && x.origin.mayBe(idOrigin(id)) })
		match(func(x ownedEntry, id string) bool { return sameHandler(x.id, id) && x.origin.mayBe(idOrigin(id)) })
		match(func(x ownedEntry, id string) bool { return sameSlot(x.id, id) && x.origin.key() == idOrigin(id) })

		arrPtr := hooksPtr + "/" + escapePtr(ev)
		for _, i := range want[ev] {
			k, ok := pair[i]
			if ok && sameHandler(ex[k].id, entries[i].ID) {
				// The same source handler as last time: what differs was
				// changed by hand.
				p.keepHandEdits(ex[k].std, &entries[i])
			} else if ok {
				p.sourceChanged(ex[k].std, &entries[i])
			}
			switch {
			case !ok:
				entries[i].Change = "add"
			case bytes.Equal(ex[k].std, compact(entries[i].group)),
				p.opts.AnyHookxPath && bytes.Equal(hookxInvariant(ex[k].std), hookxInvariant(compact(entries[i].group))):
				entries[i].Change = "unchanged"
			default:
				entries[i].Change = "update"
				if err := e.replaceElem(arrPtr+"/"+strconv.Itoa(ex[k].idx), json.RawMessage(entries[i].group)); err != nil {
					return nil, nil, err
				}
			}
		}
		var stale []int
		for k := range ex {
			switch {
			case used[k]:
			case p.staleOwned(ev, ex[k]):
				stale = append(stale, k)
			default:
				allOwned[ev] = false
			}
		}
		for _, k := range slices.Backward(stale) {
			removed = append(removed, ex[k].id)
			if err := e.removeElem(arrPtr, ex[k].idx); err != nil {
				return nil, nil, err
			}
		}
		if e.root.Find(arrPtr) == nil {
			if err := e.addMember(hooksPtr, ev, []any{}); err != nil {
				return nil, nil, err
			}
		}
		var adds []any
		for _, i := range want[ev] {
			if entries[i].Change == "add" {
				adds = append(adds, json.RawMessage(entries[i].group))
			}
		}
		if err := e.appendElems(arrPtr, adds); err != nil {
			return nil, nil, err
		}
		// An event list that only ever held hookx entries goes with them,
		// unless a comment is left in it.
		if arr := e.root.Find(arrPtr).Value.(*hujson.Array); len(arr.Elements) == 0 && allOwned[ev] && arr.AfterExtra.IsStandard() {
			if err := e.patch("remove", arrPtr, nil); err != nil {
				return nil, nil, err
			}
		}
	}
	slices.Reverse(removed)
	p.keptReport()
	return e.root.Pack(), removed, nil
}

// removeElem removes the element idx of the array at ptr, keeping the
// comments written before or after it: they move to the next element, or
// before the closing bracket.
func (e *editor) removeElem(ptr string, idx int) error {
	arr := e.root.Find(ptr).Value.(*hujson.Array)
	el := arr.Elements[idx]
	var kept hujson.Extra
	// hujson keeps the comments on the previous element's line (they are
	// that element's) and drops those on the lines before this one.
	if i := bytes.IndexByte(el.BeforeExtra, '\n'); i >= 0 && !el.BeforeExtra[i:].IsStandard() {
		kept = append(kept, el.BeforeExtra[i:]...)
	}
	if !el.AfterExtra.IsStandard() {
		kept = append(kept, el.AfterExtra...)
	}
	if err := e.patch("remove", ptr+"/"+strconv.Itoa(idx), nil); err != nil {
		return err
	}
	if kept == nil {
		e.closeOnOwnLine(ptr)
		return nil
	}
	arr = e.root.Find(ptr).Value.(*hujson.Array)
	if idx < len(arr.Elements) {
		next := &arr.Elements[idx]
		ind := next.BeforeExtra[bytes.LastIndexByte(next.BeforeExtra, '\n')+1:]
		next.BeforeExtra = append(append(trimRightSpace(kept), e.nl...), ind...)
		if !bytes.Contains(kept, []byte("\n")) {
			next.BeforeExtra = append(append(hujson.Extra(e.nl), ind...), next.BeforeExtra...)
		}
		return nil
	}
	arr.AfterExtra = append(trimRightSpace(kept), arr.AfterExtra...)
	e.closeOnOwnLine(ptr)
	return nil
}

// keepHandEdits compares the target's entry (prev, compact JSON) with the
// new one for the same source handler. Wrap options the user added by
// hand are kept in the new command; a hand-made change that the new entry
// undoes in a weaker direction (a longer timeout, another matcher) is
// reported as Weakened.
func (p *planner) keepHandEdits(prev []byte, en *Entry) {
	old, ok1 := p.readGroupView(prev)
	next, ok2 := p.readGroupView(en.group)
	if !ok1 || !ok2 {
		return
	}
	base := Item{Guard: p.targetGuard(en.Event), Source: en.Source, Event: en.Event, Matcher: deref(en.Matcher), Command: en.Command}
	cmd, kept, dropped := keepUserFlags(old.command, next.command)
	if len(kept) > 0 {
		group, err := p.setCommand(en.group, cmd)
		if err != nil {
			return
		}
		en.Command = cmd
		en.group = group
		it := base
		it.Level, it.What = Note, "kept "+strings.Join(kept, ", ")
		it.Reason = "added to this entry by hand; hookx keeps options it does not write itself"
		p.add(it)
	}
	if len(dropped) > 0 {
		it := base
		it.Level, it.What = Note, "dropped "+strings.Join(dropped, ", ")
		it.Reason = "added to this entry by hand (or by whoever edited this file); these options can keep the hook from running or from blocking, so hookx writes the entry its source gives"
		it.Fix = "set what the hook needs in the source hook's own command (env NAME=VALUE …) and migrate again"
		p.add(it)
	}
	if o, n := old.timeout, next.timeout; n > o {
		it := base
		it.Level, it.What = Weakened, fmt.Sprintf("timeout raised from %g to %g", o, n)
		it.Reason = "the entry's timeout was shortened by hand; this run writes the source's longer one"
		it.Fix = "shorten the timeout in the source hook, or keep this file's value by not migrating this hook"
		p.add(it)
	}
	if deref(old.matcher) != deref(next.matcher) || (old.matcher == nil) != (next.matcher == nil) {
		it := base
		it.Level, it.What = Weakened, fmt.Sprintf("matcher %q replaced by %q", deref(old.matcher), deref(next.matcher))
		it.Reason = "the entry's matcher was changed by hand; this run writes the one translated from the source, which fires on other calls"
		it.Fix = "change the matcher in the source hook and migrate again"
		p.add(it)
	}
}

// groupView is what migrate compares of an owned group of the target: its
// matcher and its one handler's command and timeout.
type groupView struct {
	matcher *string
	command string
	timeout float64
}

// handlerPtr is the JSON pointer prefix of an owned entry's one handler:
// the entry itself where events hold a list of handlers (Copilot CLI).
func (p *planner) handlerPtr() string {
	if p.to.Settings.Shape.Grouped() {
		return "/hooks/0/"
	}
	return "/"
}

// readGroupView reads an owned group (compact JSON) in the target's shape.
func (p *planner) readGroupView(b []byte) (groupView, bool) {
	var g struct {
		Matcher *string                      `json:"matcher"`
		Hooks   []map[string]json.RawMessage `json:"hooks"`
	}
	shape := p.to.Settings.Shape
	if !shape.Grouped() {
		var h map[string]json.RawMessage
		if json.Unmarshal(b, &h) != nil {
			return groupView{}, false
		}
		g.Hooks = []map[string]json.RawMessage{h}
		if m := h["matcher"]; m != nil {
			_ = json.Unmarshal(m, &g.Matcher)
		}
	} else if json.Unmarshal(b, &g) != nil {
		return groupView{}, false
	}
	if len(g.Hooks) != 1 {
		return groupView{}, false
	}
	v := groupView{matcher: g.Matcher}
	if json.Unmarshal(g.Hooks[0][shape.CommandField], &v.command) != nil {
		return groupView{}, false
	}
	_ = json.Unmarshal(g.Hooks[0][shape.TimeoutField], &v.timeout)
	return v, true
}

// setCommand replaces the command of an owned group's one handler.
func (p *planner) setCommand(group []byte, cmd string) ([]byte, error) {
	v, err := hujson.Parse(group)
	if err != nil {
		return nil, err
	}
	val, err := marshalPlain(cmd)
	if err != nil {
		return nil, err
	}
	op, _ := json.Marshal([]map[string]any{{"op": "replace", "path": p.handlerPtr() + escapePtr(p.to.Settings.Shape.CommandField), "value": json.RawMessage(val)}})
	if err := v.Patch(op); err != nil {
		return nil, err
	}
	return compact(v.Pack()), nil
}
