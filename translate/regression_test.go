package translate

// Regression tests for edge cases of reading hook output and rendering it
// for the host, and of translating the host's event for the hook; each cites
// the reference section it follows.

import (
	"encoding/json"
	"github.com/hookx-dev/hookx/mappings"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// resultFor runs Result for a hook event and its mapped host event.
func resultFor(t *testing.T, hook, host, event, hostEvent string, out Output, hostPayload string, failClosed bool) (string, []Finding) {
	t.Helper()
	tr := newTr(t, hook, host)
	if hostEvent == "" {
		m, err := tr.Table.MapEvent(tr.From, tr.To, event)
		if err != nil || m.To == nil {
			t.Fatalf("no host event for %s: %v", event, err)
		}
		hostEvent = m.To.Name
	}
	var hp []byte
	if hostPayload != "" {
		hp = []byte(hostPayload)
	}
	res, fs := tr.Result(ResultContext{HookEvent: event, HostEvent: hostEvent, HostPayload: hp, FailClosed: failClosed}, out)
	if res.ExitCode != 0 {
		t.Errorf("exit code %d, want 0", res.ExitCode)
	}
	return string(res.Stdout), fs
}

const claudePreToolUseDeny = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`

// --- Invariant 1: a block in the hook's dialect reaches the host ----------

// Output keys match exactly: both agents parse with JSON.parse (exact keys)
// and ignore unknown keys (CC§2.1 item 4; GC§3), so a case-variant extra key
// such as "Decision" must not overwrite the real decision, as it would with
// Go's case-insensitive, last-duplicate-wins encoding/json.
// T§1 Invariant 1, T§9.2, T§9.4 row "BeforeTool → PreToolUse | deny".
func TestCaseVariantKeyDoesNotHideGeminiDeny(t *testing.T) {
	got, fs := resultFor(t, "gemini", "claude", "BeforeTool", "",
		Output{Stdout: []byte(`{"decision":"deny","reason":"no","Decision":"allow"}`)}, "", false)
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`
	if got != want {
		t.Errorf("Gemini blocks on decision:\"deny\" (the key \"Decision\" is unknown to it);\nhost got %q\nwant     %q\nfindings: %v", got, want, fs)
	}
}

// The same for a Claude hook: Claude Code ignores unknown top-level keys
// (CC§2.1 item 4), so "HookSpecificOutput" or "Decision" leaves the deny in
// place. T§1 Invariant 1, T§9.3 row "PreToolUse | permissionDecision:deny".
func TestCaseVariantKeyDoesNotHideClaudeDeny(t *testing.T) {
	stdout := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"},"HookSpecificOutput":null}`
	got, fs := resultFor(t, "claude", "gemini", "PreToolUse", "", Output{Stdout: []byte(stdout)}, "", false)
	if want := `{"decision":"deny","reason":"no"}`; got != want {
		t.Errorf("Claude ignores the unknown key HookSpecificOutput and denies;\nhost got %q\nwant     %q\nfindings: %v", got, want, fs)
	}
	got, fs = resultFor(t, "claude", "gemini", "PreToolUse", "", Output{Stdout: []byte(`{"decision":"block","reason":"r","Decision":"approve"}`)}, "", false)
	if want := `{"decision":"deny","reason":"r"}`; got != want {
		t.Errorf("legacy block with a case-variant key: host got %q, want %q; findings: %v", got, want, fs)
	}
}

