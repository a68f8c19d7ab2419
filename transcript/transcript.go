// Package transcript converts a session transcript between the formats the
// agents write, so that a wrapped hook that reads transcript_path finds the
// conversation in its own agent's format: Claude Code's JSONL (one
// {"type":"user"|"assistant","message":{"role","content":[…]}} record per
// line, tool_use and tool_result blocks) and Gemini CLI's chat file (JSONL
// too: a metadata record, then message records {"id","type":"user"|"gemini",
// "content",…,"toolCalls":[…]}, where a record re-appended with the same id
// replaces the earlier one). It also reads, but does not write, Qwen Code's
// chat recording (JSONL records {uuid, type: user|assistant|tool_result|
// system, message: {role, parts}} with Gemini's parts) and Codex's rollout
// (JSONL records {timestamp, type, payload}, the conversation in the
// response_item ones), Factory Droid's session file (JSONL message records
// holding Claude's content blocks) and Copilot CLI's session events (JSONL
// {type, data} events), so that a Claude or Gemini hook under those agents
// gets a copy in its own format.
//
// What is carried: user prompts, assistant text, tool calls (names and
// arguments mapped through the table) and tool results (as text). What is
// not: thinking, token counts, attachments and system records, the agents'
// own bookkeeping records, images, and Gemini's rewinds.
//
// Both formats are append-only, so the conversion is incremental: a Cache
// keeps, per session, the translated file and how far the source was read,
// and each Sync converts only the records added since.
package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/mappings"
)

// Message is one conversational record in neutral form.
type Message struct {
	Role  string // "user" or "assistant"
	ID    string // the source's id of the message (an assistant message may span several records)
	Time  string
	Model string
	Text  string
	// Meta marks a user record the user did not type: Claude's isMeta
	// (Stop hook feedback, injected context), Gemini's session context.
	Meta    bool
	Calls   []Call
	Results []Result
}

// Call is one tool call.
type Call struct {
	ID    string
	Name  string
	Input map[string]any
	// Raw is the input of a tool that takes text, not arguments (Codex's
	// freeform apply_patch); Input then holds it as "input" until the
	// dialect's transcript.tools names its argument.
	Raw *string
}

// Result is one tool result, as text.
type Result struct {
	ID      string
	Name    string
	Output  string
	IsError bool
}

// Turn is the user's last prompt and the assistant text since, the way
// Gemini's AfterAgent reports them: the prompt of the turn (hook feedback
// does not start a new one) and each model response's text, joined by
// newlines.
type Turn struct {
	Prompt   string   `json:"prompt,omitempty"`
	Response []string `json:"response,omitempty"`
	LastID   string   `json:"lastID,omitempty"`
}

// isPrompt reports whether m starts a turn: a prompt the user typed (hook
// feedback and tool results do not).
func isPrompt(m *Message) bool {
	return m.Role == "user" && !m.Meta && m.Text != "" && len(m.Results) == 0
}

// turnSink receives the messages that make up turns.
type turnSink interface{ add(m *Message) }

// add folds a message into the turn.
func (t *Turn) add(m *Message) {
	switch {
	case isPrompt(m):
		*t = Turn{Prompt: m.Text}
	case m.Role == "assistant" && m.Text != "":
		if m.ID != "" && m.ID == t.LastID && len(t.Response) > 0 {
			t.Response[len(t.Response)-1] += m.Text
		} else {
			t.Response = append(t.Response, m.Text)
		}
		t.LastID = m.ID
	}
}

// Text is the turn's response as Gemini's prompt_response holds it; tail,
// when not empty and not already the last response, is added: the host
// knows the last message before its transcript does.
func (t Turn) Text(tail string) string {
	parts := make([]string, 0, len(t.Response)+1)
	for _, r := range t.Response {
		if r = strings.TrimSpace(r); r != "" {
			parts = append(parts, r)
		}
	}
	if tail = strings.TrimSpace(tail); tail != "" && (len(parts) == 0 || parts[len(parts)-1] != tail) {
		parts = append(parts, tail)
	}
	return strings.Join(parts, "\n")
}

