// Package trace defines akisim's operation stream: the HIP calls a program
// makes, one per line of a JSON Lines file. Built-in workloads emit the same
// operations, so both run through one replay path.
package trace

// Kind is the type of a trace operation.
type Kind string

// Operation kinds.
const (
	Malloc         Kind = "malloc"            // hipMalloc: device memory on a GCD
	HostMalloc     Kind = "host_malloc"       // hipHostMalloc: pinned host memory on a NUMA domain
	MallocPageable Kind = "malloc_pageable"   // malloc / aligned_alloc: pageable host memory on a NUMA domain
	Memcpy         Kind = "memcpy"            // hipMemcpy: blocks the host
	MemcpyAsync    Kind = "memcpy_async"      // hipMemcpyAsync on a stream
	MemcpyPeer     Kind = "memcpy_peer"       // hipMemcpyPeer: blocks the host
	MemcpyPeerAsy  Kind = "memcpy_peer_async" // hipMemcpyPeerAsync on a stream
	EventRecord    Kind = "event_record"      // hipEventRecord(event, stream)
	EventSync      Kind = "event_sync"        // hipEventSynchronize(event)
	StreamWait     Kind = "stream_wait"       // hipStreamWaitEvent(stream, event)
	StreamSync     Kind = "stream_sync"       // hipStreamSynchronize(stream)
	DeviceSync     Kind = "device_sync"       // hipDeviceSynchronize
	SetEnv         Kind = "setenv"            // the ROCm environment of the run (HSA_ENABLE_SDMA, ...)
	HostAccess     Kind = "host_access"       // host threads load or store memory in place (mapped GPU memory)
	Kernel         Kind = "kernel"            // hipLaunchKernel (hipModuleLaunchKernel, <<<>>>) on a stream
	FlagSet        Kind = "flag_set"          // the host stores 1 to a flag in mapped host memory (*flag = 1)
)

// Op is one operation. Which fields matter depends on Op.
type Op struct {
	Op      Kind   `json:"op"`
	Buf     string `json:"buf,omitempty"`   // allocations: the new buffer's name; free, prefetch, host_register, host_unregister: the buffer
	GCD     *int   `json:"gcd,omitempty"`   // malloc: owning GCD; kernel: GCD it runs on
	NUMA    *int   `json:"numa,omitempty"`  // host_malloc, malloc_pageable: NUMA domain
	Bytes   int64  `json:"bytes,omitempty"` // allocation or copy size
	Src     string `json:"src,omitempty"`   // copies: source buffer
	Dst     string `json:"dst,omitempty"`   // copies: destination buffer
	SrcOff  int64  `json:"src_offset,omitempty"`
	DstOff  int64  `json:"dst_offset,omitempty"`
	Stream  int    `json:"stream,omitempty"`  // async ops, kernel, event_record, stream_wait, stream_sync; 0 = null stream
	Event   string `json:"event,omitempty"`   // event ops
	Label   string `json:"label,omitempty"`   // free text carried into reports
	Rank    int    `json:"rank,omitempty"`    // the host process (MPI rank) making the call; each runs as its own host thread
	Value   string `json:"value,omitempty"`   // setenv: the variable's value (Name is the variable)
	Threads int    `json:"threads,omitempty"` // host_access: host threads doing it (default 1)

	// Kernel launches (op "kernel"), in rocprofv3's terms: Grid work-items
	// in Workgroup-sized workgroups on GCD, ordered in Stream.
	Name      string  `json:"name,omitempty"`       // kernel name
	Grid      int64   `json:"grid,omitempty"`       // work-items (Grid_Size_X*Y*Z)
	Workgroup int     `json:"workgroup,omitempty"`  // work-items per workgroup
	ComputeNs float64 `json:"compute_ns,omitempty"` // compute time per workgroup besides memory
	// DurationNs holds a kernel at a recorded execution time (a profiler's
	// end - start on the recorded machine) instead of costing its memory.
	DurationNs float64  `json:"duration_ns,omitempty"`
	Access     []Access `json:"access,omitempty"`    // the memory the kernel touches
	WaitFlag   string   `json:"wait_flag,omitempty"` // the kernel spins until this flag is set (a delay kernel; a step of a collective)
	SetFlag    string   `json:"set_flag,omitempty"`  // the kernel's last store sets this flag, for other GCDs' kernels or host threads
	// InFlight caps the bytes each workgroup keeps in flight, one per CU
	// at a time (its threads x loads in flight each); 0: the GCD's own cap.
	InFlight int64 `json:"in_flight,omitempty"`

	Flag string `json:"flag,omitempty"` // flag_set: the flag the host sets

	// Memory grain (grain.go): fine-grained device memory
	// (hipExtMallocWithFlags hipDeviceMallocFinegrained), coarse-grained
	// pinned host memory (hipHostMallocNonCoherent), and mem_advise's advice.
	Fine        bool   `json:"fine,omitempty"`        // malloc
	NonCoherent bool   `json:"noncoherent,omitempty"` // host_malloc
	Advice      string `json:"advice,omitempty"`      // mem_advise

	// MPI point to point (mpi.go): the peer rank, the message tag and the
	// request a nonblocking call starts (mpi_wait names it).
	Peer *int   `json:"peer,omitempty"`
	Tag  int    `json:"tag,omitempty"`
	Req  string `json:"req,omitempty"`

	// Collectives (rccl.go, and MPI's): the communicator, its GCDs
	// (rccl_comm_init: comm rank i on GCDs[i]), the root rank of rooted
	// collectives, the element type and the reduction.
	Comm     string `json:"comm,omitempty"`
	GCDs     []int  `json:"gcds,omitempty"`
	Root     *int   `json:"root,omitempty"`
	Datatype string `json:"datatype,omitempty"`
	RedOp    string `json:"redop,omitempty"`

	Line int `json:"-"` // line number in the trace file, 0 when generated
}

