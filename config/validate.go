package config

import (
	"fmt"
	"slices"
	"strings"
)

// Limits of the checks. Every numeric value has a range: generous for
// what-if studies, but bounded so that no value can make a run take
// unbounded memory or time, or push a product out of int64 or float64.
// They are sanity bounds against typos and unit mistakes, not hardware
// limits.
const (
	MaxGCDs        = 64 // 8x a Frontier node; the route tables grow with the square
	MaxNUMADomains = 16 // 4x NPS4
	MaxLanes       = 16 // 4x a quad bundle
	MaxHops        = 8  // routes are enumerated up to this length

	// Latencies (ns): one second is beyond any hardware latency, so a
	// larger value is a unit mistake.
	MaxLatencyNs = 1e9
	// Bandwidths (GB/s): 1 MB/s to 1 PB/s. Below, a capacity's worth of
	// traffic takes centuries and times lose their precision.
	MinGBps, MaxGBps = 1e-3, 1e6
	// Clocks (GHz): 1 MHz to 100 GHz, for the same reason.
	MinGHz, MaxGHz = 1e-3, 100

	// Memory capacities (gcd.hbm_bytes, host.numa_bytes): 1 MiB to 1 PiB.
	// The top keeps a trace's sizes times line and workgroup counts in
	// int64 and is 16000x today's 64 GiB per GCD.
	MinMemoryBytes = 1 << 20
	MaxMemoryBytes = 1 << 50

	// Efficiencies (gcd.hbm_efficiency, dram.efficiency): a memory
	// sustaining under 1% of its peak is a mistake, and with the lowest
	// bandwidths a smaller one pushes times past what float64 resolves.
	MinEfficiency = 0.01
)

// Route policies accepted by routing.sdma, routing.kernel and routing.control.
const (
	RouteWidest = "widest" // maximise bottleneck bandwidth, then fewest hops
	RouteFewest = "fewest" // fewest hops, then widest
)

// Tie policies accepted by routing.sdma_ties and routing.kernel_ties.
const (
	TiesTable   = "table"    // one route per pair of hubs: the first tied route (lowest hubs)
	TiesPerCopy = "per_copy" // SDMA: copies alternate over tied routes
	TiesPin     = "pin"      // kernels: each memory stream of a CU keeps one of the tied routes
	TiesSpray   = "spray"    // kernels: transactions alternate over tied routes
)

// vErr is a validation failure: the key that is wrong and the keys whose
// values it was checked against (so a -set of a related key is blamed).
type vErr struct {
	key     string
	related []string
	msg     string
}

type validator struct {
	errs   []vErr
	bounds []Bound // every numeric range checked, in order
}

// Bound is the range a numeric key is checked against (both ends
// allowed).
type Bound struct {
	Key    string
	Lo, Hi float64
	Int    bool
}

// Bounds lists the numeric ranges n's keys are checked against.
func (n *Node) Bounds() []Bound {
	v := &validator{}
	n.validateWith(v)
	return v.bounds
}

func (v *validator) fail(key string, related []string, format string, args ...any) {
	v.errs = append(v.errs, vErr{key: key, related: related, msg: fmt.Sprintf(format, args...)})
}

// intRange checks lo <= x <= hi.
func (v *validator) intRange(key string, x, lo, hi int) {
	v.bounds = append(v.bounds, Bound{key, float64(lo), float64(hi), true})
	if x < lo || x > hi {
		v.fail(key, nil, "must be %d..%d, got %d", lo, hi, x)
	}
}

// int64Range checks lo <= x <= hi.
func (v *validator) int64Range(key string, x, lo, hi int64) {
	v.bounds = append(v.bounds, Bound{key, float64(lo), float64(hi), true})
	if x < lo || x > hi {
		v.fail(key, nil, "must be %d..%d, got %d", lo, hi, x)
	}
}

