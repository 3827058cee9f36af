package mpi

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/akisim/akisim/trace"
)

// Data-flow tests of the collectives' algorithms: dataflow runs a rank's
// lowered ops (before the point-to-point expansion) on bytes that hold
// the set of contributions they carry (a bit mask), ranks side by side:
// copies overwrite, reductions OR, a flag_wait or a receive waits for its
// sender, a send's wait for its receiver. Every byte of every result must
// carry exactly what MPI says.

// bit is the contribution of rank r's block k (block k only matters to
// alltoall).
func bit(r, k int) uint64 { return 1 << (r*8 + k) }

type machine struct {
	t     *testing.T
	mem   map[string][]uint64
	flags map[string]bool
	// messages posted, by (from, to, tag): the sender's data as sent, and
	// whether the receive has taken it
	sends map[[3]int][]*sentMsg
	recvs map[[3]int]int // receives done per key
}

type sentMsg struct {
	data  []uint64
	taken bool
}

func (m *machine) span(buf string, off, n int64) []uint64 {
	b, ok := m.mem[buf]
	if !ok || off+n > int64(len(b)) {
		m.t.Fatalf("access to %q [%d, %d) outside its %d bytes", buf, off, off+n, len(b))
	}
	return b[off : off+n]
}

// dataflow runs ops (lowered, per rank in order) to the end.
func dataflow(t *testing.T, ops []trace.Op, init func(m *machine)) *machine {
	t.Helper()
	m := &machine{t: t, mem: map[string][]uint64{}, flags: map[string]bool{}, sends: map[[3]int][]*sentMsg{}, recvs: map[[3]int]int{}}
	prog := map[int][]trace.Op{}
	var ranks []int
	for _, o := range ops {
		if _, ok := prog[o.Rank]; !ok {
			ranks = append(ranks, o.Rank)
		}
		prog[o.Rank] = append(prog[o.Rank], o)
	}
	pc := map[int]int{}
	reqs := map[string]trace.Op{} // rank.req -> its call
	posted := map[string]*sentMsg{}
	for _, r := range ranks { // the program's own buffers first, then their contents
		for ; pc[r] < len(prog[r]) && prog[r][pc[r]].Op == trace.Malloc && !strings.HasPrefix(prog[r][pc[r]].Buf, "mpi."); pc[r]++ {
			m.step(prog[r][pc[r]], reqs, posted)
		}
	}
	init(m)
	for {
		progress, done := false, true
		for _, r := range ranks {
			for pc[r] < len(prog[r]) {
				o := prog[r][pc[r]]
				if !m.step(o, reqs, posted) {
					break
				}
				pc[r]++
				progress = true
			}
			if pc[r] < len(prog[r]) {
				done = false
			}
		}
		if done {
			return m
		}
		if !progress {
			var at []string
			for _, r := range ranks {
				if pc[r] < len(prog[r]) {
					at = append(at, fmt.Sprintf("rank %d at %+v", r, prog[r][pc[r]]))
				}
			}
			t.Fatalf("deadlock: %s", strings.Join(at, "; "))
		}
	}
}

