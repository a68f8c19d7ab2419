//go:build unix

package migrate

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The backup beside a settings file is not read or written through when a
// repository planted something else there: a FIFO hung migrate (the old
// code read it), a symlink to a file outside had its target read as the
// earlier backup.
func TestBackupPathThatIsNotAFile(t *testing.T) {
	for _, tt := range []struct {
		name  string
		plant func(bak, outside string) error
	}{
		{"fifo", func(bak, _ string) error { return syscall.Mkfifo(bak, 0o600) }},
		{"symlink", func(bak, outside string) error { return os.Symlink(outside, bak) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "settings.json")
			outside := filepath.Join(dir, "outside")
			os.WriteFile(outside, []byte("precious\n"), 0o600)
			os.WriteFile(target, []byte("{}\n"), 0o644)
			if err := tt.plant(target+BackupSuffix, outside); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- WriteFile(target, []byte("{}\n"), []byte("{\"a\":1}\n")) }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "not a regular file") {
					t.Errorf("WriteFile = %v; want the backup path refused", err)
				}
			case <-time.After(3 * time.Second):
				t.Fatal("WriteFile hangs on the planted backup path")
			}
			if b, _ := os.ReadFile(target); string(b) != "{}\n" {
				t.Errorf("target %q changed", b)
			}
			if b, _ := os.ReadFile(outside); string(b) != "precious\n" {
				t.Errorf("outside %q changed", b)
			}
		})
	}
}
