package node

import (
	"testing"

	"github.com/akisim/akisim/trace"
)

// An RDMA put from node 0 to GCD 8: the receiving NIC takes the data,
// acknowledges it to the sender and writes it into GCD 8's memory itself;
// it reports the transfer (the land flag) once the last byte went through,
// before the sender hears the acknowledgement.
func TestNICPutAcrossNodes(t *testing.T) {
	n := build(t, "frontier-node.toml", "network.nodes=2")
	nic, far := 0, 4
	const bytes = 1 << 20
	ops := []trace.Op{
		{Op: trace.Malloc, Buf: "a", GCD: intp(0), Bytes: bytes},
		{Op: trace.Malloc, Buf: "b", GCD: intp(8), Bytes: bytes},
		{Op: trace.MemcpyAsync, Src: "a", Dst: "b", Bytes: bytes, Stream: 1, NIC: &nic, RecvNIC: &far, LandFlag: "land", SetFlag: "done"},
		{Op: trace.FlagWait, Flag: "land"},
		{Op: trace.FlagWait, Flag: "done"},
	}
	res, err := n.Run(ops)
	if err != nil {
		t.Fatal(err)
	}
	land, done := res[3].End, res[4].End
	if !(land > 0 && land < done) {
		t.Errorf("land flag at %g s, completion at %g s: want the far NIC's report first", land, done)
	}
	if w := n.NICs[far].Writes(); w == 0 {
		t.Error("the receiving NIC wrote nothing into its node")
	}
	if got := n.NICs[nic].Engines[0].BytesCopied; got != bytes {
		t.Errorf("the sending NIC copied %d B, want %d", got, bytes)
	}
	// 1 MiB over one 25 GB/s link: at least 42 us
	if d := float64(done - res[2].Issue); d < float64(bytes)/25e9 {
		t.Errorf("put took %g s, faster than the link", d)
	}
}

func intp(v int) *int { return &v }
