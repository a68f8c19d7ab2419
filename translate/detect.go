package translate

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

// DetectHost names the dialect of the agent that sent payload, from what
// the table says tells each agent apart (NDIALECT §4), among the dialects
// that have the payload's event (less those whose detect.env variables,
// which their agent sets for every hook, are all unset): an environment
// variable only that agent
// sets for its hooks (detect.env), then a payload field only it sends
// (detect.fields); then an event name only one dialect has; then fields
// only one of those sharing the name sends (signature); then the session
// variable in the environment that names the payload's session. It returns
// an error when nothing decides, or when two dialects both claim it.
func DetectHost(t *mappings.Table, payload []byte, getenv func(string) string) (string, error) {
	// Split, not decoded: a tool input nested past encoding/json's limit
	// is read as its agent's JSON.parse reads it. What the splitter refuses
	// and encoding/json takes (a duplicate key: the last one counts) is
	// read as before.
	_, p, err := mappings.SplitObject(payload)
	if err != nil && (json.Unmarshal(payload, &p) != nil || p == nil) {
		return "", fmt.Errorf("event payload is not a JSON object")
	}
	var name string
	_ = json.Unmarshal(p["hook_event_name"], &name)
	// The dialects' clues are all it reads of the table: a lazy table
	// (mappings.Lazy) builds no dialect for it.
	clues := t.Clues()
	if name == "" {
		// A payload that names no event is in its agent's own form
		// (Copilot CLI's camelCase): its field names tell.
		for _, d := range clues {
			for _, field := range d.Fields {
				if _, ok := p[field]; ok && d.OwnPayload {
					return d.Name, nil
				}
			}
		}
	}
	var owners []mappings.Clue
	for _, d := range clues {
		if slices.Contains(d.Events, name) {
			owners = append(owners, d)
		}
	}
	if len(owners) == 0 {
		return "", fmt.Errorf("unknown event %q", name)
	}
	// An agent that sets one of its detect.env variables for every hook is
	// not the host when none is set.
	owners = slices.DeleteFunc(owners, func(d mappings.Clue) bool {
		return len(d.Env) > 0 && !slices.ContainsFunc(d.Env, func(v string) bool { return getenv(v) != "" })
	})
	if len(owners) == 0 {
		return "", fmt.Errorf("cannot tell which agent sent %s: the agents that have it set their own variables, and none is set; pass --host", name)
	}
	// one decides when exactly one owner passes test; two passing is an
	// ambiguity, none passing goes on to the next rule.
	one := func(what string, test func(mappings.Clue) bool) (string, error, bool) {
		var hits []string
		for _, d := range owners {
			if test(d) {
				hits = append(hits, d.Name)
			}
		}
		switch len(hits) {
		case 0:
			return "", nil, false
		case 1:
			return hits[0], nil, true
		}
		return "", fmt.Errorf("cannot tell which agent sent %s: %s of %s; pass --host", name, what, strings.Join(hits, " and ")), true
	}
	hasField := func(fields []string) bool {
		return slices.ContainsFunc(fields, func(f string) bool { _, ok := p[f]; return ok })
	}
	rules := []struct {
		what string
		test func(mappings.Clue) bool
	}{
		{"the environment variables", func(d mappings.Clue) bool {
			return slices.ContainsFunc(d.Env, func(v string) bool { return getenv(v) != "" })
		}},
		{"the payload fields", func(d mappings.Clue) bool { return hasField(d.Fields) }},
		{"the event name", func(mappings.Clue) bool { return len(owners) == 1 }},
		{"the payload fields", func(d mappings.Clue) bool { return hasField(d.Signature) }},
	}
	for _, r := range rules {
		if host, err, decided := one(r.what, r.test); decided {
			return host, err
		}
	}
	var session string
	_ = json.Unmarshal(p["session_id"], &session)
	if host, err, decided := one("the session variables", func(d mappings.Clue) bool {
		v := getenv(d.SessionEnv)
		return d.SessionEnv != "" && v != "" && v == session
	}); decided {
		return host, err
	}
	return "", fmt.Errorf("cannot tell which agent sent %s; pass --host", name)
}