// step runs o if it can (false: it waits).
func (m *machine) step(o trace.Op, reqs map[string]trace.Op, posted map[string]*sentMsg) bool {
	switch o.Op {
	case trace.Malloc, trace.HostMalloc:
		m.mem[o.Buf] = make([]uint64, o.Bytes)
	case trace.Memcpy:
		copy(m.span(o.Dst, o.DstOff, o.Bytes), m.span(o.Src, o.SrcOff, o.Bytes))
	case trace.HostAccess, trace.Kernel, trace.HostCompute: // a host_compute's access: the CPU's work in its caches
		a := o.Access
		switch {
		case len(a) == 0 && o.Op == trace.HostCompute: // host time alone
		case len(a) == 1 && a[0].Mode == "read": // a load whose use a host_compute makes
		case len(a) == 2 || o.Name == "mpi_pack": // copies, read then write
			var got [][]uint64
			for i := 0; i < len(a); i += 2 {
				got = append(got, slices.Clone(m.span(a[i].Buf, a[i].Offset, a[i].Bytes)))
			}
			for i := 0; i < len(a); i += 2 {
				copy(m.span(a[i+1].Buf, a[i+1].Offset, a[i+1].Bytes), got[i/2])
			}
		case len(a) == 3: // acc |= in
			in, acc := m.span(a[0].Buf, a[0].Offset, a[0].Bytes), m.span(a[2].Buf, a[2].Offset, a[2].Bytes)
			for i := range acc {
				acc[i] |= in[i]
			}
		default:
			m.t.Fatalf("unexpected access list %+v", a)
		}
	case trace.FlagSet:
		m.flags[o.Flag] = true
	case trace.FlagWait:
		return m.flags[o.Flag]
	case trace.MPIIsend:
		k := [3]int{o.Rank, *o.Peer, o.Tag}
		msg := &sentMsg{data: slices.Clone(m.span(o.Buf, o.SrcOff, o.Bytes))}
		m.sends[k] = append(m.sends[k], msg)
		reqs[fmt.Sprint(o.Rank, ".", o.Req)] = o
		posted[fmt.Sprint(o.Rank, ".", o.Req)] = msg
	case trace.MPIIrecv:
		reqs[fmt.Sprint(o.Rank, ".", o.Req)] = o
	case waitReqs:
		// receives first: each takes its message once the sender posted it
		for _, req := range strings.Split(o.Req, ",") {
			c := reqs[fmt.Sprint(o.Rank, ".", req)]
			if c.Op != trace.MPIIrecv {
				continue
			}
			k := [3]int{*c.Peer, c.Rank, c.Tag}
			if _, done := posted[fmt.Sprint(c.Rank, ".", req)]; done {
				continue // taken on an earlier try of this wait
			}
			q := m.sends[k]
			if len(q) <= m.recvs[k] {
				return false
			}
			msg := q[m.recvs[k]]
			if int64(len(msg.data)) != c.Bytes {
				m.t.Fatalf("message %v of %d bytes received as %d", k, len(msg.data), c.Bytes)
			}
			copy(m.span(c.Buf, c.DstOff, c.Bytes), msg.data)
			msg.taken = true
			m.recvs[k]++
			posted[fmt.Sprint(c.Rank, ".", req)] = msg
		}
		for _, req := range strings.Split(o.Req, ",") {
			if c := reqs[fmt.Sprint(o.Rank, ".", req)]; c.Op == trace.MPIIsend && !posted[fmt.Sprint(o.Rank, ".", req)].taken {
				return false
			}
		}
	}
	return true
}

// collTrace is n ranks, rank r on GCD r with buffers s<r> and d<r> of
// sbytes and dbytes, each making call (its fields filled per rank) twice.
func collTrace(n int, sbytes, dbytes int64, call func(r int) trace.Op) []trace.Op {
	var ops []trace.Op
	for r := 0; r < n; r++ {
		g := r
		ops = append(ops, trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("s%d", r), GCD: &g, Bytes: sbytes, Rank: r},
			trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("d%d", r), GCD: &g, Bytes: dbytes, Rank: r})
		for range 2 {
			c := call(r)
			c.Rank = r
			ops = append(ops, c)
		}
	}
	return ops
}

var testParams = Params{IPC: true, IPCThreshold: 1024, IPCCache: 50, VSMsgCutoff: 4096, Coll: Thresholds{ReduceShort: 2048, AllreduceShort: 8, AllreduceMaxSMP: 262144, BcastRadix: 4, ReduceScatterLong: 524288, AllgatherLong: 524288, AllgatherShort: 81920, AlltoallShort: 256, AlltoallMedium: 32768}, PostNs: 1000, IPCOpenNs: 50000, NUMA: []int{3, 3, 1, 1, 0, 0, 2, 2}}

