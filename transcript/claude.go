package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Claude Code's transcript (2.1.330, live): one JSON record per line. Only
// "user" and "assistant" records are conversation; the others (attachment,
// system, queue-operation, last-prompt, api-request…, cost-state) are the
// agent's bookkeeping. An assistant reply is split into one record per
// content block, all with the same message.id. A Stop hook's feedback is a
// user record with isMeta and the text "Stop hook feedback:\n<reason>".

const stopFeedback = "Stop hook feedback:\n"

type claudeRecord struct {
	Type      string `json:"type"`
	IsMeta    bool   `json:"isMeta"`
	UUID      string `json:"uuid"`
	Timestamp string `json:"timestamp"`
	Message   struct {
		ID      string          `json:"id"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     map[string]any  `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

var (
	claudeUser      = []byte(`"type":"user"`)
	claudeAssistant = []byte(`"type":"assistant"`)
)

func readClaude(line []byte, st *readState) []Message {
	// Most lines are bookkeeping; skip them without decoding.
	if !bytes.Contains(line, claudeUser) && !bytes.Contains(line, claudeAssistant) {
		return nil
	}
	var r claudeRecord
	if json.Unmarshal(line, &r) != nil || (r.Type != "user" && r.Type != "assistant") {
		return nil
	}
	m := Message{Role: r.Type, Time: r.Timestamp, Model: r.Message.Model, Meta: r.IsMeta, ID: r.UUID}
	if r.Type == "assistant" && r.Message.ID != "" {
		m.ID = r.Message.ID
	}
	var s string
	if json.Unmarshal(r.Message.Content, &s) == nil {
		m.Text = s
		return []Message{m}
	}
	var blocks []claudeBlock
	if json.Unmarshal(r.Message.Content, &blocks) != nil {
		return nil
	}
	var texts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "tool_use":
			m.Calls = append(m.Calls, Call{ID: b.ID, Name: b.Name, Input: b.Input})
			st.rememberCall(b.ID, b.Name)
		case "tool_result":
			m.Results = append(m.Results, Result{ID: b.ToolUseID, Name: st.callName(b.ToolUseID), Output: blockText(b.Content), IsError: b.IsError})
		}
	}
	m.Text = strings.Join(texts, "")
	if m.Text == "" && len(m.Calls) == 0 && len(m.Results) == 0 {
		return nil
	}
	return []Message{m}
}

// blockText is a tool_result's content as text: a string, or its text
// blocks joined.
func blockText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []claudeBlock
	_ = json.Unmarshal(raw, &blocks)
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// The records hookx writes carry the fields public hooks read, in Claude's
// order.
type claudeOut struct {
	ParentUUID  *string   `json:"parentUuid"`
	IsSidechain bool      `json:"isSidechain"`
	Type        string    `json:"type"`
	Message     claudeMsg `json:"message"`
	IsMeta      bool      `json:"isMeta,omitempty"`
	UUID        string    `json:"uuid"`
	Timestamp   string    `json:"timestamp"`
	SessionID   string    `json:"sessionId,omitempty"`
	Cwd         string    `json:"cwd,omitempty"`
}

type claudeMsg struct {
	ID      string `json:"id,omitempty"`
	Type    string `json:"type,omitempty"`
	Role    string `json:"role"`
	Model   string `json:"model,omitempty"`
	Content any    `json:"content"`
}

type toolBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     *map[string]any `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   *string         `json:"content,omitempty"`
	IsError   *bool           `json:"is_error,omitempty"`
}

func writeClaude(w *writeState, m *Message, out *bytes.Buffer) {
	emit := func(rec claudeOut) {
		if w.Parent != "" {
			p := w.Parent
			rec.ParentUUID = &p
		}
		rec.Timestamp, rec.SessionID, rec.Cwd = m.Time, w.Session, w.Cwd
		w.N++
		rec.UUID = newID(w.Session, m.ID, rec.Type, itoa(w.N))
		w.Parent = rec.UUID
		appendJSON(out, rec)
	}
	if m.Role == "user" {
		if m.Text != "" {
			emit(claudeOut{Type: "user", IsMeta: m.Meta, Message: claudeMsg{Role: "user", Content: m.Text}})
		}
		if len(m.Results) > 0 {
			blocks := make([]toolBlock, len(m.Results))
			for i, r := range m.Results {
				out, isErr := r.Output, r.IsError
				blocks[i] = toolBlock{Type: "tool_result", ToolUseID: r.ID, Content: &out, IsError: &isErr}
			}
			emit(claudeOut{Type: "user", Message: claudeMsg{Role: "user", Content: blocks}})
		}
		return
	}
	var blocks []toolBlock
	if m.Text != "" && w.Pending != "" && strings.TrimSpace(m.Text) == strings.TrimSpace(w.PendingText) {
		// The host's last message, written ahead of its transcript: its
		// text is there already.
		w.Pending, w.PendingText = "", ""
	} else if m.Text != "" {
		t := m.Text
		blocks = append(blocks, toolBlock{Type: "text", Text: &t})
	}
	for _, c := range m.Calls {
		in := c.Input
		if in == nil {
			in = map[string]any{}
		}
		blocks = append(blocks, toolBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: &in})
	}
	if len(blocks) == 0 {
		return
	}
	emit(claudeOut{Type: "assistant", Message: claudeMsg{ID: m.ID, Type: "message", Role: "assistant", Model: m.Model, Content: blocks}})
}

// tailClaude writes the host's last message ahead of its transcript (a
// host whose Stop hooks run before it records the reply: Qwen Code); when
// the transcript catches up, the record's text is not written again.
func tailClaude(w *writeState, text string, out *bytes.Buffer) {
	if w.Pending != "" && w.PendingText == text {
		return
	}
	id := newID(w.Session, "pending", text)
	w.Pending, w.PendingText = "", ""
	writeClaude(w, &Message{Role: "assistant", ID: id, Text: text}, out)
	w.Pending, w.PendingText = id, text
}

func claudeFile(session string) string { return safeName(session, "session") + ".jsonl" }

// claudeSettled reports whether tail holds an assistant record with a text
// block opening as the stop's last reply. Claude Code writes its transcript
// asynchronously, and its Stop hooks can start before the turn's last
// records are in the file (CI saw wrap decide a Gemini hook's
// stop_hook_active on a Claude transcript that did not yet hold the
// continuation's tool use).
func claudeSettled(tail []byte, m Mark) bool {
	reply := strings.TrimSpace(m.LastReply)
	if reply == "" {
		return true
	}
	return wholeLineWith(tail, textOpening(reply), claudeAssistant)
}
