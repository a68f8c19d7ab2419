package translate

// Carrying a hook's tool-input rewrite to the host's tool call.

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/hookx-dev/hookx/mappings"
)

// rebuildInput builds the host's complete tool input from a hook's rewrite
// (T§6.1): start from the host's original input, take every field the hook's
// dialect has a counterpart for from the rewrite, keep host-only fields.
func (tr *Translator) rebuildInput(hostPayload []byte, hookToolName string, hookInput map[string]any, fs *findings) (map[string]any, error) {
	p, err := readHostCall(hostPayload)
	if err != nil || p.ToolName == "" {
		return nil, fmt.Errorf("the host's payload has no tool to rewrite")
	}
	hostTool := tr.To.Tool(p.ToolName)
	if hostTool == nil {
		if _, _, ok := tr.To.SplitMCP(p.ToolName, nil); ok {
			return hookInput, nil // MCP arguments are the server's own
		}
		return nil, fmt.Errorf("unknown %s tool %q", tr.To.Agent, p.ToolName)
	}
	if hostTool.Canonical == "" {
		return nil, fmt.Errorf("%s has no counterpart in %s", p.ToolName, tr.From.Agent)
	}
	hookTool, reason := tr.From.ToolFor(hostTool.Canonical)
	if t := tr.From.Tool(hookToolName); t != nil && t.Canonical == hostTool.Canonical {
		hookTool = t // the tool the hook was shown (LS, MultiEdit)
	}
	if hookTool == nil {
		return nil, fmt.Errorf("%s has no counterpart in %s: %s", p.ToolName, tr.From.Agent, reason)
	}
	// What the hook was shown, to tell an argument it changed from one it
	// only echoed back.
	shown := convertInput(p.ToolInput, hostTool, hookTool, forHost, &findings{})
	if tr.To.AbsolutePaths && len(hookTool.Paths) > 0 {
		// The hook wrote its paths for its own agent, which resolves
		// relative ones; the host takes them as they are.
		hookInput = maps.Clone(hookInput)
		for _, u := range resolvePaths(hookInput, hookTool, mappings.PathContext{Cwd: p.Cwd, Exists: tr.exists}, fs) {
			fs.add(mappings.Approximate, "input rewrite", "%s; the likeliest path is used", u)
		}
	}
	if why := lineBreakArg(hookInput, hookTool, hostTool); why != "" {
		// Written into one line of the host's call (a patch's header),
		// the rest would be other lines: operations the hook never gave.
		return nil, fmt.Errorf("the rewrite %s, which %s's %s writes in one line of its text", why, tr.To.Agent, p.ToolName)
	}
	converted := convertInput(hookInput, hookTool, hostTool, forHost, fs)
	out := make(map[string]any, len(p.ToolInput)+len(converted))
	// Host fields the hook's dialect cannot express keep their original value.
	for k, v := range p.ToolInput {
		canon, known := hostTool.Fields[k]
		if !known {
			if !slices.Contains(converter(hostTool).Args, k) {
				out[k] = v // a host argument the table does not list: host-only
			}
			continue
		}
		if _, ok := hookTool.ArgFor(canon); !ok && !slices.Contains(converter(hookTool).Canonical, canon) {
			out[k] = v
		}
	}
	convArgs := converter(hostTool).Args
	for _, k := range slices.Sorted(maps.Keys(converted)) { // findings in a stable order
		v := converted[k]
		if _, known := hostTool.Fields[k]; !known && len(hostTool.Fields) > 0 && !slices.Contains(convArgs, k) {
			if hv, ok := hookInput[k]; ok && !reflect.DeepEqual(hv, shown[k]) && !slices.Contains(hookTool.Descriptive, hookArg(hookTool, k)) {
				// The hook set this argument: running the call without it
				// would run what the hook did not ask for.
				return nil, fmt.Errorf("%s has no argument for the rewritten %s", p.ToolName, k)
			}
			fs.add(mappings.None, "tool_input."+k, "%s has no such argument; dropped from the rewrite", p.ToolName)
			continue
		}
		out[k] = v
	}
	for _, req := range hostTool.Required {
		if _, ok := out[req]; !ok {
			if v, ok := p.ToolInput[req]; ok {
				out[req] = v
			} else if v, ok := hostTool.Defaults[req]; ok {
				out[req] = v
			} else {
				fs.add(mappings.None, "tool_input."+req, "required by %s and missing from the rewrite; %s will reject the call", p.ToolName, tr.To.Agent)
			}
		}
	}
	return out, nil
}

// hostCall is the tool call in the host's payload.
type hostCall struct {
	Cwd, ToolName string
	ToolInput     map[string]any
}

// readHostCall reads the host's tool call as Event does: at any depth, as
// the agents' JSON.parse reads it (a model chooses the tool's input).
func readHostCall(payload []byte) (hostCall, error) {
	_, raw, err := mappings.SplitObject(payload)
	if err != nil {
		var m map[string]json.RawMessage
		if json.Unmarshal(payload, &m) != nil {
			return hostCall{}, err
		}
		raw = m // a duplicate key, which encoding/json reads: the last counts
	}
	var c hostCall
	_ = json.Unmarshal(raw["cwd"], &c.Cwd)
	_ = json.Unmarshal(raw["tool_name"], &c.ToolName)
	if in, ok := raw["tool_input"]; ok {
		v, _, err := mappings.DecodeJSON(in)
		if err != nil {
			return hostCall{}, err
		}
		c.ToolInput, _ = v.(map[string]any)
	}
	return c, nil
}

// converter is a tool's input converter, or an empty one.
func converter(t *mappings.Tool) *mappings.InputConverter {
	if c := mappings.InputConverterByName(t.Convert); c != nil {
		return c
	}
	return &mappings.InputConverter{}
}

// hookArg is the hook tool's own name for an argument that convertInput
// kept under its canonical or source name (it has no counterpart).
func hookArg(t *mappings.Tool, k string) string {
	if arg, ok := t.ArgFor(k); ok {
		return arg
	}
	return k
}

// unreadableRewrite blocks when a tool-input rewrite cannot be carried:
// running the original input would grant what the hook took away.
func unreadableRewrite(v *Verdict, err error, fs *findings) {
	if !v.Block {
		v.Block, v.Reason = true, "hookx cannot carry this hook's tool input rewrite: "+err.Error()
	}
	fs.add(mappings.None, "input rewrite", "%v; blocked rather than running the original input", err)
}
