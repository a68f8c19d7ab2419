package translate

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hookx-dev/hookx/mappings"
)

// DetectHost reads only the dialects' clues: on a lazy table (wrap's) it
// builds no dialect, and it answers as on the whole table, for every event
// of every dialect with every dialect's telling fields and variables.
func TestDetectHostOnALazyTable(t *testing.T) {
	full := mappings.Default()
	var fields []string
	envs := []map[string]string{{}}
	for _, c := range full.Clues() {
		fields = append(fields, c.Fields...)
		fields = append(fields, c.Signature...)
		for _, v := range c.Env {
			envs = append(envs, map[string]string{v: "/p"})
		}
		if c.SessionEnv != "" {
			envs = append(envs, map[string]string{c.SessionEnv: "s"}, map[string]string{c.SessionEnv: "other"})
		}
	}
	var events []string
	for _, d := range full.Dialects {
		events = append(events, d.EventNames()...)
	}
	events = append(events, "", "NoSuchEvent")
	for _, ev := range events {
		for _, field := range append([]string{""}, fields...) {
			p := map[string]any{"session_id": "s", "cwd": "/p"}
			if ev != "" {
				p["hook_event_name"] = ev
			}
			if field != "" {
				p[field] = "x"
			}
			payload, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, env := range envs {
				getenv := func(k string) string { return env[k] }
				want, wantErr := DetectHost(full, payload, getenv)
				lazy := mappings.Lazy()
				got, gotErr := DetectHost(lazy, payload, getenv)
				if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Errorf("%s with %v: lazy table %q, %v; whole table %q, %v", payload, env, got, gotErr, want, wantErr)
				}
				if n := len(lazy.Dialects); n != 0 {
					t.Fatalf("%s: DetectHost built %d dialects of a lazy table", payload, n)
				}
			}
		}
	}
}
