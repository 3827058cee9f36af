package config

import "strings"

// Param declares one config key: its unit, the range validation checks it
// against and what it means. This table is the only place those live: the
// range checks of validate.go look their bounds up here, and the key table
// of docs/config.md is generated from it with each key's value and source
// tag in configs/frontier-node.toml (the default: loading is strict, so a
// config gives every key itself or through its base).
type Param struct {
	Key    string   // dotted path; keys under a list leave the index out: stack.rocm_release.pin_chunk_bytes
	Unit   string   // "ns", "us", "GB/s", "GHz", "GFLOP/s", "bytes", "share"; "" for counts and names
	Ranged bool     // Lo..Hi (both ends allowed) is checked
	Lo, Hi float64  // integral for integer keys
	Pow2   bool     // a power of two
	OneOf  []string // the values a string key takes
	Rule   string   // what else validation checks, in words (rules over several keys)
	Doc    string
}

// Every numeric range below is a sanity bound against typos and unit
// mistakes, generous for what-if studies (the comment says why where it is
// not one of the shared limits of validate.go), not a hardware limit.
var Params = concat(
	[]Param{str("name", "not empty", "label in reports")},
	[]Param{
		ints("gcd.count", "", 1, MaxGCDs, "number of GCDs, ids 0..count-1"),
		ints("gcd.xcds", "", 1, 32, "accelerator complex dies of a device, each with its CUs, L2 and port into the fabric (an MI250X GCD is one)"), // 4x MI300X's 8
		// 3x MI300X's 304; the dispatcher walks every CU per kernel
		ints("gcd.compute_units", "", 1, 1024, "CUs per XCD").rule("times gcd.xcds at most 1024"),
		clock("gcd.clock_ghz", "CU clock: drives CU issue (cu_bytes_per_clock) and L2 bandwidth"),
		ints("gcd.hbm_bytes", "bytes", MinMemoryBytes, MaxMemoryBytes, "HBM capacity: what the GCD's allocations may total"),
		bandwidth("gcd.hbm_bandwidth_gbps", "HBM peak"),
		latency("gcd.hbm_latency_ns", "HBM access latency"),
		latency("gcd.hub_forward_ns", "data-fabric latency to pass a packet through a GCD"),
		latency("gcd.reorder_ns", "reorder-buffer delay for packets that crossed a multi-link bundle"),
		share("gcd.hbm_efficiency", "sustained fraction of the HBM peak"),
		latency("gcd.kernel_launch_ns", "from a kernel reaching the GCD to its first workgroup, paid by every kernel"),
		latency("gcd.kernel_end_ns", "from the last workgroup to the completion signal, paid by every kernel"),
		latency("gcd.wave_start_ns", "a workgroup started in the slots of one that ended: from the end to its first load (kernels whose waves load once and end)"),
		latency("gcd.cp_wake_ns", "command processor's wake-up when a kernel reaches an idle queue (docs/model/gcd.md \"Fixed costs of a kernel\")"),
		latency("gcd.packet_fetch_ns", "AQL packet fetch; hidden when the kernel queues behind a running one"),
		ints("gcd.workgroup_slots", "", 1, 256, "workgroups a CU runs at once (divides compute time)"),                                            // 8x CDNA2's 32 waves per CU
		ints("gcd.cu_outstanding_bytes", "bytes", 64, 1<<30, "bytes of each access stream a CU keeps in flight (memory-level parallelism)"),       // each in-flight piece is a packet: memory grows with it
		ints("gcd.cu_bytes_per_clock", "bytes", 1, 1<<16, "bytes a CU's vector memory path issues per clock (x clock_ghz)"),                       // 1000x a CDNA2 CU's 64 B per clock
		ints("gcd.concurrent_kernels", "", 1, 1024, "hardware queues a GCD runs kernels from at once: kernels of different queues share the CUs"), // a hardware queue each
		ints("gcd.l2_bytes", "bytes", 0, 1<<30, "L2 capacity per XCD (0: nothing cached)"),                                                        // 128x MI250X's 8 MiB; residency is tracked per line
		ints("gcd.l2_slices", "", 1, 1024, "L2 channels (slices); L2 bandwidth = slices x l2_bytes_per_clock x clock_ghz"),                        // 32x MI250X's 32 channels
		ints("gcd.l2_bytes_per_clock", "bytes", 1, 1<<16, "bytes one slice delivers per clock"),                                                   // 512x a channel's 128 B per clock
		// At least 1 ns: an L2 answering at 0 answers inside the request's own
		// event, and -check saw a CU count one step's bytes twice there.
		num("gcd.l2_latency_ns", "ns", 1, MaxLatencyNs, "L2 hit latency"),
		// 16 B (a dwordx4) to a 4 KiB page: a random access moves line/element
		// times its bytes; memory systems split addresses at powers of two
		ints("gcd.line_bytes", "bytes", 16, 4096, "bytes memory moves per access: what a strided or random access wastes").pow2(),
		ints("gcd.tlb_entries", "", 1, 1<<20, "pages the shared (UTCL2) TLB holds for memory mapped page by page (docs/model/gcd.md \"Translation\")"), // 128x the 8192 assumed for MI250X; entries are map slots
		ints("gcd.page_walkers", "", 1, 1024, "page-table walks in progress at once"),
		latency("gcd.page_walk_ns", "one page-table walk (a TLB miss)"),
		num("gcd.fp64_gflops", "GFLOP/s", MinGBps, MaxGBps, "vector FP64 peak: the compute time of kernels costed by their flops"),
		str("gcd.compute_partition", "a mode AMD names for gcd.xcds XCDs: 8 (MI300X) SPX, DPX, QPX, CPX; 6 (MI300A) SPX, TPX, CPX; otherwise SPX, CPX. Other than SPX only with network.nodes = 1",
			`how a [gcd] entry's XCDs are grouped into HIP devices: "SPX" all in one, "DPX" 2, "TPX" 3, "QPX" 4 devices, "CPX" one per XCD (docs/model/partitions.md "Partition modes")`).
			choice(PartitionModes...),
		str("gcd.memory_partition", "NPS4 only with CPX (the ROCm blog's compatibility matrix), its 4 partitions dividing the devices",
			`NUMA memory partitions of a [gcd] entry's HBM: "NPS1" one (every device interleaves over all channels), "NPS4" 4 (a device's memory is its quarter's channels and MALL)`).
			choice(MemoryModes...),
	},
	[]Param{
		ints("mall.bytes", "bytes", 0, MaxMALLBytes, "capacity of each device's memory-side cache (Infinity Cache) in front of its HBM; 0: no MALL").
			rule("a whole number of sets (a multiple of ways x sim.l2_block_bytes)"),
		ints("mall.ways", "", 1, 64, "associativity: blocks of a set"), // 4x MI300X's 16; a lookup scans a set
		ints("mall.line_bytes", "bytes", 16, 4096, "what residency is tracked in").pow2().rule("divides sim.l2_block_bytes"),
		ints("mall.channels", "", 1, 1024, "channels the cache's bandwidth is spread over"), // 8x MI300X's 128
		bandwidth("mall.channel_bandwidth_gbps", "one channel's peak"),
		// at least 1 ns, as the L2's: an answer inside the request's own event
		num("mall.latency_ns", "ns", 1, MaxLatencyNs, "hit latency; a miss pays it on its way to HBM"),
		boolean("mall.write_allocate", "writes take lines (else they update only the lines they find)"),
		boolean("mall.write_back", "holds dirty lines, written to HBM when evicted (else every write goes on to HBM)"),
	},
	[]Param{
		ints("sdma.host_engines", "", 1, 16, "SDMA engines per GCD serving host<->GCD copies"), // 8x MI250X's 2; each engine is a component
		ints("sdma.xgmi_engines", "", 1, 16, "SDMA engines per GCD serving GCD<->GCD copies"),  // 5x MI250X's 3
		ints("sdma.queues_per_engine", "", 1, 64, "SDMA queues (rings) per engine"),            // 8x MI250X's 8 rings; each queue is a slice the engine scans
		clock("sdma.clock_ghz", "engine clock"),
		ints("sdma.bytes_per_cycle", "bytes", 1, 4096, "data the engine moves per cycle: x clock_ghz, its throughput cap"), // 128x the MI250X engine's 32 B
		ints("sdma.outstanding_bytes", "bytes", 64, 1<<30, "bytes of reads and writes an engine keeps in flight"),          // each in-flight transaction is a packet
		latency("sdma.packet_process_ns", "decode and set-up cost of one copy packet"),
		latency("sdma.fence_ns", "cost of a fence before the completion signal"),
		latency("sdma.signal_ns", "writing the completion signal"),
	},
	link("xgmi", "lane_bandwidth_gbps", "one xGMI link (lane of a bundle), one direction", "wire and SerDes latency of one hop"),
	[]Param{
		ints("xgmi.bundle.gcds", "", 0, 0, "the two GCDs a bundle joins, in either order").unranged().
			rule("two GCDs that exist, not the same, one bundle per pair; every GCD reaches every other within routing.max_hops"),
		ints("xgmi.bundle.lanes", "", 0, MaxLanes, "links in the bundle (0 removes it)").unranged().rule("0 removes the bundle"),
	},
	link("host_link", "bandwidth_gbps", "the GCD-to-host Infinity Fabric link, per direction", "flight latency of the link"),
	[]Param{
		ints("host.numa_domains", "", 1, MaxNUMADomains, "NUMA domains of the host").rule(`gcd.count with memory = "hbm"`),
		str("host.memory", "", `what a NUMA domain's memory is: "ddr" (its [dram] controller) or "hbm" (an APU: domain d is GCD d's HBM, through its MALL)`).
			choice(HostDDR, HostHBM),
		ints("host.numa_bytes", "bytes", MinMemoryBytes, MaxMemoryBytes, "DRAM capacity of each NUMA domain: what its pinned allocations may total").
			rule(`gcd.hbm_bytes with memory = "hbm"`),
		ints("host.gcd_numa", "", 0, 0, "NUMA domain of each GCD's host link, by GCD id").unranged().
			rule(`one per GCD, each 0..numa_domains-1 (d for GCD d with memory = "hbm")`),
		latency("host.hub_latency_ns", "IO-die latency from a host link to a memory controller"),
		latency("host.remote_numa_ns", "extra latency to reach another NUMA domain's memory"),
		ints("host.cores", "", 1, 1024, "CPU cores, as memory requesters (host_access stores and loads)"),                          // 4x a 256-core two-socket host; each core is CU-like state
		ints("host.core_outstanding_bytes", "bytes", 64, 1<<30, "bytes of each store stream a core keeps in flight"),               // each in-flight piece is a packet
		ints("host.core_load_lines", "lines", 1, 1<<24, "64 B cache lines of uncached loads of GPU memory a core keeps in flight"), // a 1 GiB window, as for stores
		latency("host.core_to_core_ns", "a core's load of a host line another core's cache holds modified (a cache-to-cache transfer)"),
		boolean("host.link_shared_directions", "both directions of a host link share its bandwidth_gbps (one data path, either way), not one each"),
		boolean("host.store_allocate", "a host_access store to host memory first reads its line (write-allocate), so memory reads what it writes as well"),
		ints("host.l3_bytes", "bytes", 0, 1<<40, "a core's L3: a host_access touching no more than this finds its lines there and fills none (0: every store fills)"),
		num("host.ccd_link_gbps", "GB/s", 0, MaxGBps, "a CCD's link toward the IO die: device reads of lines a rank's thread left dirty in its CCD's L3 leave through it (0: not modelled)"),
	},
	[]Param{
		ints("dram.channels_per_domain", "", 1, 64, "DDR channels of a NUMA domain"), // 5x a whole 12-channel socket in one domain
		bandwidth("dram.channel_bandwidth_gbps", "one channel's peak"),
		share("dram.efficiency", "sustained fraction of the peak (refresh, turnarounds)"),
		latency("dram.latency_ns", "access latency"),
	},
	[]Param{
		latency("runtime.api_call_ns", "host time of an async HIP call"),
		latency("runtime.sync_call_ns", "host time of a synchronising call on top of the wait"),
		latency("runtime.doorbell_ns", "host to SDMA queue doorbell latency"),
		latency("runtime.event_record_ns", "GPU-side cost of an event record"),
		ints("runtime.blit_workgroup_bytes", "bytes", 1, 1<<30, "bytes one workgroup of the runtime's copy kernels moves"),                                // a workgroup copying more than 1 GiB is a unit mistake
		ints("runtime.allocation_bytes", "bytes", 1, 1<<30, "alignment of allocations in their memory").pow2(),                                            // alignment up to a 1 GiB huge page
		ints("runtime.host_page_bytes", "bytes", 4096, 1<<30, "page size the OS backs malloc'd and managed memory with: GPUs map it page by page").pow2(), // x86-64 base page to a 1 GiB huge page
		str("runtime.event_release", "", `scope of an event record's release: "system" writes back the L2 of the GCD that ran the stream's kernels, "agent" does not`).
			choice("system", "agent"),
		ints("runtime.staging_bytes", "bytes", 4096, 1<<30, "a staged chunk of a pageable copy: CPU memcpy into the GCD's pinned bounce buffer, then SDMA"), // a page up to 1 GiB: the buffer is allocated once per GCD
		ints("runtime.pin_min_bytes", "bytes", 0, 1<<40, "pageable copies up to this size are staged; larger ones pin the user pages"),                      // 0: pin every copy; 1 TiB: stage every copy
		latency("runtime.pin_ns", "host time of one lock and unlock of user pages"),
		latency("runtime.pin_page_ns", "host time per 4 KiB page locked and unlocked"),
		ints("runtime.mmap_bytes", "bytes", 4096, 1<<40, "a malloc of at least this many bytes is a mapping of its own (glibc's mmap threshold at its highest)"), // a page up to 1 TiB
		latency("runtime.pin_mapped_page_ns", "host time per 4 KiB page locked and unlocked on top of pin_page_ns, in a buffer that is a mapping of its own"),
		latency("runtime.pin_written_page_ns", "host time per 4 KiB page locked and unlocked on top of pin_page_ns, when the device writes the pages (device-to-host copies)"),
		latency("runtime.managed_fault_ns", "managed memory: the driver's time per GPU page fault (delivery, range lookup, retry)"),
		latency("runtime.prefetch_ns", "a hipMemPrefetchAsync's round trip: ROCr's async thread, the KFD ioctl and its range walk"),
	},
	[]Param{
		str("stack.rocm", "names a stack.rocm_release", "the ROCm release whose runtime and driver the run models (docs/model/hip-runtime.md \"Software stack\")"),
		str("stack.cray_mpich", "names a stack.cray_mpich_release", "the Cray MPICH release the run models"),
		str("stack.rccl", "names a stack.rccl_release", "the RCCL release the run models"),
		str("stack.rocm_release.rocm", "not empty, each release once", `a ROCm release, e.g. "5.3"`),
		ints("stack.rocm_release.pin_chunk_bytes", "bytes", 4096, 1<<40, "ROCclr pinnedXferSize_: the most bytes of a pageable copy pinned and copied at once"), // at least a page
		latency("stack.rocm_release.fault_pending_ns", "the KFD's duplicate-fault window: a GPU retry fault on a range validated less than this long ago is dropped (0: no window)"),
		latency("stack.rocm_release.managed_page_ns", "managed memory: the driver's time per 4 KiB page migrated to a GCD (collect, unmap, DMA map, GPU PTE, TLB flush share)"),
		latency("stack.rocm_release.managed_host_page_ns", "managed memory: the driver's time per 4 KiB page migrated back to host DRAM"),
		str("stack.rocm_release.managed_fill", "", `who fills a managed buffer for hipMemset: "host" the calling CPU thread (the pages come back to host DRAM), "gpu" a fill kernel on the current GCD`).
			choice("host", "gpu"),
		ints("stack.rocm_release.p2p_blit_max_bytes", "bytes", 0, 1<<40, "ROCclr: a copy between two GCDs of at most this many bytes runs as a blit kernel of at most 16 workgroups on the source GCD, not on an SDMA engine (ROC_P2P_SDMA_SIZE; 0: SDMA at every size)"),
		ints("stack.rocm_release.copy_item_bytes", "bytes", 0, 64, "ROCclr's copy kernel (a copy within one GCD): bytes a work-item loads and stores per iteration (0: runtime.blit_workgroup_bytes per workgroup, the CU's window)"),
		ints("stack.rocm_release.copy_workgroup", "", 0, 1024, "ROCclr's copy kernel: work-items per workgroup"),
		boolean("stack.rocm_release.copy_loop", "ROCclr's copy kernel: one workgroup per CU loops over the copy (else one work-item per piece, each wave loading once)"),
		str("stack.cray_mpich_release.cray_mpich", "not empty, each release once", `a Cray MPICH release, e.g. "8.1.31"`),
		boolean("stack.cray_mpich_release.gpu_allreduce_kernel", "the release's MPICH_GPU_ALLREDUCE_USE_KERNEL default: MPI_Allreduce on GPU buffers reduces with GPU kernels"),
		str("stack.rccl_release.rccl", "not empty, each release once", `an RCCL release, e.g. "2.20.5"`),
		boolean("stack.rccl_release.chain_chunks", "the release cuts a Broadcast's or Reduce's channel part into chunks sized to the message, so the chain pipelines (false: one chunk of at most a FIFO slot, sent whole from rank to rank)"),
	},
	[]Param{
		latency("mpi.post_ns", "host time of starting a send or receive (request set-up, matching queues)"),
		latency("mpi.ipc_open_ns", "mapping a peer's buffer from its IPC handle, the first time (then cached)"),
		str("mpi.visible_gcds", "", `the GCDs each rank's ROCr sees: "all", or "own" (ROCR_VISIBLE_DEVICES set to its GCD): its IPC copies then name its GCD at both ends`).choice(VisibleAll, VisibleOwn),
	},
	[]Param{
		ints("rccl.threads", "", 64, 1024, "threads of a channel's workgroup"),
		ints("rccl.steps", "", 4, 64, "NCCL_STEPS: FIFO slots per connection").rule("a multiple of 4"),
		ints("rccl.ll_lines_per_thread", "", 1, 64, "LL FIFO lines per thread per slot"),
		ints("rccl.unroll", "", 1, 64, "16-byte loads in flight per thread, collectives, on gfx90a (gfx94x devices of more than 80 CUs run 2)"),
		ints("rccl.p2p_unroll", "", 1, 64, "16-byte loads in flight per thread, send and receive"),
		latency("rccl.enqueue_ns", "RCCL's own host time per collective call and device beside the HIP launch"),
		num("rccl.base_lat_ll_us", "us", 0, 1e6, "tuning: fixed cost of an LL collective"),
		num("rccl.base_lat_simple_us", "us", 0, 1e6, "tuning: fixed cost of a Simple collective"),
		num("rccl.hw_lat_ring_ll_us", "us", 0, 1e6, "tuning: an intra-node ring step, LL"),
		num("rccl.hw_lat_ring_simple_us", "us", 0, 1e6, "tuning: an intra-node ring step, Simple"),
		num("rccl.hw_lat_tree_ll_us", "us", 0, 1e6, "tuning: an intra-node tree step, LL"),
		num("rccl.hw_lat_tree_simple_us", "us", 0, 1e6, "tuning: an intra-node tree step, Simple"),
		num("rccl.hw_lat_net_ring_ll_us", "us", 0, 1e6, "tuning: a ring step between nodes, LL"),
		num("rccl.hw_lat_net_ring_simple_us", "us", 0, 1e6, "tuning: a ring step between nodes, Simple"),
		num("rccl.hw_lat_net_tree_ll_us", "us", 0, 1e6, "tuning: a tree level between nodes, LL"),
		num("rccl.hw_lat_net_tree_simple_us", "us", 0, 1e6, "tuning: a tree level between nodes, Simple"),
		num("rccl.bw_ratio_ring_ll", "share", 0, 10, "tuning: of the graph's bandwidth, ring LL"),
		num("rccl.bw_ratio_ring_simple", "share", 0, 10, "tuning: of the graph's bandwidth, ring Simple"),
		num("rccl.bw_ratio_tree_ll", "share", 0, 10, "tuning: of the graph's bandwidth, tree LL"),
		num("rccl.bw_ratio_tree_simple", "share", 0, 10, "tuning: of the graph's bandwidth, tree Simple"),
		num("rccl.tree_correction_ll", "share", 0, 10, "tuning: tree bandwidth factor by log2(bytes/64), LL").rule("1..64 factors"),
		num("rccl.tree_correction_simple", "share", 0, 10, "tuning: tree bandwidth factor by log2(bytes/64), Simple").rule("1..64 factors"),
		num("rccl.ring_correction_ll", "share", 0, 10, "tuning: bandwidth factor of a ring across nodes by log2(bytes/64), LL").rule("1..64 factors"),
		num("rccl.ring_correction_simple", "share", 0, 10, "tuning: bandwidth factor of a ring across nodes by log2(bytes/64), Simple").rule("1..64 factors"),
		ints("rccl.thread_threshold_ll", "bytes", 0, 1<<20, "bytes per thread below which a channel is dropped, LL"),
		ints("rccl.thread_threshold_simple", "bytes", 0, 1<<20, "bytes per thread below which a channel is dropped, Simple"),
	},
	[]Param{
		str("routing.sdma", "", "route policy of SDMA copy data").choice(RouteWidest, RouteFewest),
		str("routing.kernel", "", "route policy of kernel and host-core loads and stores").choice(RouteWidest, RouteFewest),
		str("routing.control", "", "route policy of small control writes (completion signals)").choice(RouteWidest, RouteFewest),
		str("routing.sdma_ties", "", `SDMA data over tied routes: "table" (one route per pair) or "per_copy" (copies take them in turn)`).
			choice(TiesTable, TiesPerCopy),
		str("routing.kernel_ties", "", `kernel traffic over tied routes: "table" (one route per pair), "pin" (one per array and CU) or "spray" (transactions alternate)`).
			choice(TiesTable, TiesPin, TiesSpray),
		ints("routing.max_hops", "", 1, MaxHops, "longest route considered"),
	},
	[]Param{
		ints("nic.count", "", 0, 16, "NICs per node"),                                    // 4x a Frontier node's 4
		ints("nic.engines", "", 1, 1024, "DMA engines: commands a NIC works on at once"), // each engine is a component
		ints("nic.gcds", "", 0, 0, "by NIC: the GCD whose PCIe (ESM) link it hangs on").unranged().rule("one per NIC, each a GCD"),
		ints("nic.numa", "", 0, 0, "by NIC: the NUMA domain whose ranks send through it").unranged().
			rule("one per NIC, each a NUMA domain; with several nodes every GCD's domain has a NIC"),
		ints("nic.switch", "", 0, 0, "by NIC: the switch of its node's switch set it is cabled to").unranged().
			rule("one per NIC, each 0..network.switches_per_set-1"),
	},
	link("nic.pcie", "bandwidth_gbps", "the link between a NIC and its GCD, per direction", "flight latency of the link"),
	[]Param{
		latency("nic.forward_ns", "a packet passing through the NIC between its GCD and the network"),
		ints("nic.outstanding_bytes", "bytes", 64, 1<<30, "bytes of DMA reads and writes a NIC engine keeps in flight"), // each in-flight transaction is a packet
		latency("nic.command_ns", "from the host's command (doorbell) to the NIC's first DMA request"),
		latency("nic.event_ns", "from a transfer's end to the host seeing its completion event"),
		ints("nic.inject_bytes", "bytes", 0, 1<<16, "sends of at most this many bytes travel inside the command (the CPU copies them in)"),
		ints("network.nodes", "", 1, MaxNodes, "nodes in the run (akisim -nodes)"),
	},
	link("network.link", "bandwidth_gbps", "every NIC-switch and switch-switch link, per direction", "flight latency of the link"),
	[]Param{
		latency("network.switch_ns", "port to port latency of a switch"),
		latency("network.global_ns", "extra flight latency of a global (optical, inter-group) link"),
		ints("network.nodes_per_set", "", 1, MaxNodes, "nodes whose NICs share a set of switches (a chassis)"),
		ints("network.switches_per_set", "", 1, 1024, "switches in a set"),
		ints("network.nodes_per_group", "", 1, MaxNodes, "nodes in a dragonfly group").rule("a multiple of nodes_per_set"),
		ints("network.switch_ports", "", 0, 1024, "ports of a switch: its NICs, the other switches of its group and the global links").
			rule("enough for a switch's cables"),
		ints("network.adaptive_paths", "", 1, 64, "paths between two switches of a group that transfers spread over: the direct link, then through other switches (1: minimal routing only)"),
		str("network.adaptive_routing", "", `"load_aware": the first switch a packet reaches picks the path whose first link would send it soonest; "per_packet": a transfer's transactions take the paths in turn; "per_transfer": each transfer keeps one path, transfers take them in turn`).
			choice("per_transfer", "per_packet", "load_aware"),
	},
	[]Param{
		transaction("sim.sdma_transaction_bytes", "bytes one SDMA read or write transaction stands for").rule("at most sdma.outstanding_bytes"),
		transaction("sim.cu_transaction_bytes", "bytes of one access stream a CU moves per step").rule("at most xgmi.credit_bytes and host_link.credit_bytes"),
		transaction("sim.core_transaction_bytes", "bytes of one access stream a core moves per step").rule("at most xgmi.credit_bytes and host_link.credit_bytes"),
		transaction("sim.nic_transaction_bytes", "bytes per NIC DMA read or write transaction").
			rule("at most nic.pcie.credit_bytes, network.link.credit_bytes and nic.outstanding_bytes"),
		// LRU over blocks stands for LRU over lines only while blocks are small
		transaction("sim.l2_block_bytes", "L2 (and MALL) replacement unit; residency is tracked per line").
			rule("at most config.MaxL2BlockBytes (8 KiB), a multiple of gcd.line_bytes, at most gcd.l2_bytes"),
		num("sim.early_booking", "share", 0, 1, "fraction of a link's credits that packets still on their way may book"),
		boolean("sim.stream_gather", "a CU step's pieces of several streams in one memory travel as one request with their address ranges (else one request each)"),
	},
	[]Param{
		ints("env.HSA_ENABLE_SDMA", "", 0, 1, "0: all hipMemcpy* run as blit kernels on the CUs"),
		ints("env.HSA_ENABLE_PEER_SDMA", "", 0, 1, "0: peer copies run as blit kernels"),
		msgSize("env.HSA_FORCE_SDMA_SIZE", "ROCr: a copy whose source and destination are the copying GCD runs on an SDMA engine below this many bytes, as a blit kernel from it"),
		ints("env.HSA_XNACK", "", 0, 1, "1: GPU page-fault retry: kernels touching managed memory not on their GCD fault and migrate it (docs/model/managed-memory.md \"Managed memory\")"),
		ints("env.MPICH_GPU_IPC_ENABLED", "", 0, 1, "0: every GPU message is staged through host shared memory"),
		msgSize("env.MPICH_GPU_IPC_THRESHOLD", "messages of at least this many bytes go over IPC-mapped peer memory"),
		ints("env.MPICH_GPU_IPC_CACHE_MAX_SIZE", "", 1, 1<<20, "IPC handles a rank keeps open (LRU)"),
		msgSize("env.GTL_HSA_VSMSG_CUTOFF_SIZE", "a copy of at most this many bytes between GPU memory and the host, or between IPC-mapped GPU buffers, is the CPU's loads and stores, not an HSA async copy"),
		msgSize("env.MPICH_REDUCE_SHORT_MSG_SIZE", "MPI_Reduce: binomial up to this, else reduce-scatter + gather"),
		msgSize("env.MPICH_ALLREDUCE_SHORT_MSG_SIZE", "MPI_Allreduce: recursive doubling up to this"),
		msgSize("env.MPICH_ALLREDUCE_MAX_SMP_SIZE", "SMP-aware allreduce up to this"),
		ints("env.MPICH_BCAST_INTRANODE_RADIX", "", 2, 1<<20, "MPI_Bcast (and the SMP-aware allreduce's node bcast) is a tree with this many children per rank, for every size"),
		msgSize("env.MPICH_REDUCE_SCATTER_COMMUTATIVE_LONG_MSG_SIZE", "MPI_Reduce_scatter: pairwise from here"),
		msgSize("env.MPICH_ALLGATHER_LONG_MSG_SIZE", "MPI_Allgather, power-of-two ranks: recursive doubling below this total"),
		msgSize("env.MPICH_ALLGATHER_SHORT_MSG_SIZE", "MPI_Allgather, other rank counts: Bruck below this total"),
		msgSize("env.MPICH_ALLTOALL_SHORT_MSG_SIZE", "MPI_Alltoall, 8 ranks and more: Bruck up to this per block"),
		msgSize("env.MPICH_ALLTOALL_MEDIUM_MSG_SIZE", "MPI_Alltoall: scattered up to this, pairwise above"),
		ints("env.MPICH_GPU_ALLREDUCE_USE_KERNEL", "", -1, 1, "1: MPI_Allreduce on GPU buffers reduces with GPU kernels instead of on the host; 0: on the host; -1 (unset): the Cray MPICH release's default"),
		msgSize("env.MPICH_GPU_ALLREDUCE_KERNEL_THRESHOLD", "with the kernel on, MPI_Allreduce on GPU buffers of at least this many bytes reduces on the GPU; smaller ones on the host"),
		ints("env.MPICH_GPU_ALLREDUCE_BLK_SIZE", "bytes", 1, 1<<40, "the GPU allreduce reduces the message this many bytes at a time, a block after another"), // 0 would never advance
		ints("env.MPICH_SHARED_MEM_COLL_OPT", "", 0, 1, "1: MPI_Allreduce on host buffers of ranks of one node, if the message fits a cell, reduces through shared-memory cells (release_gather) instead of messages"),
		ints("env.MPICH_SHARED_MEM_COLL_NCELLS", "", 1, 1<<20, "shared-memory collectives: cells per rank, taken in turn call after call"),
		ints("env.MPICH_SHARED_MEM_COLL_CELLSZ", "bytes", 129, 1<<30, "shared-memory collectives: bytes of a cell, two 64-byte lines of them its header; a message of more than the rest takes the point-to-point algorithms"),
		ints("env.MPICH_POSIX_NUM_COLLS_THRESHOLD", "", 0, 1<<30, "the shared-memory collectives run from this call of a communicator's on; the ones before take the point-to-point algorithms"),
		ints("env.MPICH_REDUCE_INTRANODE_TREE_KVAL", "", 1, 1<<20, "shared-memory collectives: children per rank of the k-ary tree data is reduced up"),
		ints("env.MPICH_BCAST_INTRANODE_TREE_KVAL", "", 1, 1<<20, "shared-memory collectives: children per rank of the k-ary tree the result is released down"),
		ints("env.MPICH_ENABLE_YAKSA", "", 0, 1, "1: MPI_Pack of a derived type on GPU memory runs yaksa's GPU pack kernels; 0: the dataloop engine, a CPU copy per contiguous run"),
		str("env.NCCL_PROTO", "LL128 is refused: off on gfx90a, not modelled on gfx942", `the protocol of every collective; "": RCCL's tuning model picks`).choice("", "LL", "Simple"),
		str("env.NCCL_ALGO", "", `the algorithm (Tree: AllReduce only); "": RCCL's choice`).choice("", "Ring", "Tree"),
		ints("env.NCCL_MIN_NCHANNELS", "", -2, 128, "channels RCCL runs at least (-2: RCCL's default)"),
		ints("env.NCCL_MAX_NCHANNELS", "", -2, 128, "channels RCCL runs at most (-2: RCCL's default)"),
		ints("env.NCCL_BUFFSIZE", "bytes", 1<<12, 1<<30, "a channel's Simple FIFO").rule("a multiple of rccl.steps x 64"),
		str("env.NCCL_DEBUG", "", "INFO prints RCCL's init lines (rank 0's rings)").choice("", "VERSION", "WARN", "INFO", "TRACE"),
		msgSize("env.FI_CXI_RDZV_THRESHOLD", "libfabric CXI: a send of at most threshold + get_min bytes is eager, a larger one rendezvous"),
		msgSize("env.FI_CXI_RDZV_GET_MIN", "libfabric CXI: see FI_CXI_RDZV_THRESHOLD"),
		msgSize("env.FI_CXI_RDZV_EAGER_SIZE", "libfabric CXI: bytes a rendezvous send carries with its header; the receiver's NIC gets the rest"),
		ints("env.NUM_ITERATIONS", "", 1, 1<<20, "TransferBench: timed iterations per test"), // TransferBench's negative (seconds) is not modelled
		ints("env.NUM_WARMUPS", "", 0, 1<<20, "TransferBench: untimed iterations before them"),
		ints("env.OUTPUT_TO_CSV", "", 0, 1, "TransferBench: 1 prints results as CSV"),
		ints("env.GFX_BLOCK_SIZE", "", 64, 512, "TransferBench: threads per threadblock of the GPU executor").rule("a multiple of 64"),
		ints("env.GFX_UNROLL", "", 1, 8, "TransferBench: 16-byte loads a GPU executor's thread keeps in flight"),
	},
)

