package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/internal/wrapcli"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
	"github.com/hookx-dev/hookx/wrap"
)

// hostEvent is one event a host sends, as that host's payload.
type hostEvent struct {
	host  *mappings.Dialect
	event string
	// payload builds the payload with extra in a place the model chooses
	// (the tool's input) or, for events without a tool, beside the fields.
	payload func(extra any) []byte
}

// blockingEvents lists every event of every dialect whose block keeps
// something from happening or from the model (output.guard,
// output.failClosed), each as a payload of its own agent's shape: an MCP
// tool call (its arguments reach any hook unchanged) where the event has a
// tool.
func blockingEvents(t *testing.T, tbl *mappings.Table) []hostEvent {
	t.Helper()
	read := func(path string) map[string]any {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	bases := map[string]map[string]any{
		"claude":  read("../../testdata/payloads/claude-2.1.330/PostToolUse.mcp__tiny__echo.json"),
		"gemini":  read("../../testdata/payloads/gemini-0.61.0/AfterTool.mcp_tiny_echo.json"),
		"copilot": read("../../translate/testdata/copilot/postToolUse.json"),
	}
	var out []hostEvent
	for _, h := range tbl.Dialects {
		for _, e := range h.Events {
			if !e.Output.BlocksOnFailure() {
				continue
			}
			h, e := h, e
			base := bases[h.Protocol]
			out = append(out, hostEvent{host: h, event: e.Name, payload: func(extra any) []byte {
				p := map[string]any{}
				for k, v := range base {
					p[k] = v
				}
				name, _ := h.MCPName("tiny", "echo")
				tool := e.Matcher == "tool"
				switch {
				case h.Payload.NamesNoEvent():
					if tool {
						p["toolName"], p["toolArgs"] = name, map[string]any{"text": "hi", "deep": extra}
					} else {
						delete(p, "toolName")
						delete(p, "toolArgs")
						delete(p, "toolResult")
						p["prompt"] = extra
					}
				default:
					if f := h.Payload.EventField; f != "" {
						// Crush names the event "event".
						delete(p, "hook_event_name")
						p[f] = e.Name
					} else {
						p["hook_event_name"] = e.Name
					}
					if tool {
						p["tool_name"], p["tool_input"] = name, map[string]any{"text": "hi", "deep": extra}
						if !strings.Contains(e.Canonical, "after") && e.Canonical != "tool.failed" {
							delete(p, "tool_response")
						}
					} else {
						for _, k := range []string{"tool_name", "tool_input", "tool_response", "mcp_context", "mcp_server"} {
							delete(p, k)
						}
						p["prompt"] = extra
					}
					for _, f := range h.Detect.Fields {
						if _, ok := p[f]; !ok {
							p[f] = "x1"
						}
					}
				}
				if d, ok := extra.(deepJSON); ok {
					// encoding/json writes nothing that deep: a stand-in,
					// replaced.
					p[extraKey(p)] = map[string]any{"text": "hi", "deep": "DEEP-VALUE"}
					b, _ := json.Marshal(p)
					return bytes.Replace(b, []byte(`"DEEP-VALUE"`), d.bytes(), 1)
				}
				b, _ := json.Marshal(p)
				return b
			}})
		}
	}
	return out
}

// deepJSON is a JSON value nested n levels deep, as a model may choose a
// tool argument.
type deepJSON int

func (n deepJSON) bytes() []byte {
	return []byte(strings.Repeat(`{"a":[`, int(n)/2) + `1` + strings.Repeat(`]}`, int(n)/2))
}

// extraKey is where a payload built by blockingEvents carries the tool's
// arguments.
func extraKey(p map[string]any) string {
	if _, ok := p["toolArgs"]; ok {
		return "toolArgs"
	}
	return "tool_input"
}

type wrapRun struct {
	ran, blocks bool
	out         wrap.Output
	stderr      string
}

// A tool input nested deeper than encoding/json reads (10,000 levels;
// the agents' JSON.parse has no limit, and a model chooses tool
// arguments) is read as the agents read it: on every host, named or
// detected, each hook dialect's hook runs (or not) and the host gets a
// block (or not) exactly as for the same call with a shallow argument.
// On b20418e the hook did not run: a detected host was not found and the
// answer did not block where it must (a Gemini AfterTool hook under
// --host auto: the output it hides was shown), and a named host failed to
// translate the event.
func TestDeepToolInputIsReadAsTheAgentsRead(t *testing.T) {
	tbl := mappings.Default()
	for _, he := range blockingEvents(t, tbl) {
		if tbl.MustDialect(he.host.Name).Event(he.event).Matcher != "tool" {
			continue
		}
		for _, from := range tbl.Dialects {
			for _, auto := range []bool{false, true} {
				name := he.host.Name + "/" + he.event + "/" + from.Name
				if auto {
					name += "/auto"
				}
				t.Run(name, func(t *testing.T) {
					shallow := runWrappedCode(t, tbl, he, from.Name, auto, he.payload(deepJSON(4)), 0)
					deep := runWrappedCode(t, tbl, he, from.Name, auto, he.payload(deepJSON(10_002)), 0)
					if deep.ran != shallow.ran || deep.blocks != shallow.blocks {
						t.Errorf("nested 10,002 levels: hook ran %v, host reads a block %v; nested 4 levels: ran %v, block %v\ndeep stderr: %s\nshallow stderr: %s",
							deep.ran, deep.blocks, shallow.ran, shallow.blocks, deep.stderr, shallow.stderr)
					}
				})
			}
		}
	}
}

// An event hookx cannot read (over the stdin bound) is a block on every
// event whose block keeps something from happening or from the model, on
// every host, named or detected (then in a form each agent that may have
// sent it reads as a block), whatever the hook's dialect, and says why. On
// b20418e a detected host's answer was rendered for another agent (a
// Gemini hook on AfterTool: Qwen's or TerminaI's systemMessage, which
// Gemini CLI does not read as a block).
func TestOversizedEventBlocksOnEveryHost(t *testing.T) {
	tbl := mappings.Default()
	const bound = 4 << 10
	for _, he := range blockingEvents(t, tbl) {
		payload := he.payload(strings.Repeat("x", 2*bound))
		// A block wherever the host's own answer to hookx's failure on
		// this event is one (Copilot's postToolUseFailure has none).
		own := translate.FailureOutput(he.host, he.event, errors.New("x"))
		v, _, err := translate.ReadOutput(he.host, he.event, own)
		want := err == nil && v.Block
		for _, from := range tbl.Dialects {
			for _, auto := range []bool{false, true} {
				if from.Name == he.host.Name && !auto {
					continue // pass-through: the hook reads it as its agent sent it
				}
				name := he.host.Name + "/" + he.event + "/" + from.Name
				if auto {
					name += "/auto"
				}
				t.Run(name, func(t *testing.T) {
					got := runWrappedCode(t, tbl, he, from.Name, auto, payload, bound)
					if got.ran || got.blocks != want || !strings.Contains(got.stderr, "over the") {
						t.Errorf("hook ran %v, host reads a block %v (want false, %v, and why on stderr)\nanswer: %s exit %d\nstderr: %s", got.ran, got.blocks, want, got.out.Stdout, got.out.ExitCode, got.stderr)
					}
				})
			}
		}
	}
}

// runWrappedCode is runWrapped with wrap's exit status kept in the answer,
// read by the host's own reading.
func runWrappedCode(t *testing.T, tbl *mappings.Table, he hostEvent, from string, auto bool, payload []byte, maxStdin int64) wrapRun {
	t.Helper()
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	hook := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ncat >/dev/null\n: > '"+marker+"'\necho 'blocked by the hook' >&2\nexit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "XDG_STATE_HOME=" + dir}
	for _, v := range he.host.Detect.Env {
		env = append(env, v+"="+dir)
	}
	host := he.host.Name
	if auto {
		host = "auto"
	}
	tr := wrapcli.Translation{Table: tbl}
	if he.host.Payload.NamesNoEvent() && !auto {
		tr.HostEventGiven = he.event
	}
	var stdout, stderr bytes.Buffer
	code := wrap.Run(wrap.Options{
		Table: tbl, Translation: tr,
		From: from, Host: host, Command: []string{hook},
		Stdin: bytes.NewReader(payload), Stdout: &stdout, Stderr: &stderr,
		Environ: env, MaxStdin: maxStdin,
	})
	_, err := os.Stat(marker)
	out := translate.Output{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), ExitCode: code}
	v, _, rerr := translate.ReadOutput(he.host, he.event, out)
	return wrapRun{ran: err == nil, blocks: rerr == nil && v.Block, out: wrap.Output(out), stderr: stderr.String()}
}