// Gemini has no output schema: "If text parses as JSON and the result is an
// object, that object is the output" (GC§2 rule 1), and only decision
// deny/block blocks (GC§3). A wrongly typed unrelated field does not stop the
// deny, so the output is read field by field: one bad field must not make
// the whole output unreadable and the guard fail open.
// T§1 Invariant 1, T§9.2 Gemini rules, T§9.4.
func TestMistypedFieldDoesNotHideGeminiDeny(t *testing.T) {
	for _, stdout := range []string{
		`{"decision":"deny","reason":"no","continue":"true"}`,
		`{"decision":"deny","reason":"no","systemMessage":["x"]}`,
		`{"decision":"deny","reason":42}`,
	} {
		got, fs := resultFor(t, "gemini", "claude", "BeforeTool", "", Output{Stdout: []byte(stdout)}, "", false)
		if !strings.Contains(got, `"permissionDecision":"deny"`) {
			t.Errorf("hook printed %s (a deny in Gemini); host got %q, want a PreToolUse permissionDecision deny; findings: %v", stdout, got, fs)
		}
	}
}

// Both agents trim stdout with JavaScript's String.prototype.trim, which
// removes U+FEFF (a UTF-8 BOM, as PowerShell and some editors write it), so
// hookx trims it too (Go's strings.TrimSpace alone would not). CC§2.1 steps
// 1-3 ("stdout is trimmed", then the {-check), GC§2 ("trimmed stdout" then
// JSON.parse). T§1 Invariant 1, T§9.3 / T§9.4 deny rows.
func TestBOMBeforeJSONDoesNotHideDeny(t *testing.T) {
	const bom = "\ufeff"
	got, fs := resultFor(t, "claude", "gemini", "PreToolUse", "", Output{Stdout: []byte(bom + claudePreToolUseDeny + "\n")}, "", false)
	if want := `{"decision":"deny","reason":"no"}`; got != want {
		t.Errorf("C→G: BOM + deny JSON: host got %q, want %q; findings: %v", got, want, fs)
	}
	got, fs = resultFor(t, "gemini", "claude", "BeforeTool", "", Output{Stdout: []byte(bom + `{"decision":"deny","reason":"no"}` + "\n")}, "", false)
	if want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`; got != want {
		t.Errorf("G→C: BOM + deny JSON: host got %q, want %q; findings: %v", got, want, fs)
	}
}

// GC§2: "Killed by a signal: the exit code is null and is treated as 0, but
// the run counts as failed" and "Whether anything is blocked depends only on
// the parsed output." A Gemini hook that printed a deny and was then killed
// by a signal still blocks in Gemini, so its stdout is read rather than the
// run being treated as a fail-open failure.
// T§1 Invariant 1, T§9.2 Gemini rules.
func TestGeminiSignalKilledHookStillDenies(t *testing.T) {
	got, fs := resultFor(t, "gemini", "claude", "BeforeTool", "",
		Output{Stdout: []byte(`{"decision":"deny","reason":"no"}`), Signaled: true, FailReason: "killed by signal: terminated"}, "", false)
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`
	if got != want {
		t.Errorf("host got %q\nwant     %q\nfindings: %v", got, want, fs)
	}
}

// --- T§9.3 / T§9.4 rows rendered as the tables say ------------------------

// T§9.3 row "SessionEnd | non-zero exit with stderr (shown to the user) |
// {"systemMessage":<stderr>}"; CC§2.2 "SessionEnd ... exit 2: stderr shown to
// the user". The failed hook's stderr reaches the user even though
// SessionEnd discards a systemMessage the hook prints as JSON.
func TestClaudeSessionEndFailureShowsStderr(t *testing.T) {
	for _, exit := range []int{1, 2} {
		got, fs := resultFor(t, "claude", "gemini", "SessionEnd", "",
			Output{ExitCode: exit, Stderr: []byte("cleanup failed\n")}, "", false)
		if want := `{"systemMessage":"cleanup failed"}`; got != want {
			t.Errorf("exit %d: host got %q, want %q; findings: %v", exit, got, want, fs)
		}
	}
}

