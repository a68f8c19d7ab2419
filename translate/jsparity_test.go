package translate

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookx-dev/hookx/internal/nodeoracle"
)

// The oracle for reading hook output is node itself: JSON.parse with each
// agent's own rules around it, as read from the installed packages.
//   - Claude Code 2.1.330: output.trim(); only text that starts with "{" is
//     JSON; JSON.parse (its hook-output readers, e.g. the Elicitation one).
//   - Gemini CLI 0.61.0 (HookRunner, "close" handler): stdout.trim() ||
//     stderr.trim(); JSON.parse, and JSON.parse again when that gives a
//     string; an object (arrays too) is the output, any other value is no
//     output, and text JSON.parse rejects is plain text.
//
// Both decode the bytes with Node's UTF-8 decoder.
const oracleJS = `
const rl = require("readline").createInterface({input: process.stdin, crlfDelay: Infinity});
const top = ["decision", "reason", "continue", "stopReason", "systemMessage", "hookSpecificOutput", "updatedInput"];
const inner = ["hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext", "updatedInput", "tool_input"];
const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
function val(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  switch (typeof v) {
  case "string": return "s:" + v;
  case "boolean": return "boolean:" + v;
  case "number": return "number";
  }
  return "object";
}
function fields(o, keys) {
  const r = {};
  for (const k of keys) if (own(o, k)) r[k] = val(o[k]);
  return r;
}
function json(p) {
  const r = {kind: "json", fields: Array.isArray(p) ? {} : fields(p, top)};
  const h = Array.isArray(p) ? undefined : p.hookSpecificOutput;
  if (h && typeof h === "object" && !Array.isArray(h)) r.hook = fields(h, inner);
  return r;
}
function claude(t) {
  if (t === "") return {kind: "empty"};
  if (!t.startsWith("{")) return {kind: "text", text: t};
  try { return json(JSON.parse(t)); } catch { return {kind: "text", text: t}; }
}
function gemini(t) {
  if (t === "") return {kind: "empty"};
  try {
    let p = JSON.parse(t);
    if (typeof p === "string") p = JSON.parse(p);
    if (p && typeof p === "object") return json(p);
    return {kind: "none"};
  } catch { return {kind: "text", text: t}; }
}
rl.on("line", (line) => {
  const q = JSON.parse(line);
  const t = Buffer.from(q.b, "base64").toString("utf8").trim();
  let r;
  try { r = q.p === "claude" ? claude(t) : gemini(t); } catch (e) { r = {kind: "error", text: String(e)}; }
  process.stdout.write(JSON.stringify(r) + "\n");
});
`

// projection is what decides a verdict in a hook's output, as each side
// reads it: the kind of output and the type and string value of the fields
// that carry a decision.
type projection struct {
	Kind   string            `json:"kind"` // empty, text, none (JSON but no object), json
	Text   string            `json:"text,omitempty"`
	Fields map[string]string `json:"fields,omitempty"`
	Hook   map[string]string `json:"hook,omitempty"`
}

// nodeOracle is node running oracleJS.
type nodeOracle struct{ *nodeoracle.Oracle }

const oracleName = "the JSON.parse oracle"

// startOracle starts the shared node process once.
func startOracle() (*nodeOracle, error) {
	o, err := nodeoracle.Start(oracleJS)
	if err != nil {
		return nil, err
	}
	return &nodeOracle{o}, nil
}

// jsOracle returns the shared node process. Without node the test is
// skipped, except in CI (CI=true), where .ci/run installs node.
func jsOracle(tb testing.TB) *nodeOracle {
	tb.Helper()
	return &nodeOracle{nodeoracle.Require(tb, oracleName, oracleJS)}
}

// read returns how the agent speaking protocol reads stdout.
func (o *nodeOracle) read(tb testing.TB, protocol string, stdout []byte) projection {
	tb.Helper()
	var p projection
	if err := o.Ask(map[string]string{"p": protocol, "b": base64.StdEncoding.EncodeToString(stdout)}, &p); err != nil {
		tb.Fatal(err)
	}
	return p
}

// hookxProjection is how hookx's verdict reader reads stdout for protocol,
// with the functions readClaude and readGemini use.
// blocks reports whether the host reads a block in its output.
func (p projection) blocks() bool {
	d := p.Fields["decision"]
	return d == "s:deny" || d == "s:block" || p.Hook["permissionDecision"] == "s:deny"
}

