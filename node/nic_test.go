package node

import (
	"testing"

	"github.com/akisim/akisim/ir"
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
	ops := []ir.Command{
		{Call: trace.Op{Op: trace.Malloc, Buf: "a", GCD: intp(0), Bytes: bytes}},
		{Call: trace.Op{Op: trace.Malloc, Buf: "b", GCD: intp(8), Bytes: bytes}},
		{Call: trace.Op{Op: trace.MemcpyAsync, Src: "a", Dst: "b", Bytes: bytes, Stream: 1, SetFlag: "done"}, NIC: &nic, RecvNIC: &far, LandFlag: "land"},
		{Call: trace.Op{Op: trace.FlagWait, Flag: "land"}},
		{Call: trace.Op{Op: trace.FlagWait, Flag: "done"}},
	}
	res, err := n.RunCommands(ops)
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

// A NIC reports a transfer when its last byte has gone through, whatever
// the transaction size: the report of a 64 KiB put is as late with one
// transaction as with sixteen, and no earlier than the bytes take on the
// network link.
func TestNICReportsTheLastByte(t *testing.T) {
	const bytes = 64 << 10
	var lands []float64
	for _, txn := range []string{"4096", "65536"} {
		n := build(t, "frontier-node.toml", "network.nodes=2", "sim.nic_transaction_bytes="+txn)
		nic, far := 0, 4
		res, err := n.RunCommands([]ir.Command{
			{Call: trace.Op{Op: trace.Malloc, Buf: "a", GCD: intp(1), Bytes: bytes}},
			{Call: trace.Op{Op: trace.Malloc, Buf: "b", GCD: intp(9), Bytes: bytes}},
			{Call: trace.Op{Op: trace.MemcpyAsync, Src: "a", Dst: "b", Bytes: bytes, Stream: 1}, NIC: &nic, RecvNIC: &far, LandFlag: "land"},
			{Call: trace.Op{Op: trace.FlagWait, Flag: "land"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		lands = append(lands, float64(res[3].End-res[2].Issue))
	}
	if d := lands[1] - lands[0]; d > 1e-9 || d < -1e-9 {
		t.Errorf("put reported after %g s with 4 KiB transactions, %g s with 64 KiB", lands[0], lands[1])
	}
	if wire := float64(bytes) / 25e9; lands[1] < wire {
		t.Errorf("put reported after %g s, before its bytes cross the 25 GB/s link (%g s)", lands[1], wire)
	}
}

// A NIC command starts on a free DMA engine: with two engines, one busy
// with a long put, a put on a third stream, issued once the second
// stream's put is done, takes the idle engine rather than queue behind
// the long one (an engine fixed per stream, in turn, would put it there).
func TestNICCommandTakesAFreeEngine(t *testing.T) {
	n := build(t, "frontier-node.toml", "network.nodes=2", "nic.engines=2")
	nic, far := 0, 4
	const long, short = 8 << 20, 4096
	res, err := n.RunCommands([]ir.Command{
		{Call: trace.Op{Op: trace.Malloc, Buf: "a", GCD: intp(1), Bytes: long}},
		{Call: trace.Op{Op: trace.Malloc, Buf: "b", GCD: intp(9), Bytes: long}},
		{Call: trace.Op{Op: trace.Malloc, Buf: "s", GCD: intp(1), Bytes: short}},
		{Call: trace.Op{Op: trace.Malloc, Buf: "d", GCD: intp(9), Bytes: short}},
		{Call: trace.Op{Op: trace.MemcpyAsync, Src: "a", Dst: "b", Bytes: long, Stream: 1, SetFlag: "long"}, NIC: &nic, RecvNIC: &far},
		{Call: trace.Op{Op: trace.MemcpyAsync, Src: "s", Dst: "d", Bytes: short, Stream: 2, SetFlag: "first"}, NIC: &nic, RecvNIC: &far},
		{Call: trace.Op{Op: trace.FlagWait, Flag: "first"}},
		{Call: trace.Op{Op: trace.MemcpyAsync, Src: "s", Dst: "d", Bytes: short, Stream: 3, SetFlag: "second"}, NIC: &nic, RecvNIC: &far},
		{Call: trace.Op{Op: trace.FlagWait, Flag: "second"}},
		{Call: trace.Op{Op: trace.FlagWait, Flag: "long"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	longEnd, second := res[4].End, res[7]
	if second.End >= longEnd {
		t.Errorf("the third stream's put ended at %g s, after the long put (%g s): it waited for a busy engine", second.End, longEnd)
	}
	if second.Engine == res[4].Engine {
		t.Errorf("the third stream's put ran on %s, the long put's engine", second.Engine)
	}
}
