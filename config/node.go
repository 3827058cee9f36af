// Package config holds the node description akisim simulates: plain structs
// decoded strictly from TOML, validated, overridden with -set and written back.
package config

import (
	"fmt"
	"slices"
	"strings"
)

// Node is a whole compute node. Every timing or bandwidth number the model
// uses lives here; the TOML files in configs/ say where each comes from,
// and Params (params.go) gives each key's unit, range and meaning.
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
	Stack    Stack   `toml:"stack"`
	MPI      MPI     `toml:"mpi"`
	RCCL     RCCL    `toml:"rccl"`
	Routing  Routing `toml:"routing"`
	NIC      NIC     `toml:"nic"`
	Network  Network `toml:"network"`
	Sim      Sim     `toml:"sim"`
	Env      Env     `toml:"env"`

	parts *partitioned // set by loading a partition mode other than SPX/NPS1 (partition.go)
}

// Env holds the ROCm environment variables the model honours (akisim
// -env NAME=VALUE sets them); they change what the runtime does.
type Env struct {
	EnableSDMA     int   `toml:"HSA_ENABLE_SDMA"`
	EnablePeerSDMA int   `toml:"HSA_ENABLE_PEER_SDMA"`
	XNACK          int   `toml:"HSA_XNACK"`
	ForceSDMASize  int64 `toml:"HSA_FORCE_SDMA_SIZE"`
	// Cray MPICH's GPU transport (docs/references.md [cray-mpich]; mpi package)
	IPCEnabled   int   `toml:"MPICH_GPU_IPC_ENABLED"`
	IPCThreshold int64 `toml:"MPICH_GPU_IPC_THRESHOLD"`
	IPCCacheMax  int   `toml:"MPICH_GPU_IPC_CACHE_MAX_SIZE"`
	VSMsgCutoff  int64 `toml:"GTL_HSA_VSMSG_CUTOFF_SIZE"`
	// MPICH's collective algorithm switches in bytes (MPIR_CVAR_*, which
	// MPICH also reads as MPICH_*; mpi/coll.go)
	ReduceShort              int64 `toml:"MPICH_REDUCE_SHORT_MSG_SIZE"`
	AllreduceShort           int64 `toml:"MPICH_ALLREDUCE_SHORT_MSG_SIZE"`
	AllreduceMaxSMP          int64 `toml:"MPICH_ALLREDUCE_MAX_SMP_SIZE"`
	BcastRadix               int   `toml:"MPICH_BCAST_INTRANODE_RADIX"`
	ReduceScatterLong        int64 `toml:"MPICH_REDUCE_SCATTER_COMMUTATIVE_LONG_MSG_SIZE"`
	AllgatherLong            int64 `toml:"MPICH_ALLGATHER_LONG_MSG_SIZE"`
	AllgatherShort           int64 `toml:"MPICH_ALLGATHER_SHORT_MSG_SIZE"`
	AlltoallShort            int64 `toml:"MPICH_ALLTOALL_SHORT_MSG_SIZE"`
	AlltoallMedium           int64 `toml:"MPICH_ALLTOALL_MEDIUM_MSG_SIZE"`
	AllreduceKernel          int   `toml:"MPICH_GPU_ALLREDUCE_USE_KERNEL"`
	AllreduceKernelThreshold int64 `toml:"MPICH_GPU_ALLREDUCE_KERNEL_THRESHOLD"`
	AllreduceBlock           int64 `toml:"MPICH_GPU_ALLREDUCE_BLK_SIZE"`
	EnableYaksa              int   `toml:"MPICH_ENABLE_YAKSA"`
	// Shared-memory collectives inside a node (Cray's cells, MPICH's
	// release_gather; mpi/releasegather.go)
	SharedMemColl       int   `toml:"MPICH_SHARED_MEM_COLL_OPT"`
	SharedMemCells      int   `toml:"MPICH_SHARED_MEM_COLL_NCELLS"`
	SharedMemCellBytes  int64 `toml:"MPICH_SHARED_MEM_COLL_CELLSZ"`
	PosixCollsThreshold int   `toml:"MPICH_POSIX_NUM_COLLS_THRESHOLD"`
	ReduceIntranodeKval int   `toml:"MPICH_REDUCE_INTRANODE_TREE_KVAL"`
	BcastIntranodeKval  int   `toml:"MPICH_BCAST_INTRANODE_TREE_KVAL"`
	// RCCL (docs/references.md [rccl]; rccl package): "" or -2 leave RCCL's choice
	NCCLProto       string `toml:"NCCL_PROTO"`
	NCCLAlgo        string `toml:"NCCL_ALGO"`
	NCCLMinChannels int    `toml:"NCCL_MIN_NCHANNELS"`
	NCCLMaxChannels int    `toml:"NCCL_MAX_NCHANNELS"`
	NCCLBuffSize    int64  `toml:"NCCL_BUFFSIZE"`
	NCCLDebug       string `toml:"NCCL_DEBUG"`
	// libfabric's CXI provider (docs/references.md [libfabric-cxi]): a send of at most
	// threshold + get_min bytes is eager, a larger one sends eager_size
	// bytes with its header and the receiver's NIC gets the rest
	RdzvThreshold int64 `toml:"FI_CXI_RDZV_THRESHOLD"`
	RdzvGetMin    int64 `toml:"FI_CXI_RDZV_GET_MIN"`
	RdzvEagerSize int64 `toml:"FI_CXI_RDZV_EAGER_SIZE"`
	// TransferBench's own settings (-workload transferbench; v1.52 EnvVars.hpp)
	TBIterations int `toml:"NUM_ITERATIONS"`
	TBWarmups    int `toml:"NUM_WARMUPS"`
	TBCSV        int `toml:"OUTPUT_TO_CSV"`
	TBBlockSize  int `toml:"GFX_BLOCK_SIZE"`
	TBUnroll     int `toml:"GFX_UNROLL"`
}