// format is one agent's transcript format.
type format struct {
	// read turns one line into messages; st is the reader's state.
	read func(line []byte, st *readState) []Message
	// write appends m's records to out, continuing from w.
	write func(w *writeState, m *Message, out *bytes.Buffer)
	// start is written once at the top of a new file.
	start func(w *writeState, out *bytes.Buffer)
	// tail writes the host's last message when the source lacks it yet.
	tail func(w *writeState, text string, out *bytes.Buffer)
	// file is the translated file's name.
	file func(session string) string
	// settled, for a host that writes its transcript behind its Stop
	// hooks, reports whether tail (the file's end) records what the stop's
	// payload says happened last: then everything before it is written.
	settled func(tail []byte, m Mark) bool
	// written is settled for a reader of the host's own file alone
	// (SettleFile), where a converted copy does not wait: Claude Code may
	// write a turn's last reply after its Stop hooks, and the copy takes
	// it from the payload (tail) instead.
	written func(tail []byte, m Mark) bool
}

// Mark is what a stop's payload says the host's transcript must hold by
// now.
type Mark struct {
	// Stamp is the payload's timestamp as sent (Copilot records each
	// hook's start with its input).
	Stamp string
	// LastReply is the payload's last_assistant_message.
	LastReply string
}

// formats by the name a dialect gives in its transcript.format. A format
// with no writer is read only (the dialect's transcript.readOnly says so).
var formats = map[string]*format{
	"claude":  {read: readClaude, write: writeClaude, start: func(*writeState, *bytes.Buffer) {}, tail: tailClaude, file: claudeFile, written: claudeSettled},
	"gemini":  {read: readGemini, write: writeGemini, start: startGemini, tail: tailGemini, file: geminiFile},
	"qwen":    {read: readQwen, settled: qwenSettled},
	"codex":   {read: readCodex},
	"droid":   {read: readDroid},
	"copilot": {read: readCopilot, settled: copilotSettled},
}

// Converter converts one dialect's transcript records into another's.
type Converter struct {
	from, to *mappings.Dialect
	table    *mappings.Table
	rf, wf   *format
	// Session and Cwd go into the records written (Claude's sessionId and
	// cwd, Gemini's sessionId and projectHash).
	Session, Cwd string
}

// NewConverter returns a converter from the transcript format of dialect
// from to that of dialect to. It fails when either has no known format.
func NewConverter(table *mappings.Table, from, to string) (*Converter, error) {
	f, err := table.Dialect(from)
	if err != nil {
		return nil, err
	}
	t, err := table.Dialect(to)
	if err != nil {
		return nil, err
	}
	c := &Converter{from: f, to: t, table: table, rf: formats[f.Transcript.Format], wf: formats[t.Transcript.Format]}
	switch {
	case c.rf == nil:
		return nil, fmt.Errorf("hookx cannot read %s's transcript format", f.Agent)
	case c.wf == nil || c.wf.write == nil:
		return nil, fmt.Errorf("hookx cannot write %s's transcript format", t.Agent)
	}
	return c, nil
}

// settleTail is how much of the transcript's end Settle reads each time.
const settleTail = 256 << 10

// Settle waits, up to limit, until the host's transcript at src holds what
// the stop's payload says happened last, for a host that writes its
// transcript behind its Stop hooks (seen live: Copilot CLI records its
// events about 100 ms behind, Qwen Code its last records; a Stop hook
// would read a turn without its end). It reports whether the transcript
// caught up; for every other host, and with nothing to wait for, it
// returns true at once. A missing src is waited for: Copilot CLI creates
// its events file behind its first hooks (conformance
// transcript/claude-reads-copilot failed without the wait). It only reads
// src.
func (c *Converter) Settle(src string, m Mark, limit time.Duration) bool {
	return settle(c.rf, src, m, limit)
}

// SettleFile is Settle for a transcript in the named format (a dialect's
// transcript.format), for a reader that converts nothing: wrap's Stop
// state reads a Claude transcript for tool use since a block, which Claude
// may not have written yet when its Stop hooks start. An unknown format
// has nothing to wait for.
func SettleFile(name, src string, m Mark, limit time.Duration) bool {
	rf := formats[name]
	if rf == nil {
		return true
	}
	if rf.written != nil {
		rf = &format{settled: rf.written}
	}
	return settle(rf, src, m, limit)
}

