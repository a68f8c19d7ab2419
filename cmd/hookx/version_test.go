package main

import (
	"bytes"
	"encoding/json"
	"runtime"

	"github.com/google/go-cmp/cmp"
	"github.com/hookx-dev/hookx/mappings"
	"os"
	"regexp"
	"runtime/debug"
	"testing"
)

func TestVersionString(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "3ffdd4d1a2b3c4d5e6f708192a3b4c5d6e7f8091"},
		{Key: "vcs.time", Value: "2026-11-23T16:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	tests := []struct {
		name     string
		override string
		bi       *debug.BuildInfo
		want     string
	}{
		{"no build info", "", nil, releaseVersion + "-dev"},
		{"devel without vcs", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, releaseVersion + "-dev"},
		{"module version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, "0.3.0"},
		{"checkout build", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261123160000-3ffdd4d1a2b3+dirty"}, Settings: vcs},
			"0.0.0-20261123160000-3ffdd4d1a2b3+dirty (revision 3ffdd4d1a2b3, 2026-11-23T16:00:00Z, modified)"},
		{"ldflags override", "v9.9.9", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}, Settings: vcs[:2]},
			"9.9.9 (revision 3ffdd4d1a2b3)"},
		{"go install of a tag prints what a stamped build prints", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "0.1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionString(tt.override, tt.bi); got != tt.want {
				t.Errorf("versionString = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStampedVersionString(t *testing.T) {
	defer func(c, b string) { commit, built = c, b }(commit, built)
	commit, built = "abc1234", "2026-11-28T05:00:00Z"
	vcs := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "ffffffffffffffff"}}}
	if got, want := versionString("0.1.0", vcs), "0.1.0 (commit abc1234, built 2026-11-28T05:00:00Z)"; got != want {
		t.Errorf("versionString = %q, want %q", got, want)
	}
}

// TestReleaseVersionIsChangelogs holds releaseVersion equal to the first
// released version of CHANGELOG.md.
func TestReleaseVersionIsChangelogs(t *testing.T) {
	b, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^## (\d+\.\d+\.\d+) - \d{4}-\d{2}-\d{2}$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("CHANGELOG.md has no released version heading (## X.Y.Z - YYYY-MM-DD)")
	}
	if string(m[1]) != releaseVersion {
		t.Errorf("CHANGELOG.md's top version is %s, releaseVersion is %s", m[1], releaseVersion)
	}
}

func TestVersionJSON(t *testing.T) {
	defer func(v, c, b string) { version, commit, built = v, c, b }(version, commit, built)
	version, commit, built = "0.1.0", "abc1234", "2026-11-28T05:00:00Z"
	var out bytes.Buffer
	cmd := newVersionCmd(streams{Out: &out, Err: &out})
	cmd.SetArgs([]string{"--json"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	var got versionInfo
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v in %s", err, out.Bytes())
	}
	want := versionInfo{Version: "0.1.0", Commit: "abc1234", Built: "2026-11-28T05:00:00Z",
		Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	for _, d := range mappings.Default().Dialects {
		want.Agents = append(want.Agents, versionAgent{d.Name, d.Agent, d.Version})
	}
	if len(want.Agents) == 0 {
		t.Fatal("the table has no dialects")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("version --json (-want +got):\n%s", d)
	}
}
