//go:build unix

package mappings

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/internal/agentrun/agents"
)

// registryDefines are how Kilo Code 7.7.9's bundle defines a tool: the
// minified Tool.define (a_) and Kilo's own define (xu.define), each
// followed by the tool's id. registryOthers are the tools its registry
// adds otherwise, with how: the list reads the rest from the binary.
var (
	registryDefines = []string{`a_("`, `xu.define("`}
	registryOthers  = map[string]string{
		"bash":                        "ShellID.ToolID (@108863720)",
		"task":                        "the task tool's own define (@110020335)",
		"execute":                     "code mode's FfL (@113950513)",
		"list_mcp_resources":          "wWH.list (@113996334)",
		"list_mcp_resource_templates": "wWH.listTemplates (@113996334)",
		"read_mcp_resource":           "wWH.read (@113996334)",
	}
)

// TestKiloToolsAreTheBinarysRegistry reads the tool ids Kilo Code's own
// binary defines (the agents cache of the conformance suite, or
// $HOOKX_KILO_BIN) and holds data/evidence/kilo-tools.jsonc to them both
// ways: a tool the binary defines that the list lacks is a tool the table
// may lack. Kilo is installed into the agents cache first if it is not
// (under the cache's lock, as the conformance suite does); as the suite,
// skipped with -short and HOOKX_CONFORMANCE=off only.
func TestKiloToolsAreTheBinarysRegistry(t *testing.T) {
	bin := os.Getenv("HOOKX_KILO_BIN")
	if bin == "" {
		if testing.Short() {
			t.Skip("-short: Kilo Code's binary is not read (go test ./... reads it)")
		}
		if os.Getenv("HOOKX_CONFORMANCE") == "off" {
			t.Skip("HOOKX_CONFORMANCE=off: Kilo Code's binary is not read")
		}
		dir, err := agents.DefaultDir()
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		defer cancel()
		p, err := agents.Install(ctx, dir)
		if err != nil {
			t.Fatalf("install the pinned agents: %v", err)
		}
		bin = p.Kilo
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, prefix := range registryDefines {
		for rest := data; ; {
			i := bytes.Index(rest, []byte(prefix))
			if i < 0 {
				break
			}
			rest = rest[i+len(prefix):]
			j := bytes.IndexByte(rest, '"')
			if j <= 0 || j > 64 {
				continue
			}
			if id := string(rest[:j]); strings.Trim(id, "abcdefghijklmnopqrstuvwxyz_") == "" {
				defined[id] = true
			}
		}
	}
	if len(defined) < 20 {
		t.Fatalf("found %d tool definitions in %s: the bundle's form changed (registryDefines)", len(defined), bin)
	}
	for id := range registryOthers {
		defined[id] = true
	}
	listed := map[string]bool{}
	for _, e := range readToolsEvidence(t, "kilo") {
		listed[e.Name] = true
		if !defined[e.Name] {
			t.Errorf("kilo-tools.jsonc lists %s, which %s does not define", e.Name, bin)
		}
	}
	for id := range defined {
		if !listed[id] {
			t.Errorf("%s defines the tool %s, which kilo-tools.jsonc does not list", bin, id)
		}
	}
}
