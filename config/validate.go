package config

import (
	"fmt"
	"slices"
	"strconv"
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

// param is key's declaration in Params; every key validation checks has
// one (TestEveryKeyDeclaredOnce), so a missing one is this package's bug.
func param(key string) *Param {
	p := ParamOf(key)
	if p == nil {
		panic("config: " + key + " is not declared in Params")
	}
	return p
}

// int checks x against key's declared range, and that it is a power of
// two if the declaration says so.
func (v *validator) int(key string, x int64) {
	p := param(key)
	lo, hi := int64(p.Lo), int64(p.Hi)
	v.bounds = append(v.bounds, Bound{key, p.Lo, p.Hi, true})
	if x < lo || x > hi {
		v.fail(key, nil, "must be %d..%d, got %d", lo, hi, x)
	}
	if p.Pow2 && x > 0 && x&(x-1) != 0 {
		v.fail(key, nil, "must be a power of two, got %d", x)
	}
}

// float checks lo <= x <= hi of key's declaration (so x is a number, not
// NaN or an infinity).
func (v *validator) float(key string, x float64) {
	p := param(key)
	v.bounds = append(v.bounds, Bound{key, p.Lo, p.Hi, false})
	if !(x >= p.Lo && x <= p.Hi) {
		v.fail(key, nil, "must be in [%s, %s], got %s", fmtFloat(p.Lo), fmtFloat(p.Hi), fmtFloat(x))
	}
}

// choice checks x is one of the values key's declaration allows.
func (v *validator) choice(key, x string) { v.oneOf(key, x, param(key).OneOf...) }

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
	v.int("gcd.count", int64(g.Count))
	v.int("gcd.xcds", int64(g.XCDs))
	v.int("gcd.compute_units", int64(g.ComputeUnits))
	if g.XCDs >= 1 && g.ComputeUnits >= 1 && g.XCDs*g.ComputeUnits > 1024 {
		v.fail("gcd.compute_units", []string{"gcd.xcds"}, "times gcd.xcds (%d) must be at most 1024 CUs, got %d", g.XCDs, g.XCDs*g.ComputeUnits)
	}
	v.float("gcd.clock_ghz", g.ClockGHz)
	v.int("gcd.hbm_bytes", g.HBMBytes)
	v.float("gcd.hbm_bandwidth_gbps", g.HBMBandwidthGBps)
	v.float("gcd.hbm_latency_ns", g.HBMLatencyNs)
	v.float("gcd.hub_forward_ns", g.HubForwardNs)
	v.float("gcd.reorder_ns", g.ReorderNs)
	v.float("gcd.hbm_efficiency", g.HBMEfficiency)
	v.float("gcd.kernel_launch_ns", g.KernelLaunchNs)
	v.float("gcd.kernel_end_ns", g.KernelEndNs)
	v.float("gcd.wave_start_ns", g.WaveStartNs)
	v.float("gcd.cp_wake_ns", g.CPWakeNs)
	v.float("gcd.packet_fetch_ns", g.PacketFetchNs)
	v.int("gcd.workgroup_slots", int64(g.WorkgroupSlots))
	v.float("gcd.fp64_gflops", g.FP64GFlops)
	v.int("gcd.cu_outstanding_bytes", g.CUOutstandingBytes)
	v.int("gcd.cu_bytes_per_clock", int64(g.CUBytesPerClock))
	v.int("gcd.concurrent_kernels", int64(g.ConcurrentKernels))
	v.int("gcd.l2_bytes", g.L2Bytes)
	v.int("gcd.l2_slices", int64(g.L2Slices))
	v.int("gcd.l2_bytes_per_clock", int64(g.L2BytesPerClock))
	v.float("gcd.l2_latency_ns", g.L2LatencyNs)
	v.int("gcd.line_bytes", g.LineBytes)
	v.int("gcd.tlb_entries", int64(g.TLBEntries))
	v.int("gcd.page_walkers", int64(g.PageWalkers))
	v.float("gcd.page_walk_ns", g.PageWalkNs)

	n.validateMALL(v)
	n.validatePartition(v)

	s := &n.SDMA
	v.int("sdma.host_engines", int64(s.HostEngines))
	v.int("sdma.xgmi_engines", int64(s.XGMIEngines))
	v.int("sdma.queues_per_engine", int64(s.QueuesPerEngine))
	v.float("sdma.clock_ghz", s.ClockGHz)
	v.int("sdma.bytes_per_cycle", int64(s.BytesPerCycle))
	v.int("sdma.outstanding_bytes", int64(s.OutstandingBytes))
	v.float("sdma.packet_process_ns", s.PacketProcessNs)
	v.float("sdma.fence_ns", s.FenceNs)
	v.float("sdma.signal_ns", s.SignalNs)

	x := &n.XGMI
	v.float("xgmi.lane_bandwidth_gbps", x.LaneBandwidthGBps)
	v.float("xgmi.flight_latency_ns", x.FlightLatencyNs)
	n.validateWire(v, "xgmi", x.PacketPayloadBytes, x.PacketOverheadBytes, x.ResponseOverheadBytes, x.RequestBytes, x.CreditBytes)
	v.int("xgmi.response_overhead_bytes", int64(x.ResponseOverheadBytes))
	n.validateBundles(v)

	l := &n.HostLink
	v.float("host_link.bandwidth_gbps", l.BandwidthGBps)
	v.float("host_link.flight_latency_ns", l.FlightLatencyNs)
	n.validateWire(v, "host_link", l.PacketPayloadBytes, l.PacketOverheadBytes, l.ResponseOverheadBytes, l.RequestBytes, l.CreditBytes)
	v.int("host_link.response_overhead_bytes", int64(l.ResponseOverheadBytes))

	h := &n.Host
	v.int("host.numa_domains", int64(h.NUMADomains))
	v.int("host.numa_bytes", h.NUMABytes)
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
	v.float("host.hub_latency_ns", h.HubLatencyNs)
	v.float("host.remote_numa_ns", h.RemoteNUMANs)
	v.int("host.cores", int64(h.Cores))
	v.int("host.core_outstanding_bytes", h.CoreOutstandingBytes)
	v.int("host.core_load_lines", h.CoreLoadLines)
	v.float("host.core_to_core_ns", h.CoreToCoreNs)
	v.int("host.l3_bytes", h.L3Bytes)
	v.float("host.ccd_link_gbps", h.CCDLinkGBps)

	d := &n.DRAM
	v.int("dram.channels_per_domain", int64(d.ChannelsPerDomain))
	v.float("dram.channel_bandwidth_gbps", d.ChannelBandwidthGBps)
	v.float("dram.efficiency", d.Efficiency)
	v.float("dram.latency_ns", d.LatencyNs)

	r := &n.Runtime
	v.float("runtime.api_call_ns", r.APICallNs)
	v.float("runtime.sync_call_ns", r.SyncCallNs)
	v.float("runtime.doorbell_ns", r.DoorbellNs)
	v.float("runtime.event_record_ns", r.EventRecordNs)
	v.int("runtime.blit_workgroup_bytes", r.BlitWorkgroupBytes)
	v.choice("runtime.event_release", r.EventRelease)
	v.int("runtime.allocation_bytes", r.AllocationBytes)
	v.int("runtime.host_page_bytes", r.HostPageBytes)
	v.int("runtime.staging_bytes", r.StagingBytes)
	v.int("runtime.pin_min_bytes", r.PinMinBytes)
	v.float("runtime.pin_ns", r.PinNs)
	v.float("runtime.pin_page_ns", r.PinPageNs)
	v.int("runtime.mmap_bytes", r.MmapBytes)
	v.float("runtime.pin_mapped_page_ns", r.PinMappedPageNs)
	v.float("runtime.pin_written_page_ns", r.PinWrittenPageNs)
	v.float("runtime.managed_fault_ns", r.ManagedFaultNs)
	v.float("runtime.prefetch_ns", r.PrefetchNs)
	n.validateReleases(v)

	v.choice("routing.sdma", n.Routing.SDMA)
	v.choice("routing.kernel", n.Routing.Kernel)
	v.choice("routing.control", n.Routing.Control)
	v.choice("routing.sdma_ties", n.Routing.SDMATies)
	v.choice("routing.kernel_ties", n.Routing.KernelTies)
	v.int("routing.max_hops", int64(n.Routing.MaxHops))

	n.validateSim(v)
	v.int("env.HSA_ENABLE_SDMA", int64(n.Env.EnableSDMA))
	v.int("env.HSA_ENABLE_PEER_SDMA", int64(n.Env.EnablePeerSDMA))
	v.int("env.HSA_XNACK", int64(n.Env.XNACK))
	v.int("env.HSA_FORCE_SDMA_SIZE", n.Env.ForceSDMASize)
	v.int("env.MPICH_GPU_IPC_ENABLED", int64(n.Env.IPCEnabled))
	v.int("env.MPICH_GPU_IPC_THRESHOLD", n.Env.IPCThreshold)
	v.int("env.MPICH_GPU_IPC_CACHE_MAX_SIZE", int64(n.Env.IPCCacheMax))
	v.int("env.GTL_HSA_VSMSG_CUTOFF_SIZE", n.Env.VSMsgCutoff)
	for _, t := range []struct {
		key string
		x   int64
	}{{"MPICH_REDUCE_SHORT_MSG_SIZE", n.Env.ReduceShort}, {"MPICH_ALLREDUCE_SHORT_MSG_SIZE", n.Env.AllreduceShort},
		{"MPICH_ALLREDUCE_MAX_SMP_SIZE", n.Env.AllreduceMaxSMP}, {"MPICH_REDUCE_SCATTER_COMMUTATIVE_LONG_MSG_SIZE", n.Env.ReduceScatterLong},
		{"MPICH_ALLGATHER_LONG_MSG_SIZE", n.Env.AllgatherLong}, {"MPICH_ALLGATHER_SHORT_MSG_SIZE", n.Env.AllgatherShort},
		{"MPICH_ALLTOALL_SHORT_MSG_SIZE", n.Env.AlltoallShort}, {"MPICH_ALLTOALL_MEDIUM_MSG_SIZE", n.Env.AlltoallMedium}} {
		v.int("env."+t.key, t.x)
	}
	v.int("env.MPICH_GPU_ALLREDUCE_USE_KERNEL", int64(n.Env.AllreduceKernel))
	v.int("env.MPICH_GPU_ALLREDUCE_KERNEL_THRESHOLD", n.Env.AllreduceKernelThreshold)
	v.int("env.MPICH_GPU_ALLREDUCE_BLK_SIZE", n.Env.AllreduceBlock)
	v.int("env.MPICH_ENABLE_YAKSA", int64(n.Env.EnableYaksa))
	v.int("env.MPICH_BCAST_INTRANODE_RADIX", int64(n.Env.BcastRadix))
	v.int("env.MPICH_SHARED_MEM_COLL_OPT", int64(n.Env.SharedMemColl))
	v.int("env.MPICH_SHARED_MEM_COLL_NCELLS", int64(n.Env.SharedMemCells))
	v.int("env.MPICH_SHARED_MEM_COLL_CELLSZ", n.Env.SharedMemCellBytes)
	v.int("env.MPICH_POSIX_NUM_COLLS_THRESHOLD", int64(n.Env.PosixCollsThreshold))
	v.int("env.MPICH_REDUCE_INTRANODE_TREE_KVAL", int64(n.Env.ReduceIntranodeKval))
	v.int("env.MPICH_BCAST_INTRANODE_TREE_KVAL", int64(n.Env.BcastIntranodeKval))
	v.float("mpi.post_ns", n.MPI.PostNs)
	v.float("mpi.ipc_open_ns", n.MPI.IPCOpenNs)
	v.choice("mpi.visible_gcds", n.MPI.VisibleGCDs)
	n.validateRCCL(v)
	v.int("env.FI_CXI_RDZV_THRESHOLD", n.Env.RdzvThreshold)
	v.int("env.FI_CXI_RDZV_GET_MIN", n.Env.RdzvGetMin)
	v.int("env.FI_CXI_RDZV_EAGER_SIZE", n.Env.RdzvEagerSize)
	v.int("env.NUM_ITERATIONS", int64(n.Env.TBIterations))
	v.int("env.NUM_WARMUPS", int64(n.Env.TBWarmups))
	v.int("env.OUTPUT_TO_CSV", int64(n.Env.TBCSV))
	v.int("env.GFX_BLOCK_SIZE", int64(n.Env.TBBlockSize))
	v.int("env.GFX_UNROLL", int64(n.Env.TBUnroll))
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
	v.int(pre+".packet_payload_bytes", int64(payload))
	v.int(pre+".packet_overhead_bytes", int64(overhead))
	v.int(pre+".request_bytes", int64(request))
	v.int(pre+".credit_bytes", int64(credit))
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
		v.int(key, x)
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
	v.float("sim.early_booking", s.EarlyBooking)
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
			v.fail(key+".gcds", []string{indexKey("xgmi.bundle", j) + ".gcds"}, "duplicate bundle between GCD %d and GCD %d (also xgmi.bundle[%d])",
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
	cut := []string{"gcd.count"} // and the bundles lanes = 0 removed: a layer that removed one is blamed
	for i, b := range n.XGMI.Bundles {
		if b.Lanes > 0 {
			a, c := b.GCDs[0], b.GCDs[1]
			adj[a] = append(adj[a], c)
			adj[c] = append(adj[c], a)
		} else {
			cut = append(cut, indexKey("xgmi.bundle", i)+".lanes")
		}
	}
	related := []string{"gcd.count", "xgmi.bundle"}
	worst, wa, wb := 0, 0, 0
	for src := 0; src < count; src++ {
		dist := hops(adj, src)
		for dst := 0; dst < count; dst++ {
			if dist[dst] < 0 {
				v.fail("xgmi.bundle", cut, "GCD %d cannot reach GCD %d", src, dst)
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
	v.int("rccl.threads", int64(r.Threads))
	v.int("rccl.steps", int64(r.Steps))
	if r.Steps%4 != 0 && r.Steps > 0 {
		v.fail("rccl.steps", nil, "must be a multiple of 4 (chunks take steps/2 slots, slices steps/4), got %d", r.Steps)
	}
	v.int("rccl.ll_lines_per_thread", int64(r.LLLinesPerThread))
	v.int("rccl.unroll", int64(r.Unroll))
	v.int("rccl.p2p_unroll", int64(r.P2PUnroll))
	v.float("rccl.enqueue_ns", r.EnqueueNs)
	for _, k := range []struct {
		key string
		x   float64
	}{{"rccl.base_lat_ll_us", r.BaseLatLLUs}, {"rccl.base_lat_simple_us", r.BaseLatSimpleUs},
		{"rccl.hw_lat_ring_ll_us", r.HwLatRingLLUs}, {"rccl.hw_lat_ring_simple_us", r.HwLatRingSimpleUs},
		{"rccl.hw_lat_tree_ll_us", r.HwLatTreeLLUs}, {"rccl.hw_lat_tree_simple_us", r.HwLatTreeSimpleUs},
		{"rccl.hw_lat_net_ring_ll_us", r.HwLatNetRingLLUs}, {"rccl.hw_lat_net_ring_simple_us", r.HwLatNetRingSimpleUs},
		{"rccl.hw_lat_net_tree_ll_us", r.HwLatNetTreeLLUs}, {"rccl.hw_lat_net_tree_simple_us", r.HwLatNetTreeSimpleUs}} {
		v.float(k.key, k.x)
	}
	for _, k := range []struct {
		key string
		x   float64
	}{{"rccl.bw_ratio_ring_ll", r.BWRatioRingLL}, {"rccl.bw_ratio_ring_simple", r.BWRatioRingSimple},
		{"rccl.bw_ratio_tree_ll", r.BWRatioTreeLL}, {"rccl.bw_ratio_tree_simple", r.BWRatioTreeSimple}} {
		v.float(k.key, k.x)
	}
	for _, k := range []struct {
		key string
		c   []float64
	}{{"rccl.tree_correction_ll", r.TreeCorrectionLL}, {"rccl.tree_correction_simple", r.TreeCorrectionSimple},
		{"rccl.ring_correction_ll", r.RingCorrectionLL}, {"rccl.ring_correction_simple", r.RingCorrectionSimple}} {
		key, c := k.key, k.c
		if len(c) == 0 || len(c) > 64 {
			v.fail(key, nil, "want 1..64 factors (by log2 of bytes/64), got %d", len(c))
		}
		for i, f := range c {
			v.float(key+"["+strconv.Itoa(i)+"]", f)
		}
	}
	v.int("rccl.thread_threshold_ll", r.ThreadThresholdLL)
	v.int("rccl.thread_threshold_simple", r.ThreadThresholdSimple)
	switch gpu := n.GCD.gpu(); {
	case e.NCCLProto != "LL128":
	case gpu == gfx90a:
		v.fail("env.NCCL_PROTO", nil, "LL128 is not enabled on %s: RCCL runs LL and Simple only", gpu)
	default:
		v.fail("env.NCCL_PROTO", nil, "LL128 is not modelled on %s: the model runs RCCL's LL and Simple only", gpu)
	}
	if e.NCCLProto != "LL128" {
		v.choice("env.NCCL_PROTO", e.NCCLProto)
	}
	v.choice("env.NCCL_ALGO", e.NCCLAlgo)
	v.int("env.NCCL_MIN_NCHANNELS", int64(e.NCCLMinChannels))
	v.int("env.NCCL_MAX_NCHANNELS", int64(e.NCCLMaxChannels))
	v.int("env.NCCL_BUFFSIZE", e.NCCLBuffSize)
	if line := int64(r.Steps) * 64; r.Steps >= 4 && r.Steps <= 64 && e.NCCLBuffSize%line != 0 {
		v.fail("env.NCCL_BUFFSIZE", []string{"rccl.steps"}, "must be a multiple of %d (rccl.steps slots of whole 64-byte lines), got %d", line, e.NCCLBuffSize)
	}
	v.choice("env.NCCL_DEBUG", e.NCCLDebug)
}

// gfx90a is MI250X's GCD, the GPU RCCL's model here is built on.
const gfx90a = "gfx90a (MI250X)"

// gpu names the node's GPU for messages by its XCDs, as configs name no
// GPU: MI250X's GCD has one, MI300A six, MI300X eight (gem5-mi300x's one
// XCD reads as gfx90a).
func (g *GCD) gpu() string {
	switch g.XCDs {
	case 1:
		return gfx90a
	case 6:
		return "gfx942 (MI300A)"
	case 8:
		return "gfx942 (MI300X)"
	}
	return fmt.Sprintf("a GPU of %d XCDs", g.XCDs)
}

// validateReleases checks every release entry of the stack and that each
// selector names one of its list's entries.
func (n *Node) validateReleases(v *validator) {
	s := &n.Stack
	for i, rel := range s.ROCmReleases {
		key := indexKey("stack.rocm_release", i)
		v.int(key+".pin_chunk_bytes", rel.PinChunkBytes)
		v.float(key+".fault_pending_ns", rel.FaultPendingNs)
		v.float(key+".managed_page_ns", rel.ManagedPageNs)
		v.float(key+".managed_host_page_ns", rel.ManagedHostPageNs)
		v.choice(key+".managed_fill", rel.ManagedFill)
		v.int(key+".p2p_blit_max_bytes", rel.P2PBlitMaxBytes)
		v.int(key+".copy_item_bytes", rel.CopyItemBytes)
		v.int(key+".copy_workgroup", rel.CopyWorkgroup)
	}
	v.releases("stack.rocm", s.ROCm, s.rocmNames())
	v.releases("stack.cray_mpich", s.CrayMPICH, s.crayMPICHNames())
	v.releases("stack.rccl", s.RCCL, s.rcclNames())
}

// releases checks a release list's names (key_release[i].<last part of
// key>: each given once) and that its selector key names one of them.
func (v *validator) releases(key, sel string, names []string) {
	list, name := key+"_release", key[strings.LastIndexByte(key, '.')+1:]
	for i, rel := range names {
		at := indexKey(list, i) + "." + name
		if j := slices.Index(names[:i], rel); j >= 0 {
			v.fail(at, []string{indexKey(list, j) + "." + name}, "must name a release once, got %q (also %s[%d])", rel, list, j)
		} else if rel == "" {
			v.fail(at, nil, "must name a release once, got %q", rel)
		}
	}
	if !slices.Contains(names, sel) {
		v.fail(key, []string{list}, "unknown release %q (%s has %s)", sel, list, strings.Join(names, ", "))
	}
}

// MaxMALLBytes bounds mall.bytes: 8x MI300X's 256 MiB; the cache keeps
// state per block of sim.l2_block_bytes.
const MaxMALLBytes = 1 << 31

// validateMALL checks the MALL's keys; with bytes = 0 there is none and
// only their ranges are checked.
func (n *Node) validateMALL(v *validator) {
	m := &n.MALL
	v.int("mall.bytes", m.Bytes)
	v.int("mall.ways", int64(m.Ways))
	v.int("mall.line_bytes", m.LineBytes)
	v.int("mall.channels", int64(m.Channels))
	v.float("mall.channel_bandwidth_gbps", m.ChannelBandwidthGBps)
	v.float("mall.latency_ns", m.LatencyNs)
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
	v.choice("host.memory", h.Memory)
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
