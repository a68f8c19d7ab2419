package translate

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// codexReads is what Codex CLI 0.169.0 does with a hook's exit-0 stdout on
// event, as seen live (mappings/codex-notes.md CX§4): blocks and its reason,
// or failed when it fails the hook (the action then runs, as with no
// answer). It is the oracle for what hookx renders for a Codex host.
func codexReads(t *testing.T, ev *mappings.Event, stdout string) (blocks bool, reason string, failed string) {
	t.Helper()
	text := strings.TrimSpace(stdout)
	if text == "" {
		return false, "", ""
	}
	if !strings.HasPrefix(text, "{") {
		return false, "", "" // plain text: ignored, or context
	}
	var o map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &o); err != nil {
		return false, "", "invalid JSON"
	}
	str := func(m map[string]json.RawMessage, k string) (string, bool) {
		raw, ok := m[k]
		if !ok {
			return "", false
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			t.Fatalf("%s: %s is not a string", ev.Name, k)
		}
		return s, true
	}
	for k := range o {
		if !ev.Output.Accepts(k) && k != "hookSpecificOutput" {
			return false, "", "unknown key " + k
		}
	}
	if string(o["continue"]) == "false" && ev.Name == "PreToolUse" {
		return false, "", "continue:false"
	}
	decision, hasDecision := str(o, "decision")
	r, hasReason := str(o, "reason")
	if hasReason && !hasDecision {
		return false, "", "reason without decision"
	}
	if hasDecision {
		if decision != "block" {
			return false, "", "decision " + decision
		}
		if strings.TrimSpace(r) == "" {
			return false, "", "block without a reason"
		}
	}
	if raw, ok := o["hookSpecificOutput"]; ok {
		var hs map[string]json.RawMessage
		if err := json.Unmarshal(raw, &hs); err != nil {
			return false, "", "hookSpecificOutput not an object"
		}
		if _, ok := hs["hookEventName"]; !ok {
			return false, "", "no hookEventName"
		}
		for k := range hs {
			if !ev.Output.Accepts("hookSpecificOutput." + k) {
				return false, "", "unknown key hookSpecificOutput." + k
			}
		}
		if raw, ok := hs["decision"]; ok {
			var d struct {
				Behavior string `json:"behavior"`
				Message  string `json:"message"`
			}
			if err := json.Unmarshal(raw, &d); err != nil || (d.Behavior != "allow" && d.Behavior != "deny") {
				return false, "", "decision not {behavior}"
			}
			if d.Behavior == "deny" {
				return true, strings.TrimSpace(d.Message), ""
			}
		}
		pd, hasPD := str(hs, "permissionDecision")
		pdr, hasPDR := str(hs, "permissionDecisionReason")
		_, hasInput := hs["updatedInput"]
		switch {
		case hasPDR && !hasPD:
			return false, "", "permissionDecisionReason without permissionDecision"
		case hasInput && pd != "allow":
			return false, "", "updatedInput without allow"
		case pd == "allow" && !hasInput:
			return false, "", "allow without updatedInput"
		case pd == "ask":
			return false, "", "ask"
		case pd == "deny" && strings.TrimSpace(pdr) == "":
			return false, "", "deny without a reason"
		case pd == "deny":
			return true, strings.TrimSpace(pdr), ""
		}
	}
	if decision == "block" {
		return true, strings.TrimSpace(r), ""
	}
	return false, "", ""
}

