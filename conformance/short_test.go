package conformance

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestShortSkipsTheRealAgents: `go test -short ./...` is the quick loop and
// runs no real agent, without HOOKX_CONFORMANCE=off. The test binary runs
// the suite again under -test.short, with nothing of this environment (no
// HOOKX_CONFORMANCE, no CI) and no npm on PATH, so that it could not
// install an agent either: the suite must skip, and say it is for -short.
func TestShortSkipsTheRealAgents(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestConformance$", "-test.short", "-test.v", "-test.count=1")
	cmd.Env = []string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the suite under -short: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- SKIP: TestConformance") || !strings.Contains(string(out), "SKIPPED: -short") {
		t.Errorf("under -short the suite did not skip for -short:\n%s", out)
	}
}
