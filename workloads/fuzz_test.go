package workloads

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// fuzzBytes hands out the fuzzer's bytes; past the end it gives zeros.
type fuzzBytes []byte

func (b *fuzzBytes) byte() int {
	if len(*b) == 0 {
		return 0
	}
	v := (*b)[0]
	*b = (*b)[1:]
	return int(v)
}

// upTo returns a value in 0..n-1 from two bytes.
func (b *fuzzBytes) upTo(n int64) int64 { return int64(b.byte()<<8|b.byte()) * n >> 16 }

// size returns a size in 1..max, small ones as likely as large ones.
func (b *fuzzBytes) size(max int64) int64 {
	shift := b.byte() % 21 // up to 1 MiB
	return min(max, 1+b.upTo(int64(1)<<shift))
}

// fuzzVariants are the node configs FuzzSimulate runs on besides
// Frontier's defaults: no L2, other route policies, the finest simulation
// granularity, a single CU and core.
var fuzzVariants = [][]string{
	nil,
	{"gcd.l2_bytes=0"},
	{"routing.kernel=widest", "routing.sdma=fewest", "routing.kernel_ties=pin"},
	{"sim.sdma_transaction_bytes=4096", "sim.cu_transaction_bytes=4096", "sim.core_transaction_bytes=4096", "sim.l2_block_bytes=4096"},
	{"gcd.compute_units=1", "host.cores=1", "sdma.queues_per_engine=1"},
	{"env.NCCL_PROTO=LL", "env.NCCL_MAX_NCHANNELS=3", "gcd.concurrent_kernels=1"},
	{"env.NCCL_PROTO=Simple", "env.NCCL_ALGO=Ring", "env.NCCL_BUFFSIZE=65536"},
}

