package translate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/tailscale/hujson"
)

// outputEvidence is one dialect's mappings/data/evidence/<dialect>-output.jsonc:
// every exit code and every output field its agent's hook runner acts on,
// per event, with the effect and where that was read or seen.
type outputEvidence struct {
	Dialect string               `json:"dialect"`
	Agent   string               `json:"agent"`
	Sources map[string]string    `json:"sources"` // short names the entries' evidence cites
	Events  map[string][]actedOn `json:"events"`
	Left    map[string]string    `json:"left"` // events not enumerated: why nothing of them can be
}

// actedOn is one exit code or output field and what the agent does with it.
type actedOn struct {
	Exit *int `json:"exit"` // an exit code (stderr holds text)
	// Field is a JSON path in the hook's stdout object ("continue",
	// "hookSpecificOutput.permissionDecision"), or "stdout" for plain text
	// at exit 0; Value is what it holds.
	Field string `json:"field"`
	Value any    `json:"value"`
	// Effect is what the agent does: the event's block ("deny", "feedback",
	// "hide_output", "continue"), "stop", "context", "rewrite", "allow",
	// "ask", "replaceOutput", "model" (a model hook's llm_request,
	// llm_response or toolConfig is applied), "shown" (to the user only)
	// or "none" (read, and nothing follows).
	Effect   string `json:"effect"`
	Evidence string `json:"evidence"`
	// Gap, where set, says why hookx does not carry an effect that grants
	// nothing and hides nothing the model would see (never a block or a
	// stop), and what it reports instead.
	Gap string `json:"gap"`
}

var blockEffects = []string{"deny", "feedback", "hide_output", "continue"}

