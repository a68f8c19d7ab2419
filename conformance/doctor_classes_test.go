//go:build unix

package conformance

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/doctor"
)

// doctorClass is one class of doctor's error findings: what it claims,
// and how the conformance suite proves it in the real agents.
type doctorClass struct {
	// name is the class; rule its id in doctor's registry (doctor/rules.go;
	// one rule may hold several classes); match is text of its problem.
	name, rule, match string
	verdict           verdict
	// noProof, when set, is why no live scenario proves the class; without
	// it, liveProofs must hold a scenario of the class.
	noProof string
}

const notBuilt = "not built yet"

// clineDispatchers is why Cline's dispatcher rules have no live proof: the
// cline/<dialect>-guard-on-cline scenarios run the dispatcher hookx
// migrate writes, whole and beside its entries (no finding), and no doctor
// batch runs Cline with one missing, foreign or without entries yet.
const clineDispatchers = "the cline/*-guard-on-cline scenarios run migrate's dispatcher as written (no finding); a doctor batch on Cline with a broken one is " + notBuilt

// piPlugin is why Pi's plugin rules have no live proof: no pi family
// runs in the conformance suite on this branch.
const piPlugin = "Pi has no family in the conformance suite yet; a doctor batch on Pi is " + notBuilt

// doctorErrorClasses are every error class doctor reports. A new error
// rule in doctor's registry fails TestDoctorClassesHaveLiveProofs until it
// is listed here with a live proof or the reason it has none.
var doctorErrorClasses = []doctorClass{
	{"event-other-agent", "HX204", "is a %s event; %s drops event names", neverFires, ""},
	{"event-unknown", "HX205", "unknown event %q", neverFires, ""},
	{"matcher-exact-list", "HX216", "compares %s matchers as exact strings", neverFires, "exact-value matchers are on non-tool events (SessionStart, Notification…), which the batches do not fire; " + notBuilt},
	{"matcher-not-a-value", "HX217", "%q is not a %s %s of %s; the hook never fires", neverFires, "a non-tool event's matcher; " + notBuilt},
	{"matcher-value-matches-none", "HX217", "%q matches no %s %s of %s; the hook never fires", neverFires, "a non-tool event's matcher; " + notBuilt},
	{"matcher-bad-regex", "HX218", "so %s never fires the hook", neverFires, ""},
	{"matcher-mcp-other-agent", "HX219", "MCP naming", neverFires, "needs an MCP server in the agent's run; the suite configures none"},
	{"matcher-other-agent-tool", "HX220", "tool name; %s calls its tools differently", neverFires, ""},
	{"matcher-no-such-tool", "HX221", "the hook never fires (matching is case-sensitive)", neverFires, ""},
	{"handler-no-type", "HX212", "the handler has no \"type\"", rejectsFile, ""},
	{"handler-unknown-type", "HX213", "handler type; %s", rejectsFile, ""},
	{"handler-no-command", "HX214", "a command hook without a command", neverFires, notBuilt},
	{"timeout-not-whole", "HX108", "is not a whole number of", rejectsFile, ""},
	{"timeout-milliseconds", "HX311", "is milliseconds in %s", failsOpen, ""},
	{"if-on-non-tool-event", "HX222", "evaluates \"if\" only on tool events", neverFires, "a non-tool event; " + notBuilt},
	{"shell-syntax", "HX301", "is not valid shell", blocksAll, ""},
	{"not-on-path", "HX302", "is not on the PATH the agent passes to hooks; %s…: not found", failsOpen, ""},
	{"interpreter-script-missing", "HX303", "%s's script %s does not exist", failsOpen, ""},
	{"command-missing", "HX304", "%s does not exist; %s…: not found", failsOpen, ""},
	{"command-is-directory", "HX305", "is a directory", failsOpen, ""},
	{"command-not-executable", "HX306", "is not executable", failsOpen, ""},
	{"interpreter-missing", "HX307", "interpreter %s is not installed", failsOpen, ""},
	{"idiom-decision-deny", "HX312", "answers {\"decision\":\"deny\"}", failsOpen, ""},
	{"idiom-stdout-deny-nonzero", "HX313", "answers a deny on stdout and exits non-zero", failsOpen, "only TerminaI and Crush read stdout at exit 0 alone (reading.streams byExit), and neither has a live agent in the suite"},
	{"idiom-permissionDecision", "HX314", "answers permissionDecision \"deny\"", failsOpen, ""},
	{"idiom-decision-block", "HX318", "answers {\"decision\":\"block\"}", failsOpen, "Crush, which reads only allow or deny, has no live agent in the suite; Factory Droid's PreToolUse ignoring it is proven by verdict/droid-decision-block-ignored, not yet as a doctor class"},
	{"cline-exit-code-only", "HX319", "never reads its exit code: this exit refuses nothing", failsOpen, "Cline ignoring a guard's exit 2 is proven by cline/claude-exit2-unwrapped, not yet as a doctor class; a doctor batch on Cline is " + notBuilt},
	{"hookx-not-at", "HX308", "hookx is not at %s", failsOpen, "a migrated project moved to a machine without hookx at that path; " + notBuilt},
	{"hookx-not-on-path", "HX308", "hookx is not on the PATH", failsOpen, notBuilt},
	{"probe-timed-out", "HX315", "timed out after %s", failsOpen, ""},
	{"probe-ignored-idiom", "HX316", "ignored idiom: ", failsOpen, ""},
	{"probe-failed-open", "HX317", "failed open: %s", failsOpen, notBuilt},
	{"file-past-hookx-bounds", "HX103", "hookx does not read this file", rejectsFile, "hookx's own bound (16 MiB, 512 levels), not a claim about the agent"},
	{"guard-reads-foreign-variable", "HX309", "another agent's variable", failsOpen, notBuilt},
	{"guard-reads-unset-variable", "HX310", "a variable the agent never sets", failsOpen, notBuilt},
	{"file-empty", "HX101", "the file is empty", rejectsFile, ""},
	{"file-does-not-parse", "HX102", "the file does not parse", rejectsFile, ""},
	{"trailing-comma", "HX104", "trailing comma", rejectsFile, ""},
	{"comment-in-strict-json", "HX105", "comment in a strict JSON file", rejectsFile, ""},
	{"top-level-not-object", "HX106", "the top level is not an object", rejectsFile, ""},
	{"root-key", "HX107", "accepts only %s at the root of this file", rejectsFile, ""},
	{"hooks-not-object", "HX201", "is not an object of event names", rejectsFile, notBuilt},
	{"event-under-wrapper", "HX202", "is no event: %s reads the events at the root", neverFires, ""},
	{"event-not-array", "HX203", "is not an array of matcher groups", neverFires, notBuilt},
	{"group-not-object", "HX206", "a matcher group of … is not an object", neverFires, notBuilt},
	{"matcher-not-string", "HX207", "the matcher is not a string", neverFires, notBuilt},
	{"group-flat-shape", "HX208", "flat matcher+command shape", neverFires, notBuilt},
	{"group-no-hooks", "HX209", "the group has no \"hooks\" array", neverFires, notBuilt},
	{"group-hooks-not-array", "HX210", "\"hooks\" in the group is not an array", neverFires, notBuilt},
	{"handler-not-object", "HX211", "a handler is not an object", neverFires, notBuilt},
	{"duplicate-key", "HX215", "is written again at line", neverFires, notBuilt},
	{"hooks-switched-off", "HX224", "%s is %s; %s runs none of its settings hooks (%d found)", rejectsFile, ""},
	{"hook-disabled-by-list", "HX223", "this hook is switched off by", neverFires, notBuilt},
	{"gemini-untrusted-env", "HX226", "the environment marks the folder untrusted", rejectsFile, "the suite's Gemini runs set GEMINI_CLI_TRUST_WORKSPACE=true; " + notBuilt},
	{"trust-file-unreadable", "HX227", "cannot read %s (%v) and refuses to start", rejectsFile, notBuilt},
	{"folder-do-not-trust", "HX228", "marked DO_NOT_TRUST", rejectsFile, notBuilt},
	{"project-not-trusted", "HX229", "marks the project %s = %q", rejectsFile, notBuilt},
	{"dispatcher-missing", "HX330", "dispatcher beside it: %s runs none of them", neverFires, clineDispatchers},
	{"dispatcher-not-hookx", "HX331", "this is not the dispatcher hookx writes", neverFires, clineDispatchers},
	{"dispatcher-without-entries", "HX332", "it refuses every call (it fails closed)", blocksAll, clineDispatchers},
	{"plugin-missing", "HX240", "is missing: Pi runs none of them", neverFires, piPlugin},
	{"plugin-hooks-missing", "HX240", "is missing: the plugin refuses every tool call", blocksAll, piPlugin},
	{"plugin-event-not-run", "HX241", "which hookx's %s plugin does not run", neverFires, "the plugins' skipping of such an entry is held by migrate/piplugin's and migrate/ocplugin's TestPlugin under node; a doctor batch on a plugin host is " + notBuilt},
	{"plugin-untrusted", "HX242", "Pi will not load %s in this project", neverFires, piPlugin},
	{"hooks-switched-off-every-guard", "HX225", "%s is %s; %s runs none of its settings hooks (%d found), so every guard fails open", rejectsFile, notBuilt},
}