// grants reports whether the output skips the host's own permission check.
func (p projection) grants() bool {
	return p.Fields["decision"] == "s:approve" || p.Hook["permissionDecision"] == "s:allow"
}

func hookxProjection(protocol string, stdout []byte) projection {
	text := trimJS(stdout)
	if text == "" {
		return projection{Kind: "empty"}
	}
	var obj []byte
	var ok bool
	if protocol == "claude" {
		obj, ok = singleObject(text)
	} else {
		obj, ok = geminiObject(text)
	}
	switch {
	case !ok:
		return projection{Kind: "text", Text: text}
	case obj == nil:
		return projection{Kind: "none"}
	}
	top := parseFields(obj)
	p := projection{Kind: "json", Fields: project(top, "decision", "reason", "continue", "stopReason", "systemMessage", "hookSpecificOutput", "updatedInput")}
	if hs := top.object("hookSpecificOutput"); hs != nil {
		p.Hook = project(hs, "hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext", "updatedInput", "tool_input")
	}
	return p
}

func project(f fields, keys ...string) map[string]string {
	m := map[string]string{}
	for _, k := range keys {
		raw, ok := f[k]
		if !ok {
			continue
		}
		switch raw[0] {
		case '"':
			m[k] = "s:" + f.str(k)
		case 't', 'f':
			m[k] = "boolean:" + string(raw)
		case 'n':
			m[k] = "null"
		case '{':
			m[k] = "object"
		case '[':
			m[k] = "array"
		default:
			m[k] = "number"
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// normalize makes the two sides comparable: JSON gives no field maps as
// absent, and node's strings may hold lone surrogates, which Go spells as
// U+FFFD.
func (p projection) normalize() projection {
	for _, m := range []map[string]string{p.Fields, p.Hook} {
		for k, v := range m {
			m[k] = strings.ToValidUTF8(v, "\uFFFD")
		}
	}
	if len(p.Fields) == 0 {
		p.Fields = nil
	}
	if len(p.Hook) == 0 {
		p.Hook = nil
	}
	return p
}

// parityInputs are the inputs where Go and JavaScript were seen to differ,
// the result test cases (the fuzz seed corpus) and random inputs built from
// the pieces that matter.
func parityInputs() [][]byte {
	deny := `"decision":"deny","reason":"r"`
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	ins := []string{
		`{` + deny + `,"n":1e400}`,
		`{` + deny + `,"n":-1e400,"m":1e-400}`,
		`{` + deny + `,"x":` + deep(10001) + `}`,
		`{` + deny + `,"x":` + strings.Repeat(`{"a":`, 20000) + `1` + strings.Repeat(`}`, 20000) + `}`,
		"\u0085" + `{` + deny + `}`,
		`{` + deny + `}` + "\u0085",
		"\uFEFF" + `{` + deny + `}` + "\u2028\u3000\u00A0\v\f",
		"\u180E" + `{` + deny + `}`,
		`{"decision":"allow","decision":"deny"}`,
		`{"decision":"deny","decision":"allow"}`,
		`{` + deny + `}}`,
		`{` + deny + `} x`,
		`{` + deny + `}{}`,
		`{` + deny + `,}`,
		`{"decision":"de\u006ey"}`,
		`{"decision":"deny\ud800"}`,
		"{\"decision\":\"deny\xff\"}",
		"{\"reason\":\"\xe2\x82(\xf0\x9f\x98\"}",
		`"{\"decision\":\"deny\"}"`,
		`"[1]"`,
		`"\"{}\""`,
		`"not json"`,
		`[{"decision":"deny"}]`,
		`123`, `null`, `true`, `-0`, `01`, `1.`, `.5`, `1e`, `+1`,
		`{"decision":"deny","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x","updatedInput":{"a":1e400}}}`,
		`{"hookSpecificOutput":{"permissionDecision":"deny","hookSpecificOutput":1},"hookSpecificOutput":{"permissionDecision":"allow"}}`,
		`{"__proto__":{"decision":"deny"},"constructor":"x"}`,
		"{\"reason\":\"tab\tinside\"}",
		`{"a" : [ 1 , { "b" : null } ] , "decision" : "block" }`,
		"{\"decision\":\"deny\"}\n{\"decision\":\"allow\"}",
		"\x00{\"decision\":\"deny\"}",
		// Keys spelled with escapes are the same key: the last one wins.
		`{"decision":"deny","decisio\u006e":"allow"}`,
		`{"decisio\u006E":"deny"}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"},"hookSpecific\u004futput":null}`,
		`{"hookSpecificOutput":{"permissionDecision":"deny","permission\u0044ecision":"allow"}}`,
		// Lone surrogate keys stay apart in JavaScript.
		`{"\ud800":"a","\udc00":"b","decision":"block"}`,
		// Gemini's second JSON.parse sees the unescaped text: its white
		// space is JSON's alone.
		`"\u00a0{\"decision\":\"deny\"}"`,
		`"\ufeff{\"decision\":\"deny\"}"`,
		`" {\"decision\":\"deny\"}\n"`,
		`"{\"decision\":\"deny\"}\u0085"`,
		`"\"{\\\"decision\\\":\\\"deny\\\"}\""`,
	}
	for _, c := range resultCases {
		ins = append(ins, c.stdout, c.stderr)
	}
	ins = append(ins, corpusStrings("FuzzResult")...)
	out := make([][]byte, 0, len(ins)+4000)
	for _, s := range ins {
		out = append(out, []byte(s))
	}
	r := rand.New(rand.NewPCG(8, 10))
	pieces := []string{
		"{", "}", "[", "]", ":", ",", `"decision"`, `"deny"`, `"block"`, `"allow"`, `"reason"`, `"continue"`, "false", "true", "null",
		`"hookSpecificOutput"`, `"permissionDecision"`, `"hookEventName"`, `"PreToolUse"`, "1e400", "-0", "0.5e-3", "01", "1.", "-",
		`"\u0000"`, `"\ud83d\ude00"`, `"\udc00"`, `"\x"`, `"a`, "\"\t\"", " ", "\t", "\n", "\r", "\v", "\f",
		"\u0085", "\u00A0", "\u1680", "\u180E", "\u2000", "\u200A", "\u200B", "\u2028", "\u2029", "\u202F", "\u205F", "\u3000", "\uFEFF", "\uFFFE",
		"\xff", "\xc0\x80", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf0\x9f\x98",
	}
	spaces := []string{"", " ", "\n", "\u0085", "\u00A0", "\uFEFF", "\u2028", "\u180E", "\u3000", "\v", "\x85", "\u200B"}
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(14) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		out = append(out, []byte(b.String()))
	}
	objs := []string{`{` + deny + `}`, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, `{"decision":"block","reason":"x","decision":"allow"}`, `"{\"decision\":\"deny\"}"`}
	for range 2000 {
		s := spaces[r.IntN(len(spaces))] + objs[r.IntN(len(objs))] + spaces[r.IntN(len(spaces))]
		if r.IntN(4) == 0 {
			i := r.IntN(len(s) + 1)
			s = s[:i] + pieces[r.IntN(len(pieces))] + s[i:]
		}
		out = append(out, []byte(s))
	}
	return out
}

// TestVerdictReaderMatchesJSONParse is the differential test: on every
// input, hookx reads a hook's output as node's JSON.parse does with each
// agent's rules around it.
func TestVerdictReaderMatchesJSONParse(t *testing.T) {
	o := jsOracle(t)
	fails := 0
	for _, in := range parityInputs() {
		for _, protocol := range []string{"claude", "gemini"} {
			want := o.read(t, protocol, in).normalize()
			got := hookxProjection(protocol, in).normalize()
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s reading %s (-JSON.parse +hookx):\n%s", protocol, short(in), diff)
				if fails++; fails > 20 {
					t.Fatal("too many differences")
				}
			}
		}
	}
}

// corpusStrings returns the string values of a fuzz target's stored corpus
// (testdata/fuzz/<target>), where inputs that failed once are kept.
func corpusStrings(target string) []string {
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "string("); ok {
				if s, err := strconv.Unquote(strings.TrimSuffix(v, ")")); err == nil {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

func short(b []byte) string {
	if len(b) > 200 {
		return fmt.Sprintf("%q… (%d bytes)", b[:200], len(b))
	}
	return fmt.Sprintf("%q", b)
}
