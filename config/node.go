// Package config holds the node description akisim simulates: plain structs
// decoded strictly from TOML, validated, overridden with -set and written back.
package config

// Node is a whole compute node. Every timing or bandwidth number the model
// uses lives here; the TOML files in configs/ say where each comes from.
type Node struct {
	Name     string  `toml:"name"`
	GCD      GCD     `toml:"gcd"`
	MALL     MALL    `toml:"mall"`
	SDMA     SDMA    `toml:"sdma"`
	XGMI     XGMI    `toml:"xgmi"`
	HostLink Link    `toml:"host_link"`
	Host     Host    `toml:"host"`
	DRAM     DRAM    `toml:"dram"`
	Runtime  Runtime `toml:"runtime"`
	MPI      MPI     `toml:"mpi"`
	RCCL     RCCL    `toml:"rccl"`
	Routing  Routing `toml:"routing"`
	NIC      NIC     `toml:"nic"`
	Network  Network `toml:"network"`
	Sim      Sim     `toml:"sim"`
	Env      Env     `toml:"env"`
}

// Env holds the ROCm environment variables the model honours (akisim
// -env NAME=VALUE sets them); they change what the runtime does.
type Env struct {
	EnableSDMA     int `toml:"HSA_ENABLE_SDMA"`      // 0: all hipMemcpy* run as blit kernels on the CUs
	EnablePeerSDMA int `toml:"HSA_ENABLE_PEER_SDMA"` // 0: peer copies run as blit kernels
	XNACK          int `toml:"HSA_XNACK"`            // 1: GPU page-fault retry (managed memory migrates on GPU faults, hip/managed.go)
	// Cray MPICH's GPU transport (shared/docs/comm.md; mpi package)
	IPCEnabled   int   `toml:"MPICH_GPU_IPC_ENABLED"`        // 0: every GPU message is staged through host shared memory
	IPCThreshold int64 `toml:"MPICH_GPU_IPC_THRESHOLD"`      // messages of at least this many bytes go over IPC-mapped peer memory
	IPCCacheMax  int   `toml:"MPICH_GPU_IPC_CACHE_MAX_SIZE"` // IPC handles a rank keeps open (LRU)
	// GTL: a copy of at most this many bytes between GPU memory and the
	// host, or between IPC-mapped GPU buffers, is the CPU's loads and
	// stores, not an HSA async copy
	VSMsgCutoff int64 `toml:"GTL_HSA_VSMSG_CUTOFF_SIZE"`
	// MPICH's collective algorithm switches in bytes (MPIR_CVAR_*, which
	// MPICH also reads as MPICH_*; mpi/coll.go)
	ReduceShort       int64 `toml:"MPICH_REDUCE_SHORT_MSG_SIZE"`                    // MPI_Reduce: binomial up to this, else reduce-scatter + gather
	AllreduceShort    int64 `toml:"MPICH_ALLREDUCE_SHORT_MSG_SIZE"`                 // MPI_Allreduce: recursive doubling up to this
	AllreduceMaxSMP   int64 `toml:"MPICH_ALLREDUCE_MAX_SMP_SIZE"`                   // SMP-aware allreduce up to this
	ReduceScatterLong int64 `toml:"MPICH_REDUCE_SCATTER_COMMUTATIVE_LONG_MSG_SIZE"` // MPI_Reduce_scatter: pairwise from here
	AllgatherLong     int64 `toml:"MPICH_ALLGATHER_LONG_MSG_SIZE"`                  // MPI_Allgather, power-of-two ranks: recursive doubling below this total
	AllgatherShort    int64 `toml:"MPICH_ALLGATHER_SHORT_MSG_SIZE"`                 // MPI_Allgather, other rank counts: Bruck below this total
	AlltoallShort     int64 `toml:"MPICH_ALLTOALL_SHORT_MSG_SIZE"`                  // MPI_Alltoall, 8 ranks and more: Bruck up to this per block
	AlltoallMedium    int64 `toml:"MPICH_ALLTOALL_MEDIUM_MSG_SIZE"`                 // MPI_Alltoall: scattered up to this, pairwise above
	// 1: MPI_Allreduce on GPU buffers reduces with GPU kernels instead of on the host
	AllreduceKernel int `toml:"MPICH_GPU_ALLREDUCE_USE_KERNEL"`
	// 1: MPI_Pack of a derived type on GPU memory runs yaksa's GPU pack
	// kernels; 0: the dataloop engine, a CPU copy per contiguous run
	EnableYaksa int `toml:"MPICH_ENABLE_YAKSA"`
	// RCCL (shared/docs/comm.md; rccl package): "" or -2 leave RCCL's choice
	NCCLProto       string `toml:"NCCL_PROTO"`         // LL or Simple: every collective uses it
	NCCLAlgo        string `toml:"NCCL_ALGO"`          // Ring or Tree (AllReduce only)
	NCCLMinChannels int    `toml:"NCCL_MIN_NCHANNELS"` // channels RCCL runs at least
	NCCLMaxChannels int    `toml:"NCCL_MAX_NCHANNELS"` // channels RCCL runs at most
	NCCLBuffSize    int64  `toml:"NCCL_BUFFSIZE"`      // a channel's Simple FIFO, bytes
	NCCLDebug       string `toml:"NCCL_DEBUG"`         // INFO prints RCCL's init lines (rings)
	// libfabric's CXI provider (shared/docs/comm.md): a send of at most
	// threshold + get_min bytes is eager, a larger one sends eager_size
	// bytes with its header and the receiver's NIC gets the rest
	RdzvThreshold int64 `toml:"FI_CXI_RDZV_THRESHOLD"`
	RdzvGetMin    int64 `toml:"FI_CXI_RDZV_GET_MIN"`
	RdzvEagerSize int64 `toml:"FI_CXI_RDZV_EAGER_SIZE"`
	// TransferBench's own settings (-workload transferbench; v1.52 EnvVars.hpp)
	TBIterations int `toml:"NUM_ITERATIONS"` // timed iterations per test
	TBWarmups    int `toml:"NUM_WARMUPS"`    // untimed iterations before them
	TBCSV        int `toml:"OUTPUT_TO_CSV"`  // 1: results as CSV
	TBBlockSize  int `toml:"GFX_BLOCK_SIZE"` // threads per threadblock of the GPU executor
	TBUnroll     int `toml:"GFX_UNROLL"`     // 16-byte loads a GPU executor's thread keeps in flight
}

