package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// DefaultMaxAge is how long a session's translated transcript is kept after
// its last use.
const DefaultMaxAge = 7 * 24 * time.Hour

// chunkSize is how much of the source is read, and of the translation
// kept, at a time.
const chunkSize = 4 << 20

// maxLine is the longest source line read: the agents' lines are far
// shorter (a base64 screenshot is a few MiB).
var maxLine = 128 << 20

// pruneEvery is how often a Sync looks for old sessions to remove.
const pruneEvery = time.Hour

// stateVersion changes when the state's meaning does: an old state is then
// rebuilt from the source.
const stateVersion = 2

// Cache keeps translated transcripts, one directory per session and
// direction under Dir, owner-only (0700 directories, 0600 files). A
// directory unused for MaxAge is removed by a later Sync.
type Cache struct {
	Dir    string
	MaxAge time.Duration // 0: DefaultMaxAge
	Now    func() time.Time
}

// Synced is the outcome of one Sync.
type Synced struct {
	Path     string // the translated transcript
	turnFile string
	// Read is the number of source bytes converted by this call; Rebuilt is
	// set when the whole source was (re)read.
	Read    int64
	Rebuilt bool
}

// Turn returns the source's last prompt and the response since, as known
// after the Sync; it reads them from the cache.
func (s Synced) Turn() Turn {
	b, _ := os.ReadFile(s.turnFile)
	return readTurn(b)
}

// state is what a session's directory remembers between calls.
type state struct {
	Version int    `json:"version"`
	Source  string `json:"source"`
	Inode   uint64 `json:"inode"`
	Offset  int64  `json:"offset"`  // source bytes consumed (whole lines)
	OutSize int64  `json:"outSize"` // bytes of the translated file that are ours
	Started bool   `json:"started"`
	// The last assistant reply (its records' text joined), to tell whether
	// the host's last message is in the source yet.
	LastReply   string `json:"lastReply,omitempty"`
	LastReplyID string `json:"lastReplyID,omitempty"`
	TurnSize    int64  `json:"turnSize"` // bytes of .turn.jsonl that are ours

	R    readState  `json:"r"`
	W    writeState `json:"w"`
	turn turnSink
}

// fileTurn collects the turn's records for .turn.jsonl: a prompt line, then
// one line per assistant text. The whole turn is read back only when a
// hook needs it, so that a call costs the new records.
type fileTurn struct {
	reset bool
	buf   bytes.Buffer
}

type turnLine struct {
	Prompt *string `json:"prompt,omitempty"`
	ID     string  `json:"id,omitempty"`
	Text   string  `json:"text,omitempty"`
}

func (f *fileTurn) add(m *Message) {
	switch {
	case isPrompt(m):
		f.reset = true
		f.buf.Reset()
		p := m.Text
		appendJSON(&f.buf, turnLine{Prompt: &p})
	case m.Role == "assistant" && m.Text != "":
		appendJSON(&f.buf, turnLine{ID: m.ID, Text: m.Text})
	}
}

// readTurn reads a .turn.jsonl back.
func readTurn(b []byte) Turn {
	var t Turn
	for _, line := range bytes.Split(b, []byte("\n")) {
		var l turnLine
		if json.Unmarshal(line, &l) != nil {
			continue
		}
		if l.Prompt != nil {
			t = Turn{Prompt: *l.Prompt}
			continue
		}
		t.add(&Message{Role: "assistant", ID: l.ID, Text: l.Text})
	}
	return t
}

// readState is what readers remember of records already read.
type readState struct {
	Calls []namedCall `json:"calls,omitempty"` // recent tool calls, for results that name none
	Seen  []*seenMsg  `json:"seen,omitempty"`  // recent Gemini messages, which are re-appended as they change
	// Codex: the model response being read (its first item's id), and
	// the model of the turn.
	Resp  string `json:"resp,omitempty"`
	Model string `json:"model,omitempty"`
}

type namedCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type seenMsg struct {
	ID string `json:"id"`
	// The text carried so far: its length and a hash, to tell a grown
	// message from a changed one without keeping it.
	TextLen int      `json:"textLen,omitempty"`
	TextSum string   `json:"textSum,omitempty"`
	Calls   []string `json:"calls,omitempty"`
	Done    bool     `json:"done,omitempty"`
}

const keepRecent = 32

func (r *readState) rememberCall(id, name string) {
	r.Calls = append(r.Calls, namedCall{id, name})
	if len(r.Calls) > keepRecent {
		r.Calls = r.Calls[len(r.Calls)-keepRecent:]
	}
}

