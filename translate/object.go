package translate

import (
	"encoding/json"

	"github.com/hookx-dev/hookx/mappings"
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
	b, _ := o.AppendJSON(nil)
	return b
}

// AppendJSON implements mappings.JSONAppender.
func (o *object) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	for i, k := range o.keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, _ := json.Marshal(k)
		b = append(b, kb...)
		b = append(b, ':')
		// As json.Encoder without HTML escaping writes it; a tool input
		// read nested past encoding/json's limit as it was read.
		if out, err := mappings.AppendJSON(b, o.vals[k]); err == nil {
			b = out
		} else {
			b = b[:len(b)-1] // as before: not JSON, never a value hookx did not mean
		}
	}
	return append(b, '}'), nil
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
