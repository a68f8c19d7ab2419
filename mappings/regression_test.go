package mappings

import "testing"

// T§7: "Claude's plugin servers (mcp__plugin_<plugin>_<server>__<tool>) have
// no defined Gemini name (approximate)." MapTool marks them approximate, so
// the compatibility table and the findings claim no faithful mapping.
func TestClaudePluginMCPNameIsApproximate(t *testing.T) {
	tab := Default()
	c, g := tab.MustDialect("claude"), tab.MustDialect("gemini")
	m, err := tab.MapTool(c, g, "mcp__plugin_github_github__create_issue")
	if err != nil {
		t.Fatal(err)
	}
	if m.Mark != Approximate {
		t.Errorf("plugin MCP tool → %q marked %q, want approximate (T§7)", m.Name, m.Mark)
	}
}
