//go:build unix

package transcript

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// A session id is the host's to choose: whatever it is, the translated
// transcript stays a file of its own, apart from hookx's bookkeeping.
func TestSessionIDCannotNameTheCacheFiles(t *testing.T) {
	data := golden(t, "gemini-ralph-loop.txtar", "real-gemini.jsonl")
	for _, session := range []string{"turn", "t.u.r.n", "state", "last", ".pruned", "../../x", "a/../../b", "x\x00y", strings.Repeat("z", 10000)} {
		for _, dir := range [][2]string{{"gemini", "claude"}, {"claude", "gemini"}} {
			t.Run(dir[0]+"-"+session[:min(len(session), 12)], func(t *testing.T) {
				tmp := t.TempDir()
				src := filepath.Join(tmp, "src.jsonl")
				os.WriteFile(src, data, 0o600)
				conv := converter(t, dir[0], dir[1])
				conv.Session = session
				cache := &Cache{Dir: filepath.Join(tmp, "cache")}
				res, err := cache.Sync(conv, src, "")
				if err != nil {
					t.Fatal(err)
				}
				want, _ := conv.Convert(data, "")
				got, err := os.ReadFile(res.Path)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Errorf("session %.40q: the translated transcript at %s is not the conversion:\n%.300s", session, res.Path, got)
				}
				rel, err := filepath.Rel(cache.Dir, res.Path)
				if err != nil || strings.HasPrefix(rel, "..") || len(filepath.Base(res.Path)) > 255 {
					t.Errorf("session %.40q: transcript at %.200s, outside %s or too long a name", session, res.Path, cache.Dir)
				}
				if _, wantTurn := conv.Convert(data, ""); res.Turn().Prompt != wantTurn.Prompt {
					t.Errorf("session %.40q: the turn's prompt is %q, want %q", session, res.Turn().Prompt, wantTurn.Prompt)
				}
			})
		}
	}
}

// transcript_path comes from the host's payload: a FIFO (or any file that
// is not a regular one) must not hang hookx before the hook even runs.
func TestSyncDoesNotHangOnAFIFOTranscript(t *testing.T) {
	tmp := t.TempDir()
	fifo := filepath.Join(tmp, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{fifo, "/dev/zero", tmp} {
		done := make(chan error, 1)
		go func() {
			_, err := (&Cache{Dir: filepath.Join(tmp, "cache")}).Sync(converter(t, "claude", "gemini"), src, "")
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: Sync accepted a transcript that is not a regular file", src)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Sync hangs on a transcript_path that is not a regular file", src)
		}
	}
}