// link declares a link's keys under pre (bw is its bandwidth key's name).
// Links charge wire packets arithmetically, so the sizes bound products,
// not event counts: 64 KiB is far above any link protocol's packet.
func link(pre, bw, bwDoc, flightDoc string) []Param {
	return []Param{
		bandwidth(pre+"."+bw, bwDoc),
		latency(pre+".flight_latency_ns", flightDoc),
		ints(pre+".packet_payload_bytes", "bytes", 1, 1<<16, "most data per wire packet"),
		ints(pre+".packet_overhead_bytes", "bytes", 0, 1<<16, "header, CRC and framing of a packet that carries its address (a write)"),
		ints(pre+".response_overhead_bytes", "bytes", 0, 1<<16, "overhead of a read-data packet, whose header needs no address"),
		// a read request is a header: larger than the data packet it asks
		// for, the request direction would be the busier one, which the
		// links' read path does not wait on
		ints(pre+".request_bytes", "bytes", 1, 1<<16, "wire bytes of one read request (one per payload-sized line)").
			rule("at most packet_payload_bytes + response_overhead_bytes"),
		// each credited packet in flight is held in memory
		ints(pre+".credit_bytes", "bytes", 64, 1<<30, "bytes a receiver buffers per direction (link-level credits)").
			rule("holds the largest simulated transaction that crosses it"),
	}
}

