package translate

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
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
		if ar.Files[0].Name == "claude.json" {
			f.Add(ar.Files[0].Data, pairOf("claude", "gemini"))
		} else {
			f.Add(ar.Files[0].Data, pairOf("gemini", "claude"))
		}
	}
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"mcp__a_b__c_d","tool_input":{}}`), pairOf("claude", "gemini"))
	f.Add([]byte(`{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_response":{"llmContent":[{"text":"Exit Code: 3"}]}}`), pairOf("gemini", "claude"))
	f.Add([]byte(`{"hook_event_name":"BeforeTool","cwd":"/w","tool_name":"read_file","tool_input":{"file_path":"@a/%2E%2E%2Fb\u0000","path":"/decoy"}}`), pairOf("gemini", "claude"))
	f.Add([]byte(`{"hook_event_name":"AfterTool","cwd":"/w","tool_name":"read_file","tool_input":{"file_path":"a"},"tool_response":{"llmContent":"\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 9-2 of 1 total lines.\nAction: x\n\n--- FILE CONTENT (truncated) ---\n","returnDisplay":"Read lines 9-2"}}`), pairOf("gemini", "claude"))
	for _, pair := range dialectPairs() {
		from, _ := dialectPair(pair)
		d := mappings.Default().MustDialect(from)
		f.Add([]byte(`{"hook_event_name":"`+d.Events[0].Name+`","cwd":"/w","tool_name":"`+d.Tools[0].Name+`","tool_input":{}}`), pair)
	}
	f.Fuzz(func(t *testing.T, payload []byte, pair uint8) {
		from, to := dialectPair(pair)
		tr := newTr(t, from, to)
		res, err := tr.Event(payload)
		if err != nil || res.Skip {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(res.Payload, &m); err != nil {
			t.Fatalf("translation is not JSON: %v\n%s", err, res.Payload)
		}
		if name, _ := m["hook_event_name"].(string); tr.To.Event(name) == nil {
			t.Fatalf("hook_event_name %q is not a %s event", name, to)
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
		f.Add(pairOf(c.hook, other), c.event, c.stdout, c.stderr, c.exit)
	}
	// Each pair of the table, with a hook that blocks by exit 2.
	for _, pair := range dialectPairs() {
		from, _ := dialectPair(pair)
		for _, e := range mappings.Default().MustDialect(from).Events {
			if e.Output.Guard {
				f.Add(pair, e.Name, "", "blocked by policy", 2)
			}
		}
	}
	f.Fuzz(func(t *testing.T, pair uint8, event, stdout, stderr string, exit int) {
		hook, host := dialectPair(pair)
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
		if mustBlock && !hostV.Block {
			t.Fatalf("deny in, no deny out: hook %s %s exit %d stdout %q stderr %q → host %s", hook, event, exit, stdout, stderr, out.Stdout)
		}
		if hostV.Allow {
			t.Fatalf("host output grants: %s", out.Stdout)
		}

		o := optionalOracle(t)
		if o == nil {
			return
		}
		want := o.read(t, tr.From.Protocol, []byte(stdout)).normalize()
		if diff := cmp.Diff(want, hookxProjection(tr.From.Protocol, []byte(stdout)).normalize()); diff != "" {
			t.Fatalf("%s reads stdout %q differently from hookx (-JSON.parse +hookx):\n%s", tr.From.Agent, stdout, diff)
		}
		hp := o.read(t, tr.To.Protocol, out.Stdout)
		if mustBlock && !hp.blocks() && !(tr.To.Protocol == "claude" && out.ExitCode == 2) {
			t.Fatalf("deny in, no deny out as %s reads it: hook %s %s exit %d stdout %q stderr %q → host %s", tr.To.Agent, hook, event, exit, stdout, stderr, out.Stdout)
		}
		if hp.grants() {
			t.Fatalf("host output grants as %s reads it: %s", tr.To.Agent, out.Stdout)
		}
	})
}

// optionalOracle is the node oracle, or nil where node is missing outside CI.
func optionalOracle(t *testing.T) *nodeOracle {
	if o, err := startOracle(); err == nil {
		return o
	}
	return jsOracle(t) // fails in CI; skips otherwise
}

// dialectPair names the ordered pair of distinct dialects of the table
// that n picks (every pair for some n < len²).
func dialectPair(n uint8) (from, to string) {
	ds := mappings.Default().Dialects
	k := len(ds)
	i, j := int(n)%k, int(n)/k%k
	if i == j {
		j = (j + 1) % k
	}
	return ds[i].Name, ds[j].Name
}

// dialectPairs returns a value of dialectPair for each ordered pair.
func dialectPairs() []uint8 {
	k := len(mappings.Default().Dialects)
	var out []uint8
	for j := range k {
		for i := range k {
			if i != j {
				out = append(out, uint8(j*k+i))
			}
		}
	}
	return out
}

// pairOf is the value of dialectPair for from and to.
func pairOf(from, to string) uint8 {
	for _, n := range dialectPairs() {
		if f, t := dialectPair(n); f == from && t == to {
			return n
		}
	}
	panic("no pair " + from + " → " + to)
}
