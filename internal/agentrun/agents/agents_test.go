//go:build unix

package agents

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestInstallLeavesHomeAlone checks that installing and verifying the agents
// writes nothing into the user's home: the agents' `--version` runs used to
// leave ~/.gemini/projects.json.*.tmp files behind.
func TestInstallLeavesHomeAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the agents are not installed")
	}
	if os.Getenv("HOOKX_CONFORMANCE") == "off" {
		t.Skip("HOOKX_CONFORMANCE=off")
	}
	dir, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	_, err = Install(context.Background(), dir)
	if errors.Is(err, ErrNoNPM) && os.Getenv("CI") != "true" {
		t.Skipf("agents not installable here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("Install wrote %s into the home directory", e.Name())
	}
}

func TestVersionEnvRedirectsEveryHome(t *testing.T) {
	env := versionEnv([]string{"HOME=/home/u", "XDG_CONFIG_HOME=/home/u/.config", "PATH=/bin"}, "/tmp/h")
	got := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := got[k]; dup {
			t.Errorf("%s set twice", k)
		}
		got[k] = v
	}
	if got["HOME"] != "/tmp/h" || got["XDG_CONFIG_HOME"] != "/tmp/h/.config" || got["PATH"] != "/bin" {
		t.Errorf("versionEnv = %q", env)
	}
}