// T§9.4 row "BeforeAgent → UserPromptSubmit | continue:false |
// {"continue":false,"stopReason":S}", with no added block: the extra deny is
// prescribed only for BeforeTool → PreToolUse. On Gemini the user message is
// kept in history (GC§4 BeforeAgent), while a Claude UserPromptSubmit block
// erases the prompt (CC§2.2).
func TestGeminiBeforeAgentContinueFalseAddsNoBlock(t *testing.T) {
	got, fs := resultFor(t, "gemini", "claude", "BeforeAgent", "",
		Output{Stdout: []byte(`{"continue":false,"stopReason":"s"}`)}, "", false)
	if want := `{"continue":false,"stopReason":"s"}`; got != want {
		t.Errorf("host got %q, want %q; findings: %v", got, want, fs)
	}
}

// T§9.4 row "AfterTool → PostToolUse | deny": "... plus
// hookSpecificOutput.updatedToolOutput shaped like the tool's output ...
// (for MCP tools, updatedMCPToolOutput)". An MCP tool's replacement goes
// under updatedMCPToolOutput.
func TestGeminiAfterToolDenyMCPUsesUpdatedMCPToolOutput(t *testing.T) {
	host := `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"mcp__tiny__echo","tool_input":{"text":"secret"},"tool_response":[{"type":"text","text":"secret"}],"tool_use_id":"toolu_1"}`
	got, fs := resultFor(t, "gemini", "claude", "AfterTool", "", Output{Stdout: []byte(`{"decision":"deny","reason":"R"}`)}, host, false)
	var m struct {
		Decision string                     `json:"decision"`
		HS       map[string]json.RawMessage `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(got), &m); err != nil {
		t.Fatalf("host got %q: %v", got, err)
	}
	if m.Decision != "block" {
		t.Errorf("decision = %q, want block", m.Decision)
	}
	if _, ok := m.HS["updatedMCPToolOutput"]; !ok {
		t.Errorf("MCP tool: want hookSpecificOutput.updatedMCPToolOutput; host got %s; findings: %v", got, fs)
	}
}

// T§6.1 step 3: "For each host field with no counterpart ... keep the
// original value." That includes host-only arguments the mapping table does
// not list: Claude Grep's output_mode, -i, head_limit (CC§8.2) and Gemini
// grep_search's exclude_pattern (GC§11) survive a rewrite.
func TestRewriteKeepsUnlistedHostOnlyFields(t *testing.T) {
	// G→C: a Gemini hook rewrites grep_search; the Claude host called Grep.
	host := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Grep","tool_input":{"pattern":"a","path":"/p","output_mode":"content","-i":true,"head_limit":5},"tool_use_id":"t"}`
	got, fs := resultFor(t, "gemini", "claude", "BeforeTool", "",
		Output{Stdout: []byte(`{"hookSpecificOutput":{"tool_input":{"pattern":"b","dir_path":"/p"}}}`)}, host, false)
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"-i":true,"head_limit":5,"output_mode":"content","path":"/p","pattern":"b"}}}`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("G→C Grep rewrite (-want +got):\n%s\nfindings: %v", diff, fs)
	}
	// C→G: a Claude hook rewrites Grep; the Gemini host called grep_search
	// with an exclusion the hook cannot even see.
	host = `{"session_id":"s","hook_event_name":"BeforeTool","timestamp":"2026-11-22T12:00:00.000Z","tool_name":"grep_search","tool_input":{"pattern":"a","dir_path":"/p","exclude_pattern":"secrets/**"}}`
	got, fs = resultFor(t, "claude", "gemini", "PreToolUse", "",
		Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"pattern":"b","path":"/p"}}}`)}, host, false)
	want = `{"hookSpecificOutput":{"tool_input":{"dir_path":"/p","exclude_pattern":"secrets/**","pattern":"b"}}}`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("C→G grep_search rewrite (-want +got):\n%s\nfindings: %v", diff, fs)
	}
}

// --- FailClosed (the emulation of Claude's onFailure:"block", T§13) --------