// fuzzTrace builds a small trace from data: up to 6 buffers of at most
// 1 MiB on GCDs or NUMA domains (pinned or pageable), then up to 24 copies, kernels, host
// accesses, events and synchronisations over them. The values are mostly
// valid, so that most traces pass Check, but may be off by a little (a
// copy past its buffer, an unrecorded event), for Check to refuse.
// The sets returned choose the config: a variant and the environment.
func fuzzTrace(data []byte) (ops []trace.Op, sets []string) {
	b := fuzzBytes(data)
	e := b.byte()
	sets = append(sets, fuzzVariants[e>>2%len(fuzzVariants)]...)
	if e&3 != 0 {
		sets = append(sets, fmt.Sprintf("env.HSA_ENABLE_SDMA=%d", e&1), fmt.Sprintf("env.HSA_ENABLE_PEER_SDMA=%d", e>>1&1))
	}
	var sizes []int64
	var host []bool
	for i := range 1 + b.byte()%6 {
		n := b.size(1 << 20)
		sizes = append(sizes, n)
		name := fmt.Sprint("b", i)
		k := b.byte()
		host = append(host, k%3 == 0)
		if k%3 == 0 {
			o := hostAlloc(name, k/3%4, n)
			if k >= 192 { // a quarter of host buffers are pageable (malloc)
				o.Op = trace.MallocPageable
			}
			ops = append(ops, o)
		} else {
			ops = append(ops, alloc(name, k%8, n))
		}
	}
	pick := func() int { return b.byte() % len(sizes) }
	buf := func() (string, int64) {
		i := pick()
		return fmt.Sprint("b", i), sizes[i]
	}
	var recorded []string
	event := func() string {
		if len(recorded) == 0 || b.byte() == 255 {
			return fmt.Sprint("e", b.byte()%3)
		}
		return recorded[b.byte()%len(recorded)]
	}
	// span picks bytes and an offset inside a buffer of n bytes; a rare
	// one sticks out by a byte.
	span := func(n int64) (bytes, off int64) {
		bytes = b.size(n)
		off = b.upTo(n - bytes + 1)
		if b.byte() == 255 {
			off++
		}
		return bytes, off
	}
	access := func(mode string) trace.Access {
		name, n := buf()
		a := trace.Access{Buf: name, Mode: mode}
		a.Bytes, a.Offset = span(n)
		switch p := b.byte(); p % 4 {
		case 1:
			a.Pattern, a.Stride = "strided", 1+b.upTo(4096)
		case 2:
			a.Pattern = "random"
		}
		if e := b.byte(); e%4 == 0 {
			a.Element = min(a.Bytes, 1+int64(e/4)%16)
		}
		return a
	}
	var waiting []string  // flags of delay kernels not released yet
	var gpuFlags []string // flags kernels set that no kernel waits on yet
	release := func() {
		ops = append(ops, trace.Op{Op: trace.FlagSet, Flag: waiting[0]})
		waiting = waiting[1:]
	}
	for range b.byte() % 25 {
		if len(waiting) > 0 && b.byte()%3 == 0 {
			release()
		}
		stream := b.byte() % 4
		switch b.byte() % 12 {
		case 0, 1:
			i, j := pick(), pick()
			if host[i] && host[j] && b.byte() != 255 {
				continue // host-to-host copies are not modelled
			}
			o := trace.Op{Op: trace.MemcpyAsync, Src: fmt.Sprint("b", i), Dst: fmt.Sprint("b", j), Stream: stream}
			o.Bytes, o.SrcOff = span(min(sizes[i], sizes[j]))
			o.DstOff = b.upTo(sizes[j] - o.Bytes + 1)
			peer := !host[i] && !host[j] || b.byte() == 255
			if k := b.byte() % 4; k == 1 || (k == 3 && !peer) {
				o.Op, o.Stream = trace.Memcpy, 0
			} else if k == 2 && peer {
				o.Op = trace.MemcpyPeerAsy
			} else if k == 3 {
				o.Op, o.Stream = trace.MemcpyPeer, 0
			}
			ops = append(ops, o)
		case 2, 3:
			wg := 1 + b.byte()*4
			o := trace.Op{Op: trace.Kernel, Name: "k", GCD: intp(b.byte() % 8), Stream: stream, Workgroup: wg,
				Grid: int64(wg) * (1 + b.upTo(1<<20)), ComputeNs: float64(b.upTo(100_000))}
			for i := range 1 + b.byte()%3 {
				o.Access = append(o.Access, access([]string{"read", "write"}[i%2]))
			}
			switch f := b.byte(); {
			case f%4 == 0: // a delay kernel, with or without memory
				o.WaitFlag = fmt.Sprint("f", len(ops))
				waiting = append(waiting, o.WaitFlag)
				if f%8 == 0 {
					o.Access = nil
				}
			case f%4 == 1: // a kernel another GCD's kernel waits for (GPU-side flag)
				o.SetFlag = fmt.Sprint("g", len(ops))
				gpuFlags = append(gpuFlags, o.SetFlag)
			case f%4 == 2 && len(gpuFlags) > 0:
				o.WaitFlag, gpuFlags = gpuFlags[0], gpuFlags[1:]
			}
			ops = append(ops, o)
		case 4:
			ops = append(ops, trace.Op{Op: trace.HostAccess, NUMA: intp(b.byte() % 4), Threads: 1 + b.byte()%16,
				Access: []trace.Access{access([]string{"write", "read"}[b.byte()%2])}})
		case 7:
			if len(recorded) > 0 {
				ops = append(ops, trace.Op{Op: trace.StreamWait, Stream: stream, Event: event()})
				continue
			}
			fallthrough // nothing recorded yet: record first
		case 5, 6:
			e := fmt.Sprint("e", b.byte()%3)
			recorded = append(recorded, e)
			ops = append(ops, record(e, stream))
		case 8:
			ops = append(ops, trace.Op{Op: trace.EventSync, Event: event()})
		case 11: // an RCCL collective rank 0 makes over 2 or 3 GCDs of its own buffers, or an MPI one
			if b.byte()%3 == 0 {
				ops = append(ops, fuzzMPICollective(&b, len(ops))...)
				continue
			}
			ops = append(ops, fuzzCollective(&b, len(ops))...)
		case 10: // an MPI message from rank 0's device buffer to one rank 1 allocates for it
			i := pick()
			if host[i] {
				continue
			}
			n := b.size(sizes[i])
			tag := b.byte() % 3
			k := len(ops)
			m := fmt.Sprint("m", k) // rank 1's own buffer
			ops = append(ops, trace.Op{Op: trace.Malloc, Buf: m, GCD: intp(b.byte() % 8), Bytes: n, Rank: 1})
			if b.byte()%4 == 0 { // an exchange: each rank sends its buffer and receives into it
				ops = append(ops,
					trace.Op{Op: trace.MPISendrecv, Src: fmt.Sprint("b", i), Dst: fmt.Sprint("b", i), Bytes: n, Peer: intp(1), Tag: tag},
					trace.Op{Op: trace.MPISendrecv, Src: m, Dst: m, Bytes: n, Peer: intp(0), Tag: tag, Rank: 1})
				continue
			}
			ops = append(ops,
				trace.Op{Op: trace.MPIIsend, Buf: fmt.Sprint("b", i), Bytes: n, Peer: intp(1), Tag: tag, Req: fmt.Sprint("s", k)},
				trace.Op{Op: trace.MPIIrecv, Buf: m, Bytes: n, Peer: intp(0), Tag: tag, Req: fmt.Sprint("r", k), Rank: 1})
			if b.byte()%2 == 0 {
				ops = append(ops, trace.Op{Op: trace.MPIWait, Req: fmt.Sprint("s", k)}, trace.Op{Op: trace.MPIWaitall, Rank: 1})
			} else {
				ops = append(ops, trace.Op{Op: trace.MPIWaitall, Rank: 1}, trace.Op{Op: trace.MPIWaitall})
			}
		default:
			if stream%2 == 0 {
				ops = append(ops, trace.Op{Op: trace.StreamSync, Stream: stream})
			} else {
				ops = append(ops, trace.Op{Op: trace.DeviceSync})
			}
		}
	}
	for len(waiting) > 0 && b.byte() != 255 { // rarely a flag is never set
		release()
	}
	return ops, sets
}

