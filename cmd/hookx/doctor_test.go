package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestDoctorFindsNothingWrongInTheDemoProject runs the README's first
// doctor example (the demo project, with --probe): its guards are correct,
// so there is no error or warning, and the probes say what each one does.
func TestDoctorFindsNothingWrongInTheDemoProject(t *testing.T) {
	var out, errb bytes.Buffer
	err := doctorRun(&doctorOptions{s: streams{Out: &out, Err: &errb}, dir: "../../demo/claude-project", probe: true, home: t.TempDir()})
	if err != nil {
		t.Fatalf("doctorRun: %v\n%s", err, out.String())
	}
	for _, bad := range []string{": error HX", ": warning HX"} {
		if strings.Contains(out.String(), bad) {
			t.Errorf("doctor reported a problem in the demo project:\n%s", out.String())
		}
	}
	if !strings.Contains(out.String(), "probe destructive shell command (Bash): blocked") {
		t.Errorf("the demo's Bash guard was not seen blocking rm -rf /:\n%s", out.String())
	}
}