// hookAnswers are answers a hook of each dialect gives, by what they mean.
var hookAnswers = map[string][]struct {
	name, stdout, stderr string
	exit                 int
}{
	"claude": {
		{name: "permissionDecision deny", stdout: `{"hookSpecificOutput":{"hookEventName":"%E","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}`},
		{name: "decision block", stdout: `{"decision":"block","reason":"no rm -rf"}`},
		{name: "block, blank reason", stdout: `{"decision":"block","reason":"  "}`},
		{name: "exit 2", exit: 2, stderr: "no rm -rf\n"},
		{name: "exit 2, no stderr", exit: 2},
		{name: "ask", stdout: `{"hookSpecificOutput":{"hookEventName":"%E","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`},
		{name: "defer", stdout: `{"hookSpecificOutput":{"hookEventName":"%E","permissionDecision":"defer"}}`},
		{name: "allow", stdout: `{"hookSpecificOutput":{"hookEventName":"%E","permissionDecision":"allow"}}`},
		{name: "approve", stdout: `{"decision":"approve"}`},
		{name: "continue false", stdout: `{"continue":false,"stopReason":"halt"}`},
		{name: "suppressOutput", stdout: `{"suppressOutput":true}`},
		{name: "context", stdout: `{"hookSpecificOutput":{"hookEventName":"%E","additionalContext":"ctx"}}`},
		{name: "systemMessage", stdout: `{"systemMessage":"note"}`},
		{name: "rewrite", stdout: `{"hookSpecificOutput":{"hookEventName":"%E","updatedInput":{"command":"echo safe"}}}`},
		{name: "allow and rewrite", stdout: `{"hookSpecificOutput":{"hookEventName":"%E","permissionDecision":"allow","updatedInput":{"command":"echo safe"}}}`},
		{name: "replace output", stdout: `{"hookSpecificOutput":{"hookEventName":"%E","updatedToolOutput":{"stdout":"x","stderr":"","interrupted":false,"isImage":false}}}`},
		{name: "plain text", stdout: "hello\n"},
		{name: "exit 1", exit: 1, stderr: "oops"},
	},
	"gemini": {
		{name: "deny", stdout: `{"decision":"deny","reason":"no rm -rf"}`},
		{name: "block", stdout: `{"decision":"block","reason":"no rm -rf"}`},
		{name: "deny, blank reason", stdout: `{"decision":"deny","reason":" "}`},
		{name: "exit 2", exit: 2, stderr: "no rm -rf"},
		{name: "ask", stdout: `{"decision":"ask","systemMessage":"sure?"}`},
		{name: "allow", stdout: `{"decision":"allow"}`},
		{name: "continue false", stdout: `{"continue":false,"stopReason":"halt"}`},
		{name: "context", stdout: `{"hookSpecificOutput":{"additionalContext":"ctx"}}`},
		{name: "rewrite", stdout: `{"hookSpecificOutput":{"tool_input":{"command":"echo safe"}}}`},
		{name: "systemMessage", stdout: `{"systemMessage":"note"}`},
		{name: "plain text", stdout: "hello"},
	},
}

// Every answer of a Claude or Gemini hook, on every Codex event it maps to,
// renders as output Codex 0.169.0 accepts (it fails a hook on any key it
// does not know, and then runs the action), and a block stays a block with
// its reason (deny in ⇒ deny out).
func TestCodexHostAcceptsEveryRenderedAnswerAndKeepsEveryBlock(t *testing.T) {
	tab := mappings.Default()
	codex := tab.MustDialect("codex")
	hostPayload := `{"session_id":"s","turn_id":"t","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x"},"tool_use_id":"call_1"}`
	for hook, answers := range hookAnswers {
		tr := newTr(t, hook, "codex")
		for _, hev := range tr.From.Events {
			m, err := tab.MapEvent(tr.From, codex, hev.Name)
			if err != nil || m.To == nil {
				continue
			}
			for _, a := range answers {
				stdout := strings.ReplaceAll(a.stdout, "%E", hev.Name)
				out, fs := tr.Result(ResultContext{HookEvent: hev.Name, HostEvent: m.To.Name, HostPayload: []byte(hostPayload)},
					Output{Stdout: []byte(stdout), Stderr: []byte(a.stderr), ExitCode: a.exit})
				hookVerdict := readOutput(tr.From, hev, Output{Stdout: []byte(stdout), Stderr: []byte(a.stderr), ExitCode: a.exit}, &findings{})
				blocks, reason, failed := codexReads(t, m.To, string(out.Stdout))
				if failed != "" {
					t.Errorf("%s %s → codex %s, %s: Codex fails the hook (%s) on %s\nfindings: %v", hook, hev.Name, m.To.Name, a.name, failed, out.Stdout, fs)
					continue
				}
				wantBlock := hookVerdict.Block && hev.Output.Block == m.To.Output.Block && m.To.Output.Block != "none" && m.To.Output.Block != ""
				if wantBlock && !blocks {
					t.Errorf("%s %s → codex %s, %s: the hook blocks, Codex would not: %s", hook, hev.Name, m.To.Name, a.name, out.Stdout)
				}
				if wantBlock && blocks && strings.TrimSpace(hookVerdict.Reason) != "" && !strings.Contains(reason, strings.TrimSpace(hookVerdict.Reason)) {
					t.Errorf("%s %s → codex %s, %s: reason %q does not carry the hook's %q", hook, hev.Name, m.To.Name, a.name, reason, hookVerdict.Reason)
				}
			}
		}
	}
}

