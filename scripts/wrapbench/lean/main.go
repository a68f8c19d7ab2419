// Command lean is a measurement prototype for issue 14, not a product: a
// wrap-only hookx, holding what a hook call needs (internal/wrapcli: wrap,
// translate, mappings, transcript, pflag) and none of migrate, doctor,
// cobra, go-diff or mvdan.cc/sh, so that scripts/bench-wrap
// (EXTRA=lean=scripts/wrapbench/lean) can tell what the rest of the binary
// costs a hook call. A hook call runs as in hookx, through the same
// wrapcli; what hookx answers with cobra (--help, a flag error) is a plain
// usage error here.
package main

import (
	"fmt"
	"os"

	"github.com/hookx-dev/hookx/internal/wrapcli"
	"github.com/spf13/pflag"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == "wrap-supervise" {
		var s wrapcli.Supervise
		fs := pflag.NewFlagSet("wrap-supervise", pflag.ContinueOnError)
		s.AddFlags(fs)
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		if err := s.Check(); err != nil {
			fmt.Fprintln(os.Stderr, "lean:", err)
			return 2
		}
		if err := s.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "lean:", err)
			return 1
		}
		return 0
	}
	if len(args) == 0 || args[0] != "wrap" {
		fmt.Fprintln(os.Stderr, "usage: lean wrap --from DIALECT [flags] -- COMMAND [ARG...]")
		return 2
	}
	opts, err := wrapcli.Parse(args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lean:", err)
		return 2
	}
	opts.Exits = true
	code, err := opts.Execute()
	if err != nil {
		fmt.Fprintln(os.Stderr, "lean:", err)
	}
	return code
}
