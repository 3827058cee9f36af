package mpi_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/invariant"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/mpi"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/trace"
)

func intp(v int) *int { return &v }

// run checks ops as a trace, expands the MPI calls and runs them on the
// Frontier node (with sets), returning the results and the expanded ops.
func run(t *testing.T, ops []trace.Op, sets ...string) ([]hip.OpResult, []ir.Command, *node.Node) {
	t.Helper()
	c, err := config.Load(filepath.Join("..", "configs", "frontier-node.toml"), sets)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.Check(ops, job.Limits(c), "t.jsonl"); err != nil {
		t.Fatal(err)
	}
	n, err := node.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	x, counted := mpi.ExpandCounted(ops, mpi.FromConfig(c))
	if counted >= 0 && counted != len(x) {
		t.Errorf("the expansion counted %d commands and made %d", counted, len(x))
	}
	res, err := n.RunCommands(x)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range invariant.Check(n, invariant.NewTally(c.GCD.LineBytes).Trace(ops).Ops(res)) {
		t.Error(v)
	}
	return res, x, n
}

// pair is rank 0 on GCD 0 sending bytes to rank 1 on GCD g (isend, irecv,
// waits), each rank's buffer on its own GCD.
func pair(g int, bytes int64) []trace.Op {
	return []trace.Op{
		{Op: trace.Malloc, Buf: "s", GCD: intp(0), Bytes: bytes, Rank: 0},
		{Op: trace.Malloc, Buf: "r", GCD: intp(g), Bytes: bytes, Rank: 1},
		{Op: trace.MPIIsend, Buf: "s", Bytes: bytes, Peer: intp(1), Req: "a", Rank: 0, Label: "send"},
		{Op: trace.MPIIrecv, Buf: "r", Bytes: bytes, Peer: intp(0), Req: "b", Rank: 1, Label: "recv"},
		{Op: trace.MPIWait, Req: "a", Rank: 0, Label: "send"},
		{Op: trace.MPIWait, Req: "b", Rank: 1, Label: "recv"},
	}
}

// span is from the first issue to the last end of the ops labelled l.
func span(res []hip.OpResult, l string) (float64, float64) {
	first, last := math.Inf(1), 0.0
	for _, r := range res {
		if r.Op.Label == l {
			first, last = min(first, float64(r.Issue)), max(last, float64(r.End))
		}
	}
	return first, last
}

// A 1 GiB message over IPC is one peer copy from the sender's buffer into
// the receiver's, on the SDMA engines as hipMemcpyPeer: it runs at the
// same plateau (50 GB/s to GCD 1, 37.6 over the single link to GCD 2),
// and the sender's wait returns only after the receiver's copy is done.
func TestIPCMessageIsOnePeerCopy(t *testing.T) {
	for g, want := range map[int]float64{1: 50, 2: 37.6} {
		res, x, _ := run(t, pair(g, 1<<30))
		peer := 0
		for _, o := range x {
			if o.Op == trace.MemcpyPeerAsy && o.Src == "s" && o.Dst == "r" && o.Stream >= mpi.IPCStream {
				peer++
			}
			if o.Op == trace.Memcpy {
				t.Errorf("GCD %d: a staged copy %+v in an IPC message", g, o)
			}
		}
		if peer != 1 {
			t.Errorf("GCD %d: %d peer copies, want 1", g, peer)
		}
		var copyRes hip.OpResult
		for _, r := range res {
			if r.Op.Op == trace.MemcpyPeerAsy {
				copyRes = r
			}
		}
		if bw := float64(1<<30) / float64(copyRes.End-copyRes.Start) / 1e9; math.Abs(bw-want) > 0.05*want {
			t.Errorf("GCD %d: the copy ran at %.1f GB/s, want about %.1f", g, bw, want)
		}
		_, sendEnd := span(res, "send")
		if sendEnd < float64(copyRes.End) {
			t.Errorf("GCD %d: the sender's wait returned at %.1f us, before the copy ended at %.1f us", g, sendEnd*1e6, float64(copyRes.End)*1e6)
		}
	}
}

