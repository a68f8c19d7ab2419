package translate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

// EventResult is a payload translated into the target dialect.
type EventResult struct {
	Payload   []byte // the translated payload; nil when Skip
	Event     string // the target event name
	Canonical string
	// Tool is the target's tool_name, for tool events.
	Tool string
	// Skip is set when the target dialect has no such event, or no such
	// value of the field its matcher reads, or its matcher (Translator.Match)
	// names no tool that stands for the host's: a hook of that dialect would
	// never have run.
	Skip       bool
	SkipReason string
	Findings   []Finding
}

// bigFields are passed through as raw JSON unless a converter needs them.
const responseField = "tool_response"

// Event translates a hook payload (a hook's stdin) from tr.From into tr.To.
// Fields the target does not know are kept; fields the target's hooks expect
// are derived where they can be. It returns an error naming the problem when
// the payload is not a JSON object or its event is unknown.
func (tr *Translator) Event(payload []byte) (*EventResult, error) {
	if tr.From.Payload.Own() {
		name, err := HostEvent(tr.From, payload, tr.HostEvent)
		if err != nil {
			return nil, err
		}
		if payload, err = inbound(tr.From, payload, name); err != nil {
			return nil, err
		}
	}
	order, raw, err := mappings.SplitObject(payload)
	if err != nil {
		return nil, fmt.Errorf("event payload: %w", describeJSONError(payload, err))
	}
	var name string
	if err := json.Unmarshal(raw["hook_event_name"], &name); err != nil || name == "" {
		return nil, fmt.Errorf("event payload: hook_event_name missing or not a string")
	}
	src := tr.From.Event(name)
	if src == nil {
		return nil, fmt.Errorf("event payload: unknown %s event %q%s", tr.From.Agent, name, tr.Table.EventHint(tr.From, name))
	}

	if src.Mark == mappings.None {
		// The host's event stands for nothing of another agent's
		// (TerminaI's AfterAgent is not the end of a turn): no hook of
		// another agent runs on it.
		return &EventResult{Canonical: src.Canonical, Skip: true,
			SkipReason: fmt.Sprintf("%s's %s stands for no %s event: %s", tr.From.Agent, name, tr.To.Agent, src.Note)}, nil
	}

	var fs findings
	canonical := src.Canonical
	var srcTool *mappings.Tool
	var srcResp *mappings.ResponseConverter
	toolName := stringField(raw, "tool_name")
	if toolName != "" {
		srcTool = tr.From.Tool(toolName)
		srcResp = tr.responseConverter(tr.From, srcTool)
	}
	// The tool's result, read once: the router needs it, and so does the
	// conversion below.
	var result mappings.ToolResult
	hasResult := false
	if srcResp != nil && (raw[responseField] != nil || raw["error"] != nil) {
		errText := stringField(raw, "error")
		r, err := srcResp.ToCanonical(raw[responseField], errText)
		if err != nil {
			return nil, fmt.Errorf("event payload: %w", err)
		}
		if errText != "" && r.Error == "" {
			// A failure event's error, where the agent's result converter
			// reads only tool_response (Qwen Code's PostToolUseFailure
			// {error} beside Gemini-shaped results).
			r.Failed, r.Error = true, errText
			r.Output = cmp.Or(r.Output, errText)
		}
		result, hasResult = r, true
	}
	if src.Route != "" {
		canonical = mappings.RouterByName(src.Route)(result)
	}
	dst, reason := tr.To.EventFor(canonical)
	res := &EventResult{Canonical: canonical}
	if dst == nil {
		res.Skip, res.SkipReason = true, fmt.Sprintf("%s has no %s event: %s", tr.To.Agent, name, reason)
		return res, nil
	}
	res.Event = dst.Name
	if m, _ := tr.Table.MapEvent(tr.From, tr.To, name); m.Mark == mappings.Approximate {
		// Findings speak for the host (tr.From): a note of the hook's own
		// event describes the hook's agent, and says so.
		note := m.Note
		if hn := m.To.Note; hn != "" && hn != m.From.Note {
			note = strings.Replace(note, hn, "in "+tr.To.Agent+", "+hn, 1)
		}
		fs.add(mappings.Approximate, "event "+name+" → "+dst.Name, "%s", note)
	}

	// Everything but tool_response is small: decode it to work on.
	p := make(map[string]any, len(raw)+2)
	deep := false                                     // a field nested past encoding/json's limit
	for _, k := range slices.Sorted(maps.Keys(raw)) { // the first bad field, always the same
		v := raw[k]
		if k == responseField {
			continue
		}
		// At any depth, as the agents' JSON.parse reads it: a model
		// chooses tool_input.
		x, isDeep, err := mappings.DecodeJSON(v)
		if err != nil {
			return nil, fmt.Errorf("event payload: %s: %w", k, err)
		}
		deep = deep || isDeep
		p[k] = x
	}
	p["hook_event_name"] = dst.Name
	// Fields that mean nothing to the target's hooks (T§3.1).
	for _, k := range slices.Concat(tr.From.Private, src.Private) {
		delete(p, k)
	}

	// Enumerated values first: a value the target lacks on its matcher field
	// means the hook would never have fired.
	for _, field := range slices.Sorted(maps.Keys(src.Values)) {
		vals := src.Values[field]
		v, ok := p[field].(string)
		if !ok || vals == nil {
			continue
		}
		vm := tr.Table.MapValue(src, dst, field, v, false)
		if vm.Mark == mappings.None {
			if field == dst.MatcherField || field == src.MatcherField {
				res.Skip = true
				res.SkipReason = fmt.Sprintf("%s %s %q has no %s counterpart", name, field, v, tr.To.Agent)
				return res, nil
			}
			fs.add(mappings.None, field, "%s", vm.Note)
			continue
		}
		if vm.Mark == mappings.Approximate {
			fs.add(mappings.Approximate, fmt.Sprintf("%s %q → %q", field, v, vm.Value), "%s", vm.Note)
		}
		p[field] = vm.Value
	}

	// Field renames and converters, through the canonical form.
	renameKeys(p, order, src.Fields)
	if c := mappings.EventConverterByName(src.Convert); c != nil {
		c.ToCanonical(p)
	}
	if c := mappings.EventConverterByName(dst.Convert); c != nil {
		c.FromCanonical(p)
	}
	renameKeys(p, order, invert(dst.Fields))
	for k, v := range dst.Defaults {
		if _, ok := p[k]; !ok {
			p[k] = v
		}
	}

	// Tool events.
	var respOut any
	hasResp := false
	var mcpServer, mcpTool string
	if toolName != "" {
		tm, fits, err := tr.mapToolName(raw, toolName)
		if errors.Is(err, mappings.ErrMatcher) {
			// Whether the hook's own agent would run it is unknown: fail
			// closed (a guard's block), never skip the hook silently.
			return nil, fmt.Errorf("cannot tell whether %s would run the hook for %s: %w", tr.To.Agent, toolName, err)
		}
		if src.Output.Guard || dst.Output.Guard {
			// A tool that runs commands or changes files with no
			// counterpart in the hook's agent: the guard of that kind of
			// action would be shown a tool it does not know, or nothing.
			acts, err := tr.Table.Unjudged(tr.From, tr.To, toolName, tr.Match)
			if err != nil {
				return nil, fmt.Errorf("cannot tell whether %s would run the hook for %s: %w", tr.To.Agent, toolName, err)
			}
			input, _ := p["tool_input"].(map[string]any)
			if len(acts) > 0 && srcTool.Acting(input) {
				return nil, fmt.Errorf("%s tool %s %s and has no %s counterpart; the guard cannot judge it", tr.From.Agent, toolName, strings.Join(acts, " and "), tr.To.Agent)
			}
		}
		if !fits && dst.Matcher == "tool" {
			res.Skip = true
			res.SkipReason = fmt.Sprintf("the hook's matcher %q names no %s tool that stands for %s %s", tr.Match, tr.To.Agent, tr.From.Agent, toolName)
			return res, nil
		}
		res.Tool = toolName
		if err != nil {
			fs.add(mappings.None, "tool "+toolName, "%v; passed on unchanged", err)
		} else if tm.Mark == mappings.None {
			fs.add(mappings.None, "tool "+toolName, "%s; passed on unchanged", tm.Note)
		} else {
			p["tool_name"] = tm.Name
			res.Tool = tm.Name
			if tm.Mark == mappings.Approximate {
				fs.add(mappings.Approximate, "tool "+toolName+" → "+tm.Name, "%s", tm.Note)
			}
			mcpServer, mcpTool = tm.mcpServer, tm.mcpTool
		}
		dstTool := tm.To
		if input, ok := p["tool_input"].(map[string]any); ok && srcTool != nil && srcTool.ArgsUnverified && (src.Output.Guard || dst.Output.Guard) {
			if why := unverifiedArgs(input, srcTool); why != "" {
				// The table guessed this tool's arguments: the hook would
				// check something other than what the tool uses.
				return nil, fmt.Errorf("%s's %s %s, and its arguments were not read in %s's source, so a %s guard cannot check the call", tr.From.Agent, toolName, why, tr.From.Agent, tr.To.Agent)
			}
		}
		// The host resolves its tool's paths against its own cwd, not the
		// one carryCwd gives the hook (a workdir "sub" is /p/sub, not
		// /p/sub/sub).
		hostCwd, _ := p["cwd"].(string)
		if input, ok := p["tool_input"].(map[string]any); ok && srcTool != nil && dstTool != nil {
			if err := tr.carryCwd(p, input, srcTool, dstTool, src.Output.Guard || dst.Output.Guard, &fs); err != nil {
				return nil, err
			}
			if why := uncarriedTouch(input, srcTool, dstTool); why != "" && (src.Output.Guard || dst.Output.Guard) {
				return nil, fmt.Errorf("%s's %s %s, so a %s guard, which would check less than the tool touches, cannot check the call", tr.From.Agent, toolName, why, tr.To.Agent)
			}
		}
		if input, ok := p["tool_input"].(map[string]any); ok && srcTool != nil {
			if !tr.To.AbsolutePaths && (src.Output.Guard || dst.Output.Guard) {
				// The hook gets the path as the host's model wrote it, and
				// its own agent would take it as a plain path.resolve
				// does; where the host's tool writes another file (Gemini
				// CLI decodes %2e, drops a leading @ and NUL bytes), the
				// guard would check the wrong one.
				if why := pathReadOtherwise(input, srcTool, mappings.PathContext{Cwd: hostCwd, Exists: tr.exists}); why != "" {
					return nil, fmt.Errorf("%s's %s %s, so a %s guard, which would take it as written, cannot check the call", tr.From.Agent, toolName, why, tr.To.Agent)
				}
			}
			if tr.To.AbsolutePaths && len(srcTool.Paths) > 0 {
				// The hook's own agent would give it absolute paths: give
				// it the ones the host's tool will use.
				input = maps.Clone(input)
				uncertain := resolvePaths(input, srcTool, mappings.PathContext{Cwd: hostCwd, Exists: tr.exists}, &fs)
				if len(uncertain) > 0 && (src.Output.Guard || dst.Output.Guard) {
					// The hook would check a path the tool may not use: a
					// guard fails closed rather than be weakened.
					return nil, fmt.Errorf("cannot tell which path %s's %s will use (%s), so a %s guard cannot check it", tr.From.Agent, toolName, strings.Join(uncertain, "; "), tr.To.Agent)
				}
				for _, u := range uncertain {
					fs.add(mappings.None, "tool_input", "%s; the hook sees the likeliest path", u)
				}
				p["tool_input"] = input
			}
			if c := mappings.InputConverterByName(srcTool.Convert); c != nil && c.Uncarried != nil && dstTool != nil {
				if why := c.Uncarried(input); why != "" {
					if src.Output.Guard || dst.Output.Guard {
						// The hook would check something other than what
						// the tool does: a guard fails closed.
						return nil, fmt.Errorf("%s's %s call cannot be shown to the hook as one %s call (%s), so a %s guard cannot check it", tr.From.Agent, toolName, dstTool.Name, why, tr.To.Agent)
					}
					fs.add(mappings.None, "tool_input", "%s; the hook sees part of the call", why)
				}
			}
			if why := lineBreakArg(input, srcTool, dstTool); why != "" && (src.Output.Guard || dst.Output.Guard) {
				// Written into a line of the hook's call (a patch's
				// header), the rest would read as other lines: a Codex
				// guard saw "*** Add File: ok" for ok\n+x/../.env, which
				// Gemini writes as .env.
				return nil, fmt.Errorf("%s's %s %s, which %s's %s writes in one line of its text, so a %s guard cannot check the call", tr.From.Agent, toolName, why, tr.To.Agent, dstTool.Name, tr.To.Agent)
			}
			if dstTool != nil {
				p["tool_input"] = convertInput(input, srcTool, dstTool, forHook, &fs)
			}
		}
		if hasResult && (canonical == "tool.after" || canonical == "tool.failed") {
			r := result
			if canonical == "tool.failed" {
				r.Failed = true
			}
			r.Cwd, _ = p["cwd"].(string)
			input, _ := p["tool_input"].(map[string]any)
			resp, dstErr := tr.responseConverter(tr.To, dstTool).FromCanonical(r, input)
			if canonical == "tool.failed" && tr.To.Protocol == "claude" && resp != nil {
				// A Claude-protocol failure event carries the error, never a
				// tool_response, also where the agent's results are
				// Gemini's (Qwen Code: PostToolUseFailure {error,
				// is_interrupt}, testdata/payloads/qwen-0.24.4).
				resp = nil
				if dstErr == "" {
					dstErr = cmp.Or(r.Error, r.Output, "the tool failed")
				}
			}
			// Every reshaping is approximate (T§8): the two agents' result
			// objects carry different details.
			if dstTool == nil || srcTool == nil || srcTool.Response == "" || dstTool.Response == "" {
				fs.add(mappings.Approximate, "tool_response", "no per-tool shape for %s; carried as text", toolName)
			} else {
				fs.add(mappings.Approximate, "tool_response", "reshaped from %s's %s result", tr.From.Agent, toolName)
			}
			delete(p, "error")
			delete(p, "is_interrupt")
			if resp != nil {
				respOut, hasResp = resp, true
			}
			if dstErr != "" {
				p["error"] = dstErr
				p["is_interrupt"] = false
			}
		}
	} else if raw[responseField] != nil {
		respOut, hasResp = raw[responseField], true
	}

	// Fields the target's hooks expect that the source does not send.
	ctx := mappings.DeriveContext{Canonical: canonical, MCPServer: mcpServer, MCPTool: mcpTool, Now: tr.now,
		Field:  func(name string) []byte { b, _ := json.Marshal(p[name]); return b },
		Source: func(name string) []byte { return raw[name] }}
	derived := slices.Sorted(maps.Keys(tr.To.Derive))
	for _, field := range derived {
		if _, ok := p[field]; ok {
			continue
		}
		if v, ok := mappings.DeriverByName(tr.To.Derive[field])(ctx); ok {
			p[field] = v
		}
	}

	out, err := marshalPayload(order, p, respOut, hasResp, len(payload), deep)
	if err != nil {
		return nil, err
	}
	if out, err = outbound(tr.To, out); err != nil {
		return nil, err
	}
	res.Payload = out
	res.Findings = fs
	return res, nil
}

