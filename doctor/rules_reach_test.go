package doctor

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestEveryRuleIsReachable runs doctor on the fixtures in testdata/rules,
// each a txtar archive of a project (proj/) and a home directory (home/;
// "$PROJ" in its files is the project's absolute path), whose comment says
// which rules it must produce ("want HX101 ..."), the environment the
// agents start in ("env K=V"; PATH is /usr/bin:/bin), the files to make
// executable ("exec proj/x.sh"), and whether to probe ("probe", with
// "probelimit 300ms" to shorten the probe's own limit, "tmpdir DIR" for
// its TMPDIR). Every rule of the
// registry must be wanted by some fixture: a rule no fixture produces is a
// rule nothing proves.
func TestEveryRuleIsReachable(t *testing.T) {
	paths, err := filepath.Glob("testdata/rules/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	wanted := map[string]string{}
	for _, path := range paths {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		var want []string
		env := map[string]string{"PATH": "/usr/bin:/bin"}
		var execs []string
		probe := false
		tmpdir := ""
		limit := ProbeLimit
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) == 0:
			case f[0] == "want":
				want = append(want, f[1:]...)
			case f[0] == "env" && len(f) == 2:
				k, v, _ := strings.Cut(f[1], "=")
				env[k] = v
			case f[0] == "exec":
				execs = append(execs, f[1:]...)
			case f[0] == "probe":
				probe = true
			case f[0] == "tmpdir" && len(f) == 2:
				tmpdir = f[1]
			case f[0] == "probelimit" && len(f) == 2:
				if limit, err = time.ParseDuration(f[1]); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, id := range want {
			if _, ok := LookupRule(id); !ok {
				t.Errorf("%s wants %s, which is no rule", name, id)
			}
			wanted[id] = name
		}
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			proj, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
			for _, d := range []string{proj, home} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range ar.Files {
				data := strings.ReplaceAll(string(f.Data), "$PROJ", proj)
				write(t, root, f.Name, data)
			}
			for _, x := range execs {
				if err := os.Chmod(filepath.Join(root, x), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if tmpdir != "" {
				t.Setenv("TMPDIR", tmpdir)
			}
			defer func(old time.Duration) { ProbeLimit = old }(ProbeLimit)
			ProbeLimit = limit
			fs, err := Check(Options{Dir: proj, Home: home, Probe: probe, ProbeUnconfined: probe,
				Getenv: func(k string) string { return env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range fs {
				got = append(got, f.RuleID)
			}
			for _, id := range want {
				if !slices.Contains(got, id) {
					var b strings.Builder
					for _, f := range fs {
						b.WriteString(f.String() + "\n")
					}
					t.Errorf("no %s finding; got:\n%s", id, b.String())
				}
			}
		})
	}
	for _, r := range Rules() {
		if wanted[r.ID] == "" {
			t.Errorf("%s %s: no fixture in testdata/rules produces it", r.ID, r.Name)
		}
	}
}
