//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestAppend(t *testing.T) {
	for _, tt := range []struct {
		name    string
		setup   func(p string)
		created bool
		refused bool
	}{
		{"missing", func(string) {}, true, false},
		{"private file", func(p string) { os.WriteFile(p, nil, 0o600) }, false, false},
		{"file others can read", func(p string) { os.WriteFile(p, nil, 0o600); os.Chmod(p, 0o640) }, false, true},
		{"symlink", func(p string) { os.WriteFile(p+".t", nil, 0o600); os.Symlink(p+".t", p) }, false, true},
		{"dangling symlink", func(p string) { os.Symlink(p+".t", p) }, false, true},
		// A FIFO would hang a writer with no reader: refused at once.
		{"fifo", func(p string) { syscall.Mkfifo(p, 0o600) }, false, true},
		{"directory", func(p string) { os.Mkdir(p, 0o700) }, false, true},
		// A hard link planted to one of the user's private files.
		{"hard link", func(p string) { os.WriteFile(p+".t", nil, 0o600); os.Link(p+".t", p) }, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f")
			tt.setup(p)
			done := make(chan struct{})
			var (
				created bool
				err     error
			)
			go func() {
				var f *os.File
				f, created, err = Append(p, 0o600)
				if f != nil {
					f.Close()
				}
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("Append hangs")
			}
			if refused := err != nil; refused != tt.refused || created != tt.created {
				t.Errorf("Append: created %v, err %v; want created %v, refused %v", created, err, tt.created, tt.refused)
			}
			if tt.name != "directory" && tt.name != "fifo" && err != nil && !errors.Is(err, ErrRefused) {
				t.Errorf("err %v is not ErrRefused", err)
			}
			if _, err := os.Stat(p + ".t"); tt.name == "dangling symlink" && err == nil {
				t.Error("the link's target was created")
			}
		})
	}
}

func TestPrivateDir(t *testing.T) {
	base := t.TempDir()
	if err := PrivateDir(filepath.Join(base, "a", "b", "c"), 2); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a/b", "a/b/c"} {
		if fi, _ := os.Stat(filepath.Join(base, d)); fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v", d, fi.Mode().Perm())
		}
	}
	os.Chmod(filepath.Join(base, "a", "b"), 0o755)
	if err := PrivateDir(filepath.Join(base, "a", "b", "c"), 2); err != nil {
		t.Errorf("a parent others can read but not write: %v", err)
	}
	os.Chmod(filepath.Join(base, "a", "b"), 0o775)
	if err := PrivateDir(filepath.Join(base, "a", "b", "c"), 2); !errors.Is(err, ErrRefused) {
		t.Errorf("a parent others can write: %v", err)
	}
	if fi, _ := os.Stat(filepath.Join(base, "a", "b")); fi.Mode().Perm() != 0o775 {
		t.Errorf("re-moded: %v", fi.Mode().Perm())
	}
	// The levels above are not checked: $XDG_STATE_HOME is the user's.
	if err := PrivateDir(filepath.Join(base, "a", "b", "c", "d"), 1); err != nil {
		t.Errorf("levels 1: %v", err)
	}
}

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(ok, []byte(`{"hooks":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(ok, link); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, 65), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{ok, link} {
		if b, err := ReadRegular(p, 64); err != nil || string(b) != `{"hooks":{}}` {
			t.Errorf("ReadRegular(%s) = %q, %v; want the file", p, b, err)
		}
	}
	// Each of these hung (the FIFO) or ran out of memory (/dev/zero) with
	// os.ReadFile, which migrate and doctor used on settings files.
	for _, p := range []string{zero, fifo, big, dir} {
		done := make(chan error, 1)
		go func() { _, err := ReadRegular(p, 64); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrRefused) {
				t.Errorf("ReadRegular(%s) = %v, want ErrRefused", p, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadRegular(%s) did not return", p)
		}
	}
	if _, err := ReadRegular(filepath.Join(dir, "missing"), 64); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}