// runColl lowers ops and runs their data flow with rank r's s<r> holding
// fill(r, byte).
func runColl(t *testing.T, ops []trace.Op, p Params, fill func(r int, i int64) uint64) *machine {
	t.Helper()
	low := lower(ops, p, "mpi.")
	return dataflow(t, low, func(m *machine) {
		for name, b := range m.mem {
			var r int
			if _, err := fmt.Sscanf(name, "s%d", &r); err == nil {
				for i := range b {
					b[i] = fill(r, int64(i))
				}
			}
		}
	})
}

// want fails unless every byte of buf [off, off+n) is exactly v.
func want(t *testing.T, m *machine, buf string, off, n int64, v uint64, what string) {
	t.Helper()
	for i, x := range m.span(buf, off, n) {
		if x != v {
			t.Fatalf("%s: %s byte %d holds %b, want %b", what, buf, off+int64(i), x, v)
		}
	}
}

func all(n int) uint64 {
	var v uint64
	for r := 0; r < n; r++ {
		v |= bit(r, 0)
	}
	return v
}

// Sizes that reach every algorithm MPICH selects (coll.go's thresholds),
// on every rank count 2..8.
func TestCollectiveDataFlow(t *testing.T) {
	own := func(r int, _ int64) uint64 { return bit(r, 0) }
	for n := 2; n <= 8; n++ {
		for _, size := range []int64{1, 8, 100, 3000, 300000, testParams.Coll.ReduceScatterLong} {
			name := fmt.Sprintf("n%d/%d", n, size)
			t.Run("allreduce/"+name, func(t *testing.T) {
				// host, GPU whole, GPU in three blocks (the last one short)
				for _, blk := range []int64{-1, 0, size/3 + 1} {
					p := testParams
					p.AllreduceKernel, p.AllreduceBlock = blk >= 0, blk
					m := runColl(t, collTrace(n, size, size, func(r int) trace.Op {
						return trace.Op{Op: trace.MPIAllreduce, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: size}
					}), p, own)
					for r := 0; r < n; r++ {
						want(t, m, fmt.Sprintf("d%d", r), 0, size, all(n), fmt.Sprintf("block %d", blk))
					}
				}
			})
			t.Run("reduce/"+name, func(t *testing.T) {
				for _, root := range []int{0, n - 1 - n%2} { // even and odd roots, in the fold or not
					m := runColl(t, collTrace(n, size, size, func(r int) trace.Op {
						return trace.Op{Op: trace.MPIReduce, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: size, Root: &root}
					}), testParams, own)
					want(t, m, fmt.Sprintf("d%d", root), 0, size, all(n), fmt.Sprintf("root %d", root))
					for r := 0; r < n; r++ {
						if r != root {
							want(t, m, fmt.Sprintf("d%d", r), 0, size, 0, "not the root")
						}
					}
				}
			})
			t.Run("reduce_scatter/"+name, func(t *testing.T) {
				m := runColl(t, collTrace(n, size, size, func(r int) trace.Op {
					return trace.Op{Op: trace.MPIReduceScatter, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: size}
				}), testParams, own)
				for r := 0; r < n; r++ {
					k := trace.ReduceScatterBlock(size, n, r)
					want(t, m, fmt.Sprintf("d%d", r), 0, k, all(n), "block")
					want(t, m, fmt.Sprintf("d%d", r), k, size-k, 0, "past the block")
				}
			})
			t.Run("bcast/"+name, func(t *testing.T) {
				root := n / 2
				m := runColl(t, collTrace(n, size, size, func(r int) trace.Op {
					return trace.Op{Op: trace.MPIBcast, Buf: fmt.Sprintf("s%d", r), Bytes: size, Root: &root}
				}), testParams, func(r int, _ int64) uint64 {
					if r == root {
						return bit(r, 0)
					}
					return 0
				})
				for r := 0; r < n; r++ {
					want(t, m, fmt.Sprintf("s%d", r), 0, size, bit(root, 0), "bcast")
				}
			})
			if size > 300000 {
				continue // n blocks of it: the smaller sizes already reach every algorithm
			}
			t.Run("allgather/"+name, func(t *testing.T) {
				m := runColl(t, collTrace(n, size, size*int64(n), func(r int) trace.Op {
					return trace.Op{Op: trace.MPIAllgather, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: size}
				}), testParams, own)
				for r := 0; r < n; r++ {
					for j := 0; j < n; j++ {
						want(t, m, fmt.Sprintf("d%d", r), int64(j)*size, size, bit(j, 0), fmt.Sprintf("block %d", j))
					}
				}
			})
			t.Run("alltoall/"+name, func(t *testing.T) {
				m := runColl(t, collTrace(n, size*int64(n), size*int64(n), func(r int) trace.Op {
					return trace.Op{Op: trace.MPIAlltoall, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: size}
				}), testParams, func(r int, i int64) uint64 { return bit(r, int(i/size)) })
				for r := 0; r < n; r++ {
					for j := 0; j < n; j++ {
						want(t, m, fmt.Sprintf("d%d", r), int64(j)*size, size, bit(j, r), fmt.Sprintf("block %d", j))
					}
				}
			})
		}
	}
}

