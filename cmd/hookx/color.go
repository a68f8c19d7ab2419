package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// colorModes are the values of the global --color flag.
var colorModes = []string{"auto", "always", "never"}

// addColorFlag adds the global --color flag to root.
func addColorFlag(root *cobra.Command) {
	root.PersistentFlags().String("color", "auto", "colour the output: auto (only on a terminal), always or never")
	_ = root.RegisterFlagCompletionFunc("color", fixedValues(colorModes...))
}

// colorOn says whether c should colour what it writes to w: --color always
// or never decide; auto colours only a terminal, and honours NO_COLOR (any
// value turns colour off), CLICOLOR_FORCE (a value other than 0 turns it on)
// and TERM=dumb, in that order.
func colorOn(c *cobra.Command, w io.Writer) (bool, error) {
	mode, _ := c.Flags().GetString("color")
	return useColor(mode, isTerminal(w), os.Getenv)
}

func useColor(mode string, tty bool, getenv func(string) string) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
	default:
		return false, withCode(exitBadInput, fmt.Errorf("--color must be auto, always or never, not %q", mode))
	}
	if getenv("NO_COLOR") != "" {
		return false, nil
	}
	if v := getenv("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true, nil
	}
	if getenv("TERM") == "dumb" {
		return false, nil
	}
	return tty, nil
}

// isTerminal reports whether w is a terminal, looking through the writers
// hookx wraps stdout in (countingWriter). A character device is not enough:
// /dev/null is one.
func isTerminal(w io.Writer) bool {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
