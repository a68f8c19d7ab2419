package wrap

import (
	"testing"
	"time"
)

// TestAwaitEOFPrefersTheEnd: when hookx runs late and finds the quiet timer
// and the end of the hook's output both ready, the output ended: calling it
// held would cut off what the hook wrote (a guard's deny among it). A zero
// grace makes both ready at every select; select alone picks at random.
func TestAwaitEOFPrefersTheEnd(t *testing.T) {
	done := make(chan struct{})
	close(done)
	s := &hookSpec{pipeGrace: 0, pipeCap: time.Hour}
	for i := range 200 {
		var res runResult
		eof, _, async := s.awaitEOF(done, nil, &res, time.Now(), func() int64 { return 1 })
		if !eof || async {
			t.Fatalf("round %d: eof %v async %v, want the output's end", i, eof, async)
		}
	}
}