// CC§2.2: onFailure "is ignored for async hooks and on Stop, SubagentStop,
// TaskCompleted and TeammateIdle". FailClosed follows it: a failing Stop
// hook must not become an AfterAgent deny, which Gemini would re-run with no
// cap at all (T§9.3 Stop row, T§15 S7: 2,196 continuations in 300 s).
func TestFailClosedIgnoredOnStop(t *testing.T) {
	got, fs := resultFor(t, "claude", "gemini", "Stop", "", Output{TimedOut: true}, "", true)
	if got != `{}` {
		t.Errorf("Stop hook timed out with fail-closed: host got %q, want {} (onFailure is ignored on Stop); findings: %v", got, fs)
	}
}

// CC§2.2: with onFailure "block", a hook that "prints invalid JSON is
// treated as exit 2". FailClosed covers invalid JSON as well as timeouts,
// spawn failures and exit codes other than 0/2.
func TestFailClosedInvalidJSONBlocks(t *testing.T) {
	got, fs := resultFor(t, "claude", "gemini", "PreToolUse", "", Output{Stdout: []byte(`{"hookSpecificOutput": {"permissionDecision": "deny"`)}, "", true)
	if !strings.Contains(got, `"decision":"deny"`) {
		t.Errorf("fail-closed hook printed invalid JSON: host got %q, want a deny; findings: %v", got, fs)
	}
}

// --- Stdin translation: fields the contract says to drop -------------------

// T§3.1: permission_mode, prompt_id, effort, agent_id, agent_type: "drop"
// (Claude stdin → Gemini stdin) and timestamp: "drop (Claude sends none)"
// (Gemini stdin → Claude stdin). T§3.2 tool events: "drop tool_use_id and
// duration_ms" (C→G stdin) and "drop mcp_context, original_request_name and
// timestamp" (G→C stdin); PreCompact ↔ PreCompress: "drop
// custom_instructions". Event drops them all, though the golden inputs carry
// them: passing a field through is only for fields "that neither table
// mentions".
func TestEventDropsFieldsTheContractDrops(t *testing.T) {
	cases := []struct {
		from, file string
		dropped    []string
	}{
		{"claude", "claude.PreToolUse.Bash.txtar", []string{"permission_mode", "prompt_id", "effort", "tool_use_id"}},
		{"claude", "claude.PostToolUseFailure.Bash.txtar", []string{"permission_mode", "prompt_id", "effort", "tool_use_id", "duration_ms"}},
		{"claude", "claude.PreCompact.manual.txtar", []string{"prompt_id", "custom_instructions"}},
		{"gemini", "gemini.BeforeTool.run_shell_command.txtar", []string{"timestamp"}},
		{"gemini", "gemini.BeforeTool.mcp_tiny_echo.txtar", []string{"timestamp", "mcp_context"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			to := map[string]string{"claude": "gemini", "gemini": "claude"}[c.from]
			in := goldenSource(t, c.file, c.from)
			res, err := newTr(t, c.from, to).Event(in)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			mustJSON(t, res.Payload, &m)
			for _, k := range c.dropped {
				if _, ok := m[k]; ok {
					t.Errorf("%s → %s payload still carries %q", c.from, to, k)
				}
			}
		})
	}
}

// goldenSource is the hook's-dialect input (<from>.json) of an event golden.
func goldenSource(t *testing.T, file, from string) []byte {
	t.Helper()
	ar := mustTxtar(t, "testdata/events/"+file)
	return section(t, ar, from+".json")
}

func mustTxtar(t *testing.T, path string) *txtar.Archive {
	t.Helper()
	ar, err := parseGolden(path)
	if err != nil {
		t.Fatal(err)
	}
	return ar
}

// --- Findings the contract asks Result to report ---------------------------

// T§9.3 Stop → AfterAgent row "relies on Claude's 8-block cap | Gemini has
// no cap at all ... A hook that ignores stop_hook_active loops forever.
// Report it." (T§15 S7). Result renders the block and reports the missing
// cap.
func TestClaudeStopBlockOnGeminiReportsNoCap(t *testing.T) {
	got, fs := resultFor(t, "claude", "gemini", "Stop", "", Output{Stdout: []byte(`{"decision":"block","reason":"again"}`)}, "", false)
	if got != `{"decision":"deny","reason":"again"}` {
		t.Fatalf("host got %q", got)
	}
	if !anyFinding(fs, "cap") {
		t.Errorf("Stop block on Gemini: want a finding that Gemini has no loop cap (Claude stops after 8); findings: %v", fs)
	}
}

