package mappings

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/hookx-dev/hookx/internal/nodeoracle"
)

// deepOracleJS answers whether JSON.parse (the agents' reader of an event
// they send, and of a model's tool arguments) takes a text, and the depth
// of what it read, counted without recursion.
const deepOracleJS = `
const rl = require("readline").createInterface({input: process.stdin, crlfDelay: Infinity});
rl.on("line", (line) => {
  const t = Buffer.from(JSON.parse(line).b, "base64").toString("utf8");
  let v;
  try { v = JSON.parse(t); } catch { console.log(JSON.stringify({ok: false})); return; }
  let depth = 0;
  const stack = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop();
    if (x === null || typeof x !== "object") continue;
    depth = Math.max(depth, d);
    for (const k of Object.keys(x)) stack.push([x[k], d + 1]);
  }
  console.log(JSON.stringify({ok: true, depth}));
});
`

// deepCorpus is JSON texts and near-misses, each nested past encoding/json's
// 10,000 levels so that the fallback reads it, and shallow too.
func deepCorpus() []string {
	const n = 10_003
	wrap := func(open, inner, close string, n int) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	inners := []string{
		`1`, `-0.5e+3`, `"a]}\"[{"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `true`, `null`, `{}`, `[]`, `""`,
		`01`, `-`, `1.`, `.5`, `tru`, `nul`, `"a`, `"\x"`, "\"\x01\"", `"\u12"`, `[1,]`, `{"a":1,}`, `{"a" 1}`,
		`{1:2}`, `[1 2]`, `{"a":1 "b":2}`, `]`, `}`, `[`, `{`, `,`, `:`, `{"a"}`, `{"a":}`, `NaN`, `Infinity`,
		`{"a":1,"a":2}`, " \t\r\n1 ", "\u00a01", `"` + "\xff" + `"`, `1e`, `+1`, `0x1`, `[,1]`,
	}
	var out []string
	for _, in := range inners {
		for _, depth := range []int{1, n} {
			out = append(out,
				wrap("[", in, "]", depth),
				wrap(`{"k":`, in, "}", depth),
				wrap(`[0,{"a":[`, in, "]}]", depth/2),
			)
		}
	}
	out = append(out,
		wrap("[", "", "]", n)+"]", wrap("[", "", "]", n)[1:], wrap("[", "", "]", n)+" x",
		wrap("[", "", "}", n), wrap(`{"a":`, "1", "]", n), wrap("[ ", "", " ]", n),
		wrap(`{"a":[`, "1", "]}", n)+",", wrap("[", "1", ",]", n),
	)
	r := rand.New(rand.NewPCG(23, 7))
	for range 60 {
		// A deep value with one byte changed.
		s := []byte(wrap(`{"k":[`, `"x",1`, "]}", n/2))
		s[r.IntN(len(s))] = `[]{}",:1 a\`[r.IntN(11)]
		out = append(out, string(s))
	}
	return out
}

// ValidJSON and DecodeJSON take exactly what JSON.parse takes, at any depth,
// and DecodeJSON reads it as deep as JSON.parse does.
func TestDeepJSONAgreesWithJSONParse(t *testing.T) {
	o := nodeoracle.Require(t, "the JSON.parse oracle", deepOracleJS)
	for i, text := range deepCorpus() {
		var want struct {
			OK    bool `json:"ok"`
			Depth int  `json:"depth"`
		}
		if err := o.Ask(map[string]string{"b": base64.StdEncoding.EncodeToString([]byte(text))}, &want); err != nil {
			t.Fatal(err)
		}
		short := text
		if len(short) > 80 {
			short = short[:40] + "…" + short[len(short)-40:]
		}
		if got := ValidJSON([]byte(text)); got != want.OK {
			t.Errorf("%d: ValidJSON(%q) = %v, JSON.parse takes it: %v", i, short, got, want.OK)
		}
		v, _, err := DecodeJSON([]byte(text))
		if (err == nil) != want.OK {
			t.Errorf("%d: DecodeJSON(%q) error %v, JSON.parse takes it: %v", i, short, err, want.OK)
			continue
		}
		if err != nil {
			continue
		}
		if got := depthOf(t, v); got != want.Depth {
			t.Errorf("%d: DecodeJSON(%q) is %d levels deep, JSON.parse's %d", i, short, got, want.Depth)
		}
	}
}

// depthOf is the nesting depth of a decoded value, Deep values read by
// decoding them again.
func depthOf(t *testing.T, v any) int {
	type item struct {
		v any
		d int
	}
	depth := 0
	stack := []item{{v, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := it.v.(type) {
		case map[string]any:
			depth = max(depth, it.d)
			for _, e := range x {
				stack = append(stack, item{e, it.d + 1})
			}
		case []any:
			depth = max(depth, it.d)
			for _, e := range x {
				stack = append(stack, item{e, it.d + 1})
			}
		case Deep:
			inner, _, err := DecodeJSON(x)
			if err != nil {
				t.Fatalf("a Deep value does not decode: %v", err)
			}
			stack = append(stack, item{inner, it.d})
		}
	}
	return depth
}

// AppendJSON writes a decoded value back as encoding/json would, and a deep
// one as it was read (compact, keys in order).
func TestAppendJSONRoundTrip(t *testing.T) {
	deep := strings.Repeat(`{"b":[`, 6000) + `"x<&>"` + strings.Repeat(`]}`, 6000)
	for _, text := range []string{
		`{"b":[1,2.50,"x<&>\u2028"],"a":{"z":null,"y":true}}`,
		`{"a":` + deep + `,"c":"d"}`,
	} {
		v, _, err := DecodeJSON([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendJSON(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if strings.Contains(text, deep) {
			want.WriteString(text) // keys already sorted, compact
		} else {
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(v)
			want.Truncate(want.Len() - 1)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("AppendJSON(%.60s…) = %.200s…, want %.200s…", text, got, want.Bytes())
		}
	}
}

// BenchmarkEventReading prints what reading an event costs at the depths
// a model may choose, as ratios to a shallow event of the same size:
// encoding/json's fast path is kept for every event it can read.
func BenchmarkEventReading(b *testing.B) {
	const size = 1 << 20
	shallow := []byte(`{"a":"` + strings.Repeat("x", size) + `"}`)
	deep := []byte(strings.Repeat("[", 10_001) + `"` + strings.Repeat("x", size-20_002) + `"` + strings.Repeat("]", 10_001))
	bracket := []byte(strings.Repeat("[", size/2) + strings.Repeat("]", size/2))
	times := map[string]float64{}
	for _, c := range []struct {
		name string
		in   []byte
	}{{"shallow", shallow}, {"deep10001", deep}, {"brackets1MB", bracket}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.in)))
			for b.Loop() {
				if _, _, err := DecodeJSON(c.in); err != nil {
					b.Fatal(err)
				}
			}
			times[c.name] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		})
	}
	if s := times["shallow"]; s > 0 {
		fmt.Printf("event reading, time as a multiple of a shallow 1 MB event: 10,001 levels %.1fx, 1 MB of brackets %.1fx\n", times["deep10001"]/s, times["brackets1MB"]/s)
	}
}

// FuzzDeepJSON holds the iterative reader against encoding/json wherever
// encoding/json reads (under 10,000 levels): it takes the same texts, and
// decodes them to the same values.
func FuzzDeepJSON(f *testing.F) {
	for _, s := range deepCorpus() {
		if len(s) < 200 {
			f.Add([]byte(s))
		}
	}
	f.Add([]byte(`{"a":[1,{"b":"c\"]"}],"d":-1.5e3,"e":[true,false,null]}`))
	f.Add([]byte(strings.Repeat("[", 600) + strings.Repeat("]", 600)))
	f.Fuzz(func(t *testing.T, b []byte) {
		want := json.Valid(b)
		if got := deepValid(b); got != want {
			t.Fatalf("deepValid(%q) = %v, json.Valid %v", b, got, want)
		}
		if !want {
			return
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		got := decodeValid(b)
		if depthOf(t, got) <= DeepLimit && !reflect.DeepEqual(got, v) {
			t.Fatalf("decodeValid(%q) = %#v, encoding/json %#v", b, got, v)
		}
	})
}
