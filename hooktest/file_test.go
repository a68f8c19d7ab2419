package hooktest

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/internal/findings/findingstest"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tailscale/hujson"
)

func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, data []byte) error {
	t.Helper()
	std, err := hujson.Standardize(data)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(std))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(v)
}

// TestSchemaAgreesWithParse: the schema --schema prints accepts what Parse
// accepts and rejects the shapes Parse rejects.
func TestSchemaAgreesWithParse(t *testing.T) {
	s := schema(t)
	tbl := mappings.Default()
	for _, tc := range []struct {
		name, doc string
		ok        bool
	}{
		{"command hook", `{"cases":[{"name":"a","hook":{"command":"x","dialect":"claude"},"event":{"name":"shell","command":"ls"},"expect":{"outcome":"allow"}}]}`, true},
		{"comments and commas", "{\n// c\n\"cases\":[{\"name\":\"a\",\"hook\":{\"command\":\"x\",\"dialect\":\"claude\",},\"event\":{\"name\":\"stop\"},\"expect\":{\"outcome\":\"continue\",\"reason\":\"x\"}},],}", true},
		{"settings hook", `{"cases":[{"name":"a","hook":{"settings":".claude/settings.json","event":"PreToolUse","matcher":"Bash"},"event":{"name":"write","path":".env"},"expect":{"outcome":"deny","reason":"env"}}]}`, true},
		{"settings hook picked by command", `{"cases":[{"name":"a","hook":{"settings":".claude/settings.json","event":"Stop","command":"x"},"event":{"name":"stop"},"expect":{"outcome":"allow"}}]}`, true},
		{"inline event", `{"cases":[{"name":"a","hook":{"command":"x","dialect":"gemini"},"event":{"dialect":"claude","payload":{"hook_event_name":"Stop"}},"expect":{"outcome":"rewrite","input":{"command":"y"}},"hosts":["claude"]}]}`, true},
		{"no cases", `{"cases":[]}`, false},
		{"unknown key", `{"cases":[{"name":"a","hook":{"command":"x","dialect":"claude"},"event":{"name":"shell"},"expect":{"outcome":"allow"},"extra":1}]}`, false},
		{"command without dialect", `{"cases":[{"name":"a","hook":{"command":"x"},"event":{"name":"shell"},"expect":{"outcome":"allow"}}]}`, false},
		{"settings without event", `{"cases":[{"name":"a","hook":{"settings":"s.json"},"event":{"name":"shell"},"expect":{"outcome":"allow"}}]}`, false},
		{"name and payload", `{"cases":[{"name":"a","hook":{"command":"x","dialect":"claude"},"event":{"name":"shell","dialect":"claude","payload":{}},"expect":{"outcome":"allow"}}]}`, false},
		{"payload without dialect", `{"cases":[{"name":"a","hook":{"command":"x","dialect":"claude"},"event":{"payload":{}},"expect":{"outcome":"allow"}}]}`, false},
		{"unknown event", `{"cases":[{"name":"a","hook":{"command":"x","dialect":"claude"},"event":{"name":"teleport"},"expect":{"outcome":"allow"}}]}`, false},
		{"unknown outcome", `{"cases":[{"name":"a","hook":{"command":"x","dialect":"claude"},"event":{"name":"shell"},"expect":{"outcome":"block"}}]}`, false},
		{"no expect", `{"cases":[{"name":"a","hook":{"command":"x","dialect":"claude"},"event":{"name":"shell"}}]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			verr := validate(t, s, []byte(tc.doc))
			_, perr := Parse("f", []byte(tc.doc), tbl)
			if (verr == nil) != tc.ok {
				t.Errorf("schema: %v, want ok=%v", verr, tc.ok)
			}
			if (perr == nil) != tc.ok {
				t.Errorf("Parse: %v, want ok=%v", perr, tc.ok)
			}
		})
	}
}

// TestScriptFilesFollowSchema: every test file of the hookx test scripts
// follows the schema, except those of the script about bad files and
// those named bad*.
func TestScriptFilesFollowSchema(t *testing.T) {
	s := schema(t)
	scripts, _ := filepath.Glob("../cmd/hookx/testdata/script/test_*.txtar")
	if len(scripts) == 0 {
		t.Fatal("no hookx test scripts")
	}
	n := 0
	for _, p := range scripts {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if !strings.HasSuffix(f.Name, ".jsonc") || strings.HasPrefix(f.Name, "bad") || strings.HasSuffix(p, "test_bad_file.txtar") && f.Name == "hookx-test.jsonc" {
				continue
			}
			n++
			if err := validate(t, s, f.Data); err != nil {
				t.Errorf("%s: %s: %v", filepath.Base(p), f.Name, err)
			}
		}
	}
	if n < 5 {
		t.Errorf("only %d files checked", n)
	}
}

// TestJudge: what the host does with a verdict, in the author's terms, and
// whether it is what the case expects.
func TestJudge(t *testing.T) {
	tbl := mappings.Default()
	claude, _ := tbl.Dialect("claude")
	pre, stop := claude.Event("PreToolUse"), claude.Event("Stop")
	for _, tc := range []struct {
		name   string
		want   Expect
		ev     *mappings.Event
		v      translate.Verdict
		did    string
		pass   bool
		reason string
	}{
		{"deny matches", Expect{Outcome: "deny", Reason: "^no rm"}, pre, translate.Verdict{Block: true, Reason: "no rm -rf"}, "deny", true, "no rm -rf"},
		{"deny, other reason", Expect{Outcome: "deny", Reason: "secret"}, pre, translate.Verdict{Block: true, Reason: "no rm"}, "deny", false, "no rm"},
		{"deny expected, allowed", Expect{Outcome: "deny"}, pre, translate.Verdict{}, "allow", false, ""},
		{"a failure is an allow", Expect{Outcome: "deny"}, pre, translate.Verdict{Failure: "exited 1"}, "allow", false, ""},
		{"a block on stop continues", Expect{Outcome: "continue"}, stop, translate.Verdict{Block: true, Reason: "tests"}, "continue", true, "tests"},
		{"a block on stop is no deny", Expect{Outcome: "deny"}, stop, translate.Verdict{Block: true}, "continue", false, ""},
		{"ask", Expect{Outcome: "ask"}, pre, translate.Verdict{Ask: true, AskReason: "sure?"}, "ask", true, "sure?"},
		{"defer is ask", Expect{Outcome: "ask"}, pre, translate.Verdict{Defer: true}, "ask", true, ""},
		{"ask is no allow", Expect{Outcome: "allow"}, pre, translate.Verdict{Ask: true}, "ask", false, ""},
		{"context", Expect{Outcome: "context", Context: "go test"}, pre, translate.Verdict{Context: []string{"run go test"}}, "context", true, "run go test"},
		{"context missing the text", Expect{Outcome: "context", Context: "lint"}, pre, translate.Verdict{Context: []string{"run go test"}}, "context", false, "run go test"},
		{"context allows", Expect{Outcome: "allow"}, pre, translate.Verdict{Context: []string{"x"}}, "context", true, "x"},
		{"rewrite", Expect{Outcome: "rewrite", Input: map[string]any{"command": "ls -a"}}, pre, translate.Verdict{NewInput: map[string]any{"command": "ls -a", "x": 1}}, "rewrite", true, `{"command":"ls -a","x":1}`},
		{"rewrite to other input", Expect{Outcome: "rewrite", Input: map[string]any{"command": "ls"}}, pre, translate.Verdict{NewInput: map[string]any{"command": "ls -a"}}, "rewrite", false, `{"command":"ls -a"}`},
		{"an ignored idiom runs the action", Expect{Outcome: "deny"}, pre, translate.Verdict{Block: true, Reason: "no", Ignored: `{"decision":"deny"} is invalid in Claude Code`}, "allow", false, ""},
		{"deny beats rewrite", Expect{Outcome: "rewrite"}, pre, translate.Verdict{Block: true, NewInput: map[string]any{}}, "deny", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c Cell
			judge(&c, tc.want, claude, "claude", tc.ev, tc.v, translate.Output{})
			got := []any{c.Did, c.Pass, c.Reason}
			if diff := cmp.Diff([]any{tc.did, tc.pass, tc.reason}, got); diff != "" {
				t.Errorf("(-want +got):\n%s (why %q)", diff, c.Why)
			}
			if !c.Pass && c.Why == "" {
				t.Error("a failure says no why")
			}
		})
	}
}

// TestJSONFollowsFindingsSchema: --json is the project's one findings
// document, a finding per failed cell.
func TestJSONFollowsFindingsSchema(t *testing.T) {
	cells := []Cell{
		{Case: "a", Host: "claude", Ran: true, Pass: true, Expect: "deny", Did: "deny", Reason: "no", Agent: "claude", Event: "PreToolUse"},
		{Case: "a", Host: "gemini", Ran: true, Expect: "ask", Did: "deny", Why: "expected ask", Agent: "claude", Event: "PreToolUse", Matcher: "Bash", Command: "x", File: ".claude/settings.json"},
		{Case: "b", Host: "codex", Ran: true, Expect: "allow", Did: "no answer", Why: "no answer within hookx test's 10s limit", Agent: "claude", Event: "PreToolUse"},
		{Case: "a", Host: "terminai"},
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, cells); err != nil {
		t.Fatal(err)
	}
	findingstest.Validate(t, b.Bytes())
	var d struct {
		Findings []struct{ RuleID, Host, Problem string }
	}
	if err := json.Unmarshal(b.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	want := []struct{ RuleID, Host, Problem string }{
		{"fail", "gemini", "a: expected ask; the host would deny"},
		{"fail", "codex", "b: no answer within hookx test's 10s limit"},
	}
	if diff := cmp.Diff(want, d.Findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// TestParseSyntax: what a test file may and may not be, deliberately: JSONC
// as hujson reads it (comments, trailing commas, CRLF, a leading byte order
// mark), and never a key written twice or in other case, which
// encoding/json would take silently (the last one, or the folded one).
func TestParseSyntax(t *testing.T) {
	const c = `{"name": "a", "hook": {"command": "x", "dialect": "claude"}, "event": {"name": "shell", "command": "ls"}, "expect": {"outcome": "allow"}}`
	for _, tc := range []struct {
		name, doc string
		err       string // "" accepts
	}{
		{"plain", `{"cases": [` + c + `]}`, ""},
		{"comments", "// hooks of this repo\n{\"cases\": [/* one */" + c + "]} // end\n", ""},
		{"trailing commas", `{"cases": [` + c[:len(c)-1] + `,},],}`, ""},
		{"CRLF", "{\r\n\"cases\": [\r\n" + c + "\r\n]\r\n}\r\n", ""},
		{"byte order mark", "\uFEFF{\"cases\": [" + c + "]}", ""},
		{"duplicate key in a case", "{\"cases\": [\n{\"name\": \"a\",\n \"expect\": {\"outcome\": \"deny\"},\n \"hook\": {\"command\": \"x\", \"dialect\": \"claude\"}, \"event\": {\"name\": \"shell\"},\n \"expect\": {\"outcome\": \"allow\"}}]}",
			`f.jsonc:5:2: the key "expect" is written again (first at line 3)`},
		{"duplicate top-level key", "{\"cases\": [" + c + "],\n\"cases\": []}", `f.jsonc:2:1: the key "cases" is written again (first at line 1)`},
		{"duplicate in other case", "{\"cases\": [" + c + "],\n\"Cases\": []}", `f.jsonc:2:1: the key "Cases" is written again (first at line 1)`},
		{"duplicate in a payload", "{\"cases\": [{\"name\": \"a\", \"hook\": {\"command\": \"x\", \"dialect\": \"claude\"}, \"event\": {\"dialect\": \"claude\", \"payload\": {\"hook_event_name\": \"Stop\",\n \"hook_event_name\": \"Stop\"}}, \"expect\": {\"outcome\": \"allow\"}}]}",
			`f.jsonc:2:2: the key "hook_event_name" is written again (first at line 1)`},
		{"key in other case", `{"Cases": [` + c + `]}`, `f.jsonc:1:2: the key "Cases" is "cases" (keys are case-sensitive)`},
		// encoding/json folds ſ (U+017F) to s and the Kelvin sign to k:
		// the second key replaced the first unseen.
		{"duplicate by Unicode folding", "{\"cases\": [" + c + "],\n\"ca\u017fes\": []}", `f.jsonc:2:1: the key "caſes" is written again (first at line 1)`},
		{"duplicate by the Kelvin sign", "{\"cases\": [{\"name\": \"a\", \"hook\": {\"command\": \"x\", \"dialect\": \"claude\"},\n \"hoo\u212a\": {\"command\": \"y\", \"dialect\": \"claude\"}, \"event\": {\"name\": \"shell\"}, \"expect\": {\"outcome\": \"allow\"}}]}", "f.jsonc:2:2: the key \"hoo\u212a\" is written again (first at line 1)"},
		{"payload keys are the author's", `{"cases": [{"name": "a", "hook": {"command": "x", "dialect": "claude"}, "event": {"dialect": "claude", "payload": {"hook_event_name": "Stop", "Name": 1}}, "expect": {"outcome": "allow"}}]}`, ""},
		{"two documents", `{"cases": [` + c + `]} {"cases": []}`, "f.jsonc:1:"},
		{"empty", "", "f.jsonc:1:1: does not parse"},
		{"wrong type", "{\"cases\": [{\"name\":\n 7}]}", `f.jsonc:2:3: cases.name is number, want string`},
		{"syntax error", "{\"cases\": [\n" + c + "\n}", "f.jsonc:3:1: does not parse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.jsonc", []byte(tc.doc), mappings.Default())
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.err != "" && err == nil:
				t.Fatalf("accepted, want an error %q", tc.err)
			case tc.err != "" && !strings.Contains(err.Error(), tc.err):
				t.Fatalf("error %q, want it to hold %q", err, tc.err)
			}
		})
	}
}