// floatRange checks lo <= x <= hi (so x is a number, not NaN or an
// infinity).
func (v *validator) floatRange(key string, x, lo, hi float64) {
	v.bounds = append(v.bounds, Bound{key, lo, hi, false})
	if !(x >= lo && x <= hi) {
		v.fail(key, nil, "must be in [%s, %s], got %s", fmtFloat(lo), fmtFloat(hi), fmtFloat(x))
	}
}

// latency checks a latency in ns: 0..MaxLatencyNs.
func (v *validator) latency(key string, x float64) { v.floatRange(key, x, 0, MaxLatencyNs) }

// gbps checks a bandwidth in GB/s: MinGBps..MaxGBps.
func (v *validator) gbps(key string, x float64) { v.floatRange(key, x, MinGBps, MaxGBps) }

// ghz checks a clock in GHz: MinGHz..MaxGHz.
func (v *validator) ghz(key string, x float64) { v.floatRange(key, x, MinGHz, MaxGHz) }

// powerOfTwo checks that x (already range-checked, > 0) is a power of two.
func (v *validator) powerOfTwo(key string, x int64) {
	if x > 0 && x&(x-1) != 0 {
		v.fail(key, nil, "must be a power of two, got %d", x)
	}
}

// efficiency checks a sustained fraction of a peak: MinEfficiency..1.
func (v *validator) efficiency(key string, x float64) { v.floatRange(key, x, MinEfficiency, 1) }

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
func (n *Node) validate() []vErr { return n.validateWith(&validator{}) }

