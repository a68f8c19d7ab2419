package translate

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files from the current translation")

// fixedNow makes derived timestamps reproducible in goldens.
func fixedNow() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }

func newTr(t testing.TB, from, to string) *Translator {
	t.Helper()
	tr, err := New(mappings.Default(), from, to)
	if err != nil {
		t.Fatal(err)
	}
	tr.Now = fixedNow
	return tr
}

// TestEventGoldens translates every payload captured from the real agents
// (../testdata/payloads; testdata/events/<dialect>.<payload>.txtar holds its
// translation under the other dialect's name: Gemini's for Claude's, Claude's
// for every other agent's) and checks both the translation and the round
// trip back.
func TestEventGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/events/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	captured, _ := filepath.Glob("../testdata/payloads/*/*.json")
	if len(files) != len(captured) || len(files) < 100 {
		t.Fatalf("found %d goldens, want one per captured payload in ../testdata/payloads (%d)", len(files), len(captured))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := parseGolden(file)
			if err != nil {
				t.Fatal(err)
			}
			src, dst := goldenDialects(file)
			in := section(t, ar, src+".json")
			res, err := newTr(t, src, dst).Event(in)
			var got []byte
			switch {
			case err != nil && strings.Contains(err.Error(), "the guard cannot judge it"):
				// A tool that acts with no counterpart fails a guard of
				// every tool closed (TestActingToolWithNoCounterpartFailsAGuardClosed).
				got = []byte("# the guard fails closed: " + err.Error() + "\n")
			case err != nil:
				t.Fatal(err)
			default:
				got = renderGolden(res)
			}
			if *update {
				ar.Files = []txtar.File{{Name: dst + ".json", Data: got}} // the input stays in ../testdata/payloads
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := section(t, ar, dst+".json")
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s → %s (-want +got):\n%s\nrun go test ./translate -update to accept", src, dst, diff)
			}
			if err != nil || res.Skip {
				return
			}
			checkRoundTrip(t, src, dst, in, res)
		})
	}
}

// goldenDialects are the dialects of an event golden: the captured payload's
// agent and the hook's. Claude's payloads go to a Gemini hook, every other
// agent's to a Claude hook (Qwen's and Droid's tools as a Claude hook sees
// them).
func goldenDialects(file string) (src, dst string) {
	src, _, _ = strings.Cut(filepath.Base(file), ".")
	if src == "claude" {
		return src, "gemini"
	}
	return src, "claude"
}

// checkRoundTrip translates the translation back and requires every field of
// the original to survive unless a finding of either leg explains the loss.
func checkRoundTrip(t *testing.T, src, dst string, orig []byte, there *EventResult) {
	t.Helper()
	back, err := newTr(t, dst, src).Event(there.Payload)
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	if back.Skip {
		t.Fatalf("round trip skipped: %s", back.SkipReason)
	}
	var a, b map[string]any
	mustJSON(t, orig, &a)
	mustJSON(t, back.Payload, &b)
	explained := func(key string) bool {
		src := newTr(t, src, dst).From
		if slices.Contains(src.Private, key) {
			return true // dropped by the contract (T§3.1)
		}
		for _, e := range src.Events {
			if slices.Contains(e.Private, key) {
				return true
			}
		}
		for _, f := range append(slices.Clone(there.Findings), back.Findings...) {
			if f.Mark != mappings.Exact && (strings.Contains(f.What, key) || strings.HasPrefix(f.What, "tool ") || strings.HasPrefix(f.What, "tool_response")) {
				return true
			}
		}
		return false
	}
	for k, v := range a {
		if !cmp.Equal(v, b[k]) && !explained(k) {
			t.Errorf("round trip changed %s without a finding:\n%s", k, cmp.Diff(v, b[k]))
		}
	}
}

// renderGolden is the golden text of a translation: the indented payload,
// or the skip reason, then the findings.
func renderGolden(res *EventResult) []byte {
	var b bytes.Buffer
	if res.Skip {
		b.WriteString("skip: " + res.SkipReason + "\n")
	} else {
		var x bytes.Buffer
		_ = json.Indent(&x, res.Payload, "", "  ")
		b.Write(x.Bytes())
		b.WriteString("\n")
	}
	for _, f := range res.Findings {
		b.WriteString("# " + f.String() + "\n")
	}
	return b.Bytes()
}

func section(t *testing.T, ar *txtar.Archive, name string) []byte {
	t.Helper()
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	if *update {
		return nil
	}
	t.Fatalf("no %s section", name)
	return nil
}

func mustJSON(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
}
