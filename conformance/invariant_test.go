//go:build unix

package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookx-dev/hookx/doctor"
	"github.com/hookx-dev/hookx/internal/agentrun/driver"
	"github.com/hookx-dev/hookx/internal/findings"
	"github.com/hookx-dev/hookx/mappings"
	hxmigrate "github.com/hookx-dev/hookx/migrate"
)

// migratedWarnings are the doctor warnings a migration of a conformance
// project may leave, each with its reason and the report item of migrate
// that says the same (an allowlisted warning must be one migrate itself
// reports): anything else doctor says about what migrate wrote is a
// disagreement between the two.
var migratedWarnings = []migratedWarning{
	{
		regexp.MustCompile(` guard at .* (is not carried to|is weaker on) `),
		func(f findings.Finding) bool {
			return f.Guard && (f.RuleID == string(hxmigrate.NotCarried) || f.RuleID == string(hxmigrate.Weakened))
		},
		"doctor repeats migrate's plan: the guard migrate reports as not carried or weakened",
	},
}

type migratedWarning struct {
	doctor  *regexp.Regexp
	migrate func(findings.Finding) bool // the finding of migrate --json that says it
	why     string
}

// TestWhatMigrateWritesDoctorPassesOnScenarioProjects holds issue 25's
// invariant on every conformance project, with no agent: each scenario's
// native project (its settings and hook scripts, as scenario.writeProject
// writes them for the agents), migrated by hookx migrate to every other
// dialect of the table, then judged by doctor, reports no error and no
// warning beyond migratedWarnings. What doctor found in the native project
// before migrating is the project's own (a negative control's), not a
// disagreement. Runs under -short and with HOOKX_CONFORMANCE=off.
func TestWhatMigrateWritesDoctorPassesOnScenarioProjects(t *testing.T) {
	bin := requireHookx(t)
	tbl := mappings.Default()
	fakeBin := t.TempDir()
	if err := os.WriteFile(filepath.Join(fakeBin, "hookx"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The version hookx stamps on what it generates (Pi's extension),
	// which doctor compares with its own.
	vj, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var ver struct{ Version string }
	if err := json.Unmarshal(vj, &ver); err != nil || ver.Version == "" {
		t.Fatalf("hookx version --json: %v\n%s", err, vj)
	}
	getenv := func(k string) string {
		if k == "PATH" {
			return fakeBin + string(os.PathListSeparator) + os.Getenv("PATH")
		}
		return ""
	}
	start := time.Now()
	runs := 0
	pairs := map[string]bool{}
	seen := map[string]bool{}
	next := map[driver.Agent]int{} // per source dialect: the next target of the rotation
	for _, sc := range scenarios() {
		if sc.wantWarning != "" {
			continue // a negative control: its settings are broken on purpose
		}
		if hosts[sc.dialect].noMigrateFrom {
			continue // migrate refuses its hooks (Cline's hook files) yet
		}
		var others []*mappings.Dialect
		for _, to := range tbl.Dialects {
			if to.Name != string(sc.dialect) { // Cline too: migrate writes its entries file and dispatchers, doctor reads both
				others = append(others, to)
			}
		}
		if testing.Short() {
			// Deterministic sample: each distinct project (its settings,
			// and its scripts but for their markers) once, to the next
			// dialect in turn, so that each source dialect's projects go
			// to every other dialect.
			k := projectKey(sc)
			if seen[k] {
				continue
			}
			seen[k] = true
			i := next[sc.dialect]
			next[sc.dialect]++
			others = others[i%len(others) : i%len(others)+1]
		}
		from := tbl.MustDialect(string(sc.dialect))
		for _, to := range others {
			for _, noWrap := range []bool{false, true} {
				if noWrap && (!from.ReadsAnswersLike(to) || sc.needsHookx) {
					// --no-wrap is for hooks that already speak the target's
					// protocol: held on the pairs that read a guard's answer alike
					// (mappings.Dialect.ReadsAnswersLike). Not
					// on a project whose own commands call hookx wrap: doctor
					// takes the copy for an entry migrated from the dialect
					// that wrap's --from names, and plans it with wrap (left:
					// see the report).
					continue
				}
				runs++
				pairs[string(sc.dialect)+"-to-"+to.Name] = true
				name := sc.name + "/to-" + to.Name
				if noWrap {
					name += "/no-wrap"
				}
				t.Run(name, func(t *testing.T) {
					root := t.TempDir()
					home := filepath.Join(root, "home")
					sb := &driver.Sandbox{Root: root, Home: home, Project: filepath.Join(home, cmpOr(sc.projectName, "project"))}
					if err := os.MkdirAll(sb.Project, 0o755); err != nil {
						t.Fatal(err)
					}
					if err := sc.writeProject(sb); err != nil {
						t.Fatal(err)
					}
					trust(t, home, sb.Project)
					check := func() []doctor.Finding {
						fs, err := doctor.Check(doctor.Options{Table: tbl, Dir: sb.Project, Home: home, Getenv: getenv, HookxVersion: ver.Version})
						if err != nil {
							t.Fatal(err)
						}
						return fs
					}
					before := map[string]bool{}
					for _, f := range check() {
						before[f.File] = true
						before[f.Problem] = true
						if noWrap && f.Severity != doctor.Note {
							// --no-wrap rewrites the command, and doctor's words for
							// the source's own problem with it.
							t.Skipf("the native project has its own problem, which --no-wrap carries in other words: %s", f.String())
						}
					}
					args := []string{"migrate", "--from", string(sc.dialect), "--to", to.Name, "--dir", sb.Project, "--hookx-path", "hookx", "--json"}
					if noWrap {
						args = append(args, "--no-wrap")
					}
					cmd := exec.Command(bin, args...)
					cmd.Env = append(os.Environ(), "HOME="+home)
					var out, errb bytes.Buffer
					cmd.Stdout, cmd.Stderr = &out, &errb
					err := cmd.Run()
					var rep findings.Document
					if jerr := json.Unmarshal(out.Bytes(), &rep); err != nil || jerr != nil {
						t.Fatalf("hookx migrate --from %s --to %s: %v %v\n%s%s", sc.dialect, to.Name, err, jerr, out.String(), errb.String())
					}
					var bad []string
					for _, f := range check() {
						if f.Severity == doctor.Note || before[f.File] || before[f.Problem] {
							continue
						}
						if f.Severity == doctor.Warning && slices.ContainsFunc(migratedWarnings, func(w migratedWarning) bool {
							return w.doctor.MatchString(f.Problem) && slices.ContainsFunc(rep.Findings, w.migrate)
						}) {
							continue
						}
						bad = append(bad, strings.Replace(f.String(), sb.Project+string(filepath.Separator), "", 1))
					}
					if len(bad) > 0 {
						b, _ := os.ReadFile(sb.Path(settingsFile(sc.dialect)))
						t.Errorf("doctor disagrees with what hookx migrate %s wrote:\n%s\n\nthe native settings:\n%s", strings.Join(args[1:], " "), strings.Join(bad, "\n"), b)
					}
				})
			}
		}
	}
	t.Logf("%d migrations (%d ordered pairs of dialects) of %d scenario projects judged in %s (-short samples: %v)",
		runs, len(pairs), len(scenarios()), time.Since(start).Round(time.Millisecond), testing.Short())
}

// markers are the unique marker words of a scenario's scripts
// (GUARD-C-EXIT2), which change no verdict.
var markers = regexp.MustCompile(`[A-Z][A-Z0-9_-]{3,}`)

// projectKey is what decides doctor's and migrate's verdicts on a
// scenario's project: its dialect, settings and scripts, markers aside.
func projectKey(sc *scenario) string {
	k := fmt.Sprintf("%s\x00%s\x00%q\x00%v", sc.dialect, sc.config, sc.hooks, sc.projectName)
	names := slices.Sorted(maps.Keys(sc.scripts))
	for _, n := range names {
		k += "\x00" + n + "=" + markers.ReplaceAllString(sc.scripts[n], "M")
	}
	return k
}

// trust records the project as trusted where the agents that ask keep it,
// as a user who uses the project with them has: doctor's trust warnings
// are about the user's act, not about what migrate wrote.
func trust(t *testing.T, home, project string) {
	t.Helper()
	real, err := filepath.EvalSymlinks(project)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		".gemini/trustedFolders.json": fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, project),
		".pi/agent/trust.json":        fmt.Sprintf(`{%q: true}`, real),
		".codex/config.toml":          fmt.Sprintf("[projects.%q]\ntrust_level = \"trusted\"\n", project),
		".copilot/config.json":        fmt.Sprintf(`{"trustedFolders": [%q]}`, project),
	}
	for rel, content := range files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
