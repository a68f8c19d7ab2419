//go:build unix

package migrate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// withSeams sets WriteSeams for one test.
func withSeams(t *testing.T, before, rename, busy func(string)) {
	t.Helper()
	saved := WriteSeams
	WriteSeams.BeforeCheck, WriteSeams.BeforeRename, WriteSeams.LockBusy = before, rename, busy
	t.Cleanup(func() { WriteSeams = saved })
}

// An edit saved while WriteFile writes (its new content already beside the
// target) is kept: WriteFile refuses with ErrChanged naming the file, and
// writes nothing, no backup either (the old code had already rotated the
// backups by then), and leaves no temporary file.
func TestWriteFileKeepsAnEditMadeWhileWriting(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	os.WriteFile(p, []byte(`{"v": 1}`), 0o644)
	withSeams(t, func(real string) { os.WriteFile(real, []byte(`{"edited": true}`), 0o644) }, nil, nil)
	err := WriteFile(p, []byte(`{"v": 1}`), []byte(`{"v": 2}`))
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), p) {
		t.Fatalf("WriteFile = %v; want ErrChanged naming %s", err, p)
	}
	if b, _ := os.ReadFile(p); string(b) != `{"edited": true}` {
		t.Errorf("target %q; the edit is lost", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("files %v; want the target alone (nothing written)", names)
	}
}

// Two writers of the same file never lose each other's work: the second
// one waits for the first's lock, then finds the target changed and plans
// again. The first is held right before its rename (after its last check)
// while the second runs: the old code, without a lock, let the second
// write and then renamed the first's content over it.
func TestWriteFileSerializesWriters(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	os.WriteFile(p, []byte("x\n"), 0o644)
	// writer appends line to the file, planning again while it changes.
	writer := func(line string) error {
		for range 3 {
			before, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			err = WriteFile(p, before, append(before, line+"\n"...))
			if !errors.Is(err, ErrChanged) {
				return err
			}
		}
		return errors.New("changed 3 times")
	}
	waiting := make(chan struct{})
	var first atomic.Bool
	var busyOnce sync.Once
	bDone := make(chan error, 1)
	withSeams(t, nil, func(string) {
		if !first.CompareAndSwap(false, true) {
			return // B's own rename
		}
		go func() { bDone <- writer("B") }()
		// Go on once B waits for the lock, or (without one) is done.
		select {
		case <-waiting:
		case err := <-bDone:
			bDone <- err
		case <-time.After(20 * time.Second):
			t.Error("B neither waited for the lock nor finished")
		}
	}, func(string) { busyOnce.Do(func() { close(waiting) }) })
	if err := writer("A"); err != nil {
		t.Fatalf("A: %v", err)
	}
	if err := <-bDone; err != nil {
		t.Fatalf("B: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "x\nA\nB\n" {
		t.Errorf("target %q, want both writers' lines", b)
	}
}
