package workloads

import (
	"errors"
	"strings"
	"testing"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// TestUngroupedSendRecvLargerThanFIFOStalls is FuzzSimulate's crasher: each
// GCD's rccl_send, larger than the FIFO and outside a group, waits for the
// peer's rccl_recv queued behind the peer's own send. The host threads end,
// the kernels never do: the run must fail at the first stuck call, not print
// the calls' return times as results (nor only break -check's invariants).
func TestUngroupedSendRecvLargerThanFIFOStalls(t *testing.T) {
	const jsonl = `{"op":"host_malloc","buf":"b0","numa":0,"bytes":13}
{"op":"malloc","buf":"c1s0","gcd":0,"bytes":133512}
{"op":"malloc","buf":"c1r0","gcd":0,"bytes":133512}
{"op":"malloc","buf":"c1s1","gcd":1,"bytes":133512}
{"op":"malloc","buf":"c1r1","gcd":1,"bytes":133512}
{"op":"rccl_comm_init","comm":"c1","gcds":[0,1]}
{"op":"rccl_send","comm":"c1","gcd":0,"buf":"c1s0","bytes":133512,"datatype":"int8","peer":1,"stream":1}
{"op":"rccl_recv","comm":"c1","gcd":0,"buf":"c1r0","bytes":133512,"datatype":"int8","peer":1,"stream":1}
{"op":"rccl_send","comm":"c1","gcd":1,"buf":"c1s1","bytes":133512,"datatype":"int8","peer":0,"stream":2}
{"op":"rccl_recv","comm":"c1","gcd":1,"buf":"c1r1","bytes":133512,"datatype":"int8","peer":0,"stream":2}
`
	ops, err := trace.Parse(strings.NewReader(jsonl), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tr := TraceRun("t.jsonl", ops)
	for _, fifo := range []struct {
		buffsize string
		stalls   bool
	}{{"65536", true}, {"4194304", false}} { // 4 MiB holds the whole message: both sends finish
		c := frontier(t, "env.NCCL_PROTO=Simple", "env.NCCL_ALGO=Ring", "env.NCCL_BUFFSIZE="+fifo.buffsize,
			"env.HSA_ENABLE_SDMA=1", "env.HSA_ENABLE_PEER_SDMA=1")
		if err := job.Check(c, []job.Run{tr}); err != nil {
			t.Fatalf("NCCL_BUFFSIZE=%s: check: %v", fifo.buffsize, err)
		}
		_, err := run.Execute(c, []job.Run{tr})
		var te *trace.Error
		switch {
		case !fifo.stalls && err != nil:
			t.Errorf("NCCL_BUFFSIZE=%s: %v", fifo.buffsize, err)
		case fifo.stalls && (!errors.As(err, &te) || te.Line != 7 || !strings.Contains(te.Msg, "never completes")):
			t.Errorf("NCCL_BUFFSIZE=%s: err = %v, want a stall at line 7 (the first rccl_send)", fifo.buffsize, err)
		}
	}
}
