package wrap

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
)

// stopCap gives a wrapped hook the loop cap of its own agent when the host
// has none: Claude ends a turn after 8 consecutive Stop blocks, while Gemini
// honours AfterAgent denies without bound. The count of consecutive blocks
// is kept per session and per hook in a small file under StateDir. It is
// reset when the host says no stop hook is active (a new turn) or when the
// hook does not block; once cap blocks in a row have been honoured, the next
// block becomes a no-decision, as it would under the hook's own agent.
func (r *runner) stopCap(hookEv, hostEv *mappings.Event, payload []byte, out Output) Output {
	if r.StateDir == "" || hookEv == nil || hostEv == nil {
		return out
	}
	limit := hookEv.Output.BlockCap
	if limit <= 0 || (hostEv.Output.BlockCap > 0 && hostEv.Output.BlockCap <= limit) {
		return out // no cap to keep, or the host keeps one itself
	}
	file := r.stopFile(payload)
	count := 0
	if boolField(payload, "stop_hook_active") {
		count = readCount(file)
	}
	if !isBlock(r.host, out) {
		removeCount(file)
		return out
	}
	if count >= limit {
		r.reportf("%s blocked %s %d times in a row; %s would end the turn now, so this block is ignored",
			r.hook.Agent, hookEv.Name, count, r.hook.Agent)
		r.trace.StopCapped = true
		removeCount(file)
		return nothing(r.host)
	}
	if err := writeCount(file, count+1); err != nil {
		r.reportf("stop-loop counter: %v", err)
	}
	r.trace.StopCount = count + 1
	return out
}

// stopFile names the counter of one hook command in one session.
func (r *runner) stopFile(payload []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", r.From, stringField(payload, "session_id"))
	for _, a := range r.Command {
		fmt.Fprintf(h, "%s\x00", a)
	}
	session := sanitize(stringField(payload, "session_id"))
	return filepath.Join(r.StateDir, session+"-"+hex.EncodeToString(h.Sum(nil))[:16])
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

func readCount(file string) int {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// writeCount replaces the counter atomically, so a reader never sees half a
// number.
func writeCount(file string, n int) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(tmp, "%d\n", n)
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
		_ = writeCount(file, 0)
	}
}

// isBlock reports whether a host's answer is a block under the host's
// output rules.
func isBlock(host *mappings.Dialect, out Output) bool {
	if host.Protocol == "claude" && out.ExitCode == 2 {
		return true
	}
	var v struct {
		Decision string `json:"decision"`
		HSO      struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(bytes.TrimSpace(out.Stdout), &v) != nil {
		return host.Protocol == "gemini" && out.ExitCode >= 2 && len(bytes.TrimSpace(out.Stderr)) > 0 && len(bytes.TrimSpace(out.Stdout)) == 0
	}
	switch host.Protocol {
	case "gemini":
		return v.Decision == "deny" || v.Decision == "block"
	case "claude":
		return v.Decision == "block" || v.HSO.PermissionDecision == "deny"
	}
	return false
}

func boolField(payload []byte, name string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(payload, &m) != nil {
		return false
	}
	var b bool
	return json.Unmarshal(m[name], &b) == nil && b
}