// Below MPICH_GPU_IPC_THRESHOLD (1024 B) a message is staged: the sender
// copies it into a bounce buffer in host memory on its GCD's NUMA domain,
// the receiver copies it out; no peer copy. Up to GTL_HSA_VSMSG_CUTOFF_SIZE bytes the
// CPUs copy (loads and stores through the mapping, on each GCD's domain),
// above it hipMemcpy. With MPICH_GPU_IPC_ENABLED=0 every message is staged.
func TestSmallMessagesAreStaged(t *testing.T) {
	for _, c := range []struct {
		bytes int64
		sets  []string
		kind  trace.Kind
	}{{512, nil, trace.HostAccess}, {1 << 20, []string{"env.MPICH_GPU_IPC_ENABLED=0"}, trace.Memcpy}} {
		_, x, _ := run(t, pair(1, c.bytes), c.sets...)
		var got []string
		for _, o := range x {
			switch o.Op {
			case trace.Memcpy, trace.MemcpyPeerAsy:
				if o.Op != c.kind {
					t.Errorf("%d B: %s, want %s", c.bytes, o.Op, c.kind)
				}
				got = append(got, o.Src+">"+o.Dst)
			case trace.HostAccess:
				if o.Op != c.kind || len(o.Access) != 2 {
					t.Errorf("%d B: %s %+v, want %s", c.bytes, o.Op, o.Access, c.kind)
					continue
				}
				got = append(got, o.Access[0].Buf+">"+o.Access[1].Buf)
			case trace.HostMalloc:
				if *o.NUMA != 3 || o.Bytes != c.bytes {
					t.Errorf("%d B: bounce buffer %+v, want %d B on NUMA 3 (GCD 0's)", c.bytes, o, c.bytes)
				}
			}
		}
		if want := "s>mpi.shm.0.1 mpi.shm.0.1>r"; strings.Join(got, " ") != want {
			t.Errorf("%d B %v: copies %q, want %q", c.bytes, c.sets, got, want)
		}
	}
}

// The receiver maps a sender's buffer once: a second message from it
// skips the IPC open; with a cache of one handle, alternating two sender
// buffers opens every time.
func TestIPCHandleCache(t *testing.T) {
	const n = 1 << 20
	ops := []trace.Op{
		{Op: trace.Malloc, Buf: "s1", GCD: intp(0), Bytes: n}, {Op: trace.Malloc, Buf: "s2", GCD: intp(0), Bytes: n},
		{Op: trace.Malloc, Buf: "r", GCD: intp(1), Bytes: n, Rank: 1},
	}
	for _, s := range []string{"s1", "s2", "s1", "s2"} {
		ops = append(ops, trace.Op{Op: trace.MPISend, Buf: s, Bytes: n, Peer: intp(1)},
			trace.Op{Op: trace.MPIRecv, Buf: "r", Bytes: n, Peer: intp(0), Rank: 1})
	}
	opens := func(sets ...string) int {
		_, x, _ := run(t, ops, sets...)
		k := 0
		for _, o := range x {
			if o.Op == trace.HostCompute && o.ComputeNs == 50000 {
				k++
			}
		}
		return k
	}
	if got := opens(); got != 2 {
		t.Errorf("%d IPC opens with the default cache, want 2 (one per sender buffer)", got)
	}
	if got := opens("env.MPICH_GPU_IPC_CACHE_MAX_SIZE=1"); got != 4 {
		t.Errorf("%d IPC opens with a one-handle cache, want 4", got)
	}
}

