package workloads

import (
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// apu is the shipped MI300A node.
func apu(t *testing.T, sets ...string) *config.Node {
	return loadConfig(t, "mi300a-node.toml", sets...)
}

// p2pBandwidthLatencyTest on the MI300A node measures 4 x 4 pairs, each
// peer copy over its two links, each local copy in the APU's own HBM.
func TestAPUP2PIsFourByFour(t *testing.T) {
	c := apu(t)
	p := DefaultP2P(c.GCD.Count)
	p.Cases = []string{"unidirectional"}
	res, err := run.Execute(c, p.Runs(), run.WithCheck())
	if err != nil {
		t.Fatal(err)
	}
	bw := map[[2]string]float64{}
	for _, r := range res.Rows {
		bw[[2]string{r.Src, r.Dst}] = r.Value
	}
	if len(bw) != 16 {
		t.Fatalf("%d pairs, want 16: %v", len(bw), res.Rows)
	}
	for k, v := range bw {
		local := k[0] == k[1]
		if v <= 0 || (local && v < 1000) || (!local && v > 128) {
			t.Errorf("%s -> %s: %.1f GB/s, want local > 1 TB/s and peers under 2 x 64 GB/s", k[0], k[1], v)
		}
	}
}

// linkBytes is what every host link of n carried, both ways.
func linkBytes(n *node.Node) uint64 {
	var sum uint64
	for _, l := range n.HostLinks {
		for dir := 0; dir < 2; dir++ {
			_, b, _ := l.Stats(dir)
			sum += b
		}
	}
	return sum
}

// apuTraffic records, per run of a test, what the host links carried, the
// HBM of each APU moved and what the MALLs served.
type apuTraffic struct {
	links uint64
	hbm   []uint64 // by APU: bytes read and written
	mall  []uint64 // by APU: bytes served
	dram  int      // DRAM controllers built
}

func watchAPUs(t *testing.T) *apuTraffic {
	w := &apuTraffic{}
	run.AfterRun = func(n *node.Node, _ job.Run, _ []hip.OpResult) {
		w.links += linkBytes(n)
		w.dram += len(n.DRAM)
		if w.hbm == nil {
			w.hbm, w.mall = make([]uint64, len(n.GCDs)), make([]uint64, len(n.GCDs))
		}
		for g, d := range n.GCDs {
			w.hbm[g] += d.HBM.BytesRead + d.HBM.BytesWrite
			w.mall[g] += d.MALL.Served()
		}
	}
	t.Cleanup(func() { run.AfterRun = nil })
	return w
}

// STREAM on an APU streams its HBM whether the arrays are hipMalloc'd or
// hipHostMalloc'd: on an APU both live in the same HBM behind the same
// MALL, and neither crosses a host link.
func TestAPUStreamOnHostMemory(t *testing.T) {
	c := apu(t)
	bw := map[string]float64{}
	for _, alloc := range []string{"local", "host"} {
		w := watchAPUs(t)
		st := Stream{GCDs: []int{0}, Alloc: alloc, Sizes: []int64{512 << 20}, Kernels: []string{"copy"},
			Iterations: 1, Workgroup: 128, NUMA: c.Host.GCDNUMA}
		runs, _ := st.Runs()
		res, err := run.Execute(c, runs, run.WithCheck())
		if err != nil {
			t.Fatal(err)
		}
		bw[alloc] = res.Rows[0].Value
		// the source is read from HBM and the writes go through the MALL (it holds no dirty lines) to HBM
		if w.links != 0 || w.dram != 0 || w.hbm[0] < 2*512<<20 || w.hbm[1]+w.hbm[2]+w.hbm[3] != 0 {
			t.Errorf("%s arrays: host links carried %d B, %d DRAM controllers, HBM bytes by APU %v, MALL %v: want APU 0's alone",
				alloc, w.links, w.dram, w.hbm, w.mall)
		}
	}
	// the host link of an MI250X GCD gives 28 GB/s; the APU's HBM gives TB/s either way
	if bw["local"] < 2000 || bw["host"] < 0.5*bw["local"] {
		t.Errorf("STREAM copy on APU 0: %.0f GB/s on hipMalloc arrays, %.0f on hipHostMalloc arrays", bw["local"], bw["host"])
	}
}

// A hipMemcpy from hipHostMalloc memory to hipMalloc memory on one APU is
// an HBM-to-HBM copy: the APU's SDMA engine reads and writes its own HBM,
// no host link or DRAM is involved.
func TestAPUHostToDeviceCopyStaysInHBM(t *testing.T) {
	c := apu(t)
	w := watchAPUs(t)
	const n = 64 << 20
	ops := []trace.Op{hostAlloc("h", 2, n), alloc("d", 2, n), {Op: trace.Memcpy, Dst: "d", Src: "h", Bytes: n}}
	if _, err := run.Execute(c, []job.Run{TraceRun("h2d.jsonl", ops)}, run.WithCheck()); err != nil {
		t.Fatal(err)
	}
	if w.links != 0 || w.dram != 0 {
		t.Errorf("host links carried %d B, %d DRAM controllers: want neither", w.links, w.dram)
	}
	for g := range w.mall {
		// the source misses to HBM, the destination is written through the MALL to HBM
		on := w.hbm[g] >= 2*n
		if idle := w.hbm[g] == 0 && w.mall[g] == 0; g == 2 && !on || g != 2 && !idle {
			t.Errorf("APU %d: HBM moved %d B, MALL served %d B: want the %d B copy on APU 2 alone", g, w.hbm[g], w.mall[g], n)
		}
	}
}

// The CPU cores' stores to pinned host memory of NUMA domain 1 land in APU
// 1's HBM, through its MALL, over the cores' link into APU 1.
func TestAPUHostAccessLandsInHBM(t *testing.T) {
	c := apu(t)
	w := watchAPUs(t)
	const n = 16 << 20
	ops := []trace.Op{hostAlloc("h", 1, n),
		{Op: trace.HostAccess, NUMA: intp(1), Threads: 4, Access: []trace.Access{{Buf: "h", Mode: "write", Bytes: n}}}}
	if _, err := run.Execute(c, []job.Run{TraceRun("store.jsonl", ops)}, run.WithCheck()); err != nil {
		t.Fatal(err)
	}
	if w.dram != 0 || w.hbm[1] < n || w.hbm[0]+w.hbm[2]+w.hbm[3] != 0 || w.links < n {
		t.Errorf("%d DRAM controllers, HBM bytes by APU %v, host links %d B: want APU 1's HBM to take the %d B the cores stored",
			w.dram, w.hbm, w.links, n)
	}
}

// On the APU node, the keys its host memory's path depends on (host.*,
// host_link.*: the cores' links, mall.*: the cache host memory now
// crosses) run the range trace at their lowest and highest values, as
// TestEveryRangeExtremeRuns does for Frontier's.
func TestAPURangeExtremesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("a run per range end")
	}
	t.Setenv("AKISIM_MEMORY_BYTES", "4000000000")
	_, file, _, _ := goruntime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "configs", "mi300a-node.toml")
	seen := map[string]bool{}
	ran := 0
	for _, b := range apu(t).Bounds() {
		apuPath := strings.HasPrefix(b.Key, "host.") || strings.HasPrefix(b.Key, "host_link.") || strings.HasPrefix(b.Key, "mall.")
		if !apuPath || strings.Contains(b.Key, "[") || seen[b.Key] {
			continue
		}
		seen[b.Key] = true
		for _, name := range rangeEnds(b) {
			c, err := config.Load(path, []string{name})
			if err != nil {
				t.Logf("%s: refused with the config's other keys: %v", name, err)
				continue
			}
			runExtreme(t, name, c, rangeTrace())
			ran++
		}
	}
	if ran < 20 {
		t.Errorf("only %d range ends ran on the APU node", ran)
	}
}