// MPI holds the host-side costs of the MPI library (Cray MPICH).
type MPI struct {
	PostNs    float64 `toml:"post_ns"`     // host time of starting a send or receive (request set-up, matching queues)
	IPCOpenNs float64 `toml:"ipc_open_ns"` // mapping a peer's buffer from its IPC handle, the first time (then cached)
}

// RCCL holds the sizes of RCCL's kernels and the constants of its tuning
// model, which picks a protocol and channel count (rccl package).
type RCCL struct {
	Threads               int       `toml:"threads"`                 // threads of a channel's workgroup
	Steps                 int       `toml:"steps"`                   // NCCL_STEPS: FIFO slots per connection
	LLLinesPerThread      int       `toml:"ll_lines_per_thread"`     // LL FIFO lines per thread per slot
	Unroll                int       `toml:"unroll"`                  // 16-byte loads in flight per thread, collectives
	P2PUnroll             int       `toml:"p2p_unroll"`              // and send/receive
	EnqueueNs             float64   `toml:"enqueue_ns"`              // host time of one collective call for one device (planning and launch)
	BaseLatLLUs           float64   `toml:"base_lat_ll_us"`          // tuning: fixed cost of an LL collective
	BaseLatSimpleUs       float64   `toml:"base_lat_simple_us"`      // tuning: fixed cost of a Simple collective
	HwLatRingLLUs         float64   `toml:"hw_lat_ring_ll_us"`       // tuning: an intra-node ring step, LL
	HwLatRingSimpleUs     float64   `toml:"hw_lat_ring_simple_us"`   // tuning: an intra-node ring step, Simple
	HwLatTreeLLUs         float64   `toml:"hw_lat_tree_ll_us"`       // tuning: an intra-node tree step, LL
	HwLatTreeSimpleUs     float64   `toml:"hw_lat_tree_simple_us"`   // tuning: an intra-node tree step, Simple
	BWRatioRingLL         float64   `toml:"bw_ratio_ring_ll"`        // tuning: of the graph's bandwidth, ring LL
	BWRatioRingSimple     float64   `toml:"bw_ratio_ring_simple"`    // ring Simple
	BWRatioTreeLL         float64   `toml:"bw_ratio_tree_ll"`        // tree LL
	BWRatioTreeSimple     float64   `toml:"bw_ratio_tree_simple"`    // tree Simple
	TreeCorrectionLL      []float64 `toml:"tree_correction_ll"`      // tuning: tree bandwidth factor by log2(bytes/64), LL
	TreeCorrectionSimple  []float64 `toml:"tree_correction_simple"`  // and Simple
	ThreadThresholdLL     int64     `toml:"thread_threshold_ll"`     // bytes per thread below which a channel is dropped, LL
	ThreadThresholdSimple int64     `toml:"thread_threshold_simple"` // and Simple
}

