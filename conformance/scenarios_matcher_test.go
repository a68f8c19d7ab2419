//go:build unix

package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/agentrun/fakemodel"
)

// ls lists a project directory: Gemini's list_directory, Claude's legacy
// LS (which Claude Code 2.1.330 no longer offers).
func ls(path string) action { return action{kind: "ls", path: path} }

// pathGuard is a Claude path guard in the shape real configs have
// (matcher Read|LS): it reads file_path from Read and path from LS, and
// blocks anything under secret/ with exit 2. Any other tool name, or a
// path under another argument name, passes: that is what a wrong tool name
// or argument name would let through.
const pathGuard = readInput + "LABEL=guard\n" + logInput + `flat=$(printf '%s' "$input" | tr -d ' \n')
case "$flat" in
*'"tool_name":"LS"'*) key=path ;;
*'"tool_name":"Read"'*) key=file_path ;;
*) exit 0 ;;
esac
val=$(printf '%s' "$flat" | sed -n "s/.*\"$key\":\"\([^\"]*\)\".*/\1/p")
case "$val" in
*/secret|*/secret/*) echo "PATH-GUARD: $val is off limits" >&2; exit 2 ;;
esac
exit 0
`

// matcherScenarios are the scenarios of issue 16: a migrated matcher and
// the event its hook sees must agree.
func matcherScenarios() []*scenario {
	return []*scenario{{
		// A Claude guard matching Read|LS. Natively on Claude, the Read half
		// is the oracle (Claude Code 2.1.330 has no LS tool: the check
		// requires the listing half only on a host that offers a listing
		// tool). Through hookx on Gemini, list_directory must reach the hook
		// as LS with path, and be blocked.
		name: "matcher-legacy/claude-Read|LS-path-guard", dialect: driver.Claude,
		steps:   []action{ls("secret"), read("secret/token.txt"), read("public/readme.txt")},
		hooks:   []hookDef{{event: "PreToolUse", matcher: "Read|LS", script: "guard"}},
		scripts: map[string]string{"guard": pathGuard},
		files: map[string]string{
			"secret/token.txt":         "SECRET-TOKEN-77\n",
			"secret/LISTED-ONLY-91.md": "x\n",
			"public/readme.txt":        "PUBLIC-TEXT-33\n",
		},
		check: func(o *outcome) []string {
			var p []string
			for _, r := range o.srv.Main() {
				if strings.Contains(r.AllText(), "SECRET-TOKEN-77") {
					p = append(p, "the guarded SECRET-TOKEN-77 reached the model")
					break
				}
			}
			rs := lastResults(o)
			// Gemini's session context lists the project tree itself; only
			// a tool result must not.
			for _, r := range rs {
				if strings.Contains(r.Text, "LISTED-ONLY-91") {
					p = append(p, fmt.Sprintf("a listing of secret/ reached the model: %q", r.Text))
				}
			}
			if len(rs) != 3 {
				return append(p, fmt.Sprintf("the model got %d tool results, want 3", len(rs)))
			}
			listing := hostLists(o)
			switch {
			case listing && (!strings.Contains(rs[0].Text, "PATH-GUARD") || !rs[0].IsError):
				p = append(p, fmt.Sprintf("the listing of secret/ (error=%v) %q lacks the guard's reason PATH-GUARD", rs[0].IsError, rs[0].Text))
			case !listing && !rs[0].IsError:
				// Claude Code 2.1.330 answers "No such tool available: LS".
				p = append(p, fmt.Sprintf("the host offers no listing tool, yet the LS call succeeded: %q", rs[0].Text))
			}
			if !strings.Contains(rs[1].Text, "PATH-GUARD") || !rs[1].IsError {
				p = append(p, fmt.Sprintf("the read of secret/token.txt (error=%v) %q lacks the guard's reason PATH-GUARD", rs[1].IsError, rs[1].Text))
			}
			if !strings.Contains(rs[2].Text, "PUBLIC-TEXT-33") {
				p = append(p, fmt.Sprintf("the read of public/readme.txt did not reach the model: %q", rs[2].Text))
			}
			// The hook saw only the tools its matcher names, with their own
			// argument names: what Claude Code itself would send.
			var seen []string
			for _, f := range o.hookLogs("guard.") {
				var in struct {
					ToolName  string         `json:"tool_name"`
					ToolInput map[string]any `json:"tool_input"`
				}
				b, _ := os.ReadFile(f)
				if err := json.Unmarshal(b, &in); err != nil {
					p = append(p, fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b))
					continue
				}
				seen = append(seen, in.ToolName)
				want := map[string]string{"Read": "file_path", "LS": "path"}[in.ToolName]
				if _, ok := in.ToolInput[want]; want == "" || !ok {
					p = append(p, fmt.Sprintf("the hook saw tool %q with arguments %v; its matcher Read|LS names Read (file_path) and LS (path)", in.ToolName, in.ToolInput))
				}
			}
			slices.Sort(seen)
			want := []string{"Read", "Read"}
			if listing {
				want = []string{"LS", "Read", "Read"}
			}
			if !slices.Equal(seen, want) {
				p = append(p, fmt.Sprintf("the hook ran for %v, want %v", seen, want))
			}
			return p
		},
	}}
}

