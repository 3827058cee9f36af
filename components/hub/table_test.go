package hub

import (
	"fmt"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// A table answers what a map would: the last sender put for a key, nil
// for keys never put, below and above the size where it keeps a map.
func TestTableIsAMap(t *testing.T) {
	var tb table[int]
	want := map[int]*fabric.Sender{}
	for i := 0; i < 3*mapAbove; i++ {
		k, s := i%(mapAbove+3), &fabric.Sender{}
		tb.put(k, s)
		want[k] = s
		for k := -1; k <= mapAbove+3; k++ {
			if got := tb.get(k); got != want[k] {
				t.Fatalf("after %d puts: get(%d) = %p, want %p", i+1, k, got, want[k])
			}
		}
	}
}

// A table of ports finds the sender of each port, fabric ports by
// pointer and others as interfaces, as a map would.
func TestPortTableIsAMap(t *testing.T) {
	var tb portTable
	want := map[sim.Port]*fabric.Sender{}
	var ports []sim.Port
	for i := 0; i < 2*mapAbove; i++ {
		var p sim.Port = fabric.NewPort(nil, 1, fmt.Sprintf("P[%d]", i))
		if i%3 == 0 {
			p = otherPort{p}
		}
		ports = append(ports, p)
	}
	for i := 0; i < 3*mapAbove; i++ {
		k, s := ports[i%len(ports)], &fabric.Sender{}
		tb.put(k, s)
		want[k] = s
		for _, k := range ports {
			if got := tb.get(k); got != want[k] {
				t.Fatalf("after %d puts: get(%s) = %p, want %p", i+1, k.Name(), got, want[k])
			}
		}
	}
}

// otherPort is a port that is not a fabric.Port.
type otherPort struct{ sim.Port }
