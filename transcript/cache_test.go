package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
)

func golden(t testing.TB, name, section string) []byte {
	t.Helper()
	ar, err := parseGolden(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == section {
			return f.Data
		}
	}
	t.Fatalf("%s has no %s", name, section)
	return nil
}

func converter(t testing.TB, from, to string) *Converter {
	t.Helper()
	c, err := NewConverter(mappings.Default(), from, to)
	if err != nil {
		t.Fatal(err)
	}
	c.Session, c.Cwd = "00000000-0000-4000-8000-000000000000", "/scratch/home/project"
	return c
}

// Feeding the real transcript line by line through the cache gives the same
// file as converting it at once, in both directions, and each call reads
// only what was added.
func TestSyncIncrementalEqualsWhole(t *testing.T) {
	for _, tc := range []struct{ file, src, from, to string }{
		{"claude-ralph-loop.txtar", "real-claude.jsonl", "claude", "gemini"},
		{"gemini-ralph-loop.txtar", "real-gemini.jsonl", "gemini", "claude"},
		{"qwen-read-write.txtar", "real-qwen.jsonl", "qwen", "claude"},
		{"qwen-read-write.txtar", "real-qwen.jsonl", "qwen", "gemini"},
		{"codex-read-write.txtar", "real-codex.jsonl", "codex", "claude"},
		{"codex-read-write.txtar", "real-codex.jsonl", "codex", "gemini"},
		{"droid-read-write.txtar", "real-droid.jsonl", "droid", "claude"},
		{"droid-read-write.txtar", "real-droid.jsonl", "droid", "gemini"},
		{"copilot-read-write.txtar", "real-copilot.jsonl", "copilot", "claude"},
		{"copilot-read-write.txtar", "real-copilot.jsonl", "copilot", "gemini"},
	} {
		t.Run(tc.from+"-to-"+tc.to, func(t *testing.T) {
			data := golden(t, tc.file, tc.src)
			conv := converter(t, tc.from, tc.to)
			want, wantTurn := conv.Convert(data, "")
			dir := t.TempDir()
			src := filepath.Join(dir, "src.jsonl")
			cache := &Cache{Dir: filepath.Join(dir, "cache")}
			f, err := os.Create(src)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var res Synced
			lines := strings.SplitAfter(string(data), "\n")
			for i, line := range lines {
				// Write a line in two halves: a half line is not read yet.
				half := len(line) / 2
				f.WriteString(line[:half])
				if res, err = cache.Sync(conv, src, ""); err != nil {
					t.Fatal(err)
				}
				f.WriteString(line[half:])
				if res, err = cache.Sync(conv, src, ""); err != nil {
					t.Fatal(err)
				}
				if i > 0 && strings.HasSuffix(line, "\n") && res.Read != int64(len(line)) && res.Read != int64(len(line)-half) {
					t.Fatalf("line %d: read %d bytes, want only the new line's %d", i, res.Read, len(line))
				}
			}
			got, err := os.ReadFile(res.Path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("incremental result differs from the whole conversion:\n got %s\nwant %s", got, want)
			}
			if diff := cmp.Diff(wantTurn, res.Turn()); diff != "" {
				t.Errorf("incremental turn differs from the whole conversion's (-want +got):\n%s", diff)
			}
		})
	}
}

// The cache is owner-only: the transcript holds the whole conversation.
func TestCacheIsOwnerOnly(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.jsonl")
	os.WriteFile(src, golden(t, "claude-ralph-loop.txtar", "real-claude.jsonl"), 0o644)
	cache := &Cache{Dir: filepath.Join(dir, "cache")}
	res, err := cache.Sync(converter(t, "claude", "gemini"), src, "")
	if err != nil {
		t.Fatal(err)
	}
	filepath.Walk(cache.Dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		want := os.FileMode(0o600)
		if fi.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", p, fi.Mode().Perm(), want)
		}
		return nil
	})
	if _, err := os.Stat(res.Path); err != nil {
		t.Fatal(err)
	}
}

