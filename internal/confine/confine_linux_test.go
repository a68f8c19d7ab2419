package confine

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestMain lets the test binary be the helper (probe-exec) and the hostile
// programs it runs.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 {
		switch os.Args[1] {
		case HelperName:
			fmt.Fprintln(os.Stderr, Main(os.Args[2:]))
			os.Exit(3)
		case "hostile-send":
			// Send a datagram to every address given; say what failed.
			for _, a := range os.Args[3:] {
				c, err := net.Dial(os.Args[2], a)
				if err == nil {
					_, err = c.Write([]byte("sent from the probe"))
					c.Close()
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
				}
			}
			os.Exit(0)
		case "hostile-hello":
			// Connect to every address given; say what answered.
			for _, a := range os.Args[2:] {
				c, err := net.DialTimeout("tcp", a, 3*time.Second)
				if err != nil {
					fmt.Printf("refused %s\n", a)
					continue
				}
				c.SetReadDeadline(time.Now().Add(3 * time.Second))
				b, _ := io.ReadAll(c)
				fmt.Printf("%s answered %q\n", a, b)
				c.Close()
			}
			os.Exit(0)
		case "hostile-connect":
			// Connect to every address given; say which worked.
			for _, a := range os.Args[2:] {
				c, err := net.DialTimeout("tcp", a, 3*time.Second)
				if err != nil {
					fmt.Printf("refused %s\n", a)
					continue
				}
				fmt.Printf("connected %s\n", a)
				c.Close()
			}
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// helper skips where the kernel cannot confine (and fails in CI, whose
// runner must offer Landlock); it returns a run of argv through the
// confining helper under p (this test binary as hookx probe-exec), as
// doctor and hookx test start it, with its combined output.
func helper(t *testing.T) func(p Policy, argv ...string) ([]byte, error) {
	t.Helper()
	if err := Available(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return func(p Policy, argv ...string) ([]byte, error) {
		return exec.Command(self(t), append([]string{HelperName}, Args(p, argv...)...)...).CombinedOutput()
	}
}

// self is this test binary.
func self(t *testing.T) string {
	t.Helper()
	p, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestNoNetworkWithoutNamespaces runs the helper as doctor does where the
// kernel allows no user namespace (so no empty network namespace: Ubuntu's
// AppArmor default for unprivileged users): the confined command still
// sends nothing, by UDP (which Landlock restricts only from ABI 10) or
// ICMP.
func TestNoNetworkWithoutNamespaces(t *testing.T) {
	confined := helper(t)
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 100)
		if n, _, err := udp.ReadFrom(b); err == nil {
			got <- string(b[:n])
		}
	}()
	for _, network := range []string{"udp", "ip4:icmp"} {
		addr := udp.LocalAddr().String()
		if network != "udp" {
			addr = "127.0.0.1"
		}
		out, err := confined(Policy{Write: []string{t.TempDir()}}, self(t), "hostile-send", network, addr)
		t.Logf("%s: %v %s", network, err, out)
	}
	select {
	case s := <-got:
		t.Errorf("a datagram left the confined command: %q", s)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestNoSystemCallsOfAnotherABI: on x86-64 a confined program that makes
// its system calls through the i386 ABI (int 0x80, or a 32-bit binary)
// does not reach socket(2) and connect(2) past the seccomp filter.
func TestNoSystemCallsOfAnotherABI(t *testing.T) {
	confined := helper(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("the i386 ABI is an x86-64 matter")
	}
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc to build the int 0x80 program")
	}
	dir := t.TempDir()
	prog := filepath.Join(dir, "int80")
	if out, err := exec.Command(cc, "-O1", "-static", "-no-pie", "-o", prog, filepath.Join("testdata", "int80.c")).CombinedOutput(); err != nil {
		t.Skipf("cannot build the int 0x80 program: %v\n%s", err, out)
	}
	sock := filepath.Join(t.TempDir(), "service.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		b, _ := io.ReadAll(c)
		got <- string(b)
	}()
	// Unconfined, the program reaches the socket (the kernel runs i386
	// system calls); confined, it must not.
	if out, err := exec.Command(prog, sock).CombinedOutput(); err != nil {
		t.Skipf("the kernel runs no i386 system calls here: %v %s", err, out)
	}
	<-got
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		b, _ := io.ReadAll(c)
		got <- string(b)
	}()
	out, err := confined(Policy{Write: []string{dir}}, prog, sock)
	t.Logf("confined: %v %s", err, out)
	select {
	case s := <-got:
		t.Errorf("the confined program reached the socket: %q", s)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestConnectTCPOnlyToTheGivenPort runs the helper as hookx test --live
// does, with the fake model's port allowed: the confined command connects
// to it, and to no other local port (Landlock's ConnectTCP rule; the
// seccomp filter lets only stream sockets through for it).
func TestConnectTCPOnlyToTheGivenPort(t *testing.T) {
	confined := helper(t)
	var addrs []string
	var ports []uint16
	for range 2 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		addrs = append(addrs, l.Addr().String())
		ports = append(ports, uint16(l.Addr().(*net.TCPAddr).Port))
	}
	out, err := confined(Policy{Write: []string{t.TempDir()}, ConnectTCP: ports[:1]}, self(t), "hostile-connect", addrs[0], addrs[1])
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := fmt.Sprintf("connected %s\nrefused %s\n", addrs[0], addrs[1])
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// TestListenerInsideTheNamespace runs the helper as hookx test --live
// does: in an empty network namespace of its own, where it listens on the
// fake model's port and hands the socket back (Listener). The confined
// command reaches the server behind that socket, and nothing of the host:
// not the host's service on the same port (Landlock's port rule alone
// would let it through), nor another port.
func TestListenerInsideTheNamespace(t *testing.T) {
	if err := IsolationAvailable(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	serve := func(l net.Listener, say string) {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte(say))
			c.Close()
		}
	}
	var addrs []string
	var ports []uint16
	for _, say := range []string{"the host's service", "another service of the host"} {
		l, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go serve(l, say)
		addrs = append(addrs, l.Addr().String())
		ports = append(ports, uint16(l.Addr().(*net.TCPAddr).Port))
	}
	// The fake model's port is the host service's.
	inside, err := NewListener(ports[0])
	if err != nil {
		t.Fatal(err)
	}
	defer inside.Close()
	go serve(inside, "the fake model")
	cmd := exec.Command(self, append([]string{HelperName}, Args(Policy{Write: []string{t.TempDir()}, ConnectTCP: ports[:1]}, self, "hostile-hello", addrs[0], addrs[1])...)...)
	if err := inside.Prepare(cmd); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := fmt.Sprintf("%s answered \"the fake model\"\nrefused %s\n", addrs[0], addrs[1])
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