// The algorithm each call runs, by MPICH's selection.
func TestCollectiveSelection(t *testing.T) {
	b := func(kind trace.Kind, n int, bytes int64) *builder {
		return &builder{l: &lowering{p: testParams}, call: &trace.Op{Op: kind, Bytes: bytes}, n: n, bytes: bytes}
	}
	for _, c := range []struct {
		b    *builder
		f    func(*builder) string
		want string
	}{
		{b(trace.MPIAllgather, 8, 65535), (*builder).allgatherAlgo, "recursive doubling"},
		{b(trace.MPIAllgather, 8, 65536), (*builder).allgatherAlgo, "ring"},
		{b(trace.MPIAllgather, 6, 13653), (*builder).allgatherAlgo, "bruck"},
		{b(trace.MPIAllgather, 6, 13654), (*builder).allgatherAlgo, "ring"},
		{b(trace.MPIAlltoall, 8, 256), (*builder).alltoallAlgo, "bruck"},
		{b(trace.MPIAlltoall, 7, 256), (*builder).alltoallAlgo, "scattered"},
		{b(trace.MPIAlltoall, 8, 32768), (*builder).alltoallAlgo, "scattered"},
		{b(trace.MPIAlltoall, 8, 32769), (*builder).alltoallAlgo, "pairwise"},
	} {
		if got := c.f(c.b); got != c.want {
			t.Errorf("%s on %d ranks of %d bytes: %s, want %s", c.b.call.Op, c.b.n, c.b.call.Bytes, got, c.want)
		}
	}
}