// A source replaced by another file (Gemini rewrites its chat file by
// renaming) or truncated is converted again from the start.
func TestSyncRebuildsReplacedSource(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.jsonl")
	data := golden(t, "gemini-ralph-loop.txtar", "real-gemini.jsonl")
	os.WriteFile(src, data, 0o600)
	conv := converter(t, "gemini", "claude")
	cache := &Cache{Dir: filepath.Join(dir, "cache")}
	if _, err := cache.Sync(conv, src, ""); err != nil {
		t.Fatal(err)
	}
	short := data[:strings.Index(string(data), "INTRO-TEXT")]
	short = short[:strings.LastIndexByte(string(short), '\n')+1]
	os.WriteFile(src+".new", short, 0o600)
	os.Rename(src+".new", src)
	res, err := cache.Sync(conv, src, "")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := conv.Convert(short, "")
	got, _ := os.ReadFile(res.Path)
	if !res.Rebuilt || string(got) != string(want) {
		t.Errorf("rebuilt=%v; got\n%s\nwant\n%s", res.Rebuilt, got, want)
	}
}

// Sessions unused for MaxAge are removed; the current one is kept.
func TestCachePrunesOldSessions(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.jsonl")
	os.WriteFile(src, golden(t, "claude-ralph-loop.txtar", "real-claude.jsonl"), 0o600)
	now := time.Now()
	cache := &Cache{Dir: filepath.Join(dir, "cache"), MaxAge: time.Hour, Now: func() time.Time { return now }}
	old := converter(t, "claude", "gemini")
	old.Session = "old-session"
	oldRes, err := cache.Sync(old, src, "")
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(3 * time.Hour)
	res, err := cache.Sync(converter(t, "claude", "gemini"), src, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(oldRes.Path)); !os.IsNotExist(err) {
		t.Errorf("the session unused for 3h is still there (err %v)", err)
	}
	if _, err := os.Stat(res.Path); err != nil {
		t.Errorf("the current session was removed: %v", err)
	}
}

// Claude's Stop can run before its transcript holds the last reply: the
// Gemini hook still finds it (the host's last_assistant_message), once, and
// the real record, when it arrives, takes the same id.
func TestLaggingTranscriptGetsTheHostsLastMessage(t *testing.T) {
	data := string(golden(t, "claude-ralph-loop.txtar", "real-claude.jsonl"))
	cut := strings.Index(data, `{"parentUuid":"93098e22`) // the "working on it" record
	if cut < 0 {
		t.Fatal("golden changed: no 'working on it' record")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "src.jsonl")
	os.WriteFile(src, []byte(data[:cut]), 0o600)
	conv := converter(t, "claude", "gemini")
	cache := &Cache{Dir: filepath.Join(dir, "cache")}
	res, err := cache.Sync(conv, src, "working on it")
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Turn().Text("working on it"); got != "INTRO-TEXT\nworking on it" {
		t.Errorf("prompt_response = %q", got)
	}
	if res.Turn().Prompt != "RALPH-TASK: finish the job" {
		t.Errorf("prompt = %q", res.Turn().Prompt)
	}
	b, _ := os.ReadFile(res.Path)
	if n := strings.Count(string(b), `"content":"working on it"`); n != 1 {
		t.Fatalf("the lagging reply is in the translated transcript %d times, want 1:\n%s", n, b)
	}
	os.WriteFile(src, []byte(data), 0o600)
	if res, err = cache.Sync(conv, src, ""); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(res.Path)
	var ids []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, `"content":"working on it"`) {
			ids = append(ids, l[:strings.Index(l, `","timestamp`)])
		}
	}
	if len(ids) != 2 || ids[0] != ids[1] {
		t.Errorf("the real record does not replace the early one (same id): %q", ids)
	}
}

// A state torn by a call that died mid-write is not trusted: the next call
// converts the source again, and the result is the same.
func TestTornStateRebuilds(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.jsonl")
	data := golden(t, "claude-ralph-loop.txtar", "real-claude.jsonl")
	os.WriteFile(src, data, 0o600)
	conv := converter(t, "claude", "gemini")
	cache := &Cache{Dir: filepath.Join(dir, "cache")}
	res, err := cache.Sync(conv, src, "")
	if err != nil {
		t.Fatal(err)
	}
	stateFile := filepath.Join(filepath.Dir(res.Path), "state.json")
	b, _ := os.ReadFile(stateFile)
	os.WriteFile(stateFile, b[:len(b)/2], 0o600)
	os.WriteFile(res.Path, []byte("garbage left by a dead call\n"), 0o600)
	if res, err = cache.Sync(conv, src, ""); err != nil {
		t.Fatal(err)
	}
	want, turn := conv.Convert(data, "")
	got, _ := os.ReadFile(res.Path)
	if !res.Rebuilt || string(got) != string(want) {
		t.Errorf("rebuilt=%v; got\n%s\nwant\n%s", res.Rebuilt, got, want)
	}
	if diff := cmp.Diff(turn, res.Turn()); diff != "" {
		t.Errorf("turn (-want +got):\n%s", diff)
	}
}

