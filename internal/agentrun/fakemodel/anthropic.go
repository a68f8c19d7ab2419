package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// serveAnthropic answers the Messages API the way Claude Code 2.1.330 uses
// it: streaming SSE with named events, or one JSON message.
func (f *Server) serveAnthropic(w http.ResponseWriter, req *Request) {
	switch {
	case strings.HasSuffix(req.Path, "/v1/messages/count_tokens"):
		f.record(req)
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": 10})
		return
	case strings.HasSuffix(req.Path, "/v1/messages"):
	default:
		f.record(req)
		writeJSON(w, http.StatusNotFound, map[string]any{"type": "error", "error": map[string]any{
			"type": "not_found_error", "message": "fake: " + req.Path,
		}})
		return
	}

	req.Main = len(list(req.JSON["tools"])) > 0
	req.Turn = countRole(req.JSON["messages"], "assistant")
	step := f.record(req)
	if !req.Main {
		step = Say("ok")
	}
	var blocks []map[string]any
	stop := "end_turn"
	if len(step.Calls) > 0 {
		stop = "tool_use"
		if step.Text != "" {
			blocks = append(blocks, map[string]any{"type": "text", "text": step.Text})
		}
		for i, c := range step.Calls {
			blocks = append(blocks, map[string]any{
				"type": "tool_use", "id": fmt.Sprintf("toolu_fake_%d_%d", req.Turn, i), "name": c.Name, "input": nonNil(c.Args),
			})
		}
	} else {
		blocks = []map[string]any{{"type": "text", "text": step.Text}}
	}
	model, _ := req.JSON["model"].(string)
	id := fmt.Sprintf("msg_fake_%d", req.Turn)
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}

	if stream, _ := req.JSON["stream"].(bool); !stream {
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model, "content": blocks,
			"stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	event := func(name string, data map[string]any) {
		data["type"] = name
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if fl != nil {
			fl.Flush()
		}
	}
	startUsage := map[string]any{"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	event("message_start", map[string]any{"message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": startUsage,
	}})
	for i, b := range blocks {
		var start, delta map[string]any
		if b["type"] == "tool_use" {
			start = map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}
			in, _ := json.Marshal(b["input"])
			delta = map[string]any{"type": "input_json_delta", "partial_json": string(in)}
		} else {
			start = map[string]any{"type": "text", "text": ""}
			delta = map[string]any{"type": "text_delta", "text": b["text"]}
		}
		event("content_block_start", map[string]any{"index": i, "content_block": start})
		event("content_block_delta", map[string]any{"index": i, "delta": delta})
		event("content_block_stop", map[string]any{"index": i})
	}
	event("message_delta", map[string]any{
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 5},
	})
	event("message_stop", map[string]any{})
}
