package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// Gemini CLI's chat file (0.61.0, live): JSONL under
// ~/.gemini/tmp/<project>/chats/session-<date>-<id8>.jsonl. The first record
// is the session's metadata ({sessionId, projectHash, startTime,
// lastUpdated, kind}); {"$set":{…}} records update it ($set.messages
// replaces every message); {"$rewindTo":id} drops a message and those after
// it. Message records are {id, timestamp, type, content, …}: type "user"
// (content: parts, text or functionResponse) or "gemini" (content: the
// response text; thoughts, tokens, model, and toolCalls once the calls
// completed, each with its result parts and status). A message is
// re-appended whole when it changes; the last record with an id wins.

type geminiRecord struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	Model     string          `json:"model"`
	ToolCalls []geminiCall    `json:"toolCalls"`
	Set       *struct {
		Messages []json.RawMessage `json:"messages"`
	} `json:"$set"`
}

type geminiCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Args      map[string]any  `json:"args"`
	Result    json.RawMessage `json:"result"`
	Status    string          `json:"status"`
	Timestamp string          `json:"timestamp,omitempty"`
}

type geminiPart struct {
	Text             *string `json:"text,omitempty"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse,omitempty"`
}

func readGemini(line []byte, st *readState) []Message {
	var r geminiRecord
	if json.Unmarshal(line, &r) != nil {
		return nil
	}
	if r.Set != nil {
		// A whole new message list: the session context at the start, or a
		// compression. What it holds is context, not typed by the user.
		var out []Message
		for _, raw := range r.Set.Messages {
			for _, m := range readGemini(raw, st) {
				m.Meta = m.Role == "user"
				out = append(out, m)
			}
		}
		return out
	}
	if r.ID == "" || (r.Type != "user" && r.Type != "gemini") {
		return nil
	}
	seen := st.seen(r.ID)
	if r.Type == "user" {
		if seen.Done {
			return nil
		}
		seen.Done = true
		m := Message{Role: "user", ID: r.ID, Time: r.Timestamp}
		var s string
		if json.Unmarshal(r.Content, &s) == nil {
			m.Text = s
		} else {
			var parts []geminiPart
			_ = json.Unmarshal(r.Content, &parts)
			var texts []string
			for _, p := range parts {
				switch {
				case p.Text != nil:
					texts = append(texts, *p.Text)
				case p.FunctionResponse != nil:
					out, isErr := responseText(p.FunctionResponse.Response)
					m.Results = append(m.Results, Result{ID: p.FunctionResponse.ID, Name: p.FunctionResponse.Name, Output: out, IsError: isErr})
				}
			}
			m.Text = strings.Join(texts, "")
		}
		m.Meta = strings.HasPrefix(m.Text, "<session_context>")
		if m.Text == "" && len(m.Results) == 0 {
			return nil
		}
		return []Message{m}
	}
	// A gemini message: carry only what was not carried before.
	var text string
	_ = json.Unmarshal(r.Content, &text)
	m := Message{Role: "assistant", ID: r.ID, Time: r.Timestamp, Model: r.Model}
	if seen.TextLen <= len(text) && textSum(text[:seen.TextLen]) == seen.TextSum {
		m.Text = text[seen.TextLen:]
	} else {
		m.Text = text
	}
	seen.TextLen, seen.TextSum = len(text), textSum(text)
	for _, c := range r.ToolCalls {
		if seen.hasCall(c.ID) {
			continue
		}
		seen.Calls = append(seen.Calls, c.ID)
		m.Calls = append(m.Calls, Call{ID: c.ID, Name: c.Name, Input: c.Args})
	}
	if m.Text == "" && len(m.Calls) == 0 {
		return nil
	}
	return []Message{m}
}

// responseText is a functionResponse's response as text: its output, or its
// error (then isErr).
func responseText(raw json.RawMessage) (string, bool) {
	var r map[string]json.RawMessage
	if json.Unmarshal(raw, &r) != nil {
		return string(raw), false
	}
	for _, k := range []string{"output", "error"} {
		if v, ok := r[k]; ok {
			var s string
			if json.Unmarshal(v, &s) != nil {
				s = string(v)
			}
			return s, k == "error"
		}
	}
	return string(raw), false
}

type geminiMeta struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
	LastUpdated string `json:"lastUpdated"`
	Kind        string `json:"kind"`
}

type geminiUserOut struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Content   any    `json:"content"`
}

