//go:build linux

package confine

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"sync"

	"golang.org/x/sys/unix"
)

// IsolationAvailable reports why a command cannot be given an empty network
// namespace of its own here (hookx test --live needs one: Landlock's port
// rule does not restrict the address); nil when it can.
func IsolationAvailable() error {
	if err := Available(); err != nil {
		return err
	}
	if !userNamespaces() {
		return &MissingError{Reason: "the kernel does not let hookx create a user and network namespace (kernel.unprivileged_userns_clone, user.max_user_namespaces, or AppArmor's restriction of unprivileged user namespaces)"}
	}
	return nil
}

// Listener is a TCP listener on 127.0.0.1:Port inside the empty network
// namespace of a confined command (Prepare): the helper brings the
// namespace's loopback up, listens there before it confines itself, and
// hands the listening socket back over a socketpair. Accept waits for it.
// Only processes in that namespace can connect to it; the confined command
// can connect to nothing else (ConnectTCP names only Port, and nothing else
// listens in its namespace).
type Listener struct {
	Port uint16

	parent *net.UnixConn
	child  *os.File

	once   sync.Once
	mu     sync.Mutex
	ln     net.Listener
	err    error
	closed bool
}

// NewListener makes the socketpair for a listener on port.
func NewListener(port uint16) (*Listener, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("confine: socketpair: %w", err)
	}
	pf := os.NewFile(uintptr(fds[0]), "handoff")
	c, err := net.FileConn(pf)
	pf.Close()
	if err != nil {
		unix.Close(fds[1])
		return nil, fmt.Errorf("confine: %w", err)
	}
	return &Listener{Port: port, parent: c.(*net.UnixConn), child: os.NewFile(uintptr(fds[1]), "handoff")}, nil
}

// Prepare makes cmd, a run of the helper (its Args[1] is HelperName),
// start in an empty network namespace of its own where it listens for l.
// It fails where no namespace can be made: without one, the port rule
// would let the command connect to that port of the host.
func (l *Listener) Prepare(cmd *exec.Cmd) error {
	if len(cmd.Args) < 2 || cmd.Args[1] != HelperName {
		return fmt.Errorf("confine: %v is not a run of the helper %s", cmd.Args, HelperName)
	}
	if !Isolate(cmd) {
		return errors.New("confine: " + IsolationAvailable().Error())
	}
	// The helper is not root in its namespace when the caller is not:
	// it keeps CAP_NET_ADMIN there to bring the loopback up, and drops it
	// before it runs the command.
	cmd.SysProcAttr.AmbientCaps = append(cmd.SysProcAttr.AmbientCaps, unix.CAP_NET_ADMIN)
	cmd.ExtraFiles = append(cmd.ExtraFiles, l.child)
	fd := 2 + len(cmd.ExtraFiles)
	cmd.Args = slices.Concat(cmd.Args[:2], listenArgs(l.Port, fd), cmd.Args[2:])
	return nil
}

// Accept waits for the helper's socket, then accepts a connection on it.
func (l *Listener) Accept() (net.Conn, error) {
	l.once.Do(l.receive)
	l.mu.Lock()
	ln, err := l.ln, l.err
	l.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return ln.Accept()
}

func (l *Listener) receive() {
	ln, err := l.recv()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed && ln != nil {
		ln.Close()
		ln, err = nil, net.ErrClosed
	}
	l.ln, l.err = ln, err
}

func (l *Listener) recv() (net.Listener, error) {
	buf := make([]byte, 1)
	oob := make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := l.parent.ReadMsgUnix(buf, oob)
	if err != nil {
		return nil, fmt.Errorf("confine: the helper handed over no listener: %w", err)
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, fmt.Errorf("confine: the helper handed over no listener (%d messages, %v)", len(msgs), err)
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		for _, fd := range fds {
			unix.Close(fd)
		}
		return nil, fmt.Errorf("confine: the helper handed over no listener (%v)", err)
	}
	f := os.NewFile(uintptr(fds[0]), "listener")
	defer f.Close()
	ln, err := net.FileListener(f)
	if err != nil {
		return nil, fmt.Errorf("confine: %w", err)
	}
	if a, ok := ln.Addr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() || a.Port != int(l.Port) {
		ln.Close()
		return nil, fmt.Errorf("confine: the helper handed over a listener on %v, not 127.0.0.1:%d", ln.Addr(), l.Port)
	}
	return ln, nil
}

// Close closes the listener, or stops waiting for it.
func (l *Listener) Close() error {
	l.mu.Lock()
	l.closed = true
	ln := l.ln
	l.mu.Unlock()
	l.parent.Close()
	l.child.Close()
	if ln != nil {
		return ln.Close()
	}
	return nil
}

// Addr is 127.0.0.1:Port (in the command's namespace).
func (l *Listener) Addr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: int(l.Port)}
}

// listenInside is the helper's side, before it confines itself: in its
// new network namespace, it brings the loopback up, listens on
// 127.0.0.1:port, sends the socket over fd, and drops the capability that
// let it (the command it runs gets none).
func listenInside(port uint16, fd int) error {
	handoff := os.NewFile(uintptr(fd), "handoff")
	if handoff == nil {
		return fmt.Errorf("%s: no descriptor %d to hand the listener over", HelperName, fd)
	}
	defer handoff.Close()
	if err := loopbackUp(); err != nil {
		return fmt.Errorf("%s: bring the loopback up: %w", HelperName, err)
	}
	ln, err := net.Listen("tcp4", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return fmt.Errorf("%s: %w", HelperName, err)
	}
	defer ln.Close()
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		return fmt.Errorf("%s: %w", HelperName, err)
	}
	defer f.Close()
	if err := unix.Sendmsg(int(handoff.Fd()), []byte{0}, unix.UnixRights(int(f.Fd())), nil, 0); err != nil {
		return fmt.Errorf("%s: hand the listener over: %w", HelperName, err)
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("%s: drop the ambient capabilities: %w", HelperName, err)
	}
	return nil
}

// loopbackUp sets the loopback interface up (SIOCSIFFLAGS): a new network
// namespace has it down, and 127.0.0.1 unreachable.
func loopbackUp() error {
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(s)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(s, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(s, unix.SIOCSIFFLAGS, ifr)
}
