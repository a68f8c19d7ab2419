package translate

import (
	"bytes"
	"encoding/json"
)

// object is a JSON object that keeps its keys in insertion order, so that
// what hookx prints reads like what an agent would print.
type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) len() int { return len(o.keys) }

// withFirst returns o with k set and moved to the front.
func (o *object) withFirst(k string, v any) *object {
	n := newObject()
	n.set(k, v)
	for _, key := range o.keys {
		if key != k {
			n.set(key, o.vals[key])
		}
	}
	return n
}

// MarshalJSON implements json.Marshaler.
func (o *object) MarshalJSON() ([]byte, error) { return o.bytes(), nil }

func (o *object) bytes() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		_ = enc.Encode(o.vals[k])
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// keep returns a copy of o with only the keys ok accepts, and the names of
// the others, each after prefix.
func (o *object) keep(ok func(string) bool, prefix string) (*object, []string) {
	return o.keepAppend(ok, prefix, nil)
}

func (o *object) keepAppend(ok func(string) bool, prefix string, dropped []string) (*object, []string) {
	n := newObject()
	for _, k := range o.keys {
		if ok(k) {
			n.set(k, o.vals[k])
		} else {
			dropped = append(dropped, prefix+k)
		}
	}
	return n, dropped
}