type toolMapping struct {
	mappings.ToolMapping
	mcpServer, mcpTool string
}

// mapToolName maps tool_name, using Gemini's mcp_context to split MCP names
// exactly when it is there (T§7), to the tool tr.Match names (see
// mappings.Table.HookTool). fits is false when the hook's matcher names no
// tool that stands for it.
func (tr *Translator) mapToolName(raw map[string]json.RawMessage, name string) (m toolMapping, fits bool, err error) {
	var ctx struct {
		Server string `json:"server_name"`
		Tool   string `json:"tool_name"`
	}
	if c := raw["mcp_context"]; c != nil && json.Unmarshal(c, &ctx) == nil && ctx.Server != "" && ctx.Tool != "" {
		n, exact := tr.To.MCPName(ctx.Server, ctx.Tool)
		m = toolMapping{ToolMapping: mappings.ToolMapping{Name: n, Mark: mappings.Exact}, mcpServer: ctx.Server, mcpTool: ctx.Tool}
		if !exact {
			m.Mark, m.Note = mappings.Approximate, tr.To.MCPNote()
		}
		if tr.To.MCP.Bare != nil {
			// Of the names the hook's agent may give it, the one its
			// matcher names.
			for _, alt := range tr.To.MCPNames(ctx.Server, ctx.Tool) {
				if ok, err := tr.Match.Match(alt); err != nil || ok {
					m.Name = alt
					return m, ok, err
				}
			}
		}
		fits, err := tr.Match.Match(n)
		return m, fits, err
	}
	tm, fits, err := tr.Table.HookTool(tr.From, tr.To, name, tr.Match)
	if err != nil {
		return toolMapping{}, fits, err
	}
	m = toolMapping{ToolMapping: tm}
	if server, tool, ok := tr.From.SplitMCP(name, nil); ok {
		m.mcpServer, m.mcpTool = server, tool
		// Where the name splits in several ways, the split the hook is
		// presented (HookTool: the one its matcher names).
		for _, sp := range tr.From.MCPSplits(name) {
			if slices.Contains(tr.To.MCPNames(sp[0], sp[1]), m.Name) {
				m.mcpServer, m.mcpTool = sp[0], sp[1]
				break
			}
		}
	}
	return m, fits, nil
}

