package wrap

import (
	"slices"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// A Crush hook gets the variables Crush sets from its payload
// (internal/hooks/input.go:51-76 at charmbracelet/crush@37f36e93): the
// event, the tool, and tool_input's command and file_path where the call
// has them, over any of the host's; a model's NUL, which no environment can
// hold (exec fails, and a guard with it), is dropped and nothing after it
// is lost. A Claude hook on Crush loses Crush's own variables.
func TestHookEnvCrush(t *testing.T) {
	table := mappings.Default()
	claude, crush := table.MustDialect("claude"), table.MustDialect("crush")
	payload := `{"event":"PreToolUse","session_id":"s1","cwd":"/p","tool_name":"bash","tool_input":{"command":"echo \u0000; rm -rf ~\nx=$(id)","file_path":7}}`
	for _, c := range []struct {
		name       string
		environ    []string
		host, hook *mappings.Dialect
		want       []string
	}{
		// Crush sets no CLAUDE_PROJECT_DIR: the host's is dropped.
		{"crush hook on claude", []string{"CLAUDE_PROJECT_DIR=/c", "CRUSH_TOOL_NAME=stale"}, claude, crush, []string{
			"CRUSH_PROJECT_DIR=/c", "CRUSH_CWD=/c", "CRUSH_SESSION_ID=s1",
			"AGENT=crush", "AI_AGENT=crush", "CRUSH=1",
			"CRUSH_EVENT=PreToolUse", "CRUSH_TOOL_INPUT_COMMAND=echo ; rm -rf ~\nx=$(id)", "CRUSH_TOOL_INPUT_FILE_PATH=7", "CRUSH_TOOL_NAME=bash"}},
		{"claude hook on crush", []string{"CRUSH_PROJECT_DIR=/r", "CRUSH_TOOL_INPUT_COMMAND=ls", "CRUSH=1"}, crush, claude, []string{
			"CLAUDE_PROJECT_DIR=/r", "CLAUDE_CODE_SESSION_ID=s1", "CLAUDECODE=1", "CLAUDE_CODE_CHILD_SESSION=1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := hookEnv(c.environ, c.host, c.hook, []byte(payload))
			if !slices.Equal(got, c.want) {
				t.Errorf("hookEnv:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
