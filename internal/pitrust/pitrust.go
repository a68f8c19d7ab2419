// Package pitrust tells whether Pi (@earendil-works/pi-coding-agent 1.6.0)
// will load a project's own extensions (.pi/extensions/*.ts), the place
// where hookx's Pi plugin lives. Pi 1.6 loads them only in a trusted
// project and skips them without a word otherwise, so a guard migrated to
// Pi would silently never run: doctor and migrate must say so.
//
// Read from the 1.6.0 package (dist/, unminified):
//   - core/trust-manager.js:177-200 ProjectTrustStore: the decisions live in
//     <agentDir>/trust.json, an object of absolute directory -> true, false
//     or null (readTrustFile :77-100 rejects anything else: Pi then fails);
//     findNearestTrustEntry :24-39 walks from the realpath of cwd up to /,
//     the first key holding true or false decides (null is "no decision").
//   - core/trust-manager.js:8-17,150-170 hasTrustRequiringProjectResources:
//     a .pi/extensions directory is one of the resources that need trust.
//   - core/project-trust.js:18-59 resolveProjectTrusted: --approve/-a or
//     --no-approve/-na decide first (cli/args.js:229-233); then a global
//     extension's project_trust handler may decide; then trust.json; then
//     defaultProjectTrust from the global settings only
//     (core/settings-manager.js:789-792: "always", "never", anything else
//     is "ask", the default in core/settings-defaults.js:29); "ask" without
//     a UI (pi -p, json and rpc modes) is untrusted.
//   - config.js:494-516 getAgentDir: $PI_CODING_AGENT_DIR, else ~/.pi/agent.
package pitrust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Verdict is what Pi decides for a project directory.
type Verdict int

const (
	// Trusted: a trust.json entry or defaultProjectTrust "always" trusts it.
	Trusted Verdict = iota
	// Untrusted: an entry or defaultProjectTrust "never" refuses it; Pi skips
	// the project's extensions in every mode.
	Untrusted
	// Asks: no decision is stored; the interactive UI asks, and a headless
	// run (pi -p) treats the project as untrusted.
	Asks
)

func (v Verdict) String() string {
	return [...]string{"trusted", "untrusted", "asks"}[v]
}

// Result is a verdict with the file and key that decided it.
type Result struct {
	Verdict Verdict
	// Why says in one sentence what decided, naming the file.
	Why string
}

// AgentDir is Pi's agent directory for this environment (getenv is
// os.Getenv in use; home is the user's home directory).
func AgentDir(getenv func(string) string, home string) string {
	if d := getenv("PI_CODING_AGENT_DIR"); d != "" {
		if d == "~" {
			return home
		}
		if len(d) > 1 && d[:2] == "~/" {
			return filepath.Join(home, d[2:])
		}
		return d
	}
	return filepath.Join(home, ".pi", "agent")
}

// Resolve reproduces Pi 1.6.0's decision for project directory dir, for a
// run with neither --approve nor --no-approve and no global extension that
// answers project_trust. It reads only agentDir/trust.json and
// agentDir/settings.json. An error is a file Pi itself refuses to read.
func Resolve(dir, agentDir string) (Result, error) {
	trustPath := filepath.Join(agentDir, "trust.json")
	data, err := readTrust(trustPath)
	if err != nil {
		return Result{}, err
	}
	cur, err := filepath.Abs(dir)
	if err != nil {
		return Result{}, err
	}
	if real, err := filepath.EvalSymlinks(cur); err == nil {
		cur = real
	}
	for {
		if v, ok := data[filepath.Clean(cur)]; ok && v != nil {
			if *v {
				return Result{Trusted, fmt.Sprintf("%s trusts %s", trustPath, cur)}, nil
			}
			return Result{Untrusted, fmt.Sprintf("%s marks %s untrusted", trustPath, cur)}, nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			break
		}
		cur = parent
	}
	settingsPath := filepath.Join(agentDir, "settings.json")
	switch defaultTrust(settingsPath) {
	case "always":
		return Result{Trusted, fmt.Sprintf(`%s has "defaultProjectTrust": "always"`, settingsPath)}, nil
	case "never":
		return Result{Untrusted, fmt.Sprintf(`%s has "defaultProjectTrust": "never"`, settingsPath)}, nil
	}
	return Result{Asks, fmt.Sprintf("no entry for the project in %s and defaultProjectTrust is \"ask\": Pi asks in its interactive UI, and pi -p skips the project's extensions", trustPath)}, nil
}

// readTrust reads trust.json the way readTrustFile does: missing is empty,
// keys are compared after path resolution, values must be true/false/null.
func readTrust(path string) (map[string]*bool, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]*bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || raw == nil {
		return nil, fmt.Errorf("Pi refuses its trust store %s: expected a JSON object", path)
	}
	out := make(map[string]*bool, len(raw))
	for k, v := range raw {
		var p *bool
		if err := json.Unmarshal(v, &p); err != nil {
			return nil, fmt.Errorf("Pi refuses its trust store %s: value for %q must be true, false, or null", path, k)
		}
		out[filepath.Clean(k)] = p
	}
	return out, nil
}

// defaultTrust is the global defaultProjectTrust, "ask" unless the file
// holds "always" or "never".
func defaultTrust(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "ask"
	}
	var s struct {
		DefaultProjectTrust any `json:"defaultProjectTrust"`
	}
	if json.Unmarshal(bytes.TrimPrefix(b, []byte("\uFEFF")), &s) != nil {
		return "ask"
	}
	if v, ok := s.DefaultProjectTrust.(string); ok && (v == "always" || v == "never") {
		return v
	}
	return "ask"
}
