package main

import (
	"os"
	"testing"
)

func TestUseColor(t *testing.T) {
	tests := []struct {
		mode string
		tty  bool
		env  map[string]string
		want bool
	}{
		{"auto", true, nil, true},
		{"auto", false, nil, false},
		{"auto", true, map[string]string{"NO_COLOR": "1"}, false},
		{"auto", true, map[string]string{"TERM": "dumb"}, false},
		{"auto", false, map[string]string{"CLICOLOR_FORCE": "1"}, true},
		{"auto", false, map[string]string{"CLICOLOR_FORCE": "0"}, false},
		{"auto", false, map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, false},
		{"auto", false, map[string]string{"CLICOLOR_FORCE": "1", "TERM": "dumb"}, true},
		{"always", false, map[string]string{"NO_COLOR": "1"}, true},
		{"never", true, map[string]string{"CLICOLOR_FORCE": "1"}, false},
	}
	for _, tt := range tests {
		got, err := useColor(tt.mode, tt.tty, func(k string) string { return tt.env[k] })
		if err != nil || got != tt.want {
			t.Errorf("useColor(%q, tty=%v, %v) = %v, %v; want %v", tt.mode, tt.tty, tt.env, got, err, tt.want)
		}
	}
	if _, err := useColor("sometimes", true, func(string) string { return "" }); err == nil {
		t.Error("--color sometimes: no error")
	}
}

func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("isTerminal(/dev/null) = true")
	}
}
