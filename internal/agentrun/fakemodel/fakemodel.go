// Package fakemodel serves scripted fake model APIs on 127.0.0.1 for the
// conformance suite: the Gemini generativelanguage v1beta API that Gemini CLI
// talks to, the Anthropic Messages API that Claude Code talks to, and the
// OpenAI Chat Completions and Responses APIs that Copilot CLI, Qwen Code,
// Factory Droid (chat completions) and Codex (responses) talk to.
//
// A fake answers each main-model request (one that offers tools) with step N
// of its script, where N is the number of model/assistant turns already in
// the request's history (OpenAI Responses: runs of model-produced input
// items); past the end of the script it answers Final ("Done."). Utility requests without tools (Gemini's router and
// next-speaker classifiers) get a small JSON text that satisfies them all.
// Every request is recorded, decoded, so a test can read what reached the
// model: tool results, hook block reasons, injected context.
package fakemodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Call is one tool call the fake model makes.
type Call struct {
	Name string
	Args map[string]any
	// Input, when set, makes the call a freeform (custom) tool call with
	// this text (the Responses API only: Codex's apply_patch).
	Input string
}

// DeepArg is a tool argument nested n arrays deep, as a model may send
// one. encoding/json writes nothing nested past 10,000 levels, so the
// arguments are written with a stand-in, then expanded: on the OpenAI wires
// only, where the arguments travel as a string (the other fakes decode the
// conversation they are sent, which would then hold it).
type DeepArg int

// MarshalJSON writes the stand-in.
func (d DeepArg) MarshalJSON() ([]byte, error) { return fmt.Appendf(nil, `"DEEP-ARG-%d"`, int(d)), nil }

var deepArgRE = regexp.MustCompile(`"DEEP-ARG-([0-9]+)"`)

// expandDeep replaces each DeepArg's stand-in in b with its value.
func expandDeep(b []byte) []byte {
	return deepArgRE.ReplaceAllFunc(b, func(m []byte) []byte {
		n, _ := strconv.Atoi(string(deepArgRE.FindSubmatch(m)[1]))
		return []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	})
}

// Step is one scripted model reply: the text Text, then the tool calls
// Calls; a step with calls and no text has no text part.
type Step struct {
	Calls []Call
	Text  string
	// Fail, when set, is the HTTP status of an error answer given instead
	// (Text its message): a failed model call. The OpenAI APIs only.
	Fail int
}

// Tool returns a step that calls one tool.
func Tool(name string, args map[string]any) Step {
	return Step{Calls: []Call{{Name: name, Args: args}}}
}

// Say returns a step that answers with text.
func Say(text string) Step { return Step{Text: text} }

// Script configures a fake server.
type Script struct {
	Steps []Step
	// Final is the text answered past the end of Steps; "Done." when empty.
	Final string
	// MaxMain, when positive, is the number of main-model requests after
	// which Exceeded is closed, so a driver can end a run that loops.
	MaxMain int
	// Quote makes the answer past the script quote the last tool result in
	// the request ("Done. The tool said: …"), so the agent's own output
	// shows what reached the model. OpenAI servers only.
	Quote bool
	// Listener, when set, is where the server serves (hookx test --live
	// confined: a port inside the agent's own network namespace);
	// default a new one on 127.0.0.1.
	Listener net.Listener
}

// Request is one recorded HTTP request.
type Request struct {
	Method string
	Path   string // without the query
	Query  string
	Header http.Header
	Body   []byte
	JSON   map[string]any // the decoded body, nil when it is not a JSON object
	// Main is true for a main-model request, answered from the script.
	Main bool
	// Turn is the number of model/assistant turns in the request's history;
	// meaningful when Main is true.
	Turn int
}

// Server is a running fake; Close it when done.
type Server struct {
	URL string

	kind     kind
	script   Script
	srv      *httptest.Server
	mu       sync.Mutex
	reqs     []Request
	mains    int
	exceeded chan struct{}
	once     sync.Once
}