func (r *readState) callName(id string) string {
	for i := len(r.Calls) - 1; i >= 0; i-- {
		if r.Calls[i].ID == id {
			return r.Calls[i].Name
		}
	}
	return ""
}

func (r *readState) seen(id string) *seenMsg {
	for _, s := range r.Seen {
		if s.ID == id {
			return s
		}
	}
	s := &seenMsg{ID: id}
	r.Seen = append(r.Seen, s)
	if len(r.Seen) > keepRecent {
		r.Seen = r.Seen[len(r.Seen)-keepRecent:]
	}
	return s
}

func (s *seenMsg) hasCall(id string) bool {
	for _, c := range s.Calls {
		if c == id {
			return true
		}
	}
	return false
}

// writeState is what writers remember of records already written.
type writeState struct {
	Session string `json:"-"`
	Cwd     string `json:"-"`
	Parent  string `json:"parent,omitempty"` // Claude: the last record's uuid
	N       int    `json:"n,omitempty"`
	// Gemini: the last gemini message, re-appended as its calls complete.
	// It is kept in last.json and loaded only when a record needs it.
	Last      *lastGemini `json:"-"`
	load      func() *lastGemini
	loaded    bool
	lastDirty bool
	// Gemini: the host's last message written ahead of its transcript.
	Pending     string `json:"pending,omitempty"`
	PendingText string `json:"pendingText,omitempty"`
}

// last returns the last gemini message, loading it on first use.
func (w *writeState) last() *lastGemini {
	if !w.loaded {
		w.loaded = true
		if w.load != nil {
			w.Last = w.load()
		}
	}
	return w.Last
}

func (w *writeState) setLast(l *lastGemini) {
	w.loaded, w.Last = true, l
	w.lastDirty = true
}

type lastGemini struct {
	Src     string       `json:"src"`
	Msg     geminiOut    `json:"msg"`
	Waiting []geminiCall `json:"waiting,omitempty"`
}