func (n *Node) validateWith(v *validator) []vErr {

	if n.Name == "" {
		v.fail("name", nil, "must not be empty")
	}

	g := &n.GCD
	v.intRange("gcd.count", g.Count, 1, MaxGCDs)
	v.intRange("gcd.xcds", g.XCDs, 1, 32)                    // 4x MI300X's 8
	v.intRange("gcd.compute_units", g.ComputeUnits, 1, 1024) // 3x MI300X's 304; the dispatcher walks every CU per kernel
	if g.XCDs >= 1 && g.ComputeUnits >= 1 && g.XCDs*g.ComputeUnits > 1024 {
		v.fail("gcd.compute_units", []string{"gcd.xcds"}, "times gcd.xcds (%d) must be at most 1024 CUs, got %d", g.XCDs, g.XCDs*g.ComputeUnits)
	}
	v.ghz("gcd.clock_ghz", g.ClockGHz)
	v.int64Range("gcd.hbm_bytes", g.HBMBytes, MinMemoryBytes, MaxMemoryBytes)
	v.gbps("gcd.hbm_bandwidth_gbps", g.HBMBandwidthGBps)
	v.latency("gcd.hbm_latency_ns", g.HBMLatencyNs)
	v.latency("gcd.hub_forward_ns", g.HubForwardNs)
	v.latency("gcd.reorder_ns", g.ReorderNs)
	v.efficiency("gcd.hbm_efficiency", g.HBMEfficiency)
	v.latency("gcd.kernel_launch_ns", g.KernelLaunchNs)
	v.latency("gcd.kernel_end_ns", g.KernelEndNs)
	v.latency("gcd.cp_wake_ns", g.CPWakeNs)
	v.latency("gcd.packet_fetch_ns", g.PacketFetchNs)
	v.intRange("gcd.workgroup_slots", g.WorkgroupSlots, 1, 256) // 8x CDNA2's 32 waves per CU
	v.gbps("gcd.fp64_gflops", g.FP64GFlops)
	v.int64Range("gcd.cu_outstanding_bytes", g.CUOutstandingBytes, 64, 1<<30) // each in-flight piece is a packet: memory grows with it
	v.intRange("gcd.cu_bytes_per_clock", g.CUBytesPerClock, 1, 1<<16)         // 1000x a CDNA2 CU's 64 B per clock
	v.intRange("gcd.concurrent_kernels", g.ConcurrentKernels, 1, 1024)        // a hardware queue each
	v.int64Range("gcd.l2_bytes", g.L2Bytes, 0, 1<<30)                         // 128x MI250X's 8 MiB; residency is tracked per line
	v.intRange("gcd.l2_slices", g.L2Slices, 1, 1024)                          // 32x MI250X's 32 channels
	v.intRange("gcd.l2_bytes_per_clock", g.L2BytesPerClock, 1, 1<<16)         // 512x a channel's 128 B per clock
	// At least 1 ns: an L2 answering at 0 answers inside the request's own
	// event, and -check saw a CU count one step's bytes twice there.
	v.floatRange("gcd.l2_latency_ns", g.L2LatencyNs, 1, MaxLatencyNs)
	v.int64Range("gcd.line_bytes", g.LineBytes, 16, 4096) // 16 B (a dwordx4) to a 4 KiB page: a random access moves line/element times its bytes
	v.powerOfTwo("gcd.line_bytes", g.LineBytes)           // memory systems split addresses at powers of two
	v.intRange("gcd.tlb_entries", g.TLBEntries, 1, 1<<20) // 128x the 8192 assumed for MI250X; entries are map slots
	v.intRange("gcd.page_walkers", g.PageWalkers, 1, 1024)
	v.latency("gcd.page_walk_ns", g.PageWalkNs)

	n.validateMALL(v)

	s := &n.SDMA
	v.intRange("sdma.host_engines", s.HostEngines, 1, 16)          // 8x MI250X's 2; each engine is a component
	v.intRange("sdma.xgmi_engines", s.XGMIEngines, 1, 16)          // 5x MI250X's 3
	v.intRange("sdma.queues_per_engine", s.QueuesPerEngine, 1, 64) // 8x MI250X's 8 rings; each queue is a slice the engine scans
	v.ghz("sdma.clock_ghz", s.ClockGHz)
	v.intRange("sdma.bytes_per_cycle", s.BytesPerCycle, 1, 4096)        // 128x the MI250X engine's 32 B
	v.intRange("sdma.outstanding_bytes", s.OutstandingBytes, 64, 1<<30) // each in-flight transaction is a packet
	v.latency("sdma.packet_process_ns", s.PacketProcessNs)
	v.latency("sdma.fence_ns", s.FenceNs)
	v.latency("sdma.signal_ns", s.SignalNs)

	x := &n.XGMI
	v.gbps("xgmi.lane_bandwidth_gbps", x.LaneBandwidthGBps)
	v.latency("xgmi.flight_latency_ns", x.FlightLatencyNs)
	n.validateWire(v, "xgmi", x.PacketPayloadBytes, x.PacketOverheadBytes, x.ResponseOverheadBytes, x.RequestBytes, x.CreditBytes)
	v.intRange("xgmi.response_overhead_bytes", x.ResponseOverheadBytes, 0, 1<<16)
	n.validateBundles(v)

	l := &n.HostLink
	v.gbps("host_link.bandwidth_gbps", l.BandwidthGBps)
	v.latency("host_link.flight_latency_ns", l.FlightLatencyNs)
	n.validateWire(v, "host_link", l.PacketPayloadBytes, l.PacketOverheadBytes, l.ResponseOverheadBytes, l.RequestBytes, l.CreditBytes)
	v.intRange("host_link.response_overhead_bytes", l.ResponseOverheadBytes, 0, 1<<16)

	h := &n.Host
	v.intRange("host.numa_domains", h.NUMADomains, 1, MaxNUMADomains)
	v.int64Range("host.numa_bytes", h.NUMABytes, MinMemoryBytes, MaxMemoryBytes)
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
	n.validateHostMemory(v)
	v.latency("host.hub_latency_ns", h.HubLatencyNs)
	v.latency("host.remote_numa_ns", h.RemoteNUMANs)
	v.intRange("host.cores", h.Cores, 1, 1024)                                     // 4x a 256-core two-socket host; each core is CU-like state
	v.int64Range("host.core_outstanding_bytes", h.CoreOutstandingBytes, 64, 1<<30) // each in-flight piece is a packet
	v.int64Range("host.core_load_lines", h.CoreLoadLines, 1, 1<<24)                // a 1 GiB window, as for stores

	d := &n.DRAM
	v.intRange("dram.channels_per_domain", d.ChannelsPerDomain, 1, 64) // 5x a whole 12-channel socket in one domain
	v.gbps("dram.channel_bandwidth_gbps", d.ChannelBandwidthGBps)
	v.efficiency("dram.efficiency", d.Efficiency)
	v.latency("dram.latency_ns", d.LatencyNs)

	r := &n.Runtime
	v.latency("runtime.api_call_ns", r.APICallNs)
	v.latency("runtime.sync_call_ns", r.SyncCallNs)
	v.latency("runtime.doorbell_ns", r.DoorbellNs)
	v.latency("runtime.event_record_ns", r.EventRecordNs)
	v.int64Range("runtime.blit_workgroup_bytes", r.BlitWorkgroupBytes, 1, 1<<30) // a workgroup copying more than 1 GiB is a unit mistake
	v.oneOf("runtime.event_release", r.EventRelease, "system", "agent")
	v.int64Range("runtime.allocation_bytes", r.AllocationBytes, 1, 1<<30) // alignment up to a 1 GiB huge page
	v.powerOfTwo("runtime.allocation_bytes", r.AllocationBytes)
	v.int64Range("runtime.host_page_bytes", r.HostPageBytes, 4096, 1<<30) // x86-64 base page to a 1 GiB huge page
	v.powerOfTwo("runtime.host_page_bytes", r.HostPageBytes)
	v.int64Range("runtime.staging_bytes", r.StagingBytes, 4096, 1<<30) // a page up to 1 GiB: the buffer is allocated once per GCD
	v.int64Range("runtime.pin_min_bytes", r.PinMinBytes, 0, 1<<40)     // 0: pin every copy; 1 TiB: stage every copy
	v.latency("runtime.pin_ns", r.PinNs)
	v.latency("runtime.pin_page_ns", r.PinPageNs)
	v.latency("runtime.managed_fault_ns", r.ManagedFaultNs)
	v.latency("runtime.managed_page_ns", r.ManagedPageNs)
	v.latency("runtime.prefetch_ns", r.PrefetchNs)
	n.validateReleases(v)

	v.oneOf("routing.sdma", n.Routing.SDMA, RouteWidest, RouteFewest)
	v.oneOf("routing.kernel", n.Routing.Kernel, RouteWidest, RouteFewest)
	v.oneOf("routing.control", n.Routing.Control, RouteWidest, RouteFewest)
	v.oneOf("routing.sdma_ties", n.Routing.SDMATies, TiesTable, TiesPerCopy)
	v.oneOf("routing.kernel_ties", n.Routing.KernelTies, TiesTable, TiesPin, TiesSpray)
	v.intRange("routing.max_hops", n.Routing.MaxHops, 1, MaxHops)

	n.validateSim(v)
	v.intRange("env.HSA_ENABLE_SDMA", n.Env.EnableSDMA, 0, 1)
	v.intRange("env.HSA_ENABLE_PEER_SDMA", n.Env.EnablePeerSDMA, 0, 1)
	v.intRange("env.HSA_XNACK", n.Env.XNACK, 0, 1)
	v.intRange("env.MPICH_GPU_IPC_ENABLED", n.Env.IPCEnabled, 0, 1)
	v.int64Range("env.MPICH_GPU_IPC_THRESHOLD", n.Env.IPCThreshold, 0, 1<<40)
	v.intRange("env.MPICH_GPU_IPC_CACHE_MAX_SIZE", n.Env.IPCCacheMax, 1, 1<<20)
	v.int64Range("env.GTL_HSA_VSMSG_CUTOFF_SIZE", n.Env.VSMsgCutoff, 0, 1<<40)
	for _, t := range []struct {
		key string
		x   int64
	}{{"MPICH_REDUCE_SHORT_MSG_SIZE", n.Env.ReduceShort}, {"MPICH_ALLREDUCE_SHORT_MSG_SIZE", n.Env.AllreduceShort},
		{"MPICH_ALLREDUCE_MAX_SMP_SIZE", n.Env.AllreduceMaxSMP}, {"MPICH_REDUCE_SCATTER_COMMUTATIVE_LONG_MSG_SIZE", n.Env.ReduceScatterLong},
		{"MPICH_ALLGATHER_LONG_MSG_SIZE", n.Env.AllgatherLong}, {"MPICH_ALLGATHER_SHORT_MSG_SIZE", n.Env.AllgatherShort},
		{"MPICH_ALLTOALL_SHORT_MSG_SIZE", n.Env.AlltoallShort}, {"MPICH_ALLTOALL_MEDIUM_MSG_SIZE", n.Env.AlltoallMedium}} {
		v.int64Range("env."+t.key, t.x, 0, 1<<40)
	}
	v.intRange("env.MPICH_GPU_ALLREDUCE_USE_KERNEL", n.Env.AllreduceKernel, 0, 1)
	v.intRange("env.MPICH_ENABLE_YAKSA", n.Env.EnableYaksa, 0, 1)
	v.latency("mpi.post_ns", n.MPI.PostNs)
	v.latency("mpi.ipc_open_ns", n.MPI.IPCOpenNs)
	n.validateRCCL(v)
	v.int64Range("env.FI_CXI_RDZV_THRESHOLD", n.Env.RdzvThreshold, 0, 1<<40)
	v.int64Range("env.FI_CXI_RDZV_GET_MIN", n.Env.RdzvGetMin, 0, 1<<40)
	v.int64Range("env.FI_CXI_RDZV_EAGER_SIZE", n.Env.RdzvEagerSize, 0, 1<<40)
	v.intRange("env.NUM_ITERATIONS", n.Env.TBIterations, 1, 1<<20) // TransferBench's negative (seconds) is not modelled
	v.intRange("env.NUM_WARMUPS", n.Env.TBWarmups, 0, 1<<20)
	v.intRange("env.OUTPUT_TO_CSV", n.Env.TBCSV, 0, 1)
	v.intRange("env.GFX_BLOCK_SIZE", n.Env.TBBlockSize, 64, 512)
	v.intRange("env.GFX_UNROLL", n.Env.TBUnroll, 1, 8)
	if n.Env.TBBlockSize%64 != 0 {
		v.fail("env.GFX_BLOCK_SIZE", nil, "must be a multiple of 64 (TransferBench), got %d", n.Env.TBBlockSize)
	}
	n.validateNetwork(v)

	// Reachability needs sound bundles and a sane GCD count and hop limit.
	if len(v.errs) == 0 {
		n.validateReach(v)
	}
	return v.errs
}

