package wrap

import (
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
	"strings"

	"github.com/hookx-dev/hookx/internal/safefile"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/transcript"
)

// stopState is what wrap remembers between two stop events of one hook in
// one session: how many times in a row the hook blocked (Count) and how
// many of those since the model last used a tool (Run), which chain of
// continuations that was (a hash of the host's chain field), how long the
// host's transcript was at the last block, and the last stop the hook ran
// at (a hash of the host's payload).
type stopState struct {
	Count  int    `json:"count,omitempty"`
	Run    int    `json:"run,omitempty"`
	Chain  string `json:"chain,omitempty"`
	Offset int64  `json:"offset,omitempty"`
	Seen   string `json:"seen,omitempty"`
}

// sessionStop is what wrap remembers of the stop blocks of a session, for
// every hook of it: the agents tell every stop hook of the next stop that a
// stop hook is active, whichever hook blocked (a checkpointing Claude hook
// on Gemini was told false after another hook's block, and checkpointed
// twice). Stop is the stop of the latest block (a hash of the host's
// payload, the same for every hook of one stop), Offset the host's
// transcript size then; Before and BeforeOffset the latest block at an
// earlier stop of the chain, which is what a hook of Stop itself looks at.
type sessionStop struct {
	Chain        string `json:"chain"`
	Stop         string `json:"stop"`
	Offset       int64  `json:"offset"`
	Before       bool   `json:"before,omitempty"`
	BeforeOffset int64  `json:"beforeOffset,omitempty"`
	// Ended is a later stop at which a hook did not block: unless a
	// hook blocked there too (Stop is then that stop), the turn ended
	// there, and the next stop starts a new chain even where the host's
	// chain field repeats (Gemini's is the prompt: a user who types
	// "continue" again was told true, and a Claude hook that blocks only
	// when stop_hook_active is false let the agent stop).
	Ended string `json:"ended,omitempty"`
}

// ended reports whether the chain of blocks ended at a stop before key.
func (s sessionStop) ended(key string) bool {
	return s.Ended != "" && s.Ended != key && s.Ended != s.Stop
}

// lastBlock is the block before this stop in the chain, if any: the latest
// one, or the one before it where the latest is this stop's own (another
// hook of this stop blocked first). A hook that ran at a stop with this
// very payload before (repeat) is at a new stop that repeats it word for
// word: the latest block is then before it.
func (s sessionStop) lastBlock(key string, repeat bool) (offset int64, ok bool) {
	switch {
	case s.Stop == "" || s.ended(key):
		return 0, false
	case s.Stop != key || repeat:
		return s.Offset, true
	default:
		return s.BeforeOffset, s.Before
	}
}

// stopActive presents the hook with its own agent's stop_hook_active. The
// agents differ after a continuation in which the model used tools: Claude
// still says true, Gemini says false again (live 2026-11-23). So a Claude
// hook on Gemini is told true when the stop continues a chain that a
// hook's block started (same session, same chain), and a Gemini hook on
// Claude is told false when the host's transcript shows tool use since the
// last block. The block is any wrapped hook's of the session, as the
// agents tell every stop hook (sessionStop). It returns the host payload to
// translate instead, or nil to keep it; it also loads the state stopCap
// updates, with the hook's count of blocks since the last tool use reset
// where its agent or the host resets it (blockCapResetByTools).
//
// The loop count is kept wherever either agent caps its stop loop, whether
// or not the table knows how both tell a hook about it: a host whose stop
// event has no stop-active data must still end a Claude hook's loop after
// Claude's 8 blocks (a Claude Stop hook on Droid looped without end).
func (r *runner) stopActive(hookEv, hostEv *mappings.Event, payload []byte) []byte {
	if r.StateDir == "" || hookEv == nil || hostEv == nil {
		return nil
	}
	flags := hookEv.StopActive != nil && hostEv.StopActive != nil
	if !flags && hookEv.Output.BlockCap == 0 && hostEv.Output.BlockCap == 0 {
		return nil
	}
	chain, key := chainID(payload, stopChain(hostEv)), stopKey(payload)
	// A host whose flag stays true through a chain says false only on its
	// first stop: no block came before this one.
	hostFlag, fresh := false, false
	if hs := hostEv.StopActive; hs != nil {
		hostFlag = boolField(payload, hs.Field)
		fresh = !hostFlag && !hs.ResetByTools
	}
	r.stopPath = r.stopFile(payload)
	var st stopState
	readState(r.stopPath, &st)
	repeat := st.Seen == key
	if st.Count == 0 || st.Chain != chain || fresh {
		st = stopState{} // a new chain: the user's next prompt
	}
	if st.Run > 0 && (hookEv.Output.BlockCapResetByTools || hostEv.Output.BlockCapResetByTools) {
		used, err := r.toolsUsed(payload, st.Offset)
		switch {
		case err != nil:
			r.reportf("stop-loop count: cannot tell whether tools were used since the hook's last block (%v); counting on", err)
		case used:
			st.Run = 0
		}
	}
	r.stop, r.stopKey, r.stopRepeat = st, key, repeat
	if !flags {
		return nil
	}
	r.sessionPath = r.sessionFile(payload)
	var ss sessionStop
	readState(r.sessionPath, &ss)
	if ss.Chain != chain || fresh {
		ss = sessionStop{}
	}
	last, blocked := ss.lastBlock(key, repeat)
	hs, ks := hostEv.StopActive, hookEv.StopActive
	want := hostFlag
	switch {
	case hs.ResetByTools && !ks.ResetByTools:
		want = hostFlag || blocked
	case !hs.ResetByTools && ks.ResetByTools && hostFlag && blocked:
		used, err := r.toolsUsed(payload, last)
		if err != nil {
			r.reportf("%s: cannot tell whether tools were used since the last block (%v); passing %s's value", hs.Field, err, r.host.Agent)
			return nil
		}
		want = !used
	}
	if want == hostFlag {
		return nil
	}
	why := "the continuation the last block started used tools"
	if want {
		why = "this stop continues the turn a stop hook's block started"
	}
	r.reportf("%s: %s sends %v; the hook gets %v, as %s would send it: %s", hs.Field, r.host.Agent, hostFlag, want, r.hook.Agent, why)
	r.trace.StopActive = &want
	patched, err := setBool(payload, hs.Field, want)
	if err != nil {
		return nil
	}
	return patched
}