// exists reports whether a path exists, on the Translator's Exists or on disk.
func (tr *Translator) exists(path string) bool {
	if tr.Exists != nil {
		return tr.Exists(path)
	}
	_, err := os.Stat(path)
	return err == nil
}

func (tr *Translator) responseConverter(d *mappings.Dialect, t *mappings.Tool) *mappings.ResponseConverter {
	if t != nil && t.Response != "" {
		return mappings.ResponseConverterByName(t.Response)
	}
	return mappings.ResponseConverterByName(d.DefaultResponse)
}

// inputMode says what a converted tool input is for.
type inputMode int

const (
	// forHook builds a hook's stdin: the hook sees only the arguments its
	// own agent's tool has and would send, with the values the host's tool
	// will use (T§6.2).
	forHook inputMode = iota
	// forHost builds a rewrite for the host: arguments without a
	// counterpart stay under their own name for rebuildInput to judge.
	forHost
)

// convertInput converts tool arguments from src's names to dst's, through the
// canonical names. It never depends on map order: each target argument has
// at most one source (the table forbids two arguments on one canonical
// name), and an argument the source tool does not have (a stray, which
// Gemini ignores and Claude rejects) never takes the place of one it has.
//
// For a hook (forHook), every argument without a counterpart in dst is
// dropped with a finding, and dst's required placeholders are supplied.
func convertInput(in map[string]any, src, dst *mappings.Tool, mode inputMode, fs *findings) map[string]any {
	srcConv, dstConv := converter(src), converter(dst)
	// The source tool's own arguments; strays are set aside first, so that
	// no converter or rename can confuse them with real ones.
	a := make(map[string]any, len(in))
	var strays []string
	for k, v := range in {
		if _, known := src.Fields[k]; known || slices.Contains(srcConv.Args, k) {
			a[k] = v
		} else {
			strays = append(strays, k)
		}
	}
	slices.Sort(strays)
	for _, n := range runConv(srcConv.ToCanonical, a) {
		fs.add(mappings.Approximate, "tool_input", "%s", n)
	}
	out := make(map[string]any, len(a))
	for k, v := range a {
		if canon, known := src.Fields[k]; known {
			out[canon] = v
		} else {
			// A converter's output, already canonical, or a converter
			// argument it could not convert (MultiEdit's several edits),
			// which has no counterpart below.
			out[k] = v
		}
	}
	for _, n := range runConv(dstConv.FromCanonical, out) {
		fs.add(mappings.Approximate, "tool_input", "%s", n)
	}
	srcArg := invert(src.Fields)
	final := make(map[string]any, len(out))
	var orphans []string
	for canon, v := range out {
		if arg, ok := dst.ArgFor(canon); ok {
			final[arg] = v
		} else if slices.Contains(dstConv.Args, canon) {
			final[canon] = v // a converter's output, already dst's
		} else {
			orphans = append(orphans, canon)
		}
	}
	slices.Sort(orphans)
	for _, canon := range orphans {
		name := canon
		if orig, ok := srcArg[canon]; ok {
			name = orig
		}
		if _, taken := final[name]; mode == forHook || taken {
			// The argument that names the directory the tool runs in is
			// carried as the hook's cwd (carryCwd says so, or why not).
			if mode != forHook || name != src.Cwd {
				fs.add(mappings.None, "tool_input."+name, "%s has no such argument; not passed on", dst.Name)
			}
			continue
		}
		final[name] = out[canon]
	}
	for _, k := range strays {
		_, taken := final[k]
		_, dstArg := dst.Fields[k]
		if taken || dstArg || slices.Contains(dstConv.Args, k) {
			fs.add(mappings.None, "tool_input."+k, "not a %s argument, so the tool does not use it; dropped, so the hook sees the value the tool uses", src.Name)
			continue
		}
		if mode == forHook {
			fs.add(mappings.None, "tool_input."+k, "%s has no such argument; not passed on", dst.Name)
			continue
		}
		final[k] = in[k]
	}
	if mode == forHook {
		for _, k := range slices.Sorted(maps.Keys(dst.Defaults)) {
			if _, ok := final[k]; !ok {
				final[k] = dst.Defaults[k]
				fs.add(mappings.Approximate, "tool_input."+k, "%s has no such argument; a placeholder was supplied", src.Name)
			}
		}
	}
	return final
}