// Access is one buffer a kernel reads or writes.
type Access struct {
	Buf     string `json:"buf"`
	Mode    string `json:"mode"`              // "read" or "write"
	Bytes   int64  `json:"bytes"`             // bytes touched
	Offset  int64  `json:"offset,omitempty"`  // first byte touched
	Pattern string `json:"pattern,omitempty"` // "sequential" (default), "strided" or "random"
	Stride  int64  `json:"stride,omitempty"`  // bytes between accesses, for "strided"
	Element int64  `json:"element,omitempty"` // bytes per access (default 8, a double)
	// Workgroups [first, end) are the kernel's workgroups that touch the
	// access (a batched kernel's blockIdx.y picks its segment); empty: all.
	Workgroups []int64 `json:"workgroups,omitempty"`
	// Passes is how many times the kernel goes over the access's bytes, in
	// order, as a loop or an index modulo the length does (0: once): the
	// later passes find the bytes in the caches if they fit.
	Passes int64 `json:"passes,omitempty"`
}

// Times is how many times the access's bytes are gone over: Passes, at
// least 1.
func (a *Access) Times() int64 { return max(1, a.Passes) }

// IsCopy says whether the op moves data.
func (o *Op) IsCopy() bool {
	switch o.Op {
	case Memcpy, MemcpyAsync, MemcpyPeer, MemcpyPeerAsy:
		return true
	}
	return false
}

// IsAsync says whether the op returns to the host before its work is done.
func (o *Op) IsAsync() bool {
	return o.Op == MemcpyAsync || o.Op == MemcpyPeerAsy
}

// Kinds returns every operation kind the format knows, in documentation
// order.
func Kinds() []Kind {
	return []Kind{
		Malloc, HostMalloc, MallocPageable, MallocManaged, Prefetch, MemAdvise,
		HostRegister, HostUnregister, Memset,
		Memcpy, MemcpyAsync, MemcpyPeer, MemcpyPeerAsy,
		EventRecord, EventSync, StreamWait, StreamSync, DeviceSync,
		Kernel, FlagSet, FlagWait, HostCompute, SetEnv, HostAccess, Free,
		MPIIsend, MPIIrecv, MPISend, MPIRecv, MPIWait, MPIWaitall,
		RCCLCommInit, RCCLAllReduce, RCCLAllGather, RCCLReduceScatter, RCCLBroadcast, RCCLReduce, RCCLAllToAll, RCCLSend, RCCLRecv,
		RCCLGroupStart, RCCLGroupEnd,
	}
}

// Valid says whether k is one of the kinds returned by Kinds.
func (k Kind) Valid() bool {
	switch k {
	case SetEnv, HostAccess, Malloc, HostMalloc, MallocPageable, MallocManaged, Prefetch, MemAdvise, HostRegister, HostUnregister, Memset,
		Memcpy, MemcpyAsync, MemcpyPeer, MemcpyPeerAsy,
		EventRecord, EventSync, StreamWait, StreamSync, DeviceSync, Kernel, FlagSet, FlagWait, HostCompute, Free,
		MPIIsend, MPIIrecv, MPISend, MPIRecv, MPIWait, MPIWaitall,
		RCCLCommInit, RCCLAllReduce, RCCLAllGather, RCCLReduceScatter, RCCLBroadcast, RCCLReduce, RCCLAllToAll, RCCLSend, RCCLRecv,
		RCCLGroupStart, RCCLGroupEnd:
		return true
	}
	return false
}

// IsAlloc says whether the op allocates a buffer.
func (o *Op) IsAlloc() bool {
	return o.Op == Malloc || o.Op == HostMalloc || o.Op == MallocPageable || o.Op == MallocManaged
}

// IsPeer says whether the op is a peer copy, which needs device buffers at
// both ends.
func (o *Op) IsPeer() bool {
	return o.Op == MemcpyPeer || o.Op == MemcpyPeerAsy
}