// Sync brings the session's translated copy of the transcript at src up to
// date and returns its path. Only records added since the last call are
// converted; a source that was replaced or shrank is converted again from
// the start. tail is the host's last assistant message, which its transcript
// may not hold yet ("" for none). Sync is safe to call concurrently for one
// session; an error leaves the cache as it was.
func (c *Cache) Sync(conv *Converter, src, tail string) (Synced, error) {
	h := sha256.Sum256([]byte(conv.from.Name + "\x00" + conv.to.Name + "\x00" + src))
	dir := filepath.Join(c.Dir, safeName(conv.Session, "nosession")+"-"+hex.EncodeToString(h[:])[:12])
	if err := c.ownDirs(dir); err != nil {
		return Synced{}, fmt.Errorf("transcript cache: %w", err)
	}
	if c.nothingYet(conv, dir, src, tail) {
		return Synced{Path: filepath.Join(dir, conv.wf.file(conv.Session)), turnFile: filepath.Join(dir, ".turn.jsonl")}, nil
	}
	// state.json is also the lock. It is rewritten in place, not renamed
	// over (creating files is the slowest step here): a call that dies
	// mid-write leaves a state that does not parse, and the next call
	// rebuilds from the source.
	sf, err := os.OpenFile(filepath.Join(dir, "state.json"), os.O_RDWR|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return Synced{}, fmt.Errorf("transcript cache: %w", err)
	}
	defer sf.Close()
	if err := lock(sf); err != nil {
		return Synced{}, fmt.Errorf("transcript cache: lock: %w", err)
	}
	if fi, err := sf.Stat(); err == nil && c.now().Sub(fi.ModTime()) > pruneEvery {
		now := c.now()
		_ = os.Chtimes(sf.Name(), now, now) // in use, for pruning
	}

	res := Synced{Path: filepath.Join(dir, conv.wf.file(conv.Session))}
	var st state
	// The first line is the state; the second the last gemini message,
	// decoded only when a record needs it.
	raw, _ := io.ReadAll(sf)
	head, lastRaw, _ := bytes.Cut(raw, []byte("\n"))
	if json.Unmarshal(head, &st) != nil {
		st = state{}
	}

	// A source not written yet (Claude creates it lazily) is an empty one.
	var size int64
	var ino uint64
	// The path is the host payload's: never wait on a FIFO's writer, and
	// read nothing but a regular file.
	in, err := os.OpenFile(src, os.O_RDONLY|nonBlock, 0)
	switch {
	case err == nil:
		defer in.Close()
		fi, err := in.Stat()
		if err != nil {
			return Synced{}, fmt.Errorf("transcript: %w", err)
		}
		if !fi.Mode().IsRegular() {
			return Synced{}, fmt.Errorf("transcript: %s is not a regular file (%v)", src, fi.Mode().Type())
		}
		size, ino = fi.Size(), inode(fi)
	case !errors.Is(err, fs.ErrNotExist):
		return Synced{}, fmt.Errorf("transcript: %w", err)
	}
	if st.Version != stateVersion || st.Source != src || st.Inode != ino || size < st.Offset {
		st = state{Version: stateVersion, Source: src, Inode: ino}
		res.Rebuilt = true
		// A new session is when old ones may go.
		c.prune(dir)
	}

	out, err := os.OpenFile(res.Path, os.O_RDWR|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return Synced{}, fmt.Errorf("transcript cache: %w", err)
	}
	defer out.Close()
	if ofi, err := out.Stat(); err != nil {
		return Synced{}, fmt.Errorf("transcript cache: %w", err)
	} else if ofi.Size() != st.OutSize {
		// A call that died between writing records and saving the state.
		if err := out.Truncate(st.OutSize); err != nil {
			return Synced{}, fmt.Errorf("transcript cache: %w", err)
		}
	}

	// A leading dot: no session id names it (safeName keeps no dots).
	res.turnFile = filepath.Join(dir, ".turn.jsonl")
	turn := &fileTurn{}
	st.turn = turn
	st.W.load = func() *lastGemini {
		var l *lastGemini
		_ = json.Unmarshal(lastRaw, &l)
		return l
	}
	if res.Rebuilt {
		st.W.loaded = true // nothing to load
		turn.reset = true  // nor any turn to keep
	}
	var buf bytes.Buffer
	before := st
	// The source is read, and the translation written, a chunk at a time:
	// memory is bounded by the longest line, not by the transcript.
	outSize := st.OutSize
	flush := func() error {
		if _, err := out.WriteAt(buf.Bytes(), outSize); err != nil {
			return fmt.Errorf("transcript cache: %w", err)
		}
		outSize += int64(buf.Len())
		buf.Reset()
		return nil
	}
	if !st.Started {
		conv.feed(&st, nil, &buf)
	}
	var chunk []byte
	for st.Offset < size {
		n := min(size-st.Offset, int64(max(len(chunk), chunkSize)))
		if int64(len(chunk)) < n {
			chunk = make([]byte, n)
		}
		if _, err := in.ReadAt(chunk[:n], st.Offset); err != nil && !errors.Is(err, io.EOF) {
			return Synced{}, fmt.Errorf("transcript: %w", err)
		}
		used := conv.feed(&st, chunk[:n], &buf)
		if used == 0 {
			if n == size-st.Offset {
				break // an incomplete last line: read when it is whole
			}
			if len(chunk) >= maxLine {
				// Not a transcript the agents write: a path naming a big
				// file without line ends must not take all memory.
				return Synced{}, fmt.Errorf("transcript: %s: a line over %d MiB at byte %d; not translated", src, maxLine>>20, st.Offset)
			}
			chunk = make([]byte, min(2*len(chunk), maxLine)) // a line longer than the chunk
			continue
		}
		st.Offset += int64(used)
		res.Read += int64(used)
		if buf.Len() >= chunkSize {
			if err := flush(); err != nil {
				return Synced{}, err
			}
		}
	}
	conv.finish(&st, tail, &buf)
	if buf.Len() == 0 && outSize == st.OutSize && st.Offset == before.Offset && st.Started == before.Started {
		return res, nil
	}
	if err := flush(); err != nil {
		return Synced{}, err
	}
	st.OutSize = outSize
	if err := st.writeTurn(res.turnFile, turn); err != nil {
		return Synced{}, fmt.Errorf("transcript cache: %w", err)
	}
	if st.W.lastDirty || res.Rebuilt {
		lastRaw, _ = json.Marshal(st.W.Last)
	}
	b, err := json.Marshal(&st)
	if err != nil {
		return Synced{}, err
	}
	b = append(append(b, '\n'), lastRaw...)
	if _, err := sf.WriteAt(b, 0); err != nil {
		return Synced{}, fmt.Errorf("transcript cache: %w", err)
	}
	if err := sf.Truncate(int64(len(b))); err != nil {
		return Synced{}, fmt.Errorf("transcript cache: %w", err)
	}
	return res, nil
}

