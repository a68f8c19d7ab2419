//go:build unix

package conformance

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/internal/agentrun/agents"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/mappings"
)

// The paths a scenario can take to its host.
const (
	pathNative = "native"               // the hooks on their own agent, no hookx
	pathHookx  = "hookx"                // hookx migrate, then the other agent
	pathPeer   = "gemini hooks migrate" // Gemini's own migrator (Claude dialect only)
)

// TestConformance runs every scenario natively (asserted: this proves the
// harness and the scenario), through hookx on each of its targets
// (scenario.to; asserted), and, for Claude-dialect scenarios, through
// `gemini hooks migrate` (recorded only: it is expected to fail some). The results table goes to
// t.Log and to the file named by $HOOKX_CONFORMANCE_REPORT.
func TestConformance(t *testing.T) {
	p := requireAgents(t)
	rep := &report{}
	t.Cleanup(func() { rep.flush(t) })
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			if sc.wrapFlags == "" && !sc.noNative {
				t.Run(pathNative+"-"+string(sc.dialect), func(t *testing.T) {
					t.Parallel()
					rep.assert(t, sc, pathNative, sc.dialect, runScenario(t, p, sc, pathNative, sc.dialect))
				})
			}
			for _, host := range sc.targets() {
				t.Run("hookx-to-"+string(host), func(t *testing.T) {
					t.Parallel()
					if _, err := hookxBinary(); err != nil {
						result := "SKIP"
						if inCI() {
							result = "FAIL"
						}
						rep.add(row{scenario: sc.name, path: pathHookx, host: host, result: result, detail: err.Error()})
						requireHookx(t) // skips or fails
					}
					rep.assert(t, sc, pathHookx, host, runScenario(t, p, sc, pathHookx, host))
				})
			}
			if sc.dialect == driver.Claude && !sc.noPeer {
				t.Run("peer-migrate-to-gemini", func(t *testing.T) {
					t.Parallel()
					r := runScenario(t, p, sc, pathPeer, driver.Gemini)
					rep.record(t, sc, pathPeer, driver.Gemini, r)
				})
			}
		})
	}
}

// runResult is one scenario run on one path.
type runResult struct {
	problems []string
	took     time.Duration // the agent run alone
	evidence string
}

// runScenario sets up a sandbox for the path, runs the host agent and
// checks the scenario. Setup failures are returned as problems.
func runScenario(t *testing.T, p agents.Paths, sc *scenario, path string, host driver.Agent) runResult {
	sb := newSandbox(t, p, sc.projectName)
	sb.Relaunch = sc.relaunch
	if err := sc.writeProject(sb); err != nil {
		t.Fatal(err)
	}
	var setup strings.Builder
	if sc.needsHookx {
		sb.PathDirs = []string{filepath.Dir(requireHookx(t))}
	}
	switch path {
	case pathHookx:
		bin := requireHookx(t)
		sb.PathDirs = []string{filepath.Dir(bin)}
		args := []string{"migrate", "--from", string(sc.dialect), "--to", string(host), "--dir", sb.Project}
		if (sc.dialect == driver.Claude || sc.dialect == driver.Gemini) && host == sc.dialect.Other() {
			// The two-dialect form, as the README's first command writes it.
			args = []string{"migrate", "--from-" + string(sc.dialect), "--dir", sb.Project}
		}
		// hookx may write nothing when the host runs every hook of the
		// dialect's settings itself: the host's own reading of them is
		// then what hookx migrate delivers, and is judged.
		itself := runsItself(host, sc.dialect) && !sc.removeSource
		if hosts[sc.dialect].noMigrateFrom {
			if problems := handWrap(sb, sc, host, &setup); problems != nil {
				return runResult{problems: problems, evidence: setup.String()}
			}
		} else if problems := migrate(t, sb, host, bin, args, &setup, itself); problems != nil {
			return runResult{problems: problems, evidence: setup.String()}
		}
		for _, a := range sc.alsoFrom {
			more := []string{"migrate", "--from", string(a), "--to", string(host), "--dir", sb.Project}
			if problems := migrate(t, sb, host, bin, more, &setup, itself); problems != nil {
				return runResult{problems: problems, evidence: setup.String()}
			}
		}
		if b, err := os.ReadFile(sb.Path(entriesFile(host))); err != nil && itself {
			fmt.Fprintf(&setup, "(no %s written: %s runs the hooks of %s itself)\n", settingsFile(host), host, settingsFile(sc.dialect))
		} else if !strings.Contains(string(b), "hookx wrap ") && !(hosts[host].plugin && strings.Contains(string(b), `"wrap"`)) {
			// A plugin's entries are argument arrays: "argv": ["wrap", …].
			return runResult{problems: []string{"the migrated settings run no \"hookx wrap\""}, evidence: setup.String()}
		}
		if sc.hideHookx {
			sb.PathDirs = nil
			fmt.Fprintf(&setup, "hookx taken off the host's PATH\n")
		}
		if sc.removeSource {
			if err := os.Remove(sb.Path(settingsFile(sc.dialect))); err != nil {
				return runResult{problems: []string{err.Error()}, evidence: setup.String()}
			}
		}
		if sc.wrapFlags != "" {
			if err := addWrapFlags(sb.Path(entriesFile(host)), sc.wrapFlags); err != nil {
				return runResult{problems: []string{err.Error()}, evidence: setup.String()}
			}
		}
	case pathPeer:
		if problems := migrate(t, sb, host, p.Gemini, []string{"hooks", "migrate", "--from-claude"}, &setup, false); problems != nil {
			return runResult{problems: problems, evidence: setup.String()}
		}
	}
	if b, err := os.ReadFile(sb.Path(settingsFile(host))); err == nil {
		fmt.Fprintf(&setup, "%s settings the host loads:\n%s\n", host, b)
	}
	if f := entriesFile(host); f != settingsFile(host) {
		if b, err := os.ReadFile(sb.Path(f)); err == nil {
			fmt.Fprintf(&setup, "%s entries the dispatcher reads (%s):\n%s\n", host, f, b)
		}
	}
	o, err := runAgent(t, p, sb, host, sc)
	if err != nil {
		t.Fatal(err)
	}
	if path != pathNative {
		o.wantWarning = "" // a negative control's expected warning is its native config's
	}
	problems := append(commonProblems(o), sc.check(o)...)
	if testing.Verbose() && path != pathNative {
		t.Logf("setup:\n%s", setup.String())
	}
	t.Logf("%s on %s (%s): agent run took %s", sc.name, host, path, o.res.Duration.Round(time.Millisecond))
	if o.note != "" {
		t.Logf("%s on %s (%s): %s", sc.name, host, path, o.note)
	}
	if os.Getenv("HOOKX_CONFORMANCE_EVIDENCE") != "" {
		t.Logf("evidence:\n%s%s\nsettings warnings: %q", setup.String(), o.describe(), o.warnings)
	}
	return runResult{problems: problems, took: o.res.Duration, evidence: setup.String() + o.describe()}
}

