package doctor

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaSHA256 pins the schema scripts/sarif-schema installs
// (@microsoft/jest-sarif 1.0.0-beta.0, lib/schemas/sarif-2.1.0-rtm.5.json).
const sarifSchemaSHA256 = "2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8"

// sarifSchema compiles the SARIF 2.1.0 schema from where scripts/sarif-schema
// installs it ($HOOKX_SARIF_SCHEMA, which .ci/run sets, or the script's
// cache). Without it the test skips, except in CI, where it fails.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path := os.Getenv("HOOKX_SARIF_SCHEMA")
	if path == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		path = filepath.Join(cache, "hookx-sarif-schema", "1.0.0-beta.0", "sarif-2.1.0-rtm.5.json")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the SARIF schema is not installed (%v): .ci/run installs it with scripts/sarif-schema", err)
		}
		t.Skipf("SARIF SCHEMA NOT INSTALLED (%v): run scripts/sarif-schema (with CI=true this is a failure)", err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != sarifSchemaSHA256 {
		t.Fatalf("%s is not the pinned SARIF schema (sha256 %x)", path, sum)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSARIFValidatesAgainstTheSchema writes the SARIF of a project with
// findings of every kind of location (a position, a whole file, a user
// file under the home directory, a directory name with a space, a quote
// and a colon) and silenced ones, and validates it against the SARIF
// 2.1.0 schema.
func TestSARIFValidatesAgainstTheSchema(t *testing.T) {
	schema := sarifSchema(t)
	root := t.TempDir()
	dir := filepath.Join(root, `my "proj": 50% ;x`)
	home := filepath.Join(root, "home")
	write(t, dir, ".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bsh","hooks":[{"type":"command","command":"true"}]}],"PreToolUser":[]}}`)
	write(t, dir, ".gemini/settings.json", "{\"hooks\":{\"BeforeTool\":[{\"matcher\":\"Bash\", // hookx-ignore HX220 we mean it\n\"hooks\":[{\"type\":\"command\",\"command\":\"true\"}]}]}}")
	write(t, home, ".claude/settings.json", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true","timeout":0}]}]}}`)
	fs, err := Check(Options{Dir: dir, Home: home, User: true, Ignore: []string{"unknown-tool"}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, fs, dir, "v0.0.0-test"); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("the SARIF does not validate: %v\n%s", err, buf.String())
	}
	// The schema is really applied: a level SARIF does not have fails.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(buf.String(), `"level": "warning"`, `"level": "fatal"`, 1)))
	if schema.Validate(bad) == nil {
		t.Fatal(`a result with "level": "fatal" validates: the schema is not applied`)
	}

	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID, Level string
				Locations     []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           *struct{ StartLine, StartColumn int }
					}
				}
				Suppressions []struct{ Kind, Justification string }
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if got, want := len(log.Runs[0].Tool.Driver.Rules), len(Rules()); got != want {
		t.Errorf("%d rules in the driver, want %d", got, want)
	}
	var got []string
	for _, r := range log.Runs[0].Results {
		s := r.RuleID + " " + r.Level
		for _, l := range r.Locations {
			s += " " + l.PhysicalLocation.ArtifactLocation.URIBaseID + ":" + l.PhysicalLocation.ArtifactLocation.URI
			if reg := l.PhysicalLocation.Region; reg != nil {
				s += ":" + strings.Repeat("L", min(reg.StartLine, 1))
			}
		}
		for _, sp := range r.Suppressions {
			s += " suppressed " + sp.Kind + " (" + sp.Justification + ")"
		}
		got = append(got, s)
	}
	want := []string{
		"HX221 error %SRCROOT%:.claude/settings.json:L suppressed external (--ignore HX221)",
		"HX205 error %SRCROOT%:.claude/settings.json:L",
		"HX414 warning %SRCROOT%:.gemini/settings.json",
		"HX220 error %SRCROOT%:.gemini/settings.json:L suppressed inSource (hookx-ignore at " + filepath.Join(dir, ".gemini/settings.json") + ":1: we mean it)",
		"HX403 warning HOME:.claude/settings.json:L",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s\n%s", diff, buf.String())
	}
}

func write(t *testing.T, dir, rel, data string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