// validateWire checks a link's packet sizes and credits; pre is "xgmi" or
// "host_link". Links charge wire packets arithmetically, so these bound
// products, not event counts.
func (n *Node) validateWire(v *validator, pre string, payload, overhead, response, request, credit int) {
	v.intRange(pre+".packet_payload_bytes", payload, 1, 1<<16)   // 64 KiB: far above any link protocol's packet
	v.intRange(pre+".packet_overhead_bytes", overhead, 0, 1<<16) // likewise
	v.intRange(pre+".request_bytes", request, 1, 1<<16)          // likewise
	v.intRange(pre+".credit_bytes", credit, 64, 1<<30)           // each credited packet in flight is held in memory
	// A read request is a header: never more wire than the data packet it
	// asks for. Larger, the request direction would be the busier one,
	// which the links' read path does not wait on.
	if payload >= 1 && request > payload+response {
		v.fail(pre+".request_bytes", []string{pre + ".packet_payload_bytes", pre + ".response_overhead_bytes"},
			"must be at most a read-data packet (packet_payload_bytes + response_overhead_bytes = %d), got %d", payload+response, request)
	}
}

// Granularity limits: below a few KiB a big copy needs millions of events;
// above the in-flight limits a single transaction could not be issued.
const (
	MinTransactionBytes = 4 << 10
	MaxTransactionBytes = 16 << 20
	MaxL2BlockBytes     = 8 << 10
)

