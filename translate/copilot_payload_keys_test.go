package translate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// A Copilot CLI payload reaches another agent's hook with only keys that
// agent itself sends: every captured Copilot payload, translated to each
// agent whose real payloads are captured (testdata/payloads), has no
// top-level key that agent never sent on any event. errorOccurred's
// error_context and recoverable reached a Claude StopFailure hook before
// Copilot's "private" list named them (conformance
// error/copilot-wrap-from-claude-StopFailure, 2026-11-27).
func TestCopilotPayloadKeysAreTheTargetAgentsOwn(t *testing.T) {
	tab := mappings.Default()
	files, _ := filepath.Glob("testdata/copilot/*.json")
	if len(files) == 0 {
		t.Fatal("no captured Copilot payloads")
	}
	checked := 0
	for _, other := range tab.Dialects {
		sent := capturedKeys(t, other)
		if sent == nil {
			continue
		}
		for _, f := range files {
			event := strings.TrimSuffix(filepath.Base(f), ".json")
			res, err := newTr(t, "copilot", other.Name).Event(readCopilotPayload(t, event))
			if err != nil || res.Skip {
				continue // TestCopilotCapturedPayloadsRoundTrip reports errors
			}
			var got map[string]json.RawMessage
			if err := json.Unmarshal(res.Payload, &got); err != nil {
				t.Errorf("%s to %s: %v", event, other.Name, err)
				continue
			}
			sent := sent[res.Event]
			if sent == nil {
				continue // none of that event was captured
			}
			checked++
			for k := range got {
				if !sent[k] {
					t.Errorf("%s to %s (%s): the hook gets %q, which %s never sends: %s", event, other.Name, res.Event, k, other.Agent, res.Payload)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no agent has captured payloads: nothing was checked")
	}
}

// capturedKeys are the top-level keys of the captured payloads of d
// (../testdata/payloads/<name>-<version>), by event, nil when none are
// captured: Qwen's and Droid's captures hold only tool events.
func capturedKeys(t *testing.T, d *mappings.Dialect) map[string]map[string]bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", d.Name+"-"+d.Version, "*.json"))
	if len(files) == 0 {
		return nil
	}
	keys := map[string]map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var event string
		_ = json.Unmarshal(m["hook_event_name"], &event)
		if keys[event] == nil {
			keys[event] = map[string]bool{}
		}
		for k := range m {
			keys[event][k] = true
		}
	}
	return keys
}
