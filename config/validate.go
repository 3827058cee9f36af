package config

import (
	"fmt"
	"math"
)

// Limits of the checks. They are sanity bounds against typos and unit
// mistakes, not hardware limits.
const (
	MaxGCDs        = 64
	MaxNUMADomains = 16
	MaxLanes       = 16
	MaxHops        = 8
)

// Route policies accepted by routing.sdma, routing.kernel and routing.control.
const (
	RouteWidest = "widest" // maximise bottleneck bandwidth, then fewest hops
	RouteFewest = "fewest" // fewest hops, then widest
)

// vErr is a validation failure: the key that is wrong and the keys whose
// values it was checked against (so a -set of a related key is blamed).
type vErr struct {
	key     string
	related []string
	msg     string
}

type validator struct {
	errs []vErr
}

func (v *validator) fail(key string, related []string, format string, args ...any) {
	v.errs = append(v.errs, vErr{key: key, related: related, msg: fmt.Sprintf(format, args...)})
}

// intRange checks lo <= x <= hi.
func (v *validator) intRange(key string, x, lo, hi int) {
	if x < lo || x > hi {
		v.fail(key, nil, "must be %d..%d, got %d", lo, hi, x)
	}
}

// intMin checks x >= lo, with a generous upper bound against typos.
func (v *validator) intMin(key string, x, lo int) {
	const hi = 1 << 30
	if x < lo || x > hi {
		if x < lo {
			v.fail(key, nil, "must be >= %d, got %d", lo, x)
		} else {
			v.fail(key, nil, "must be <= %d, got %d", hi, x)
		}
	}
}

// positive checks a finite x > 0 (bandwidths, clocks).
func (v *validator) positive(key string, x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
		v.fail(key, nil, "must be a finite number > 0, got %s", fmtFloat(x))
	}
}

// nonNegative checks a finite x >= 0 (latencies).
func (v *validator) nonNegative(key string, x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		v.fail(key, nil, "must be a finite number >= 0, got %s", fmtFloat(x))
	}
}

func (v *validator) fraction(key string, x float64) {
	if !(x > 0 && x <= 1) {
		v.fail(key, nil, "must be in (0, 1], got %s", fmtFloat(x))
	}
}

func (v *validator) oneOf(key, x string, allowed ...string) {
	for _, a := range allowed {
		if x == a {
			return
		}
	}
	msg := ""
	for i, a := range allowed {
		switch {
		case i == 0:
		case i == len(allowed)-1:
			msg += " or "
		default:
			msg += ", "
		}
		msg += fmt.Sprintf("%q", a)
	}
	v.fail(key, nil, "must be %s, got %q", msg, x)
}

// Validate checks n and returns the first problem as an *Error (without file
// or line), or nil. Bundles with lanes = 0 count as removed. Load and Parse
// validate already; Validate is for nodes built or changed in Go.
func (n *Node) Validate() error {
	errs := n.validate()
	if len(errs) == 0 {
		return nil
	}
	return &Error{Key: errs[0].key, Msg: errs[0].msg}
}

