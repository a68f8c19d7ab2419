package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Codex's rollout (0.169.0, live): JSONL under
// ~/.codex/sessions/YYYY/MM/DD/rollout-<date>-<session>.jsonl, appended
// only, each record {timestamp, type, payload}. The conversation is in the
// "response_item" records, the items of the model API: message {id, role:
// user|assistant|developer, content: [{type: input_text|output_text, text}]},
// function_call {name, arguments (JSON text), call_id}, custom_tool_call
// {name, input (text), call_id} (the freeform apply_patch),
// function_call_output and custom_tool_call_output {call_id, output} and
// reasoning. The other records (session_meta, turn_context, event_msg,
// world_state, token records, compacted) are the agent's bookkeeping; an
// event_msg repeats an item for the UI. A user message Codex injects (the
// environment context, AGENTS.md) says so in its content_item_metadata
// provenance. Tool calls are recorded under the names the model used; the
// dialect's transcript.tools renames them to what Codex's hooks see.

type codexRecord struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

type codexItem struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Role      string          `json:"role"`
	Content   []codexContent  `json:"content"`
	Name      string          `json:"name"`
	Arguments *string         `json:"arguments"`
	Input     *string         `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Model     string          `json:"model"` // turn_context
	Meta      *struct {
		Items []struct {
			Provenance struct {
				Type string `json:"type"`
			} `json:"provenance"`
		} `json:"content_item_metadata"`
	} `json:"internal_chat_message_metadata_passthrough"`
}

type codexContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

var (
	codexResponseItem = []byte(`"type":"response_item"`)
	codexTurnContext  = []byte(`"type":"turn_context"`)
)

// codexInjected are the openings of the user messages Codex adds itself,
// for rollouts without provenance.
var codexInjected = []string{"<environment_context>", "<user_instructions>", "# AGENTS.md instructions"}

func readCodex(line []byte, st *readState) []Message {
	// Most lines are bookkeeping, some of them long (the instructions):
	// skip them without decoding.
	item, turn := bytes.Contains(line, codexResponseItem), bytes.Contains(line, codexTurnContext)
	if !item && !turn {
		return nil
	}
	var r codexRecord
	var it codexItem
	if json.Unmarshal(line, &r) != nil || json.Unmarshal(r.Payload, &it) != nil {
		return nil
	}
	if r.Type == "turn_context" {
		st.Model = it.Model
		return nil
	}
	if r.Type != "response_item" {
		return nil
	}
	switch it.Type {
	case "message":
		var texts []string
		for _, c := range it.Content {
			if c.Type == "input_text" || c.Type == "output_text" {
				texts = append(texts, c.Text)
			}
		}
		text := strings.Join(texts, "")
		switch it.Role {
		case "user":
			st.Resp = ""
			if text == "" {
				return nil
			}
			return []Message{{Role: "user", ID: it.ID, Time: r.Timestamp, Text: text, Meta: codexMeta(&it, text)}}
		case "assistant":
			if text == "" {
				return nil
			}
			return []Message{{Role: "assistant", ID: st.response(it.ID), Time: r.Timestamp, Model: st.Model, Text: text}}
		}
		return nil // developer and system messages: instructions
	case "reasoning":
		st.response(it.ID)
		return nil
	case "function_call", "custom_tool_call":
		c := Call{ID: it.CallID, Name: it.Name}
		switch {
		case it.Arguments != nil:
			// Arguments that do not parse give a call without them.
			_ = json.Unmarshal([]byte(*it.Arguments), &c.Input)
		case it.Input != nil:
			c.Raw = it.Input
			c.Input = map[string]any{"input": *it.Input}
		}
		st.rememberCall(c.ID, c.Name)
		return []Message{{Role: "assistant", ID: st.response(it.ID), Time: r.Timestamp, Model: st.Model, Calls: []Call{c}}}
	case "function_call_output", "custom_tool_call_output":
		st.Resp = ""
		out, isErr := codexOutput(it.Output)
		return []Message{{Role: "user", ID: it.ID, Time: r.Timestamp, Results: []Result{{ID: it.CallID, Name: st.callName(it.CallID), Output: out, IsError: isErr}}}}
	}
	return nil
}

// response returns the id of the model response an item belongs to: the
// first item's since the last user message or tool output, so that a
// reply's text and calls are one message, as Claude and Gemini record them.
func (r *readState) response(id string) string {
	if r.Resp == "" {
		r.Resp = id
		if r.Resp == "" {
			r.Resp = "response"
		}
	}
	return r.Resp
}

// codexMeta reports whether a user message is one Codex injected.
func codexMeta(it *codexItem, text string) bool {
	if it.Meta != nil && len(it.Meta.Items) > 0 {
		for _, m := range it.Meta.Items {
			if m.Provenance.Type != "user" {
				return true
			}
		}
		return false
	}
	for _, p := range codexInjected {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// codexOutput is a tool output as text: a string, content items' text, or
// an older {content, success} object (then success false is an error).
func codexOutput(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, false
	}
	var items []codexContent
	if json.Unmarshal(raw, &items) == nil {
		var texts []string
		for _, c := range items {
			if c.Text != "" {
				texts = append(texts, c.Text)
			}
		}
		return strings.Join(texts, "\n"), false
	}
	var o struct {
		Content *string `json:"content"`
		Success *bool   `json:"success"`
	}
	if json.Unmarshal(raw, &o) == nil && o.Content != nil {
		return *o.Content, o.Success != nil && !*o.Success
	}
	return string(raw), false
}