// On Codex's PreToolUse, what Codex cannot do becomes what grants no more:
// an ask or a stop is a deny (Codex would fail the hook and run the
// command), a rewrite goes with the allow Codex needs to apply it, and a
// blank reason gets one (Codex fails a block without one).
func TestCodexPreToolUseRendersWhatCodexHonours(t *testing.T) {
	host := `{"session_id":"s","turn_id":"t","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf x"},"tool_use_id":"c"}`
	for _, c := range []struct{ name, hook, event, stdout, want, find string }{
		{"claude ask is a deny", "claude", "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"sure?"}}`, "cannot ask"},
		{"claude stop is a deny", "claude", "PreToolUse", `{"continue":false,"stopReason":"halt"}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"halt"}}`, "cannot stop"},
		{"gemini stop is a deny", "gemini", "BeforeTool", `{"continue":false,"stopReason":"halt"}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"halt"}}`, "cannot stop"},
		{"claude rewrite goes with allow", "claude", "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo safe"}}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo safe"}}}`, ""},
		{"gemini rewrite goes with allow", "gemini", "BeforeTool", `{"hookSpecificOutput":{"tool_input":{"command":"echo safe"}}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo safe"}}}`, ""},
		{"a rewritten description Codex has no place for is dropped", "claude", "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo safe","description":"safer"}}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo safe"}}}`, "description"},
		{"blank reason gets one", "claude", "PreToolUse", `{"decision":"block","reason":"  "}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by hook"}}`, ""},
		{"suppressOutput is left out", "claude", "PreToolUse", `{"suppressOutput":true,"systemMessage":"m"}`, `{"systemMessage":"m"}`, ""},
		{"claude allow grants nothing", "claude", "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, ``, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := newTr(t, c.hook, "codex")
			out, fs := tr.Result(ResultContext{HookEvent: c.event, HostEvent: "PreToolUse", HostPayload: []byte(host)}, Output{Stdout: []byte(c.stdout)})
			if got := string(out.Stdout); got != c.want {
				t.Errorf("got  %s\nwant %s\nfindings: %v", got, c.want, fs)
			}
			if c.find != "" && !anyFinding(fs, c.find) {
				t.Errorf("no finding mentions %q: %v", c.find, fs)
			}
		})
	}
}

