//go:build unix

package migrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A plugin's file is never copied through a symlinked directory already in
// the destination (an earlier version of the plugin may have shipped
// "sub" as a link to ~/.ssh): on the old code CopyPluginFile wrote
// sub/authorized_keys into the link's target.
func TestCopyPluginFileNeverLeavesTheDestination(t *testing.T) {
	base := t.TempDir()
	src, dst, outside := filepath.Join(base, "src"), filepath.Join(base, "dst"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(src, "sub"), dst, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(src, "sub", "authorized_keys"), []byte("ssh-ed25519 AAAA attacker\n"), 0o644)
	os.Symlink(outside, filepath.Join(dst, "sub"))
	err := CopyPluginFile(src, dst, filepath.Join("sub", "authorized_keys"))
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("CopyPluginFile = %v; want it refused", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("written outside the destination: %v", ents)
	}
	// A real directory is fine.
	os.Remove(filepath.Join(dst, "sub"))
	if err := CopyPluginFile(src, dst, filepath.Join("sub", "authorized_keys")); err != nil {
		t.Fatal(err)
	}
}
