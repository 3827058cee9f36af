package hub

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// table finds the sender for a key (a neighbour hub, a memory, a
// requester port). A hub has a few of each: a search of the list beats
// hashing, which was most of routing a packet (an interface key's hash
// above all). A switch with many links keeps a map beside the list.
type table[K comparable] struct {
	keys    []K
	senders []*fabric.Sender
	m       map[K]*fabric.Sender // past mapAbove keys
}

// portTable is a table of requester ports. Ports are fabric.Ports (all of
// akisim's): those are searched as pointers, since comparing interfaces
// is a call per key.
type portTable struct {
	table[sim.Port]
	ptrs []*fabric.Port                  // keys[i] as a fabric.Port, nil if it is not one
	pm   map[*fabric.Port]*fabric.Sender // with the map: the fabric.Ports, hashed as pointers
}

func (t *portTable) put(k sim.Port, s *fabric.Sender) {
	t.table.put(k, s)
	p, _ := k.(*fabric.Port)
	t.ptrs = append(t.ptrs, p)
	switch {
	case t.m != nil && t.pm == nil:
		t.pm = make(map[*fabric.Port]*fabric.Sender, len(t.ptrs))
		for i, p := range t.ptrs {
			if p != nil {
				t.pm[p] = t.senders[i]
			}
		}
	case t.pm != nil && p != nil:
		t.pm[p] = s
	}
}

func (t *portTable) get(k sim.Port) *fabric.Sender {
	p, ok := k.(*fabric.Port)
	if !ok || p == nil {
		return t.table.get(k)
	}
	if t.pm != nil {
		return t.pm[p]
	}
	for i := len(t.ptrs) - 1; i >= 0; i-- {
		if t.ptrs[i] == p {
			return t.senders[i]
		}
	}
	return nil
}

const mapAbove = 8

// put sets the sender for k; a later put for k takes its place.
func (t *table[K]) put(k K, s *fabric.Sender) {
	t.keys, t.senders = append(t.keys, k), append(t.senders, s)
	if t.m == nil && len(t.keys) > mapAbove {
		t.m = make(map[K]*fabric.Sender, len(t.keys))
		for i, k := range t.keys {
			t.m[k] = t.senders[i]
		}
	} else if t.m != nil {
		t.m[k] = s
	}
}

// get is the sender last put for k, nil if none.
func (t *table[K]) get(k K) *fabric.Sender {
	if t.m != nil {
		return t.m[k]
	}
	for i := len(t.keys) - 1; i >= 0; i-- {
		if t.keys[i] == k {
			return t.senders[i]
		}
	}
	return nil
}