// Codex's Stop and PostToolUse have no hookSpecificOutput or no
// updatedToolOutput: a Claude hook's context on Stop continues the turn as
// a block reason, and a replaced output is left out and reported.
func TestCodexLeavesOutWhatItWouldFailOn(t *testing.T) {
	for _, c := range []struct{ name, event, stdout, want, find string }{
		{"Stop context continues the turn", "Stop", `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"run the tests"}}`,
			`{"decision":"block","reason":"run the tests"}`, ""},
		{"PostToolUse feedback block becomes context", "PostToolUse", `{"decision":"block","reason":"lint failed"}`,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint failed"}}`, "hide the tool's output"},
		{"PostToolUse updatedToolOutput left out", "PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"x","stderr":"","interrupted":false,"isImage":false}}}`,
			``, "cannot replace"},
		{"SessionEnd answer left out", "SessionEnd", `{"systemMessage":"bye"}`, ``, "systemMessage"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := newTr(t, "claude", "codex")
			m, _ := tr.Table.MapEvent(tr.From, tr.To, c.event)
			out, fs := tr.Result(ResultContext{HookEvent: c.event, HostEvent: m.To.Name}, Output{Stdout: []byte(c.stdout)})
			if got := string(out.Stdout); got != c.want {
				t.Errorf("got  %s\nwant %s\nfindings: %v", got, c.want, fs)
			}
			if c.find != "" && !anyFinding(fs, c.find) {
				t.Errorf("no finding mentions %q: %v", c.find, fs)
			}
		})
	}
}