// liveProofs are the live scenarios of each class: the batches' hooks and
// file classes, and the single-guard doctor cases.
func liveProofs() map[string][]string {
	proofs := map[string][]string{}
	for _, b := range liveBatches() {
		for _, h := range b.hooks {
			switch {
			case h.name == liveControl:
			case h.verdict == blocksAll:
				proofs[h.class] = append(proofs[h.class], fmt.Sprintf("batch/%s/%s/blocks-all/%s", b.agent, b.name, h.class))
			default:
				proofs[h.class] = append(proofs[h.class], fmt.Sprintf("batch/%s/%s/broken", b.agent, b.name))
			}
		}
		for _, f := range b.files {
			proofs[f.class] = append(proofs[f.class], fmt.Sprintf("batch/%s/%s/%s", b.agent, b.name, f.class))
		}
	}
	for _, dc := range doctorCases() {
		for _, c := range dc.classes {
			proofs[c] = append(proofs[c], dc.name)
		}
	}
	for c, ps := range proofs {
		proofs[c] = slices.Compact(ps)
	}
	return proofs
}

// TestDoctorClassesHaveLiveProofs holds doctorErrorClasses against
// doctor's rule registry and the live scenarios: every rule of error
// severity has a class, every class names such a rule, every class has a
// live proof or says why not (and not both), and every live scenario's
// class is listed.
func TestDoctorClassesHaveLiveProofs(t *testing.T) {
	rules := map[string]doctor.Rule{}
	for _, r := range doctor.Rules() {
		rules[r.ID] = r
	}
	classed := map[string]bool{}
	proofs := liveProofs()
	names := map[string]bool{}
	for _, c := range doctorErrorClasses {
		names[c.name] = true
		classed[c.rule] = true
		r, ok := rules[c.rule]
		switch {
		case !ok:
			t.Errorf("class %s: doctor has no rule %s", c.name, c.rule)
		case r.Severity != doctor.Error:
			t.Errorf("class %s: rule %s (%s) is a %s, not an error", c.name, c.rule, r.Name, r.Severity)
		}
		switch {
		case len(proofs[c.name]) == 0 && c.noProof == "":
			t.Errorf("class %s: no live scenario proves it; add one (doctor_live_test.go) or say why there is none", c.name)
		case len(proofs[c.name]) > 0 && c.noProof != "":
			t.Errorf("class %s: proven live by %q, but marked %q", c.name, proofs[c.name], c.noProof)
		}
	}
	for _, r := range doctor.Rules() {
		if r.Severity == doctor.Error && !classed[r.ID] {
			t.Errorf("rule %s (%s: %s) has no class in doctorErrorClasses: list it, with its live proof or the reason it has none", r.ID, r.Name, r.Summary)
		}
	}
	for c := range proofs {
		if !names[c] {
			t.Errorf("live scenarios prove class %q, which doctorErrorClasses does not list", c)
		}
	}
}

