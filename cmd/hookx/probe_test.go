package main

import (
	"encoding/json"
	"os"
	"slices"
)

// The probe program of the command property (command_property_test.go,
// unix only) is also a program of the testscripts (script_test.go), which
// build on every platform, so it lives here, untagged.

// probeRecord is what the probe saw.
type probeRecord struct {
	Args []string `json:"args"`
	Env  []string `json:"env"`
	Dir  string   `json:"dir"`
}

// probe appends its argv, environment and working directory, as one JSON
// line, to $HOOKX_PROBE_OUT.
func probe() {
	env := os.Environ()
	slices.Sort(env)
	dir, _ := os.Getwd()
	b, _ := json.Marshal(probeRecord{Args: os.Args[1:], Env: env, Dir: dir})
	f, err := os.OpenFile(os.Getenv("HOOKX_PROBE_OUT"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	must(err)
	f.Write(append(b, '\n'))
	must(f.Close())
}