type kind int

const (
	gemini kind = iota
	anthropic
	openai
)

// NewGemini starts a fake Gemini API. Point Gemini CLI at it with
// GOOGLE_GEMINI_BASE_URL=URL.
func NewGemini(s Script) *Server { return start(gemini, s) }

// NewAnthropic starts a fake Anthropic Messages API. Point Claude Code at it
// with ANTHROPIC_BASE_URL=URL.
func NewAnthropic(s Script) *Server { return start(anthropic, s) }

// NewOpenAI starts a fake OpenAI API: Chat Completions at
// URL/v1/chat/completions and Responses at URL/v1/responses. Point an agent
// at URL+"/v1".
func NewOpenAI(s Script) *Server { return start(openai, s) }

func start(k kind, s Script) *Server {
	if s.Final == "" {
		s.Final = "Done."
	}
	f := &Server{kind: k, script: s, exceeded: make(chan struct{})}
	f.srv = httptest.NewUnstartedServer(http.HandlerFunc(f.serve))
	if s.Listener != nil {
		f.srv.Listener.Close()
		f.srv.Listener = s.Listener
	}
	f.srv.Start()
	f.URL = f.srv.URL
	return f
}

// Close shuts the server down.
func (f *Server) Close() { f.srv.Close() }

// Exceeded is closed once the server has answered more than MaxMain
// main-model requests.
func (f *Server) Exceeded() <-chan struct{} { return f.exceeded }

// Requests returns a copy of every request so far.
func (f *Server) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.reqs...)
}

// Main returns the main-model requests so far, in arrival order.
func (f *Server) Main() []Request {
	var out []Request
	for _, r := range f.Requests() {
		if r.Main {
			out = append(out, r)
		}
	}
	return out
}

// LastMain returns the last main-model request, or nil.
func (f *Server) LastMain() *Request {
	m := f.Main()
	if len(m) == 0 {
		return nil
	}
	return &m[len(m)-1]
}

func (f *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body}
	if len(body) > 0 {
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			req.JSON = m
		}
	}
	switch f.kind {
	case gemini:
		f.serveGemini(w, &req)
	case anthropic:
		f.serveAnthropic(w, &req)
	case openai:
		f.serveOpenAI(w, &req)
	}
}

// record stores req and, for a main request, returns the step to answer.
func (f *Server) record(req *Request) Step {
	s, _ := f.recordStep(req)
	return s
}

// recordStep is record that also says whether the step is past the script.
func (f *Server) recordStep(req *Request) (Step, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, *req)
	if !req.Main {
		return Step{}, false
	}
	f.mains++
	if f.script.MaxMain > 0 && f.mains > f.script.MaxMain {
		f.once.Do(func() { close(f.exceeded) })
	}
	if req.Turn < len(f.script.Steps) {
		return f.script.Steps[req.Turn], false
	}
	return Say(f.script.Final), true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// ToolResult is a tool result as the model received it.
type ToolResult struct {
	Name string // Gemini function name; OpenAI: the called function's name; empty for Claude
	// Text is, for Claude, the result content's text; Gemini: the response
	// object as JSON; OpenAI: the tool message's or function_call_output's
	// text.
	Text string
	// IsError is Claude's is_error, or whether Gemini's response has an
	// "error" key. The OpenAI APIs have no such flag: always false.
	IsError bool
}

