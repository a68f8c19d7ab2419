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
	"strings"
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
	perfRounds := flag.Int("perf", 0, "then this many interleaved rounds under perf stat: CPU, page faults, context switches and new tasks per call (0: none)")
	var extra []string
	flag.Func("extra", "NAME=BINARY: another wrap build, run translated in the same run (repeatable)", func(s string) error {
		if name, bin, ok := strings.Cut(s, "="); !ok || name == "" || bin == "" {
			return fmt.Errorf("%q is not NAME=BINARY", s)
		}
		extra = append(extra, s)
		return nil
	})
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
	for _, e := range extra {
		name, bin, _ := strings.Cut(e, "=")
		vs = append(vs, &variant{name: name, argv: []string{bin, "wrap", "--from", "claude", "--host", "gemini", "--", hook}, want: "{}"})
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
	for _, e := range extra {
		name, _, _ := strings.Cut(e, "=")
		ratio(name, "floor")
	}
	if *node != "" {
		ratio("node", "hookx translated")
	}
	if *perfRounds > 0 {
		perfStat(vs, payload, *perfRounds)
	}
}

// perfStat runs each variant but node rounds times, interleaved, under perf
// stat, and prints per call: the whole call's CPU (the wrapper, the hook's
// sh and its cat; task-clock), that CPU less direct's (paired per round),
// page faults, context switches and new tasks (threads and processes).
// Counting CPU, not wall time, is what a loaded machine can still compare.
func perfStat(vs []*variant, payload []byte, rounds int) {
	events := []string{"task-clock", "page-faults", "context-switches", "task:task_newtask"}
	vs = slices.DeleteFunc(slices.Clone(vs), func(v *variant) bool { return v.name == "node" })
	counts := make([]map[string][]float64, len(vs))
	for i := range counts {
		counts[i] = map[string][]float64{}
	}
	out, err := os.CreateTemp("", "wrapbench-perf-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	out.Close()
	defer os.Remove(out.Name())
	for r := 0; r < rounds; r++ {
		for j := range vs {
			k := (r + j) % len(vs)
			v := vs[k]
			argv := append([]string{"stat", "-x,", "-e", strings.Join(events, ","), "-o", out.Name(), "--"}, v.argv...)
			cmd := exec.Command("perf", argv...)
			cmd.Env = v.env
			cmd.Stdin = bytes.NewReader(payload)
			if err := cmd.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "perf stat %s: %v\n", v.name, err)
				return
			}
			text, _ := os.ReadFile(out.Name())
			for _, line := range strings.Split(string(text), "\n") {
				f := strings.Split(line, ",")
				if len(f) < 3 {
					continue
				}
				var x float64
				if _, err := fmt.Sscan(f[0], &x); err == nil {
					counts[k][f[2]] = append(counts[k][f[2]], x)
				}
			}
		}
	}
	fmt.Printf("\nperf stat, %d interleaved rounds, per call (medians; the hook's sh and cat included)\n", rounds)
	fmt.Printf("%-20s %10s %14s %8s %8s %6s\n", "variant", "CPU", "CPU - direct", "faults", "ctx-sw", "tasks")
	direct := counts[0]["task-clock"]
	for k, v := range vs {
		c := counts[k]
		tc := c["task-clock"]
		var diffs []float64
		for i := range min(len(tc), len(direct)) {
			diffs = append(diffs, tc[i]-direct[i])
		}
		fmt.Printf("%-20s %7.3f ms %11.3f ms %8.0f %8.1f %6.0f\n", v.name, medianf(tc), medianf(diffs),
			medianf(c["page-faults"]), medianf(c["context-switches"]), medianf(c["task:task_newtask"]))
	}
}

func medianf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
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
