package mappings

import "testing"

// TestRowsSeenLive: a row's "seen live" says where it was seen. A dialect
// whose live rows come from the conformance suite in CI (Verification.InCI,
// Pi) is "live" there, not "offline"; one run outside CI is "offline"; MCP,
// which no run of a verified dialect shows, is "unverified" either way.
func TestRowsSeenLive(t *testing.T) {
	tbl := Default()
	claude, pi := tbl.MustDialect("claude"), tbl.MustDialect("pi")
	if pi.Verification == nil || !pi.Verification.InCI {
		t.Fatal("pi's verification no longer says inCI: pick another dialect run in CI in part")
	}
	seen := func(tbl *Table, from, to *Dialect, kind, name string) string {
		for _, r := range tbl.Rows(from, to) {
			if r.Kind == kind && r.From == name {
				return r.Verified
			}
		}
		t.Fatalf("no %s row %s from %s to %s", kind, name, from.Name, to.Name)
		return ""
	}
	if got := seen(tbl, pi, claude, "event", "tool_call"); got != "live" {
		t.Errorf("pi tool_call → claude: %q, want live (the suite runs it in CI)", got)
	}
	mcp, _ := pi.MCPName("server", "tool")
	if got := seen(tbl, pi, claude, "tool", mcp); got != "unverified" {
		t.Errorf("pi MCP → claude: %q, want unverified (never run on Pi)", got)
	}
	// An MCP naming nobody ran is a guess: Cline's and Codex's are read
	// from source only (on 5a008d0 their rows said live, as every row of
	// a dialect without a verification did); Claude Code's and Gemini
	// CLI's were seen in runs with an MCP server.
	for _, tc := range []struct{ from, to, want string }{
		{"cline", "claude", "unverified"},
		{"claude", "cline", "unverified"},
		{"codex", "gemini", "unverified"},
		{"claude", "gemini", "live"},
		{"gemini", "copilot", "live"},
	} {
		from, to := tbl.MustDialect(tc.from), tbl.MustDialect(tc.to)
		mcp, _ := from.MCPName("server", "tool")
		if got := seen(tbl, from, to, "tool", mcp); got != tc.want {
			t.Errorf("%s MCP → %s: %q, want %s", tc.from, tc.to, got, tc.want)
		}
	}
	// OpenCode and Kilo Code: what pi/…'s hookx-to-opencode and
	// hookx-to-kilo runs prove (conformance/scenarios_plugin_test.go
	// openCodeKiloScenarios: a post-tool context hook, a file guard on
	// write and edit) is live, and so is the prompt (TestOpenCodeLive, in
	// CI); glob, never run there, is not.
	for _, name := range []string{"opencode", "kilo"} {
		d := tbl.MustDialect(name)
		for _, c := range []struct{ kind, row, want string }{
			{"event", "tool.execute.after", "live"},
			{"tool", "edit", "live"},
			{"tool", "write", "live"},
			{"event", "chat.message", "live"},
			{"tool", "glob", "unverified"},
		} {
			if got := seen(tbl, d, claude, c.kind, c.row); got != c.want {
				t.Errorf("%s %s → claude: %q, want %s", name, c.row, got, c.want)
			}
		}
	}
	// The same table with Pi's runs outside CI: a fresh load, so the
	// shared one is not changed.
	fresh, err := Load(dataFS, "data")
	if err != nil {
		t.Fatal(err)
	}
	outside := fresh.MustDialect("pi")
	outside.Verification.InCI = false
	if got := seen(fresh, outside, fresh.MustDialect("claude"), "event", "tool_call"); got != "offline" {
		t.Errorf("a dialect run only outside CI: %q, want offline", got)
	}
}