// MPI holds the host-side costs of the MPI library (Cray MPICH).
type MPI struct {
	PostNs      float64 `toml:"post_ns"`
	IPCOpenNs   float64 `toml:"ipc_open_ns"`
	VisibleGCDs string  `toml:"visible_gcds"`
}

// What each rank's ROCr sees (mpi.visible_gcds).
const (
	VisibleAll = "all" // every GCD of the node
	VisibleOwn = "own" // its own GCD alone (ROCR_VISIBLE_DEVICES)
)

// RCCL holds the sizes of RCCL's kernels and the constants of its tuning
// model, which picks a protocol and channel count (rccl package).
type RCCL struct {
	Threads               int       `toml:"threads"`
	Steps                 int       `toml:"steps"`
	LLLinesPerThread      int       `toml:"ll_lines_per_thread"`
	Unroll                int       `toml:"unroll"`
	P2PUnroll             int       `toml:"p2p_unroll"`
	EnqueueNs             float64   `toml:"enqueue_ns"`
	BaseLatLLUs           float64   `toml:"base_lat_ll_us"`
	BaseLatSimpleUs       float64   `toml:"base_lat_simple_us"`
	HwLatRingLLUs         float64   `toml:"hw_lat_ring_ll_us"`
	HwLatRingSimpleUs     float64   `toml:"hw_lat_ring_simple_us"`
	HwLatTreeLLUs         float64   `toml:"hw_lat_tree_ll_us"`
	HwLatTreeSimpleUs     float64   `toml:"hw_lat_tree_simple_us"`
	HwLatNetRingLLUs      float64   `toml:"hw_lat_net_ring_ll_us"`
	HwLatNetRingSimpleUs  float64   `toml:"hw_lat_net_ring_simple_us"`
	HwLatNetTreeLLUs      float64   `toml:"hw_lat_net_tree_ll_us"`
	HwLatNetTreeSimpleUs  float64   `toml:"hw_lat_net_tree_simple_us"`
	BWRatioRingLL         float64   `toml:"bw_ratio_ring_ll"`
	BWRatioRingSimple     float64   `toml:"bw_ratio_ring_simple"`
	BWRatioTreeLL         float64   `toml:"bw_ratio_tree_ll"`
	BWRatioTreeSimple     float64   `toml:"bw_ratio_tree_simple"`
	TreeCorrectionLL      []float64 `toml:"tree_correction_ll"`
	TreeCorrectionSimple  []float64 `toml:"tree_correction_simple"`
	RingCorrectionLL      []float64 `toml:"ring_correction_ll"`
	RingCorrectionSimple  []float64 `toml:"ring_correction_simple"`
	ThreadThresholdLL     int64     `toml:"thread_threshold_ll"`
	ThreadThresholdSimple int64     `toml:"thread_threshold_simple"`
}

