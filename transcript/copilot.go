package transcript

import (
	"bytes"
	"encoding/json"
)

// Copilot CLI's session events (1.0.102, live): JSONL at
// ~/.copilot/session-state/<session>/events.jsonl, appended only, each
// {type, data, id, timestamp, parentId}. The conversation: "user.message"
// {content (as displayed), transformedContent (as sent, with a date
// wrapper), source, isAutopilotContinuation}, "assistant.message"
// {messageId, model, content, toolRequests: [{toolCallId, name, arguments}]}
// and "tool.execution_complete" {toolCallId, success, result: {content},
// error: {message}}. The rest (session.*, system.message, turn markers,
// tool.execution_start, usage, hook.start/end, reasoning) is bookkeeping or
// what the model saw besides the conversation. Tool names are Copilot's
// (bash, create, …), the names its hooks see. A subagent's events carry
// its agentId.

type copilotRecord struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	AgentID   string `json:"agentId"` // a subagent's event
	Data      struct {
		Content        json.RawMessage `json:"content"`
		Source         string          `json:"source"`
		Autopilot      bool            `json:"isAutopilotContinuation"`
		MessageID      string          `json:"messageId"`
		Model          string          `json:"model"`
		ToolCallID     string          `json:"toolCallId"`
		Success        *bool           `json:"success"`
		ParentToolCall string          `json:"parentToolCallId"`
		ToolRequests   []struct {
			ToolCallID string         `json:"toolCallId"`
			Name       string         `json:"name"`
			Arguments  map[string]any `json:"arguments"`
		} `json:"toolRequests"`
		Result *struct {
			Content string `json:"content"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"data"`
}

var (
	copilotUser      = []byte(`"type":"user.message"`)
	copilotAssistant = []byte(`"type":"assistant.message"`)
	copilotResult    = []byte(`"type":"tool.execution_complete"`)
)

func readCopilot(line []byte, st *readState) []Message {
	if !bytes.Contains(line, copilotUser) && !bytes.Contains(line, copilotAssistant) && !bytes.Contains(line, copilotResult) {
		return nil
	}
	var r copilotRecord
	// A subagent's messages are inside its tool call, not the conversation.
	if json.Unmarshal(line, &r) != nil || r.AgentID != "" || r.Data.ParentToolCall != "" {
		return nil
	}
	var text string
	_ = json.Unmarshal(r.Data.Content, &text)
	switch r.Type {
	case "user.message":
		if text == "" {
			return nil
		}
		// A message Copilot injected: a skill's, another agent's, or
		// autopilot's continuation.
		meta := r.Data.Autopilot || r.Data.Source != "" && r.Data.Source != "user"
		return []Message{{Role: "user", ID: r.ID, Time: r.Timestamp, Text: text, Meta: meta}}
	case "assistant.message":
		m := Message{Role: "assistant", ID: r.Data.MessageID, Time: r.Timestamp, Model: r.Data.Model, Text: text}
		if m.ID == "" {
			m.ID = r.ID
		}
		for _, c := range r.Data.ToolRequests {
			m.Calls = append(m.Calls, Call{ID: c.ToolCallID, Name: c.Name, Input: c.Arguments})
			st.rememberCall(c.ToolCallID, c.Name)
		}
		if m.Text == "" && len(m.Calls) == 0 {
			return nil
		}
		return []Message{m}
	case "tool.execution_complete":
		res := Result{ID: r.Data.ToolCallID, Name: st.callName(r.Data.ToolCallID)}
		res.IsError = r.Data.Success != nil && !*r.Data.Success
		switch {
		case r.Data.Result != nil && r.Data.Result.Content != "":
			res.Output = r.Data.Result.Content
		case r.Data.Error != nil:
			res.Output, res.IsError = r.Data.Error.Message, true
		}
		return []Message{{Role: "user", ID: r.ID, Time: r.Timestamp, Results: []Result{res}}}
	}
	return nil
}

// copilotSettled reports whether tail holds the hook.start record of the
// hook whose input has the timestamp m.Stamp (a number of milliseconds).
func copilotSettled(tail []byte, m Mark) bool {
	return m.Stamp != "" && wholeLineWith(tail, []byte(`"timestamp":`+m.Stamp), []byte(`"type":"hook.start"`))
}