// toolsUsed reports whether the host's transcript records a tool call after
// offset. Claude Code writes its transcript behind its Stop hooks: it waits
// until the transcript holds this stop's reply, so that the continuation's
// tool use is in it (CI saw a Gemini hook told true without it).
func (r *runner) toolsUsed(payload []byte, offset int64) (bool, error) {
	tp := r.hostString(payload, "transcript_path")
	if tp != "" && !transcript.SettleFile(r.host.Transcript.Format, tp, r.hostMark(payload), settleMax) {
		r.reportf("%s had not recorded this stop's reply after %v; tool use since the last block is read from what it had", r.host.Agent, settleMax)
	}
	return toolsUsedSince(r.host.Transcript.Format, tp, offset)
}

// stopCap keeps the loop counts of the hook's own agent. Claude ends a turn
// after 8 consecutive Stop blocks with no tool use between them, Qwen after
// 7 whatever the model did, while Gemini honours AfterAgent denies without
// bound. The count of consecutive blocks is kept per session and per hook,
// within one chain of continuations (see stopActive); it is reset when the
// hook does not block, and the count since the last tool use (stopActive)
// where the agent resets it so (blockCapResetByTools). Where the hook's
// agent would end the turn and the host would not, the block becomes a
// no-decision, as under the hook's own agent. Where the host ends the turn
// and the hook's agent would not, that is reported, since the hook is
// never told.
func (r *runner) stopCap(hookEv, hostEv *mappings.Event, payload []byte, out Output) Output {
	if r.stopPath == "" || hookEv == nil || hostEv == nil {
		return out
	}
	if !r.Translation.Blocks(r.host, hostEv.Name, out) {
		removeState(r.stopPath)
		if r.sessionPath != "" {
			r.saveSessionAllow(chainID(payload, stopChain(hostEv)))
		}
		return out
	}
	st := r.stop
	hookCap, hostCap := hookEv.Output.BlockCap, hostEv.Output.BlockCap
	hookEnds := hookCap > 0 && capCount(hookEv, st) >= hookCap
	hostEnds := hostCap > 0 && capCount(hostEv, st) >= hostCap
	if hookEnds && !hostEnds {
		r.reportf("%s blocked %s %d times in a row%s; %s would end the turn now, so this block is ignored",
			r.hook.Agent, hookEv.Name, capCount(hookEv, st), sinceTools(hookEv), r.hook.Agent)
		r.trace.StopCapped = true
		removeState(r.stopPath)
		if r.sessionPath != "" {
			r.saveSessionAllow(chainID(payload, stopChain(hostEv))) // no block here
		}
		return nothing(r.host)
	}
	if hostEnds && !hookEnds {
		r.reportf("%s and ignores this one (the hook blocked %d times in a row%s); %s would have continued",
			mappings.StopCapText(r.host.Agent, hostEv.Name, hostCap, hostEv.Output.BlockCapResetByTools), capCount(hostEv, st)+1, sinceTools(hostEv), r.hook.Agent)
		r.trace.StopCapped = true
	}
	chain := chainID(payload, stopChain(hostEv))
	next := stopState{Count: st.Count + 1, Run: st.Run + 1, Chain: chain, Seen: r.stopKey}
	// Where the host records behind its hooks, its transcript holds this
	// stop before the offset is taken (at once, mostly: the hook has run).
	tp := r.hostString(payload, "transcript_path")
	if tp != "" {
		transcript.SettleFile(r.host.Transcript.Format, tp, r.hostMark(payload), settleMax)
	}
	if fi, err := os.Stat(tp); err == nil {
		next.Offset = fi.Size()
	}
	r.saveStop(next)
	if r.sessionPath != "" && !hostEnds {
		r.saveSessionBlock(chain, next.Offset)
	}
	r.trace.StopCount = next.Count
	return out
}