// A cache directory that is a symlink, or a file in it planted as a
// symlink, is never written through; a cache others could read is made
// owner-only.
func TestCacheNeverWritesThroughPlantedSymlinks(t *testing.T) {
	data := golden(t, "claude-ralph-loop.txtar", "real-claude.jsonl")
	setup := func(t *testing.T) (tmp, src, victim string, conv *Converter) {
		tmp = t.TempDir()
		src = filepath.Join(tmp, "src.jsonl")
		os.WriteFile(src, data, 0o600)
		victim = filepath.Join(tmp, "victim")
		os.WriteFile(victim, []byte("precious\n"), 0o600)
		return tmp, src, victim, converter(t, "claude", "gemini")
	}
	intact := func(t *testing.T, victim string) {
		t.Helper()
		if b, err := os.ReadFile(victim); err != nil || string(b) != "precious\n" {
			t.Errorf("the symlink's target was written: %q, %v", b, err)
		}
	}

	t.Run("files", func(t *testing.T) {
		tmp, src, victim, conv := setup(t)
		cache := &Cache{Dir: filepath.Join(tmp, "cache")}
		res, err := cache.Sync(conv, src, "")
		if err != nil {
			t.Fatal(err)
		}
		// Plant every file of the session, and the prune marker, as
		// symlinks, and force a rebuild by touching the source's identity.
		dir := filepath.Dir(res.Path)
		for _, name := range []string{"state.json", filepath.Base(res.Path), "turn.jsonl", ".turn.jsonl"} {
			os.Remove(filepath.Join(dir, name))
			os.Symlink(victim, filepath.Join(dir, name))
		}
		os.Remove(filepath.Join(cache.Dir, ".pruned"))
		os.Symlink(victim, filepath.Join(cache.Dir, ".pruned"))
		os.WriteFile(src+".new", data, 0o600)
		os.Rename(src+".new", src)
		cache.Sync(conv, src, "")
		intact(t, victim)
	})
	t.Run("session-dir", func(t *testing.T) {
		tmp, src, victim, conv := setup(t)
		cache := &Cache{Dir: filepath.Join(tmp, "cache")}
		res, err := cache.Sync(conv, src, "")
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(res.Path)
		elsewhere := filepath.Join(tmp, "elsewhere")
		os.Mkdir(elsewhere, 0o700)
		os.RemoveAll(dir)
		os.Symlink(elsewhere, dir)
		if _, err := cache.Sync(conv, src, ""); err == nil {
			t.Error("Sync used a session directory that is a symlink")
		}
		if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
			t.Errorf("Sync wrote through the symlinked session directory: %v", ents)
		}
		intact(t, victim)
	})
	t.Run("cache-dir", func(t *testing.T) {
		tmp, src, _, conv := setup(t)
		elsewhere := filepath.Join(tmp, "elsewhere")
		os.Mkdir(elsewhere, 0o700)
		os.Symlink(elsewhere, filepath.Join(tmp, "cache"))
		if _, err := (&Cache{Dir: filepath.Join(tmp, "cache")}).Sync(conv, src, ""); err == nil {
			t.Error("Sync used a cache directory that is a symlink")
		}
		if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
			t.Errorf("Sync wrote through the symlinked cache directory: %v", ents)
		}
	})
}

// A transcript can grow to hundreds of megabytes: converting it must not
// hold it, or its translation, in memory whole. Running out of memory would
// kill hookx before the hook runs, and the hook's block with it.
func TestSyncMemoryIsBoundedByTheLongestLine(t *testing.T) {
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src.jsonl")
	f, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	const total = 96 << 20
	text := strings.Repeat("x", 900)
	line := `{"type":"user","message":{"role":"user","content":"` + text + `"},"uuid":"u"}` + "\n"
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString(line)
	}
	for n := 0; n < total; n += b.Len() {
		f.WriteString(b.String())
	}
	f.Close()

	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	res, err := (&Cache{Dir: filepath.Join(tmp, "cache")}).Sync(converter(t, "claude", "gemini"), src, "")
	close(stop)
	<-sampled
	if err != nil {
		t.Fatal(err)
	}
	if res.Read < total {
		t.Fatalf("read %d bytes of %d", res.Read, total)
	}
	t.Logf("heap grew %d MiB", (peak.Load()-base)>>20)
	if grew := peak.Load() - base; grew > 48<<20 {
		t.Errorf("converting a %d MiB transcript took %d MiB of heap: it is held whole", total>>20, grew>>20)
	}
}

// Hooks of one session run at once (Claude runs a tool's hooks in
// parallel): however their Syncs interleave with the host's appends, the
// translated file is the conversion of the whole source, each record once.
func TestConcurrentSyncsOfOneSession(t *testing.T) {
	for _, tc := range []struct{ file, src, from, to string }{
		{"claude-ralph-loop.txtar", "real-claude.jsonl", "claude", "gemini"},
		{"gemini-ralph-loop.txtar", "real-gemini.jsonl", "gemini", "claude"},
	} {
		t.Run(tc.from, func(t *testing.T) {
			data := golden(t, tc.file, tc.src)
			tmp := t.TempDir()
			src := filepath.Join(tmp, "src.jsonl")
			f, err := os.Create(src)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cache := &Cache{Dir: filepath.Join(tmp, "cache")}
			lines := strings.SplitAfter(string(data), "\n")
			errs := make(chan error, 4*len(lines))
			var wg sync.WaitGroup
			for _, line := range lines {
				f.WriteString(line)
				for range 4 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						_, err := cache.Sync(converter(t, tc.from, tc.to), src, "")
						errs <- err
					}()
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			res, err := cache.Sync(converter(t, tc.from, tc.to), src, "")
			if err != nil {
				t.Fatal(err)
			}
			want, _ := converter(t, tc.from, tc.to).Convert(data, "")
			got, _ := os.ReadFile(res.Path)
			if string(got) != string(want) {
				t.Errorf("concurrent syncs gave\n%.2000s\nwant\n%.2000s", got, want)
			}
		})
	}
}