// validateSim checks the simulation granularity against the hardware it
// stands for: a transaction may not exceed what the hardware keeps in
// flight or what a link buffers, or the model would stall on it.
func (n *Node) validateSim(v *validator) {
	s := &n.Sim
	txn := func(key string, x int64) {
		v.int64Range(key, x, MinTransactionBytes, MaxTransactionBytes)
		v.powerOfTwo(key, x)
	}
	txn("sim.sdma_transaction_bytes", int64(s.SDMATransactionBytes))
	txn("sim.cu_transaction_bytes", s.CUTransactionBytes)
	txn("sim.core_transaction_bytes", s.CoreTransactionBytes)
	txn("sim.nic_transaction_bytes", s.NICTransactionBytes)
	txn("sim.l2_block_bytes", s.L2BlockBytes)
	// LRU over blocks stands for LRU over lines only while blocks are small:
	// 4 and 8 KiB agree within 1% on STREAM, 16 KiB and up do not
	if s.L2BlockBytes > MaxL2BlockBytes {
		v.fail("sim.l2_block_bytes", nil, "must be at most %d, got %d", MaxL2BlockBytes, s.L2BlockBytes)
	}
	if s.L2BlockBytes > 0 && n.GCD.LineBytes > 0 && s.L2BlockBytes%n.GCD.LineBytes != 0 {
		v.fail("sim.l2_block_bytes", []string{"gcd.line_bytes"}, "must be a multiple of gcd.line_bytes (%d), got %d",
			n.GCD.LineBytes, s.L2BlockBytes)
	}
	if s.L2BlockBytes > n.GCD.L2Bytes && n.GCD.L2Bytes > 0 {
		v.fail("sim.l2_block_bytes", []string{"gcd.l2_bytes"}, "must not exceed gcd.l2_bytes (%d), got %d",
			n.GCD.L2Bytes, s.L2BlockBytes)
	}
	if !(s.EarlyBooking >= 0 && s.EarlyBooking <= 1) {
		v.fail("sim.early_booking", nil, "must be in [0, 1], got %s", fmtFloat(s.EarlyBooking))
	}
	// a transaction must fit in what the engine keeps in flight
	if s.SDMATransactionBytes > n.SDMA.OutstandingBytes && s.SDMATransactionBytes >= MinTransactionBytes {
		v.fail("sim.sdma_transaction_bytes", []string{"sdma.outstanding_bytes"},
			"must be at most sdma.outstanding_bytes (%d), got %d", n.SDMA.OutstandingBytes, s.SDMATransactionBytes)
	}
	// only NICs send over their PCIe link and the network
	for _, c := range []struct {
		key string
		x   int
	}{{"nic.pcie.credit_bytes", n.NIC.PCIe.CreditBytes}, {"network.link.credit_bytes", n.Network.Link.CreditBytes}} {
		if int64(c.x) < s.NICTransactionBytes {
			v.fail(c.key, []string{"sim.nic_transaction_bytes"}, "must hold a NIC transaction (%d bytes), got %d", s.NICTransactionBytes, c.x)
		}
	}
	if s.NICTransactionBytes > int64(n.NIC.OutstandingBytes) && s.NICTransactionBytes >= MinTransactionBytes && n.NIC.OutstandingBytes >= 64 {
		v.fail("sim.nic_transaction_bytes", []string{"nic.outstanding_bytes"},
			"must be at most nic.outstanding_bytes (%d), got %d", n.NIC.OutstandingBytes, s.NICTransactionBytes)
	}
	largest := max(int64(s.SDMATransactionBytes), s.CUTransactionBytes, s.CoreTransactionBytes, s.NICTransactionBytes)
	for _, c := range []struct {
		key string
		x   int
	}{{"xgmi.credit_bytes", n.XGMI.CreditBytes}, {"host_link.credit_bytes", n.HostLink.CreditBytes}} {
		if int64(c.x) < largest {
			v.fail(c.key, []string{"sim.sdma_transaction_bytes", "sim.cu_transaction_bytes", "sim.core_transaction_bytes", "sim.nic_transaction_bytes"},
				"must hold the largest simulated transaction (%d bytes), got %d", largest, c.x)
		}
	}
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

// validateRCCL checks the rccl section and the NCCL_* variables.
func (n *Node) validateRCCL(v *validator) {
	r, e := n.RCCL, n.Env
	v.intRange("rccl.threads", r.Threads, 64, 1024)
	v.intRange("rccl.steps", r.Steps, 4, 64)
	if r.Steps%4 != 0 && r.Steps > 0 {
		v.fail("rccl.steps", nil, "must be a multiple of 4 (chunks take steps/2 slots, slices steps/4), got %d", r.Steps)
	}
	v.intRange("rccl.ll_lines_per_thread", r.LLLinesPerThread, 1, 64)
	v.intRange("rccl.unroll", r.Unroll, 1, 64)
	v.intRange("rccl.p2p_unroll", r.P2PUnroll, 1, 64)
	v.latency("rccl.enqueue_ns", r.EnqueueNs)
	for _, k := range []struct {
		key string
		x   float64
	}{{"rccl.base_lat_ll_us", r.BaseLatLLUs}, {"rccl.base_lat_simple_us", r.BaseLatSimpleUs},
		{"rccl.hw_lat_ring_ll_us", r.HwLatRingLLUs}, {"rccl.hw_lat_ring_simple_us", r.HwLatRingSimpleUs},
		{"rccl.hw_lat_tree_ll_us", r.HwLatTreeLLUs}, {"rccl.hw_lat_tree_simple_us", r.HwLatTreeSimpleUs}} {
		v.floatRange(k.key, k.x, 0, 1e6)
	}
	for _, k := range []struct {
		key string
		x   float64
	}{{"rccl.bw_ratio_ring_ll", r.BWRatioRingLL}, {"rccl.bw_ratio_ring_simple", r.BWRatioRingSimple},
		{"rccl.bw_ratio_tree_ll", r.BWRatioTreeLL}, {"rccl.bw_ratio_tree_simple", r.BWRatioTreeSimple}} {
		v.floatRange(k.key, k.x, 0, 10)
	}
	for key, c := range map[string][]float64{"rccl.tree_correction_ll": r.TreeCorrectionLL, "rccl.tree_correction_simple": r.TreeCorrectionSimple} {
		if len(c) == 0 || len(c) > 64 {
			v.fail(key, nil, "want 1..64 factors (by log2 of bytes/64), got %d", len(c))
		}
		for i, f := range c {
			v.floatRange(fmt.Sprintf("%s[%d]", key, i), f, 0, 10)
		}
	}
	v.int64Range("rccl.thread_threshold_ll", r.ThreadThresholdLL, 0, 1<<20)
	v.int64Range("rccl.thread_threshold_simple", r.ThreadThresholdSimple, 0, 1<<20)
	if e.NCCLProto == "LL128" {
		v.fail("env.NCCL_PROTO", nil, "LL128 is not enabled on gfx90a (MI250X): RCCL runs LL and Simple only")
	} else {
		v.oneOf("env.NCCL_PROTO", e.NCCLProto, "", "LL", "Simple")
	}
	v.oneOf("env.NCCL_ALGO", e.NCCLAlgo, "", "Ring", "Tree")
	v.intRange("env.NCCL_MIN_NCHANNELS", e.NCCLMinChannels, -2, 128)
	v.intRange("env.NCCL_MAX_NCHANNELS", e.NCCLMaxChannels, -2, 128)
	v.int64Range("env.NCCL_BUFFSIZE", e.NCCLBuffSize, 1<<12, 1<<30)
	if line := int64(r.Steps) * 64; r.Steps >= 4 && r.Steps <= 64 && e.NCCLBuffSize%line != 0 {
		v.fail("env.NCCL_BUFFSIZE", nil, "must be a multiple of %d (rccl.steps slots of whole 64-byte lines), got %d", line, e.NCCLBuffSize)
	}
	v.oneOf("env.NCCL_DEBUG", e.NCCLDebug, "", "VERSION", "WARN", "INFO", "TRACE")
}

// validateReleases checks every ROCm release entry and that runtime.rocm
// names one of them.
func (n *Node) validateReleases(v *validator) {
	r := &n.Runtime
	var names []string
	for i, rel := range r.Releases {
		key := indexKey("runtime.release", i)
		if rel.ROCm == "" || slices.Contains(names, rel.ROCm) {
			v.fail(key+".rocm", nil, "must name a release once, got %q", rel.ROCm)
		}
		names = append(names, rel.ROCm)
		v.int64Range(key+".pin_chunk_bytes", rel.PinChunkBytes, 4096, 1<<40) // at least a page
		v.latency(key+".fault_pending_ns", rel.FaultPendingNs)
	}
	if !slices.Contains(names, r.ROCm) {
		v.fail("runtime.rocm", []string{"runtime.release"}, "unknown ROCm release %q (runtime.release has %s)", r.ROCm, strings.Join(names, ", "))
	}
}

// MaxMALLBytes bounds mall.bytes: 8x MI300X's 256 MiB; the cache keeps
// state per block of sim.l2_block_bytes.
const MaxMALLBytes = 1 << 31

// validateMALL checks the MALL's keys; with bytes = 0 there is none and
// only their ranges are checked.
func (n *Node) validateMALL(v *validator) {
	m := &n.MALL
	v.int64Range("mall.bytes", m.Bytes, 0, MaxMALLBytes)
	v.intRange("mall.ways", m.Ways, 1, 64) // 4x MI300X's 16; a lookup scans a set
	v.int64Range("mall.line_bytes", m.LineBytes, 16, 4096)
	v.powerOfTwo("mall.line_bytes", m.LineBytes)
	v.intRange("mall.channels", m.Channels, 1, 1024) // 8x MI300X's 128
	v.gbps("mall.channel_bandwidth_gbps", m.ChannelBandwidthGBps)
	// at least 1 ns, as the L2's: an answer inside the request's own event
	v.floatRange("mall.latency_ns", m.LatencyNs, 1, MaxLatencyNs)
	block := n.Sim.L2BlockBytes
	if m.Bytes == 0 || block <= 0 || m.Ways < 1 {
		return
	}
	if set := int64(m.Ways) * block; m.Bytes%set != 0 {
		v.fail("mall.bytes", []string{"mall.ways", "sim.l2_block_bytes"},
			"must be a whole number of sets, a multiple of mall.ways x sim.l2_block_bytes (%d), got %d", set, m.Bytes)
	}
	if m.LineBytes > 0 && block%m.LineBytes != 0 {
		v.fail("mall.line_bytes", []string{"sim.l2_block_bytes"}, "must divide sim.l2_block_bytes (%d), got %d", block, m.LineBytes)
	}
}

// validateHostMemory checks host.memory; an APU node ("hbm") has one NUMA
// domain per GCD, domain g being GCD g's HBM, so host memory and device
// memory of an APU are one capacity.
func (n *Node) validateHostMemory(v *validator) {
	h := &n.Host
	v.oneOf("host.memory", h.Memory, HostDDR, HostHBM)
	if !h.Unified() {
		return
	}
	if h.NUMADomains != n.GCD.Count {
		v.fail("host.numa_domains", []string{"host.memory", "gcd.count"},
			"must equal gcd.count (%d) with host.memory = %q: each APU's HBM is one NUMA domain, got %d", n.GCD.Count, HostHBM, h.NUMADomains)
	}
	for i, d := range h.GCDNUMA {
		if d != i {
			v.fail(indexKey("host.gcd_numa", i), []string{"host.memory"},
				"must be %d with host.memory = %q: GCD %d's NUMA domain is its own HBM, got %d", i, HostHBM, i, d)
		}
	}
	if h.NUMABytes != n.GCD.HBMBytes {
		v.fail("host.numa_bytes", []string{"host.memory", "gcd.hbm_bytes"},
			"must equal gcd.hbm_bytes (%d) with host.memory = %q: a NUMA domain is its APU's HBM, got %d", n.GCD.HBMBytes, HostHBM, h.NUMABytes)
	}
}
