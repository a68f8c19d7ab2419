package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Factory Droid's session file (0.225.2, live): JSONL under
// ~/.factory/sessions/<project>/<session>.jsonl, appended only. A
// "session_start" record, then "message" records {id, parentId, timestamp,
// message: {role: user|assistant, content: [Claude's blocks: text, tool_use,
// tool_result]}}, and bookkeeping ("agent_turn_outcome", …). Droid adds
// user messages of its own: the context it gives the model (id
// "context-…", system reminders) and a record of each hook run (visibility
// "user_only", no content). Tool calls carry Droid's tool names (Execute,
// Create, …), the names its hooks see.

type droidRecord struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Message   struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ModelID    string          `json:"modelId"`
		Visibility string          `json:"visibility"`
	} `json:"message"`
}

var droidMessage = []byte(`"type":"message"`)

func readDroid(line []byte, st *readState) []Message {
	if !bytes.Contains(line, droidMessage) {
		return nil
	}
	var r droidRecord
	if json.Unmarshal(line, &r) != nil || r.Type != "message" {
		return nil
	}
	var blocks []claudeBlock
	var s string
	if json.Unmarshal(r.Message.Content, &s) == nil {
		blocks = []claudeBlock{{Type: "text", Text: s}}
	} else if json.Unmarshal(r.Message.Content, &blocks) != nil {
		return nil
	}
	m := Message{ID: r.ID, Time: r.Timestamp}
	switch r.Message.Role {
	case "user":
		m.Role = "user"
		m.Meta = strings.HasPrefix(r.ID, "context-") || r.Message.Visibility != ""
	case "assistant":
		m.Role, m.Model = "assistant", r.Message.ModelID
	default:
		return nil
	}
	var texts []string
	for _, b := range blocks {
		switch {
		case b.Type == "text":
			texts = append(texts, b.Text)
		case b.Type == "tool_use" && m.Role == "assistant":
			m.Calls = append(m.Calls, Call{ID: b.ID, Name: b.Name, Input: b.Input})
			st.rememberCall(b.ID, b.Name)
		case b.Type == "tool_result" && m.Role == "user":
			m.Results = append(m.Results, Result{ID: b.ToolUseID, Name: st.callName(b.ToolUseID), Output: blockText(b.Content), IsError: b.IsError})
		}
	}
	m.Text = strings.Join(texts, "")
	if m.Text == "" && len(m.Calls) == 0 && len(m.Results) == 0 {
		return nil
	}
	return []Message{m}
}