// nothingYet reports whether a Sync would only create empty files: the
// source is not written yet, nothing is cached for the session, and
// converting nothing gives nothing (Claude's format has no header). The
// hook is then told the path the translation will have, not created yet, as
// Claude's own transcript_path is before its first record; reading and
// writing the state are the slowest steps of a call, and most calls of a
// host without a transcript would pay them for nothing.
func (c *Cache) nothingYet(conv *Converter, dir, src, tail string) bool {
	if _, err := os.Stat(src); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if _, err := os.Lstat(filepath.Join(dir, "state.json")); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	out, turn := conv.Convert(nil, tail)
	return len(out) == 0 && turn.Prompt == "" && len(turn.Response) == 0 && turn.LastID == ""
}

// writeTurn starts .turn.jsonl afresh on a new prompt, or appends to it.
func (st *state) writeTurn(file string, t *fileTurn) error {
	if !t.reset && t.buf.Len() == 0 {
		return nil
	}
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if t.reset {
		st.TurnSize = 0
	}
	// Past TurnSize is what a call that died left behind.
	if err := f.Truncate(st.TurnSize); err != nil {
		return err
	}
	if _, err := f.WriteAt(t.buf.Bytes(), st.TurnSize); err != nil {
		return err
	}
	st.TurnSize += int64(t.buf.Len())
	return nil
}

// prune removes session directories unused for MaxAge. It runs when a
// session starts, at most once per pruneEvery (a marker file's time says
// when it last ran).
func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Cache) prune(keep string) {
	now := c.now
	maxAge := c.MaxAge
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
	marker := filepath.Join(c.Dir, ".pruned")
	if fi, err := os.Stat(marker); err == nil && now().Sub(fi.ModTime()) < pruneEvery {
		return
	}
	f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o600)
	if err != nil {
		return
	}
	f.Close()
	_ = os.Chtimes(marker, now(), now())
	entries, err := os.ReadDir(c.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(c.Dir, e.Name())
		if !e.IsDir() || p == keep {
			continue
		}
		c.pruneOne(p, e, maxAge)
	}
}

// ownDirs creates the cache and a session's directory in it, owner-only,
// and checks that no one else can read them or put something in their
// place: each is a directory of this user's, not a symlink, made 0700, and
// the cache's parent is this user's or root's, writable by no one else
// unless sticky. It fails, saying why, rather than write through a
// directory someone else controls.
func (c *Cache) ownDirs(session string) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	parent := filepath.Dir(c.Dir)
	fi, err := os.Stat(parent)
	if err != nil {
		return err
	}
	if me, root := ownedByMe(fi); !me && !root || fi.Mode().Perm()&0o022 != 0 && fi.Mode()&os.ModeSticky == 0 && checkModes {
		return fmt.Errorf("%s: not used, as its parent %s is not this user's alone (%v)", c.Dir, parent, fi.Mode())
	}
	for _, d := range []string{c.Dir, session} {
		err := os.Mkdir(d, 0o700)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		created := err == nil
		fi, err := os.Lstat(d)
		if err != nil {
			return err
		}
		if me, _ := ownedByMe(fi); !fi.IsDir() || !me {
			return fmt.Errorf("%s: not used, as it is not a directory of this user's (%v)", d, fi.Mode())
		}
		// Only a directory made here is re-moded (a umask can take the
		// owner's bits); one found open to others is someone's choice,
		// and not used.
		switch perm := fi.Mode().Perm(); {
		case perm == 0o700 || !checkModes:
		case created:
			if err := os.Chmod(d, 0o700); err != nil {
				return err
			}
		case perm&0o077 != 0:
			return fmt.Errorf("%s: not used, as others can use it (mode %v); hookx does not change the mode of a directory it did not create: chmod 700 it", d, perm)
		}
	}
	return nil
}

// pruneOne removes the session directory p if it is unused for maxAge. A
// session whose Sync holds its lock is in use, whatever its time says; the
// time is read again under the lock, as a Sync may just have touched it.
func (c *Cache) pruneOne(p string, e fs.DirEntry, maxAge time.Duration) {
	old := func(fi fs.FileInfo, err error) bool { return err == nil && c.now().Sub(fi.ModTime()) > maxAge }
	sf, err := os.OpenFile(filepath.Join(p, "state.json"), os.O_RDWR|noFollow, 0)
	if errors.Is(err, fs.ErrNotExist) {
		if old(e.Info()) {
			os.RemoveAll(p)
		}
		return
	}
	if err != nil {
		return
	}
	defer sf.Close()
	if !old(sf.Stat()) || !tryLock(sf) || !old(sf.Stat()) {
		return
	}
	os.RemoveAll(p)
}

// safeName keeps a session id usable as a file name.
func safeName(s, empty string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s) && len(b) < 64; i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			b = append(b, c)
		}
	}
	if len(b) == 0 {
		return empty
	}
	return string(b)
}

func itoa(n int) string { return strconv.Itoa(n) }