// runsItself reports whether host runs the hooks of dialect's settings
// file itself (mappings readsSettings: Copilot CLI runs .claude/settings.json).
func runsItself(host, dialect driver.Agent) bool {
	d, err := mappings.Default().Dialect(string(host))
	return err == nil && d.ReadsNatively(string(dialect), settingsFile(dialect)) != nil
}

// migrate runs a migrator in the project and reports problems if it failed
// or (unless mayWriteNone) wrote no settings for host.
func migrate(t *testing.T, sb *driver.Sandbox, host driver.Agent, bin string, args []string, log *strings.Builder, mayWriteNone bool) []string {
	t.Helper()
	res, err := sb.Run(context.Background(), driver.Cmd{
		Path: bin, Args: args, Env: sb.Env(host, "http://127.0.0.1:9"),
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(log, "$ %s\n%s\n", strings.Join(append([]string{filepath.Base(bin)}, args...), " "), res)
	if res.ExitCode != 0 || res.TimedOut {
		return []string{fmt.Sprintf("%s %s failed: exit %d", filepath.Base(bin), strings.Join(args, " "), res.ExitCode)}
	}
	if _, err := os.Stat(sb.Path(settingsFile(host))); err != nil && !mayWriteNone {
		return []string{fmt.Sprintf("%s %s wrote no %s", filepath.Base(bin), strings.Join(args, " "), settingsFile(host))}
	}
	return nil
}

// addWrapFlags inserts flags after every "hookx wrap" in a settings file.
func addWrapFlags(file, flags string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("read migrated settings: %w", err)
	}
	s := string(b)
	if !strings.Contains(s, "hookx wrap ") {
		return fmt.Errorf("migrated settings %s have no \"hookx wrap \" command to add %s to:\n%s", file, flags, s)
	}
	s = strings.ReplaceAll(s, "hookx wrap ", "hookx wrap "+flags+" ")
	return os.WriteFile(file, []byte(s), 0o644)
}

var (
	hookxOnce sync.Once
	hookxPath string
	hookxErr  error
)

// errNoHookx says the checkout has no ./cmd/hookx yet.
type errNoHookx struct{ root string }

func (e errNoHookx) Error() string {
	return "HOOKX NOT AVAILABLE: " + filepath.Join(e.root, "cmd", "hookx") + " does not exist in this checkout yet (or set HOOKX_BIN)"
}

// hookxBinary builds ./cmd/hookx once per test binary, or takes $HOOKX_BIN.
func hookxBinary() (string, error) {
	hookxOnce.Do(func() {
		if b := os.Getenv("HOOKX_BIN"); b != "" {
			hookxPath, hookxErr = filepath.Abs(b)
			return
		}
		out, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			hookxErr = fmt.Errorf("locate the module root: %w", err)
			return
		}
		root := filepath.Dir(strings.TrimSpace(string(out)))
		if _, err := os.Stat(filepath.Join(root, "cmd", "hookx")); err != nil {
			hookxErr = errNoHookx{root}
			return
		}
		if err := readSources(root); err != nil {
			hookxErr = err
			return
		}
		bin := filepath.Join(tmpRoot, "bin", "hookx")
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/hookx")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			hookxErr = fmt.Errorf("go build ./cmd/hookx: %w\n%s", err, out)
			return
		}
		hookxPath = bin
	})
	return hookxPath, hookxErr
}

