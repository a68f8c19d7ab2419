package migrate_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/hookx-dev/hookx/migrate"
)

// TestPluginHostTakesAnyHookxName: migrate --to pi with a hookx that is not
// named "hookx" (a versioned install) writes the hook's wrap arguments, as
// with any other name; it stopped with an internal error.
func TestPluginHostTakesAnyHookxName(t *testing.T) {
	settings := []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./guard.sh"}]}]}}`)
	for _, hookx := range []string{"hookx", "/opt/hookx 1.2/hookx-1.2", "/usr/local/bin/hx"} {
		res, err := migrate.Plan(migrate.Options{From: "claude", To: "pi", Wrap: true, Hookx: hookx},
			[]migrate.Source{{Path: ".claude/settings.json", Scope: "project", Data: settings}},
			migrate.Source{Path: ".pi/extensions/hookx.hooks.json"})
		if err != nil {
			t.Fatalf("hookx %q: %v", hookx, err)
		}
		var file struct {
			Hooks []struct {
				Argv []string `json:"argv"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(res.After, &file); err != nil {
			t.Fatalf("hookx %q: the hooks file: %v\n%s", hookx, err, res.After)
		}
		if len(file.Hooks) != 1 || len(file.Hooks[0].Argv) == 0 || file.Hooks[0].Argv[0] != "wrap" || !slices.Contains(file.Hooks[0].Argv, "./guard.sh") {
			t.Errorf("hookx %q: hooks file %s", hookx, res.After)
		}
	}
}
