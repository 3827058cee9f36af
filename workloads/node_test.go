package workloads

import (
	"fmt"
	"math"
	"testing"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// copies runs concurrent peer copies (one stream each) of n bytes and
// returns each copy's bandwidth in GB/s and the node's statistics.
func copies(t *testing.T, sets []string, n int64, pairs ...[2]int) ([]float64, *run.Result) {
	t.Helper()
	c := frontier(t, sets...)
	var ops []trace.Op
	for i, p := range pairs {
		src, dst := string(rune('a'+2*i)), string(rune('b'+2*i))
		ops = append(ops, alloc(src, p[0], n), alloc(dst, p[1], n))
	}
	for i := range pairs {
		src, dst := string(rune('a'+2*i)), string(rune('b'+2*i))
		ops = append(ops, trace.Op{Op: trace.MemcpyPeerAsy, Src: src, Dst: dst, Bytes: n, Stream: i + 1})
	}
	ops = append(ops, trace.Op{Op: trace.DeviceSync})
	res, err := run.Execute(c, []job.Run{TraceRun("t", ops)})
	if err != nil {
		t.Fatal(err)
	}
	var bw []float64
	for _, r := range res.Rows {
		if r.Metric == "bandwidth" {
			bw = append(bw, r.Value)
		}
	}
	return bw, res
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*want {
		t.Errorf("%s = %.2f, want %.2f within %.0f%%", what, got, want, 100*tol)
	}
}

const big = 256 << 20

// engineCap is the SDMA engine's datapath in GB/s (clock x bytes per cycle).
func engineCap(t *testing.T) float64 {
	c := frontier(t)
	return c.SDMA.ClockGHz * float64(c.SDMA.BytesPerCycle)
}

// A single-link bundle carries 75% of 50 GB/s (packet overhead); a dual or
// quad bundle is not the limit, the SDMA engine (50 GB/s) is.
func TestCopyBandwidthByLaneCount(t *testing.T) {
	single, _ := copies(t, nil, big, [2]int{0, 2})
	near(t, "0->2 single link", single[0], 50*64.0/85, 0.02)
	dual, _ := copies(t, nil, big, [2]int{0, 6})
	near(t, "0->6 dual link", dual[0], engineCap(t), 0.02)
	quad, _ := copies(t, nil, big, [2]int{0, 1})
	near(t, "0->1 quad link", quad[0], engineCap(t), 0.02)
}

// Widening 0-2 to two lanes lifts its copy to the SDMA ceiling, not beyond.
func TestWideningLiftsToSDMACeiling(t *testing.T) {
	bw, _ := copies(t, []string{"xgmi.bundle[0-2].lanes=2"}, big, [2]int{0, 2})
	near(t, "0->2 made dual", bw[0], engineCap(t), 0.02)
	if bw[0] > engineCap(t) {
		t.Errorf("copy beat the SDMA datapath: %.2f GB/s", bw[0])
	}
	// a faster engine then uses the wider bundle: the engine was the cap
	fast, _ := copies(t, []string{"xgmi.bundle[0-2].lanes=2", "sdma.bytes_per_cycle=128"}, big, [2]int{0, 2})
	near(t, "0->2 dual, wide engine", fast[0], 100*64.0/85, 0.03)
}

// Two copies over one single link share it: each gets half.
func TestConcurrentCopiesShareABundle(t *testing.T) {
	bw, res := copies(t, nil, big, [2]int{0, 2}, [2]int{0, 2})
	total := 50 * 64.0 / 85
	near(t, "first copy", bw[0], total/2, 0.03)
	near(t, "second copy", bw[1], total/2, 0.03)
	if busy := res.Stats.Total("node.xgmi.b0_2.dir0.busy"); busy <= 0 {
		t.Errorf("bundle 0-2 shows no busy time: %v", busy)
	}
}

// Removing bundle 0-2 reroutes 0->2 through other GCDs: the copy still
// completes over a single-link bottleneck and the data passes through hubs.
func TestRemovingABundleReroutes(t *testing.T) {
	bw, res := copies(t, []string{"xgmi.bundle[0-2].lanes=0"}, big, [2]int{0, 2})
	near(t, "0->2 rerouted", bw[0], 50*64.0/85, 0.03)
	fwd := 0.0
	for g := 0; g < 8; g++ {
		fwd += res.Stats.Total(statName("node.gcd%d.hub.forwarded", g))
	}
	if fwd == 0 {
		t.Error("no packet passed through an intermediate GCD")
	}
	if res.Stats.Total("node.xgmi.b0_2.dir0.packets") != 0 {
		t.Error("removed bundle still carried packets")
	}
}

// Latency grows when the route does: 0->2 direct vs 0->2 rerouted.
func TestReroutedLatencyIsLonger(t *testing.T) {
	p := DefaultP2P(8)
	p.Cases = []string{"latency"}
	direct := p.run("latency", 0, 2)
	c := frontier(t)
	r1, err := run.Execute(c, []job.Run{direct})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := run.Execute(frontier(t, "xgmi.bundle[0-2].lanes=0"), []job.Run{direct})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Rows[0].Value <= r1.Rows[0].Value {
		t.Errorf("rerouted latency %.2f us not above direct %.2f us", r2.Rows[0].Value, r1.Rows[0].Value)
	}
}

// Two GCDs on one NUMA domain contend for its DDR4 channels: together they
// get the domain's sustained bandwidth, not twice one host link.
func TestDRAMContention(t *testing.T) {
	c := frontier(t)
	one := []trace.Op{hostAlloc("h", 0, big), alloc("d", 4, big),
		{Op: trace.MemcpyAsync, Src: "h", Dst: "d", Bytes: big, Stream: 1}, {Op: trace.DeviceSync}}
	two := append(append([]trace.Op{}, one[:2]...), hostAlloc("h2", 0, big), alloc("d2", 5, big),
		trace.Op{Op: trace.MemcpyAsync, Src: "h", Dst: "d", Bytes: big, Stream: 1},
		trace.Op{Op: trace.MemcpyAsync, Src: "h2", Dst: "d2", Bytes: big, Stream: 2},
		trace.Op{Op: trace.DeviceSync})
	r1, err := run.Execute(c, []job.Run{TraceRun("one", one)})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := run.Execute(c, []job.Run{TraceRun("two", two)})
	if err != nil {
		t.Fatal(err)
	}
	bw1 := r1.Rows[2].Value
	var sum float64
	for _, r := range r2.Rows {
		if r.Metric == "bandwidth" {
			sum += r.Value
		}
	}
	domain := float64(c.DRAM.ChannelsPerDomain) * c.DRAM.ChannelBandwidthGBps * c.DRAM.Efficiency
	near(t, "one GCD from NUMA 0", bw1, 36*64.0/81, 0.02)
	near(t, "two GCDs from NUMA 0", sum, domain, 0.03)
	if busy := r2.Stats.Total("node.numa0.dram.busy"); busy <= 0 {
		t.Error("NUMA 0 DRAM shows no busy time")
	}
}

// When host memory is the bottleneck, more memory-level parallelism cannot
// make a STREAM kernel slower or faster: packets that are logically still
// on their way must not hold link credits.
func TestBandwidthBoundKernelIgnoresMLP(t *testing.T) {
	bw := func(out string) float64 {
		c := frontier(t, "gcd.cu_outstanding_bytes="+out)
		st := Stream{GCDs: []int{0}, Alloc: "host", Sizes: []int64{64 << 20}, Kernels: []string{"triad"},
			Iterations: 1, Workgroup: 128, NUMA: c.Host.GCDNUMA}
		return runStream(t, c, st).Rows[0].Value
	}
	two, eight := bw("131072"), bw("524288")
	near(t, "triad with 4x the bytes in flight per CU", eight, two, 0.02)
	c := frontier(t)
	// triad reads two host arrays and writes one: the DDR4 domain carries all
	// three, the host link's GCD-bound direction the two reads' data
	domain := float64(c.DRAM.ChannelsPerDomain) * c.DRAM.ChannelBandwidthGBps * c.DRAM.Efficiency
	link := 1.5 * c.HostLink.BandwidthGBps * 64 / float64(64+c.HostLink.ResponseOverheadBytes)
	near(t, "host triad (bound by DDR4 or host link)", two, min(domain, link), 0.03)
}

// A STREAM copy on GCD 0 with both arrays on a peer loads both directions
// of the bundle: 43% of its bidirectional peak whatever its width.
func TestPeerStreamFollowsBundleWidth(t *testing.T) {
	c := frontier(t)
	for peer, lanes := range map[int]float64{1: 4, 2: 1, 6: 2} {
		st := Stream{GCDs: []int{0}, Alloc: fmt.Sprint(peer), Sizes: []int64{256 << 20}, Kernels: []string{"copy"},
			Iterations: 1, Workgroup: 128, NUMA: c.Host.GCDNUMA}
		runs, _ := st.Runs()
		res, err := run.Execute(c, runs)
		if err != nil {
			t.Fatal(err)
		}
		// per 64 B each way: 85 B of data packet plus one 64 B request or ack slot
		near(t, fmt.Sprintf("copy on GCD %d", peer), res.Rows[0].Value, 2*lanes*50*64/149, 0.02)
	}
}
