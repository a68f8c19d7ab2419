package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// utilityJSON satisfies every Gemini utility call seen in 0.61.0: the
// router's complexity classifier and the next-speaker check.
const utilityJSON = `{"reasoning":"fake","complexity_reasoning":"fake","model_choice":"flash","next_speaker":"user","complexity_score":1}`

// serveGemini routes on the method suffix after the model name
// (/v1beta/models/<model>:<method>).
func (f *Server) serveGemini(w http.ResponseWriter, req *Request) {
	_, method, _ := strings.Cut(req.Path, ":")
	switch method {
	case "countTokens":
		f.record(req)
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": 10})
	case "embedContent", "batchEmbedContents":
		f.record(req)
		writeJSON(w, http.StatusOK, map[string]any{
			"embedding":  map[string]any{"values": []float64{0.1, 0.2}},
			"embeddings": []any{map[string]any{"values": []float64{0.1, 0.2}}},
		})
	case "streamGenerateContent", "generateContent":
		req.Main = hasFunctionDeclarations(req.JSON)
		req.Turn = countRole(req.JSON["contents"], "model")
		step := f.record(req)
		var parts []any
		switch {
		case !req.Main:
			parts = []any{map[string]any{"text": utilityJSON}}
		case len(step.Calls) > 0:
			if step.Text != "" {
				parts = append(parts, map[string]any{"text": step.Text})
			}
			for _, c := range step.Calls {
				parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": nonNil(c.Args)}})
			}
		default:
			parts = []any{map[string]any{"text": step.Text}}
		}
		resp := map[string]any{
			"candidates": []any{map[string]any{
				"content":      map[string]any{"role": "model", "parts": parts},
				"finishReason": "STOP",
				"index":        0,
			}},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
			"modelVersion":  "fake-model",
		}
		if method == "generateContent" {
			writeJSON(w, http.StatusOK, resp)
			return
		}
		b, _ := json.Marshal(resp)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
	default:
		f.record(req)
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{
			"code": 404, "message": "fake: unknown " + req.Path, "status": "NOT_FOUND",
		}})
	}
}

func hasFunctionDeclarations(body map[string]any) bool {
	for _, t := range list(body["tools"]) {
		if len(list(obj(t)["functionDeclarations"])) > 0 {
			return true
		}
	}
	return false
}

func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
