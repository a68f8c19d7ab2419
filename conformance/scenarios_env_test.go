//go:build unix

package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
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
			// Every variable the agent gives its hooks: Gemini and Qwen
			// relaunch themselves as in a user's run, whose relaunched
			// process sets more (driver.NoRelaunch).
			relaunch: true,
			// Copilot also runs a Claude project's own settings: only the
			// migrated hook may act on the host.
			removeSource: true,
			steps:        []action{shell("rm -rf build"), shell("printf ALLOW%s -RAN")},
			hooks:        []hookDef{{event: hs.preTool, matcher: hs.shellMatcher, script: "guard"}},
			scripts:      map[string]string{"guard": logEnv + gate + onDangerous(emit(fmt.Sprintf(deny[d], marker)))},
			files:        map[string]string{"build/keep.txt": "keep\n", ".guard-on": ""},
			check: func(o *outcome) []string {
				p := guardCheck(marker)(o)
				if o.host == d {
					p = append(p, unlistedEnv(o, string(d))...)
				}
				return p
			},
		})
	}
	return list
}

// logEnv saves the hook's whole environment, NUL-separated.
const logEnv = "mkdir -p \"$HOME/hooklog\"\nenv -0 > \"$HOME/hooklog/env.$$.txt\"\n"

// shellVars are set by the hook's shell itself, not by its agent.
var shellVars = map[string]bool{"PWD": true, "OLDPWD": true, "SHLVL": true, "_": true}

// unlistedEnv is the completeness check, from the agent itself: every
// variable the hook's environment holds in the native run beyond what the
// agent was started with must be in the agent's ledger.
func unlistedEnv(o *outcome, dialect string) []string {
	listed := map[string]bool{}
	payload := false
	for _, v := range envLedger(dialect) {
		listed[v.Name] = v.Kind != "payload"
		payload = payload || v.Kind == "payload"
	}
	launched := map[string]bool{}
	for _, kv := range o.sb.Env(o.host, "") {
		k, _, _ := strings.Cut(kv, "=")
		launched[k] = true
	}
	logs, _ := filepath.Glob(filepath.Join(o.sb.Home, "hooklog", "env.*.txt"))
	if len(logs) == 0 {
		return []string{"the hook logged no environment"}
	}
	var p []string
	seen := map[string]bool{}
	for _, f := range logs {
		b, err := os.ReadFile(f)
		if err != nil {
			return []string{err.Error()}
		}
		for _, kv := range strings.Split(string(b), "\x00") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || launched[k] || shellVars[k] || listed[k] || seen[k] {
				continue
			}
			if listedPrefix(listed, k) || payload && payloadField.MatchString(k) {
				continue
			}
			seen[k] = true
			p = append(p, fmt.Sprintf("%s sets %s=%q for its hooks; mappings/data/evidence/%s-env.jsonc does not list it", o.host, k, v, dialect))
		}
	}
	return p
}

// payloadField is a name Droid gives a payload field's variable: its
// payloads' names are lower-case.
var payloadField = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// listedPrefix reports a name matched by a listed NAME_* pattern.
func listedPrefix(listed map[string]bool, name string) bool {
	for l, ok := range listed {
		if ok && strings.HasSuffix(l, "*") && strings.HasPrefix(name, strings.TrimSuffix(l, "*")) {
			return true
		}
	}
	return false
}

type ledgerVar struct{ Name, Kind, Value string }

func envLedger(dialect string) []ledgerVar {
	b, err := os.ReadFile(filepath.Join("..", "mappings", "data", "evidence", dialect+"-env.jsonc"))
	if err != nil {
		panic(err)
	}
	if b, err = hujson.Standardize(b); err != nil {
		panic(err)
	}
	var l struct{ Vars []ledgerVar }
	if err := json.Unmarshal(b, &l); err != nil {
		panic(err)
	}
	return l.Vars
}

// envGate is the shell that turns the guard off (reading its input, exit 0,
// saying why on stderr) unless every variable the dialect's agent sets for
// its hooks has the value its ledger says.
func envGate(dialect string) (gate string) {
	off := func(test, name string) string {
		return test + ` || { cat >/dev/null; echo "guard off: ` + name + ` is '${` + name + `}'" >&2; exit 0; }` + "\n"
	}
	for _, v := range envLedger(dialect) {
		switch v.Kind {
		case "project", "cwd":
			gate += off(`[ -f "${`+v.Name+`:-/nonexistent}/.guard-on" ]`, v.Name)
		case "session":
			gate += off(`[ -n "${`+v.Name+`}" ]`, v.Name)
		case "fixed":
			gate += off(`[ "${`+v.Name+`}" = '`+v.Value+`' ]`, v.Name)
		case "payload":
			for _, k := range []string{"session_id", "cwd", "hook_event_name", "tool_name"} {
				gate += off(`[ -n "${`+k+`}" ]`, k)
			}
		}
	}
	return gate
}