// Without SDMA the library's copy is a blit kernel; and two ranks each
// sending to the other and waiting for both (osu_bibw's pattern) finish.
func TestBlitAndBothWays(t *testing.T) {
	res, _, _ := run(t, pair(1, 1<<26), "env.HSA_ENABLE_SDMA=0")
	for _, r := range res {
		if r.Op.Op == trace.MemcpyPeerAsy && !strings.Contains(r.Engine, "CU") {
			t.Errorf("copy on %q, want a GCD's compute units (blit kernel)", r.Engine)
		}
	}
	const n = 1 << 24
	ops := []trace.Op{
		{Op: trace.Malloc, Buf: "s0", GCD: intp(0), Bytes: n}, {Op: trace.Malloc, Buf: "r0", GCD: intp(0), Bytes: n},
		{Op: trace.Malloc, Buf: "s1", GCD: intp(1), Bytes: n, Rank: 1}, {Op: trace.Malloc, Buf: "r1", GCD: intp(1), Bytes: n, Rank: 1},
		{Op: trace.MPIIsend, Buf: "s0", Bytes: n, Peer: intp(1), Req: "a0"}, {Op: trace.MPIIrecv, Buf: "r0", Bytes: n, Peer: intp(1), Req: "b0"},
		{Op: trace.MPIIsend, Buf: "s1", Bytes: n, Peer: intp(0), Req: "a1", Rank: 1}, {Op: trace.MPIIrecv, Buf: "r1", Bytes: n, Peer: intp(0), Req: "b1", Rank: 1},
		{Op: trace.MPIWaitall}, {Op: trace.MPIWaitall, Rank: 1},
	}
	run(t, ops)
}

// Request handles belong to a process: two ranks may both name a request
// "a" at once, and each wait finds its own rank's, so the run is the one
// with distinct names.
func TestRequestNamesPerRank(t *testing.T) {
	want, _, _ := run(t, pair(1, 1<<20))
	ops := pair(1, 1<<20)
	ops[3].Req, ops[5].Req = "a", "a"
	got, _, _ := run(t, ops)
	if len(got) != len(want) {
		t.Fatalf("%d ops, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Issue != want[i].Issue || got[i].End != want[i].End {
			t.Errorf("op %d (%s): issued %v ended %v, want %v %v", i, got[i].Op.Op, got[i].Issue, got[i].End, want[i].Issue, want[i].End)
		}
	}
}

// The library's buffers, events and flags never take a program's names:
// a program buffer named like a bounce buffer stays its own, and the
// library allocates its bounce buffer under another name.
func TestLibraryNamesAvoidProgramNames(t *testing.T) {
	ops := append(pair(1, 512), trace.Op{Op: trace.Malloc, Buf: "mpi.shm.0.1", GCD: intp(1), Bytes: 64, Rank: 1})
	_, x, _ := run(t, ops)
	allocs := map[string]int{}
	for _, o := range x {
		if o.Op == trace.Malloc || o.Op == trace.HostMalloc {
			allocs[o.Buf]++
		}
		if o.Op == trace.Memcpy && o.Dst == "r" && o.Src == "mpi.shm.0.1" {
			t.Errorf("the receiver copies out of the program's buffer: %+v", o)
		}
	}
	for b, k := range allocs {
		if k != 1 {
			t.Errorf("buffer %q allocated %d times", b, k)
		}
	}
	if allocs["_mpi.shm.0.1"] != 1 {
		t.Errorf("allocations %v, want the bounce buffer as _mpi.shm.0.1", allocs)
	}
}

// Two ranks exchanging with mpi_sendrecv each pull the other's buffer: two
// peer copies, one each way, and both calls return once both are done.
func TestSendrecvExchange(t *testing.T) {
	const n = 1 << 26
	ops := []trace.Op{
		{Op: trace.Malloc, Buf: "s0", GCD: intp(0), Bytes: n}, {Op: trace.Malloc, Buf: "r0", GCD: intp(0), Bytes: n},
		{Op: trace.Malloc, Buf: "s1", GCD: intp(1), Bytes: n, Rank: 1}, {Op: trace.Malloc, Buf: "r1", GCD: intp(1), Bytes: n, Rank: 1},
		{Op: trace.MPISendrecv, Src: "s0", Dst: "r0", Bytes: n, Peer: intp(1), Label: "x0"},
		{Op: trace.MPISendrecv, Src: "s1", Dst: "r1", Bytes: n, Peer: intp(0), Rank: 1, Label: "x1"},
	}
	res, x, _ := run(t, ops)
	var copies []string
	var last float64
	for i, o := range x {
		if o.Op == trace.MemcpyPeerAsy {
			copies = append(copies, o.Src+">"+o.Dst)
			last = max(last, float64(res[i].End))
		}
	}
	if got := strings.Join(copies, " "); got != "s1>r0 s0>r1" {
		t.Errorf("copies %q, want rank 0 pulling s1 into r0 and rank 1 pulling s0 into r1", got)
	}
	for _, l := range []string{"x0", "x1"} {
		if _, end := span(res, l); end < last {
			t.Errorf("%s returned at %.1f us, before the last copy ended at %.1f us", l, end*1e6, last*1e6)
		}
	}
}