func num(key, unit string, lo, hi float64, doc string) Param {
	return Param{Key: key, Unit: unit, Ranged: true, Lo: lo, Hi: hi, Doc: doc}
}

// ints declares an integer key; its bounds are ints too.
func ints(key, unit string, lo, hi int64, doc string) Param {
	return num(key, unit, float64(lo), float64(hi), doc)
}

func latency(key, doc string) Param   { return num(key, "ns", 0, MaxLatencyNs, doc) }
func bandwidth(key, doc string) Param { return num(key, "GB/s", MinGBps, MaxGBps, doc) }
func clock(key, doc string) Param     { return num(key, "GHz", MinGHz, MaxGHz, doc) }
func share(key, doc string) Param     { return num(key, "share", MinEfficiency, 1, doc) }
func msgSize(key, doc string) Param   { return ints(key, "bytes", 0, 1<<40, doc) }
func boolean(key, doc string) Param   { return Param{Key: key, Doc: doc} }

// transaction declares a simulation granularity: below a few KiB a big
// copy needs millions of events; above the in-flight limits a single
// transaction could not be issued.
func transaction(key, doc string) Param {
	return ints(key, "bytes", MinTransactionBytes, MaxTransactionBytes, doc).pow2()
}

func str(key, rule, doc string) Param { return Param{Key: key, Rule: rule, Doc: doc} }

