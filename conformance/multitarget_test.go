//go:build unix

package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
)

// TestMultiTargetMigrate is issue 24's team flow, live: a Claude guard
// written once, one `hookx migrate --from claude --to codex,copilot,qwen`,
// and each of the three agents (one run each, in its own copy of the
// project after that same migration) blocks the destructive command and
// runs the harmless one.
func TestMultiTargetMigrate(t *testing.T) {
	p := requireAgents(t)
	var sc *scenario
	for _, s := range scenarios() {
		if s.name == "guard/claude-permissionDecision-deny" {
			sc = s
		}
	}
	if sc == nil {
		t.Fatal("no scenario guard/claude-permissionDecision-deny")
	}
	hosts := []driver.Agent{driver.Codex, driver.Copilot, driver.Qwen}
	for _, host := range hosts {
		t.Run(string(host), func(t *testing.T) {
			t.Parallel()
			bin := requireHookx(t)
			sb := newSandbox(t, p, sc.projectName)
			if err := sc.writeProject(sb); err != nil {
				t.Fatal(err)
			}
			sb.PathDirs = []string{filepath.Dir(bin)}
			var setup strings.Builder
			args := []string{"migrate", "--from", "claude", "--to", "codex,copilot,qwen", "--dir", sb.Project}
			if problems := migrate(t, sb, host, bin, args, &setup, false); problems != nil {
				t.Fatalf("%s\n%s", strings.Join(problems, "\n"), setup.String())
			}
			for _, h := range hosts {
				if b, err := os.ReadFile(sb.Path(settingsFile(h))); err != nil || !strings.Contains(string(b), "hookx wrap --from claude --host "+string(h)) {
					t.Fatalf("the one migration wrote no %s entry in %s (%v):\n%s", h, settingsFile(h), err, setup.String())
				}
			}
			o, err := runAgent(t, p, sb, host, sc)
			if err != nil {
				t.Fatal(err)
			}
			o.wantWarning = ""
			problems := append(commonProblems(o), sc.check(o)...)
			t.Logf("%s after migrate --to codex,copilot,qwen: agent run took %s", host, o.res.Duration.Round(time.Millisecond))
			if len(problems) > 0 {
				t.Errorf("%s:\n%s\nsetup:\n%s\n%s", host, strings.Join(problems, "\n"), setup.String(), o.describe())
			}
		})
	}
}
