package mappings

import "testing"

// A read's line range names the same lines in every dialect: Claude's and
// Droid's offset counts from 1 (0 read as 1), Qwen's from 0 (its tool
// schema: "the 0-based line number to start reading from").
func TestOffsetLimitNamesTheSameLines(t *testing.T) {
	conv := inputConverters()
	for _, tc := range []struct {
		name        string
		off, lim    int
		start, end  int
		back, backL int
	}{
		{"offsetLimit", 10, 5, 10, 14, 10, 5},
		{"offsetLimit", 0, 3, 1, 3, 1, 3},
		{"offsetLimit0", 0, 3, 1, 3, 0, 3},
		{"offsetLimit0", 9, 5, 10, 14, 9, 5},
	} {
		a := map[string]any{"offset": float64(tc.off), "limit": float64(tc.lim)}
		conv[tc.name].ToCanonical(a)
		if s, _ := intArg(a, "start_line"); s != tc.start {
			t.Errorf("%s offset %d: start_line %v, want %d", tc.name, tc.off, a["start_line"], tc.start)
		}
		if e, _ := intArg(a, "end_line"); e != tc.end {
			t.Errorf("%s offset %d limit %d: end_line %v, want %d", tc.name, tc.off, tc.lim, a["end_line"], tc.end)
		}
		conv[tc.name].FromCanonical(a)
		if o, _ := intArg(a, "offset"); o != tc.back {
			t.Errorf("%s: back to offset %v, want %d", tc.name, a["offset"], tc.back)
		}
		if l, _ := intArg(a, "limit"); l != tc.backL {
			t.Errorf("%s: back to limit %v, want %d", tc.name, a["limit"], tc.backL)
		}
	}
}