// FuzzSimulate: every trace trace.Check accepts simulates without a
// panic, a hang or an error, and gives finite, ordered times.
func FuzzSimulate(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 2, 20, 255, 255, 1, 20, 0, 0, 2, 3, 1, 0, 0, 0, 0, 1, 0, 255, 255, 255, 255})
	f.Add([]byte("\x01\x05kernel copy host access event sync, a longer seed that makes more ops \xff\xfe\x80"))
	f.Add([]byte("\x03\x02\x14\xff\xff\x03\x14\x00\x00\x06\x0c\x01\x02\x03\x04\x05\x06\x07\x08\x09"))
	var mu sync.Mutex
	nodes := map[string]*config.Node{} // by their sets: loading costs more than a small run
	f.Fuzz(func(t *testing.T, data []byte) {
		ops, env := fuzzTrace(data)
		mu.Lock()
		c, ok := nodes[strings.Join(env, " ")]
		if !ok {
			c = frontier(t, env...)
			nodes[strings.Join(env, " ")] = c
		}
		mu.Unlock()
		tr := TraceRun("fuzz.jsonl", ops)
		if job.Check(c, []job.Run{tr}) != nil {
			return
		}
		type outcome struct {
			res *run.Result
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			res, err := run.Execute(c, []job.Run{tr})
			done <- outcome{res, err}
		}()
		var o outcome
		select {
		case o = <-done:
		case <-time.After(time.Minute):
			t.Fatalf("simulation hangs (%s)", fuzzDump(ops, env))
		}
		var te *trace.Error
		if errors.As(o.err, &te) && (strings.Contains(te.Msg, "never returns") || strings.Contains(te.Msg, "never completes")) {
			return // a deadlock (e.g. a kernel waiting on a flag that a kernel queued behind it sets): a clear error at its line
		}
		if o.err != nil {
			t.Fatalf("accepted trace fails: %v (%s)", o.err, fuzzDump(ops, env))
		}
		if o.res.Events > 50_000_000 {
			t.Fatalf("%d events for a small trace (%s)", o.res.Events, fuzzDump(ops, env))
		}
		start := map[string]float64{}
		for _, r := range o.res.Rows {
			if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) || r.Value < 0 {
				t.Fatalf("row %+v (%s)", r, fuzzDump(ops, env))
			}
			switch r.Metric {
			case "start":
				start[r.Case] = r.Value
			case "end":
				if r.Value < start[r.Case] {
					t.Fatalf("%s ends at %g us before it starts at %g us (%s)", r.Case, r.Value, start[r.Case], fuzzDump(ops, env))
				}
			}
		}
	})
}

// fuzzDump is a failing trace as trace lines, for the report.
func fuzzDump(ops []trace.Op, env []string) string {
	var w strings.Builder
	_ = trace.Write(&w, ops)
	return fmt.Sprintf("env %v, trace:\n%s", env, w.String())
}