func settle(rf *format, src string, m Mark, limit time.Duration) bool {
	if rf.settled == nil || m == (Mark{}) {
		return true
	}
	deadline := time.Now().Add(limit)
	buf := make([]byte, settleTail)
	for {
		if settledIn(rf, src, m, buf) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// settledIn reads the end of src, a regular file, into buf and asks the
// format whether it holds m.
func settledIn(rf *format, src string, m Mark, buf []byte) bool {
	f, err := os.OpenFile(src, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	n, _ := f.ReadAt(buf, max(0, fi.Size()-int64(len(buf))))
	return rf.settled(buf[:n], m)
}

// wholeLineWith reports whether tail has a whole line (ended by a newline)
// holding every one of parts.
func wholeLineWith(tail []byte, parts ...[]byte) bool {
	for len(tail) > 0 && len(parts) > 0 {
		i := bytes.Index(tail, parts[0])
		if i < 0 {
			return false
		}
		start := bytes.LastIndexByte(tail[:i], '\n') + 1
		end := bytes.IndexByte(tail[i:], '\n')
		if end < 0 {
			return false // not written whole yet
		}
		line, all := tail[start:i+end], true
		for _, p := range parts[1:] {
			all = all && bytes.Contains(line, p)
		}
		if all {
			return true
		}
		tail = tail[i+end:]
	}
	return false
}

// Convert converts a whole transcript at once and returns it with its last
// turn; it is what Sync does in steps, and gives the same bytes. tail is the
// host's last assistant message ("" for none), added when src lacks it.
// Incomplete last lines are left out.
func (c *Converter) Convert(src []byte, tail string) ([]byte, Turn) {
	var turn Turn
	st := state{turn: &turn}
	var out bytes.Buffer
	c.feed(&st, src, &out)
	c.finish(&st, tail, &out)
	return out.Bytes(), turn
}

// feed converts the complete lines of src and returns how many bytes it
// consumed.
func (c *Converter) feed(st *state, src []byte, out *bytes.Buffer) int {
	st.W.Session, st.W.Cwd = c.Session, c.Cwd
	if !st.Started {
		c.wf.start(&st.W, out)
		st.Started = true
	}
	n := 0
	for {
		i := bytes.IndexByte(src[n:], '\n')
		if i < 0 {
			break
		}
		line := src[n : n+i]
		n += i + 1
		for _, m := range c.rf.read(line, &st.R) {
			c.recordedTools(&m)
			c.mapTools(&m)
			st.turn.add(&m)
			switch {
			case isPrompt(&m):
				st.LastReply, st.LastReplyID = "", ""
			case m.Role == "assistant" && m.Text != "":
				if m.ID == "" || m.ID != st.LastReplyID {
					st.LastReply = ""
				}
				st.LastReply += m.Text
				st.LastReplyID = m.ID
			}
			c.wf.write(&st.W, &m, out)
		}
	}
	return n
}

// finish writes the host's last message if the transcript lacks it.
func (c *Converter) finish(st *state, tail string, out *bytes.Buffer) {
	if tail = strings.TrimSpace(tail); tail == "" {
		return
	}
	if strings.TrimSpace(st.LastReply) == tail {
		return
	}
	c.wf.tail(&st.W, tail, out)
}

// mapTools renames tool calls and their arguments into the target dialect.
// A tool the table does not know keeps its name.
func (c *Converter) mapTools(m *Message) {
	for i := range m.Calls {
		call := &m.Calls[i]
		tm, err := c.table.MapTool(c.from, c.to, call.Name)
		if err != nil || tm.Name == "" {
			continue
		}
		call.Name = tm.Name
		if tm.From != nil && tm.To != nil {
			canon := toCanonical(call.Input, tm.From)
			dst := c.bestFit(tm.From, tm.To, canon)
			call.Input = fromCanonical(canon, dst, dst != tm.To)
			call.Name = dst.Name
		}
	}
	for i := range m.Results {
		r := &m.Results[i]
		if r.Name == "" {
			continue
		}
		if tm, err := c.table.MapTool(c.from, c.to, r.Name); err == nil && tm.Name != "" {
			r.Name = tm.Name
			if tm.From != nil && len(tm.From.Also) > 0 {
				// Its call may be shown as another tool (bestFit): the
				// writer takes the call's name.
				r.Name = ""
			}
		}
	}
}

// bestFit chooses, among the target's tools for what the source tool does
// (its canonical tool and those it also stands for: Codex's apply_patch
// edits and adds files), the one whose arguments hold most of the call's:
// an argument with a value counts for it, one left empty against it. The
// primary tool wins a tie. So a patch that adds a file reads as the Write a
// Claude hook's own agent would record, one that changes a file as an Edit.
func (c *Converter) bestFit(src, primary *mappings.Tool, canon map[string]any) *mappings.Tool {
	if len(src.Also) == 0 {
		return primary
	}
	score := func(t *mappings.Tool) int {
		n := 0
		for k, v := range canon {
			if _, ok := t.ArgFor(k); !ok {
				continue
			}
			if s, isStr := v.(string); isStr && s == "" {
				n--
			} else {
				n++
			}
		}
		return n
	}
	best, bestScore := primary, score(primary)
	for _, also := range src.Also {
		if t, _ := c.to.ToolFor(also); t != nil && t != best {
			if sc := score(t); sc > bestScore {
				best, bestScore = t, sc
			}
		}
	}
	return best
}

// recordedTools renames the tool calls as the source records them into the
// tools its agent shows hooks (the dialect's transcript.tools).
func (c *Converter) recordedTools(m *Message) {
	tools := c.from.Transcript.Tools
	if len(tools) == 0 {
		return
	}
	for i := range m.Calls {
		call := &m.Calls[i]
		tt, ok := tools[call.Name]
		if !ok {
			continue
		}
		call.Name = tt.Name
		if tt.Input != "" && call.Raw != nil {
			call.Input = map[string]any{tt.Input: *call.Raw}
			continue
		}
		if tt.Fields == nil {
			continue
		}
		in := make(map[string]any, len(tt.Fields))
		for k, v := range call.Input {
			if arg, ok := tt.Fields[k]; ok {
				in[arg] = v
			}
		}
		call.Input = in
	}
	for i := range m.Results {
		if tt, ok := tools[m.Results[i].Name]; ok {
			m.Results[i].Name = tt.Name
		}
	}
}

// toCanonical renames a call's arguments to the canonical names, applying
// the source tool's named converter.
func toCanonical(in map[string]any, src *mappings.Tool) map[string]any {
	a := make(map[string]any, len(in))
	for k, v := range in {
		a[k] = v
	}
	if cv := mappings.InputConverterByName(src.Convert); cv != nil {
		cv.ToCanonical(a)
	}
	canon := make(map[string]any, len(a))
	for k, v := range a {
		if c, ok := src.Fields[k]; ok {
			k = c
		}
		canon[k] = v
	}
	return canon
}

// fromCanonical renames canonical arguments to the target tool's, applying
// its named converter; with only, the arguments the tool lacks are left
// out (a call shown as another tool its source stands for).
func fromCanonical(canon map[string]any, dst *mappings.Tool, only bool) map[string]any {
	if cv := mappings.InputConverterByName(dst.Convert); cv != nil {
		cv.FromCanonical(canon)
	}
	out := make(map[string]any, len(canon))
	for k, v := range canon {
		if arg, ok := dst.ArgFor(k); ok {
			k = arg
		} else if only {
			continue
		}
		out[k] = v
	}
	return out
}

// newID derives a stable id from a source id, so a re-read gives the same
// file; hex in the UUID layout both agents use.
func newID(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	s := hex.EncodeToString(h.Sum(nil))
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:32]
}

// appendJSON writes v as one JSON line.
func appendJSON(out *bytes.Buffer, v any) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// HasToolCalls reports whether the whole lines of records, a piece of a
// transcript in the named format, record a tool call. ok is false for a
// format hookx does not read.
func HasToolCalls(name string, records []byte) (found, ok bool) {
	rf := formats[name]
	if rf == nil {
		return false, false
	}
	var st readState
	for len(records) > 0 {
		line, rest, whole := bytes.Cut(records, []byte("\n"))
		if !whole {
			break
		}
		records = rest
		for _, m := range rf.read(line, &st) {
			if len(m.Calls) > 0 {
				return true, true
			}
		}
	}
	return false, true
}
