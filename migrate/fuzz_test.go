package migrate

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/tailscale/hujson"
)

// userParts returns what of a settings file is the user's and must
// survive a migration byte for byte: the text outside the hooks object,
// each non-hookx matcher group as written (comments inside it included),
// and every comment in the hooks object, in order.
func userParts(t *testing.T, to string, data []byte) (outside string, groups, comments []string) {
	t.Helper()
	d, err := parseDoc("t", data)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	d.root.UpdateOffsets()
	p := &planner{to: mappings.Default().MustDialect(to)}
	hv := d.root.Find(p.to.Settings.Shape.HooksPointer())
	if hv == nil {
		return string(data), nil, nil
	}
	if hv != &d.root {
		outside = string(data[:hv.StartOffset]) + "<hooks>" + string(data[hv.EndOffset:])
	}
	obj, ok := hv.Value.(*hujson.Object)
	if !ok {
		return outside, nil, nil
	}
	extras := func(x hujson.Extra) {
		if !x.IsStandard() {
			comments = append(comments, strings.TrimSpace(string(x)))
		}
	}
	extras(obj.AfterExtra)
	for i := range obj.Members {
		m := &obj.Members[i]
		extras(m.Name.BeforeExtra)
		name := litString(m.Name.Value.(hujson.Literal))
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			groups = append(groups, name+"="+string(data[m.Value.StartOffset:m.Value.EndOffset]))
			continue
		}
		extras(arr.AfterExtra)
		for j := range arr.Elements {
			el := &arr.Elements[j]
			extras(el.BeforeExtra)
			extras(el.AfterExtra)
			if id, _ := p.ownedID(el); id == "" {
				groups = append(groups, name+"="+string(data[el.StartOffset:el.EndOffset]))
			}
		}
	}
	return outside, groups, comments
}

// FuzzMigrate checks, on any source and target, that a migration leaves
// the user's content of the target byte for byte (hookx's entries taken
// out, before and after are the same), that a second run changes nothing,
// and that the result parses by the target agent's rules.
func FuzzMigrate(f *testing.F) {
	f.Add(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh","timeout":5}]}]}}`,
		"{\n  // mine\n  \"ui\": {\"theme\": \"dark\"},\n  \"hooks\": {\n    \"BeforeTool\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"./mine.sh\"}]} // keep\n    ]\n  }\n}\n", true, mappings.PairOf("claude", "gemini"))
	f.Add(`{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"name":"g","type":"command","command":"./g.sh"}]}],"AfterAgent":[{"hooks":[{"type":"command","command":"echo done"}]}]}}`,
		"{\r\n  \"permissions\": {\"allow\": []},\r\n  \"hooks\": {\r\n    \"PreToolUse\": []\r\n  }\r\n}\r\n", true, mappings.PairOf("gemini", "claude"))
	f.Add(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./s.sh"}]}],"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"cat <<EOF\nhi\nEOF"}]}]}}`,
		"", false, mappings.PairOf("claude", "gemini"))
	f.Add(`{"hooks":{"AfterTool":[{"matcher":"write_file","hooks":[{"name":"hookx:AfterTool:1:0badc0de","type":"command","command":"./mine.sh"}]}]}}`,
		"{\"hooks\": {\"PostToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"x # hookx:PostToolUse:0:0badc0de\"}]}]}}", true, mappings.PairOf("gemini", "claude"))
	// TerminaI runs no hooks unless tools.enableHooks is true: migrate sets it.
	f.Add(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh"}]}]}}`,
		"{\n  // mine\n  \"tools\": {\"sandbox\": false},\n  \"hooks\": {\n    \"disabled\": [\"x\"]\n  }\n}\n", true, mappings.PairOf("claude", "terminai"))
	for _, pair := range mappings.DialectPairs() {
		f.Add(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh","timeout":5000}]}],"BeforeTool":[{"hooks":[{"type":"command","command":"./b.sh"}]}]}}`,
			"", true, pair)
	}
	f.Fuzz(func(t *testing.T, src, target string, wrap bool, pair uint8) {
		from, to := mappings.DialectPair(pair)
		if d, _ := mappings.Default().Dialect(from); d.Settings.HookFiles {
			return // refused as a source: TestHookFilesAreRefused
		}
		var tdata []byte
		if target != "" {
			tdata = []byte(target)
		}
		opts := Options{From: from, To: to, Wrap: wrap, Hookx: "hookx"}
		sources := []Source{{Path: "src", Scope: "project", Data: []byte(src)}}
		res, err := Plan(opts, sources, Source{Path: "t", Data: tdata})
		var ie *InputError
		if errors.As(err, &ie) {
			return
		}
		if err != nil {
			t.Fatalf("Plan: %v", err)
		}
		if !res.Changed() {
			return
		}
		// The result parses as the target agent reads it.
		d, err := parseDoc("after", res.After)
		if err != nil {
			t.Fatalf("the result does not parse: %v\n%s", err, res.After)
		}
		if mappings.Default().MustDialect(to).Settings.StrictJSON && !json.Valid(res.After) {
			t.Fatalf("the %s result is not strict JSON:\n%s", to, res.After)
		}
		if off := TrailingComma(&d.root); off >= 0 {
			t.Fatalf("trailing comma at %d:\n%s", off, res.After)
		}
		if ph := mappings.Default().MustDialect(to).PluginHost; ph != nil {
			// A plugin host's hooks file is hookx's own: it reads as its
			// plugin reads it, and a second run changes nothing.
			if _, err := pluginFormats[ph.Format].read(res.After); err != nil {
				t.Fatalf("the %s hooks file does not read: %v\n%s", to, err, res.After)
			}
			if again, err := Plan(opts, sources, Source{Path: "t", Data: res.After}); err != nil || again.Changed() {
				t.Fatalf("a second run: %v, changed %v", err, again != nil && again.Changed())
			}
			return
		}
		if _, _, err := d.readHooks(mappings.Default().MustDialect(to).Settings.Shape); err != nil {
			t.Fatalf("the result's hooks do not read: %v\n%s", err, res.After)
		}
		// A second run changes nothing.
		again, err := Plan(opts, sources, Source{Path: "t", Data: res.After})
		if err != nil {
			t.Fatalf("second Plan: %v", err)
		}
		if again.Changed() {
			t.Fatalf("a second run changes the target:\n%s", UnifiedDiff("first", "second", res.After, again.After))
		}
		// The user's content is kept byte for byte.
		if tdata != nil {
			before := tdata
			if len(res.Entries) > 0 && mappings.Default().MustDialect(to).Settings.On != nil {
				// The one key outside the hooks migrate may set: the
				// setting without which the target runs no hooks.
				p := &planner{to: mappings.Default().MustDialect(to)}
				if b, err := p.switchOn("t", tdata); err == nil {
					before = b
				}
			}
			bo, bg, bc := userParts(t, to, before)
			ao, ag, ac := userParts(t, to, res.After)
			if strings.Contains(bo, "<hooks>") && bo != ao {
				t.Fatalf("the text outside the hooks object changed:\n%s", UnifiedDiff("before", "after", []byte(bo), []byte(ao)))
			}
			if d := cmp.Diff(bg, ag); d != "" {
				t.Fatalf("the user's hooks changed (-before +after):\n%s", d)
			}
			if d := cmp.Diff(bc, ac); d != "" {
				t.Fatalf("comments in the hooks object changed (-before +after):\n%s", d)
			}
		}
	})
}