func (p Param) pow2() Param                    { p.Pow2 = true; return p }
func (p Param) rule(r string) Param            { p.Rule = r; return p }
func (p Param) choice(allowed ...string) Param { p.OneOf = allowed; return p }

// unranged marks a key whose bounds depend on other keys: its rule says
// what they are.
func (p Param) unranged() Param { p.Ranged, p.Lo, p.Hi = false, 0, 0; return p }

func concat(groups ...[]Param) []Param {
	var all []Param
	for _, g := range groups {
		all = append(all, g...)
	}
	return all
}

var paramIndex = func() map[string]*Param {
	m := map[string]*Param{}
	for i := range Params {
		m[Params[i].Key] = &Params[i]
	}
	return m
}()

// ParamOf is the declaration of key, a dotted path that may carry list
// indexes (stack.rocm_release[1].pin_chunk_bytes), or nil.
func ParamOf(key string) *Param { return paramIndex[stripIndexes(key)] }

// stripIndexes drops every [...] of a key path.
func stripIndexes(key string) string {
	if strings.IndexByte(key, '[') < 0 {
		return key
	}
	b := make([]byte, 0, len(key))
	depth := 0
	for i := 0; i < len(key); i++ { // by byte: no rune of UTF-8 holds a [ or ] byte
		switch c := key[i]; {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth == 0:
			b = append(b, c)
		}
	}
	return string(b)
}