// unverifiedArgs says how a call's arguments differ from what the table
// lists for a tool whose arguments it guessed (ArgsUnverified), or "".
func unverifiedArgs(input map[string]any, t *mappings.Tool) string {
	conv := converter(t)
	var unknown, missing []string
	for k := range input {
		if _, ok := t.Fields[k]; !ok && !slices.Contains(conv.Args, k) {
			unknown = append(unknown, k)
		}
	}
	for _, k := range t.Required {
		if _, ok := input[k]; !ok {
			missing = append(missing, k)
		}
	}
	slices.Sort(unknown)
	switch {
	case len(unknown) > 0:
		return "has an argument the table does not know (" + strings.Join(unknown, ", ") + ")"
	case len(missing) > 0:
		return "lacks the argument the table expects (" + strings.Join(missing, ", ") + ")"
	}
	return ""
}

// carryCwd gives the hook, as its event's cwd, the directory the host's
// tool runs in when the call names one (the tool's "cwd" argument) and the
// hook's own tool has no argument to carry it: its own agent would have run
// the command there and said so in cwd. Where that directory cannot be
// known, a guard fails closed.
func (tr *Translator) carryCwd(p, input map[string]any, srcTool, dstTool *mappings.Tool, guard bool, fs *findings) error {
	dir, ok := input[srcTool.Cwd].(string)
	if srcTool.Cwd == "" || !ok || dir == "" {
		return nil // the host runs the tool in its own cwd
	}
	if _, carried := dstTool.ArgFor(srcTool.Fields[srcTool.Cwd]); carried {
		return nil // the hook sees the argument itself, as its agent sends it
	}
	cwd, _ := p["cwd"].(string)
	resolved, why := mappings.PathResolverByName(srcTool.Paths[srcTool.Cwd])(dir, mappings.PathContext{Cwd: cwd, Exists: tr.exists})
	if why != "" {
		if guard {
			return fmt.Errorf("%s runs %s in %s %q, and which directory that is cannot be known (%s), so a %s guard, which would see it as its cwd, cannot check the call", tr.From.Agent, srcTool.Name, srcTool.Cwd, dir, why, tr.To.Agent)
		}
		fs.add(mappings.None, "cwd", "%s runs %s in %s %q (%s); the hook's cwd stays %s", tr.From.Agent, srcTool.Name, srcTool.Cwd, dir, why, cwd)
		return nil
	}
	if resolved != cwd {
		p["cwd"] = resolved
		fs.add(mappings.Approximate, "cwd", "%s runs %s in %s (%s %q): the hook gets that as its cwd, as %s would send it", tr.From.Agent, srcTool.Name, resolved, srcTool.Cwd, dir, dstTool.Name)
	}
	return nil
}