// fuzzCollective is an RCCL communicator over 2 or 3 distinct GCDs, each
// with a send and a receive buffer, and one collective (or a send and its
// receive) called for every GCD on its own stream; the sizes are mostly
// whole elements per rank, now and then not (for Check to refuse).
func fuzzCollective(b *fuzzBytes, k int) []trace.Op {
	n := 2 + b.byte()%2
	first := b.byte() % 8
	var gcds []int
	for i := range n {
		gcds = append(gcds, (first+i*(1+b.byte()%3))%8)
	}
	kinds := append(append([]trace.Kind{}, trace.RCCLCollectives...), trace.RCCLSend)
	kind := kinds[b.byte()%len(kinds)]
	bytes := 4 * int64(n) * (1 + b.upTo(1<<16))
	if b.byte() == 255 {
		bytes++
	}
	comm := fmt.Sprint("c", k)
	var ops []trace.Op
	for r, g := range gcds {
		ops = append(ops, trace.Op{Op: trace.Malloc, Buf: fmt.Sprint(comm, "s", r), GCD: intp(g), Bytes: bytes},
			trace.Op{Op: trace.Malloc, Buf: fmt.Sprint(comm, "r", r), GCD: intp(g), Bytes: bytes})
	}
	ops = append(ops, trace.Op{Op: trace.RCCLCommInit, Comm: comm, GCDs: gcds})
	root := b.byte() % n
	grouped := b.byte()%2 == 0 // ncclGroupStart/End around the calls, or not
	if grouped {
		ops = append(ops, trace.Op{Op: trace.RCCLGroupStart})
	}
	for r, g := range gcds {
		o := trace.Op{Op: kind, Comm: comm, GCD: intp(g), Src: fmt.Sprint(comm, "s", r), Dst: fmt.Sprint(comm, "r", r),
			Bytes: bytes, Stream: 1 + r}
		if o.Reduces() {
			o.RedOp = "sum"
		}
		if kind == trace.RCCLBroadcast || kind == trace.RCCLReduce {
			o.Root = intp(root)
		}
		if kind == trace.RCCLSend { // a ring of sends and receives
			ops = append(ops,
				trace.Op{Op: trace.RCCLSend, Comm: comm, GCD: intp(g), Buf: o.Src, Bytes: bytes, Peer: intp((r + 1) % n), Stream: 1 + r},
				trace.Op{Op: trace.RCCLRecv, Comm: comm, GCD: intp(g), Buf: o.Dst, Bytes: bytes, Peer: intp((r + n - 1) % n), Stream: 1 + r})
			continue
		}
		ops = append(ops, o)
	}
	if grouped {
		ops = append(ops, trace.Op{Op: trace.RCCLGroupEnd})
	}
	return ops
}

// fuzzMPICollective is an MPI collective of ranks 0 and 1 (every rank of
// the trace: ranks 2.. never appear), each on its own device buffers,
// sized for the collective (alltoall and allgather hold a block per rank),
// now and then with an odd size or root.
func fuzzMPICollective(b *fuzzBytes, k int) []trace.Op {
	kinds := []trace.Kind{trace.MPIBcast, trace.MPIReduce, trace.MPIAllreduce, trace.MPIReduceScatter,
		trace.MPIAllgather, trace.MPIAlltoall, trace.MPIBarrier}
	kind := kinds[b.byte()%len(kinds)]
	n := 1 + b.upTo(1<<18)
	root := b.byte() % 2
	var ops []trace.Op
	for r := range 2 {
		s, d := fmt.Sprint("ms", k, ".", r), fmt.Sprint("md", k, ".", r)
		ops = append(ops, trace.Op{Op: trace.Malloc, Buf: s, GCD: intp(b.byte() % 8), Bytes: 2 * n, Rank: r},
			trace.Op{Op: trace.Malloc, Buf: d, GCD: intp(b.byte() % 8), Bytes: 2 * n, Rank: r})
	}
	for r := range 2 {
		s, d := fmt.Sprint("ms", k, ".", r), fmt.Sprint("md", k, ".", r)
		o := trace.Op{Op: kind, Rank: r}
		switch kind {
		case trace.MPIBarrier:
		case trace.MPIBcast:
			o.Buf, o.Bytes, o.Root = s, n, intp(root)
		case trace.MPIReduce:
			o.Src, o.Dst, o.Bytes, o.Root = s, d, n, intp(root)
		default:
			o.Src, o.Dst, o.Bytes = s, d, n
		}
		ops = append(ops, o)
	}
	return ops
}