// GCD describes every graphics compute die of the node (all alike).
type GCD struct {
	Count              int     `toml:"count"`                // number of GCDs, ids 0..count-1
	XCDs               int     `toml:"xcds"`                 // accelerator complex dies, each with its CUs, L2 and port into the fabric (an MI250X GCD is one)
	ComputeUnits       int     `toml:"compute_units"`        // CUs per XCD
	ClockGHz           float64 `toml:"clock_ghz"`            // CU clock
	HBMBytes           int64   `toml:"hbm_bytes"`            // HBM capacity: what the GCD's allocations may total
	HBMBandwidthGBps   float64 `toml:"hbm_bandwidth_gbps"`   // HBM peak, GB/s (1e9 B/s)
	HBMLatencyNs       float64 `toml:"hbm_latency_ns"`       // HBM access latency
	HubForwardNs       float64 `toml:"hub_forward_ns"`       // data-fabric latency to pass a packet through a GCD
	ReorderNs          float64 `toml:"reorder_ns"`           // reorder-buffer delay for packets that crossed a multi-link bundle
	HBMEfficiency      float64 `toml:"hbm_efficiency"`       // sustained fraction of the HBM peak
	KernelLaunchNs     float64 `toml:"kernel_launch_ns"`     // from a kernel reaching the GCD to its first workgroup
	KernelEndNs        float64 `toml:"kernel_end_ns"`        // from the last workgroup to the completion signal
	CPWakeNs           float64 `toml:"cp_wake_ns"`           // command processor's wake-up when a kernel reaches an idle queue
	PacketFetchNs      float64 `toml:"packet_fetch_ns"`      // AQL packet fetch; hidden when the kernel queues behind a running one
	WorkgroupSlots     int     `toml:"workgroup_slots"`      // workgroups a CU runs at once
	CUOutstandingBytes int64   `toml:"cu_outstanding_bytes"` // bytes of each access stream a CU keeps in flight (memory-level parallelism)
	CUBytesPerClock    int     `toml:"cu_bytes_per_clock"`   // bytes a CU's vector memory path issues per clock (x clock_ghz)
	ConcurrentKernels  int     `toml:"concurrent_kernels"`   // kernels a GCD runs at once
	L2Bytes            int64   `toml:"l2_bytes"`             // L2 capacity (0: nothing cached)
	L2Slices           int     `toml:"l2_slices"`            // L2 channels (slices)
	L2BytesPerClock    int     `toml:"l2_bytes_per_clock"`   // bytes one slice delivers per clock (x clock_ghz)
	L2LatencyNs        float64 `toml:"l2_latency_ns"`        // L2 hit latency
	LineBytes          int64   `toml:"line_bytes"`           // bytes memory moves per access: what a strided or random access wastes
	TLBEntries         int     `toml:"tlb_entries"`          // pages the shared (UTCL2) TLB holds for memory mapped page by page
	PageWalkers        int     `toml:"page_walkers"`         // page-table walks in progress at once
	PageWalkNs         float64 `toml:"page_walk_ns"`         // one page-table walk (a TLB miss)
	FP64GFlops         float64 `toml:"fp64_gflops"`          // vector FP64 peak, GFLOP/s: the compute of kernels costed by their flops
}

// MALL describes each device's memory-side cache (Infinity Cache) in front
// of its HBM, shared by its XCDs (components/mall). bytes = 0: none.
type MALL struct {
	Bytes                int64   `toml:"bytes"`                  // capacity (0: no MALL)
	Ways                 int     `toml:"ways"`                   // associativity: blocks of a set
	LineBytes            int64   `toml:"line_bytes"`             // what residency is tracked in
	Channels             int     `toml:"channels"`               // channels the cache's bandwidth is spread over
	ChannelBandwidthGBps float64 `toml:"channel_bandwidth_gbps"` // one channel's peak, GB/s
	LatencyNs            float64 `toml:"latency_ns"`             // hit latency; a miss pays it on its way to HBM
	WriteAllocate        bool    `toml:"write_allocate"`         // writes take lines (else they update only the lines they find)
	WriteBack            bool    `toml:"write_back"`             // holds dirty lines, written to HBM when evicted (else every write goes on to HBM)
}

