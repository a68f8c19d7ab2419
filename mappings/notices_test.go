package mappings

import (
	"slices"
	"testing"
)

// TestEnvFileLost: the exports of a session env file are lost exactly where
// the hook's agent gives one on the hook's event and the host gives none of
// that name on the event the hook runs on; a host that gave the same file
// there (none does today) would lose nothing. Over every pair of the table.
func TestEnvFileLost(t *testing.T) {
	tbl := Default()
	lost := 0
	for _, hook := range tbl.Dialects {
		for _, host := range tbl.Dialects {
			if hook == host {
				continue
			}
			for _, e := range hook.Events {
				m, err := tbl.MapEvent(hook, host, e.Name)
				if err != nil || m.To == nil {
					continue
				}
				gives := hook.Command.EnvFile != "" && slices.Contains(hook.Command.EnvFileEvents, e.Name)
				hostGives := host.Command.EnvFile == hook.Command.EnvFile && slices.Contains(host.Command.EnvFileEvents, m.To.Name)
				if got, want := EnvFileLost(hook, e.Name, host, m.To.Name), gives && !hostGives; got != want {
					t.Errorf("%s %s on %s %s: EnvFileLost %v, want %v", hook.Name, e.Name, host.Name, m.To.Name, got, want)
				}
				if !gives {
					continue
				}
				lost++
				same := &Dialect{Name: host.Name, Command: host.Command}
				same.Command.EnvFile, same.Command.EnvFileEvents = hook.Command.EnvFile, []string{m.To.Name}
				if EnvFileLost(hook, e.Name, same, m.To.Name) {
					t.Errorf("%s %s on a %s that gives %s on %s: reported lost", hook.Name, e.Name, host.Name, hook.Command.EnvFile, m.To.Name)
				}
			}
		}
	}
	if lost == 0 {
		t.Fatal("no dialect gives a session env file: the test checks nothing")
	}
}
