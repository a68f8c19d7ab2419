//go:build unix

package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// eventScenarios check what a hook sees of a tool call (issue 8, "Events"):
// the model passes file paths relative to the project, which Gemini's tools
// accept and hand to hooks as written, while Claude Code gives its hooks
// absolute paths. A path guard written for either agent must block the same
// calls on both, and see only the arguments its own agent sends.
func eventScenarios() []*scenario {
	const secret = "KEY-SECRET-77"
	steps := []action{
		{kind: "read", path: "secrets/key.txt", asGiven: true},
		{kind: "write", path: "secrets/key.txt", content: "OVERWRITTEN\n", asGiven: true},
		{kind: "read", path: "notes.txt", asGiven: true},
		{kind: "edit", path: "notes.txt", old: "alpha", new: "beta", asGiven: true},
	}
	files := map[string]string{"secrets/key.txt": secret + "\n", "notes.txt": "alpha\n"}
	return []*scenario{
		{
			// The guard matches absolute paths only, as Claude Code always
			// sends them: natively Claude expands the model's relative path;
			// through hookx on Gemini, hookx must resolve it as Gemini does.
			name: "paths/claude-guard-relative", dialect: driver.Claude, steps: steps, files: files,
			hooks: []hookDef{{event: "PreToolUse", matcher: "Read|Write|Edit", script: "guard"}},
			scripts: map[string]string{"guard": readInput + "LABEL=pre\n" + logInput +
				"case \"$input\" in *'\"file_path\":\"/'*'/secrets/key.txt\"'*)\n" +
				"echo 'PATH-GUARD: secrets are off limits' >&2; exit 2;;\nesac\nexit 0\n"},
			check: pathCheck(secret, map[string][]string{
				"Read":  {"file_path", "offset", "limit", "pages"},
				"Write": {"file_path", "content"},
				"Edit":  {"file_path", "old_string", "new_string", "replace_all"},
			}, true),
		},
		{
			// A Gemini guard knows Gemini passes paths as the model wrote
			// them and matches the end of the path.
			name: "paths/gemini-guard-relative", dialect: driver.Gemini, steps: steps, files: files,
			hooks: []hookDef{{event: "BeforeTool", matcher: "read_file|write_file|replace", script: "guard"}},
			scripts: map[string]string{"guard": readInput + "LABEL=pre\n" + logInput +
				"case \"$input\" in *'secrets/key.txt\"'*)\n" +
				emit(`{"decision":"deny","reason":"PATH-GUARD: secrets are off limits"}`) + ";;\nesac\nexit 0\n"},
			check: pathCheck(secret, map[string][]string{
				"read_file":  {"file_path", "start_line", "end_line"},
				"write_file": {"file_path", "content"},
				"replace":    {"file_path", "instruction", "old_string", "new_string", "allow_multiple"},
			}, false),
		},
	}
}

// pathCheck checks the shared effects of the relative-path steps and the
// guard's logged stdin: the tools and arguments its own agent sends, and
// (absolute set) only absolute paths.
func pathCheck(secret string, args map[string][]string, absolute bool) func(o *outcome) []string {
	return func(o *outcome) []string {
		var p []string
		for _, r := range o.srv.Main() {
			if strings.Contains(r.AllText(), secret) {
				p = append(p, "the secret "+secret+" reached the model: the guard did not block the relative read")
				break
			}
		}
		if b, _ := os.ReadFile(o.sb.Path("secrets/key.txt")); string(b) != secret+"\n" {
			p = append(p, fmt.Sprintf("secrets/key.txt = %q: the guard did not block the relative write", b))
		}
		if b, _ := os.ReadFile(o.sb.Path("notes.txt")); string(b) != "beta\n" {
			p = append(p, fmt.Sprintf("notes.txt = %q after the relative edit, want %q", b, "beta\n"))
		}
		rs := lastResults(o)
		if len(rs) != 4 {
			return append(p, fmt.Sprintf("the model got %d tool results, want 4", len(rs)))
		}
		for i := range 2 {
			if !strings.Contains(rs[i].Text, "PATH-GUARD") || !rs[i].IsError {
				p = append(p, fmt.Sprintf("blocked call %d's result (error=%v) %q lacks the guard's reason", i, rs[i].IsError, rs[i].Text))
			}
		}
		if !strings.Contains(rs[2].Text, "alpha") {
			p = append(p, fmt.Sprintf("the harmless relative read did not reach the model: %q", rs[2].Text))
		}
		logs := o.hookLogs("pre.")
		if len(logs) != 4 {
			p = append(p, fmt.Sprintf("the guard ran %d times, want 4", len(logs)))
		}
		for _, f := range logs {
			b, _ := os.ReadFile(f)
			var in struct {
				Cwd       string         `json:"cwd"`
				ToolName  string         `json:"tool_name"`
				ToolInput map[string]any `json:"tool_input"`
			}
			if err := json.Unmarshal(b, &in); err != nil {
				p = append(p, fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b))
				continue
			}
			allowed, ok := args[in.ToolName]
			if !ok {
				p = append(p, fmt.Sprintf("the guard saw tool %q, which its own agent does not name so", in.ToolName))
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(in.ToolInput)) {
				if !slices.Contains(allowed, k) {
					p = append(p, fmt.Sprintf("%s tool_input has %q, which its own agent never sends", in.ToolName, k))
				}
			}
			path, _ := in.ToolInput["file_path"].(string)
			if absolute && !filepath.IsAbs(path) {
				p = append(p, fmt.Sprintf("%s file_path %q is not absolute, as its own agent would give it", in.ToolName, path))
			}
			if !filepath.IsAbs(path) {
				path = filepath.Join(in.Cwd, path)
			}
			if !strings.HasSuffix(path, "/secrets/key.txt") && !strings.HasSuffix(path, "/notes.txt") {
				p = append(p, fmt.Sprintf("%s file_path %q (cwd %q) is neither file the model named", in.ToolName, path, in.Cwd))
			}
		}
		return p
	}
}
