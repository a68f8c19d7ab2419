package translate

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

// payload reads a host payload: a variant made for a test (testdata/host),
// or one captured from the host's agent (../testdata/payloads).
func payload(t *testing.T, host, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/host/" + name)
	if os.IsNotExist(err) {
		b, err = capturedPayload(host, name)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type resultCase struct {
	name       string
	hook, host string // dialects
	event      string // the hook's event
	hostEvent  string // default: the mapped event
	exit       int
	stdout     string
	stderr     string
	timedOut   bool
	signaled   bool
	failed     bool
	overflow   bool // stdout (or, with overStderr, stderr) over the bound: left out
	overStderr bool
	held       bool   // a background process held the output open
	hostFile   string // host payload: testdata/host, or captured (../testdata/payloads)
	failClosed bool
	ask        string
	want       string // the host's stdout, exactly
	wantFind   string // a substring one finding must contain ("" = no requirement)
}

// The rows of translation.md §9.3 (a Claude hook on a Gemini host) and §9.4
// (a Gemini hook on a Claude host). The host always gets exit 0.
var resultCases = []resultCase{
	// §9.3, any event.
	{name: "C→G exit 0 nothing", hook: "claude", host: "gemini", event: "PreToolUse", want: `{}`},
	{name: "C→G plain stdout ignored on PreToolUse", hook: "claude", host: "gemini", event: "PreToolUse", stdout: "debug line\n", want: `{}`, wantFind: "debug log"},
	{name: "C→G exit 1 fails open", hook: "claude", host: "gemini", event: "PreToolUse", exit: 1, stderr: "oops\n", want: `{}`, wantFind: "exited 1: oops"},
	{name: "C→G exit 3 fails open", hook: "claude", host: "gemini", event: "PreToolUse", exit: 3, stderr: "text", want: `{}`},
	{name: "C→G exit 126 fails open", hook: "claude", host: "gemini", event: "PreToolUse", exit: 126, stderr: "sh: 1: ./x: Permission denied", want: `{}`},
	{name: "C→G exit 127 fails open", hook: "claude", host: "gemini", event: "PreToolUse", exit: 127, stderr: "sh: 1: gaurd.sh: not found", want: `{}`, wantFind: "fails open"},
	{name: "C→G exit 127 fail-closed blocks", hook: "claude", host: "gemini", event: "PreToolUse", exit: 127, stderr: "sh: 1: gaurd.sh: not found", failClosed: true,
		want: `{"decision":"deny","reason":"hook failed (fail-closed): exited 127: sh: 1: gaurd.sh: not found"}`},
	{name: "C→G timeout fails open", hook: "claude", host: "gemini", event: "PreToolUse", timedOut: true, want: `{}`},
	{name: "C→G timeout fail-closed", hook: "claude", host: "gemini", event: "PreToolUse", timedOut: true, failClosed: true, want: `{"decision":"deny","reason":"hook failed (fail-closed): timed out"}`},
	{name: "C→G crashed", hook: "claude", host: "gemini", event: "PreToolUse", failed: true, want: `{}`},
	{name: "C→G systemMessage", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"systemMessage":"hi"}`, want: `{"systemMessage":"hi"}`},
	{name: "C→G systemMessage discarded on SessionEnd", hook: "claude", host: "gemini", event: "SessionEnd", stdout: `{"systemMessage":"bye"}`, want: `{}`},
	{name: "C→G suppressOutput dropped", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"suppressOutput":true}`, want: `{}`},
	// §9.3 PreToolUse → BeforeTool.
	{name: "C→G exit 2 stderr", hook: "claude", host: "gemini", event: "PreToolUse", exit: 2, stderr: "rm -rf is not allowed\n", want: `{"decision":"deny","reason":"rm -rf is not allowed"}`},
	{name: "C→G exit 2 no stderr", hook: "claude", host: "gemini", event: "PreToolUse", exit: 2, want: `{"decision":"deny","reason":"No stderr output"}`},
	{name: "C→G exit 2 beats JSON allow", hook: "claude", host: "gemini", event: "PreToolUse", exit: 2, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, stderr: "no",
		want: `{"decision":"deny","reason":"no"}`},
	{name: "C→G permissionDecision deny", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no .env"}}`,
		want: `{"decision":"deny","reason":"no .env"}`},
	{name: "C→G deny JSON at exit 1 still decides", hook: "claude", host: "gemini", event: "PreToolUse", exit: 1, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}`,
		want: `{"decision":"deny","reason":"x"}`},
	{name: "C→G legacy block", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"decision":"block","reason":"legacy"}`, want: `{"decision":"deny","reason":"legacy"}`},
	{name: "C→G legacy block no reason", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"decision":"block"}`, want: `{"decision":"deny","reason":"Blocked by hook"}`},
	{name: "C→G invalid decision deny read strictly", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"decision":"deny","reason":"r"}`, want: `{"decision":"deny","reason":"r"}`, wantFind: "stricter"},
	{name: "C→G ask becomes deny by default", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`,
		want: `{"decision":"deny","reason":"sure?"}`, wantFind: "headless"},
	{name: "C→G ask with --ask ask", hook: "claude", host: "gemini", event: "PreToolUse", ask: "ask", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`,
		want: `{"decision":"ask","systemMessage":"sure?"}`},
	{name: "C→G defer becomes deny", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`,
		want: `{"decision":"deny","reason":"The hook deferred this decision"}`},
	{name: "C→G defer with --ask ask", hook: "claude", host: "gemini", event: "PreToolUse", ask: "ask", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`,
		want: `{"decision":"ask","systemMessage":"The hook deferred this decision"}`},
	{name: "C→G allow grants nothing", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, want: `{}`, wantFind: "no auto-approval"},
	{name: "C→G approve grants nothing", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"decision":"approve"}`, want: `{}`},
	{name: "C→G updatedInput rebuilt for the host, and the host announces it", hook: "claude", host: "gemini", event: "PreToolUse", hostFile: "BeforeTool.run_shell_command.json",
		stdout:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo b","description":"rewritten","run_in_background":false}}}`,
		want:     `{"hookSpecificOutput":{"tool_input":{"command":"echo b","description":"rewritten","is_background":false}}}`,
		wantFind: "Gemini CLI tells the model that a hook modified the tool input"},
	{name: "C→G updatedInput on replace keeps instruction", hook: "claude", host: "gemini", event: "PreToolUse", hostFile: "BeforeTool.replace.json",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/p/a","old_string":"x","new_string":"y","replace_all":false}}}`,
		want:   `{"hookSpecificOutput":{"tool_input":{"allow_multiple":false,"file_path":"/p/a","instruction":"Uppercase every beta","new_string":"y","old_string":"x"}}}`},
	{name: "C→G updatedInput on read_file converts the line range", hook: "claude", host: "gemini", event: "PreToolUse", hostFile: "BeforeTool.read_file.json",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/p/a","offset":10,"limit":5}}}`,
		want:   `{"hookSpecificOutput":{"tool_input":{"end_line":14,"file_path":"/p/a","start_line":10}}}`},
	{name: "C→G deny drops the rewrite", hook: "claude", host: "gemini", event: "PreToolUse", hostFile: "BeforeTool.run_shell_command.json",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no","updatedInput":{"command":"x"}}}`,
		want:   `{"decision":"deny","reason":"no"}`},
	{name: "C→G additionalContext on BeforeTool is reported", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ctx"}}`,
		want: `{}`, wantFind: "ignores it on BeforeTool"},
	{name: "C→G continue false", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"continue":false,"stopReason":"halt"}`, want: `{"continue":false,"stopReason":"halt"}`},
	{name: "C→G wrong hookEventName: deny kept", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"w"}}`,
		want: `{"decision":"deny","reason":"w"}`, wantFind: "hookEventName"},
	{name: "C→G wrong hookEventName: rewrite ignored", hook: "claude", host: "gemini", event: "PreToolUse", hostFile: "BeforeTool.run_shell_command.json",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedInput":{"command":"x"}}}`, want: `{}`},
	{name: "C→G unknown keys ignored", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"foo":1,"decision":"block","reason":"r"}`, want: `{"decision":"deny","reason":"r"}`, wantFind: "output key foo"},
	{name: "C→G two JSON documents are plain text", hook: "claude", host: "gemini", event: "PreToolUse", stdout: "{\"decision\":\"block\"}\n{\"decision\":\"block\"}\n", want: `{}`},
	{name: "C→G a JSON array is plain text", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `[{"decision":"block"}]`, want: `{}`},
	{name: "C→G garbage", hook: "claude", host: "gemini", event: "PreToolUse", stdout: "\x00\xff{garbage", want: `{}`},
	// §9.3 PostToolUse → AfterTool.
	{name: "C→G PostToolUse exit 2 is context, not deny", hook: "claude", host: "gemini", event: "PostToolUse", exit: 2, stderr: "lint failed", want: `{"hookSpecificOutput":{"additionalContext":"lint failed"}}`},
	{name: "C→G PostToolUse block is context", hook: "claude", host: "gemini", event: "PostToolUse", stdout: `{"decision":"block","reason":"fix it"}`, want: `{"hookSpecificOutput":{"additionalContext":"fix it"}}`},
	{name: "C→G PostToolUse additionalContext", hook: "claude", host: "gemini", event: "PostToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"<b>"}}`, want: `{"hookSpecificOutput":{"additionalContext":"<b>"}}`},
	{name: "C→G updatedToolOutput cannot carry", hook: "claude", host: "gemini", event: "PostToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"x","stderr":"","interrupted":false}}}`,
		want: `{}`, wantFind: "cannot replace"},
	{name: "C→G PostToolUseFailure block is context", hook: "claude", host: "gemini", event: "PostToolUseFailure", hostEvent: "AfterTool", exit: 2, stderr: "see logs", want: `{"hookSpecificOutput":{"additionalContext":"see logs"}}`},
	// §9.3 UserPromptSubmit → BeforeAgent.
	{name: "C→G UPS plain stdout is context", hook: "claude", host: "gemini", event: "UserPromptSubmit", stdout: "Project rules: be brief\n", want: `{"hookSpecificOutput":{"additionalContext":"Project rules: be brief"}}`},
	{name: "C→G UPS exit 2 denies", hook: "claude", host: "gemini", event: "UserPromptSubmit", exit: 2, stderr: "no secrets", want: `{"decision":"deny","reason":"no secrets"}`},
	{name: "C→G UPS block denies", hook: "claude", host: "gemini", event: "UserPromptSubmit", stdout: `{"decision":"block","reason":"r"}`, want: `{"decision":"deny","reason":"r"}`},
	{name: "C→G UPS continue false", hook: "claude", host: "gemini", event: "UserPromptSubmit", stdout: `{"continue":false,"stopReason":"s"}`, want: `{"continue":false,"stopReason":"s"}`},
	// §9.3 Stop → AfterAgent.
	{name: "C→G Stop exit 2", hook: "claude", host: "gemini", event: "Stop", exit: 2, stderr: "run the tests", want: `{"decision":"deny","reason":"run the tests"}`},
	{name: "C→G Stop block: the finding says the host has no cap", hook: "claude", host: "gemini", event: "Stop", stdout: `{"decision":"block","reason":"again"}`, want: `{"decision":"deny","reason":"again"}`,
		wantFind: "Gemini CLI has no cap on consecutive AfterAgent blocks; hookx wrap enforces Claude Code's cap of 8 with no tool use between them"},
	{name: "C→G Stop additionalContext keeps going", hook: "claude", host: "gemini", event: "Stop", stdout: `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"one more"}}`, want: `{"decision":"deny","reason":"one more"}`},
	{name: "C→G Stop plain text ignored", hook: "claude", host: "gemini", event: "Stop", stdout: "done", want: `{}`},
	// §9.3 SessionStart, SessionEnd, PreCompact, Notification.
	{name: "C→G SessionStart plain stdout is context", hook: "claude", host: "gemini", event: "SessionStart", stdout: "rules", want: `{"hookSpecificOutput":{"additionalContext":"rules"}}`},
	{name: "C→G SessionStart additionalContext", hook: "claude", host: "gemini", event: "SessionStart", stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}`, want: `{"hookSpecificOutput":{"additionalContext":"c"}}`},
	{name: "C→G SessionStart block ignored", hook: "claude", host: "gemini", event: "SessionStart", stdout: `{"decision":"block","reason":"r"}`, want: `{}`},
	{name: "C→G SessionStart exit 1 shows stderr", hook: "claude", host: "gemini", event: "SessionStart", exit: 1, stderr: "no notes.md", want: `{"systemMessage":"no notes.md"}`},
	{name: "C→G SessionStart exit 2 shows stderr", hook: "claude", host: "gemini", event: "SessionStart", exit: 2, stderr: "no notes.md", want: `{"systemMessage":"no notes.md"}`},
	{name: "C→G PreCompact block cannot block", hook: "claude", host: "gemini", event: "PreCompact", exit: 2, stderr: "not now", want: `{"systemMessage":"not now"}`, wantFind: "cannot block"},
	{name: "C→G Notification anything", hook: "claude", host: "gemini", event: "Notification", exit: 2, stderr: "x", want: `{}`},

	// §9.4, any event.
	{name: "G→C nothing", hook: "gemini", host: "claude", event: "BeforeTool", want: ``},
	{name: "G→C exit 2 with nothing does not block", hook: "gemini", host: "claude", event: "BeforeTool", exit: 2, want: ``},
	{name: "G→C timeout", hook: "gemini", host: "claude", event: "BeforeTool", timedOut: true, want: ``},
	{name: "G→C plain text exit 0 is a message", hook: "gemini", host: "claude", event: "BeforeAgent", stdout: "hello", want: `{"systemMessage":"hello"}`},
	{name: "G→C plain text exit 1 is a warning", hook: "gemini", host: "claude", event: "BeforeTool", exit: 1, stdout: "careful", want: `{"systemMessage":"Warning: careful"}`},
	{name: "G→C stderr only at exit 0", hook: "gemini", host: "claude", event: "BeforeTool", stderr: "note", want: `{"systemMessage":"note"}`},
	{name: "G→C stdout wins over stderr", hook: "gemini", host: "claude", event: "BeforeTool", exit: 2, stdout: "out reason", stderr: "err reason",
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"out reason"}}`},
	// §9.4 BeforeTool → PreToolUse.
	{name: "G→C decision deny", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `{"decision":"deny","reason":"no"}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
	{name: "G→C decision block", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `{"decision":"block","reason":"no"}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
	{name: "G→C exit 3 with text blocks", hook: "gemini", host: "claude", event: "BeforeTool", exit: 3, stderr: "denied by policy",
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied by policy"}}`},
	{name: "G→C exit 127 command not found blocks", hook: "gemini", host: "claude", event: "BeforeTool", exit: 127, stderr: "bash: line 1: gaurd.sh: command not found",
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"bash: line 1: gaurd.sh: command not found"}}`},
	{name: "G→C exit 126 blocks", hook: "gemini", host: "claude", event: "BeforeTool", exit: 126, stderr: "Permission denied",
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Permission denied"}}`},
	{name: "G→C JSON beats exit code", hook: "gemini", host: "claude", event: "BeforeTool", exit: 2, stdout: `{"decision":"allow"}`, want: ``},
	{name: "G→C JSON string holding an object", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `"{\"decision\":\"deny\",\"reason\":\"q\"}"`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"q"}}`},
	{name: "G→C ask", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `{"decision":"ask","systemMessage":"confirm?"}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"confirm?"}}`},
	{name: "G→C allow never becomes allow", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `{"decision":"allow"}`, want: ``},
	{name: "G→C approve never becomes approve", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `{"decision":"approve","reason":"fine"}`, want: ``},
	{name: "G→C tool_input rewrite, which the host does not announce", hook: "gemini", host: "claude", event: "BeforeTool", hostFile: "PreToolUse.Bash.json",
		stdout:   `{"hookSpecificOutput":{"tool_input":{"command":"echo b","is_background":false}}}`,
		want:     `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo b","run_in_background":false}}}`,
		wantFind: "Claude Code does not tell the model that a hook modified the tool input; Gemini CLI would"},
	{name: "G→C tool_input rewrite of replace drops instruction", hook: "gemini", host: "claude", event: "BeforeTool", hostFile: "PreToolUse.Edit.json",
		stdout: `{"hookSpecificOutput":{"tool_input":{"file_path":"/p/a","instruction":"i","old_string":"x","new_string":"y"}}}`,
		want:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/p/a","new_string":"y","old_string":"x"}}}`, wantFind: "instruction"},
	{name: "G→C rewrite keeps Claude-only fields", hook: "gemini", host: "claude", event: "BeforeTool", hostFile: "PreToolUse.Bash.timeout.json",
		stdout: `{"hookSpecificOutput":{"tool_input":{"command":"echo b"}}}`,
		want:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo b","dangerouslyDisableSandbox":false,"timeout":5000}}}`},
	{name: "G→C read_file rewrite becomes offset/limit", hook: "gemini", host: "claude", event: "BeforeTool", hostFile: "PreToolUse.Read.json",
		stdout: `{"hookSpecificOutput":{"tool_input":{"file_path":"/p/a","start_line":3,"end_line":7}}}`,
		want:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/p/a","limit":5,"offset":3}}}`},
	{name: "G→C BeforeTool additionalContext ignored", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `{"hookSpecificOutput":{"additionalContext":"c"}}`, want: ``},
	{name: "G→C continue false also denies", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `{"continue":false,"stopReason":"halt"}`,
		want: `{"continue":false,"stopReason":"halt","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"halt"}}`},
	// §9.4 AfterTool → PostToolUse.
	{name: "G→C AfterTool deny hides Bash output", hook: "gemini", host: "claude", event: "AfterTool", hostFile: "PostToolUse.Bash.json", stdout: `{"decision":"deny","reason":"secret"}`,
		want: `{"decision":"block","reason":"Tool result blocked: secret","hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"interrupted":false,"isImage":false,"stderr":"","stdout":"Tool result blocked: secret"}}}`},
	{name: "G→C AfterTool deny on PostToolUseFailure cannot hide", hook: "gemini", host: "claude", event: "AfterTool", hostEvent: "PostToolUseFailure", stdout: `{"decision":"deny","reason":"s"}`,
		want: `{"decision":"block","reason":"Tool result blocked: s"}`, wantFind: "cannot hide"},
	{name: "G→C AfterTool additionalContext", hook: "gemini", host: "claude", event: "AfterTool", stdout: `{"hookSpecificOutput":{"additionalContext":"c"}}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"}}`},
	{name: "G→C AfterTool tailToolCallRequest", hook: "gemini", host: "claude", event: "AfterTool", stdout: `{"hookSpecificOutput":{"tailToolCallRequest":{"name":"x","args":{}}}}`, want: ``, wantFind: "tailToolCallRequest"},
	{name: "G→C AfterTool ask ignored", hook: "gemini", host: "claude", event: "AfterTool", stdout: `{"decision":"ask"}`, want: ``},
	// §9.4 BeforeAgent, AfterAgent, SessionStart.
	{name: "G→C BeforeAgent deny", hook: "gemini", host: "claude", event: "BeforeAgent", stdout: `{"decision":"deny","reason":"r"}`, want: `{"decision":"block","reason":"r"}`},
	{name: "G→C BeforeAgent additionalContext", hook: "gemini", host: "claude", event: "BeforeAgent", stdout: `{"hookSpecificOutput":{"additionalContext":"c"}}`,
		want: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"c"}}`},
	{name: "G→C AfterAgent deny: the finding gives the host's cap", hook: "gemini", host: "claude", event: "AfterAgent", stdout: `{"decision":"deny","reason":"again"}`, want: `{"decision":"block","reason":"again"}`,
		wantFind: "Claude Code ends the turn after 8 consecutive Stop blocks with no tool use between them, and the hook is not told"},
	{name: "G→C AfterAgent exit 2 text", hook: "gemini", host: "claude", event: "AfterAgent", exit: 2, stderr: "again", want: `{"decision":"block","reason":"again"}`},
	{name: "G→C AfterAgent clearContext", hook: "gemini", host: "claude", event: "AfterAgent", stdout: `{"continue":false,"hookSpecificOutput":{"clearContext":true}}`,
		want: `{"continue":false,"stopReason":"No reason provided"}`, wantFind: "clearContext"},
	{name: "G→C SessionStart additionalContext", hook: "gemini", host: "claude", event: "SessionStart", stdout: `{"hookSpecificOutput":{"additionalContext":"c"}}`,
		want: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}`},
	{name: "G→C SessionStart plain text is not context", hook: "gemini", host: "claude", event: "SessionStart", stdout: "banner", want: `{"systemMessage":"banner"}`},
	{name: "G→C PreCompress deny ignored", hook: "gemini", host: "claude", event: "PreCompress", stdout: `{"decision":"deny","reason":"x"}`, want: ``},
	{name: "G→C SessionEnd message discarded", hook: "gemini", host: "claude", event: "SessionEnd", stdout: "bye", want: ``, wantFind: "discards"},

	// Hook output is read as JSON.parse reads it (issue 8, item 10).
	{name: "C→G block with a number out of float range blocks", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"decision":"block","reason":"r","n":1e400}`,
		want: `{"decision":"deny","reason":"r"}`},
	{name: "G→C deny with a number out of float range blocks", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `{"decision":"deny","reason":"r","n":-1e400}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`},
	{name: "C→G block nested past Go's depth limit blocks", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"decision":"block","reason":"r","x":` + deepArray(10001) + `}`,
		want: `{"decision":"deny","reason":"r"}`},
	{name: "G→C deny nested past Go's depth limit blocks", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `{"decision":"deny","reason":"r","x":` + deepArray(10001) + `}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`},
	{name: "G→C U+0085 around JSON is plain text: exit 2 blocks", hook: "gemini", host: "claude", event: "BeforeTool", exit: 2, stdout: "\u0085{\"decision\":\"allow\"}\u0085",
		want: "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"\u0085{\\\"decision\\\":\\\"allow\\\"}\u0085\"}}"},
	{name: "C→G U+0085 before JSON is plain text, not an allow", hook: "claude", host: "gemini", event: "PreToolUse", stdout: "\u0085{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}", want: `{}`, wantFind: "debug log"},
	{name: "C→G byte-order mark and U+3000 are trimmed", hook: "claude", host: "gemini", event: "PreToolUse", stdout: "\uFEFF{\"decision\":\"block\",\"reason\":\"r\"}\u3000",
		want: `{"decision":"deny","reason":"r"}`},
	{name: "C→G stray trailing brace is not JSON", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"decision":"block","reason":"r"}}`, failClosed: true,
		want: `{"decision":"deny","reason":"hook failed (fail-closed): printed output that starts with { but is not one valid JSON object"}`},
	{name: "G→C stray trailing brace at exit 2 is a plain-text block", hook: "gemini", host: "claude", event: "BeforeTool", exit: 2, stdout: `{"decision":"allow"}}`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"{\"decision\":\"allow\"}}"}}`},
	{name: "C→G duplicate keys: the last wins", hook: "claude", host: "gemini", event: "PreToolUse", stdout: `{"decision":"approve","decision":"block","reason":"r"}`,
		want: `{"decision":"deny","reason":"r"}`},
	{name: "G→C duplicate keys: the last wins", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `{"decision":"deny","reason":"r","decision":"allow"}`, want: ``},
	{name: "G→C JSON that is not an object is no output, even at exit 2", hook: "gemini", host: "claude", event: "BeforeTool", exit: 2, stdout: `123`, want: ``},
	{name: "G→C a JSON string holding an object is read", hook: "gemini", host: "claude", event: "BeforeTool", stdout: `"{\"decision\":\"deny\",\"reason\":\"r\"}"`,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`},
	{name: "C→G a rewrite hookx cannot carry blocks", hook: "claude", host: "gemini", event: "PreToolUse", hostFile: "BeforeTool.run_shell_command.json",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls","n":1e400}}}`,
		want:   `{"decision":"deny","reason":"hookx cannot carry this hook's tool input rewrite: updatedInput cannot be carried: json: cannot unmarshal number 1e400 into Go value of type float64"}`, wantFind: "rather than running"},

	{name: "C→G a rewrite setting an argument the host lacks blocks", hook: "claude", host: "gemini", event: "PreToolUse", hostFile: "BeforeTool.run_shell_command.json",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls","timeout":5000}}}`,
		want:   `{"decision":"deny","reason":"hookx cannot carry this hook's tool input rewrite: run_shell_command has no argument for the rewritten timeout"}`, wantFind: "rather than running"},
	{name: "G→C a rewrite of a descriptive argument the host lacks is dropped, not blocked", hook: "gemini", host: "claude", event: "BeforeTool", hostFile: "PreToolUse.Edit.json",
		stdout: `{"hookSpecificOutput":{"tool_input":{"file_path":"/p/a","instruction":"something else","old_string":"x","new_string":"z"}}}`,
		want:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/p/a","new_string":"z","old_string":"x"}}}`, wantFind: "instruction"},

	// Output over wrap's bound (issue 8, item 8): what the hook's own agent
	// reads as a block stays a block; on events that fail closed, so does
	// any unreadable verdict.
	{name: "C→G exit 2 over the bound blocks with stderr", hook: "claude", host: "gemini", event: "PreToolUse", exit: 2, overflow: true, stderr: "no",
		want: `{"decision":"deny","reason":"no"}`},
	{name: "C→G exit 2 with stderr over the bound blocks", hook: "claude", host: "gemini", event: "PreToolUse", exit: 2, overStderr: true,
		want: `{"decision":"deny","reason":"hook stderr over the 16777216-byte limit; it exited 2, a block in Claude Code, so hookx blocks"}`},
	{name: "C→G exit 0 over the bound on a guard event blocks", hook: "claude", host: "gemini", event: "PreToolUse", overflow: true,
		want: `{"decision":"deny","reason":"hook stdout over the 16777216-byte limit; its verdict cannot be read, so hookx blocks (Claude Code PreToolUse fails closed)"}`},
	{name: "C→G exit 0 over the bound after a tool is sent as feedback", hook: "claude", host: "gemini", event: "PostToolUse", overflow: true,
		want: `{"hookSpecificOutput":{"additionalContext":"hook stdout over the 16777216-byte limit; its verdict cannot be read, so hookx blocks (Claude Code PostToolUse fails closed)"}}`},
	{name: "C→G exit 2 over the bound on Stop keeps going", hook: "claude", host: "gemini", event: "Stop", exit: 2, overflow: true, stderr: "more",
		want: `{"decision":"deny","reason":"more"}`},
	{name: "C→G over the bound where nothing can block fails open", hook: "claude", host: "gemini", event: "SessionStart", exit: 2, overflow: true, want: `{}`, wantFind: "fails open"},
	{name: "C→G stderr over the bound at exit 0: stdout decides", hook: "claude", host: "gemini", event: "PreToolUse", overStderr: true, stdout: `{"decision":"block","reason":"r"}`,
		want: `{"decision":"deny","reason":"r"}`},
	{name: "G→C exit 2 over the bound blocks", hook: "gemini", host: "claude", event: "BeforeTool", exit: 2, overflow: true,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hook stdout over the 16777216-byte limit; it exited 2, a block in Gemini CLI, so hookx blocks"}}`},
	{name: "G→C exit 3 over the bound blocks", hook: "gemini", host: "claude", event: "BeforeAgent", exit: 3, overflow: true,
		want: `{"decision":"block","reason":"hook stdout over the 16777216-byte limit; it exited 3, a block in Gemini CLI, so hookx blocks"}`},
	{name: "G→C exit 0 over the bound on a guard event blocks", hook: "gemini", host: "claude", event: "BeforeTool", overflow: true,
		want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hook stdout over the 16777216-byte limit; its verdict cannot be read, so hookx blocks (Gemini CLI BeforeTool fails closed)"}}`},
	{name: "G→C stderr over the bound: stdout decides", hook: "gemini", host: "claude", event: "BeforeTool", exit: 2, overStderr: true, stdout: `{"decision":"allow"}`, want: ``},
	{name: "G→C exit 0 over the bound after a tool hides the output", hook: "gemini", host: "claude", event: "AfterTool", overflow: true, hostFile: "PostToolUse.Bash.json",
		want: `{"decision":"block","reason":"Tool result blocked: hook stdout over the 16777216-byte limit; its verdict cannot be read, so hookx blocks (Gemini CLI AfterTool fails closed)","hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"interrupted":false,"isImage":false,"stderr":"","stdout":"Tool result blocked: hook stdout over the 16777216-byte limit; its verdict cannot be read, so hookx blocks (Gemini CLI AfterTool fails closed)"}}}`},
	{name: "G→C over the bound on AfterAgent fails open", hook: "gemini", host: "claude", event: "AfterAgent", overflow: true, want: ``, wantFind: "fails open"},

	// Held output (issue 8, item 9): Claude Code refuses a held capture
	// that grants, rewrites or injects, or an unfinished JSON object; on
	// PreToolUse and UserPromptSubmit that is a block. Gemini CLI waits for
	// end of file, so its hooks' held output is read as it is.
	{name: "C→G held capture that grants blocks", hook: "claude", host: "gemini", event: "PreToolUse", held: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`,
		want:   `{"decision":"deny","reason":"hook output parsed as a document that grants, rewrites or injects, but its stdio went quiet before end-of-stream and a dropped later document could have changed it; refusing to honor the suspect capture"}`},
	{name: "C→G held capture that rewrites blocks", hook: "claude", host: "gemini", event: "PreToolUse", held: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"}}}`, want: `{"decision":"deny","reason":"hook output parsed as a document that grants, rewrites or injects, but its stdio went quiet before end-of-stream and a dropped later document could have changed it; refusing to honor the suspect capture"}`},
	{name: "C→G held unfinished JSON blocks", hook: "claude", host: "gemini", event: "UserPromptSubmit", held: true, stdout: `{"decision":`,
		want: `{"decision":"deny","reason":"hook output opens a JSON payload that never completed before its stdio went quiet; refusing to read the partial capture as a verdict"}`},
	{name: "C→G held plain block is read", hook: "claude", host: "gemini", event: "PreToolUse", held: true, stdout: `{"decision":"block","reason":"r"}`,
		want: `{"decision":"deny","reason":"r"}`},
	{name: "C→G held exit 2 stands", hook: "claude", host: "gemini", event: "PreToolUse", held: true, exit: 2, stderr: "no",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, want: `{"decision":"deny","reason":"no"}`},
	{name: "C→G held empty output is read", hook: "claude", host: "gemini", event: "PreToolUse", held: true, want: `{}`},
	{name: "C→G held context at exit 0 on SessionStart is read", hook: "claude", host: "gemini", event: "SessionStart", held: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}`, want: `{"hookSpecificOutput":{"additionalContext":"c"}}`},
	{name: "C→G held refusal after a tool is a non-blocking error", hook: "claude", host: "gemini", event: "PostToolUse", held: true,
		stdout: `{"decision":"block","reason":"r"}`, want: `{}`, wantFind: "refusing to honor the suspect capture"},
	{name: "G→C held output is read as it is", hook: "gemini", host: "claude", event: "BeforeTool", held: true,
		stdout: `{"decision":"allow"}`, want: ``},
}

func (c resultCase) output() Output {
	out := Output{Stdout: []byte(c.stdout), Stderr: []byte(c.stderr), ExitCode: c.exit, TimedOut: c.timedOut, Signaled: c.signaled, Failed: c.failed || c.overflow || c.overStderr, Held: c.held}
	switch {
	case c.overStderr:
		out.Overflow, out.Stderr, out.FailReason = true, nil, "hook stderr over the 16777216-byte limit"
	case c.overflow:
		out.Overflow, out.Stdout, out.FailReason = true, nil, "hook stdout over the 16777216-byte limit"
	}
	return out
}

// deepArray is n nested empty arrays.
func deepArray(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

func TestResult(t *testing.T) { runResultCases(t, resultCases) }

func runResultCases(t *testing.T, cases []resultCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := newTr(t, c.hook, c.host)
			host := c.hostEvent
			if host == "" {
				m, err := tr.Table.MapEvent(tr.From, tr.To, c.event)
				if err != nil || m.To == nil {
					t.Fatalf("no host event for %s: %v", c.event, err)
				}
				host = m.To.Name
			}
			var hp []byte
			if c.hostFile != "" {
				hp = payload(t, c.host, c.hostFile)
			}
			out, fs := tr.Result(ResultContext{HookEvent: c.event, HostEvent: host, HostPayload: hp, FailClosed: c.failClosed, Ask: c.ask},
				c.output())
			if out.ExitCode != 0 {
				t.Errorf("exit code %d, want 0", out.ExitCode)
			}
			if diff := cmp.Diff(c.want, string(out.Stdout)); diff != "" {
				t.Errorf("host stdout (-want +got):\n%s\nfindings: %v", diff, fs)
			}
			if c.wantFind != "" && !anyFinding(fs, c.wantFind) {
				t.Errorf("no finding mentions %q; findings: %v", c.wantFind, fs)
			}
			checkHostOutput(t, tr.To, string(out.Stdout))
		})
	}
}

func anyFinding(fs []Finding, s string) bool {
	for _, f := range fs {
		if strings.Contains(f.String(), s) {
			return true
		}
	}
	return false
}

// checkHostOutput enforces T§9.1 on everything hookx prints for a host.
func checkHostOutput(t *testing.T, host *mappings.Dialect, stdout string) {
	t.Helper()
	if host.Protocol == "gemini" {
		if _, ok := geminiObject(stdout); !ok || !strings.HasPrefix(stdout, "{") {
			t.Errorf("gemini host got %q, want exactly one JSON object", stdout)
		}
		return
	}
	if stdout == "" {
		return
	}
	if _, ok := singleObject(stdout); !ok {
		t.Errorf("claude host got %q, want one {-first JSON object or nothing", stdout)
	}
	for _, bad := range []string{`"permissionDecision":"allow"`, `"decision":"approve"`} {
		if bad == `"permissionDecision":"allow"` && strings.Contains(stdout, `"updatedInput"`) && allowOnlyRewrites(host) {
			continue // Codex applies a rewrite only beside an allow that skips nothing
		}
		if strings.Contains(stdout, bad) {
			t.Errorf("claude host got %s: hookx must never grant", bad)
		}
	}
}

func TestFailureOutputFailsClosedWhereTheEventCanBlock(t *testing.T) {
	tab := mappings.Default()
	for _, c := range []struct{ host, event, want string }{
		{"gemini", "BeforeTool", `{"decision":"deny","reason":"hookx could not translate this hook call: boom"}`},
		{"gemini", "BeforeAgent", `{"decision":"deny","reason":"hookx could not translate this hook call: boom"}`},
		// An after-tool event can block too (a Gemini deny hides the
		// tool's output): it fails closed (issue 8, item 11).
		{"gemini", "AfterTool", `{"decision":"deny","reason":"hookx could not translate this hook call: boom"}`},
		{"claude", "PostToolUse", `{"decision":"block","reason":"hookx could not translate this hook call: boom"}`},
		{"claude", "PostToolUseFailure", `{"decision":"block","reason":"hookx could not translate this hook call: boom"}`},
		{"gemini", "SessionStart", `{"systemMessage":"hookx could not translate this hook call: boom"}`},
		{"claude", "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hookx could not translate this hook call: boom"}}`},
		{"claude", "UserPromptSubmit", `{"decision":"block","reason":"hookx could not translate this hook call: boom"}`},
		{"claude", "Stop", `{"systemMessage":"hookx could not translate this hook call: boom"}`},
		{"claude", "NoSuchEvent", `{"systemMessage":"hookx could not translate this hook call: boom"}`},
	} {
		out := FailureOutput(tab.MustDialect(c.host), c.event, errString("boom"))
		if got := string(out.Stdout); got != c.want {
			t.Errorf("%s %s: got %s, want %s", c.host, c.event, got, c.want)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// allowOnlyRewrites reports whether the host's allow carries a rewrite and
// grants nothing (Codex's PreToolUse).
func allowOnlyRewrites(host *mappings.Dialect) bool {
	for _, e := range host.Events {
		if e.Output.RewriteNeedsAllow && e.Output.Allow != "skips_prompt" {
			return true
		}
	}
	return false
}