// pathReadOtherwise says which path argument of the call the host's tool
// resolves to another path than a plain path.resolve against the event's
// cwd gives, or "". Arguments a converter reads (a patch) and paths the
// resolver cannot know are left to the converter and to the hook.
func pathReadOtherwise(input map[string]any, tool *mappings.Tool, pc mappings.PathContext) string {
	for _, arg := range slices.Sorted(maps.Keys(tool.Paths)) {
		p, ok := input[arg].(string)
		if !ok || p == "" || slices.Contains(converter(tool).Args, arg) {
			continue
		}
		resolved, why := mappings.PathResolverByName(tool.Paths[arg])(p, pc)
		plain := filepath.Clean(p)
		if !filepath.IsAbs(p) {
			if !filepath.IsAbs(pc.Cwd) {
				continue
			}
			plain = filepath.Join(pc.Cwd, p)
		}
		if why == "" && resolved != plain {
			return fmt.Sprintf("takes %s %q as %s, not %s", arg, p, resolved, plain)
		}
	}
	return ""
}

// lineBreakArg says which argument of the call, one that dst's converter
// writes into one line of its text (LineArgs), holds a line break, or "".
func lineBreakArg(input map[string]any, src, dst *mappings.Tool) string {
	if dst == nil {
		return ""
	}
	lineArgs := converter(dst).LineArgs
	for _, arg := range slices.Sorted(maps.Keys(input)) {
		s, ok := input[arg].(string)
		if ok && slices.Contains(lineArgs, src.Fields[arg]) && strings.Contains(s, "\n") {
			return fmt.Sprintf("has %s %q, with a line break", arg, s)
		}
	}
	return ""
}