// geminiOut is a gemini message as hookx writes it; kept in the writer's
// state while its tool calls wait for their results.
type geminiOut struct {
	ID        string       `json:"id"`
	Timestamp string       `json:"timestamp"`
	Type      string       `json:"type"`
	Content   string       `json:"content"`
	Model     string       `json:"model,omitempty"`
	ToolCalls []geminiCall `json:"toolCalls,omitempty"`
}

func startGemini(w *writeState, out *bytes.Buffer) {
	sum := sha256.Sum256([]byte(w.Cwd))
	appendJSON(out, geminiMeta{SessionID: w.Session, ProjectHash: hex.EncodeToString(sum[:]), Kind: "main"})
}

func writeGemini(w *writeState, m *Message, out *bytes.Buffer) {
	if m.Role == "user" {
		text := m.Text
		if m.Meta {
			// Gemini records a hook's continuation reason as a plain user
			// message; other injected context it does not record.
			var ok bool
			if text, ok = strings.CutPrefix(text, stopFeedback); !ok {
				text = ""
			}
		}
		if text != "" {
			appendJSON(out, geminiUserOut{ID: newID(w.Session, m.ID, "user"), Timestamp: m.Time, Type: "user", Content: []geminiPart{{Text: &text}}})
		}
		if len(m.Results) > 0 {
			writeGeminiResults(w, m, out)
		}
		return
	}
	// Claude splits a reply into records, one per block; Gemini keeps one
	// message, re-appended as it grows.
	if last := w.last(); last == nil || last.Src != m.ID || m.ID == "" {
		id := newID(w.Session, m.ID, "gemini")
		if w.Pending != "" && m.Text != "" && strings.TrimSpace(m.Text) == strings.TrimSpace(w.PendingText) {
			// The host's last message, written ahead of its transcript.
			id = w.Pending
			w.Pending, w.PendingText = "", ""
		}
		w.setLast(&lastGemini{Src: m.ID, Msg: geminiOut{ID: id, Timestamp: m.Time, Type: "gemini", Model: m.Model}})
	}
	w.lastDirty = true
	w.Last.Msg.Content += m.Text
	for _, c := range m.Calls {
		// Gemini records calls once they completed, with their results.
		w.Last.Waiting = append(w.Last.Waiting, geminiCall{ID: c.ID, Name: c.Name, Args: c.Input, Result: json.RawMessage("null"), Status: "scheduled"})
	}
	if m.Text != "" || len(w.Last.Msg.ToolCalls) > 0 {
		appendJSON(out, w.Last.Msg)
	}
}

// writeGeminiResults completes the waiting calls of the last gemini message
// and re-appends it, then records the function responses as Gemini does.
func writeGeminiResults(w *writeState, m *Message, out *bytes.Buffer) {
	parts := make([]map[string]any, 0, len(m.Results))
	changed := false
	for _, r := range m.Results {
		key := "output"
		if r.IsError {
			key = "error"
		}
		name := r.Name
		status := "success"
		if r.IsError {
			status = "error"
		}
		fr := map[string]any{"id": r.ID, "name": name, "response": map[string]any{key: r.Output}}
		parts = append(parts, map[string]any{"functionResponse": fr})
		if w.last() == nil {
			continue
		}
		for i, c := range w.Last.Waiting {
			if c.ID != r.ID {
				continue
			}
			if name == "" {
				fr["name"] = c.Name
			}
			res, _ := json.Marshal([]any{map[string]any{"functionResponse": fr}})
			c.Result, c.Status, c.Timestamp = res, status, m.Time
			w.Last.Msg.ToolCalls = append(w.Last.Msg.ToolCalls, c)
			w.Last.Waiting = append(w.Last.Waiting[:i], w.Last.Waiting[i+1:]...)
			changed = true
			break
		}
	}
	if changed {
		w.lastDirty = true
		appendJSON(out, w.Last.Msg)
	}
	appendJSON(out, geminiUserOut{ID: newID(w.Session, m.ID, "results"), Timestamp: m.Time, Type: "user", Content: parts})
}

// tailGemini writes the host's last message ahead of its transcript; when
// the transcript catches up, the real record takes the same id.
func tailGemini(w *writeState, text string, out *bytes.Buffer) {
	if w.Pending != "" && w.PendingText == text {
		return
	}
	w.Pending, w.PendingText = newID(w.Session, "pending", text), text
	appendJSON(out, geminiOut{ID: w.Pending, Type: "gemini", Content: text})
}

func geminiFile(session string) string {
	s := safeName(session, "session")
	if len(s) > 8 {
		s = s[:8]
	}
	return "session-" + s + ".jsonl"
}

// textSum is a short hash of a message's text.
func textSum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:12])
}