// A wait's IPC receives start as their senders get ready, not in the
// wait's order: rank 2 waits for rank 0's message first, but rank 0 posts
// its send 1 ms late, and rank 1's copy still runs first (after the
// receiver opens both handles) and its sender's wait returns before rank
// 0 even sends.
func TestIPCReceivesStartWhenTheirSenderIsReady(t *testing.T) {
	const bytes = 16 << 20
	ops := []trace.Op{
		{Op: trace.Malloc, Buf: "s0", GCD: intp(0), Bytes: bytes, Rank: 0},
		{Op: trace.Malloc, Buf: "s1", GCD: intp(1), Bytes: bytes, Rank: 1},
		{Op: trace.Malloc, Buf: "r0", GCD: intp(6), Bytes: bytes, Rank: 2},
		{Op: trace.Malloc, Buf: "r1", GCD: intp(6), Bytes: bytes, Rank: 2},
		{Op: trace.MPIIrecv, Buf: "r0", Bytes: bytes, Peer: intp(0), Req: "a", Rank: 2, Label: "recv"},
		{Op: trace.MPIIrecv, Buf: "r1", Bytes: bytes, Peer: intp(1), Req: "b", Rank: 2, Label: "recv"},
		{Op: trace.MPIWaitall, Rank: 2, Label: "recv"},
		{Op: trace.HostCompute, ComputeNs: 1e6, Rank: 0},
		{Op: trace.MPISend, Buf: "s0", Bytes: bytes, Peer: intp(2), Rank: 0, Label: "late"},
		{Op: trace.MPISend, Buf: "s1", Bytes: bytes, Peer: intp(2), Rank: 1, Label: "early"},
	}
	res, _, _ := run(t, ops)
	var fromLate, fromEarly hip.OpResult
	for _, r := range res {
		if r.Op.Op == trace.MemcpyPeerAsy && r.Op.Src == "s0" {
			fromLate = r
		}
		if r.Op.Op == trace.MemcpyPeerAsy && r.Op.Src == "s1" {
			fromEarly = r
		}
	}
	if fromEarly.End > fromLate.Start {
		t.Errorf("the copy from the ready sender ran %.1f-%.1f us, the late one from %.1f us: want the ready one first",
			float64(fromEarly.Start)*1e6, float64(fromEarly.End)*1e6, float64(fromLate.Start)*1e6)
	}
	if _, end := span(res, "early"); end > 1e-3 {
		t.Errorf("the ready sender's mpi_send returned at %.1f us, want before the late one sends (1000 us)", end*1e6)
	}
}

