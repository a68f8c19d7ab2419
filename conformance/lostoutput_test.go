//go:build unix

package conformance

import (
	"testing"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// TestLostFastOutputIsNarrow: only the host's own record of the same
// command run to exit 0 with no output counts as a loss, and only on a host
// known to lose it. The first text is the one CI saw (2026-11-27).
func TestLostFastOutputIsNarrow(t *testing.T) {
	const lost = "Command: printf ALLOW%s -RAN\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)"
	for _, tc := range []struct {
		name string
		host driver.Agent
		text string
		want bool
	}{
		{"qwen lost it", driver.Qwen, lost, true},
		{"qwen lost it, the command with its sleep", driver.Qwen, "Command: printf ALLOW%s -RAN; sleep 0.3\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 0\n", true},
		{"a host that does not lose output", driver.Claude, lost, false},
		{"another command", driver.Qwen, "Command: true\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 0\n", false},
		{"a failed command", driver.Qwen, "Command: printf ALLOW%s -RAN\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1\n", false},
		{"a hook's block", driver.Qwen, "Blocked by hook: GUARD: printf ALLOW%s -RAN is forbidden", false},
		{"output that is there", driver.Qwen, "Command: printf ALLOW%s -RAN\nDirectory: (root)\nOutput: ALLOW-RAN\nError: (none)\nExit Code: 0\n", false},
	} {
		if got := lostFastOutput(tc.host, tc.text, "printf ALLOW%s -RAN"); got != tc.want {
			t.Errorf("%s: lostFastOutput = %v, want %v", tc.name, got, tc.want)
		}
	}
}
