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
// one session: how many times in a row the hook blocked, which chain of
// continuations that was (a hash of the host's chain field), and how long
// the host's transcript was at the last block.
type stopState struct {
	count  int
	chain  string
	offset int64
}

// stopActive presents the hook with its own agent's stop_hook_active. The
// agents differ after a continuation in which the model used tools: Claude
// still says true, Gemini says false again (live 2026-11-23). So a Claude
// hook on Gemini is told true when the continuation is one that its own
// block started (same session, same chain), and a Gemini hook on Claude is
// told false when the host's transcript shows tool use since its block. It
// returns the host payload to translate instead, or nil to keep it; it also
// loads the state stopCap updates.
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
	r.stopPath = r.stopFile(payload)
	st := readState(r.stopPath)
	if st.count == 0 || st.chain != chainID(payload, stopChain(hostEv)) {
		st = stopState{} // a new chain: the user's next prompt
	}
	r.stop = st
	if !flags {
		return nil
	}
	hs, ks := hostEv.StopActive, hookEv.StopActive
	hostFlag := boolField(payload, hs.Field)
	want := hostFlag
	switch {
	case hs.ResetByTools && !ks.ResetByTools:
		want = hostFlag || st.count > 0
	case !hs.ResetByTools && ks.ResetByTools && hostFlag && st.count > 0:
		// Claude Code writes its transcript behind its Stop hooks: wait
		// until it holds this stop's reply, so that the continuation's
		// tool use is in it (CI saw a Gemini hook told true without it).
		tp := r.hostString(payload, "transcript_path")
		if tp != "" && !transcript.SettleFile(r.host.Transcript.Format, tp, r.hostMark(payload), settleMax) {
			r.reportf("%s: %s had not recorded this stop's reply after %v; tool use since the last block is read from what it had", hs.Field, r.host.Agent, settleMax)
		}
		used, err := toolsUsedSince(r.host.Transcript.Format, tp, st.offset)
		if err != nil {
			r.reportf("%s: cannot tell whether tools were used since the last block (%v); passing %s's value", hs.Field, err, r.host.Agent)
			return nil
		}
		want = !used
	}
	if want == hostFlag {
		return nil
	}
	why := "the continuation its last block started used tools"
	if want {
		why = "this stop continues the turn its last block started"
	}
	r.reportf("%s: %s sends %v; the hook gets %v, as %s would send it: %s", hs.Field, r.host.Agent, hostFlag, want, r.hook.Agent, why)
	r.trace.StopActive = &want
	patched, err := setBool(payload, hs.Field, want)
	if err != nil {
		return nil
	}
	return patched
}

// stopCap keeps the loop counts of the hook's own agent. Claude ends a turn
// after 8 consecutive Stop blocks, while Gemini honours AfterAgent denies
// without bound. The count of consecutive blocks is kept per session and
// per hook, within one chain of continuations (see stopActive); it is reset
// when the hook does not block. Where the hook's agent has a cap and the
// host has none, once cap blocks in a row have been honoured the next block
// becomes a no-decision, as it would under the hook's own agent. Where the
// host has a cap the hook's agent lacks, the host ends the turn on its own:
// that is reported, since the hook is never told.
func (r *runner) stopCap(hookEv, hostEv *mappings.Event, payload []byte, out Output) Output {
	if r.stopPath == "" || hookEv == nil || hostEv == nil {
		return out
	}
	if !r.Translation.Blocks(r.host, hostEv.Name, out) {
		removeCount(r.stopPath)
		return out
	}
	count := r.stop.count
	hookCap, hostCap := hookEv.Output.BlockCap, hostEv.Output.BlockCap
	if hookCap > 0 && (hostCap == 0 || hostCap > hookCap) && count >= hookCap {
		r.reportf("%s blocked %s %d times in a row; %s would end the turn now, so this block is ignored",
			r.hook.Agent, hookEv.Name, count, r.hook.Agent)
		r.trace.StopCapped = true
		removeCount(r.stopPath)
		return nothing(r.host)
	}
	if hostCap > 0 && (hookCap == 0 || hookCap > hostCap) && count >= hostCap {
		r.reportf("%s and ignores this one (the hook blocked %d times in a row); %s would have continued",
			mappings.StopCapText(r.host.Agent, hostEv.Name, hostCap), count+1, r.hook.Agent)
		r.trace.StopCapped = true
	}
	st := stopState{count: count + 1, chain: chainID(payload, stopChain(hostEv))}
	// Where the host records behind its hooks, its transcript holds this
	// stop before the offset is taken (at once, mostly: the hook has run).
	tp := r.hostString(payload, "transcript_path")
	if tp != "" {
		transcript.SettleFile(r.host.Transcript.Format, tp, r.hostMark(payload), settleMax)
	}
	if fi, err := os.Stat(tp); err == nil {
		st.offset = fi.Size()
	}
	if err := writeState(r.stopPath, st); err != nil {
		r.reportf("stop-loop counter: %v", err)
	}
	r.trace.StopCount = count + 1
	return out
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
// into no decision: a counter there is neither read nor written.
const stateLevels = 2

func readState(file string) stopState {
	if safefile.PrivateDir(filepath.Dir(file), stateLevels) != nil {
		return stopState{}
	}
	b, err := safefile.ReadPrivate(file)
	if err != nil {
		return stopState{}
	}
	var st stopState
	f := strings.Fields(string(b))
	if len(f) > 0 {
		if n, err := strconv.Atoi(f[0]); err == nil && n > 0 {
			st.count = n
		}
	}
	if len(f) > 1 {
		st.chain = f[1]
	}
	if len(f) > 2 {
		st.offset, _ = strconv.ParseInt(f[2], 10, 64)
	}
	return st
}

// writeState replaces the state atomically, so a reader never sees half of
// it.
func writeState(file string, st stopState) error {
	if err := safefile.PrivateDir(filepath.Dir(file), stateLevels); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(tmp, "%d %s %d\n", st.count, st.chain, st.offset)
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

func removeCount(file string) {
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
