package translate

// Reading JSON fields as the agents' JSON.parse does, and small text helpers.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// fields is a JSON object read the way both agents read hook output:
// JSON.parse, exact keys, the last duplicate wins, and a field of the wrong
// type is skipped rather than voiding the rest.
type fields map[string]json.RawMessage

func parseFields(obj []byte) fields { return jsFields(string(obj)) }

// str returns a string field; a number or boolean gives its JSON text, as
// JavaScript would print it.
func (f fields) str(key string) string {
	raw := f[key]
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		s, _ := jsString(string(raw))
		return s
	}
	switch raw[0] {
	case '"', '{', '[', 'n':
		return ""
	}
	return string(raw)
}

// isFalse reports whether a field is the boolean false.
func (f fields) isFalse(key string) bool { return string(f[key]) == "false" }

func (f fields) isTrue(key string) bool { return string(f[key]) == "true" }

func (f fields) object(key string) fields {
	raw := f[key]
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	return parseFields(raw)
}

// inputObject returns an object field as Go values. An object JSON.parse
// read that Go cannot hold (nested past encoding/json's 10,000 levels, a
// number out of float64 range) is an error: the hook's agent would have used
// it.
func (f fields) inputObject(key string) (map[string]any, error) {
	raw := f[key]
	if len(raw) == 0 || raw[0] != '{' {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s cannot be carried: %w", key, err)
	}
	return m, nil
}

func (f fields) unknown(known map[string]bool) []string {
	var out []string
	for k := range f {
		if !known[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// nonBlank returns s, or def when s is empty or only white space.
func nonBlank(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

func keySet(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