// What each rank's call turns into at 1 MiB on 4 ranks: reductions stage
// in host memory (one copy down, one back where a result lands) and
// reduce on the CPU; the others move device data only; a barrier is
// flags alone.
func TestCollectiveShapes(t *testing.T) {
	const mib = 1 << 20
	count := func(ops []trace.Op, rank int, f func(o trace.Op) bool) int {
		k := 0
		for _, o := range ops {
			if o.Rank == rank && f(o) {
				k++
			}
		}
		return k
	}
	d2h := func(o trace.Op) bool { return o.Op == trace.Memcpy && strings.HasPrefix(o.Dst, "mpi.h") }
	h2d := func(o trace.Op) bool { return o.Op == trace.Memcpy && strings.HasPrefix(o.Src, "mpi.h") }
	cpuReduce := func(o trace.Op) bool { return o.Op == trace.HostAccess && len(o.Access) == 3 }
	sends := func(o trace.Op) bool { return o.Op == trace.MPIIsend }
	root := 0
	for _, c := range []struct {
		kind                    trace.Kind
		rank                    int
		d2h, h2d, reduce, isend int
		sbytes, dbytes          int64
		dst                     string
	}{
		// Rabenseifner on 4: 2 halving steps, each reducing on the CPU
		{trace.MPIAllreduce, 1, 1, 1, 2, 0, mib, mib, "d"},
		// reduce-scatter + gather: rank 1 sends its piece up and is done
		{trace.MPIReduce, 1, 1, 0, 2, 0, mib, mib, "d"},
		{trace.MPIReduce, 0, 1, 1, 2, 0, mib, mib, "d"},
		// pairwise: 3 exchanges, 3 reductions
		{trace.MPIReduceScatter, 2, 1, 1, 3, 0, mib, mib, "d"},
		// radix-4 tree: the root sends to its 3 children
		{trace.MPIBcast, 0, 0, 0, 0, 3, mib, mib, ""},
		{trace.MPIBcast, 3, 0, 0, 0, 0, mib, mib, ""},
		// ring (4 MiB in all): 3 steps
		{trace.MPIAllgather, 2, 0, 0, 0, 3, mib, 4 * mib, "d"},
		// pairwise: 3 steps
		{trace.MPIAlltoall, 2, 0, 0, 0, 3, 4 * mib, 4 * mib, "d"},
	} {
		ops := lower(collTrace(4, c.sbytes, c.dbytes, func(r int) trace.Op {
			o := trace.Op{Op: c.kind, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: mib, Root: &root}
			if c.kind == trace.MPIBcast {
				o.Src, o.Dst, o.Buf = "", "", fmt.Sprintf("s%d", r)
			}
			if c.kind != trace.MPIBcast && c.kind != trace.MPIReduce {
				o.Root = nil
			}
			return o
		}), testParams, "mpi.")
		got := [4]int{count(ops, c.rank, d2h), count(ops, c.rank, h2d), count(ops, c.rank, cpuReduce), count(ops, c.rank, sends)}
		if w := [4]int{2 * c.d2h, 2 * c.h2d, 2 * c.reduce, 2 * c.isend}; got != w { // the call is made twice
			t.Errorf("%s rank %d: staging down, back, CPU reductions, sends = %v, want %v", c.kind, c.rank, got, w)
		}
	}
	ops := lower(collTrace(4, 8, 8, func(int) trace.Op { return trace.Op{Op: trace.MPIBarrier} }), testParams, "mpi.")
	for _, o := range ops {
		if o.Op != trace.Malloc && o.Op != trace.FlagSet && o.Op != trace.FlagWait && o.Op != trace.HostCompute {
			t.Errorf("barrier makes %s", o.Op)
		}
	}
}

// A collective's own waits leave the program's pending requests alone:
// rank 0's send started before an allgather is completed by its mpi_wait
// after it, not inside the collective (as mpi_waitall would).
func TestCollectiveLeavesProgramRequests(t *testing.T) {
	g0, g1 := 0, 1
	peer0, peer1 := 0, 1
	ops := []trace.Op{
		{Op: trace.Malloc, Buf: "a", GCD: &g0, Bytes: 8192, Line: 1},
		{Op: trace.Malloc, Buf: "b", GCD: &g1, Bytes: 8192, Rank: 1, Line: 2},
		{Op: trace.MPIIsend, Buf: "a", Bytes: 4096, Peer: &peer1, Tag: 5, Req: "x", Line: 3},
		{Op: trace.MPIAllgather, Src: "a", Dst: "a", Bytes: 4096, Line: 4},
		{Op: trace.MPIAllgather, Src: "b", Dst: "b", Bytes: 4096, Rank: 1, Line: 5},
		{Op: trace.MPIRecv, Buf: "b", Bytes: 4096, Peer: &peer0, Tag: 5, Rank: 1, Line: 6},
		{Op: trace.MPIWait, Req: "x", Line: 7},
	}
	var waits []int // lines where rank 0 waits for a receiver to finish
	x := Expand(ops, testParams)
	own := map[string]bool{} // the fin flags of rank 0's own receives: its copies set them (its CPU copies by set_flag)
	for _, o := range x {
		if o.Rank == 0 && o.SetFlag != "" {
			own[o.SetFlag] = true
		}
		if o.Rank == 0 && o.Op == trace.FlagSet {
			own[o.Flag] = true
		}
	}
	for _, o := range x {
		if o.Rank == 0 && o.Op == trace.FlagWait && strings.HasSuffix(o.Flag, ".fin") && !own[o.Flag] {
			waits = append(waits, o.Line)
		}
	}
	if !slices.Equal(waits, []int{4, 7}) {
		t.Errorf("rank 0 waits for its sends' completion on lines %v, want [4 7] (the allgather's, then its mpi_wait's)", waits)
	}
}

