package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookx-dev/hookx/internal/wrapcli"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/hookx-dev/hookx/translate"
	"github.com/hookx-dev/hookx/wrap"
	"github.com/tailscale/hujson"
)

// extraTable is the embedded table plus one more dialect given only as a
// data file, "nextagent": Claude's protocol and events, a settings file
// with its events at the root and only three handler keys, a timeout read
// as milliseconds from 1000 on, its own project variable, and an
// environment variable that names it as the host. Nothing in Go knows it.
func extraTable(t *testing.T) *mappings.Table {
	t.Helper()
	fsys := fstest.MapFS{}
	names, err := fs.Glob(mappings.Data, "data/*.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := fs.ReadFile(mappings.Data, n)
		if err != nil {
			t.Fatal(err)
		}
		fsys[n] = &fstest.MapFile{Data: b}
	}
	std, err := hujson.Standardize(fsys["data/claude.jsonc"].Data)
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(std, &d); err != nil {
		t.Fatal(err)
	}
	d["name"], d["agent"], d["version"] = "nextagent", "Next Agent", "1.0"
	d["settings"] = map[string]any{"project": ".nextagent/hooks.json", "user": "~/.nextagent/hooks.json", "strictJSON": true,
		"shape": map[string]any{"hooksKey": "", "handlerKeys": []string{"type", "command", "timeout"}}}
	d["timeout"] = map[string]any{"unit": "s", "msFrom": 1000, "default": 600}
	d["detect"] = map[string]any{"env": []string{"NEXTAGENT"}}
	d["env"] = map[string]any{"projectDir": "NEXT_PROJECT_DIR"}
	d["signature"] = []string{}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	fsys["data/nextagent.jsonc"] = &fstest.MapFile{Data: b}
	tbl, err := mappings.Load(fsys, "data")
	if err != nil {
		t.Fatalf("the table with one more data file does not load: %v", err)
	}
	return tbl
}