// validate runs every check in declaration order and returns all failures.
func (n *Node) validate() []vErr {
	v := &validator{}

	if n.Name == "" {
		v.fail("name", nil, "must not be empty")
	}

	g := &n.GCD
	v.intRange("gcd.count", g.Count, 1, MaxGCDs)
	v.intMin("gcd.compute_units", g.ComputeUnits, 1)
	v.positive("gcd.clock_ghz", g.ClockGHz)
	v.positive("gcd.hbm_bandwidth_gbps", g.HBMBandwidthGBps)
	v.nonNegative("gcd.hbm_latency_ns", g.HBMLatencyNs)
	v.nonNegative("gcd.hub_forward_ns", g.HubForwardNs)
	v.nonNegative("gcd.reorder_ns", g.ReorderNs)
	v.fraction("gcd.hbm_efficiency", g.HBMEfficiency)
	v.nonNegative("gcd.kernel_launch_ns", g.KernelLaunchNs)
	v.nonNegative("gcd.kernel_end_ns", g.KernelEndNs)
	v.intMin("gcd.workgroup_slots", g.WorkgroupSlots, 1)
	v.intMin("gcd.cu_transaction_bytes", g.CUTransactionBytes, 64)
	v.intMin("gcd.cu_max_outstanding", g.CUMaxOutstanding, 1)
	if g.L2Bytes < 0 {
		v.fail("gcd.l2_bytes", nil, "must be >= 0, got %d", g.L2Bytes)
	}
	v.positive("gcd.l2_bandwidth_gbps", g.L2BandwidthGBps)
	v.nonNegative("gcd.l2_latency_ns", g.L2LatencyNs)
	if g.LineBytes < 1 {
		v.fail("gcd.line_bytes", nil, "must be >= 1, got %d", g.LineBytes)
	}
	if g.L2BlockBytes < 64 {
		v.fail("gcd.l2_block_bytes", nil, "must be >= 64, got %d", g.L2BlockBytes)
	}

	s := &n.SDMA
	v.intMin("sdma.host_engines", s.HostEngines, 1)
	v.intMin("sdma.xgmi_engines", s.XGMIEngines, 1)
	v.intMin("sdma.queues_per_engine", s.QueuesPerEngine, 1)
	v.positive("sdma.clock_ghz", s.ClockGHz)
	v.intMin("sdma.bytes_per_cycle", s.BytesPerCycle, 1)
	v.intMin("sdma.transaction_bytes", s.TransactionBytes, 64)
	v.intMin("sdma.max_outstanding", s.MaxOutstanding, 1)
	v.nonNegative("sdma.packet_process_ns", s.PacketProcessNs)
	v.nonNegative("sdma.fence_ns", s.FenceNs)
	v.nonNegative("sdma.signal_ns", s.SignalNs)

	x := &n.XGMI
	v.positive("xgmi.lane_bandwidth_gbps", x.LaneBandwidthGBps)
	v.nonNegative("xgmi.flight_latency_ns", x.FlightLatencyNs)
	v.intMin("xgmi.packet_payload_bytes", x.PacketPayloadBytes, 1)
	v.intMin("xgmi.packet_overhead_bytes", x.PacketOverheadBytes, 0)
	v.intMin("xgmi.request_bytes", x.RequestBytes, 1)
	v.intMin("xgmi.credit_packets", x.CreditPackets, 1)
	n.validateBundles(v)

	l := &n.HostLink
	v.positive("host_link.bandwidth_gbps", l.BandwidthGBps)
	v.nonNegative("host_link.flight_latency_ns", l.FlightLatencyNs)
	v.intMin("host_link.packet_payload_bytes", l.PacketPayloadBytes, 1)
	v.intMin("host_link.packet_overhead_bytes", l.PacketOverheadBytes, 0)
	v.intMin("host_link.request_bytes", l.RequestBytes, 1)
	v.intMin("host_link.credit_packets", l.CreditPackets, 1)

	h := &n.Host
	v.intRange("host.numa_domains", h.NUMADomains, 1, MaxNUMADomains)
	if len(h.GCDNUMA) != g.Count {
		v.fail("host.gcd_numa", []string{"gcd.count"},
			"must have one entry per GCD (gcd.count = %d), got %d", g.Count, len(h.GCDNUMA))
	}
	for i, d := range h.GCDNUMA {
		if d < 0 || d >= h.NUMADomains {
			v.fail(indexKey("host.gcd_numa", i), []string{"host.numa_domains"},
				"NUMA domain of GCD %d must be 0..%d (host.numa_domains = %d), got %d",
				i, h.NUMADomains-1, h.NUMADomains, d)
		}
	}
	v.nonNegative("host.hub_latency_ns", h.HubLatencyNs)
	v.nonNegative("host.remote_numa_ns", h.RemoteNUMANs)
	v.intMin("host.cores", h.Cores, 1)
	v.intMin("host.core_transaction_bytes", h.CoreTransactionBytes, 64)
	v.intMin("host.core_max_outstanding", h.CoreMaxOutstanding, 1)

	d := &n.DRAM
	v.intMin("dram.channels_per_domain", d.ChannelsPerDomain, 1)
	v.positive("dram.channel_bandwidth_gbps", d.ChannelBandwidthGBps)
	if math.IsNaN(d.Efficiency) || d.Efficiency <= 0 || d.Efficiency > 1 {
		v.fail("dram.efficiency", nil, "must be in (0, 1], got %s", fmtFloat(d.Efficiency))
	}
	v.nonNegative("dram.latency_ns", d.LatencyNs)

	r := &n.Runtime
	v.nonNegative("runtime.api_call_ns", r.APICallNs)
	v.nonNegative("runtime.sync_call_ns", r.SyncCallNs)
	v.nonNegative("runtime.doorbell_ns", r.DoorbellNs)
	v.nonNegative("runtime.event_record_ns", r.EventRecordNs)
	if r.BlitWorkgroupBytes < 1 {
		v.fail("runtime.blit_workgroup_bytes", nil, "must be >= 1, got %d", r.BlitWorkgroupBytes)
	}

	v.oneOf("routing.sdma", n.Routing.SDMA, RouteWidest, RouteFewest)
	v.oneOf("routing.kernel", n.Routing.Kernel, RouteWidest, RouteFewest)
	v.oneOf("routing.control", n.Routing.Control, RouteWidest, RouteFewest)
	v.intRange("routing.max_hops", n.Routing.MaxHops, 1, MaxHops)

	v.oneOf("sim.engine", n.Sim.Engine, "serial")
	v.intRange("env.HSA_ENABLE_SDMA", n.Env.EnableSDMA, 0, 1)
	v.intRange("env.HSA_ENABLE_PEER_SDMA", n.Env.EnablePeerSDMA, 0, 1)
	v.intRange("env.HSA_XNACK", n.Env.XNACK, 0, 1)

	// Reachability needs sound bundles and a sane GCD count and hop limit.
	if len(v.errs) == 0 {
		n.validateReach(v)
	}
	return v.errs
}

