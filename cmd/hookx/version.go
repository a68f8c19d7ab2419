package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/spf13/cobra"
)

// releaseVersion is the top version of CHANGELOG.md (TestReleaseVersionIsChangelogs
// holds them equal); a build without a stamped or module version says
// releaseVersion+"-dev".
const releaseVersion = "0.1.0"

// version, commit and built are stamped by the release build, whatever the
// VCS settings (-buildvcs=false leaves no revision in the build info):
// go build -ldflags "-X main.version=0.1.0 -X main.commit=abc1234 -X main.built=2026-11-28T05:00:00Z".
var version, commit, built = "", "", ""

// stampVersion is the version hookx stamps on what it generates (Pi's
// extension, Cline's dispatchers), which doctor compares with its own:
// the version `hookx version --json` reports (the stamped release
// version, else the module version, else releaseVersion+"-dev").
func stampVersion() string {
	if version != "" {
		return version
	}
	bi, _ := debug.ReadBuildInfo()
	return strings.SplitN(versionString("", bi), " ", 2)[0]
}

// versionInfo is `hookx version --json`.
type versionInfo struct {
	Version  string         `json:"version"`
	Commit   string         `json:"commit,omitempty"`
	Built    string         `json:"built,omitempty"`
	Go       string         `json:"go"`
	Platform string         `json:"platform"`
	Agents   []versionAgent `json:"agents"`
}

type versionAgent struct {
	Dialect string `json:"dialect"`
	Agent   string `json:"agent"`
	Version string `json:"version"`
}

func newVersionCmd(s streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print hookx's version and the agent versions its table targets",
		Long: `version prints hookx's module version and the VCS revision it was built
from (both read from the binary's build information), then the agent
release each dialect of the mapping table was checked against.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			bi, _ := debug.ReadBuildInfo()
			if asJSON {
				info := versionInfo{Version: stampVersion(), Commit: commit, Built: built,
					Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, Agents: []versionAgent{}}
				for _, d := range mappings.Default().Dialects {
					info.Agents = append(info.Agents, versionAgent{d.Name, d.Agent, d.Version})
				}
				enc := json.NewEncoder(s.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(info)
			}
			fmt.Fprintf(s.Out, "hookx %s\n", versionString(version, bi))
			for _, d := range mappings.Default().Dialects {
				fmt.Fprintf(s.Out, "  %s: %s %s\n", d.Name, d.Agent, d.Version)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print version, commit, Go version, platform and agent versions as JSON")
	return cmd
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
		v = releaseVersion + "-dev"
	}
	// One form everywhere: a stamped release prints 0.1.0, and `go install
	// …@v0.1.0` records the module version v0.1.0; drop the tag's v.
	if len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' {
		v = v[1:]
	}
	if commit != "" {
		extra := []string{"commit " + commit}
		if built != "" {
			extra = append(extra, "built "+built)
		}
		return v + " (" + strings.Join(extra, ", ") + ")"
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
