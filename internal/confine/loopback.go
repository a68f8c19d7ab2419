package confine

import "strconv"

// FakeModelPort is the port hookx test --live serves its fake model on,
// inside the run's own empty network namespace: every port is free there,
// and the agent's URL can be written before the namespace exists.
const FakeModelPort = 8417

// listenArgs are the helper's flags that make it listen on 127.0.0.1:port
// in its network namespace and hand the socket to the descriptor fd.
func listenArgs(port uint16, fd int) []string {
	return []string{"--listen-tcp", strconv.Itoa(int(port)), "--handoff-fd", strconv.Itoa(fd)}
}