// doctorProofTable is the README's table of doctor's error classes and
// the live scenarios that prove them.
func doctorProofTable() string {
	proofs := liveProofs()
	var b strings.Builder
	b.WriteString("| rule | class | kind | proven live in (`TestDoctorVerdictsHoldInRealAgents/…`) |\n|---|---|---|---|\n")
	for _, c := range doctorErrorClasses {
		proof := "no live proof: " + c.noProof
		if ps := proofs[c.name]; len(ps) > 0 {
			proof = "`" + strings.Join(ps, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", c.rule, c.name, c.verdict, proof)
	}
	return b.String()
}

const (
	proofsBegin = "<!-- BEGIN doctor proofs: HOOKX_DOCTOR_PROOFS=README.md go test ./conformance -run TestDoctorProofTableIsFresh -->\n"
	proofsEnd   = "<!-- END doctor proofs -->\n"
)

// TestDoctorProofTableIsFresh holds the table in README.md (this
// directory's) to doctorErrorClasses and the live scenarios;
// HOOKX_DOCTOR_PROOFS=README.md rewrites it.
func TestDoctorProofTableIsFresh(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, proofsBegin), strings.Index(s, proofsEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no section %q … %q", proofsBegin, proofsEnd)
	}
	fresh := s[:i+len(proofsBegin)] + doctorProofTable() + s[j:]
	if fresh == s {
		return
	}
	if os.Getenv("HOOKX_DOCTOR_PROOFS") == "README.md" {
		if err := os.WriteFile("README.md", []byte(fresh), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's table of doctor's proofs is stale; regenerate it with:\n  HOOKX_DOCTOR_PROOFS=README.md go test ./conformance -run TestDoctorProofTableIsFresh")
}
