package workloads

import (
	"errors"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// rangeTrace touches what the config's keys shape on one node: host and
// peer copies both ways, a kernel, the host's own stores, an RCCL
// all-reduce and an MPI message between two ranks.
func rangeTrace() []trace.Op {
	const n = 64 << 10
	return []trace.Op{alloc("a", 0, n), alloc("b", 1, n), hostAlloc("h", 0, n), alloc("c", 2, n),
		{Op: trace.Malloc, Buf: "m", GCD: intp(3), Bytes: n, Rank: 1},
		{Op: trace.MemcpyAsync, Src: "h", Dst: "a", Bytes: n, Stream: 1},
		{Op: trace.MemcpyPeerAsy, Src: "a", Dst: "b", Bytes: n, Stream: 1},
		{Op: trace.MemcpyAsync, Src: "b", Dst: "h", Bytes: n, Stream: 2},
		{Op: trace.Kernel, Name: "k", GCD: intp(0), Stream: 3, Grid: 1 << 12, Workgroup: 256, ComputeNs: 1000,
			Access: []trace.Access{{Buf: "a", Mode: "read", Bytes: n}, {Buf: "c", Mode: "write", Bytes: n, Pattern: "random", Element: 4}}},
		{Op: trace.HostAccess, NUMA: intp(0), Threads: 4, Access: []trace.Access{{Buf: "h", Mode: "write", Bytes: n}}},
		{Op: trace.DeviceSync},
		{Op: trace.RCCLCommInit, Comm: "w", GCDs: []int{0, 1}},
		{Op: trace.RCCLAllReduce, Comm: "w", GCD: intp(0), Src: "a", Dst: "a", Bytes: n, RedOp: "sum", Stream: 1},
		{Op: trace.RCCLAllReduce, Comm: "w", GCD: intp(1), Src: "b", Dst: "b", Bytes: n, RedOp: "sum", Stream: 2},
		{Op: trace.DeviceSync},
		{Op: trace.MPISend, Buf: "c", Bytes: n, Peer: intp(1)},
		{Op: trace.MPIRecv, Buf: "m", Bytes: n, Peer: intp(0), Rank: 1},
	}
}

// TestEveryRangeExtremeRuns: for every numeric key the config's checks
// bound (but sim.*, whose granularity test covers them), the trace above
// runs at the lowest and the highest value allowed with finite results,
// or is refused as a resource limit before its node is built (the test
// allows 4 GB: network.nodes=16384 needs more). Keys of the network
// (nic.*, network.*) run on two nodes, rank 1 on the second.
func TestEveryRangeExtremeRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("a run per range end")
	}
	t.Setenv("AKISIM_MEMORY_BYTES", "4000000000")
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "configs", "frontier-node.toml")
	seen := map[string]bool{}
	for _, b := range frontier(t).Bounds() {
		if strings.HasPrefix(b.Key, "sim.") || strings.Contains(b.Key, "[") || seen[b.Key] {
			continue
		}
		seen[b.Key] = true
		for _, end := range rangeEnds(b) {
			sets := []string{end}
			ops := rangeTrace()
			if strings.HasPrefix(b.Key, "nic.") || strings.HasPrefix(b.Key, "network.") {
				if b.Key != "network.nodes" {
					sets = append(sets, "network.nodes=2")
				}
			}
			name := strings.Join(sets, " ")
			c, err := config.Load(path, sets)
			if err != nil {
				// the end is out of reach beside the config's other keys
				// (gcd.count=1 with the node's bundles): the rule that
				// refuses it names them
				t.Logf("%s: refused with the config's other keys: %v", name, err)
				continue
			}
			if c.Network.Nodes > 1 {
				ops[4].GCD = intp(c.GCD.Count + 3) // rank 1 on the second node
			}
			start := time.Now()
			runExtreme(t, name, c, ops)
			if wall := time.Since(start); wall > time.Second {
				t.Logf("%s: %v", name, wall)
			}
		}
	}
}

// rangeEnds are the -set assignments of b's key to its lowest and highest
// allowed values.
func rangeEnds(b config.Bound) []string {
	var ends []string
	for _, x := range []float64{b.Lo, b.Hi} {
		v := strconv.FormatFloat(x, 'g', -1, 64)
		if b.Int {
			v = strconv.FormatInt(int64(x), 10)
		}
		ends = append(ends, b.Key+"="+v)
	}
	return ends
}

// runExtreme runs ops on c and checks the results are finite.
func runExtreme(t *testing.T, name string, c *config.Node, ops []trace.Op) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s: panic: %v", name, p)
		}
	}()
	res, err := run.Execute(c, []job.Run{TraceRun("range.jsonl", ops)})
	var le *limit.Error
	if errors.As(err, &le) {
		t.Logf("%s: %v", name, err)
		return
	}
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	for _, r := range res.Rows {
		if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) || r.Value < 0 {
			t.Errorf("%s: row %+v", name, r)
			return
		}
	}
}
