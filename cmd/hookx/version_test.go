package main

import (
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
		{"no build info", "", nil, "devel"},
		{"devel without vcs", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{"module version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, "v0.3.0"},
		{"checkout build", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261123160000-3ffdd4d1a2b3+dirty"}, Settings: vcs},
			"v0.0.0-20261123160000-3ffdd4d1a2b3+dirty (revision 3ffdd4d1a2b3, 2026-11-23T16:00:00Z, modified)"},
		{"ldflags override", "v9.9.9", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}, Settings: vcs[:2]},
			"v9.9.9 (revision 3ffdd4d1a2b3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionString(tt.override, tt.bi); got != tt.want {
				t.Errorf("versionString = %q, want %q", got, tt.want)
			}
		})
	}
}