// Up to GTL_HSA_VSMSG_CUTOFF_SIZE a reduction stages with the CPU's loads and stores
// through the host mapping, not with hipMemcpy; above it with hipMemcpy.
func TestSmallReductionsStageByCPU(t *testing.T) {
	for _, c := range []struct {
		bytes  int64
		copies int
	}{{8, 0}, {testParams.VSMsgCutoff, 0}, {testParams.VSMsgCutoff + 1, 2}} {
		ops := lower(collTrace(2, c.bytes, c.bytes, func(r int) trace.Op {
			return trace.Op{Op: trace.MPIAllreduce, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: c.bytes}
		}), testParams, "mpi.")
		copies, loads := 0, 0
		for _, o := range ops {
			if o.Rank != 0 {
				continue
			}
			switch {
			case o.Op == trace.Memcpy:
				copies++
			case o.Op == trace.HostAccess && o.Access[0].Buf == "s0":
				loads++
			}
		}
		if copies != 2*c.copies || loads != 2*(1-c.copies/2) { // the call is made twice
			t.Errorf("%d B: %d hipMemcpy, %d CPU loads of the send buffer; want %d and %d", c.bytes, copies, loads, 2*c.copies, 2*(1-c.copies/2))
		}
	}
}

// With the kernel on, MPI_Allreduce stays on the host below
// MPICH_GPU_ALLREDUCE_KERNEL_THRESHOLD and reduces on the GPU from it on.
func TestAllreduceKernelThreshold(t *testing.T) {
	p := testParams
	p.AllreduceKernel, p.AllreduceKernelThreshold = true, 131072
	for _, c := range []struct {
		bytes  int64
		staged bool
	}{{8, true}, {131071, true}, {131072, false}, {1 << 30, false}} {
		b := &builder{l: &lowering{p: p}, call: &trace.Op{Op: trace.MPIAllreduce, Bytes: c.bytes}, n: 8, bytes: c.bytes}
		if b.staged() != c.staged {
			t.Errorf("%d B: staged %v, want %v", c.bytes, b.staged(), c.staged)
		}
	}
	p.AllreduceKernel = false
	if b := (&builder{l: &lowering{p: p}, call: &trace.Op{Op: trace.MPIAllreduce, Bytes: 1 << 30}, n: 8}); !b.staged() {
		t.Error("kernel off: 1 GiB not staged")
	}
}

