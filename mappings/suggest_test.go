package mappings

import "testing"

func TestSuggest(t *testing.T) {
	claude := Default().MustDialect("claude")
	gemini := Default().MustDialect("gemini")
	tests := []struct {
		word       string
		candidates []string
		want       string
	}{
		{"PreToolUs", claude.EventNames(), "PreToolUse"},
		{"pretooluse", claude.EventNames(), "PreToolUse"},
		{"SubAgentStop", claude.EventNames(), "SubagentStop"},
		{"BeforeTools", gemini.EventNames(), "BeforeTool"},
		{"PreToolUse", gemini.EventNames(), ""}, // another agent's name is not a typo
		{"run_shell_comand", gemini.ToolNames(), "run_shell_command"},
		{"bash", claude.ToolNames(), "Bash"},
		{"claud", []string{"claude", "gemini"}, "claude"},
		{"x", []string{"claude", "gemini"}, ""},
		{"PreToolUse", claude.EventNames(), ""}, // a known name needs no hint
	}
	for _, tt := range tests {
		if got := Suggest(tt.word, tt.candidates); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestEventHint(t *testing.T) {
	tb := Default()
	claude, gemini := tb.MustDialect("claude"), tb.MustDialect("gemini")
	tests := []struct {
		d    *Dialect
		name string
		want string
	}{
		{gemini, "PreToolUse", "; PreToolUse is a Claude Code event, Gemini CLI's is BeforeTool"},
		{claude, "BeforeModel", "; BeforeModel is a Gemini CLI event, which Claude Code does not have"},
		{claude, "PreToolUs", "; did you mean PreToolUse?"},
		{claude, "Nothing", ""},
	}
	for _, tt := range tests {
		if got := tb.EventHint(tt.d, tt.name); got != tt.want {
			t.Errorf("EventHint(%s, %q) = %q, want %q", tt.d.Name, tt.name, got, tt.want)
		}
	}
}