// GCD describes every graphics compute die of the node (all alike).
type GCD struct {
	Count              int     `toml:"count"`
	XCDs               int     `toml:"xcds"`
	ComputeUnits       int     `toml:"compute_units"`
	ClockGHz           float64 `toml:"clock_ghz"`
	HBMBytes           int64   `toml:"hbm_bytes"`
	HBMBandwidthGBps   float64 `toml:"hbm_bandwidth_gbps"`
	HBMLatencyNs       float64 `toml:"hbm_latency_ns"`
	HubForwardNs       float64 `toml:"hub_forward_ns"`
	ReorderNs          float64 `toml:"reorder_ns"`
	HBMEfficiency      float64 `toml:"hbm_efficiency"`
	KernelLaunchNs     float64 `toml:"kernel_launch_ns"`
	KernelEndNs        float64 `toml:"kernel_end_ns"`
	WaveStartNs        float64 `toml:"wave_start_ns"`
	CPWakeNs           float64 `toml:"cp_wake_ns"`
	PacketFetchNs      float64 `toml:"packet_fetch_ns"`
	WorkgroupSlots     int     `toml:"workgroup_slots"`
	CUOutstandingBytes int64   `toml:"cu_outstanding_bytes"`
	CUBytesPerClock    int     `toml:"cu_bytes_per_clock"`
	ConcurrentKernels  int     `toml:"concurrent_kernels"`
	L2Bytes            int64   `toml:"l2_bytes"`
	L2Slices           int     `toml:"l2_slices"`
	L2BytesPerClock    int     `toml:"l2_bytes_per_clock"`
	L2LatencyNs        float64 `toml:"l2_latency_ns"`
	LineBytes          int64   `toml:"line_bytes"`
	TLBEntries         int     `toml:"tlb_entries"`
	PageWalkers        int     `toml:"page_walkers"`
	PageWalkNs         float64 `toml:"page_walk_ns"`
	FP64GFlops         float64 `toml:"fp64_gflops"`
	// Partition modes (partition.go): how the XCDs of a [gcd] entry are
	// grouped into HIP devices and its HBM into NUMA memory partitions.
	ComputePartition string `toml:"compute_partition"`
	MemoryPartition  string `toml:"memory_partition"`
}

// MALL describes each device's memory-side cache (Infinity Cache) in front
// of its HBM, shared by its XCDs (components/mall). bytes = 0: none.
type MALL struct {
	Bytes                int64   `toml:"bytes"`
	Ways                 int     `toml:"ways"`
	LineBytes            int64   `toml:"line_bytes"`
	Channels             int     `toml:"channels"`
	ChannelBandwidthGBps float64 `toml:"channel_bandwidth_gbps"`
	LatencyNs            float64 `toml:"latency_ns"`
	WriteAllocate        bool    `toml:"write_allocate"`
	WriteBack            bool    `toml:"write_back"`
}

// SDMA describes the copy engines of one GCD.
type SDMA struct {
	HostEngines      int     `toml:"host_engines"`
	XGMIEngines      int     `toml:"xgmi_engines"`
	QueuesPerEngine  int     `toml:"queues_per_engine"`
	ClockGHz         float64 `toml:"clock_ghz"`
	BytesPerCycle    int     `toml:"bytes_per_cycle"`
	OutstandingBytes int     `toml:"outstanding_bytes"`
	PacketProcessNs  float64 `toml:"packet_process_ns"`
	FenceNs          float64 `toml:"fence_ns"`
	SignalNs         float64 `toml:"signal_ns"`
}

// XGMI describes the GCD-to-GCD Infinity Fabric links and their bundles.
type XGMI struct {
	LaneBandwidthGBps     float64  `toml:"lane_bandwidth_gbps"`
	FlightLatencyNs       float64  `toml:"flight_latency_ns"`
	PacketPayloadBytes    int      `toml:"packet_payload_bytes"`
	PacketOverheadBytes   int      `toml:"packet_overhead_bytes"`
	ResponseOverheadBytes int      `toml:"response_overhead_bytes"`
	RequestBytes          int      `toml:"request_bytes"`
	CreditBytes           int      `toml:"credit_bytes"`
	Bundles               []Bundle `toml:"bundle"`
}