// ToolResults returns every tool result in the request's history, in order.
func (r *Request) ToolResults() []ToolResult {
	var out []ToolResult
	for _, msg := range list(r.JSON["contents"]) { // Gemini
		for _, p := range list(obj(msg)["parts"]) {
			fr := obj(obj(p)["functionResponse"])
			if fr == nil {
				continue
			}
			resp := obj(fr["response"])
			b, _ := json.Marshal(resp)
			_, isErr := resp["error"]
			out = append(out, ToolResult{Name: str(fr["name"]), Text: string(b), IsError: isErr})
		}
	}
	for _, msg := range list(r.JSON["messages"]) { // Anthropic
		for _, blk := range list(obj(msg)["content"]) {
			b := obj(blk)
			if b["type"] != "tool_result" {
				continue
			}
			isErr, _ := b["is_error"].(bool)
			out = append(out, ToolResult{Text: contentText(b["content"]), IsError: isErr})
		}
	}
	names := map[string]string{}                   // OpenAI call id -> function name
	for _, msg := range list(r.JSON["messages"]) { // OpenAI Chat Completions
		m := obj(msg)
		for _, c := range list(m["tool_calls"]) {
			names[str(obj(c)["id"])] = str(obj(obj(c)["function"])["name"])
		}
		if m["role"] == "tool" {
			out = append(out, ToolResult{Name: names[str(m["tool_call_id"])], Text: contentText(m["content"])})
		}
	}
	for _, it := range list(r.JSON["input"]) { // OpenAI Responses
		m := obj(it)
		switch m["type"] {
		case "function_call", "custom_tool_call":
			names[str(m["call_id"])] = str(m["name"])
		case "function_call_output", "custom_tool_call_output":
			out = append(out, ToolResult{Name: names[str(m["call_id"])], Text: contentText(m["output"])})
		}
	}
	return out
}

// Conversation is every string in the request's message history (Anthropic
// and OpenAI chat messages, Gemini contents, OpenAI Responses input), joined
// by newlines: what the model was told in the conversation, excluding the
// system prompt and tool declarations (OpenAI chat's system messages are in
// messages, so they are included).
func (r *Request) Conversation() string {
	var parts []string
	for _, k := range []string{"messages", "contents", "input"} {
		parts = append(parts, strings_(r.JSON[k])...)
	}
	return strings.Join(parts, "\n")
}

// AllText is Conversation plus the system prompt (Anthropic system, Gemini
// systemInstruction, OpenAI Responses instructions), where agents may put
// hook context.
func (r *Request) AllText() string {
	parts := []string{r.Conversation()}
	for _, k := range []string{"system", "systemInstruction", "instructions"} {
		parts = append(parts, strings_(r.JSON[k])...)
	}
	return strings.Join(parts, "\n")
}

// strings_ collects every string value under v, depth first, map keys in
// sorted order.
func strings_(v any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k])
			}
		}
	}
	walk(v)
	return out
}

// contentText is the text of an Anthropic or OpenAI content value: a
// string, or the text blocks of a block list joined by newlines.
func contentText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var texts []string
	for _, b := range list(v) {
		if t, ok := obj(b)["text"].(string); ok {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n")
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// countRole counts entries of msgs whose role is role.
func countRole(msgs any, role string) int {
	n := 0
	for _, m := range list(msgs) {
		if obj(m)["role"] == role {
			n++
		}
	}
	return n
}

// Summary describes the main requests for a failure message: per request,
// its turn and the tail of its conversation.
func (f *Server) Summary() string {
	var b strings.Builder
	mains := f.Main()
	fmt.Fprintf(&b, "%d requests, %d main-model requests\n", len(f.Requests()), len(mains))
	for i, r := range mains {
		if i >= 4 && i < len(mains)-2 {
			if i == 4 {
				fmt.Fprintf(&b, "  … %d more …\n", len(mains)-6)
			}
			continue
		}
		c := r.Conversation()
		if len(c) > 600 {
			c = "…" + c[len(c)-600:]
		}
		fmt.Fprintf(&b, "  main #%d (turn %d): %q\n", i, r.Turn, c)
	}
	if len(mains) > 0 {
		for _, tr := range mains[len(mains)-1].ToolResults() {
			t := tr.Text
			if len(t) > 300 {
				t = t[:300] + "…"
			}
			fmt.Fprintf(&b, "  tool result in the last main request (error=%v): %q\n", tr.IsError, t)
		}
	}
	return b.String()
}