// capCount is the count of consecutive blocks as the agent of ev counts
// them for its cap.
func capCount(ev *mappings.Event, st stopState) int {
	if ev.Output.BlockCapResetByTools {
		return st.Run
	}
	return st.Count
}

func sinceTools(ev *mappings.Event) string { return mappings.CapScope(ev.Output.BlockCapResetByTools) }

func (r *runner) saveStop(st stopState) {
	if err := writeState(r.stopPath, st); err != nil {
		r.reportf("stop-loop counter: %v", err)
	}
}

// saveSessionBlock records a block at this stop for every hook of the
// session. Hooks of one stop run side by side: the first block of a stop
// is kept (a later one of the same stop changes nothing that matters), and
// the latest block of an earlier stop moves to Before.
func (r *runner) saveSessionBlock(chain string, offset int64) {
	defer lockState(r.sessionPath)()
	var ss sessionStop
	readState(r.sessionPath, &ss)
	if ss.Chain != chain || ss.ended(r.stopKey) {
		ss = sessionStop{Chain: chain}
	}
	if ss.Stop == r.stopKey && !r.stopRepeat {
		return
	}
	if ss.Stop != "" {
		ss.Before, ss.BeforeOffset = true, ss.Offset
	}
	ss.Stop, ss.Offset = r.stopKey, offset
	if err := writeState(r.sessionPath, ss); err != nil {
		r.reportf("stop-loop state: %v", err)
	}
}

// saveSessionAllow records that a hook did not block at this stop, where
// a block of an earlier stop of the chain is recorded: unless another hook
// blocks at this stop, the turn ends here (sessionStop.Ended).
func (r *runner) saveSessionAllow(chain string) {
	defer lockState(r.sessionPath)()
	var ss sessionStop
	readState(r.sessionPath, &ss)
	if ss.Stop == "" || ss.Chain != chain || ss.Stop == r.stopKey || ss.Ended == r.stopKey {
		return
	}
	ss.Ended = r.stopKey
	if err := writeState(r.sessionPath, ss); err != nil {
		r.reportf("stop-loop state: %v", err)
	}
}

// stopChain is the host event's chain field, or "" where the table names
// none: every stop of the session is then one chain, reset when the hook
// does not block.
func stopChain(ev *mappings.Event) string {
	if ev.StopActive == nil {
		return ""
	}
	return ev.StopActive.Chain
}

// chainID identifies one chain of continuations by the host's chain field.
func chainID(payload []byte, field string) string {
	var m map[string]json.RawMessage
	if field == "" || json.Unmarshal(payload, &m) != nil || m[field] == nil {
		return "-"
	}
	sum := sha256.Sum256(m[field])
	return hex.EncodeToString(sum[:8])
}

// stopKey identifies one stop event: a hash of the host's payload, which
// is the same for every hook of one stop. Gemini CLI, Copilot CLI and
// Factory Droid send a field that changes with every stop (timestamp,
// message_id); on the other hosts two stops of a chain carry the same
// payload only when the model repeats its reply word for word, which a
// hook that ran at the first tells by its own state (stopState.Seen).
func stopKey(payload []byte) string {
	sum := sha256.Sum256(payload)
	return hex.EncodeToString(sum[:8])
}

// toolsUsedSince reports whether the host's transcript, in its format,
// records a tool call after offset (read with package transcript's reader
// of that format: a Claude-only test missed every call on Codex, Copilot
// and Qwen hosts, so a Gemini hook there was told true where Gemini says
// false).
func toolsUsedSince(format, path string, offset int64) (bool, error) {
	if path == "" {
		return false, errors.New("no transcript_path")
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return false, err
	}
	b, err := io.ReadAll(io.LimitReader(f, DefaultMaxStdin))
	if err != nil {
		return false, err
	}
	found, ok := transcript.HasToolCalls(format, b)
	if !ok {
		return false, fmt.Errorf("hookx does not read %q transcripts", format)
	}
	return found, nil
}

