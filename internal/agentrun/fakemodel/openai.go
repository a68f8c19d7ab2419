package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// serveOpenAI answers the OpenAI APIs the four OpenAI-wire agents use:
// Chat Completions (POST /v1/chat/completions, streamed or not: Copilot CLI,
// Qwen Code, Factory Droid) and Responses (POST /v1/responses, streamed:
// Codex). GET /v1/models lists the fake model.
func (f *Server) serveOpenAI(w http.ResponseWriter, req *Request) {
	switch {
	case strings.HasSuffix(req.Path, "/chat/completions"):
		f.serveChat(w, req)
	case strings.HasSuffix(req.Path, "/responses"):
		f.serveResponses(w, req)
	case strings.HasSuffix(req.Path, "/models"):
		f.record(req)
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": "fake-model", "object": "model", "created": 0, "owned_by": "fake"},
		}})
	default:
		f.record(req)
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{
			"message": "fake: unknown " + req.Path, "type": "invalid_request_error", "code": "not_found",
		}})
	}
}

// answer is the step for a recorded request; past the script, with Quote
// set and a tool result last in the history, the final text quotes it.
func (f *Server) answer(req *Request) Step {
	step, final := f.recordStep(req)
	if !req.Main {
		return Say("ok")
	}
	if final && f.script.Quote {
		if rs := req.ToolResults(); len(rs) > 0 {
			step.Text = step.Text + " The tool said: " + rs[len(rs)-1].Text
		}
	}
	return step
}

func argsJSON(c Call) string {
	b, _ := json.Marshal(nonNil(c.Args))
	return string(expandDeep(b))
}

// serveChat answers Chat Completions. A request offering tools is a main
// request; its turn is the number of assistant messages in it.
func (f *Server) serveChat(w http.ResponseWriter, req *Request) {
	req.Main = len(list(req.JSON["tools"])) > 0
	req.Turn = countRole(req.JSON["messages"], "assistant")
	step := f.answer(req)
	if step.Fail != 0 {
		writeJSON(w, step.Fail, map[string]any{"error": map[string]any{
			"message": step.Text, "type": "invalid_request_error", "code": "fake_failure",
		}})
		return
	}
	model, _ := req.JSON["model"].(string)
	id := fmt.Sprintf("chatcmpl-fake-%d", req.Turn)
	created := time.Now().Unix()
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	var calls []any
	for i, c := range step.Calls {
		calls = append(calls, map[string]any{
			"index": i, "id": fmt.Sprintf("call_fake_%d_%d", req.Turn, i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": argsJSON(c)},
		})
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}

	if stream, _ := req.JSON["stream"].(bool); !stream {
		msg := map[string]any{"role": "assistant", "content": step.Text}
		if len(calls) > 0 {
			msg["tool_calls"] = calls
			if step.Text == "" {
				msg["content"] = nil
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "object": "chat.completion", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}

	sse(w)
	chunk := func(choices []any, extra map[string]any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model, "choices": choices}
		for k, v := range extra {
			c[k] = v
		}
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
		flush(w)
	}
	delta := func(d map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": finish}}
	}
	chunk(delta(map[string]any{"role": "assistant", "content": ""}, nil), nil)
	if step.Text != "" {
		chunk(delta(map[string]any{"content": step.Text}, nil), nil)
	}
	for _, c := range calls {
		chunk(delta(map[string]any{"tool_calls": []any{c}}, nil), nil)
	}
	chunk(delta(map[string]any{}, finish), nil)
	chunk([]any{}, map[string]any{"usage": usage})
	fmt.Fprint(w, "data: [DONE]\n\n")
	flush(w)
}

// modelItem reports whether a Responses input item was produced by the
// model (a turn of the history).
func modelItem(it map[string]any) bool {
	switch it["type"] {
	case "function_call", "custom_tool_call", "local_shell_call", "reasoning":
		return true
	case "message", nil:
		return it["role"] == "assistant"
	}
	return false
}

// responsesTurn is the number of model turns in a Responses input: runs
// of consecutive model items.
func responsesTurn(input any) int {
	n, in := 0, false
	for _, it := range list(input) {
		m := modelItem(obj(it))
		if m && !in {
			n++
		}
		in = m
	}
	return n
}

// serveResponses answers the Responses API as a stream of named events:
// response.created, each output item added (text deltas for a message) and
// done, then response.completed.
func (f *Server) serveResponses(w http.ResponseWriter, req *Request) {
	req.Main = len(list(req.JSON["tools"])) > 0
	req.Turn = responsesTurn(req.JSON["input"])
	step := f.answer(req)
	if step.Fail != 0 {
		writeJSON(w, step.Fail, map[string]any{"error": map[string]any{
			"message": step.Text, "type": "invalid_request_error", "code": "fake_failure",
		}})
		return
	}
	model, _ := req.JSON["model"].(string)
	id := fmt.Sprintf("resp_fake_%d", req.Turn)
	var items []map[string]any
	if step.Text != "" || len(step.Calls) == 0 {
		items = append(items, map[string]any{
			"type": "message", "id": fmt.Sprintf("msg_fake_%d", req.Turn), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": step.Text, "annotations": []any{}}},
		})
	}
	for i, c := range step.Calls {
		if c.Input != "" {
			items = append(items, map[string]any{
				"type": "custom_tool_call", "id": fmt.Sprintf("ctc_fake_%d_%d", req.Turn, i), "status": "completed",
				"call_id": fmt.Sprintf("call_fake_%d_%d", req.Turn, i), "name": c.Name, "input": c.Input,
			})
			continue
		}
		items = append(items, map[string]any{
			"type": "function_call", "id": fmt.Sprintf("fc_fake_%d_%d", req.Turn, i), "status": "completed",
			"call_id": fmt.Sprintf("call_fake_%d_%d", req.Turn, i), "name": c.Name, "arguments": argsJSON(c),
		})
	}
	resp := map[string]any{"id": id, "object": "response", "created_at": time.Now().Unix(), "model": model, "status": "in_progress", "output": []any{}}
	sse(w)
	seq := 0
	event := func(name string, data map[string]any) {
		data["type"] = name
		data["sequence_number"] = seq
		seq++
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		flush(w)
	}
	event("response.created", map[string]any{"response": resp})
	var output []any
	for i, it := range items {
		if it["type"] == "message" {
			event("response.output_item.added", map[string]any{"output_index": i, "item": map[string]any{
				"type": "message", "id": it["id"], "role": "assistant", "status": "in_progress", "content": []any{},
			}})
			event("response.output_text.delta", map[string]any{"output_index": i, "item_id": it["id"], "content_index": 0, "delta": step.Text})
		} else {
			event("response.output_item.added", map[string]any{"output_index": i, "item": it})
		}
		event("response.output_item.done", map[string]any{"output_index": i, "item": it})
		output = append(output, it)
	}
	done := map[string]any{}
	for k, v := range resp {
		done[k] = v
	}
	done["status"] = "completed"
	done["output"] = output
	done["usage"] = map[string]any{
		"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15,
	}
	event("response.completed", map[string]any{"response": done})
}

func sse(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

func flush(w http.ResponseWriter) {
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}