// uncarriedTouch says which argument of the call, one the table marks
// failClosed, changes what the tool touches and cannot reach the hook, or "".
func uncarriedTouch(input map[string]any, src, dst *mappings.Tool) string {
	for _, arg := range slices.Sorted(maps.Keys(src.FailClosed)) {
		v, ok := input[arg]
		if !ok || v == nil || v == "" {
			continue
		}
		if l, isList := v.([]any); isList && len(l) == 0 {
			continue
		}
		if _, carried := dst.ArgFor(src.Fields[arg]); carried {
			continue
		}
		return fmt.Sprintf("has %s (%s)", arg, src.FailClosed[arg])
	}
	return ""
}

// resolvePaths resolves a tool's path arguments, in place, the way its
// agent's tool does (the tool's "paths"). It returns why a path could not
// be resolved exactly, if one could not.
func resolvePaths(input map[string]any, tool *mappings.Tool, pc mappings.PathContext, fs *findings) []string {
	var uncertain []string
	resolve := func(arg, p string) string {
		resolved, why := mappings.PathResolverByName(tool.Paths[arg])(p, pc)
		if why != "" {
			uncertain = append(uncertain, fmt.Sprintf("%s %q: %s", arg, p, why))
		}
		if resolved != p {
			fs.add(mappings.Approximate, "tool_input."+arg, "%q resolved to %q, as %s resolves it", p, resolved, tool.Name)
		}
		return resolved
	}
	for _, arg := range slices.Sorted(maps.Keys(tool.Paths)) {
		switch v := input[arg].(type) {
		case string:
			input[arg] = resolve(arg, v)
		case []any:
			// A list of paths, or of objects each with its path (Cline's
			// read_files files[]): each one is resolved, in a copy.
			list := slices.Clone(v)
			for i, e := range list {
				switch e := e.(type) {
				case string:
					list[i] = resolve(arg, e)
				case map[string]any:
					if p, ok := e["path"].(string); ok {
						obj := maps.Clone(e)
						obj["path"] = resolve(arg, p)
						list[i] = obj
					}
				}
			}
			input[arg] = list
		}
	}
	return uncertain
}