// SDMA describes the copy engines of one GCD.
type SDMA struct {
	HostEngines      int     `toml:"host_engines"`      // engines serving host<->GCD copies
	XGMIEngines      int     `toml:"xgmi_engines"`      // engines serving GCD<->GCD copies
	QueuesPerEngine  int     `toml:"queues_per_engine"` // SDMA queues (rings) per engine
	ClockGHz         float64 `toml:"clock_ghz"`         // engine clock
	BytesPerCycle    int     `toml:"bytes_per_cycle"`   // data the engine moves per cycle (its throughput cap)
	OutstandingBytes int     `toml:"outstanding_bytes"` // bytes of reads and writes in flight per engine
	PacketProcessNs  float64 `toml:"packet_process_ns"` // decode and set-up cost of one copy packet
	FenceNs          float64 `toml:"fence_ns"`          // cost of a fence before the completion signal
	SignalNs         float64 `toml:"signal_ns"`         // writing the completion signal
}

// XGMI describes the GCD-to-GCD Infinity Fabric links and their bundles.
type XGMI struct {
	LaneBandwidthGBps   float64 `toml:"lane_bandwidth_gbps"`   // one link, one direction
	FlightLatencyNs     float64 `toml:"flight_latency_ns"`     // wire + SerDes latency of one hop
	PacketPayloadBytes  int     `toml:"packet_payload_bytes"`  // max data per packet
	PacketOverheadBytes int     `toml:"packet_overhead_bytes"` // header, CRC, framing per packet
	// ResponseOverheadBytes is the overhead of a read-data packet, whose
	// header needs no address
	ResponseOverheadBytes int      `toml:"response_overhead_bytes"`
	RequestBytes          int      `toml:"request_bytes"` // wire bytes of one read request (one per payload-sized line)
	CreditBytes           int      `toml:"credit_bytes"`  // bytes a receiver buffers per direction (link-level credits)
	Bundles               []Bundle `toml:"bundle"`
}

// Bundle is one bundle of xGMI links (lanes) between two GCDs. In key paths
// and -set overrides a bundle is xgmi.bundle[i] (i from 0, file order) or
// xgmi.bundle[a-b] (the bundle joining GCDs a and b, either order).
type Bundle struct {
	GCDs  [2]int `toml:"gcds"`  // the two GCD ids it joins, in either order
	Lanes int    `toml:"lanes"` // links in the bundle, 1..16 (0 removes it)
}

// Link describes a point-to-point link that is not a bundle (the host link).
type Link struct {
	BandwidthGBps       float64 `toml:"bandwidth_gbps"` // per direction
	FlightLatencyNs     float64 `toml:"flight_latency_ns"`
	PacketPayloadBytes  int     `toml:"packet_payload_bytes"`
	PacketOverheadBytes int     `toml:"packet_overhead_bytes"` // of a packet that carries its address (a write)
	// ResponseOverheadBytes is the overhead of a read-data packet, whose
	// header needs no address
	ResponseOverheadBytes int `toml:"response_overhead_bytes"`
	RequestBytes          int `toml:"request_bytes"`
	CreditBytes           int `toml:"credit_bytes"`
}

// Host describes the CPU side: NUMA domains and which GCD hangs off which.
type Host struct {
	NUMADomains          int     `toml:"numa_domains"`
	Memory               string  `toml:"memory"`                 // what a NUMA domain's memory is: "ddr" (its [dram] controller) or "hbm" (an APU: domain d is GCD d's HBM, through its MALL)
	NUMABytes            int64   `toml:"numa_bytes"`             // DRAM capacity of each NUMA domain: what its pinned allocations may total
	GCDNUMA              []int   `toml:"gcd_numa"`               // NUMA domain of each GCD's host link, by GCD id
	HubLatencyNs         float64 `toml:"hub_latency_ns"`         // IO-die latency from a host link to a memory controller
	RemoteNUMANs         float64 `toml:"remote_numa_ns"`         // extra latency to reach another NUMA domain's memory
	Cores                int     `toml:"cores"`                  // CPU cores
	CoreOutstandingBytes int64   `toml:"core_outstanding_bytes"` // bytes of each store stream a core keeps in flight
	CoreLoadLines        int64   `toml:"core_load_lines"`        // 64 B cache lines of loads a core keeps in flight
}

