//go:build unix

package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/hookx-dev/hookx/conformance/internal/driver"
)

// envScenarios: the environment family (issue 23, item 4). Each dialect's
// guard is on only when every variable its own agent sets for its hooks
// says so, as its agent's ledger lists them
// (mappings/data/evidence/<dialect>-env.jsonc): a project or working
// directory holding .guard-on, a non-empty session id, a fixed value. A
// variable missing through hookx turns the guard off and rm -rf build runs
// (a Gemini guard keyed on "$CLAUDE_PROJECT_DIR/.guard-on" allowed on
// Codex). The native run is the oracle that the ledger is right; hookx
// runs the same guard on every other host, Codex (which sets none)
// included. Codex's own hooks get no variable, so it has no scenario here.
func envScenarios() []*scenario {
	all := []driver.Agent{driver.Claude, driver.Gemini, driver.Codex, driver.Copilot, driver.Qwen, driver.Droid}
	deny := map[driver.Agent]string{
		driver.Claude:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s: rm -rf build is forbidden"}}`,
		driver.Qwen:    `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s: rm -rf build is forbidden"}}`,
		driver.Droid:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s: rm -rf build is forbidden"}}`,
		driver.Gemini:  `{"decision":"deny","reason":"%s: rm -rf build is forbidden"}`,
		driver.Copilot: `{"permissionDecision":"deny","permissionDecisionReason":"%s: rm -rf build is forbidden"}`,
	}
	var list []*scenario
	for _, d := range []driver.Agent{driver.Claude, driver.Gemini, driver.Copilot, driver.Qwen, driver.Droid} {
		gate := envGate(string(d))
		marker := "GUARD-ENV-" + strings.ToUpper(string(d))
		hs := hosts[d]
		var to []driver.Agent
		for _, h := range all {
			if h != d {
				to = append(to, h)
			}
		}
		list = append(list, &scenario{
			name: "env/" + string(d) + "-hook-variables", dialect: d, to: to, noPeer: true,
			// Copilot also runs a Claude project's own settings: only the
			// migrated hook may act on the host.
			removeSource: true,
			steps:        []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN")},
			hooks:        []hookDef{{event: hs.preTool, matcher: hs.shellMatcher, script: "guard"}},
			scripts:      map[string]string{"guard": gate + onDangerous(emit(fmt.Sprintf(deny[d], marker)))},
			files:        map[string]string{"build/keep.txt": "keep\n", ".guard-on": ""},
			check:        guardCheck(marker),
		})
	}
	return list
}

// envGate is the shell that turns the guard off (reading its input, exit 0,
// saying why on stderr) unless every variable the dialect's agent sets for
// its hooks has the value its ledger says.
func envGate(dialect string) (gate string) {
	b, err := os.ReadFile(filepath.Join("..", "mappings", "data", "evidence", dialect+"-env.jsonc"))
	if err != nil {
		panic(err)
	}
	if b, err = hujson.Standardize(b); err != nil {
		panic(err)
	}
	var l struct {
		Vars []struct{ Name, Kind, Value string }
	}
	if err := json.Unmarshal(b, &l); err != nil {
		panic(err)
	}
	off := func(test, name string) string {
		return test + ` || { cat >/dev/null; echo "guard off: ` + name + ` is '${` + name + `}'" >&2; exit 0; }` + "\n"
	}
	for _, v := range l.Vars {
		switch v.Kind {
		case "project", "cwd":
			gate += off(`[ -f "${`+v.Name+`:-/nonexistent}/.guard-on" ]`, v.Name)
		case "session":
			gate += off(`[ -n "${`+v.Name+`}" ]`, v.Name)
		case "fixed":
			gate += off(`[ "${`+v.Name+`}" = '`+v.Value+`' ]`, v.Name)
		}
	}
	return gate
}
