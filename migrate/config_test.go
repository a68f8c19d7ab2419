package migrate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseConfig(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name, in string
		want     *Config
		wantErr  []string // each a line of the error
	}{
		{
			name: "names",
			in:   "// the team's hooks\n{\"from\": \"claude\", \"to\": [\"codex\", \"copilot\",],}",
			want: &Config{From: "claude", To: []string{"codex", "copilot"}, Targets: map[string]TargetOptions{}},
		},
		{
			name: "all and options",
			in:   `{"from": "claude", "to": "all", "wrap": false, "plugin": "p", "targets": {"qwen": {"wrap": true, "strict": true}}}`,
			want: &Config{From: "claude", To: []string{"all"}, Plugin: "p", Defaults: TargetOptions{Wrap: &no},
				Targets: map[string]TargetOptions{"qwen": {Wrap: &yes, Strict: &yes}}},
		},
		{
			name: "unknown keys and bad values name the line",
			in:   "{\n  \"from\": \"claud\",\n  \"too\": [],\n  \"to\": [\"codex\", 3, \"codex\"],\n  \"targets\": {\"qwen\": {\"fail\": true}, \"codex\": {\"strict\": \"yes\"}}\n}",
			wantErr: []string{
				`.hookx.jsonc:2: "from": unknown dialect "claud" (known: claude, cline, codex, copilot, crush, droid, gemini, kilo, opencode, pi, qwen, terminai); did you mean claude?`,
				`.hookx.jsonc:3: unknown key "too" (the keys: from, to, plugin, targets, wrap, failClosed, strict, prune)`,
				`.hookx.jsonc:4: "to": want a dialect name (claude, cline, codex, copilot, crush, droid, gemini, kilo, opencode, pi, qwen, terminai), not a number`,
				`.hookx.jsonc:4: "to": codex is named twice`,
				`.hookx.jsonc:5: "targets": qwen: unknown option "fail" (the options: wrap, failClosed, strict, prune)`,
				`.hookx.jsonc:5: "strict": want true or false, not a string`,
			},
		},
		{
			name: "one target",
			in:   `{"from": "claude", "to": "codex"}`,
			want: &Config{From: "claude", To: []string{"codex"}, Targets: map[string]TargetOptions{}},
		},
		{name: "no control characters in messages", in: "{\"\x1b[31m\": 1}", wantErr: []string{`.hookx.jsonc: line 1, column 2: invalid literal: "?[31m"`}},
		{name: "not an object", in: "\n[]", wantErr: []string{`.hookx.jsonc:2: the config is a JSON object ({"from": ..., "to": [...]}), not a list`}},
		{name: "does not parse", in: "{\n\"from\": }", wantErr: []string{`.hookx.jsonc: line 2, column 9: invalid character '}' at start of value`}},
		{name: "twice", in: "{\"from\": \"claude\",\n\"from\": \"gemini\"}", wantErr: []string{`.hookx.jsonc:2: "from" is given twice`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseConfig(".hookx.jsonc", []byte(tt.in), nil)
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("no error, want %q", tt.wantErr)
				}
				if diff := cmp.Diff(tt.wantErr, strings.Split(err.Error(), "\n")); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// What --init writes reads back as the config it names.
func TestNewConfigReadsBack(t *testing.T) {
	got, err := ParseConfig(ConfigName, NewConfig("claude", []string{"codex", "copilot", "qwen"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{From: "claude", To: []string{"codex", "copilot", "qwen"}, Targets: map[string]TargetOptions{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
