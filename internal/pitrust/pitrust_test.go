package pitrust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolve(t *testing.T) {
	root := t.TempDir()
	// A project name a hostile repository might pick: spaces, quotes, ;.
	proj := filepath.Join(root, `my "proj"; rm -rf x`, "sub")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	parent := filepath.Dir(proj)
	js := func(s string) string { b := strings.ReplaceAll(s, `\`, `\\`); return strings.ReplaceAll(b, `"`, `\"`) }
	for _, tc := range []struct {
		name, trust, settings string
		want                  Verdict
		wantErr               bool
	}{
		{name: "nothing stored asks", want: Asks},
		{name: "entry for the project", trust: `{"` + js(proj) + `": true}`, want: Trusted},
		{name: "entry refuses", trust: `{"` + js(proj) + `": false}`, settings: `{"defaultProjectTrust":"always"}`, want: Untrusted},
		{name: "nearest ancestor decides", trust: `{"` + js(parent) + `": true, "/": false}`, want: Trusted},
		{name: "null is no decision, the parent's counts", trust: `{"` + js(proj) + `": null, "` + js(parent) + `": false}`, want: Untrusted},
		{name: "trailing slash in a key", trust: `{"` + js(proj) + `/": true}`, want: Trusted},
		{name: "BOM", trust: "\uFEFF{\"" + js(proj) + "\": true}", want: Trusted},
		{name: "default always", settings: `{"defaultProjectTrust":"always"}`, want: Trusted},
		{name: "default never", settings: `{"defaultProjectTrust":"never"}`, want: Untrusted},
		{name: "unknown default is ask", settings: `{"defaultProjectTrust":"yes"}`, want: Asks},
		{name: "default of a wrong type is ask", settings: `{"defaultProjectTrust":true}`, want: Asks},
		{name: "broken settings is ask", settings: `{`, want: Asks},
		{name: "other entry only", trust: `{"/elsewhere": true}`, want: Asks},
		{name: "a value Pi refuses", trust: `{"` + js(proj) + `": "yes"}`, wantErr: true},
		{name: "an array Pi refuses", trust: `[]`, wantErr: true},
		{name: "broken trust.json", trust: `{`, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			agent := t.TempDir()
			if tc.trust != "" {
				if err := os.WriteFile(filepath.Join(agent, "trust.json"), []byte(tc.trust), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.settings != "" {
				if err := os.WriteFile(filepath.Join(agent, "settings.json"), []byte(tc.settings), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Resolve(proj, agent)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if diff := cmp.Diff(tc.want.String(), got.Verdict.String()); diff != "" {
				t.Errorf("verdict (-want +got):\n%s\nwhy: %s", diff, got.Why)
			}
			if got.Why == "" {
				t.Error("no reason given")
			}
		})
	}
}

func TestResolveSymlink(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	link := filepath.Join(root, "link")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	agent := t.TempDir()
	// Pi canonicalizes cwd with realpath before the lookup.
	realResolved, _ := filepath.EvalSymlinks(real)
	if err := os.WriteFile(filepath.Join(agent, "trust.json"), []byte(`{"`+realResolved+`": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Resolve(link, agent)
	if err != nil {
		t.Fatal(err)
	}
	if got.Verdict != Trusted {
		t.Errorf("verdict %v, want trusted (%s)", got.Verdict, got.Why)
	}
}

func TestAgentDir(t *testing.T) {
	for _, tc := range []struct{ env, want string }{
		{"", "/h/.pi/agent"},
		{"/x/agent", "/x/agent"},
		{"~/pi", "/h/pi"},
		{"~", "/h"},
	} {
		got := AgentDir(func(string) string { return tc.env }, "/h")
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("AgentDir(%q) (-want +got):\n%s", tc.env, diff)
		}
	}
}