func runConv(f func(map[string]any) []string, a map[string]any) []string {
	if f == nil {
		return nil
	}
	return f(a)
}

// renameKeys renames keys of p, keeping each renamed key's place in order.
func renameKeys(p map[string]any, order []string, renames map[string]string) {
	if len(renames) == 0 {
		return
	}
	moved := map[string]any{}
	for from, to := range renames {
		if v, ok := p[from]; ok && from != to {
			delete(p, from)
			moved[to] = v
			if i := slices.Index(order, from); i >= 0 {
				order[i] = to
			}
		}
	}
	maps.Copy(p, moved)
}

func invert(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

func stringField(raw map[string]json.RawMessage, key string) string {
	var s string
	if v, ok := raw[key]; ok {
		_ = json.Unmarshal(v, &s)
	}
	return s
}

// marshalPayload writes p as compact JSON in the source's key order, with
// new keys after hook_event_name (where Gemini puts its timestamp) or at the
// end, and tool_response (raw or converted) last, as both agents send it.
func marshalPayload(order []string, p map[string]any, resp any, hasResp bool, sizeHint int, deep bool) ([]byte, error) {
	var added []string
	for k := range p {
		if !slices.Contains(order, k) {
			added = append(added, k)
		}
	}
	slices.Sort(added)
	keys := make([]string, 0, len(p))
	for _, k := range order {
		if _, ok := p[k]; !ok {
			continue
		}
		keys = append(keys, k)
		if k == "hook_event_name" && slices.Contains(added, "timestamp") {
			keys = append(keys, "timestamp")
			added = slices.DeleteFunc(added, func(s string) bool { return s == "timestamp" })
		}
	}
	keys = append(keys, added...)

	var b bytes.Buffer
	b.Grow(sizeHint + 512)
	b.WriteByte('{')
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	write := func(k string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		if r, ok := v.(json.RawMessage); ok {
			b.Write(r)
			return nil
		}
		if deep {
			// Holds mappings.Deep values, which encoding/json would
			// refuse as too deep.
			out, err := mappings.AppendJSON(b.AvailableBuffer(), v)
			if err != nil {
				return fmt.Errorf("encoding %s: %w", k, err)
			}
			b.Write(out)
			return nil
		}
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("encoding %s: %w", k, err)
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		return nil
	}
	for _, k := range keys {
		if err := write(k, p[k]); err != nil {
			return nil, err
		}
	}
	if hasResp {
		if err := write(responseField, resp); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// describeJSONError adds the line and column of a syntax error.
func describeJSONError(data []byte, err error) error {
	var oe *mappings.OffsetError
	if errors.As(err, &oe) {
		line, col := lineCol(data, oe.Offset)
		return fmt.Errorf("line %d, column %d: %s", line, col, oe.Msg)
	}
	return err
}

func lineCol(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}