// validateBundles checks every bundle that is not removed (lanes != 0).
func (n *Node) validateBundles(v *validator) {
	count := n.GCD.Count
	seen := map[[2]int]int{} // unordered pair -> first bundle index
	for i, b := range n.XGMI.Bundles {
		if b.Lanes == 0 {
			continue // removed
		}
		key := indexKey("xgmi.bundle", i)
		if b.Lanes < 0 || b.Lanes > MaxLanes {
			v.fail(key+".lanes", nil, "must be 1..%d (0 removes the bundle), got %d", MaxLanes, b.Lanes)
		}
		bad := false
		for _, id := range b.GCDs {
			if id < 0 || id >= count {
				v.fail(key+".gcds", []string{"gcd.count"},
					"GCD %d does not exist (gcd.count = %d, ids 0..%d)", id, count, count-1)
				bad = true
				break
			}
		}
		if bad {
			continue
		}
		if b.GCDs[0] == b.GCDs[1] {
			v.fail(key+".gcds", nil, "joins GCD %d to itself", b.GCDs[0])
			continue
		}
		p := pair(b.GCDs[0], b.GCDs[1])
		if j, dup := seen[p]; dup {
			v.fail(key+".gcds", nil, "duplicate bundle between GCD %d and GCD %d (also xgmi.bundle[%d])",
				p[0], p[1], j)
			continue
		}
		seen[p] = i
	}
}

// validateReach checks that every GCD reaches every other one through
// bundles, within routing.max_hops hops.
func (n *Node) validateReach(v *validator) {
	count := n.GCD.Count
	adj := make([][]int, count)
	for _, b := range n.XGMI.Bundles {
		if b.Lanes > 0 {
			a, c := b.GCDs[0], b.GCDs[1]
			adj[a] = append(adj[a], c)
			adj[c] = append(adj[c], a)
		}
	}
	related := []string{"gcd.count", "xgmi.bundle"}
	worst, wa, wb := 0, 0, 0
	for src := 0; src < count; src++ {
		dist := hops(adj, src)
		for dst := 0; dst < count; dst++ {
			if dist[dst] < 0 {
				v.fail("xgmi.bundle", []string{"gcd.count"}, "GCD %d cannot reach GCD %d", src, dst)
				return
			}
			if dist[dst] > worst {
				worst, wa, wb = dist[dst], src, dst
			}
		}
	}
	if worst > n.Routing.MaxHops {
		v.fail("routing.max_hops", related,
			"GCD %d needs %d hops to reach GCD %d, more than max_hops = %d", wa, worst, wb, n.Routing.MaxHops)
	}
}

// hops returns the hop distance from src to every GCD (-1: unreachable).
func hops(adj [][]int, src int) []int {
	dist := make([]int, len(adj))
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	queue := []int{src}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		for _, b := range adj[a] {
			if dist[b] < 0 {
				dist[b] = dist[a] + 1
				queue = append(queue, b)
			}
		}
	}
	return dist
}

// pair orders a GCD pair.
func pair(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// removeDeadBundles drops bundles with lanes = 0.
func (n *Node) removeDeadBundles() {
	var keep []Bundle
	for _, b := range n.XGMI.Bundles {
		if b.Lanes != 0 {
			keep = append(keep, b)
		}
	}
	n.XGMI.Bundles = keep
}

func fmtFloat(x float64) string {
	return describe(x)[len("float "):]
}