// Bundle is one bundle of xGMI links (lanes) between two GCDs. In key paths
// and -set overrides a bundle is xgmi.bundle[i] (i from 0, file order) or
// xgmi.bundle[a-b] (the bundle joining GCDs a and b, either order).
type Bundle struct {
	GCDs  [2]int `toml:"gcds"`
	Lanes int    `toml:"lanes"`
}

// Link describes a point-to-point link that is not a bundle (the host link).
type Link struct {
	BandwidthGBps         float64 `toml:"bandwidth_gbps"`
	FlightLatencyNs       float64 `toml:"flight_latency_ns"`
	PacketPayloadBytes    int     `toml:"packet_payload_bytes"`
	PacketOverheadBytes   int     `toml:"packet_overhead_bytes"`
	ResponseOverheadBytes int     `toml:"response_overhead_bytes"`
	RequestBytes          int     `toml:"request_bytes"`
	CreditBytes           int     `toml:"credit_bytes"`
}

// Host describes the CPU side: NUMA domains and which GCD hangs off which.
type Host struct {
	NUMADomains          int     `toml:"numa_domains"`
	Memory               string  `toml:"memory"`
	NUMABytes            int64   `toml:"numa_bytes"`
	GCDNUMA              []int   `toml:"gcd_numa"`
	HubLatencyNs         float64 `toml:"hub_latency_ns"`
	RemoteNUMANs         float64 `toml:"remote_numa_ns"`
	Cores                int     `toml:"cores"`
	CoreOutstandingBytes int64   `toml:"core_outstanding_bytes"`
	CoreLoadLines        int64   `toml:"core_load_lines"`
	CoreToCoreNs         float64 `toml:"core_to_core_ns"`
	StoreAllocate        bool    `toml:"store_allocate"`
	LinkSharedDirections bool    `toml:"link_shared_directions"`
	L3Bytes              int64   `toml:"l3_bytes"`
	CCDLinkGBps          float64 `toml:"ccd_link_gbps"`
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
	Efficiency           float64 `toml:"efficiency"`
	LatencyNs            float64 `toml:"latency_ns"`
}

// Runtime holds the costs of the HIP runtime on the host.
type Runtime struct {
	APICallNs          float64 `toml:"api_call_ns"`
	SyncCallNs         float64 `toml:"sync_call_ns"`
	DoorbellNs         float64 `toml:"doorbell_ns"`
	EventRecordNs      float64 `toml:"event_record_ns"`
	BlitWorkgroupBytes int64   `toml:"blit_workgroup_bytes"`
	AllocationBytes    int64   `toml:"allocation_bytes"`
	HostPageBytes      int64   `toml:"host_page_bytes"`
	EventRelease       string  `toml:"event_release"`

	// Copies from or to pageable (malloc) memory, as ROCclr makes them
	// (hip/pageable.go).
	StagingBytes int64   `toml:"staging_bytes"`
	PinMinBytes  int64   `toml:"pin_min_bytes"`
	PinNs        float64 `toml:"pin_ns"`
	PinPageNs    float64 `toml:"pin_page_ns"`
	// A malloc of at least MmapBytes is a mapping of its own (glibc's
	// mmap threshold at its highest); pinning its pages costs
	// PinMappedPageNs more per page, and a device-to-host copy's pinned
	// pages PinWrittenPageNs more.
	MmapBytes        int64   `toml:"mmap_bytes"`
	PinMappedPageNs  float64 `toml:"pin_mapped_page_ns"`
	PinWrittenPageNs float64 `toml:"pin_written_page_ns"`

	// Managed memory (hip/managed.go): the KFD driver's work to migrate one
	// 2 MiB block besides its SDMA copy.
	ManagedFaultNs float64 `toml:"managed_fault_ns"`
	PrefetchNs     float64 `toml:"prefetch_ns"`
}

