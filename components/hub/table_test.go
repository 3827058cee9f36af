package hub

import (
	"testing"

	"github.com/akisim/akisim/components/fabric"
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
