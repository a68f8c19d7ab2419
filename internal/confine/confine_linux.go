//go:build linux

package confine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// minABI is the first Landlock ABI with network rules (TCP bind and
// connect): below it a hook could still send what it reads.
const minABI = 4

func available() error {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return &MissingError{Reason: "the kernel has no Landlock, or it is disabled (" + err.Error() + "; see /sys/kernel/security/lsm)"}
	}
	if v < minABI {
		return &MissingError{Reason: fmt.Sprintf("the kernel's Landlock ABI is %d; network rules need %d (Linux 6.7)", v, minABI)}
	}
	return nil
}

// config is the newest Landlock go-landlock knows, downgraded to what the
// kernel offers; available has already checked that the kernel has TCP
// rules. Newer kernels refuse more: pathname unix sockets (ABI 9), UDP
// (ABI 10).
var config = landlock.V11.BestEffort()

// Restrict confines the calling process and its future children, for good.
func Restrict(p Policy) error {
	if err := available(); err != nil {
		return err
	}
	var rules []landlock.Rule
	hide := cleanAll(p.Hide)
	readable, err := readableExcept("/", hide)
	if err != nil {
		return err
	}
	rules = append(rules, readable...)
	for _, d := range cleanAll(p.Read) {
		// A tool directory inside a hidden one, never the hidden one itself
		// (PATH=$HOME:... would open the whole home).
		if under(d, hide) && !slices.Contains(hide, d) {
			rules = append(rules, pathRule(d, false).IgnoreIfMissing())
		}
	}
	for _, d := range cleanAll(p.Write) {
		rules = append(rules, landlock.RWDirs(d).WithRefer().WithResolveUnix())
	}
	// A shell writes its errors to /dev/null and reads /dev/tty.
	rules = append(rules, landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full").IgnoreIfMissing())
	// No BindTCP rule: no TCP port can be bound. ConnectTCP only to the
	// ports the policy names (none outside hookx test --live).
	for _, port := range p.ConnectTCP {
		rules = append(rules, landlock.ConnectTCP(port))
	}
	if err := config.Restrict(rules...); err != nil {
		return fmt.Errorf("confine: landlock: %w", err)
	}
	v, err := llsys.LandlockGetABIVersion()
	if err := noSockets(err != nil || v < unixABI, len(p.ConnectTCP) > 0); err != nil {
		return fmt.Errorf("confine: seccomp: %w", err)
	}
	if err := nativeOnly(); err != nil {
		return fmt.Errorf("confine: seccomp: %w", err)
	}
	return nil
}

// readableExcept lists read rules for everything under dir except the
// directories in hide, descending only along the paths that lead to them.
func readableExcept(dir string, hide []string) ([]landlock.Rule, error) {
	if slices.Contains(hide, dir) {
		return nil, nil
	}
	if !leadsTo(dir, hide) {
		return []landlock.Rule{pathRule(dir, true)}, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("confine: %w", err)
	}
	var rules []landlock.Rule
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			r, err := readableExcept(p, hide)
			if err != nil {
				return nil, err
			}
			rules = append(rules, r...)
			continue
		}
		if slices.Contains(hide, p) || leadsTo(p, hide) {
			continue // a symlink on the way to a hidden directory
		}
		rules = append(rules, pathRule(p, false).IgnoreIfMissing())
	}
	return rules, nil
}

// pathRule is a read (and execute) rule for p, a directory or a file.
func pathRule(p string, ignoreMissing bool) landlock.FSRule {
	var r landlock.FSRule
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		r = landlock.ROFiles(p)
	} else {
		r = landlock.RODirs(p)
	}
	if ignoreMissing {
		r = r.IgnoreIfMissing()
	}
	return r
}

// leadsTo reports whether a hidden directory lies strictly below dir.
func leadsTo(dir string, hide []string) bool {
	for _, h := range hide {
		if h != dir && (dir == "/" || strings.HasPrefix(h, dir+"/")) {
			return true
		}
	}
	return false
}

func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// cleanAll makes the paths absolute, resolved through symlinks (Landlock
// rules apply to the file, not the name), and drops the empty ones.
func cleanAll(ps []string) []string {
	var out []string
	for _, p := range ps {
		if p == "" {
			continue
		}
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		out = append(out, filepath.Clean(p))
	}
	return out
}