// The GPU allreduce runs its algorithm once per MPICH_GPU_ALLREDUCE_BLK_SIZE
// block: a rank's sends cover the blocks in order, k blocks make k times
// the messages of one.
func TestAllreduceBlocks(t *testing.T) {
	const n, size = 4, 1 << 20
	sends := func(blk int64) []trace.Op {
		p := testParams
		p.AllreduceKernel, p.AllreduceBlock = true, blk
		var s []trace.Op
		for _, o := range lower(collTrace(n, size, size, func(r int) trace.Op {
			return trace.Op{Op: trace.MPIAllreduce, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: size}
		}), p, "mpi.") {
			if o.Op == trace.MPIIsend && o.Rank == 0 {
				s = append(s, o)
			}
		}
		return s
	}
	whole, four := sends(size), sends(size/4) // collTrace makes the call twice
	if len(whole) == 0 || len(four) != 4*len(whole) {
		t.Fatalf("rank 0 sends %d messages in 4 blocks, %d whole; want 4x", len(four), len(whole))
	}
	per := len(whole) / 2 // a block's sends in one call
	for i, o := range four {
		k := int64(i/per) % 4
		lo, hi := k*size/4, (k+1)*size/4
		if o.SrcOff < lo || o.SrcOff+o.Bytes > hi {
			t.Errorf("send %d: [%d, %d) outside block [%d, %d)", i, o.SrcOff, o.SrcOff+o.Bytes, lo, hi)
		}
	}
	if got := sends(0); len(got) != len(whole) { // Params from Go: 0 is the whole message
		t.Errorf("block 0: %d sends, want %d", len(got), len(whole))
	}
}

// MPICH_BCAST_INTRANODE_RADIX shapes the bcast tree: rank 7 of 8 receives
// from rank 1 with radix 4 ((7-1)/4) and from rank 3 with radix 2, and
// every rank ends with the root's data either way.
func TestBcastRadix(t *testing.T) {
	root := 0
	for _, c := range []struct{ radix, parent int }{{4, 1}, {2, 3}, {7, 0}} {
		p := testParams
		p.Coll.BcastRadix = c.radix
		ops := collTrace(8, 1<<20, 0, func(r int) trace.Op {
			return trace.Op{Op: trace.MPIBcast, Buf: fmt.Sprintf("s%d", r), Bytes: 1 << 20, Root: &root}
		})
		var from []int
		for _, o := range lower(ops, p, "mpi.") {
			if o.Rank == 7 && o.Op == trace.MPIIrecv {
				from = append(from, *o.Peer)
			}
		}
		if len(from) != 2 || from[0] != c.parent || from[1] != c.parent { // the call is made twice
			t.Errorf("radix %d: rank 7 receives from %v, want rank %d twice", c.radix, from, c.parent)
		}
		m := runColl(t, ops, p, func(r int, _ int64) uint64 { return bit(r, 0) })
		for r := 0; r < 8; r++ {
			want(t, m, fmt.Sprintf("s%d", r), 0, 1<<20, bit(root, 0), fmt.Sprintf("radix %d", c.radix))
		}
	}
}

// Across nodes the host allreduce is MPICH's SMP composition: every rank
// ends with every contribution on 2..8 ranks of 1, 2 or 3 ranks a node
// (the nodes' first ranks folding in where they are not a power of two),
// and only the nodes' first ranks send across nodes.
func TestSMPAllreduceAcrossNodes(t *testing.T) {
	own := func(r int, _ int64) uint64 { return bit(r, 0) }
	for n := 2; n <= 8; n++ {
		for _, perNode := range []int{1, 2, 3} {
			for _, size := range []int64{100, 3000, 200000} { // all below MPICH_ALLREDUCE_MAX_SMP_SIZE
				p := testParams
				p.Net.GCDsPerNode = perNode
				ops := allreduceTrace(n, size)
				m := runColl(t, ops, p, own)
				for r := 0; r < n; r++ {
					want(t, m, fmt.Sprintf("d%d", r), 0, size, all(n), fmt.Sprintf("n%d, %d a node, %d B", n, perNode, size))
				}
				for _, o := range lower(ops, p, "mpi.") {
					if o.Op == trace.MPIIsend && o.Peer != nil && o.Rank/perNode != *o.Peer/perNode && o.Rank%perNode != 0 {
						t.Errorf("n%d, %d a node, %d B: rank %d, not its node's first, sends to rank %d on another node", n, perNode, size, o.Rank, *o.Peer)
					}
				}
			}
		}
	}
}