// A posted IPC receive's copy is the library's, not on a HIP stream:
// hipDeviceSynchronize between posting the receives and sending (acm's
// pipelined exchange syncs after each pack kernel) does not wait for it,
// else two ranks exchanging so would wait for each other forever.
func TestDeviceSyncDoesNotWaitForPostedReceives(t *testing.T) {
	const bytes = 1 << 20
	var ops []trace.Op
	for r := range 2 { // rank r on GCD r
		for _, b := range []string{"s", "r"} {
			ops = append(ops, trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("%s%d", b, r), GCD: intp(r), Bytes: bytes, Rank: r})
		}
	}
	for r := range 2 {
		p := 1 - r
		ops = append(ops,
			trace.Op{Op: trace.MPIIrecv, Buf: fmt.Sprintf("r%d", r), Bytes: bytes, Peer: intp(p), Req: "r", Rank: r},
			trace.Op{Op: trace.DeviceSync, Rank: r},
			trace.Op{Op: trace.MPIIsend, Buf: fmt.Sprintf("s%d", r), Bytes: bytes, Peer: intp(p), Req: "s", Rank: r},
			trace.Op{Op: trace.MPIWaitall, Rank: r})
	}
	run(t, ops) // fails the test if the run never returns
}

// From MPICH_GPU_IPC_THRESHOLD up to GTL_HSA_VSMSG_CUTOFF_SIZE an IPC
// message is the receiver's CPU copy from the sender's mapped buffer (one
// host_access: read s, write r, on the receiver's NUMA domain), and the
// sender's wait returns only after it (the fin flag the receiver sets);
// above the cutoff, or with the cutoff at 0, it is an async peer copy.
func TestIPCSmallMessagesAreCPUCopies(t *testing.T) {
	for _, c := range []struct {
		bytes int64
		sets  []string
		cpu   bool
	}{{1024, nil, true}, {4096, nil, true}, {4097, nil, false}, {1024, []string{"env.GTL_HSA_VSMSG_CUTOFF_SIZE=0"}, false}} {
		res, x, _ := run(t, pair(1, c.bytes), c.sets...)
		var host, peer int
		for _, o := range x {
			switch o.Op {
			case trace.HostAccess:
				host++
				if o.Rank != 1 || len(o.Access) != 2 || o.Access[0].Buf != "s" || o.Access[1].Buf != "r" || *o.NUMA != 3 {
					t.Errorf("%d B %v: host_access %+v on rank %d, want rank 1 reading s into r on NUMA 3", c.bytes, c.sets, o.Access, o.Rank)
				}
			case trace.MemcpyPeerAsy:
				peer++
			}
		}
		if want := map[bool][2]int{true: {1, 0}, false: {0, 1}}[c.cpu]; host != want[0] || peer != want[1] {
			t.Errorf("%d B %v: %d host copies and %d peer copies, want %v", c.bytes, c.sets, host, peer, want)
		}
		_, sendEnd := span(res, "send")
		_, recvEnd := span(res, "recv")
		if sendEnd < recvEnd && c.cpu {
			t.Errorf("%d B: the send completed at %.2f us, before the receiver's copy at %.2f us", c.bytes, sendEnd*1e6, recvEnd*1e6)
		}
	}
}

// A rank whose ROCr sees only its own GCD (mpi.visible_gcds "own") names
// that GCD at both ends of its IPC copy, so ROCr runs the copy there: on
// a host-facing SDMA engine below HSA_FORCE_SDMA_SIZE, as a blit kernel
// on its CUs from it (the receiver pulls). With every GCD visible the
// copy goes to an xGMI engine of the sender's GCD.
func TestIPCCopyOwnGCD(t *testing.T) {
	for _, c := range []struct {
		visible string
		bytes   int64
		want    string // the engine that ran the copy
	}{
		{"all", 4 << 20, "GCD[0].SDMAXGMI"},
		{"own", 64 << 10, "GCD[1].SDMAHost"},
		{"own", 1 << 20, "GCD[1].CU"},
		{"own", 4 << 20, "GCD[1].CU"},
	} {
		res, _, _ := run(t, pair(1, c.bytes), "mpi.visible_gcds="+c.visible)
		var engines []string
		for _, r := range res {
			if r.Op.Op == trace.MemcpyPeerAsy {
				engines = append(engines, r.Engine)
			}
		}
		if len(engines) != 1 || !strings.Contains(engines[0], c.want) {
			t.Errorf("%s, %d B: the IPC copy ran on %v, want %s", c.visible, c.bytes, engines, c.want)
		}
	}
}
