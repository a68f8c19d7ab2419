// Package confine runs a command of an untrusted project so that it can
// change nothing and send nothing outside the places it was given (rule 4 of
// the project: anything run of a project to inspect it is confined).
//
// On Linux it uses the kernel's Landlock (through go-landlock, no
// hand-written confinement): the confined process may write only inside
// Policy.Write, may read everything except Policy.Hide (the real home
// directory, the real project), may neither connect nor bind a TCP socket,
// nor signal or reach (abstract unix sockets) a process outside its domain.
// A seccomp filter refuses every new socket but a Unix one (UDP, ICMP and
// raw sockets, which Landlock does not restrict before ABI 10 or at all),
// and below Landlock ABI 9, which restricts Unix sockets by path, Unix
// ones too (a D-Bus session bus or an ssh-agent would act for the hook).
// Where the kernel allows unprivileged user namespaces, the process also
// gets an empty network namespace and its own PID namespace, so every
// process it starts dies with it. Landlock applies to the calling process
// and cannot be undone, so it is applied in a child: hookx re-executes
// itself as the hidden `hookx probe-exec`, which calls Restrict and then
// execs the command.
package confine

import "os"

// Policy says what a confined command may touch.
type Policy struct {
	// Write lists the directories the command may change (and read).
	Write []string
	// Hide lists the directories the command may not even read: the real
	// home directory, with the user's keys and tokens, and the real project.
	Hide []string
	// Read lists directories inside Hide that stay readable (the PATH
	// entries under the home directory, where tools are installed).
	Read []string
	// ConnectTCP lists the TCP ports the command may connect to (hookx test
	// --live: the fake model's). Landlock's port rule does not restrict the
	// address: give it only with an empty network namespace (Isolate), where
	// nothing but what hookx serves there listens. Empty: no TCP at all.
	ConnectTCP []uint16
}

// FakeMissingEnv, when set to a reason, makes Available report that
// confinement is missing. Tests of the refusal path set it.
const FakeMissingEnv = "HOOKX_TEST_CONFINE_MISSING"

// Available reports why confinement cannot be applied here; nil when it can.
func Available() error {
	if r := os.Getenv(FakeMissingEnv); r != "" {
		return &MissingError{Reason: r}
	}
	return available()
}

// MissingError says why no confinement is available.
type MissingError struct{ Reason string }

func (e *MissingError) Error() string { return "no confinement available: " + e.Reason }