// Isolate gives cmd an empty network namespace and its own PID namespace
// (in a user namespace mapping the caller's ids to themselves) when the
// kernel allows it: no interface but a down loopback, and when the first
// process exits the kernel kills every process it left behind. It reports
// whether it could; a false leaves cmd as it was.
func Isolate(cmd *exec.Cmd) bool {
	if !userNamespaces() {
		return false
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	a.GidMappingsEnableSetgroups = false
	return true
}

// userNamespaces tries once whether this process may create a user, network
// and PID namespace (AppArmor or a sysctl may forbid it).
func userNamespaces() bool {
	nsOnce.Do(func() {
		c := exec.Command("true")
		c.SysProcAttr = &syscall.SysProcAttr{
			Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET,
			UidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}},
			GidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}},
		}
		err := c.Run()
		nsOK = err == nil
	})
	return nsOK
}

var (
	nsOnce sync.Once
	nsOK   bool
)

// unixABI is the first Landlock ABI that restricts connecting to (and
// sending to) a Unix socket by path: WithResolveUnix on the Write
// directories then leaves only the sockets inside them.
const unixABI = 9

// noSockets closes what Landlock leaves open. Landlock restricts TCP only
// (UDP from ABI 10, never ICMP or raw sockets), and the empty network
// namespace exists only where the kernel allows a user namespace (not for
// unprivileged users under Ubuntu's AppArmor default): a seccomp filter
// refuses (EPERM) every new socket but a Unix one, and io_uring, which
// would open and connect sockets past the filter. Below unixABI, Landlock
// cannot restrict Unix sockets by path either, and a confined hook could
// ask any service of the user's that listens on one (a D-Bus session bus,
// whose systemd runs any command outside the probe; an ssh-agent;
// docker.sock) to act for it: there the filter refuses new Unix sockets
// too, and datagram socketpairs (sendto can address any path from one). A
// stream socketpair, which child processes' pipes use (libuv), stays
// allowed.
//
// With tcp (the policy allows connecting to some TCP ports), IPv4 and IPv6
// stream sockets are allowed too, and only those: Landlock decides which
// ports they may connect to, and none they may bind.
func noSockets(unixToo, tcp bool) error {
	domain := func(op seccomp.Operation, d uint64) seccomp.Condition {
		return seccomp.Condition{Argument: 0, Operation: op, Value: d}
	}
	unix := func(op seccomp.Operation) seccomp.Condition { return domain(op, syscall.AF_UNIX) }
	rules := []seccomp.NameWithConditions{{Name: "socket", Conditions: seccomp.ArgumentConditions{unix(seccomp.NotEqual)}}}
	if tcp {
		// The type's low bits are SOCK_STREAM (1) exactly when none of 0xe
		// is set (DGRAM 2, RAW 3, SEQPACKET 5, PACKET 10); the flags
		// (NONBLOCK, CLOEXEC) are higher bits.
		notStream := seccomp.Condition{Argument: 1, Operation: seccomp.BitsSet, Value: 0xe}
		rules = []seccomp.NameWithConditions{
			{Name: "socket", Conditions: seccomp.ArgumentConditions{unix(seccomp.NotEqual), domain(seccomp.NotEqual, syscall.AF_INET), domain(seccomp.NotEqual, syscall.AF_INET6)}},
			{Name: "socket", Conditions: seccomp.ArgumentConditions{domain(seccomp.Equal, syscall.AF_INET), notStream}},
			{Name: "socket", Conditions: seccomp.ArgumentConditions{domain(seccomp.Equal, syscall.AF_INET6), notStream}},
		}
	}
	if unixToo {
		rules = append(rules,
			seccomp.NameWithConditions{Name: "socket", Conditions: seccomp.ArgumentConditions{unix(seccomp.Equal)}},
			seccomp.NameWithConditions{Name: "socketpair", Conditions: seccomp.ArgumentConditions{unix(seccomp.Equal), {Argument: 1, Operation: seccomp.BitsSet, Value: syscall.SOCK_DGRAM}}})
	}
	return seccomp.LoadFilter(seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{{
				Action:             seccomp.ActionErrno,
				Names:              []string{"io_uring_setup"},
				NamesWithCondtions: rules,
			}},
		},
	})
}

// nativeOnly refuses (EPERM) every system call made through another ABI
// than the process's own: go-seccomp-bpf's filter lets those through
// untested, and on x86-64 a program (32-bit, or one that executes int
// 0x80) would reach socket(2) and connect(2) by their i386 numbers past
// noSockets.
func nativeOnly() error {
	native, err := arch.GetInfo("")
	if err != nil {
		return err
	}
	raw, err := bpf.Assemble([]bpf.Instruction{
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(native.ID), SkipTrue: 1},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW},
	})
	if err != nil {
		return err
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog))); e != 0 {
		return e
	}
	return nil
}