// A host transcript not written yet, with nothing cached for the session,
// is nothing to translate: when converting nothing gives nothing (Claude's
// format has no header), Sync names the translated file without creating
// it or any state, as Claude's own transcript_path is before its first
// record; once the source is written, Sync translates it to that path. A
// format that starts with a header (Gemini's), or a host message to add,
// is written as before. Both directions.
func TestSyncOfAMissingSourceWritesOnlyWhatItMust(t *testing.T) {
	for _, tc := range []struct {
		file, src, from, to, tail string
		writes                    bool
	}{
		{"gemini-ralph-loop.txtar", "real-gemini.jsonl", "gemini", "claude", "", false},
		{"gemini-ralph-loop.txtar", "real-gemini.jsonl", "gemini", "claude", "a reply", true},
		{"claude-ralph-loop.txtar", "real-claude.jsonl", "claude", "gemini", "", true},
		{"claude-ralph-loop.txtar", "real-claude.jsonl", "claude", "gemini", "a reply", true},
	} {
		t.Run(tc.from+"-to-"+tc.to+"/tail="+tc.tail, func(t *testing.T) {
			conv := converter(t, tc.from, tc.to)
			dir := t.TempDir()
			src := filepath.Join(dir, "src.jsonl")
			cache := &Cache{Dir: filepath.Join(dir, "cache")}
			res, err := cache.Sync(conv, src, tc.tail)
			if err != nil {
				t.Fatal(err)
			}
			_, statErr := os.Stat(res.Path)
			if got := statErr == nil; got != tc.writes {
				t.Errorf("translated file written: %v, want %v (%v)", got, tc.writes, statErr)
			}
			wantEmpty, wantTurn := conv.Convert(nil, tc.tail)
			if got, _ := os.ReadFile(res.Path); string(got) != string(wantEmpty) {
				t.Errorf("translated file %q, want %q", got, wantEmpty)
			}
			if diff := cmp.Diff(wantTurn, res.Turn()); diff != "" {
				t.Errorf("turn (-want +got):\n%s", diff)
			}
			if !tc.writes {
				if _, err := os.Stat(filepath.Join(filepath.Dir(res.Path), "state.json")); err == nil {
					t.Errorf("state written for a missing source")
				}
			}
			data := golden(t, tc.file, tc.src)
			if err := os.WriteFile(src, data, 0o600); err != nil {
				t.Fatal(err)
			}
			again, err := cache.Sync(conv, src, "")
			if err != nil {
				t.Fatal(err)
			}
			want, _ := conv.Convert(data, "")
			if again.Path != res.Path {
				t.Errorf("the path moved once the source was written: %s, then %s", res.Path, again.Path)
			}
			if got, _ := os.ReadFile(again.Path); tc.tail == "" && string(got) != string(want) {
				t.Errorf("once the source is written, the translation is not the whole conversion")
			}
		})
	}
}

// A session whose source was translated, then removed, is synced as before
// (to an empty translation), never left naming the old one.
func TestSyncOfARemovedSourceEmptiesTheTranslation(t *testing.T) {
	conv := converter(t, "gemini", "claude")
	dir := t.TempDir()
	src := filepath.Join(dir, "src.jsonl")
	if err := os.WriteFile(src, golden(t, "gemini-ralph-loop.txtar", "real-gemini.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	cache := &Cache{Dir: filepath.Join(dir, "cache")}
	if _, err := cache.Sync(conv, src, ""); err != nil {
		t.Fatal(err)
	}
	os.Remove(src)
	res, err := cache.Sync(conv, src, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(res.Path); err != nil || len(got) != 0 {
		t.Errorf("after the source was removed: %q, %v; want an empty file", got, err)
	}
}