// Stack names the software the run models: its ROCm, Cray MPICH and RCCL
// releases (docs/model/hip-runtime.md "Software stack"). Each selector picks its entry
// of the release list of the same name; what releases do differently is
// the keys of those entries. In key paths and -set overrides an entry is
// stack.rocm_release[i] (file order), or stack.rocm_release[*] for all.
type Stack struct {
	ROCm              string             `toml:"rocm"`
	CrayMPICH         string             `toml:"cray_mpich"`
	RCCL              string             `toml:"rccl"`
	ROCmReleases      []ROCmRelease      `toml:"rocm_release"`
	CrayMPICHReleases []CrayMPICHRelease `toml:"cray_mpich_release"`
	RCCLReleases      []RCCLRelease      `toml:"rccl_release"`
}

// ROCmRelease is what one ROCm release (its ROCclr and the amdgpu driver
// shipped with it) does differently.
type ROCmRelease struct {
	ROCm              string  `toml:"rocm"`
	PinChunkBytes     int64   `toml:"pin_chunk_bytes"`
	FaultPendingNs    float64 `toml:"fault_pending_ns"`
	ManagedPageNs     float64 `toml:"managed_page_ns"`
	ManagedHostPageNs float64 `toml:"managed_host_page_ns"`
	ManagedFill       string  `toml:"managed_fill"`
	P2PBlitMaxBytes   int64   `toml:"p2p_blit_max_bytes"`
	// ROCclr's copy kernel for a copy within one GCD (KernelBlitManager::copyBuffer)
	CopyItemBytes int64 `toml:"copy_item_bytes"` // bytes a work-item loads and stores per iteration (0: runtime.blit_workgroup_bytes per workgroup)
	CopyWorkgroup int64 `toml:"copy_workgroup"`  // work-items per workgroup
	CopyLoop      bool  `toml:"copy_loop"`       // one workgroup per CU looping over the copy, else a work-item per piece
}

// CrayMPICHRelease is what one Cray MPICH release does differently.
type CrayMPICHRelease struct {
	CrayMPICH string `toml:"cray_mpich"`
	// GPUAllreduceKernel is the release's MPICH_GPU_ALLREDUCE_USE_KERNEL
	// default: MPI_Allreduce on GPU buffers reduces with GPU kernels
	GPUAllreduceKernel bool `toml:"gpu_allreduce_kernel"`
}

// CrayMPICHRelease is the selected Cray MPICH release, stack.cray_mpich's
// entry of stack.cray_mpich_release (validation makes sure there is one).
func (s *Stack) CrayMPICHRelease() CrayMPICHRelease {
	return pick(s.CrayMPICHReleases, slices.Index(s.crayMPICHNames(), s.CrayMPICH), CrayMPICHRelease{CrayMPICH: s.CrayMPICH})
}

// pick is list[i], or none when i is -1 (no entry of that name).
func pick[R any](list []R, i int, none R) R {
	if i < 0 {
		return none
	}
	return list[i]
}

// GPUAllreduceKernel says whether MPI_Allreduce on GPU buffers reduces
// with GPU kernels: MPICH_GPU_ALLREDUCE_USE_KERNEL, or when it is unset
// (-1) the Cray MPICH release's default.
func (n *Node) GPUAllreduceKernel() bool {
	if n.Env.AllreduceKernel < 0 {
		return n.Stack.CrayMPICHRelease().GPUAllreduceKernel
	}
	return n.Env.AllreduceKernel == 1
}

// RCCLRelease is what one RCCL release does differently.
type RCCLRelease struct {
	RCCL string `toml:"rccl"`
	// ChainChunks: the release sizes Broadcast's and Reduce's chunks to
	// the message, so their chain pipelines (rccl.Params.ChainChunks)
	ChainChunks bool `toml:"chain_chunks"`
}

// RCCLRelease is the selected RCCL release, stack.rccl's entry of
// stack.rccl_release (validation makes sure there is one).
func (s *Stack) RCCLRelease() RCCLRelease {
	return pick(s.RCCLReleases, slices.Index(s.rcclNames(), s.RCCL), RCCLRelease{RCCL: s.RCCL})
}

// ROCmRelease is the selected ROCm release, stack.rocm's entry of
// stack.rocm_release (validation makes sure there is one).
func (s *Stack) ROCmRelease() ROCmRelease {
	return pick(s.ROCmReleases, slices.Index(s.rocmNames(), s.ROCm), ROCmRelease{ROCm: s.ROCm})
}