// A Claude project migrated to a dialect that is only a data file: its
// events at the root, only the handler keys it takes, a timeout it would
// read as milliseconds written in milliseconds, each reported; a second
// run changes nothing.
func TestMigrateToADialectGivenOnlyAsData(t *testing.T) {
	tbl := extraTable(t)
	src := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/guard.sh", "timeout": 1200, "statusMessage": "checking"}]}]}}`
	opts := migrate.Options{Table: tbl, From: "claude", To: "nextagent", Wrap: true, Hookx: "hookx"}
	res, err := migrate.Plan(opts, []migrate.Source{{Path: ".claude/settings.json", Scope: "project", Data: []byte(src)}}, migrate.Source{Path: ".nextagent/hooks.json"})
	if err != nil {
		t.Fatal(err)
	}
	var root map[string][]struct {
		Matcher string           `json:"matcher"`
		Hooks   []map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(res.After, &root); err != nil {
		t.Fatalf("the target is not the events at the root: %v\n%s", err, res.After)
	}
	if _, ok := root["hooks"]; ok || len(root["PreToolUse"]) != 1 {
		t.Fatalf("want PreToolUse at the root and no hooks key:\n%s", res.After)
	}
	h := root["PreToolUse"][0].Hooks[0]
	if len(h) != 3 || h["timeout"] != float64(1205000) {
		t.Errorf("handler = %v, want type, command and timeout 1205000 (1205 s in ms: it reads 1205 as ms)", h)
	}
	cmd, _ := h["command"].(string)
	if !strings.Contains(cmd, "hookx wrap --from claude --host nextagent --timeout 1200s") {
		t.Errorf("command %q does not run the hook through hookx wrap with the host named", cmd)
	}
	report := reportText(res)
	for _, want := range []string{"written in milliseconds", `label "checking" not carried`} {
		if !strings.Contains(report, want) {
			t.Errorf("the report does not say %q:\n%s", want, report)
		}
	}
	again, err := migrate.Plan(opts, []migrate.Source{{Path: ".claude/settings.json", Scope: "project", Data: []byte(src)}}, migrate.Source{Path: ".nextagent/hooks.json", Data: res.After})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed() {
		t.Errorf("a second run changes the target:\n%s", migrate.UnifiedDiff("first", "second", res.After, again.After))
	}
}

// From that dialect: a timeout it reads as milliseconds is read so, and a
// root key that is not an event (a wrapper it ignores) is reported.
func TestMigrateFromADialectGivenOnlyAsData(t *testing.T) {
	tbl := extraTable(t)
	src := `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5000}]}],
	  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]}}`
	opts := migrate.Options{Table: tbl, From: "nextagent", To: "gemini", Wrap: true, Hookx: "hookx"}
	res, err := migrate.Plan(opts, []migrate.Source{{Path: ".nextagent/hooks.json", Scope: "project", Data: []byte(src)}}, migrate.Source{Path: ".gemini/settings.json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Entries) != 1 || res.Entries[0].Event != "BeforeTool" || res.Entries[0].Timeout != 10000 {
		t.Fatalf("entries = %+v, want one BeforeTool entry of 10000 ms (5 s and the margin)", res.Entries)
	}
	if !strings.Contains(res.Entries[0].Command, "--timeout 5s") {
		t.Errorf("command %q: the hook's 5000 is 5 s", res.Entries[0].Command)
	}
	if r := reportText(res); !strings.Contains(r, `root key "hooks"`) {
		t.Errorf("the ignored hooks wrapper is not reported:\n%s", r)
	}
}

// The host is told by the dialect's own environment variable; without it,
// Claude's own fields still name Claude.
func TestDetectHostByADialectsOwnVariable(t *testing.T) {
	tbl := extraTable(t)
	payload := []byte(`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"permission_mode":"default"}`)
	env := map[string]string{"NEXTAGENT": "1"}
	if got, err := translate.DetectHost(tbl, payload, func(k string) string { return env[k] }); err != nil || got != "nextagent" {
		t.Errorf("with NEXTAGENT set: %q, %v; want nextagent", got, err)
	}
	if got, err := translate.DetectHost(tbl, payload, func(string) string { return "" }); err != nil || got != "claude" {
		t.Errorf("without it: %q, %v; want claude", got, err)
	}
}

// A Gemini guard wrapped under the new dialect, found by its variable:
// the deny comes out in the host's protocol (Claude's), and the hook sees
// its own agent's payload.
func TestWrapUnderADialectGivenOnlyAsData(t *testing.T) {
	tbl := extraTable(t)
	dir := t.TempDir()
	hook := filepath.Join(dir, "guard.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ncat > \"$(dirname \"$0\")/seen.json\"\necho '{\"decision\":\"deny\",\"reason\":\"no rm\"}'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	payload := `{"session_id":"s","transcript_path":"","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	var out, errb bytes.Buffer
	code := wrap.Run(wrap.Options{
		Table: tbl, Translation: wrapcli.Translation{Table: tbl},
		From: "gemini", Host: "auto", Command: []string{hook},
		Stdin: strings.NewReader(payload), Stdout: &out, Stderr: &errb,
		Environ: []string{"NEXTAGENT=1", "PATH=" + os.Getenv("PATH")},
	})
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errb.String())
	}
	var got struct {
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.HookSpecificOutput.PermissionDecision != "deny" ||
		!strings.Contains(got.HookSpecificOutput.PermissionDecisionReason, "no rm") {
		t.Fatalf("host got %s (%v), want a Claude-protocol deny with the reason; stderr:\n%s", out.Bytes(), err, errb.String())
	}
	seen, err := os.ReadFile(filepath.Join(dir, "seen.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Event string `json:"hook_event_name"`
		Tool  string `json:"tool_name"`
	}
	if json.Unmarshal(seen, &ev) != nil || ev.Event != "BeforeTool" || ev.Tool != "run_shell_command" {
		t.Errorf("the Gemini hook saw %s, want BeforeTool for run_shell_command", seen)
	}
}

func reportText(res *migrate.Result) string {
	var b strings.Builder
	for _, it := range res.Items {
		b.WriteString(string(it.Level) + ": " + it.What + " — " + it.Reason + "\n")
	}
	return b.String()
}
