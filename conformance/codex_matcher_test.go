//go:build unix

package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/rustregex"
	"github.com/hookx-dev/hookx/mappings"
)

// TestCodexKeepsTheMatchersHookxEvaluates asks Codex 0.169.0 itself which
// matchers of the Rust regex corpus it keeps: its app server's hooks/list
// reads a project's .codex/hooks.json as a session does and leaves out, with
// a warning, each group whose matcher regex::Regex::new (regex 1.12.3)
// rejects. Every matcher hookx evaluates must be kept: otherwise hookx
// would run a hook Codex never runs. This is the version check the Debian
// oracle (regex 1.7.1, mappings.TestRustMatchersLikeRust) cannot make; the
// patterns on which the two regex versions disagree are logged.
func TestCodexKeepsTheMatchersHookxEvaluates(t *testing.T) {
	p := requireAgents(t)
	patterns := rustregex.Patterns()
	kept, warnings := codexHooksList(t, p.Node, p.Codex, patterns)
	codex := mappings.Default().MustDialect("codex")
	var evaluated, dropped int
	for i, pat := range patterns {
		if !kept[i] {
			dropped++
		}
		if _, err := codex.ToolMatcher(pat); err != nil {
			continue
		}
		evaluated++
		if !kept[i] {
			t.Errorf("hookx evaluates the Codex matcher %q; Codex 0.169.0 drops its group", pat)
		}
	}
	if dropped != warnings {
		t.Errorf("Codex dropped %d groups and gave %d warnings", dropped, warnings)
	}
	if dropped == 0 || dropped == len(patterns) {
		t.Errorf("Codex dropped %d of %d groups: the corpus holds both valid and invalid matchers", dropped, len(patterns))
	}
	t.Logf("%d matchers: Codex drops %d; hookx evaluates %d, all kept", len(patterns), dropped, evaluated)

	// Where regex 1.7.1 (the Debian oracle) and 1.12.3 (Codex) disagree.
	if o, err := rustregex.Start(); err == nil {
		var differ []string
		for i, pat := range patterns {
			v, err := o.Test(pat, []string{})
			if err != nil {
				t.Fatal(err)
			}
			if v.OK != kept[i] && !codex.IsExactList(pat) && pat != "" && pat != "*" {
				differ = append(differ, fmt.Sprintf("%q (1.7.1: %v, Codex: %v)", pat, v.OK, kept[i]))
			}
		}
		t.Logf("regex 1.7.1 and Codex's 1.12.3 disagree on %d matchers, such as %s", len(differ), strings.Join(differ[:min(12, len(differ))], ", "))
	}
}

// codexHooksList writes one PreToolUse group per pattern into a trusted
// project's .codex/hooks.json and returns which groups Codex's app server
// lists, and how many warnings it gives.
func codexHooksList(t *testing.T, node, codex string, patterns []string) (kept map[int]bool, warnings int) {
	t.Helper()
	home, proj := t.TempDir(), t.TempDir()
	type handler struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}
	type group struct {
		Matcher string    `json:"matcher"`
		Hooks   []handler `json:"hooks"`
	}
	groups := make([]group, len(patterns))
	for i, pat := range patterns {
		groups[i] = group{Matcher: pat, Hooks: []handler{{Type: "command", Command: "true"}}}
	}
	b, err := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": groups}})
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.MkdirAll(filepath.Join(proj, ".codex"), 0o755))
	must(t, os.WriteFile(filepath.Join(proj, ".codex", "hooks.json"), b, 0o644))
	must(t, os.MkdirAll(filepath.Join(home, ".codex"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, ".codex", "config.toml"),
		fmt.Appendf(nil, "[projects.%q]\ntrust_level = \"trusted\"\n", proj), 0o644))

	// About 6 s on a quiet machine; the bound only ends an app server that
	// hangs, which fails anyway, so it leaves a loaded 2-core machine room
	// (it was 2 minutes).
	ctx, cancel := context.WithTimeout(context.Background(), 2*driver.DefaultTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, codex, "app-server")
	cmd.Dir = proj
	cmd.Env = append(os.Environ(), "HOME="+home, "CODEX_HOME="+filepath.Join(home, ".codex"))
	in, err := cmd.StdinPipe()
	must(t, err)
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	defer func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	for _, req := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"hookx-conformance","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"initialized"}`,
		fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[%q]}}`, proj),
	} {
		fmt.Fprintln(in, req)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				Data []struct {
					Hooks []struct {
						Key string `json:"key"`
					} `json:"hooks"`
					Warnings []string `json:"warnings"`
					Errors   []any    `json:"errors"`
				} `json:"data"`
			} `json:"result"`
			Error any `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID != 2 {
			continue
		}
		if msg.Error != nil || len(msg.Result.Data) != 1 {
			t.Fatalf("hooks/list answered %s", sc.Bytes())
		}
		d := msg.Result.Data[0]
		if len(d.Errors) > 0 {
			t.Fatalf("hooks/list: errors %v", d.Errors)
		}
		kept = map[int]bool{}
		for _, h := range d.Hooks {
			// The key is <path>:pre_tool_use:<group>:<handler>.
			f := strings.Split(h.Key, ":")
			g, err := strconv.Atoi(f[len(f)-2])
			if len(f) < 3 || f[len(f)-3] != "pre_tool_use" || err != nil {
				t.Fatalf("hooks/list: a hook key %q", h.Key)
			}
			kept[g] = true
		}
		return kept, len(d.Warnings)
	}
	t.Fatalf("Codex's app server gave no hooks/list answer: %v", sc.Err())
	return nil, 0
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
