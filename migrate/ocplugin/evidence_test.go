package ocplugin

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tailscale/hujson"
)

// toolsEvidence is mappings/data/evidence/<host>-tools.jsonc: what the
// agent's package says about its tools and its plugin API, read before the
// agent is a dialect of the table.
type toolsEvidence struct {
	Agent   string `json:"agent"`
	Package string `json:"package"`
	Tools   []struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments"`
		Evidence  string            `json:"evidence"`
	} `json:"tools"`
	Inputs []struct {
		Tool     string   `json:"tool"`
		Argument string   `json:"argument"`
		Touches  string   `json:"touches"`
		Acts     []string `json:"acts"`
		Evidence string   `json:"evidence"`
	} `json:"inputs"`
	Events []struct {
		Name     string `json:"name"`
		Input    string `json:"input"`
		Output   string `json:"output"`
		Changes  string `json:"changes"`
		Evidence string `json:"evidence"`
	} `json:"events"`
	Plugins []struct {
		Fact     string `json:"fact"`
		Evidence string `json:"evidence"`
	} `json:"plugins"`
}

// TestEvidence decodes each host's evidence strictly and holds what the
// plugin relies on against it: the event it uses, with the input and
// output it reads, and the arguments of the tools issue 29 names.
func TestEvidence(t *testing.T) {
	for _, tc := range []struct {
		host Host
		bash map[string]string
	}{
		{OpenCode, map[string]string{"command": "string", "timeout": "number?", "workdir": "string?"}},
		{Kilo, map[string]string{"command": "string", "timeout": "number?", "workdir": "string?", "description": "string?"}},
	} {
		t.Run(tc.host.Name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "..", "mappings", "data", "evidence", tc.host.Name+"-tools.jsonc"))
			if err != nil {
				t.Fatal(err)
			}
			std, err := hujson.Standardize(b)
			if err != nil {
				t.Fatal(err)
			}
			var ev toolsEvidence
			dec := json.NewDecoder(bytes.NewReader(std))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&ev); err != nil {
				t.Fatal(err)
			}
			if ev.Agent != tc.host.Agent {
				t.Errorf("agent %q, want %q", ev.Agent, tc.host.Agent)
			}
			tools := map[string]map[string]string{}
			for _, tool := range ev.Tools {
				if tool.Evidence == "" {
					t.Errorf("tool %s: no evidence", tool.Name)
				}
				tools[tool.Name] = tool.Arguments
			}
			for _, in := range ev.Inputs {
				if in.Evidence == "" {
					t.Errorf("input %s.%s: no evidence", in.Tool, in.Argument)
				}
				if _, ok := tools[in.Tool][in.Argument]; !ok && in.Tool != "apply_patch" {
					t.Errorf("input %s.%s is not an argument of the tools list", in.Tool, in.Argument)
				}
			}
			if diff := cmp.Diff(tc.bash, tools["bash"]); diff != "" {
				t.Errorf("bash (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(map[string]string{"filePath": "string", "oldString": "string", "newString": "string", "replaceAll": "boolean?"}, tools["edit"]); diff != "" {
				t.Errorf("edit (-want +got):\n%s", diff)
			}
			// What the plugin reads of each event it uses (hookx.js).
			reads := map[string][2]string{
				Event:                {"{tool, sessionID, callID}", "{args}"},
				"tool.execute.after": {"{tool, sessionID, callID, args}", "{title, metadata, output, attachments}"},
				"chat.message":       {"{sessionID, agent, model, messageID, variant}", "{message, parts}"},
			}
			found := map[string]bool{}
			for _, e := range ev.Events {
				if e.Evidence == "" {
					t.Errorf("event %s: no evidence", e.Name)
				}
				if r, ok := reads[e.Name]; ok {
					found[e.Name] = true
					if e.Input != r[0] || e.Output != r[1] {
						t.Errorf("%s: the plugin reads input %s and output %s; the evidence says %s, %s", e.Name, r[0], r[1], e.Input, e.Output)
					}
				}
			}
			for _, name := range Events {
				if !found[name] {
					t.Errorf("no evidence for %s, an event the plugin uses", name)
				}
			}
			for _, p := range ev.Plugins {
				if p.Evidence == "" {
					t.Errorf("%q: no evidence", p.Fact)
				}
			}
		})
	}
}
