package ocplugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheck(t *testing.T) {
	for _, h := range []Host{OpenCode, Kilo} {
		for _, tc := range []struct {
			name          string
			plugin, hooks string // "" = absent
			want          []string
			wantInText    string
		}{
			{name: "nothing to check"},
			{name: "current", plugin: Render(h, "1.0.0"), hooks: `{"hooks": []}`},
			{name: "older plugin", plugin: Render(h, "0.9.0"), hooks: `{"hooks": []}`, want: []string{"stale-plugin"}, wantInText: `"0.9.0"`},
			{name: "no stamp", plugin: "export default async () => ({})\n", hooks: `{"hooks": []}`, want: []string{"stale-plugin"}, wantInText: "no hookx version stamp"},
			{name: "hooks without plugin", hooks: `{"hooks": []}`, want: []string{"missing-plugin"}, wantInText: h.Agent + " runs none"},
			// An edited plugin that keeps this hookx's stamp: it may guard
			// nothing (here: it no longer throws the block).
			{name: "edited, stamp kept", plugin: strings.Replace(Render(h, "1.0.0"), "if (answer.block) throw new Error(answer.reason);", "", 1), hooks: `{"hooks": []}`, want: []string{"stale-plugin"}, wantInText: "edited"},
			// Hooks files the plugin's readHooks throws on: it refuses every
			// tool call, and doctor must say so.
			{name: "hooks without a hooks array", plugin: Render(h, "1.0.0"), hooks: "{}", want: []string{"missing-hooks"}, wantInText: "no hooks array"},
			{name: "tools as a string", plugin: Render(h, "1.0.0"), hooks: `{"hooks": [{"event": "tool.execute.before", "tools": "bash", "argv": ["wrap"]}]}`, want: []string{"missing-hooks"}, wantInText: "refuses every tool call"},
			{name: "hooks file with a BOM", plugin: Render(h, "1.0.0"), hooks: "\ufeff{\"hooks\": []}", want: []string{"missing-hooks"}, wantInText: "refuses every tool call"},
			{name: "plugin without hooks", plugin: Render(h, "1.0.0"), want: []string{"missing-hooks"}, wantInText: "--to " + h.Name},
		} {
			t.Run(h.Name+"/"+tc.name, func(t *testing.T) {
				proj := filepath.Join(t.TempDir(), `a "b"; c`)
				if err := os.MkdirAll(filepath.Join(proj, filepath.Dir(h.Path)), 0o755); err != nil {
					t.Fatal(err)
				}
				if tc.plugin != "" {
					os.WriteFile(filepath.Join(proj, h.Path), []byte(tc.plugin), 0o644)
				}
				if tc.hooks != "" {
					os.WriteFile(filepath.Join(proj, h.HooksPath), []byte(tc.hooks), 0o644)
				}
				got, err := Check(h, proj, "1.0.0")
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
}