// loadOutputEvidence reads every evidence file, strictly.
func loadOutputEvidence(t *testing.T) map[string]*outputEvidence {
	t.Helper()
	files, err := filepath.Glob("../mappings/data/evidence/*-output.jsonc")
	if err != nil || len(files) == 0 {
		t.Fatalf("no evidence files: %v", err)
	}
	all := map[string]*outputEvidence{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		std, err := hujson.Standardize(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		dec := json.NewDecoder(strings.NewReader(string(std)))
		dec.DisallowUnknownFields()
		var ev outputEvidence
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if want := ev.Dialect + "-output.jsonc"; filepath.Base(f) != want {
			t.Errorf("%s names dialect %q: the file must be %s", f, ev.Dialect, want)
		}
		all[ev.Dialect] = &ev
	}
	return all
}

// TestReadersHoldTheEvidence holds each dialect's hook reader, the table
// and its protocol family's code, against the list of what the dialect's
// own agent acts on: every exit code and output field listed for an event
// is fed to hookx's reader of that dialect, which must give it the same
// effect. It fails when the agent acts on something the table does not
// declare (on b20418e: Factory Droid's exit 3 on PreToolUse, PostToolUse,
// Stop, UserPromptSubmit and PreCompact, and its PreToolUse exit 1), and
// when an event of the table is neither enumerated nor left with a reason
// ("not enumerated yet" is none), or, guarding something (output.guard or
// failClosed), is left at all.
func TestReadersHoldTheEvidence(t *testing.T) {
	tab := mappings.Default()
	all := loadOutputEvidence(t)
	for _, name := range tab.DialectNames() {
		d, _ := tab.Dialect(name)
		ev := all[name]
		t.Run(name, func(t *testing.T) {
			if ev == nil {
				t.Fatalf("no mappings/data/evidence/%s-output.jsonc", name)
			}
			for _, e := range d.Events {
				acts, listed := ev.Events[e.Name]
				left, isLeft := ev.Left[e.Name]
				switch {
				case listed && isLeft:
					t.Errorf("event %s is both enumerated and left", e.Name)
				case listed:
				case isLeft && (e.Output.Guard || e.Output.FailClosed):
					t.Errorf("event %s guards something, and the evidence enumerates nothing of it (left: %s)", e.Name, left)
				case isLeft && (strings.TrimSpace(left) == "" || strings.Contains(left, "not enumerated yet")):
					t.Errorf("event %s is left with no reason (%q): enumerate it from its agent, or say why nothing of it can be", e.Name, left)
				case !isLeft:
					t.Errorf("event %s: the evidence neither enumerates what %s acts on there nor says why not (left)", e.Name, d.Agent)
				}
				// The other way: an exit code the table gives an effect of
				// its own is one the evidence shows.
				for code := range e.Output.Exits {
					if !slices.ContainsFunc(acts, func(a actedOn) bool { return a.Exit != nil && fmt.Sprint(*a.Exit) == code }) {
						t.Errorf("event %s: the table gives exit %s an effect (output.exits) that the evidence does not list", e.Name, code)
					}
				}
			}
			for evName := range ev.Left {
				if d.Event(evName) == nil {
					t.Errorf("left names %s, which the table does not have", evName)
				}
			}
			for evName, acts := range ev.Events {
				e := d.Event(evName)
				if e == nil {
					t.Errorf("evidence for %s, which the table does not have", evName)
					continue
				}
				for _, a := range acts {
					if err := checkActedOn(d, e, a); err != nil {
						t.Errorf("%s %s: %v (evidence: %s)", evName, a.what(), err, a.Evidence)
					}
				}
			}
		})
	}
}

func (a actedOn) what() string {
	if a.Exit != nil {
		return fmt.Sprintf("exit %d → %s", *a.Exit, a.Effect)
	}
	v, _ := json.Marshal(a.Value)
	return fmt.Sprintf("%s=%s → %s", a.Field, v, a.Effect)
}

// output is the hook result that shows a: the exit code with a reason on
// stderr, or the field set in a JSON object (the event named where
// hookSpecificOutput needs it), or plain text.
func (a actedOn) output(e *mappings.Event) (Output, error) {
	if a.Exit != nil {
		return Output{ExitCode: *a.Exit, Stderr: []byte("EVIDENCE-REASON\n")}, nil
	}
	if a.Field == "stdout" {
		return Output{Stdout: []byte(fmt.Sprint(a.Value) + "\n")}, nil
	}
	obj := map[string]any{}
	path := strings.Split(a.Field, ".")
	m := obj
	for i, k := range path {
		if i == len(path)-1 {
			m[k] = a.Value
			break
		}
		next := map[string]any{}
		if k == "hookSpecificOutput" {
			next["hookEventName"] = e.Name
		}
		m[k] = next
		m = next
	}
	// A block needs its reason in some agents (Codex refuses a blank one).
	if a.Field == "decision" {
		obj["reason"] = "EVIDENCE-REASON"
	}
	b, err := json.Marshal(obj)
	return Output{Stdout: b}, err
}

// checkActedOn reads a's output with the dialect's reader and checks the
// verdict has a's effect.
func checkActedOn(d *mappings.Dialect, e *mappings.Event, a actedOn) error {
	if (a.Exit == nil) == (a.Field == "") {
		return fmt.Errorf("an entry names an exit code or a field, not both or neither")
	}
	if a.Evidence == "" {
		return fmt.Errorf("no evidence")
	}
	if a.Gap != "" {
		if slices.Contains(blockEffects, a.Effect) || a.Effect == "stop" {
			return fmt.Errorf("a %s cannot be a gap: hookx must carry it", a.Effect)
		}
		return nil
	}
	out, err := a.output(e)
	if err != nil {
		return err
	}
	var fs findings
	v := readOutput(d, e, out, &fs)
	switch eff := a.Effect; {
	case slices.Contains(blockEffects, eff):
		if e.Output.Block != eff {
			return fmt.Errorf("the table says a block on %s means %q", e.Name, e.Output.Block)
		}
		if !v.Block {
			return fmt.Errorf("hookx reads no block (verdict %+v)", v)
		}
	case eff == "stop":
		if !e.Output.Stop {
			return fmt.Errorf("the table says the agent cannot stop on %s", e.Name)
		}
		if !v.Stop {
			return fmt.Errorf("hookx reads no stop (verdict %+v)", v)
		}
	case eff == "context":
		if e.Output.Context != "model" && e.Output.Context != "continue" {
			return fmt.Errorf("the table says context on %s goes nowhere", e.Name)
		}
		if len(v.Context) == 0 {
			return fmt.Errorf("hookx reads no context (verdict %+v)", v)
		}
	case eff == "rewrite" && strings.HasSuffix(a.Field, "updatedInput.prompt"):
		if !e.Output.RewritePrompt || v.NewPrompt == nil {
			return fmt.Errorf("hookx reads no prompt rewrite (table rewritePrompt %v)", e.Output.RewritePrompt)
		}
	case eff == "rewrite":
		if !e.Output.RewriteInput || v.NewInput == nil {
			return fmt.Errorf("hookx reads no rewrite (table rewriteInput %v)", e.Output.RewriteInput)
		}
	case eff == "allow":
		if e.Output.Allow != "skips_prompt" || !v.Allow {
			return fmt.Errorf("hookx reads no allow that skips the prompt (table allow %q)", e.Output.Allow)
		}
	case eff == "ask":
		if !e.Output.Ask || !(v.Ask || v.Block) {
			return fmt.Errorf("hookx reads no ask (table ask %v)", e.Output.Ask)
		}
	case eff == "replaceOutput":
		if !(e.Output.ReplaceOutput && v.NewOutput != nil) && !(e.Output.StopReplacesOutput && (v.Stop || v.Block)) {
			return fmt.Errorf("hookx reads no replacement of the tool's output (verdict %+v)", v)
		}
	case eff == "model":
		name := strings.TrimPrefix(a.Field, "hookSpecificOutput.")
		if !slices.Contains(e.Output.ModelFields, name) || v.Model[name] == nil {
			return fmt.Errorf("hookx reads no %s (table modelFields %v)", name, e.Output.ModelFields)
		}
	case eff == "shown":
		if a.Field == "systemMessage" && (e.Output.SystemMessage == "discarded" || v.SystemMessage == "") {
			return fmt.Errorf("the agent shows it, and the table says it is discarded on %s", e.Name)
		}
	case eff == "none":
		blocks := v.Block && e.Output.Block != "none" && e.Output.Block != ""
		if blocks || (v.Stop && e.Output.Stop) || v.Allow || v.NewInput != nil || v.NewOutput != nil {
			return fmt.Errorf("the agent does nothing with it, and hookx reads %+v", v)
		}
	default:
		return fmt.Errorf("unknown effect %q", eff)
	}
	return nil
}
