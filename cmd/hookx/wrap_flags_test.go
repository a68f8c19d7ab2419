package main

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookx-dev/hookx/internal/wrapcli"
	"github.com/hookx-dev/hookx/migrate"
	"github.com/spf13/pflag"
)

// TestMigrateKnowsWrapsValueFlags: migrate reads hookx wrap commands back
// (to unwrap them instead of wrapping twice); every wrap flag that takes a
// value must be known to it, or such an entry is not recognised.
func TestMigrateKnowsWrapsValueFlags(t *testing.T) {
	cmd := newWrapCmd(streams{}, nil)
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() != "bool" && !migrate.WrapValueFlags["--"+f.Name] {
			t.Errorf("wrap flag --%s takes a value, and migrate.WrapValueFlags does not list it", f.Name)
		}
	})
}

// A hook call's arguments are parsed without cobra (parseWrapDirect); they
// must come out as cobra parses them, and whatever cobra alone answers
// (help, the root's flags, flag errors) must be left to it.
func TestWrapDirectParsesAsCobra(t *testing.T) {
	t.Setenv("HOOKX_TRACE", "")
	t.Setenv("HOOKX_VERBOSE", "")
	parsed := func(o *wrapcli.Options) []any {
		return []any{o.From, o.Host, o.Event, o.HostEvent, o.Timeout, o.FailClosed, o.Ask, o.Trace, o.Verbose, o.Match, o.Env, o.Command}
	}
	for _, args := range [][]string{
		{"wrap", "--from", "claude", "--", "cat >/dev/null"},
		{"wrap", "--from=gemini", "--host", "claude", "--", "python3", "hook.py", "--from", "x"},
		{"wrap", "--from", "claude", "--host", "gemini", "--event", "PostToolUse", "--host-event", "AfterTool", "--timeout", "30s",
			"--fail-closed", "--ask", "ask", "--match", "Bash|Edit", "--env", "A=1", "--env", "B=2", "--trace", "/tmp/t", "-v", "--", "sh", "-c", "x"},
		{"wrap", "--from", "claude", "hook.sh", "--host", "gemini"}, // everything after the command is the hook's
		{"wrap", "--from", "claude", "--verbose=false", "--", "--help"},
	} {
		direct, ok := parseWrapDirect(args, streams{})
		if !ok {
			t.Errorf("%q: declined", args)
			continue
		}
		var viaCobra *wrapcli.Options
		root := newRootCmd(streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, args)
		root.RemoveCommand(root.Commands()...)
		root.AddCommand(newWrapCmd(streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, func(o *wrapcli.Options) error { viaCobra = o; return nil }))
		root.SetArgs(args)
		if err := root.Execute(); err != nil || viaCobra == nil {
			t.Errorf("%q: cobra: %v", args, err)
			continue
		}
		if diff := cmp.Diff(parsed(viaCobra), parsed(direct)); diff != "" {
			t.Errorf("%q (-cobra +direct):\n%s", args, diff)
		}
	}
	for _, args := range [][]string{
		{"wrap", "--help"}, {"wrap", "-h"}, {"wrap", "--from", "claude", "--help", "--", "x"},
		{"wrap", "--color", "never", "--from", "claude", "--", "x"},
		{"wrap", "--from"}, {"wrap", "--nosuch", "--", "x"}, {"wrap", "--timeout", "soon", "--", "x"},
		{"wrap", "--fail-closed=maybe"}, {"wrapx", "--from", "claude"}, {"migrate"}, {},
	} {
		if _, ok := parseWrapDirect(args, streams{}); ok {
			t.Errorf("%q: parsed without cobra, which must answer it", args)
		}
	}
}
