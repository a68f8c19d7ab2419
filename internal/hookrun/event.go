package hookrun

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
)

// Action is something that happens in an agent, for a hook to see: a named
// action (Name: shell, write, prompt, stop) with its fields, or an inline
// payload (Payload, written in Dialect).
type Action struct {
	Name    string
	Command string // shell: the command
	Path    string // write: the file, relative to the project or absolute
	Content string // write: what is written
	Prompt  string // prompt: the user's prompt
	Message string // stop: the agent's last message

	Dialect string
	Payload []byte
}

// named are the actions a case or a probe may name, each written as Claude
// Code sends it (its captured payloads' fields) and translated for every
// other host by package translate.
var named = map[string]func(a Action, proj string) (event string, fields map[string]any){
	"shell": func(a Action, _ string) (string, map[string]any) {
		return "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": a.Command, "description": "hookx test"}, "tool_use_id": "toolu_hookx_test"}
	},
	"write": func(a Action, proj string) (string, map[string]any) {
		p := a.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(proj, p)
		}
		return "PreToolUse", map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": p, "content": a.Content}, "tool_use_id": "toolu_hookx_test"}
	},
	"prompt": func(a Action, _ string) (string, map[string]any) {
		return "UserPromptSubmit", map[string]any{"prompt": a.Prompt}
	},
	"stop": func(a Action, _ string) (string, map[string]any) {
		return "Stop", map[string]any{"stop_hook_active": false, "last_assistant_message": a.Message}
	},
}

// ActionNames are the names an Action may have, sorted.
func ActionNames() []string { return slices.Sorted(maps.Keys(named)) }

// Event is an event as a host sends it.
type Event struct {
	Payload   []byte // the host's payload; nil: the host has no such event or tool
	Name      string // the host's event
	Tool      string // the host's tool, for a tool event
	Canonical string // the event's canonical concept
}

// BuildEvent is the event host's agent sends for a in the project proj
// (the project a hook runs in: a named action's cwd and relative paths,
// an inline payload's cwd): a named action written as Claude Code sends it,
// or the inline payload, translated by package translate. It is the one
// builder of `hookx test` and `hookx doctor --probe`, so that a probe's
// event is the event hookx test builds for the same host and action. A
// host without the event or the tool gives an Event with no Payload; an
// error says the translation refuses the event (a guard could not judge
// it as the host would send it).
func BuildEvent(tbl *mappings.Table, host *mappings.Dialect, proj string, a Action) (Event, error) {
	from, src := a.Dialect, a.Payload
	if a.Payload != nil {
		// The agent runs in the project: an inline event's cwd is the
		// project's, as a named event's is (a hook that finds its project
		// by the cwd, as wrap does on a host without a project variable,
		// would look in the author's directory, or in none).
		var m map[string]any
		if json.Unmarshal(src, &m) == nil {
			if _, ok := m["cwd"].(string); ok {
				m["cwd"] = proj
				b, err := json.Marshal(m)
				if err != nil {
					return Event{}, err
				}
				src = b
			}
		}
	} else {
		build, ok := named[a.Name]
		if !ok {
			return Event{}, fmt.Errorf("no action %q: want one of %v", a.Name, ActionNames())
		}
		from = "claude"
		name, fields := build(a, proj)
		m := map[string]any{
			"session_id": "hookx-test", "transcript_path": filepath.Join(proj, ".hookx-test-transcript.jsonl"),
			"cwd": proj, "permission_mode": "default", "hook_event_name": name,
		}
		maps.Copy(m, fields)
		b, err := json.Marshal(m)
		if err != nil {
			return Event{}, err
		}
		src = b
	}
	tr, err := translate.New(tbl, from, host.Name)
	if err != nil {
		return Event{}, err
	}
	res, err := tr.Event(src)
	if err != nil {
		return Event{}, fmt.Errorf("the event as %s sends it: %w", host.Agent, err)
	}
	if res.Skip {
		return Event{}, nil
	}
	if from == host.Name {
		// The event is written as the host sends it: the hook sees it as
		// written (wrap passes it through too). A translation to its own
		// dialect would drop what means nothing to another agent
		// (Claude Code's permission_mode, on every event it sends).
		res.Payload = src
	}
	return Event{Payload: res.Payload, Name: res.Event, Tool: res.Tool, Canonical: res.Canonical}, nil
}