// A Codex hook's answer under another host: a deny stays a deny, exit 2
// with stderr blocks, and a PostToolUse block (which hides the output in
// Codex) hides it, or says it cannot, on Claude.
func TestCodexHookAnswersCarryToOtherHosts(t *testing.T) {
	for _, c := range []struct {
		name, host, event, stdout, stderr string
		exit                              int
		want                              string
	}{
		{"hso deny on claude", "claude", "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, "", 0,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{"block on gemini", "gemini", "PreToolUse", `{"decision":"block","reason":"no"}`, "", 0, `{"decision":"deny","reason":"no"}`},
		{"exit 2 on gemini", "gemini", "PreToolUse", "", "no", 2, `{"decision":"deny","reason":"no"}`},
		{"prompt block on claude", "claude", "UserPromptSubmit", `{"decision":"block","reason":"no"}`, "", 0, `{"decision":"block","reason":"no"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := newTr(t, "codex", c.host)
			m, _ := tr.Table.MapEvent(tr.From, tr.To, c.event)
			out, fs := tr.Result(ResultContext{HookEvent: c.event, HostEvent: m.To.Name}, Output{Stdout: []byte(c.stdout), Stderr: []byte(c.stderr), ExitCode: c.exit})
			if got := string(out.Stdout); got != c.want {
				t.Errorf("got  %s\nwant %s\nfindings: %v", got, c.want, fs)
			}
		})
	}
}

// The keys each Codex event accepts are the keys its 0.169.0 output schema
// lists, less those its parser refuses (CX§4); hookx never renders
// another.
func TestCodexOutputKeysAreItsSchemas(t *testing.T) {
	codex := mappings.Default().MustDialect("codex")
	for _, ev := range codex.Events {
		if ev.Output.Keys == nil {
			t.Errorf("%s: no output keys: Codex fails a hook on any key it does not know", ev.Name)
		}
		if slices.Contains(ev.Output.Keys, "suppressOutput") && slices.Contains([]string{"PreToolUse", "PostToolUse", "PermissionRequest"}, ev.Name) {
			t.Errorf("%s: suppressOutput fails the hook there", ev.Name)
		}
	}
}

// A Codex apply_patch call reaches a Claude Edit guard as the one edit it
// makes; a patch that is not one edit fails the guard closed, with the
// reason, rather than show the guard something other than what runs.
func TestCodexPatchReachesAnEditGuardOrFailsItClosed(t *testing.T) {
	tr := newTr(t, "codex", "claude")
	m, err := tr.To.ToolMatcher("Edit")
	if err != nil {
		t.Fatal(err)
	}
	tr.Match = m
	one := `{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: a.go\n@@\n-x := 1\n+x := 2\n*** End Patch\n"},"tool_use_id":"c"}`
	res, err := tr.Event([]byte(one))
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
	}
	if err := json.Unmarshal(res.Payload, &p); err != nil {
		t.Fatal(err)
	}
	if p.ToolName != "Edit" || p.ToolInput["old_string"] != "x := 1" || p.ToolInput["new_string"] != "x := 2" || p.ToolInput["file_path"] == nil {
		t.Errorf("got %s %v, want Edit of a.go from x := 1 to x := 2", p.ToolName, p.ToolInput)
	}
	two := strings.Replace(one, `*** End Patch`, `*** Delete File: b.go\n*** End Patch`, 1)
	if _, err := tr.Event([]byte(two)); err == nil || !strings.Contains(err.Error(), "cannot be shown to the hook") {
		t.Errorf("a two-file patch: err %v, want the guard to fail closed", err)
	}
}

// A Claude Edit reaches a Codex hook as the patch Codex would have sent.
func TestClaudeEditReachesACodexHookAsAPatch(t *testing.T) {
	tr := newTr(t, "claude", "codex")
	in := `{"session_id":"s","transcript_path":"/t","cwd":"/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/a.go","old_string":"x := 1","new_string":"x := 2","replace_all":false},"tool_use_id":"toolu_1"}`
	res, err := tr.Event([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `"tool_input":{"command":"*** Begin Patch\n*** Update File: /p/a.go\n@@\n-x := 1\n+x := 2\n*** End Patch\n"}`
	if !strings.Contains(string(res.Payload), want) || !strings.Contains(string(res.Payload), `"tool_name":"apply_patch"`) {
		t.Errorf("got %s\nwant apply_patch with %s", res.Payload, want)
	}
}

// apply_patch also writes whole files: a Claude Write guard under Codex
// sees a patch that adds a file as the Write it is, and a Codex hook under
// Claude sees a Write as the patch that adds the file.
func TestCodexPatchAndClaudeWriteStandForEachOther(t *testing.T) {
	tr := newTr(t, "codex", "claude")
	m, err := tr.To.ToolMatcher("Write")
	if err != nil {
		t.Fatal(err)
	}
	tr.Match = m
	add := `{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: n.txt\n+hi\n*** End Patch\n"},"tool_use_id":"c"}`
	res, err := tr.Event([]byte(add))
	if err != nil {
		t.Fatal(err)
	}
	if res.Skip || !strings.Contains(string(res.Payload), `"tool_name":"Write"`) || !strings.Contains(string(res.Payload), `"content":"hi\n"`) {
		t.Errorf("a Write guard got %s (skip %v: %s), want Write of n.txt with content hi", res.Payload, res.Skip, res.SkipReason)
	}

	back := newTr(t, "claude", "codex")
	w := `{"session_id":"s","transcript_path":"/t","cwd":"/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/p/n.txt","content":"hi\n"},"tool_use_id":"toolu_1"}`
	res, err = back.Event([]byte(w))
	if err != nil {
		t.Fatal(err)
	}
	want := `"tool_input":{"command":"*** Begin Patch\n*** Add File: /p/n.txt\n+hi\n*** End Patch\n"}`
	if !strings.Contains(string(res.Payload), want) {
		t.Errorf("got %s\nwant %s", res.Payload, want)
	}
}

// A Codex hook under Claude gets the turn_id Codex would send, from the
// prompt_id that names the same user turn; none on SessionStart, where
// Codex sends none either.
func TestCodexHookGetsTurnIDFromClaudesPromptID(t *testing.T) {
	tr := newTr(t, "claude", "codex")
	in := `{"session_id":"s","transcript_path":"/t","cwd":"/p","permission_mode":"default","prompt_id":"p-42","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"}`
	res, err := tr.Event([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Payload), `"turn_id":"p-42"`) || strings.Contains(string(res.Payload), `"prompt_id"`) {
		t.Errorf("got %s, want turn_id p-42 and no prompt_id", res.Payload)
	}
	ss := `{"session_id":"s","transcript_path":"/t","cwd":"/p","prompt_id":"p-42","hook_event_name":"SessionStart","source":"startup"}`
	if res, err := tr.Event([]byte(ss)); err != nil || strings.Contains(string(res.Payload), "turn_id") {
		t.Errorf("SessionStart: %s, %v; want no turn_id", res.Payload, err)
	}
}
