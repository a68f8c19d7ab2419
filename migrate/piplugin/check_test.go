package piplugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name          string
		plugin, hooks string // "" = absent
		trusted       bool
		want          []string // kinds
		wantInText    string
	}{
		{name: "nothing to check", trusted: false},
		{name: "current and trusted", plugin: Render("1.0.0"), hooks: `{"hooks": []}`, trusted: true},
		{name: "older plugin", plugin: Render("0.9.0"), hooks: `{"hooks": []}`, trusted: true, want: []string{"stale-plugin"}, wantInText: `"0.9.0"`},
		{name: "no stamp", plugin: "export default function (pi) {}\n", hooks: `{"hooks": []}`, trusted: true, want: []string{"stale-plugin"}},
		{name: "hooks without plugin", hooks: `{"hooks": []}`, trusted: true, want: []string{"missing-plugin"}},
		{name: "plugin without hooks", plugin: Render("1.0.0"), trusted: true, want: []string{"missing-hooks"}},
		// An edited extension keeping this hookx's stamp, and hooks files
		// the extension throws on (it then refuses every call and prompt).
		{name: "edited, stamp kept", plugin: strings.Replace(Render("1.0.0"), "if (answer.block) return { block: true, reason: answer.reason };", "", 1), hooks: `{"hooks": []}`, trusted: true, want: []string{"stale-plugin"}, wantInText: "edited"},
		{name: "hooks without a hooks array", plugin: Render("1.0.0"), hooks: "{}", trusted: true, want: []string{"missing-hooks"}, wantInText: "no hooks array"},
		{name: "tools as a string", plugin: Render("1.0.0"), hooks: `{"hooks": [{"event": "tool_call", "tools": "bash", "argv": ["wrap"]}]}`, trusted: true, want: []string{"missing-hooks"}, wantInText: "refuses every tool call"},
		{name: "untrusted", plugin: Render("1.0.0"), hooks: `{"hooks": []}`, want: []string{"untrusted"}, wantInText: "pi -p skips"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj := filepath.Join(t.TempDir(), `a "b"; c`)
			agent := t.TempDir()
			if err := os.MkdirAll(filepath.Join(proj, ".pi/extensions"), 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.plugin != "" {
				os.WriteFile(filepath.Join(proj, Path), []byte(tc.plugin), 0o644)
			}
			if tc.hooks != "" {
				os.WriteFile(filepath.Join(proj, HooksPath), []byte(tc.hooks), 0o644)
			}
			if tc.trusted {
				os.WriteFile(filepath.Join(agent, "settings.json"), []byte(`{"defaultProjectTrust":"always"}`), 0o644)
			}
			got, err := Check(proj, agent, "1.0.0")
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			text := ""
			for _, p := range got {
				kinds = append(kinds, p.Kind)
				text += p.Text + "\n"
			}
			if diff := cmp.Diff(tc.want, kinds); diff != "" {
				t.Errorf("kinds (-want +got):\n%s\n%s", diff, text)
			}
			if !strings.Contains(text, tc.wantInText) {
				t.Errorf("text %q lacks %q", text, tc.wantInText)
			}
		})
	}
}