// setBool sets a top-level field of a JSON object, keeping the key order.
func setBool(payload []byte, field string, v bool) ([]byte, error) {
	order, raw, err := mappings.SplitObject(payload)
	if err != nil {
		return nil, err
	}
	if _, ok := raw[field]; !ok {
		order = append(order, field)
	}
	raw[field] = json.RawMessage(strconv.FormatBool(v))
	return mappings.JoinObject(order, raw), nil
}

// stopFile names the counter of one hook command in one session.
func (r *runner) stopFile(payload []byte) string {
	session := r.hostString(payload, "session_id")
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", r.From, session)
	for _, a := range r.Command {
		fmt.Fprintf(h, "%s\x00", a)
	}
	session = sanitize(session)
	return filepath.Join(r.StateDir, session+"-"+hex.EncodeToString(h.Sum(nil))[:16])
}

// hostString is the string field of the host's payload that translation
// names name, read under the host's own name for it: Copilot CLI's payload
// says sessionId and transcriptPath (a Gemini hook on Copilot was told
// Copilot's stop_hook_active true after tool use, its transcript unread).
func (r *runner) hostString(payload []byte, name string) string {
	if own := r.host.Payload.Inverse()[name]; own != "" {
		name = own
	}
	return stringField(payload, name)
}

// hostMark is what this stop's payload says the host's transcript must
// hold by now: Copilot CLI records a hook's start with its timestamp about
// 100 ms behind, and a Gemini hook on Copilot was told true after tool use
// still unrecorded; Claude Code and Qwen Code write the last reply behind.
func (r *runner) hostMark(payload []byte) transcript.Mark {
	m := transcript.Mark{LastReply: r.hostString(payload, "last_assistant_message")}
	if _, raw, err := mappings.SplitObject(payload); err == nil {
		m.Stamp = string(raw["timestamp"])
	}
	return m
}

// sessionFile names the stop state every hook of one session shares.
func (r *runner) sessionFile(payload []byte) string {
	session := r.hostString(payload, "session_id")
	sum := sha256.Sum256([]byte("session\x00" + session))
	return filepath.Join(r.StateDir, sanitize(session)+"-session-"+hex.EncodeToString(sum[:8]))
}

func sanitize(s string) string {
	s = strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			return c
		}
		return -1
	}, s)
	if len(s) > 64 {
		s = s[:64]
	}
	if s == "" {
		s = "nosession"
	}
	return s
}

// stateLevels are the directories of the state, hookx's own: the stop
// counters' directory and its parent ($XDG_STATE_HOME/hookx/stop, or
// hookx-<uid>/stop in the temporary directory). Another user's, or one
// others can write, would let them set a count that turns the next block
// into no decision: a state file there is neither read nor written.
const stateLevels = 2

// readState reads a state file into v (a stopState or a sessionStop).
// Anything but the JSON object wrap writes, in a directory of hookx's own,
// reads as no state: a file is never trusted further than a count that
// ends a loop.
func readState[T stopState | sessionStop](file string, v *T) {
	if safefile.PrivateDir(filepath.Dir(file), stateLevels) != nil {
		return
	}
	b, err := safefile.ReadPrivate(file)
	if err != nil || len(b) > maxStateSize {
		return
	}
	var t T
	if json.Unmarshal(b, &t) == nil && valid(t) {
		*v = t
	}
}

// valid refuses counts and offsets wrap never writes.
func valid[T stopState | sessionStop](v T) bool {
	switch v := any(v).(type) {
	case stopState:
		return v.Count >= 0 && v.Run >= 0 && v.Run <= v.Count && v.Count <= 1<<20 && v.Offset >= 0
	case sessionStop:
		return v.Offset >= 0 && v.BeforeOffset >= 0
	}
	return false
}

// maxStateSize bounds a state file: wrap writes about 150 bytes.
const maxStateSize = 4096

// writeState replaces the state atomically, so a reader never sees half of
// it.
func writeState(file string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := safefile.PrivateDir(filepath.Dir(file), stateLevels); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

func removeState(file string) {
	if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		_ = writeState(file, stopState{})
	}
}

func boolField(payload []byte, name string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(payload, &m) != nil {
		return false
	}
	var b bool
	return json.Unmarshal(m[name], &b) == nil && b
}
