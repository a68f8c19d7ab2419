package translate

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// TestReadCline holds hookx's reader of a Cline hook to what Cline 3.0.65's
// runner does (evidence/cline-output.jsonc): cancel refuses the call and
// ends the task, the exit code and stderr count for nothing, a field of the
// wrong type drops the whole answer, the last HOOK_CONTROL line is the
// answer. Fails on 4db2ced, which has no cline dialect.
func TestReadCline(t *testing.T) {
	d, err := mappings.Default().Dialect("cline")
	if err != nil {
		t.Fatal(err)
	}
	pre := d.Event("PreToolUse")
	cases := []struct {
		name string
		out  Output
		want Verdict
	}{
		{"cancel", Output{Stdout: []byte(`{"cancel":true,"errorMessage":"no rm"}`)},
			Verdict{Block: true, Reason: "no rm", Stop: true, StopReason: "no rm"}},
		{"cancel, reason from context", Output{Stdout: []byte(`{"cancel":true,"context":"ctx"}`)},
			Verdict{Block: true, Reason: "ctx", Stop: true, StopReason: "ctx"}},
		{"exit 2 is nothing", Output{ExitCode: 2, Stderr: []byte("no rm")}, Verdict{}},
		{"exit 2 with Claude's block", Output{ExitCode: 2, Stdout: []byte(`{"decision":"block","reason":"x"}`)}, Verdict{}},
		{"context", Output{Stdout: []byte(`{"context":"note"}`)}, Verdict{Context: []string{"note"}}},
		{"contextModification", Output{Stdout: []byte(`{"contextModification":"note"}`)}, Verdict{Context: []string{"note"}}},
		{"errorMessage without cancel is context", Output{Stdout: []byte(`{"errorMessage":"why"}`)}, Verdict{Context: []string{"why"}}},
		{"wrong type drops it all", Output{Stdout: []byte(`{"cancel":"true","context":"x"}`)}, Verdict{}},
		{"last control line", Output{Stdout: []byte("log\nHOOK_CONTROL\t{\"context\":\"a\"}\nHOOK_CONTROL\t{\"cancel\":true,\"errorMessage\":\"b\"}\n")},
			Verdict{Block: true, Reason: "b", Stop: true, StopReason: "b"}},
		{"overrideInput", Output{Stdout: []byte(`{"overrideInput":{"commands":["echo hi"]}}`)},
			Verdict{NewInput: map[string]any{"commands": []any{"echo hi"}}}},
		{"overrideInput not an object", Output{Stdout: []byte(`{"overrideInput":"rm -rf /"}`)},
			Verdict{Block: true, Reason: "the hook replaced the tool's input with something that is not an object"}},
		{"not JSON fails closed", Output{Stdout: []byte(`cancel`)},
			Verdict{Block: true, Reason: "hook produced invalid control JSON", Failure: "the hook's output is not JSON (Cline: invalid control JSON)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var fs findings
			got := readCline(pre, c.out, &fs)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClinePayload: a Cline PreToolUse payload reaches a Claude hook as
// Claude's Bash call, whatever form of run_commands' input the model used
// (Cline's schema takes a list, one string, or a bare string); and a Claude
// payload reaches a Cline hook with the input in tool_call.input and every
// parameter a string in preToolUse.parameters, as Cline sends it
// (core@707599). Fails on 4db2ced, which has no cline dialect.
func TestClinePayload(t *testing.T) {
	envelope := `{"clineVersion":"3.0.65","hookName":"tool_call","timestamp":"2026-11-27T10:00:00.000Z","taskId":"t1","workspaceRoots":["/p"],"userId":"u","agent_id":"a","parent_agent_id":null,"iteration":1,"tool_call":{"id":"c1","name":"run_commands","input":INPUT},"preToolUse":{"toolName":"run_commands","parameters":{}}}`
	for _, c := range []struct{ input, want string }{
		{`{"commands":["rm -rf /x"]}`, "rm -rf /x"},
		{`{"commands":["ls","rm -rf /x"]}`, "ls\nrm -rf /x"},
		{`{"commands":"rm -rf /x"}`, "rm -rf /x"},
		{`{"command":"rm -rf /x"}`, "rm -rf /x"},
		{`"rm -rf /x"`, "rm -rf /x"},
		{`["rm -rf /x"]`, "rm -rf /x"},
		// {command, args} runs the executable with argv (core@166853, m4):
		// a guard saw "rm" alone and let rm -rf /x run.
		{`{"command":"rm","args":["-rf","/x"]}`, "rm -rf /x"},
		{`{"command":"sh","args":["-c","rm -rf /x; echo $(id)"]}`, "sh -c 'rm -rf /x; echo $(id)'"},
		{`{"command":"rm -rf /x","args":[]}`, "rm -rf /x"},
	} {
		tr := newTr(t, "cline", "claude")
		res, err := tr.Event([]byte(strings.Replace(envelope, "INPUT", c.input, 1)))
		if err != nil {
			t.Fatalf("%s: %v", c.input, err)
		}
		var got struct {
			Event string         `json:"hook_event_name"`
			Tool  string         `json:"tool_name"`
			Input map[string]any `json:"tool_input"`
			Cwd   string         `json:"cwd"`
		}
		if err := json.Unmarshal(res.Payload, &got); err != nil {
			t.Fatal(err)
		}
		if got.Event != "PreToolUse" || got.Tool != "Bash" || got.Input["command"] != c.want || got.Cwd != "/p" {
			t.Errorf("%s: got %s, want Bash with command %q in /p", c.input, res.Payload, c.want)
		}
	}

	// An argv a guard cannot be shown as it runs: fail closed.
	for _, input := range []string{`{"command":"rm","args":["-rf",1]}`, `{"command":"rm","args":"-rf /x"}`, `{"command":"rm","args":["-rf","/x\u0000"]}`} {
		tr := newTr(t, "cline", "claude")
		if res, err := tr.Event([]byte(strings.Replace(envelope, "INPUT", input, 1))); err == nil {
			t.Errorf("%s: a Claude guard is shown %s, want an error (fail closed)", input, res.Payload)
		}
	}

	tr := newTr(t, "claude", "cline")
	res, err := tr.Event([]byte(`{"hook_event_name":"PreToolUse","session_id":"s1","cwd":"/p","tool_name":"Bash","tool_input":{"command":"rm -rf /x"},"tool_use_id":"tu1"}`))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(res.Payload, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"hookName":       "tool_call",
		"taskId":         "s1",
		"workspaceRoots": []any{"/p"},
		"tool_call":      map[string]any{"name": "run_commands", "input": map[string]any{"commands": []any{"rm -rf /x"}}},
		"preToolUse":     map[string]any{"toolName": "run_commands", "parameters": map[string]any{"commands": `["rm -rf /x"]`}},
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			delete(got, k)
		}
	}
	if call, ok := got["tool_call"].(map[string]any); ok {
		if id, _ := call["id"].(string); id == "" {
			t.Errorf("tool_call.id is empty: %s", res.Payload)
		}
		delete(call, "id")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Cline payload (-want +got):\n%s\n%s", diff, res.Payload)
	}
}

// clineCall is a Cline PreToolUse payload for tool with input (raw JSON).
func clineCall(tool, input string) []byte {
	return []byte(`{"clineVersion":"3.0.65","hookName":"tool_call","taskId":"t1","workspaceRoots":["/p"],"tool_call":{"id":"c1","name":"` + tool + `","input":` + input + `},"preToolUse":{"toolName":"` + tool + `","parameters":{}}}`)
}

// TestClineHostAnswer: a guard's deny of a shell call reaches Cline as the
// deny its own agent means (the call does not run, the model learns why,
// the task goes on): overrideInput replacing run_commands, whatever form
// of its input union the model used, with a command that only prints the
// reason, plus the reason as context. A deny of a tool with no harmless
// replacement is cancel, which ends the task (Cline reads no exit code:
// exit 2 would let the call run); so is a stop. Context is context. Fails
// on i30-cline3 (a46bf16), which answered every deny with cancel.
func TestClineHostAnswer(t *testing.T) {
	const printRM = `printf 'A hook refused this command; it did not run: %s\n' 'no rm'`
	replaced := `{"overrideInput":{"commands":["` + strings.ReplaceAll(printRM, `\`, `\\`) + `"]},"context":"no rm"}`
	claudeDeny := Output{ExitCode: 2, Stderr: []byte("no rm")}
	for _, c := range []struct {
		from, event string
		payload     []byte
		out         Output
		want        string
	}{
		{"claude", "PreToolUse", clineCall("run_commands", `{"commands":["rm -rf /x"]}`), claudeDeny, replaced},
		{"claude", "PreToolUse", clineCall("run_commands", `{"commands":["ls","rm -rf /x"]}`), claudeDeny, replaced},
		{"claude", "PreToolUse", clineCall("run_commands", `{"commands":"rm -rf /x"}`), claudeDeny, replaced},
		{"claude", "PreToolUse", clineCall("run_commands", `{"command":"rm -rf /x"}`), claudeDeny, replaced},
		{"claude", "PreToolUse", clineCall("run_commands", `{"cmd":"rm -rf /x"}`), claudeDeny, replaced},
		{"claude", "PreToolUse", clineCall("run_commands", `"rm -rf /x"`), claudeDeny, replaced},
		{"claude", "PreToolUse", clineCall("run_commands", `["rm -rf /x"]`), claudeDeny, replaced},
		{"claude", "PreToolUse", clineCall("run_commands", `{"commands":[{"command":"rm","args":["-rf","/x"]}]}`), claudeDeny, replaced},
		{"gemini", "BeforeTool", clineCall("run_commands", `{"commands":["rm -rf /x"]}`), Output{Stdout: []byte(`{"decision":"deny","reason":"no rm"}`)}, replaced},
		{"codex", "PreToolUse", clineCall("run_commands", `{"commands":["rm -rf /x"]}`), Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`)}, replaced},
		// A deny and context: both reach the model.
		{"claude", "PreToolUse", clineCall("run_commands", `{"commands":["rm -rf /x"]}`),
			Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm","additionalContext":"see docs"}}`)},
			strings.Replace(replaced, `"context":"no rm"`, `"context":"no rm\nsee docs"`, 1)},
		// No harmless replacement: cancel, which ends the task.
		{"claude", "PreToolUse", clineCall("editor", `{"path":"/p/.env","new_text":"K=1"}`), claudeDeny, `{"cancel":true,"errorMessage":"no rm"}`},
		{"claude", "PreToolUse", clineCall("read_files", `{"files":[{"path":"/p/.env"}]}`), claudeDeny, `{"cancel":true,"errorMessage":"no rm"}`},
		{"claude", "PreToolUse", nil, claudeDeny, `{"cancel":true,"errorMessage":"no rm"}`},
		// A stop ends the task, as the hook asked.
		{"claude", "PreToolUse", clineCall("run_commands", `{"commands":["rm -rf /x"]}`),
			Output{Stdout: []byte(`{"continue":false,"stopReason":"halt","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`)},
			`{"cancel":true,"errorMessage":"no rm"}`},
		{"claude", "PreToolUse", clineCall("run_commands", `{"commands":["ls"]}`), Output{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"note"}}`)}, `{"context":"note"}`},
	} {
		tr := newTr(t, c.from, "cline")
		got, _ := tr.Result(ResultContext{HookEvent: c.event, HostEvent: "PreToolUse", HostPayload: c.payload}, c.out)
		if string(got.Stdout) != c.want || got.ExitCode != 0 {
			t.Errorf("%s %s %s %+v: Cline gets stdout %s exit %d, want %s", c.from, c.event, c.payload, c.out, got.Stdout, got.ExitCode, c.want)
		}
	}
}

// TestClineDenyReadsAsDeny: the answer hookx gives Cline for a refused shell
// call reads back, by Cline's rules, as the deny it is (hookx test's
// matrix, a Cline hook written by hookx run elsewhere); a replacement that
// differs by one byte is a rewrite. Fails on i30-cline3 (a46bf16), which
// read it as a rewrite.
func TestClineDenyReadsAsDeny(t *testing.T) {
	d := mappings.Default().MustDialect("cline")
	pre := d.Event("PreToolUse")
	for _, c := range []struct {
		name, stdout string
		want         Verdict
	}{
		{"hookx's deny", `{"overrideInput":{"commands":["printf 'A hook refused this command; it did not run: %s\\n' 'no rm'"]},"context":"no rm"}`,
			Verdict{Block: true, Reason: "no rm"}},
		{"its reason without context", `{"overrideInput":{"commands":["printf 'A hook refused this command; it did not run: %s\\n' 'no rm'"]}}`,
			Verdict{Block: true, Reason: "no rm"}},
		{"another command", `{"overrideInput":{"commands":["printf 'A hook refused this command; it did not run: %s\\n' 'no rm';rm -rf /"]},"context":"no rm"}`,
			Verdict{Context: []string{"no rm"}, NewInput: map[string]any{"commands": []any{`printf 'A hook refused this command; it did not run: %s\n' 'no rm';rm -rf /`}}}},
		{"two commands", `{"overrideInput":{"commands":["printf 'A hook refused this command; it did not run: %s\\n' 'no rm'","rm -rf /"]},"context":"no rm"}`,
			Verdict{Context: []string{"no rm"}, NewInput: map[string]any{"commands": []any{`printf 'A hook refused this command; it did not run: %s\n' 'no rm'`, "rm -rf /"}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var fs findings
			got := readCline(pre, Output{Stdout: []byte(c.stdout)}, &fs)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
		})
	}
}

// hostileCommands and hostileReasons are the fuzz seeds of FuzzClineDeny
// and the cases of TestClineDenyCommandInBash: what a model could put in a
// command and a guard echo back in its reason.
var (
	hostileCommands = []string{
		"rm -rf /",
		"rm -rf / $(touch pwned) `touch pwned`\n'\";",
		"'; touch pwned; echo '",
		"\"; touch pwned; echo \"",
		"a\x00b; touch pwned",
		"echo \u2028; touch pwned\u2029",
		strings.Repeat("$(touch pwned)", 5000),
	}
	hostileReasons = []string{
		"no rm -rf",
		"",
		"blocked: rm -rf / $(touch pwned) `touch pwned`",
		"it's 'quoted' \"twice\" \\ and ${HOME} $HOME ~ * ? [a] {a,b} # ; | & > < !",
		"line one\nline two\r\n; touch pwned",
		"nul\x00; touch pwned",
		"sep\u2028; touch pwned\u2029\u0085\u202e",
		"\xff\xfe invalid utf-8 '; touch pwned",
		"%s %n %% %b \\n -v x",
		"-v x",
		strings.Repeat("'$(touch pwned)`touch pwned`", 20000),
	}
)

// FuzzClineDeny proves that the command replacing a refused shell call on
// Cline cannot run any part of the refused input: for hostile commands (in
// every form of run_commands' input union) and hostile reasons, the
// replacement, parsed with mvdan.cc/sh as bash parses it, is exactly one
// simple printf call with the fixed format, whose arguments are literal
// (no expansion, substitution, redirection or assignment); it is the same
// whatever the command; and it holds no byte of the command that is not in
// the reason or in its fixed text.
func FuzzClineDeny(f *testing.F) {
	for _, cmd := range hostileCommands {
		for _, reason := range hostileReasons {
			f.Add(cmd, reason, uint8(0))
		}
	}
	for form := range uint8(7) {
		f.Add("rm -rf / $(touch pwned)", "no '$(x)'", form)
	}
	tr := newTr(f, "claude", "cline")
	forms := []func(string) string{
		func(c string) string { return `{"commands":[` + jsonString(c) + `]}` },
		func(c string) string { return `{"commands":["ls",` + jsonString(c) + `]}` },
		func(c string) string { return `{"commands":` + jsonString(c) + `}` },
		func(c string) string { return `{"command":` + jsonString(c) + `}` },
		func(c string) string { return `{"cmd":` + jsonString(c) + `}` },
		func(c string) string { return jsonString(c) },
		func(c string) string { return `[{"command":` + jsonString(c) + `,"args":[` + jsonString(c) + `]}]` },
	}
	deny := func(t *testing.T, cmd, reason string, form uint8) (string, string) {
		payload := clineCall("run_commands", forms[int(form)%len(forms)](cmd))
		out, _ := tr.Result(ResultContext{HookEvent: "PreToolUse", HostEvent: "PreToolUse", HostPayload: payload}, Output{ExitCode: 2, Stderr: []byte(reason)})
		var answer struct {
			Override map[string]json.RawMessage `json:"overrideInput"`
			Context  string                     `json:"context"`
			Cancel   bool                       `json:"cancel"`
		}
		if err := json.Unmarshal(out.Stdout, &answer); err != nil {
			t.Fatalf("Cline gets %q: %v", out.Stdout, err)
		}
		var cmds []string
		if len(answer.Override) != 1 || json.Unmarshal(answer.Override["commands"], &cmds) != nil || len(cmds) != 1 || answer.Cancel {
			t.Fatalf("Cline gets %s, want overrideInput {commands: [one command]} and no cancel", out.Stdout)
		}
		return cmds[0], answer.Context
	}
	f.Fuzz(func(t *testing.T, cmd, reason string, form uint8) {
		got, ctx := deny(t, cmd, reason, form)
		if other, _ := deny(t, "ls", reason, 0); other != got {
			t.Fatalf("the replacement depends on the command: %q for %q, %q for ls", got, cmd, other)
		}
		args := literalCall(t, got)
		if len(args) != 3 || args[0] != "printf" || args[1] != clineDenyFormat {
			t.Fatalf("replacement %q is %q, want printf %q and one argument", got, args, clineDenyFormat)
		}
		// What is printed comes from the reason (as the host reads it: the
		// context), a rune that does not print as a space, ' as ’.
		for _, r := range args[2] {
			if r != ' ' && r != '’' && !strings.ContainsRune(ctx, r) {
				t.Fatalf("replacement %q prints %q, which is not in the reason %q", got, r, ctx)
			}
		}
		fixed := "printf " + clineDenyFormat + "'’ "
		for i := 0; i < len(got); i++ {
			b := got[i]
			if strings.IndexByte(cmd, b) >= 0 && strings.IndexByte(ctx, b) < 0 && strings.IndexByte(fixed, b) < 0 {
				t.Fatalf("replacement %q holds byte %q of the command %q, which the reason %q does not", got, b, cmd, ctx)
			}
		}
	})
}

// literalCall parses src as bash does and returns the words of its one
// simple command, each expanded, failing unless src is exactly one simple
// command whose words are all literal text.
func literalCall(t *testing.T, src string) []string {
	t.Helper()
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatalf("replacement %q does not parse: %v", src, err)
	}
	if len(file.Stmts) != 1 {
		t.Fatalf("replacement %q is %d statements", src, len(file.Stmts))
	}
	st := file.Stmts[0]
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(call.Assigns) > 0 {
		t.Fatalf("replacement %q is not one simple command", src)
	}
	var words []string
	for _, w := range call.Args {
		for _, p := range w.Parts {
			switch p := p.(type) {
			case *syntax.Lit:
			case *syntax.SglQuoted:
				if p.Dollar {
					t.Fatalf("replacement %q has a $'...' word", src)
				}
			default:
				t.Fatalf("replacement %q has a word part %T, which is not literal", src, p)
			}
		}
		s, err := expand.Literal(nil, w)
		if err != nil {
			t.Fatalf("replacement %q: %v", src, err)
		}
		words = append(words, s)
	}
	return words
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestClineDenyCommandInBash runs each replacement in bash, the shell Cline
// runs commands with: it prints the reason with the fixed text and nothing
// else, and touches nothing.
func TestClineDenyCommandInBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, reason := range hostileReasons {
		dir := t.TempDir()
		cmd := clineDenyCommand(reason)
		run := exec.Command(bash, "-c", cmd)
		run.Dir = dir
		run.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
		out, err := run.CombinedOutput()
		if err != nil {
			t.Fatalf("bash -c %q: %v\n%s", cmd, err, out)
		}
		words := literalCall(t, cmd)
		if want := strings.Replace(strings.TrimSuffix(clineDenyFormat, `\n`), "%s", words[2], 1) + "\n"; string(out) != want {
			t.Errorf("bash -c %q printed %q, want %q", cmd, out, want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("bash -c %q wrote %s", cmd, entries[0].Name())
		}
	}
}

// TestClineEditorIsAWrite: Cline's editor writes new_text as the whole file
// when the file does not exist, with or without old_text (r4,
// core@213001), so a Claude Write guard under Cline checks new_text as its
// content; only insert_line makes it an insert, with no content. And a
// Claude Write reaches a Cline hook as the editor call Cline would send to
// create the file, its content as new_text. Fails on i30-cline3 (a46bf16),
// where the Write guard got no content and the Cline hook no new_text.
func TestClineEditorIsAWrite(t *testing.T) {
	envelope := `{"clineVersion":"3.0.65","hookName":"tool_call","taskId":"t1","workspaceRoots":["/p"],"tool_call":{"id":"c1","name":"editor","input":INPUT},"preToolUse":{"toolName":"editor","parameters":{}}}`
	for _, c := range []struct {
		input   string
		content any // nil: no content
	}{
		{`{"path":"/p/.env","new_text":"API_KEY=1"}`, "API_KEY=1"},
		{`{"path":"/p/.env","old_text":null,"new_text":"API_KEY=1"}`, "API_KEY=1"},
		{`{"path":"/p/.env","old_text":"x","new_text":"API_KEY=1"}`, "API_KEY=1"},
		{`{"path":"/p/.env","new_text":"API_KEY=1","insert_line":null}`, "API_KEY=1"},
		{`{"path":"/p/.env","new_text":"API_KEY=1","insert_line":2}`, nil},
	} {
		tr := newTr(t, "cline", "claude")
		m, err := tr.To.ToolMatcher("Write")
		if err != nil {
			t.Fatal(err)
		}
		tr.Match = m
		res, err := tr.Event([]byte(strings.Replace(envelope, "INPUT", c.input, 1)))
		if err != nil {
			t.Fatalf("%s: %v", c.input, err)
		}
		var got struct {
			Tool  string         `json:"tool_name"`
			Input map[string]any `json:"tool_input"`
		}
		if err := json.Unmarshal(res.Payload, &got); err != nil {
			t.Fatal(err)
		}
		if got.Tool != "Write" || got.Input["file_path"] != "/p/.env" || got.Input["content"] != c.content {
			t.Errorf("%s: a Claude Write guard got %s, want Write of /p/.env with content %v", c.input, res.Payload, c.content)
		}
	}

	tr := newTr(t, "claude", "cline")
	res, err := tr.Event([]byte(`{"hook_event_name":"PreToolUse","session_id":"s1","cwd":"/p","tool_name":"Write","tool_input":{"file_path":"/p/.env","content":"API_KEY=1"},"tool_use_id":"tu1"}`))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Call struct {
			Name  string         `json:"name"`
			Input map[string]any `json:"input"`
		} `json:"tool_call"`
		Pre struct {
			Parameters map[string]any `json:"parameters"`
		} `json:"preToolUse"`
	}
	if err := json.Unmarshal(res.Payload, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"path": "/p/.env", "new_text": "API_KEY=1"}
	if got.Call.Name != "editor" || !cmp.Equal(got.Call.Input, want) || !cmp.Equal(got.Pre.Parameters, want) {
		t.Errorf("a Cline hook got %s, want editor with input and parameters %v", res.Payload, want)
	}
}

// TestClineApplyPatchFailsAGuardClosed: Cline writes files with apply_patch
// instead of editor for GPT and Codex models (core@229929); a Claude
// Write|Edit guard was not run on it (its matcher named no tool standing
// for an unknown one) and the patch wrote .env. Until the patch is carried,
// a write or edit guard fails closed on it. Fails on a69df98..stage34 (no
// apply_patch row: the call passed on as an unknown tool).
func TestClineApplyPatchFailsAGuardClosed(t *testing.T) {
	for _, input := range []string{
		`{"input":"*** Begin Patch\n*** Add File: .env\n+K=1\n*** End Patch"}`,
		`"*** Begin Patch\n*** Add File: .env\n+K=1\n*** End Patch"`,
	} {
		tr := newTr(t, "cline", "claude")
		res, err := tr.Event(clineCall("apply_patch", input))
		if err == nil || !strings.Contains(err.Error(), "changes files") {
			t.Errorf("%s: a Claude guard is shown %s (err %v), want it to fail closed", input, res.Payload, err)
		}
	}
}

// TestClineReadFilesFormsFailAGuardClosed: read_files' input union also
// takes a bare path, a list of paths, {path} and [{path}] (core@166853,
// dU); a Claude Read guard was shown {} (no file_path) for each and let
// Cline read .env. Until they are carried, a guard fails closed on them;
// the forms hookx carries still reach the guard with the path. Fails on
// stage34.
func TestClineReadFilesFormsFailAGuardClosed(t *testing.T) {
	for _, input := range []string{`"/p/.env"`, `["/p/.env"]`, `{"path":"/p/.env"}`, `[{"path":"/p/.env"}]`, `{"files":"/p/.env"}`, `{"files":{"path":"/p/.env"}}`, `{"paths":"/p/.env"}`} {
		tr := newTr(t, "cline", "claude")
		if res, err := tr.Event(clineCall("read_files", input)); err == nil {
			t.Errorf("%s: a Claude guard is shown %s, want it to fail closed", input, res.Payload)
		}
	}
	for _, input := range []string{`{"files":[{"path":"/p/.env"}]}`, `{"files":["/p/.env"]}`} {
		tr := newTr(t, "cline", "claude")
		res, err := tr.Event(clineCall("read_files", input))
		if err != nil || !strings.Contains(string(res.Payload), `"file_path":"/p/.env"`) {
			t.Errorf("%s: got %v %v, want a Read of /p/.env", input, res, err)
		}
	}
}

// TestClineReadPathsAsClineReadsThem: read_files reads each path as Z7
// does (core@215082): an absolute one normalized, a relative one against
// Cline's own process directory, which no payload names. A Claude Read
// guard, whose agent gives absolute paths, was shown "/p/sub/../.env" and
// ".env" as written (its check of /p/.env let both through): it now gets
// /p/.env, and fails closed on the relative path. A missing file whose
// name Cline may read under another spelling (a macOS variant, unicode
// whitespace) fails closed too. Fails on d8237c0.
func TestClineReadPathsAsClineReadsThem(t *testing.T) {
	for _, c := range []struct{ input, want string }{
		{`{"files":[{"path":"/p/sub/../.env"}]}`, `"file_path":"/p/.env"`},
		{`{"files":["/p//.env"]}`, `"file_path":"/p/.env"`},
		{`{"files":[{"path":".env"}]}`, "error"},
		{`{"files":[{"path":"/p/Screenshot 2026 at 1.02 PM.png"}]}`, "error"},
		{`{"files":[{"path":"/p/it's"}]}`, "error"},
	} {
		tr := newTr(t, "cline", "claude")
		res, err := tr.Event(clineCall("read_files", c.input))
		switch {
		case c.want == "error" && err == nil:
			t.Errorf("%s: a Claude guard is shown %s, want it to fail closed", c.input, res.Payload)
		case c.want != "error" && (err != nil || !strings.Contains(string(res.Payload), c.want)):
			t.Errorf("%s: got %v %v, want %s", c.input, res, err, c.want)
		}
	}
	// Gemini's hooks get paths as the model wrote them: the path as written.
	tr := newTr(t, "cline", "gemini")
	if res, err := tr.Event(clineCall("read_files", `{"files":[{"path":"sub/../.env"}]}`)); err != nil || !strings.Contains(string(res.Payload), `sub/../.env`) {
		t.Errorf("gemini: got %v %v, want the path as written", res, err)
	}
}
