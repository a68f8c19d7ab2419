package wrap

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/hookx-dev/hookx/transcript"
)

// withTranscript gives the hook a transcript_path to the same conversation
// in its own agent's format (package transcript keeps the translated copy
// per session under TranscriptDir, converting only what the host added
// since the last call), and fills the turn fields the hook's agent sends
// and the host's does not: Gemini's prompt and the whole prompt_response
// on a Claude Stop, Claude's last_assistant_message (the last reply, not
// the turn) on a Gemini AfterAgent. When the transcript cannot be translated, the hook gets
// the host's, and a finding says so.
func (r *runner) withTranscript(hostPayload, hookPayload []byte) []byte {
	src := stringField(hostPayload, "transcript_path")
	if r.TranscriptDir == "" || src == "" || r.host.Transcript.Format == r.hook.Transcript.Format {
		return hookPayload
	}
	t0 := time.Now()
	defer func() { r.trace.Timings.TranscriptMS = ms(time.Since(t0)) }()
	conv, err := transcript.NewConverter(r.Table, r.host.Name, r.hook.Name)
	if err != nil {
		r.reportf("transcript_path is %s's own file: %v", r.host.Agent, err)
		return hookPayload
	}
	conv.Session, conv.Cwd = stringField(hostPayload, "session_id"), stringField(hostPayload, "cwd")
	tail := stringField(hostPayload, "last_assistant_message")
	cache := transcript.Cache{Dir: r.TranscriptDir}
	res, err := cache.Sync(conv, src, tail)
	if err != nil {
		r.reportf("transcript_path is %s's own file, not translated: %v", r.host.Agent, err)
		return hookPayload
	}
	set := map[string]string{"transcript_path": res.Path}
	turn := res.Turn() // read only when a field needs it

	if hasField(hookPayload, "prompt_response") && !hasField(hostPayload, "prompt_response") {
		set["prompt_response"] = turn.Text(tail)
		if stringField(hookPayload, "prompt") == "" {
			set["prompt"] = turn.Prompt
			if turn.Prompt == "" {
				r.report([]string{"prompt: not found in " + r.host.Agent + "'s transcript; left empty"})
			}
		}
	}
	if hasField(hookPayload, "last_assistant_message") && !hasField(hostPayload, "last_assistant_message") {
		// Gemini's prompt_response is the whole turn; Claude's field is
		// the last message alone.
		if r := turn.Response; len(r) > 0 {
			set["last_assistant_message"] = strings.TrimSpace(r[len(r)-1])
		}
	}
	return setFields(hookPayload, set)
}

func hasField(payload []byte, name string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(payload, &m) != nil {
		return false
	}
	_, ok := m[name]
	return ok
}

// setFields sets top-level string fields of a JSON object, keeping the
// order of the others; new ones go at the end. A payload that is not an
// object is returned as it is.
func setFields(payload []byte, set map[string]string) []byte {
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return payload
	}
	var out bytes.Buffer
	out.WriteByte('{')
	done := map[string]bool{}
	put := func(k string, v []byte) {
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		out.Write(kb)
		out.WriteByte(':')
		out.Write(v)
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return payload
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return payload
		}
		if s, ok := set[k]; ok {
			v = marshalString(s)
			done[k] = true
		}
		put(k, v)
	}
	for _, k := range []string{"transcript_path", "prompt", "prompt_response", "last_assistant_message"} {
		if s, ok := set[k]; ok && !done[k] {
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
