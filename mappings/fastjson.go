package mappings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Hook payloads can carry a tool's whole output (megabytes of it) in one
// string. encoding/json scans such a value several times at a few hundred
// MB/s; these helpers split an object and unquote a string with memchr-speed
// scans, so that a big tool_response costs one pass. Small values are still
// decoded, and so validated, by encoding/json.

// bigValue is the size from which a value is not validated by a full scan;
// the splitter still checks that its strings and brackets are balanced.
const bigValue = 1 << 20

// JoinObject is SplitObject's inverse: the object with keys in order, each
// with its raw value from vals.
func JoinObject(keys []string, vals map[string]json.RawMessage) []byte {
	n := 2
	for _, k := range keys {
		n += len(k) + len(vals[k]) + 4
	}
	b := bytes.NewBuffer(make([]byte, 0, n))
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vals[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// SplitObject splits a JSON object one level deep, keeping its key order.
// Values are sub-slices of data. Values under 1 MB are validated as JSON; a
// duplicate key is an error. Errors name the byte offset.
func SplitObject(data []byte) ([]string, map[string]json.RawMessage, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, nil, errors.New("not a JSON object")
	}
	i++
	var order []string
	raw := map[string]json.RawMessage{}
	for {
		i = skipSpace(data, i)
		if i < len(data) && data[i] == '}' && len(order) == 0 {
			i++
			break
		}
		if i >= len(data) || data[i] != '"' {
			return nil, nil, &OffsetError{i, "expected a key string"}
		}
		end, err := skipString(data, i)
		if err != nil {
			return nil, nil, err
		}
		var key string
		if err := json.Unmarshal(data[i:end], &key); err != nil {
			return nil, nil, &OffsetError{i, "bad key: " + err.Error()}
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, nil, &OffsetError{i, "expected ':' after key"}
		}
		i = skipSpace(data, i+1)
		vend, err := skipValue(data, i)
		if err != nil {
			return nil, nil, err
		}
		v := data[i:vend]
		if len(v) < bigValue && !ValidJSON(v) {
			return nil, nil, &OffsetError{i, fmt.Sprintf("invalid value for key %q", key)}
		}
		if _, dup := raw[key]; dup {
			return nil, nil, &OffsetError{i, fmt.Sprintf("duplicate key %q", key)}
		}
		order = append(order, key)
		raw[key] = v
		i = skipSpace(data, vend)
		if i < len(data) && data[i] == ',' {
			i++
			continue
		}
		if i < len(data) && data[i] == '}' {
			i++
			break
		}
		return nil, nil, &OffsetError{i, "expected ',' or '}'"}
	}
	if skipSpace(data, i) != len(data) {
		return nil, nil, &OffsetError{i, "trailing data after the JSON object"}
	}
	return order, raw, nil
}

// OffsetError is a syntax error at a byte offset.
type OffsetError struct {
	Offset int
	Msg    string
}

func (e *OffsetError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

func skipSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\n' || d[i] == '\t' || d[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at d[i] == '"'.
func skipString(d []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(d[j:], '"')
		if k < 0 {
			return 0, &OffsetError{i, "unterminated string"}
		}
		j += k
		// An escaped quote has an odd number of backslashes before it.
		n := 0
		for p := j - 1; p > i && d[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1, nil
		}
		j++
	}
}

// skipValue returns the index just past the value starting at d[i].
func skipValue(d []byte, i int) (int, error) {
	if i >= len(d) {
		return 0, &OffsetError{i, "unexpected end of input"}
	}
	switch d[i] {
	case '"':
		return skipString(d, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				end, err := skipString(d, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, &OffsetError{i, "unbalanced brackets"}
	}
	j := i
	for j < len(d) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(d[j])) {
		j++
	}
	if j == i {
		return 0, &OffsetError{i, "expected a value"}
	}
	return j, nil
}

// UnquoteString decodes a JSON string value. It is equivalent to
// json.Unmarshal into a string, in one pass.
func UnquoteString(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", errors.New("not a JSON string")
	}
	s := raw[1 : len(raw)-1]
	first := bytes.IndexByte(s, '\\')
	if first < 0 {
		if !utf8.Valid(s) {
			return string(bytes.ToValidUTF8(s, []byte("\uFFFD"))), nil
		}
		return string(s), nil
	}
	b := make([]byte, 0, len(s))
	for len(s) > 0 {
		k := bytes.IndexByte(s, '\\')
		if k < 0 {
			b = append(b, s...)
			break
		}
		b = append(b, s[:k]...)
		s = s[k:]
		if len(s) < 2 {
			return "", errors.New("bad escape at end of string")
		}
		switch c := s[1]; c {
		case '"', '\\', '/':
			b = append(b, c)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, n, ok := unicodeEscape(s)
			if !ok {
				return "", errors.New("bad \\u escape")
			}
			b = utf8.AppendRune(b, r)
			s = s[n:]
			continue
		default:
			return "", fmt.Errorf("bad escape \\%c", c)
		}
		s = s[2:]
	}
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return string(b), nil
}

// unicodeEscape decodes \uXXXX, or a surrogate pair of them, at s.
func unicodeEscape(s []byte) (rune, int, bool) {
	hex := func(s []byte) (rune, bool) {
		if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(s[2:6]), 16, 16)
		return rune(n), err == nil
	}
	r, ok := hex(s)
	if !ok {
		return 0, 0, false
	}
	if utf16.IsSurrogate(r) {
		if r2, ok := hex(s[6:]); ok {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 12, true
			}
		}
		return utf8.RuneError, 6, true
	}
	return r, 6, true
}
