package translate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzEvent: no payload makes Event panic, and every translation it returns
// is one JSON object carrying a target event name.
func FuzzEvent(f *testing.F) {
	// Seed with every payload captured from the real agents.
	files, _ := filepath.Glob(filepath.Join("testdata", "events", "*.txtar"))
	for _, file := range files {
		ar, err := parseGolden(file)
		if err != nil {
			f.Fatal(err)
		}
		src, dst := goldenDialects(file)
		f.Add(ar.Files[0].Data, mappings.PairOf(src, dst))
		if src != "claude" && src != "gemini" {
			f.Add(ar.Files[0].Data, mappings.PairOf(src, "gemini")) // Qwen's and Droid's for a Gemini hook too
		}
	}
	// The TerminaI goldens, built from its reference (it cannot run here).
	terminai, _ := filepath.Glob(filepath.Join("testdata", "terminai", "*.txtar"))
	for _, file := range terminai {
		read := parseGolden
		if strings.HasPrefix(filepath.Base(file), "terminai.") {
			read = txtar.ParseFile
		}
		ar, err := read(file)
		if err != nil {
			f.Fatal(err)
		}
		src := strings.TrimSuffix(ar.Files[0].Name, ".json")
		for _, dst := range ar.Files[1:] {
			f.Add(ar.Files[0].Data, mappings.PairOf(src, strings.TrimSuffix(dst.Name, ".json")))
		}
	}
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"mcp__a_b__c_d","tool_input":{}}`), mappings.PairOf("claude", "gemini"))
	f.Add([]byte(`{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_response":{"llmContent":[{"text":"Exit Code: 3"}]}}`), mappings.PairOf("gemini", "claude"))
	f.Add([]byte(`{"hook_event_name":"BeforeTool","cwd":"/w","tool_name":"read_file","tool_input":{"file_path":"@a/%2E%2E%2Fb\u0000","path":"/decoy"}}`), mappings.PairOf("gemini", "claude"))
	f.Add([]byte(`{"hook_event_name":"AfterTool","cwd":"/w","tool_name":"read_file","tool_input":{"file_path":"a"},"tool_response":{"llmContent":"\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 9-2 of 1 total lines.\nAction: x\n\n--- FILE CONTENT (truncated) ---\n","returnDisplay":"Read lines 9-2"}}`), mappings.PairOf("gemini", "claude"))
	for _, pair := range mappings.DialectPairs() {
		from, _ := mappings.DialectPair(pair)
		d := mappings.Default().MustDialect(from)
		f.Add([]byte(`{"hook_event_name":"`+d.Events[0].Name+`","cwd":"/w","tool_name":"`+d.Tools[0].Name+`","tool_input":{}}`), pair)
	}
	// Payloads of the agents whose payload names no event (Copilot CLI),
	// captured live.
	own, _ := filepath.Glob(filepath.Join("testdata", "copilot", "*.json"))
	for _, file := range own {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, pair := range mappings.DialectPairs() {
			if from, _ := mappings.DialectPair(pair); from == "copilot" {
				f.Add(b, pair)
			}
		}
	}
	f.Add([]byte(`{"sessionId":"s","cwd":"w","toolName":"view","toolArgs":{"path":"~/a"}}`), mappings.PairOf("copilot", "claude"))
	// A tool argument nested past encoding/json's 10,000 levels, as a model
	// may send one: read at any depth, as JSON.parse reads it.
	deep := strings.Repeat(`{"a":[`, 5001) + `"x"` + strings.Repeat(`]}`, 5001)
	f.Add([]byte(`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"mcp__tiny__echo","tool_input":{"text":`+deep+`}}`), mappings.PairOf("claude", "gemini"))
	f.Add([]byte(`{"hook_event_name":"AfterTool","cwd":"/w","tool_name":"run_shell_command","tool_input":{"command":"ls","x":`+deep+`},"tool_response":{"llmContent":"x","returnDisplay":"x"}}`), mappings.PairOf("gemini", "claude"))
	f.Fuzz(func(t *testing.T, payload []byte, pair uint8) {
		from, to := mappings.DialectPair(pair)
		tr := newTr(t, from, to)
		res, err := tr.Event(payload)
		if err != nil || res.Skip {
			return
		}
		v, _, err := mappings.DecodeJSON(res.Payload)
		m, _ := v.(map[string]any)
		if err != nil || m == nil {
			t.Fatalf("translation is not a JSON object: %v\n%.2000s", err, res.Payload)
		}
		name, _ := m["hook_event_name"].(string)
		if tr.To.Payload.Own() {
			// Its payload names no event: the result does.
			if _, ok := m["hook_event_name"]; ok {
				t.Fatalf("a %s payload names its event: %s", to, res.Payload)
			}
			name = res.Event
		}
		if tr.To.Event(name) == nil {
			t.Fatalf("event %q is not a %s event", name, to)
		}
	})
}

