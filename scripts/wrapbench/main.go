// Command wrapbench measures the latency hookx wrap adds to a hook, against
// the floor of a Go wrapper (./floor) and a Node wrapper, interleaved in one
// run so that every variant sees the same machine. scripts/bench-wrap builds
// the binaries and runs it.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"
)

type variant struct {
	name string
	argv []string
	want string // the stdout the variant must print, checked once
	env  []string
	d    []time.Duration
}

func main() {
	n := flag.Int("n", 200, "rounds")
	hookx := flag.String("hookx", "", "hookx binary")
	floor := flag.String("floor", "", "floor binary")
	node := flag.String("node-wrapper", "", "the Node wrapper script (empty: skip)")
	base := flag.String("base", "", "an earlier hookx binary to compare with, in the same run (empty: none)")
	event := flag.String("event", "", "file holding a Gemini BeforeTool event")
	flag.Parse()
	payload, err := os.ReadFile(*event)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	const hook = "cat >/dev/null"
	vs := []*variant{
		{name: "direct", argv: []string{"sh", "-c", hook}},
		{name: "floor", argv: []string{*floor, "sh", "-c", hook}},
		{name: "hookx translated", argv: []string{*hookx, "wrap", "--from", "claude", "--host", "gemini", "--", hook}, want: "{}"},
		// Same dialect: a Claude hook on a Claude host, so that the hook
		// runs under sh as in every other variant (a Gemini hook runs
		// under bash, which starts slower than the sh the others use).
		{name: "hookx pass-through", argv: []string{*hookx, "wrap", "--from", "claude", "--host", "claude", "--", hook}},
	}
	if *base != "" {
		vs = append(vs,
			&variant{name: "base translated", argv: []string{*base, "wrap", "--from", "claude", "--host", "gemini", "--", hook}, want: "{}"},
			&variant{name: "base pass-through", argv: []string{*base, "wrap", "--from", "claude", "--host", "claude", "--", hook}})
	}
	if *node != "" {
		vs = append(vs, &variant{name: "node", argv: []string{"node", *node, "sh", "-c", hook}})
	}
	// Each variant keeps its state (hookx's transcript copies and stop
	// counters) apart, in a directory of its own, not the user's.
	state, err := os.MkdirTemp("", "wrapbench-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer os.RemoveAll(state)
	for i, v := range vs {
		v.env = append(os.Environ(), fmt.Sprintf("XDG_STATE_HOME=%s/%d", state, i))
	}
	for _, v := range vs {
		out, err := runOnce(v, payload)
		if err != nil || string(bytes.TrimSpace(out)) != v.want {
			fmt.Fprintf(os.Stderr, "%s: %v: unexpected output %q\n", v.name, err, out)
			os.Exit(1)
		}
	}
	for i := 0; i < 10; i++ { // warm up the page cache
		for _, v := range vs {
			runOnce(v, payload)
		}
	}
	for i := 0; i < *n; i++ {
		for j := range vs { // rotate the order: no variant always runs first
			v := vs[(i+j)%len(vs)]
			t0 := time.Now()
			runOnce(v, payload)
			v.d = append(v.d, time.Since(t0))
		}
	}
	direct := vs[0]
	added := map[string]time.Duration{}
	fmt.Printf("%d interleaved rounds; hook: sh -c %q; Gemini BeforeTool event on stdin\n\n", *n, hook)
	fmt.Printf("%-20s %10s %12s\n", "variant", "median", "added")
	for _, v := range vs {
		// Paired per round: the variant's time minus direct's in that round.
		diffs := make([]time.Duration, len(v.d))
		for i := range v.d {
			diffs[i] = v.d[i] - direct.d[i]
		}
		added[v.name] = median(diffs)
		fmt.Printf("%-20s %8.3f ms %9.3f ms\n", v.name, ms(median(v.d)), ms(added[v.name]))
	}
	fmt.Println()
	ratio := func(a, b string) {
		if added[b] > 0 {
			fmt.Printf("%-34s %6.2f\n", a+" / "+b+":", float64(added[a])/float64(added[b]))
		}
	}
	ratio("hookx translated", "floor")
	ratio("hookx pass-through", "floor")
	if *base != "" {
		ratio("base translated", "floor")
		ratio("base pass-through", "floor")
	}
	if *node != "" {
		ratio("node", "hookx translated")
	}
}

func runOnce(v *variant, stdin []byte) ([]byte, error) {
	cmd := exec.Command(v.argv[0], v.argv[1:]...)
	cmd.Env = v.env
	cmd.Stdin = bytes.NewReader(stdin)
	return cmd.Output()
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
