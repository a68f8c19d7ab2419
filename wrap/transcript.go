package wrap

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/transcript"
)

// withTranscript gives the hook a transcript_path to the same conversation
// in its own agent's format (package transcript keeps the translated copy
// per session under TranscriptDir, converting only what the host added
// since the last call), and fills the turn fields the hook's agent sends
// and the host's does not: Gemini's prompt and the whole prompt_response on
// a Claude Stop, Claude's last_assistant_message (the last reply, not the
// turn) on a Gemini AfterAgent. When the transcript cannot be translated,
// the hook gets the host's, and a finding says so.
func (r *runner) withTranscript(hostPayload, hookPayload []byte) []byte {
	if r.hook.Transcript.File == "" {
		// The hook's agent tells its hooks of no transcript (Crush): the
		// hook gets none, as there.
		order, hook, err := mappings.SplitObject(hookPayload)
		if err != nil || !has(hook, "transcript_path") {
			return hookPayload
		}
		return mappings.JoinObject(slices.DeleteFunc(order, func(k string) bool { return k == "transcript_path" }), hook)
	}
	if r.TranscriptDir == "" || r.host.Transcript.Format == r.hook.Transcript.Format {
		return hookPayload
	}
	// Payloads can hold megabytes of tool output: split them once, at
	// memchr speed, and decode only the small fields needed.
	_, own, err := mappings.SplitObject(hostPayload)
	if err != nil {
		return hookPayload
	}
	// The host payload in translation's names (Copilot's says
	// transcriptPath and sessionId).
	host := own
	if r.host.Payload.Own() {
		host = make(map[string]json.RawMessage, len(own))
		for k, v := range own {
			if n, ok := r.host.Payload.Fields[k]; ok {
				k = n
			}
			host[k] = v
		}
	}
	src := rawString(host["transcript_path"])
	if src == "" {
		return hookPayload
	}
	order, hook, err := mappings.SplitObject(hookPayload)
	if err != nil {
		return hookPayload
	}
	t0 := time.Now()
	defer func() { r.trace.Timings.TranscriptMS = ms(time.Since(t0)) }()
	conv, err := transcript.NewConverter(r.Table, r.host.Name, r.hook.Name)
	if err != nil {
		r.reportf("transcript_path is %s's own file: %v", r.host.Agent, err)
		return hookPayload
	}
	conv.Session, conv.Cwd = rawString(host["session_id"]), rawString(host["cwd"])
	tail := rawString(host["last_assistant_message"])
	if ev := r.host.Event(r.hostEvent); ev != nil && (ev.Canonical == "agent.stop" || ev.Canonical == "subagent.stop") {
		// A Stop hook reads the turn's end: give a host that records it
		// behind its hooks the time to.
		if !conv.Settle(src, transcript.Mark{Stamp: string(host["timestamp"]), LastReply: tail}, settleMax) {
			r.reportf("transcript_path: %s had not recorded this stop after %v; the copy may lack the turn's last records", r.host.Agent, settleMax)
		}
	}
	cache := transcript.Cache{Dir: r.TranscriptDir}
	res, err := cache.Sync(conv, src, tail)
	if err != nil {
		r.reportf("transcript_path is %s's own file, not translated: %v", r.host.Agent, err)
		return hookPayload
	}
	set := map[string]string{"transcript_path": res.Path}
	fillResponse := has(hook, "prompt_response") && !has(host, "prompt_response")
	fillLast := has(hook, "last_assistant_message") && !has(host, "last_assistant_message")
	if fillResponse || fillLast {
		turn := res.Turn()
		if fillResponse {
			// Nothing recovered keeps the translation's value: Gemini's own
			// "[no response text]".
			if text := turn.Text(tail); text != "" {
				set["prompt_response"] = text
			}
			if rawString(hook["prompt"]) == "" {
				set["prompt"] = turn.Prompt
				if turn.Prompt == "" {
					r.report([]Finding{{Text: "prompt: not found in " + r.host.Agent + "'s transcript; left empty", Notice: true}})
				}
			}
		}
		// Gemini's prompt_response is the whole turn; Claude's field is
		// the last reply alone.
		if rs := turn.Response; fillLast && len(rs) > 0 {
			set["last_assistant_message"] = strings.TrimSpace(rs[len(rs)-1])
		}
	}
	return setFields(order, hook, set)
}

// settleMax bounds the wait for a host's transcript to catch up with a
// Stop hook (Copilot's was 100 ms behind, Qwen's up to its last two
// records, seen live).
const settleMax = time.Second

func has(m map[string]json.RawMessage, k string) bool {
	_, ok := m[k]
	return ok
}

// rawString is a JSON string value, or "".
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// setFields rebuilds a split object with string fields set, keeping the
// order of the others; new ones go at the end, in a fixed order.
func setFields(order []string, raw map[string]json.RawMessage, set map[string]string) []byte {
	n := 2
	for _, v := range raw {
		n += len(v) + 32
	}
	out := bytes.NewBuffer(make([]byte, 0, n))
	out.WriteByte('{')
	put := func(k string, v []byte) {
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		out.Write(marshalString(k))
		out.WriteByte(':')
		out.Write(v)
	}
	for _, k := range order {
		v := raw[k]
		if s, ok := set[k]; ok {
			v = marshalString(s)
		}
		put(k, v)
	}
	for _, k := range []string{"transcript_path", "prompt", "prompt_response", "last_assistant_message"} {
		if s, ok := set[k]; ok && !has(raw, k) {
			put(k, marshalString(s))
		}
	}
	out.WriteByte('}')
	return out.Bytes()
}

func marshalString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}
