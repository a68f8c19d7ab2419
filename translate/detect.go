package translate

import (
	"encoding/json"
	"fmt"

	"github.com/hookx-dev/hookx/mappings"
)

// DetectHost names the dialect of the agent that sent payload. An event name
// only one dialect has decides; for shared names, fields only one agent
// sends (Gemini's timestamp; Claude's permission_mode, prompt_id,
// tool_use_id), then the session variables in the environment. It returns an
// error when nothing decides.
func DetectHost(t *mappings.Table, payload []byte, getenv func(string) string) (string, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(payload, &p); err != nil || p == nil {
		return "", fmt.Errorf("event payload is not a JSON object")
	}
	var name string
	_ = json.Unmarshal(p["hook_event_name"], &name)
	var owners []string
	for _, d := range t.Dialects {
		if d.Event(name) != nil {
			owners = append(owners, d.Name)
		}
	}
	switch len(owners) {
	case 0:
		return "", fmt.Errorf("unknown event %q", name)
	case 1:
		return owners[0], nil
	}
	for _, d := range owners {
		for _, field := range t.MustDialect(d).Signature {
			if _, ok := p[field]; ok {
				return d, nil
			}
		}
	}
	var session string
	_ = json.Unmarshal(p["session_id"], &session)
	for _, d := range owners {
		dd := t.MustDialect(d)
		if v := getenv(dd.Env.SessionID); dd.Env.SessionID != "" && v != "" && v == session {
			return d, nil
		}
	}
	return "", fmt.Errorf("cannot tell which agent sent %s; pass --host", name)
}