// Managed memory on an APU under HSA_XNACK=1: a kernel's first touch
// faults and the driver maps each 2 MiB block in place (no SDMA copy, no
// block migrated), a second kernel finds them mapped, and the host's
// access after them has nothing to bring back: only the cores' own loads
// cross their link. On Frontier the same trace
// migrates every block to the GCD and back.
func TestAPUManagedMapsInPlace(t *testing.T) {
	const n = 8 << 20
	ops := []trace.Op{{Op: trace.MallocManaged, Buf: "m", NUMA: intp(0), Bytes: n}}
	for i := 0; i < 2; i++ {
		ops = append(ops, trace.Op{Op: trace.Kernel, Name: "touch", GCD: intp(0), Grid: 1 << 14, Workgroup: 256,
			Access: []trace.Access{{Buf: "m", Mode: "write", Bytes: n}}}, trace.Op{Op: trace.DeviceSync})
	}
	ops = append(ops, trace.Op{Op: trace.HostAccess, NUMA: intp(0), Threads: 1, Access: []trace.Access{{Buf: "m", Mode: "read", Bytes: n}}})
	for _, cfg := range []struct {
		c       *config.Node
		apu     bool
		toGPU   uint64
		faulted uint64
	}{{apu(t, "env.HSA_XNACK=1"), true, 0, 4}, {frontier(t, "env.HSA_XNACK=1"), false, 4, 4}} {
		var mm hip.ManagedStats
		var links uint64
		run.AfterRun = func(nd *node.Node, _ job.Run, _ []hip.OpResult) { mm, links = nd.Runtime.Managed, linkBytes(nd) }
		if _, err := run.Execute(cfg.c, []job.Run{TraceRun("managed.jsonl", ops)}, run.WithCheck()); err != nil {
			t.Fatal(err)
		}
		run.AfterRun = nil
		back := mm.BlocksToHost
		if mm.Faults != cfg.faulted || mm.BlocksToGPU != cfg.toGPU || (cfg.apu && (back != 0 || links != n)) || (!cfg.apu && back != 4) {
			t.Errorf("%s: %d faults, %d blocks to the GPU, %d back, host links %d B", cfg.c.Name, mm.Faults, mm.BlocksToGPU, back, links)
		}
	}
}