// A session idle for longer than MaxAge that a hook is syncing right now
// (it holds the lock) is not removed under it: its hook would get a
// transcript_path to a file that no longer exists.
func TestPruneKeepsASessionInUse(t *testing.T) {
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src.jsonl")
	os.WriteFile(src, golden(t, "claude-ralph-loop.txtar", "real-claude.jsonl"), 0o600)
	now := time.Now()
	cache := &Cache{Dir: filepath.Join(tmp, "cache"), MaxAge: time.Hour, Now: func() time.Time { return now }}
	old := converter(t, "claude", "gemini")
	old.Session = "old-session"
	oldRes, err := cache.Sync(old, src, "")
	if err != nil {
		t.Fatal(err)
	}
	sf, err := os.OpenFile(filepath.Join(filepath.Dir(oldRes.Path), "state.json"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	if err := lock(sf); err != nil {
		t.Fatal(err)
	}
	now = now.Add(3 * time.Hour)
	if _, err := cache.Sync(converter(t, "claude", "gemini"), src, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(oldRes.Path); err != nil {
		t.Errorf("a session in use was pruned: %v", err)
	}
}

// A transcript_path naming a big file with no line end (a disk image, a
// sparse file) is not read into memory whole: a line over maxLine is an
// error, and the hook gets the host's path.
func TestSyncRefusesALineOverTheBound(t *testing.T) {
	defer func(old int) { maxLine = old }(maxLine)
	maxLine = 1 << 20
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src.jsonl")
	f, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: 8 GiB of zeros, then a line end.
	if err := f.Truncate(8 << 30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	f.WriteAt([]byte("\n"), 8<<30)
	f.Close()
	_, err = (&Cache{Dir: filepath.Join(tmp, "cache")}).Sync(converter(t, "claude", "gemini"), src, "")
	if err == nil || !strings.Contains(err.Error(), "line") {
		t.Errorf("Sync of a file whose first line is 8 GiB = %v, want an error about the line", err)
	}
}

// A cache or session directory hookx did not create keeps its mode: one
// others can use is refused (the old code made it 0700), not re-moded.
func TestCacheNeverRemodesADirectoryItDidNotCreate(t *testing.T) {
	for _, which := range []string{"cache", "session"} {
		t.Run(which, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "src.jsonl")
			os.WriteFile(src, golden(t, "claude-ralph-loop.txtar", "real-claude.jsonl"), 0o644)
			cache := &Cache{Dir: filepath.Join(dir, "cache")}
			open := cache.Dir
			if which == "session" {
				// The session's directory, as a first Sync names it.
				res, err := cache.Sync(converter(t, "claude", "gemini"), src, "")
				if err != nil {
					t.Fatal(err)
				}
				open = filepath.Dir(res.Path)
				if open == cache.Dir {
					t.Fatalf("%s is the cache itself", res.Path)
				}
			} else {
				os.Mkdir(open, 0o755)
			}
			os.Chmod(open, 0o755)
			_, err := cache.Sync(converter(t, "claude", "gemini"), src, "")
			if err == nil || !strings.Contains(err.Error(), "does not change the mode") {
				t.Errorf("Sync = %v; want the directory open to others refused", err)
			}
			if fi, _ := os.Stat(open); fi.Mode().Perm() != 0o755 {
				t.Errorf("%s: mode %v, want 0755 as it was", open, fi.Mode().Perm())
			}
		})
	}
}