// FuzzResult checks the two invariants on arbitrary hook output: a block in
// the hook's dialect is a block at the host, and nothing is granted. Where
// node is installed (always in CI), JSON.parse is the oracle: hookx must read
// the hook's stdout as the hook's own agent does, and the host's output is
// read back the way the host reads it.
func FuzzResult(f *testing.F) {
	for _, c := range resultCases {
		other := "claude"
		if c.hook == "claude" {
			other = "gemini"
		}
		f.Add(mappings.PairOf(c.hook, other), c.event, c.stdout, c.stderr, c.exit)
	}
	for _, c := range terminaiResultCases {
		f.Add(mappings.PairOf(c.hook, c.host), c.event, c.stdout, c.stderr, c.exit)
	}
	// Each pair of the table, with a hook that blocks by exit 2.
	for _, pair := range mappings.DialectPairs() {
		from, _ := mappings.DialectPair(pair)
		for _, e := range mappings.Default().MustDialect(from).Events {
			if e.Output.Guard {
				f.Add(pair, e.Name, "", "blocked by policy", 2)
			}
		}
	}
	// A rewrite and an ask, which Codex carries with an allow and as a deny.
	f.Add(mappings.PairOf("claude", "codex"), "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo safe"}}}`, "", 0)
	f.Add(mappings.PairOf("claude", "codex"), "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`, "", 0)
	f.Add(mappings.PairOf("codex", "claude"), "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"x"}}}`, "", 0)
	// Copilot's readings seen live 2026-11-27: exit 2 reads stdout off
	// preToolUse, a reasonless block is none, a non-object modifiedArgs
	// fails the call, a handled prompt never reaches the model.
	for _, c := range []struct {
		event, stdout string
		exit          int
	}{
		{"userPromptSubmitted", `{"decision":"block","reason":"no"}`, 2},
		{"agentStop", `{"decision":"block","reason":"again"}`, 2},
		{"postToolUse", `{"decision":"block","reason":"secret"}`, 2},
		{"postToolUse", `{"decision":"block"}`, 0},
		{"userPromptSubmitted", `{"decision":"block"}`, 0},
		{"preToolUse", `{"modifiedArgs":null,"updatedInput":{"command":"x"}}`, 0},
		{"preToolUse", `{"modifiedArgs":"{\"command\":\"x\"}"}`, 0},
		{"userPromptSubmitted", `{"handled":true,"responseContent":"answered"}`, 0},
		{"userPromptSubmitted", `{"modifiedPrompt":"other"}`, 0},
		{"postToolUse", `{"modifiedResult":{"resultType":"success","textResultForLlm":"x"}}`, 0},
	} {
		for _, host := range []string{"claude", "gemini", "codex", "qwen"} {
			f.Add(mappings.PairOf("copilot", host), c.event, c.stdout, "E", c.exit)
		}
	}
	f.Fuzz(func(t *testing.T, pair uint8, event, stdout, stderr string, exit int) {
		hook, host := mappings.DialectPair(pair)
		tr := newTr(t, hook, host)
		hookEv := tr.From.Event(event)
		if hookEv == nil {
			return
		}
		m, _ := tr.Table.MapEvent(tr.From, tr.To, event)
		if m.To == nil {
			return
		}
		in := Output{Stdout: []byte(stdout), Stderr: []byte(stderr), ExitCode: exit}
		out, _ := tr.Result(ResultContext{HookEvent: event, HostEvent: m.To.Name}, in)
		checkHostOutput(t, tr.To, string(out.Stdout))

		var fs findings
		v := readOutput(tr.From, hookEv, in, &fs)
		hostV := readOutput(tr.To, m.To, Output{Stdout: out.Stdout, Stderr: out.Stderr, ExitCode: out.ExitCode}, &fs)
		hb, tb := hookEv.Output.Block, m.To.Output.Block
		mustBlock := v.Block && (hb == tb || (hb == "hide_output" && tb == "feedback")) && hb != "none"
		if (v.Ask || v.Defer) && hookEv.Output.Ask && m.To.Output.Ask && !hostV.Block && !hostV.Ask {
			t.Fatalf("hook asked, host got neither ask nor deny: %s", out.Stdout)
		}
		if (v.Ask || v.Defer) && !v.Block && hookEv.Output.Guard && !m.To.Output.Ask && m.To.Output.Guard && !hostV.Block {
			t.Fatalf("hook asked, host that cannot ask did not deny: %s", out.Stdout)
		}
		if mustBlock && !hostV.Block && !(tb == "feedback" && slices.ContainsFunc(hostV.Context, func(c string) bool { return strings.Contains(c, v.Reason) })) {
			// A feedback block sends the reason to the model and lets the
			// action stand: where the host reads no block there (Copilot's
			// postToolUse), its additional context does just that.
			t.Fatalf("deny in, no deny out: hook %s %s exit %d stdout %q stderr %q → host %s", hook, event, exit, stdout, stderr, out.Stdout)
		}
		if v.Block && hb == "hide_output" && m.To.Output.StopReplacesOutput && !hostV.Stop && !(hostV.Block && tb == "hide_output") {
			t.Fatalf("hidden output in, output shown out: hook %s %s → host %s %s", hook, event, host, out.Stdout)
		}
		// A guard that decided nothing in its own agent (TerminaI's exit 2
		// with JSON on stdout) blocks nothing at the host.
		decidedNothing := !v.Block && !v.Ask && !v.Defer && v.NewInput == nil && v.Failure == "" && !v.Stop
		if decidedNothing && hookEv.Output.Guard && hostV.Block {
			t.Fatalf("no block in, block out: hook %s %s exit %d stdout %q stderr %q → host %s", hook, event, exit, stdout, stderr, out.Stdout)
		}
		if hostV.Allow {
			t.Fatalf("host output grants: %s", out.Stdout)
		}

		o := optionalOracle(t)
		if o == nil || !slices.Contains(oracleProtocols, tr.From.Protocol) || !slices.Contains(oracleProtocols, tr.To.Protocol) {
			return
		}
		want := o.read(t, tr.From.Protocol, []byte(stdout)).normalize()
		if diff := cmp.Diff(want, hookxProjection(tr.From.Protocol, []byte(stdout)).normalize()); diff != "" {
			t.Fatalf("%s reads stdout %q differently from hookx (-JSON.parse +hookx):\n%s", tr.From.Agent, stdout, diff)
		}
		hp := o.read(t, tr.To.Protocol, out.Stdout)
		// A block carried by the exit code (Claude's 2, Crush's 2 and 49) is
		// the host's own reading, not JSON on stdout for the oracle to read.
		exitBlocks := tr.To.Protocol == "claude" && (out.ExitCode == 2 ||
			len(tr.To.Reading.BlockingExits) > 0 && tr.To.Reading.Blocks(out.ExitCode))
		if mustBlock && !hp.blocks() && !exitBlocks {
			t.Fatalf("deny in, no deny out as %s reads it: hook %s %s exit %d stdout %q stderr %q → host %s", tr.To.Agent, hook, event, exit, stdout, stderr, out.Stdout)
		}
		if hp.grants() {
			t.Fatalf("host output grants as %s reads it: %s", tr.To.Agent, out.Stdout)
		}
	})
}

// oracleProtocols are the families whose agents read hook output with
// JavaScript's JSON.parse, which the node oracle runs (Copilot CLI's reader
// is native code).
var oracleProtocols = []string{"claude", "gemini"}

// optionalOracle is the node oracle, or nil where node is missing outside CI.
func optionalOracle(t *testing.T) *nodeOracle {
	if o, err := startOracle(); err == nil {
		return o
	}
	return jsOracle(t) // fails in CI; skips otherwise
}