// Host memory kinds accepted by host.memory.
const (
	HostDDR = "ddr" // each NUMA domain has its own DRAM controller ([dram]), reached over the host links
	HostHBM = "hbm" // an APU: NUMA domain d is GCD d's HBM; the host links join the CPU cores to their APU
)

// Unified says whether host memory is the GCDs' HBM (an APU node).
func (h Host) Unified() bool { return h.Memory == HostHBM }

// DRAM describes the DDR4 controller of each NUMA domain.
type DRAM struct {
	ChannelsPerDomain    int     `toml:"channels_per_domain"`
	ChannelBandwidthGBps float64 `toml:"channel_bandwidth_gbps"`
	Efficiency           float64 `toml:"efficiency"` // sustained fraction of peak (refresh, turnarounds)
	LatencyNs            float64 `toml:"latency_ns"`
}

// Runtime holds the costs of the HIP runtime on the host.
type Runtime struct {
	APICallNs          float64 `toml:"api_call_ns"`          // host time of an async HIP call
	SyncCallNs         float64 `toml:"sync_call_ns"`         // host time of a synchronising call on top of the wait
	DoorbellNs         float64 `toml:"doorbell_ns"`          // host to SDMA queue doorbell latency
	EventRecordNs      float64 `toml:"event_record_ns"`      // GPU-side cost of an event record
	BlitWorkgroupBytes int64   `toml:"blit_workgroup_bytes"` // bytes one workgroup of the runtime's copy kernel moves
	AllocationBytes    int64   `toml:"allocation_bytes"`     // alignment of allocations in their memory
	HostPageBytes      int64   `toml:"host_page_bytes"`      // page size the OS backs malloc'd and managed memory with: GPUs map it page by page
	EventRelease       string  `toml:"event_release"`        // scope of an event record's release: "system" writes back the L2 of the GCD that ran the stream's kernels, "agent" does not

	// Copies from or to pageable (malloc) memory, as ROCclr makes them
	// (hip/pageable.go).
	StagingBytes int64   `toml:"staging_bytes"` // a staged chunk: CPU memcpy into a pinned bounce buffer, then SDMA
	PinMinBytes  int64   `toml:"pin_min_bytes"` // copies up to this size are staged; larger ones pin the user pages
	PinNs        float64 `toml:"pin_ns"`        // host time of one lock and unlock of user pages
	PinPageNs    float64 `toml:"pin_page_ns"`   // host time per 4 KiB page locked and unlocked

	// Managed memory (hip/managed.go): the KFD driver's work to migrate one
	// 2 MiB block besides its SDMA copy.
	ManagedFaultNs float64 `toml:"managed_fault_ns"` // a GPU page fault: delivery, range lookup, retry
	ManagedPageNs  float64 `toml:"managed_page_ns"`  // per 4 KiB page migrated: collect, unmap, DMA map, GPU PTE, TLB flush share
	PrefetchNs     float64 `toml:"prefetch_ns"`      // a hipMemPrefetchAsync's round trip: ROCr's async thread, the KFD ioctl and its range walk

	// ROCm is the release whose runtime and driver behaviour the run
	// models: one of Releases (hip reads it through Runtime.Release).
	ROCm     string    `toml:"rocm"`
	Releases []Release `toml:"release"`
}

// Release is what one ROCm release (its ROCclr and the amdgpu driver
// shipped with it) does differently; runtime.rocm picks one. In key paths
// and -set overrides it is runtime.release[i] (file order), or
// runtime.release[*] for every release.
type Release struct {
	ROCm          string `toml:"rocm"`            // the release, e.g. "5.3"
	PinChunkBytes int64  `toml:"pin_chunk_bytes"` // ROCclr pinnedXferSize_: the most bytes of a pageable copy pinned and copied at once
	// FaultPendingNs is the KFD's duplicate-fault window: a GPU retry fault
	// on a range validated less than this long ago is dropped (the wave
	// retries); 0 when the driver has no such window.
	FaultPendingNs float64 `toml:"fault_pending_ns"`
}

// Release is the selected release, runtime.rocm's entry of
// runtime.release (validation makes sure there is one).
func (r *Runtime) Release() Release {
	for _, rel := range r.Releases {
		if rel.ROCm == r.ROCm {
			return rel
		}
	}
	return Release{ROCm: r.ROCm}
}