// readSources reads every file hookx is built from. The build runs in a
// child process, which go test's result cache cannot see; reading the files
// here makes a change to hookx invalidate a cached pass of this suite.
func readSources(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "conformance":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".jsonc") || d.Name() == "go.mod" || d.Name() == "go.sum" {
			_, err := os.ReadFile(path)
			return err
		}
		return nil
	})
}

// requireHookx returns the hookx binary. A checkout without ./cmd/hookx
// skips, loudly, except with CI=true; a build failure always fails.
func requireHookx(t *testing.T) string {
	t.Helper()
	bin, err := hookxBinary()
	if _, ok := err.(errNoHookx); ok && !inCI() {
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// report collects one row per scenario run.
type report struct {
	mu   sync.Mutex
	rows []row
}

type row struct {
	scenario, path string
	host           driver.Agent
	result         string
	took           time.Duration
	detail         string
	proves         []string // the host's events a pass shows working (provenEvents)
}

func (r *report) add(x row) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rows = append(r.rows, x)
}

func (r *report) newRow(sc *scenario, path string, host driver.Agent, res runResult) row {
	x := row{scenario: sc.name, path: path, host: host, result: "PASS", took: res.took}
	if len(res.problems) > 0 {
		x.result = "FAIL"
		x.detail = strings.Join(res.problems, "; ")
	} else {
		x.proves = provenEvents(sc, path, host)
	}
	return x
}

// assert records the run and fails the test on problems.
func (r *report) assert(t *testing.T, sc *scenario, path string, host driver.Agent, res runResult) {
	t.Helper()
	r.add(r.newRow(sc, path, host, res))
	if len(res.problems) > 0 {
		t.Errorf("%s via %s on %s:\n- %s\n\n%s", sc.name, path, host, strings.Join(res.problems, "\n- "), res.evidence)
	}
}

// record records the run without failing: for baselines expected to fail.
func (r *report) record(t *testing.T, sc *scenario, path string, host driver.Agent, res runResult) {
	t.Helper()
	x := r.newRow(sc, path, host, res)
	r.add(x)
	if len(res.problems) > 0 {
		t.Logf("recorded (not asserted) %s via %s: %s\n%s", sc.name, path, x.detail, res.evidence)
	}
}

// flush writes the table to t.Log and to $HOOKX_CONFORMANCE_REPORT.
func (r *report) flush(t *testing.T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	order := map[string]int{pathNative: 0, pathHookx: 1, pathPeer: 2}
	rows := r.rows
	slices.SortStableFunc(rows, func(a, b row) int {
		return cmp.Or(strings.Compare(a.scenario, b.scenario), cmp.Compare(order[a.path], order[b.path]))
	})
	var b strings.Builder
	fmt.Fprintf(&b, "# hookx conformance report\n\nGemini CLI %s, Claude Code %s, Codex %s, Copilot CLI %s, Qwen Code %s, Factory Droid %s, Cline %s, Pi %s, OpenCode %s, Kilo Code %s. %s. Suite wall time so far: %s.\n\n",
		agents.GeminiVersion, agents.ClaudeVersion, agents.CodexVersion, agents.CopilotVersion, agents.QwenVersion, agents.DroidVersion, agents.ClineVersion, agents.PiVersion, agents.OpenCodeVersion, agents.KiloVersion,
		agentsNote, time.Since(suiteStart).Round(time.Second))
	b.WriteString("| scenario | path | host | result | agent run | detail |\n|---|---|---|---|---|---|\n")
	var total time.Duration
	for _, x := range rows {
		total += x.took
		d := strings.ReplaceAll(x.detail, "\n", " ")
		d = strings.ReplaceAll(d, "|", `\|`)
		if len(d) > 300 {
			d = d[:300] + "…"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", strings.ReplaceAll(x.scenario, "|", `\|`), x.path, x.host, x.result, x.took.Round(10*time.Millisecond), d)
	}
	fmt.Fprintf(&b, "\nSum of agent run times: %s over %d runs.\n", total.Round(time.Second), len(rows))
	b.WriteString("\n| host | runs | agent run time: sum | min | max |\n|---|---|---|---|---|\n")
	for _, h := range driver.Agents {
		var n int
		var sum, lo, hi time.Duration
		for _, x := range rows {
			if x.host != h || x.took == 0 {
				continue
			}
			if n == 0 || x.took < lo {
				lo = x.took
			}
			hi = max(hi, x.took)
			sum += x.took
			n++
		}
		if n > 0 {
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", h, n, sum.Round(100*time.Millisecond), lo.Round(100*time.Millisecond), hi.Round(100*time.Millisecond))
		}
	}
	results := resultsTable(rows)
	b.WriteString("\nEvents seen live (a scenario with a hook on the event passed in the agent, natively or through hookx):\n\n" + results)
	writeResults(t, results)
	t.Log("\n" + b.String())
	if f := os.Getenv("HOOKX_CONFORMANCE_REPORT"); f != "" {
		if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
			t.Errorf("write the report: %v", err)
		}
	}
}
