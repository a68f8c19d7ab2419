package confine

import (
	"errors"
	"fmt"
	"strconv"
)

// HelperName is the hidden subcommand (`hookx probe-exec`) that confines
// itself with Restrict and then execs the command; Main is its body.
const HelperName = "probe-exec"

// Args is the argument list of the helper: the policy, then the command.
func Args(p Policy, argv ...string) []string {
	var a []string
	for _, d := range p.Write {
		a = append(a, "--write", d)
	}
	for _, d := range p.Hide {
		a = append(a, "--hide", d)
	}
	for _, d := range p.Read {
		a = append(a, "--read", d)
	}
	for _, port := range p.ConnectTCP {
		a = append(a, "--connect-tcp", strconv.Itoa(int(port)))
	}
	return append(append(a, "--"), argv...)
}

// Main is the helper: it reads the policy, confines the process and runs
// the command with the environment it was given, then exits as the command
// did. It returns only on failure; the caller exits non-zero then, and the
// command never ran.
func Main(args []string) error {
	var p Policy
	var listen uint16
	handoff := -1
	for len(args) > 0 && args[0] != "--" {
		if len(args) < 2 {
			return fmt.Errorf("%s: %s needs a directory", HelperName, args[0])
		}
		switch args[0] {
		case "--write":
			p.Write = append(p.Write, args[1])
		case "--hide":
			p.Hide = append(p.Hide, args[1])
		case "--read":
			p.Read = append(p.Read, args[1])
		case "--connect-tcp":
			port, err := strconv.ParseUint(args[1], 10, 16)
			if err != nil || port == 0 {
				return fmt.Errorf("%s: --connect-tcp needs a port, not %q", HelperName, args[1])
			}
			p.ConnectTCP = append(p.ConnectTCP, uint16(port))
		case "--listen-tcp":
			port, err := strconv.ParseUint(args[1], 10, 16)
			if err != nil || port == 0 {
				return fmt.Errorf("%s: --listen-tcp needs a port, not %q", HelperName, args[1])
			}
			listen = uint16(port)
		case "--handoff-fd":
			fd, err := strconv.Atoi(args[1])
			if err != nil || fd < 3 {
				return fmt.Errorf("%s: --handoff-fd needs a descriptor above 2, not %q", HelperName, args[1])
			}
			handoff = fd
		default:
			return fmt.Errorf("%s: unknown flag %s", HelperName, args[0])
		}
		args = args[2:]
	}
	if len(args) < 2 {
		return errors.New(HelperName + ": usage: probe-exec [--write DIR] [--hide DIR] [--read DIR] -- COMMAND [ARG...]")
	}
	argv := args[1:]
	if (listen == 0) != (handoff < 0) {
		return errors.New(HelperName + ": --listen-tcp and --handoff-fd go together")
	}
	if listen != 0 {
		if err := listenInside(listen, handoff); err != nil {
			return err
		}
	}
	if err := Restrict(p); err != nil {
		return err
	}
	return run(argv)
}