// NIC describes the node's network interfaces (HPE Slingshot-11 NICs,
// "Cassini"): where each hangs, which ranks use it, its DMA engine and the
// costs of its commands and completion events.
type NIC struct {
	Count            int     `toml:"count"`             // NICs per node
	Engines          int     `toml:"engines"`           // DMA engines: commands a NIC works on at once
	GCDs             []int   `toml:"gcds"`              // by NIC: the GCD whose PCIe (ESM) link it hangs on
	NUMA             []int   `toml:"numa"`              // by NIC: the NUMA domain whose ranks send through it
	Switch           []int   `toml:"switch"`            // by NIC: the switch of its node's switch set it is cabled to
	PCIe             Link    `toml:"pcie"`              // the link between the NIC and its GCD
	ForwardNs        float64 `toml:"forward_ns"`        // a packet passing through the NIC between its GCD and the network
	OutstandingBytes int     `toml:"outstanding_bytes"` // bytes of DMA reads and writes the NIC keeps in flight
	CommandNs        float64 `toml:"command_ns"`        // from the host's command (doorbell) to the NIC's first DMA request
	EventNs          float64 `toml:"event_ns"`          // from a transfer's end to the host seeing its completion event
	InjectBytes      int64   `toml:"inject_bytes"`      // sends of at most this many bytes travel inside the command (the CPU copies them in)
}

// Network describes the Slingshot network that joins the nodes: a
// dragonfly of switches (HPE Rosetta), each node's NICs cabled to the
// switches of its set, sets in groups whose switches are all joined, and
// the groups joined by global links.
type Network struct {
	Nodes           int     `toml:"nodes"`            // nodes in the run (akisim -nodes)
	Link            Link    `toml:"link"`             // every NIC-switch and switch-switch link
	SwitchNs        float64 `toml:"switch_ns"`        // port to port latency of a switch
	GlobalNs        float64 `toml:"global_ns"`        // extra flight latency of a global (optical, inter-group) link
	NodesPerSet     int     `toml:"nodes_per_set"`    // nodes whose NICs share a set of switches (a chassis)
	SwitchesPerSet  int     `toml:"switches_per_set"` // switches in a set
	NodesPerGroup   int     `toml:"nodes_per_group"`  // nodes in a dragonfly group
	SwitchPorts     int     `toml:"switch_ports"`     // ports of a switch: its NICs, the other switches of its group and the global links
	AdaptivePaths   int     `toml:"adaptive_paths"`   // paths between two switches of a group that transfers spread over: the direct link, then through other switches (1: minimal routing only)
	AdaptiveRouting string  `toml:"adaptive_routing"` // per_transfer: a transfer keeps one of the paths, transfers take them in turn; per_packet: a transfer's transactions take them in turn; load_aware: the first switch picks by its links' queues
}

// Routing names the route policy of each traffic type and what happens to
// routes that tie under it: by default a table keeps one per pair of hubs.
type Routing struct {
	SDMA       string `toml:"sdma"`        // "widest" or "fewest"
	Kernel     string `toml:"kernel"`      // "widest" or "fewest"
	Control    string `toml:"control"`     // small control writes (completion signals): "widest" or "fewest"
	SDMATies   string `toml:"sdma_ties"`   // SDMA data over tied routes: "table" (one route per pair) or "per_copy" (copies alternate)
	KernelTies string `toml:"kernel_ties"` // kernel traffic over tied routes: "table" (one route per pair), "pin" (one per array and CU) or "spray" (transactions alternate)
	MaxHops    int    `toml:"max_hops"`    // longest route considered
}

// Sim holds the simulation's granularity: how big the transactions are that
// stand for many hardware requests. Results must not depend on these (a
// test sweeps them); they trade speed for nothing else.
type Sim struct {
	SDMATransactionBytes int     `toml:"sdma_transaction_bytes"` // bytes one SDMA read or write transaction stands for
	CUTransactionBytes   int64   `toml:"cu_transaction_bytes"`   // bytes of one access stream a CU moves per step
	CoreTransactionBytes int64   `toml:"core_transaction_bytes"` // bytes of one access stream a core moves per step
	NICTransactionBytes  int64   `toml:"nic_transaction_bytes"`  // bytes per NIC DMA read/write transaction
	L2BlockBytes         int64   `toml:"l2_block_bytes"`         // L2 replacement unit (residency is tracked per line)
	EarlyBooking         float64 `toml:"early_booking"`          // fraction of a link's credits that packets still on their way may book
}
