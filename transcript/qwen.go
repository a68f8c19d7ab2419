package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Qwen Code's chat recording (0.24.4, live): JSONL under
// ~/.qwen/projects/<project>/chats/<session>.jsonl, one record per line,
// appended once and never rewritten: {uuid, parentUuid, sessionId,
// timestamp, type, subtype, provenance, model, message: {role, parts}}.
// Types: "user" (a prompt; provenance "real_user" when the user typed it,
// other provenances and subtypes are injected: cron, notifications, goal
// runtime, hook context), "assistant" (one model response: text, thought and
// functionCall parts), "tool_result" (functionResponse parts, and
// toolCallResult with its status) and "system" (telemetry, attribution
// snapshots, compression, goals: bookkeeping). Parts are Gemini's. hookx
// reads the records in file order; the parentUuid tree (a resumed branch)
// is not followed.

type qwenRecord struct {
	UUID       string `json:"uuid"`
	Timestamp  string `json:"timestamp"`
	Type       string `json:"type"`
	Subtype    string `json:"subtype"`
	Provenance string `json:"provenance"`
	Model      string `json:"model"`
	Message    struct {
		Parts []qwenPart `json:"parts"`
	} `json:"message"`
	ToolCallResult *struct {
		CallID string `json:"callId"`
		Status string `json:"status"`
	} `json:"toolCallResult"`
}

type qwenPart struct {
	Text         *string `json:"text"`
	Thought      bool    `json:"thought"`
	FunctionCall *struct {
		ID   string         `json:"id"`
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

var (
	qwenUser       = []byte(`"type":"user"`)
	qwenAssistant  = []byte(`"type":"assistant"`)
	qwenToolResult = []byte(`"type":"tool_result"`)
)

func readQwen(line []byte, st *readState) []Message {
	// Most lines are telemetry; skip them without decoding.
	if !bytes.Contains(line, qwenUser) && !bytes.Contains(line, qwenAssistant) && !bytes.Contains(line, qwenToolResult) {
		return nil
	}
	var r qwenRecord
	if json.Unmarshal(line, &r) != nil {
		return nil
	}
	switch r.Type {
	case "user":
		m := Message{Role: "user", ID: r.UUID, Time: r.Timestamp}
		// A record of Qwen's before provenance was recorded is the user's
		// when it has no subtype, as Qwen itself reads it.
		typed := r.Provenance == "real_user" || r.Provenance == "" && (r.Subtype == "" || r.Subtype == "mid_turn_user_message")
		m.Meta = !typed
		var texts []string
		for _, p := range r.Message.Parts {
			if p.Text != nil && !p.Thought {
				texts = append(texts, *p.Text)
			}
		}
		if m.Text = strings.Join(texts, ""); m.Text == "" {
			return nil
		}
		return []Message{m}
	case "assistant":
		m := Message{Role: "assistant", ID: r.UUID, Time: r.Timestamp, Model: r.Model}
		var texts []string
		for _, p := range r.Message.Parts {
			switch {
			case p.Thought:
			case p.Text != nil:
				texts = append(texts, *p.Text)
			case p.FunctionCall != nil:
				c := p.FunctionCall
				m.Calls = append(m.Calls, Call{ID: c.ID, Name: c.Name, Input: c.Args})
				st.rememberCall(c.ID, c.Name)
			}
		}
		m.Text = strings.Join(texts, "")
		if m.Text == "" && len(m.Calls) == 0 {
			return nil
		}
		return []Message{m}
	case "tool_result":
		m := Message{Role: "user", ID: r.UUID, Time: r.Timestamp}
		// "error" or "cancelled"; Qwen 0.24.4 writes no other.
		failed := r.ToolCallResult != nil && r.ToolCallResult.Status != "" && r.ToolCallResult.Status != "success"
		for _, p := range r.Message.Parts {
			if fr := p.FunctionResponse; fr != nil {
				out, isErr := responseText(fr.Response)
				name := fr.Name
				if name == "" {
					name = st.callName(fr.ID)
				}
				m.Results = append(m.Results, Result{ID: fr.ID, Name: name, Output: out, IsError: isErr || failed})
			}
		}
		if len(m.Results) == 0 {
			return nil
		}
		return []Message{m}
	}
	return nil
}

// qwenSettled reports whether tail holds an assistant record with a text
// part opening as the stop's last reply does. Only the opening is looked
// for (its first 32 bytes, as JSON.stringify writes them, which Go does
// without its HTML escapes): a reply Qwen recorded in several parts, or
// with other white space, still counts.
func qwenSettled(tail []byte, m Mark) bool {
	reply := strings.TrimSpace(m.LastReply)
	if reply == "" {
		// A turn that ended on a tool call, or on white space: nothing to
		// look for, so nothing to wait for.
		return true
	}
	return wholeLineWith(tail, textOpening(reply), qwenAssistant)
}

// textOpening is `"text":` and the JSON string of reply's first 32 bytes,
// without its closing quote, as JSON.stringify writes it (which Go does
// without its HTML escapes).
func textOpening(reply string) []byte {
	if len(reply) > 32 {
		n := 32
		for n > 0 && !utf8.RuneStart(reply[n]) {
			n--
		}
		reply = reply[:n]
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(reply)
	open := bytes.TrimSuffix(bytes.TrimSuffix(b.Bytes(), []byte("\n")), []byte(`"`))
	return append([]byte(`"text":`), open...)
}