// T§9.4 AfterTool → PostToolUse deny: whether Claude applies a replaced
// result was seen live for Bash and Read (applied) and Edit (ignored; the
// conformance suite's hide-output scenarios). Everything else is UNVERIFIED
// and must be reported, since the output leaks if the shape is ignored.
func TestGeminiAfterToolDenyReportsUnprovenReplacement(t *testing.T) {
	deny := Output{Stdout: []byte(`{"decision":"deny","reason":"R"}`)}
	for _, c := range []struct{ tool, want string }{
		{"Glob", "UNVERIFIED"},
		{"Edit", "ignores a replaced Edit result"},
		{"Read", ""},
		{"Bash", ""},
	} {
		host := `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"` + c.tool + `","tool_input":{},"tool_use_id":"t"}`
		_, fs := resultFor(t, "gemini", "claude", "AfterTool", "", deny, host, false)
		got := anyFinding(fs, "hidden output")
		if c.want == "" && got {
			t.Errorf("%s: a replacement seen applied live is reported: %v", c.tool, fs)
		}
		if c.want != "" && !anyFinding(fs, c.want) {
			t.Errorf("%s: want a finding mentioning %q; got %v", c.tool, c.want, fs)
		}
	}
}

// T§8 Claude → Gemini shape: "Add error only for a PostToolUseFailure of a
// tool other than Bash ... A failed shell command carries no error in
// Gemini" (T§15 S4). That holds for every Bash failure, also one whose error
// does not start with "Exit code N" (an interrupt, a timeout).
func TestBashFailureWithoutExitCodeHasNoErrorObject(t *testing.T) {
	res, err := newTr(t, "claude", "gemini").Event([]byte(`{"session_id":"s","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"sleep 99"},"error":"Command was interrupted","is_interrupt":true}`))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Resp map[string]any `json:"tool_response"`
	}
	mustJSON(t, res.Payload, &m)
	if _, ok := m.Resp["error"]; ok {
		t.Errorf("run_shell_command AfterTool carries tool_response.error %v; Gemini never sends one for a shell command", m.Resp["error"])
	}
}

// A hook's updatedInput is a rewrite only where its own agent applies one:
// Qwen Code's PreToolUse reads none (the original input runs there), so a
// Qwen hook's rewrite must not run on another host, while Claude's and
// Droid's must. Every Claude-protocol dialect, by its table entry.
func TestHookRewriteOnlyWhereItsAgentRewrites(t *testing.T) {
	host := `{"session_id":"s","hook_event_name":"BeforeTool","timestamp":"2026-11-22T12:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"printf ORIG"}}`
	n := 0
	for _, d := range mappings.Default().Dialects {
		ev, _ := d.EventFor("tool.before")
		if d.Protocol != "claude" || ev == nil || d.Name == "codex" { // Codex needs an allow beside it
			continue
		}
		n++
		t.Run(d.Name, func(t *testing.T) {
			got, fs := resultFor(t, d.Name, "gemini", ev.Name, "",
				Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"` + ev.Name + `","updatedInput":{"command":"printf REWR"}}}`)}, host, false)
			if rewrote := strings.Contains(got, "REWR"); rewrote != ev.Output.RewriteInput {
				t.Errorf("the host was told %s (rewrite carried: %v); %s applies a rewrite on %s: %v; findings: %v",
					got, rewrote, d.Agent, ev.Name, ev.Output.RewriteInput, fs)
			}
		})
	}
	if n < 3 {
		t.Fatalf("only %d Claude-protocol dialects", n)
	}
}
