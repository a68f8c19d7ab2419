package mappings

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
)

// An event is read as its agent reads it: with JSON.parse, which has no
// nesting limit, where encoding/json stops at 10,000 levels. A model
// chooses a tool's arguments, so an argument nested 10,001 levels deep must
// not make a guard's event unreadable. The helpers below take the fast
// encoding/json path first and fall back, only when it fails, to an
// iterative reader whose memory is one bit per level. No Go JSON library
// reads at any depth without recursing on the goroutine stack (which a
// 64 MB event of brackets would exhaust: a fatal error, not a panic) or a
// depth limit of its own (encoding/json and v2's jsontext 10,000,
// valyala/fastjson 300, simdjson-go 1,024), hence the small reader here; it
// leaves every scalar to encoding/json.

// DeepLimit is the depth from which DecodeJSON keeps a value as Deep (its
// bytes) rather than decoding it: no converter reads that deep, and a value
// kept as bytes costs no memory and no recursion.
const DeepLimit = 512

// Deep is a JSON value nested too deep to decode, kept as its bytes (valid
// JSON). AppendJSON writes it as it is.
type Deep []byte

// MarshalJSON writes the value as it is; encoding/json then checks it, and
// refuses one deeper than it reads (an error, never a base64 string).
func (d Deep) MarshalJSON() ([]byte, error) { return d, nil }

// ValidJSON reports whether data is one JSON value, at any depth.
func ValidJSON(data []byte) bool {
	return json.Valid(data) || deepValid(data)
}

// DecodeJSON decodes one JSON value as a json.Decoder with UseNumber does,
// at any depth. deep is set when the value was too deep for encoding/json:
// containers past DeepLimit levels are then Deep values, which only
// AppendJSON writes.
func DecodeJSON(data []byte) (v any, deep bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err = dec.Decode(&v); err == nil {
		if skipSpace(data, int(dec.InputOffset())) == len(data) {
			return v, false, nil
		}
		err = &OffsetError{int(dec.InputOffset()), "trailing data after the JSON value"}
	}
	if !deepValid(data) {
		return nil, false, err
	}
	return decodeValid(data), true, nil
}

// deepValid is an iterative JSON validator: a bit per open container (1 an
// object), strings and scalars checked by encoding/json.
func deepValid(d []byte) bool {
	var stack []uint64
	depth := 0
	push := func(obj bool) {
		if depth/64 == len(stack) {
			stack = append(stack, 0)
		}
		if obj {
			stack[depth/64] |= 1 << (depth % 64)
		} else {
			stack[depth/64] &^= 1 << (depth % 64)
		}
		depth++
	}
	inObject := func() bool { return stack[(depth-1)/64]&(1<<((depth-1)%64)) != 0 }
	const (
		value      = iota // a value
		valueOrEnd        // a value or ']' (after '[')
		key               // a key (after ',' in an object)
		keyOrEnd          // a key or '}' (after '{')
		after             // ',' or the container's end
	)
	state := value
	i := 0
	for {
		i = skipSpace(d, i)
		if state == after && depth == 0 {
			return i == len(d)
		}
		if i >= len(d) {
			return false
		}
		c := d[i]
		switch state {
		case value, valueOrEnd:
			switch {
			case c == ']' && state == valueOrEnd:
				depth--
				i++
				state = after
			case c == '{':
				push(true)
				i++
				state = keyOrEnd
			case c == '[':
				push(false)
				i++
				state = valueOrEnd
			default:
				end, ok := scalarEnd(d, i)
				if !ok {
					return false
				}
				i = end
				state = after
			}
		case key, keyOrEnd:
			if c == '}' && state == keyOrEnd {
				depth--
				i++
				state = after
				continue
			}
			if c != '"' {
				return false
			}
			end, ok := scalarEnd(d, i)
			if !ok {
				return false
			}
			i = skipSpace(d, end)
			if i >= len(d) || d[i] != ':' {
				return false
			}
			i++
			state = value
		case after:
			obj := inObject()
			switch {
			case c == ',' && obj:
				state = key
			case c == ',':
				state = value
			case c == '}' && obj, c == ']' && !obj:
				depth--
				state = after
			default:
				return false
			}
			i++
		}
	}
}

// scalarEnd returns the end of the string, number or literal at d[i], and
// whether encoding/json takes it.
func scalarEnd(d []byte, i int) (int, bool) {
	var end int
	if d[i] == '"' {
		e, err := skipString(d, i)
		if err != nil {
			return 0, false
		}
		end = e
	} else {
		end = i
		for end < len(d) && !slices.Contains([]byte(",}] \t\r\n[{:\""), d[end]) {
			end++
		}
	}
	return end, end > i && json.Valid(d[i:end])
}

// decodeValid decodes valid JSON without recursion, keeping containers
// DeepLimit levels down as Deep.
func decodeValid(d []byte) any {
	type frame struct {
		m   map[string]any
		a   []any
		key string
	}
	var stack []*frame
	var root any
	put := func(v any) {
		if len(stack) == 0 {
			root = v
			return
		}
		f := stack[len(stack)-1]
		if f.m != nil {
			f.m[f.key] = v
		} else {
			f.a = append(f.a, v)
		}
	}
	i := 0
	for {
		i = skipSpace(d, i)
		if i >= len(d) {
			return root
		}
		c := d[i]
		switch {
		case c == ',' || c == ':':
			i++
		case (c == '{' || c == '[') && len(stack) >= DeepLimit:
			end, _ := skipValue(d, i)
			put(Deep(d[i:end]))
			i = end
		case c == '{':
			stack = append(stack, &frame{m: map[string]any{}})
			i++
		case c == '[':
			stack = append(stack, &frame{a: []any{}})
			i++
		case c == '}' || c == ']':
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.m != nil {
				put(f.m)
			} else {
				put(f.a)
			}
			i++
		default:
			end, _ := scalarEnd(d, i)
			f := (*frame)(nil)
			if len(stack) > 0 {
				f = stack[len(stack)-1]
			}
			if c == '"' && f != nil && f.m != nil && isKey(d, end) {
				f.key = ""
				_ = json.Unmarshal(d[i:end], &f.key)
			} else {
				var v any
				dec := json.NewDecoder(bytes.NewReader(d[i:end]))
				dec.UseNumber()
				_ = dec.Decode(&v)
				put(v)
			}
			i = end
		}
	}
}

// isKey reports whether the string ending at d[end] is followed by ':'.
func isKey(d []byte, end int) bool {
	end = skipSpace(d, end)
	return end < len(d) && d[end] == ':'
}

// JSONAppender is a value that writes itself, Deep values it holds
// included (encoding/json would refuse a json.Marshaler's deep output).
type JSONAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// AppendJSON appends v as json.Encoder with SetEscapeHTML(false) writes it
// (map keys sorted, no newline), and Deep values as they are.
func AppendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case JSONAppender:
		return x.AppendJSON(b)
	case Deep:
		return append(b, x...), nil
	case map[string]any:
		b = append(b, '{')
		for n, k := range slices.Sorted(maps.Keys(x)) {
			if n > 0 {
				b = append(b, ',')
			}
			b, _ = AppendJSON(b, k)
			b = append(b, ':')
			var err error
			if b, err = AppendJSON(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		b = append(b, '[')
		for n, e := range x {
			if n > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = AppendJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}