// lookaheadGuard blocks every call it is run for, and logs what it saw.
const lookaheadGuard = readInput + "LABEL=guard\n" + logInput + "echo 'LOOKAHEAD-GUARD: blocked' >&2\nexit 2\n"

// jsMatcherScenarios check a matcher Go's RE2 cannot read, which both
// agents read with JavaScript's RegExp.
func jsMatcherScenarios() []*scenario {
	return []*scenario{{
		// A Claude guard matching ^(?!Bash$)(Bash|Read)$: the lookahead
		// leaves Bash out. Natively Claude runs it for Read only; through
		// hookx on Gemini, read_file must be blocked and run_shell_command
		// run, the hook never seeing the shell call.
		name: "matcher-js/claude-lookahead-guard", dialect: driver.Claude,
		steps:   []action{shell("echo SHELL-RAN-12"), read("public/readme.txt")},
		hooks:   []hookDef{{event: "PreToolUse", matcher: "^(?!Bash$)(Bash|Read)$", script: "guard"}},
		scripts: map[string]string{"guard": lookaheadGuard},
		files:   map[string]string{"public/readme.txt": "PUBLIC-TEXT-33\n"},
		check: func(o *outcome) []string {
			var p []string
			rs := lastResults(o)
			if len(rs) != 2 {
				return append(p, fmt.Sprintf("the model got %d tool results, want 2", len(rs)))
			}
			if !strings.Contains(rs[0].Text, "SHELL-RAN-12") {
				p = append(p, fmt.Sprintf("the shell call, which the lookahead leaves out, did not run: %q", rs[0].Text))
			}
			if !strings.Contains(rs[1].Text, "LOOKAHEAD-GUARD") || strings.Contains(rs[1].Text, "PUBLIC-TEXT-33") {
				p = append(p, fmt.Sprintf("the read (error=%v) %q was not blocked with the guard's reason LOOKAHEAD-GUARD", rs[1].IsError, rs[1].Text))
			}
			var seen []string
			for _, f := range o.hookLogs("guard.") {
				var in struct {
					ToolName string `json:"tool_name"`
				}
				b, _ := os.ReadFile(f)
				if err := json.Unmarshal(b, &in); err != nil {
					p = append(p, fmt.Sprintf("hook stdin is not JSON: %v: %q", err, b))
					continue
				}
				seen = append(seen, in.ToolName)
			}
			if !slices.Equal(seen, []string{"Read"}) {
				p = append(p, fmt.Sprintf("the hook ran for %v, want [Read]", seen))
			}
			return p
		},
	}}
}

// hostLists reports whether the host offered the model a directory-listing
// tool (Gemini's list_directory, or an LS in Claude Code).
func hostLists(o *outcome) bool {
	m := o.srv.Main()
	if len(m) == 0 {
		return false
	}
	return slices.ContainsFunc(offeredTools(&m[0]), func(n string) bool { return n == "LS" || n == "list_directory" })
}

// offeredTools are the tool names a main-model request declares (Anthropic
// tools[].name, Gemini tools[].functionDeclarations[].name).
func offeredTools(r *fakemodel.Request) []string {
	var names []string
	tools, _ := r.JSON["tools"].([]any)
	for _, t := range tools {
		tm, _ := t.(map[string]any)
		if n, ok := tm["name"].(string); ok {
			names = append(names, n)
		}
		decls, _ := tm["functionDeclarations"].([]any)
		for _, d := range decls {
			if n, ok := d.(map[string]any)["name"].(string); ok {
				names = append(names, n)
			}
		}
	}
	return names
}
