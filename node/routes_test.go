package node

import (
	"strconv"
	"strings"
	"testing"

	"github.com/akisim/akisim/trace"
)

// storeTo runs a kernel on GCD 0 that stores 64 MiB into HBM of GCD dst
// over 512 workgroups (every CU takes part) and returns the packets each
// bundle carried, both directions, by GCD pair.
func storeTo(t *testing.T, dst int, sets ...string) map[[2]int]uint64 {
	t.Helper()
	n := build(t, "frontier-node.toml", sets...)
	in := `{"op":"malloc","buf":"b","gcd":` + strconv.Itoa(dst) + `,"bytes":67108864}
{"op":"kernel","name":"store","gcd":0,"stream":1,"grid":131072,"workgroup":256,"access":[{"buf":"b","mode":"write","bytes":67108864}]}
{"op":"device_sync"}
`
	ops, err := trace.Parse(strings.NewReader(in), "store.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.Run(ops); err != nil {
		t.Fatal(err)
	}
	got := map[[2]int]uint64{}
	for _, b := range n.Config.XGMI.Bundles {
		if x := n.BundleOf[b.GCDs]; x != nil {
			p0, _, _ := x.Stats(0)
			p1, _, _ := x.Stats(1)
			got[b.GCDs] = p0 + p1
		}
	}
	return got
}

// A kernel store to a non-neighbour takes one route by default: of the two
// tied 2-hop routes 0-1-3 and 0-2-3, only the table's (through GCD 1)
// carries packets. Spraying (a what-if) uses both.
func TestKernelStoreTakesOneRoute(t *testing.T) {
	got := storeTo(t, 3)
	if got[[2]int{0, 1}] == 0 || got[[2]int{1, 3}] == 0 {
		t.Errorf("route 0-1-3 carried nothing: %v", got)
	}
	if got[[2]int{0, 2}] != 0 || got[[2]int{2, 3}] != 0 {
		t.Errorf("route 0-2-3 carried packets by default: %v", got)
	}
	for pair, p := range got {
		if p > 0 && pair != [2]int{0, 1} && pair != [2]int{1, 3} {
			t.Errorf("bundle %v off the route carried %d packets", pair, p)
		}
	}
	for _, ties := range []string{"spray", "pin"} {
		got := storeTo(t, 3, "routing.kernel_ties="+ties)
		if got[[2]int{0, 1}] == 0 || got[[2]int{0, 2}] == 0 {
			t.Errorf("kernel_ties=%s: both tied routes should carry packets: %v", ties, got)
		}
	}
}
