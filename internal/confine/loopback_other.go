//go:build !linux

package confine

import (
	"errors"
	"net"
	"os/exec"
)

// IsolationAvailable reports why a command cannot be given an empty network
// namespace of its own here: there are none.
func IsolationAvailable() error { return available() }

// Listener is a listener inside a confined command's network namespace;
// there is none here.
type Listener struct{ Port uint16 }

// NewListener fails: no network namespaces here.
func NewListener(port uint16) (*Listener, error) {
	return nil, errors.New("confine: " + available().Error())
}

func (l *Listener) Prepare(*exec.Cmd) error   { return errors.New("confine: " + available().Error()) }
func (l *Listener) Accept() (net.Conn, error) { return nil, net.ErrClosed }
func (l *Listener) Close() error              { return nil }
func (l *Listener) Addr() net.Addr            { return &net.TCPAddr{Port: int(l.Port)} }

func listenInside(uint16, int) error { return errors.New("confine: " + available().Error()) }
