package wrapcli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tailscale/hujson"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/wrap"
)

// ledgerVar is one entry of mappings/data/evidence/<dialect>-env.jsonc (its
// test in package mappings decodes it strictly).
type ledgerVar struct {
	Name, Kind, Value string
}

func envLedger(t *testing.T, dialect string) []ledgerVar {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "mappings", "data", "evidence", dialect+"-env.jsonc"))
	if err != nil {
		t.Fatal(err)
	}
	if b, err = hujson.Standardize(b); err != nil {
		t.Fatal(err)
	}
	var l struct{ Vars []ledgerVar }
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	return l.Vars
}

// hostShellEvent is the host's own event before its shell tool runs, with
// its payload: a captured one (testdata/payloads) where there is one, its
// tool and cwd and session replaced; otherwise built from the table's
// payload names.
func hostShellEvent(t *testing.T, d *mappings.Dialect, cwd, session string) (event string, payload []byte) {
	t.Helper()
	ev, why := d.EventFor("tool.before")
	if ev == nil {
		t.Fatalf("%s: no tool.before event: %s", d.Name, why)
	}
	tool, why := d.ToolFor("shell")
	if tool == nil {
		t.Fatalf("%s: no shell tool: %s", d.Name, why)
	}
	own := d.Payload.Inverse()
	name := func(n string) string {
		if o := own[n]; o != "" {
			return o
		}
		return n
	}
	m := map[string]any{}
	if files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "payloads", d.Name+"-*", ev.Name+".*.json")); len(files) > 0 {
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
	}
	if !d.Payload.Own() {
		m["hook_event_name"] = ev.Name
	}
	m[name("session_id")] = session
	m[name("cwd")] = cwd
	m[name("tool_name")] = tool.Name
	m[name("tool_input")] = map[string]any{"command": "ls"}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return ev.Name, b
}

// A hook sees every variable its own agent sets for its hooks, whatever the
// host: each hook dialect on each host, the hook's variables from its
// agent's ledger (mappings/data/evidence), the host's environment what the
// host's own ledger says it sets. Codex, which sets none, included: a
// Gemini hook keyed on "$CLAUDE_PROJECT_DIR/.guard-on" got no
// CLAUDE_PROJECT_DIR there (nor on any other host) and allowed.
func TestHookSeesEveryVariableItsAgentSetsOnEveryHost(t *testing.T) {
	table := mappings.Default()
	project := t.TempDir()
	const session = "sess-env-1"
	for _, host := range table.Dialects {
		for _, hook := range table.Dialects {
			if hook.Name == host.Name {
				continue // pass-through: the host is the hook's agent
			}
			t.Run(hook.Name+"_on_"+host.Name, func(t *testing.T) {
				environ := []string{"PATH=" + os.Getenv("PATH")}
				for _, v := range envLedger(t, host.Name) {
					switch v.Kind {
					case "project", "cwd":
						environ = append(environ, v.Name+"="+project)
					case "session":
						environ = append(environ, v.Name+"="+session)
					case "fixed":
						environ = append(environ, v.Name+"="+v.Value)
					}
				}
				hostEvent, payload := hostShellEvent(t, host, project, session)
				hostPayloadVars := false
				for _, v := range envLedger(t, host.Name) {
					if v.Kind == "payload" {
						// Droid's own: its payload's fields.
						hostPayloadVars = true
						var m map[string]any
						json.Unmarshal(payload, &m)
						for k, v := range m {
							if s, ok := v.(string); ok {
								environ = append(environ, k+"="+s)
							}
						}
					}
				}
				out := filepath.Join(t.TempDir(), "env")
				var stdout, stderr bytes.Buffer
				wrap.Run(wrap.Options{
					Table:       table,
					Translation: Translation{Table: table, HostEventGiven: hostEvent},
					From:        hook.Name,
					Host:        host.Name,
					Command:     []string{"sh", "-c", `env >"$0"`, out},
					Stdin:       bytes.NewReader(payload),
					Stdout:      &stdout,
					Stderr:      &stderr,
					Environ:     environ,
					StateDir:    filepath.Join(t.TempDir(), "stop"),
				})
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatalf("the hook did not run: %v\nstdout %s\nstderr %s", err, stdout.String(), stderr.String())
				}
				got := map[string]string{}
				for _, line := range strings.Split(string(b), "\n") {
					if k, v, ok := strings.Cut(line, "="); ok {
						got[k] = v
					}
				}
				hookPayloadVars := false
				for _, v := range envLedger(t, hook.Name) {
					hookPayloadVars = hookPayloadVars || v.Kind == "payload"
				}
				if hostPayloadVars && !hookPayloadVars {
					for _, k := range []string{"tool_name", "session_id", "hook_event_name", "cwd"} {
						if v, ok := got[k]; ok {
							t.Errorf("%s gives its hooks no %s; through hookx on %s the hook got %s=%q, the host's own", hook.Agent, k, host.Agent, k, v)
						}
					}
				}
				for _, v := range envLedger(t, hook.Name) {
					if v.Kind == "payload" {
						// Droid: each scalar top-level field of its own
						// payload, in its own names.
						tool, _ := hook.ToolFor("shell")
						ev, _ := hook.EventFor("tool.before")
						for k, want := range map[string]string{"session_id": session, "cwd": project, "tool_name": tool.Name, "hook_event_name": ev.Name} {
							if got[k] != want {
								t.Errorf("%s gives its hooks their payload's fields as variables; through hookx on %s the hook got %s=%q, want %q", hook.Agent, host.Agent, k, got[k], want)
							}
						}
						continue
					}
					want := ""
					switch v.Kind {
					case "project", "cwd":
						want = project
					case "session":
						want = session
					case "fixed":
						want = v.Value
					default:
						continue
					}
					if got[v.Name] != want {
						t.Errorf("%s sets %s=%s for its hooks; through hookx on %s the hook got %q", hook.Agent, v.Name, want, host.Agent, got[v.Name])
					}
				}
			})
		}
	}
}
