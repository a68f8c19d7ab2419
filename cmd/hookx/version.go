package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/spf13/cobra"
)

// version overrides the module version at build time:
// go build -ldflags "-X main.version=v1.2.3".
var version = ""

func newVersionCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print hookx's version and the agent versions its table targets",
		Long: `version prints hookx's module version and the VCS revision it was built
from (both read from the binary's build information), then the agent
release each dialect of the mapping table was checked against.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			bi, _ := debug.ReadBuildInfo()
			fmt.Fprintf(s.Out, "hookx %s\n", versionString(version, bi))
			for _, d := range mappings.Default().Dialects {
				fmt.Fprintf(s.Out, "  %s: %s %s\n", d.Name, d.Agent, d.Version)
			}
			return nil
		},
	}
}

// versionString describes the build: the module version (or override, or
// "devel"), then the VCS revision, its time and whether the tree had
// uncommitted changes, when the Go toolchain recorded them.
func versionString(override string, bi *debug.BuildInfo) string {
	v := override
	if v == "" && bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	if v == "" {
		v = "devel"
	}
	if bi == nil {
		return v
	}
	var rev, at string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	var extra []string
	if len(rev) > 12 {
		rev = rev[:12]
	}
	extra = append(extra, "revision "+rev)
	if at != "" {
		extra = append(extra, at)
	}
	if dirty {
		extra = append(extra, "modified")
	}
	return v + " (" + strings.Join(extra, ", ") + ")"
}