// Select returns a copy of n running the given releases ("" keeps the
// config's), or an error naming a release the config does not list.
func (n *Node) Select(rocm, crayMPICH, rccl string) (*Node, error) {
	x := *n
	s := &x.Stack
	for _, sel := range []struct {
		cur   *string
		want  string
		key   string
		names []string
	}{
		{&s.ROCm, rocm, "stack.rocm", s.rocmNames()},
		{&s.CrayMPICH, crayMPICH, "stack.cray_mpich", s.crayMPICHNames()},
		{&s.RCCL, rccl, "stack.rccl", s.rcclNames()},
	} {
		if sel.want == "" {
			continue
		}
		if !slices.Contains(sel.names, sel.want) {
			return nil, fmt.Errorf("%s: unknown release %q (%s_release has %s)", sel.key, sel.want, sel.key, strings.Join(sel.names, ", "))
		}
		*sel.cur = sel.want
	}
	return &x, nil
}

func (s *Stack) rocmNames() (names []string) {
	for _, r := range s.ROCmReleases {
		names = append(names, r.ROCm)
	}
	return names
}

func (s *Stack) crayMPICHNames() (names []string) {
	for _, r := range s.CrayMPICHReleases {
		names = append(names, r.CrayMPICH)
	}
	return names
}

func (s *Stack) rcclNames() (names []string) {
	for _, r := range s.RCCLReleases {
		names = append(names, r.RCCL)
	}
	return names
}

// NIC describes the node's network interfaces (HPE Slingshot-11 NICs,
// "Cassini"): where each hangs, which ranks use it, its DMA engine and the
// costs of its commands and completion events.
type NIC struct {
	Count            int     `toml:"count"`
	Engines          int     `toml:"engines"`
	GCDs             []int   `toml:"gcds"`
	NUMA             []int   `toml:"numa"`
	Switch           []int   `toml:"switch"`
	PCIe             Link    `toml:"pcie"`
	ForwardNs        float64 `toml:"forward_ns"`
	OutstandingBytes int     `toml:"outstanding_bytes"`
	CommandNs        float64 `toml:"command_ns"`
	EventNs          float64 `toml:"event_ns"`
	InjectBytes      int64   `toml:"inject_bytes"`
}

// Network describes the Slingshot network that joins the nodes: a
// dragonfly of switches (HPE Rosetta), each node's NICs cabled to the
// switches of its set, sets in groups whose switches are all joined, and
// the groups joined by global links.
type Network struct {
	Nodes           int     `toml:"nodes"`
	Link            Link    `toml:"link"`
	SwitchNs        float64 `toml:"switch_ns"`
	GlobalNs        float64 `toml:"global_ns"`
	NodesPerSet     int     `toml:"nodes_per_set"`
	SwitchesPerSet  int     `toml:"switches_per_set"`
	NodesPerGroup   int     `toml:"nodes_per_group"`
	SwitchPorts     int     `toml:"switch_ports"`
	AdaptivePaths   int     `toml:"adaptive_paths"`
	AdaptiveRouting string  `toml:"adaptive_routing"`
}

// Routing names the route policy of each traffic type and what happens to
// routes that tie under it: by default a table keeps one per pair of hubs.
type Routing struct {
	SDMA       string `toml:"sdma"`
	Kernel     string `toml:"kernel"`
	Control    string `toml:"control"`
	SDMATies   string `toml:"sdma_ties"`
	KernelTies string `toml:"kernel_ties"`
	MaxHops    int    `toml:"max_hops"`
}

// Sim holds the simulation's granularity: how big the transactions are that
// stand for many hardware requests. Results must not depend on these (a
// test sweeps them); they trade speed for nothing else.
type Sim struct {
	SDMATransactionBytes int     `toml:"sdma_transaction_bytes"`
	CUTransactionBytes   int64   `toml:"cu_transaction_bytes"`
	CoreTransactionBytes int64   `toml:"core_transaction_bytes"`
	NICTransactionBytes  int64   `toml:"nic_transaction_bytes"`
	L2BlockBytes         int64   `toml:"l2_block_bytes"`
	EarlyBooking         float64 `toml:"early_booking"`
	StreamGather         bool    `toml:"stream_gather"`
}
