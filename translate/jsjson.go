package translate

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Both agents read a hook's output as JavaScript does: the bytes decoded as
// UTF-8 by Node (each maximal invalid sequence becomes one U+FFFD),
// String.prototype.trim, then JSON.parse. encoding/json differs from
// JSON.parse on inputs a hook can print: it rejects numbers out of float64
// range (1e400 is Infinity in JavaScript) and nesting deeper than 10,000, and
// Go's unicode.IsSpace is not trim's set (it strips U+0085, which trim keeps).
// Each difference turned a native block into an allow, so hook output is
// read with the functions below, checked against node's JSON.parse by
// TestVerdictReaderMatchesJSONParse.

// decodeJS decodes b as Node's Buffer.toString("utf8") does (the WHATWG
// decoder): every maximal subpart of an ill-formed sequence is one U+FFFD.
func decodeJS(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			sb.WriteByte(c)
			i++
			continue
		}
		var need int
		lo, hi := byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c == 0xED:
			need, hi = 2, 0x9F
		case c >= 0xE1 && c <= 0xEF:
			need = 2
		case c == 0xF0:
			need, lo = 3, 0x90
		case c == 0xF4:
			need, hi = 3, 0x8F
		case c >= 0xF1 && c <= 0xF3:
			need = 3
		default:
			sb.WriteRune(utf8.RuneError)
			i++
			continue
		}
		j := i + 1
		for k := 0; k < need; k++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if j-i == need+1 {
			sb.Write(b[i:j])
		} else {
			sb.WriteRune(utf8.RuneError)
		}
		i = j
	}
	return sb.String()
}

// isJSSpace reports whether String.prototype.trim strips r: WhiteSpace and
// LineTerminator of ECMA-262 (Zs, TAB, VT, FF, ZWNBSP, LF, CR, LS, PS).
// Unlike unicode.IsSpace it does not include U+0085 and does include U+FEFF.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// trimJS is Node's decoding followed by String.prototype.trim.
func trimJS(b []byte) string {
	return strings.TrimFunc(decodeJS(b), isJSSpace)
}

// isJSONSpace is the white space JSON.parse allows between tokens.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipJSONSpace(s string, i int) int {
	for i < len(s) && isJSONSpace(s[i]) {
		i++
	}
	return i
}

// jsParse reports whether JSON.parse accepts s, and the kind of its value:
// '{', '[', '"', 'n' (number), 't', 'f' or 'z' (null).
func jsParse(s string) (byte, bool) {
	i := skipJSONSpace(s, 0)
	if i >= len(s) {
		return 0, false
	}
	end, err := jsValueEnd(s, i)
	if err != nil || skipJSONSpace(s, end) != len(s) {
		return 0, false
	}
	switch c := s[i]; c {
	case '{', '[', '"', 't', 'f':
		return c, true
	case 'n':
		return 'z', true
	}
	return 'n', true
}

var errJSON = errors.New("not JSON")

// jsValueEnd returns the end of the JSON value that starts at s[i]. It keeps
// its own stack, so any depth JSON.parse takes is taken; numbers are checked
// for syntax only, as JSON.parse turns any of them into a float (or Infinity).
func jsValueEnd(s string, i int) (int, error) {
	var stack []byte // the open containers: '{' or '['
	for {
		// A value.
		i = skipJSONSpace(s, i)
		if i >= len(s) {
			return 0, errJSON
		}
		switch c := s[i]; {
		case c == '{' || c == '[':
			stack = append(stack, c)
			i = skipJSONSpace(s, i+1)
			close := byte('}')
			if c == '[' {
				close = ']'
			}
			if i < len(s) && s[i] == close {
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				var err error
				if i, err = jsKey(s, i); err != nil {
					return 0, err
				}
			}
			continue
		case c == '"':
			end, err := jsStringEnd(s, i)
			if err != nil {
				return 0, err
			}
			i = end
		case c == '-' || (c >= '0' && c <= '9'):
			end, err := jsNumberEnd(s, i)
			if err != nil {
				return 0, err
			}
			i = end
		case strings.HasPrefix(s[i:], "true"):
			i += 4
		case strings.HasPrefix(s[i:], "false"):
			i += 5
		case strings.HasPrefix(s[i:], "null"):
			i += 4
		default:
			return 0, errJSON
		}
		// After a value: close containers, or go on to the next member.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			i = skipJSONSpace(s, i)
			if i >= len(s) {
				return 0, errJSON
			}
			top := stack[len(stack)-1]
			switch {
			case s[i] == ',':
				i++
				if top == '{' {
					var err error
					if i, err = jsKey(s, skipJSONSpace(s, i)); err != nil {
						return 0, err
					}
				}
			case top == '{' && s[i] == '}', top == '[' && s[i] == ']':
				stack = stack[:len(stack)-1]
				i++
				continue
			default:
				return 0, errJSON
			}
			break
		}
	}
}

// jsKey reads `"key" :` at s[i] and returns the index after the colon.
func jsKey(s string, i int) (int, error) {
	if i >= len(s) || s[i] != '"' {
		return 0, errJSON
	}
	end, err := jsStringEnd(s, i)
	if err != nil {
		return 0, err
	}
	end = skipJSONSpace(s, end)
	if end >= len(s) || s[end] != ':' {
		return 0, errJSON
	}
	return end + 1, nil
}

func jsStringEnd(s string, i int) (int, error) {
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i + 1, nil
		case c < 0x20:
			return 0, errJSON
		case c == '\\':
			i++
			if i >= len(s) {
				return 0, errJSON
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s) {
					return 0, errJSON
				}
				for _, h := range []byte(s[i+1 : i+5]) {
					if !isHex(h) {
						return 0, errJSON
					}
				}
				i += 4
			default:
				return 0, errJSON
			}
		}
	}
	return 0, errJSON
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func jsNumberEnd(s string, i int) (int, error) {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(i)
	default:
		return 0, errJSON
	}
	if i < len(s) && s[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return 0, errJSON
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return 0, errJSON
		}
		i = j
	}
	return i, nil
}

// jsFields splits an object JSON.parse accepted into its members: the last
// duplicate wins, as in JavaScript. Values keep their source text.
func jsFields(obj string) fields {
	f := fields{}
	i := skipJSONSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil
	}
	i = skipJSONSpace(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		kend, err := jsStringEnd(obj, i)
		if err != nil {
			return nil
		}
		var key string
		if json.Unmarshal([]byte(obj[i:kend]), &key) != nil {
			return nil
		}
		vstart := skipJSONSpace(obj, skipJSONSpace(obj, kend)+1)
		vend, err := jsValueEnd(obj, vstart)
		if err != nil {
			return nil
		}
		f[key] = json.RawMessage(obj[vstart:vend])
		i = skipJSONSpace(obj, vend)
		if i < len(obj) && obj[i] == ',' {
			i = skipJSONSpace(obj, i+1)
		}
	}
	return f
}

// jsString unquotes a JSON string JSON.parse accepted. A lone surrogate
// escape, which a JavaScript string keeps, becomes U+FFFD.
func jsString(raw string) (string, error) {
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return "", fmt.Errorf("string %.40q: %w", raw, err)
	}
	return s, nil
}
