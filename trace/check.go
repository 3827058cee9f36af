package trace

import (
	"fmt"
	"math"
	"strings"
)

// Buffer describes one allocation made by a malloc or host_malloc op.
type Buffer struct {
	Name string
	Host bool // true for host memory (host_malloc, malloc_pageable)
	// Pageable is true for malloc_pageable: host memory the GPUs cannot
	// reach until the runtime stages or pins it for a copy.
	Pageable bool
	// Managed is true for malloc_managed: pages in host DRAM that may
	// migrate to a GCD (managed.go).
	Managed bool
	GCD     int   // owning GCD of a device buffer; -1 for host buffers
	NUMA    int   // NUMA domain of a host buffer; -1 for device buffers
	Bytes   int64 // size
	// Coarse is true for coarse-grained memory as allocated: hipMalloc
	// (malloc without "fine") and hipHostMalloc with hipHostMallocNonCoherent.
	// Another agent maps it MTYPE NC, so its L2 may cache it (grain.go).
	Coarse bool
}

// Buffers returns the buffers allocated by ops, keyed by name. Ops without a
// buffer name are skipped; if a name is allocated twice (which Check
// rejects) the first allocation wins. A device buffer whose op has no gcd
// gets GCD -1, and likewise NUMA for a host buffer.
func Buffers(ops []Op) map[string]Buffer {
	bufs := make(map[string]Buffer, allocations(ops))
	for i := range ops {
		AddBuffer(bufs, &ops[i])
	}
	return bufs
}

// allocations counts ops' allocations: the size of a map of their
// buffers, made at once rather than grown through every doubling.
func allocations(ops []Op) int {
	n := 0
	for i := range ops {
		if ops[i].IsAlloc() {
			n++
		}
	}
	return n
}

// AddBuffer notes in bufs the buffer op allocates, unless an earlier op
// allocated that name (Buffers, op by op).
func AddBuffer(bufs map[string]Buffer, o *Op) {
	if b, ok := o.Allocates(); ok {
		if _, dup := bufs[o.Buf]; !dup {
			bufs[o.Buf] = b
		}
	}
}

// Allocates is the buffer op allocates, if it is a named allocation.
func (o *Op) Allocates() (Buffer, bool) {
	if !o.IsAlloc() || o.Buf == "" {
		return Buffer{}, false
	}
	return o.placed(), true
}

// buffer is the buffer an allocation op makes (GCD and NUMA not filled in).
func (o *Op) buffer() Buffer {
	host := o.Op == HostMalloc || o.Op == MallocPageable || o.Op == MallocManaged
	return Buffer{Name: o.Buf, Host: host, Pageable: o.Op == MallocPageable, Managed: o.Op == MallocManaged, Bytes: o.Bytes,
		Coarse: (o.Op == Malloc && !o.Fine) || (o.Op == HostMalloc && o.NonCoherent)}
}

// LineOf is the line reported for ops[i]: its Line, or for generated ops
// (Line 0) its 1-based position, which is its line in Write's output.
func LineOf(ops []Op, i int) int {
	if ops[i].Line > 0 {
		return ops[i].Line
	}
	return i + 1
}

// fieldsOf lists, per kind, the JSON fields an op of that kind may set
// ("label" is allowed everywhere). A field outside its kind's list is
// rejected, so a misplaced field (a gcd on a memcpy, a stream on a blocking
// copy) is not silently ignored.
var fieldsOf = map[Kind][]string{
	Malloc:         {"buf", "gcd", "bytes", "fine"},
	HostMalloc:     {"buf", "numa", "bytes", "noncoherent"},
	MallocPageable: {"buf", "numa", "bytes"},
	Memcpy:         {"src", "dst", "bytes", "src_offset", "dst_offset"},
	MemcpyAsync:    {"src", "dst", "bytes", "src_offset", "dst_offset", "stream"},
	MemcpyPeer:     {"src", "dst", "bytes", "src_offset", "dst_offset"},
	MemcpyPeerAsy:  {"src", "dst", "bytes", "src_offset", "dst_offset", "stream"},
	EventRecord:    {"event", "stream"},
	EventSync:      {"event"},
	StreamWait:     {"stream", "event"},
	StreamSync:     {"stream"},
	DeviceSync:     {},
	Kernel:         {"name", "gcd", "stream", "grid", "workgroup", "compute_ns", "duration_ns", "access", "wait_flag", "set_flag", "in_flight"},
	FlagSet:        {"flag"},
	SetEnv:         {"name", "value"},
	HostAccess:     {"numa", "access", "threads"},
}

// Bounds on a trace's numbers. Besides what HIP allows, they keep every
// product the model forms from them (traffic x workgroups, compute time x
// workgroups) inside int64 and finite float64.
const (
	// MaxWorkgroup is the most work-items a kernel's workgroup may have, as
	// in HIP on MI250X.
	MaxWorkgroup = 1024
	// MaxWorkgroups is the most workgroups a kernel may have: the AQL
	// dispatch packet holds each grid dimension in 32 bits.
	MaxWorkgroups = 1 << 32
	// MaxStream bounds a program's stream numbers; the one above is the
	// MPI library's own (package mpi).
	MaxStream = 1<<30 - 1
	// MaxRanks bounds the host processes (MPI ranks) of a trace.
	MaxRanks = 1 << 16
	// MaxComputeNs is the longest compute_ns: one second per workgroup.
	MaxComputeNs = 1e9
	// MinInFlight is the smallest in_flight: 64 work-items with a 16-byte
	// load each. A kernel's memory moves in steps of at most in_flight
	// bytes per CU, so a smaller one would only add events.
	MinInFlight = 1024
	// MaxDurationNs is the longest duration_ns: an hour.
	MaxDurationNs = 3.6e12
	// MaxThreads is the most threads a host_access may use, far above
	// the hardware threads of any host (Trento: 128).
	MaxThreads = 1 << 16
	// MaxPassBytes bounds an access's bytes x passes: a PiB, far beyond
	// any kernel's traffic, keeps the simulation's byte counts in int64.
	MaxPassBytes = 1 << 50
)

// Limits is what Check needs to know of the node a trace runs on.
type Limits struct {
	GCDs, NUMADomains int // of all nodes (global ids)
	// per node (0: one node holds them all): memory and GCDs of different
	// nodes reach each other only through the network (MPI, RCCL)
	GCDsPerNode, NUMAPerNode int
	HBMBytes                 int64 // HBM capacity of each GCD
	NUMABytes                int64 // host memory of each NUMA domain
	// Unified: NUMA domain d's memory is GCD d's HBM (an APU node), so
	// host and device allocations there share one capacity
	Unified bool
	// Libraries checks what the calls of the libraries a trace holds mean
	// together (MPI's and RCCL's: commcheck.Libraries); nil: only each
	// call's own fields are checked
	Libraries *Libraries
}

// Libraries makes, for a trace of the given ranks (host processes), the
// semantics its library calls are checked with.
type Libraries struct {
	New func(ranks []int) []Semantics
}

// Semantics checks what one library's calls mean together across a
// trace's ranks, in trace order: Check each call it Owns (its fields
// already checked), then Finish for what the trace's end leaves open.
type Semantics interface {
	Owns(o *Op) bool
	Check(o *Op, at *At) *Error
	Finish(name string) *Error
}

// At is what a Semantics sees of the trace at the call it checks.
type At struct{ c *checker }

// Line is the call's line.
func (a *At) Line() int { return a.c.line }

// GCDs is the GCDs of the node (or cluster).
func (a *At) GCDs() int { return a.c.gcds }

// Buffer is the live buffer name, given in field, of the call's rank.
func (a *At) Buffer(field, name string, k Kind) (Buffer, *Error) { return a.c.buffer(field, name, k) }

// setFields appends to s the JSON fields op sets (non-zero), in Op's field
// order, "op" and "label" aside; Check reuses s from op to op.
func setFields(s []string, o *Op) []string {
	add := func(set bool, name string) {
		if set {
			s = append(s, name)
		}
	}
	add(o.Buf != "", "buf")
	add(o.GCD != nil, "gcd")
	add(o.NUMA != nil, "numa")
	add(o.Bytes != 0, "bytes")
	add(o.Src != "", "src")
	add(o.Dst != "", "dst")
	add(o.SrcOff != 0, "src_offset")
	add(o.DstOff != 0, "dst_offset")
	add(o.Stream != 0, "stream")
	add(o.Event != "", "event")
	add(o.Value != "", "value")
	add(o.Threads != 0, "threads")
	add(o.Name != "", "name")
	add(o.Grid != 0, "grid")
	add(o.Workgroup != 0, "workgroup")
	add(o.ComputeNs != 0, "compute_ns")
	add(o.DurationNs != 0, "duration_ns")
	add(len(o.Access) != 0, "access")
	add(o.WaitFlag != "", "wait_flag")
	add(o.SetFlag != "", "set_flag")
	add(o.InFlight != 0, "in_flight")
	add(o.Flag != "", "flag")
	add(o.Rank != 0, "rank")
	add(o.Fine, "fine")
	add(o.NonCoherent, "noncoherent")
	add(o.Advice != "", "advice")
	add(o.Peer != nil, "peer")
	add(o.Tag != 0, "tag")
	add(o.Req != "", "req")
	add(o.Root != nil, "root")
	add(o.Comm != "", "comm")
	add(len(o.GCDs) != 0, "gcds")
	add(o.Datatype != "", "datatype")
	add(o.RedOp != "", "redop")
	return s
}

// Check verifies that ops form a consistent trace for the node n. It
// returns the first problem, in op order, as an *Error naming name and the
// op's line (for generated ops with Line 0, the op's 1-based position), or
// nil.
//
// It checks that each op has a known kind and sets only the fields its kind
// uses; that allocations name a new buffer, a GCD or NUMA domain in range
// and a size > 0 that fits in what is left of the GCD's HBM or the NUMA
// domain's memory; that copies name buffers allocated on an earlier line,
// with bytes > 0 and offsets >= 0 keeping the copy inside both buffers, and
// that peer copies are between device buffers; that kernels have a name, a
// GCD in range, a grid > 0 that is a multiple of a workgroup of
// 1..MaxWorkgroup work-items and at most MaxWorkgroups workgroups, a
// compute_ns in 0..MaxComputeNs and at least one access, each to a buffer
// allocated on an earlier line (host and other GCDs' buffers included) with
// a mode, bytes > 0 and an offset >= 0 inside the buffer, an element of
// 1..bytes bytes, and a known pattern with a stride > 0 exactly when
// "strided"; that host accesses use 1..MaxThreads threads; that streams are
// >= 0; that event_record names an event, and event_sync and stream_wait an
// event recorded on an earlier line. A kernel with a wait_flag may have no
// access; its flag must not be set yet, and must be set by a later
// flag_set (reported at the kernel after all other checks); a flag_set
// names a flag an earlier kernel waits on and sets it once; while a flag is
// waited on and not set, the host makes no call that waits for device work
// (memcpy, memcpy_peer, event_sync, stream_sync, device_sync, a memcpy_async
// of pageable memory, host_unregister), which would hang. A free names a
// buffer allocated, not yet freed and not registered; no later op may use
// that buffer, and its bytes are free again. A host_register names a
// malloc_pageable buffer not registered yet, a host_unregister one that
// is; while registered a buffer is not pageable (kernels may access it,
// memcpy_async of it does not block). Every sum and product is checked
// without overflowing int64.
func Check(ops []Op, n Limits, name string) error {
	_, err := Inspect(ops, n, name)
	return err
}

// Traits are what a check saw of a trace on its way, so the caller need
// not pass over every op again to ask.
type Traits struct {
	RCCL bool // some op is an RCCL call
}

// Inspect is Check, and says what the trace holds.
func Inspect(ops []Op, n Limits, name string) (Traits, error) {
	c := newChecker(n, setRanks(ops), hostWaiters(ops), Ranks(ops))
	c.bufs = make(map[string]allocated, allocations(ops))
	if e := c.ops(ops, 0, name); e != nil {
		return c.traits, e
	}
	return c.traits, c.finish(name)
}

func newChecker(n Limits, setters map[string][]int, hosts map[string]bool, ranks []int) *checker {
	c := &checker{
		gcds: n.GCDs, numa: n.NUMADomains, nodes: newNodeMap(n),
		hbm:    memory{what: "GCD", kind: "HBM", key: "gcd.hbm_bytes", capacity: n.HBMBytes, used: map[int]int64{}},
		dram:   memory{what: "NUMA domain", kind: "memory", key: "host.numa_bytes", capacity: n.NUMABytes, used: map[int]int64{}},
		bufs:   map[string]allocated{},
		events: map[eventKey]bool{},
		flags: flags{waiter: map[string]int{}, rank: map[string]int{}, set: map[string]int{}, byGPU: map[string]bool{},
			setters: setters, hosts: hosts},
	}
	if n.Libraries != nil {
		c.libs = n.Libraries.New(ranks)
	}
	if n.Unified {
		c.dram.used = c.hbm.used // domain d is GCD d's HBM: the same global ids
	}
	return c
}

// ops checks ops, the trace's ops from index first on, in order.
func (c *checker) ops(ops []Op, first int, name string) *Error {
	for i := range ops {
		c.line, c.rank = ops[i].Line, ops[i].Rank
		if c.line <= 0 {
			c.line = first + i + 1 // a generated op: its position (LineOf)
		}
		if e := c.op(&ops[i]); e != nil {
			e.File, e.Line = name, c.line
			return e
		}
		if ops[i].Op != SetEnv {
			c.started = true
		}
		if !c.traits.RCCL && ops[i].IsRCCL() {
			c.traits.RCCL = true
		}
		if o := &ops[i]; o.IsAlloc() {
			c.bufs[o.Buf] = allocated{Buffer: o.placed(), line: c.line, rank: o.Rank}
		}
	}
	return nil
}

// finish checks what only the trace's end settles: flags never set, and
// the libraries' calls left open (messages never matched, collectives).
func (c *checker) finish(name string) error {
	if e := c.flags.unset(name); e != nil {
		return e
	}
	for _, l := range c.libs {
		if e := l.Finish(name); e != nil {
			return e
		}
	}
	return nil
}

// eventKey names an event of a rank: each process has its own events.
type eventKey struct {
	rank int
	name string
}

type checker struct {
	gcds, numa int
	nodes      nodeMap
	hbm, dram  memory               // allocated so far, per GCD and per NUMA domain
	bufs       map[string]allocated // allocated so far
	events     map[eventKey]bool    // recorded so far, per rank (a process's own)
	started    bool                 // an op other than setenv was seen
	flags      flags                // waited on and set so far
	libs       []Semantics          // the libraries' checks (MPI, RCCL)
	line       int                  // line of the op being checked
	rank       int                  // its rank
	fields     []string             // setFields' scratch, reused from op to op
	traits     Traits               // what the ops checked so far hold
}

// memory is what the allocations of a trace use of one kind of memory.
type memory struct {
	what, kind, key string        // "GCD", "HBM", the config key of the capacity
	capacity        int64         // bytes of each GCD or domain
	used            map[int]int64 // bytes allocated so far, by GCD or domain
}

// take books an allocation of bytes (> 0) on GCD or domain i.
func (m *memory) take(i int, bytes int64) *Error {
	free := m.capacity - m.used[i] // used <= capacity: no overflow
	if bytes > free {
		return errf("bytes", "%d bytes do not fit in %s %d's %s: %d of %d bytes (%s) free",
			bytes, m.what, i, m.kind, max(free, 0), m.capacity, m.key)
	}
	m.used[i] += bytes
	return nil
}

// allocated is a buffer seen by Check, the line that allocated it, the
// line that freed it (0 while it lives) and the line of the host_register
// that registered it (0 while it is not registered, register.go).
type allocated struct {
	Buffer
	line, freed, registered int
	rank                    int // the process that allocated it: the only one that may name it
}

func errf(field, format string, args ...any) *Error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (c *checker) op(o *Op) *Error {
	if o.Op == "" {
		return errf("op", "missing: every line needs an op kind")
	}
	allowed, ok := fieldsOf[o.Op]
	if !ok {
		return errf("op", "unknown op kind %q", o.Op)
	}
	c.fields = setFields(c.fields[:0], o)
	if e := unused(o.Op, allowed, c.fields); e != nil {
		return e
	}
	if o.Rank < 0 || o.Rank >= MaxRanks {
		return errf("rank", "must be in 0..%d, got %d", MaxRanks-1, o.Rank)
	}
	if e := c.flags.blocks(o, c.pageable(o.Src) || c.pageable(o.Dst)); e != nil {
		return e
	}
	if e := c.managed(o); e != nil {
		return e
	}

	switch o.Op {
	case Free:
		return c.free(o)
	case HostRegister, HostUnregister:
		return c.register(o)
	case Memset:
		return c.memset(o)
	case MemAdvise:
		return c.advise(o)
	}
	if o.IsMPI() || o.IsRCCL() {
		for _, l := range c.libs {
			if l.Owns(o) {
				return l.Check(o, &At{c})
			}
		}
		return nil
	}
	switch o.Op {
	case SetEnv:
		if c.started {
			return errf("op", "setenv must come before every other operation: the environment is set when the program starts")
		}
		if !strings.HasPrefix(o.Name, "HSA_") && !strings.HasPrefix(o.Name, "MPICH_") && !strings.HasPrefix(o.Name, "NCCL_") && !strings.HasPrefix(o.Name, "FI_CXI_") {
			return errf("name", "want a ROCm, Cray MPICH or RCCL variable such as HSA_ENABLE_SDMA, MPICH_GPU_IPC_THRESHOLD or NCCL_PROTO, got %q", o.Name)
		}
		if o.Value == "" && !strings.HasPrefix(o.Name, "NCCL_") { // NCCL_PROTO="" is RCCL's default
			return errf("value", "required by setenv")
		}
		return nil
	case Prefetch: // checked by c.managed
	case Malloc, HostMalloc, MallocPageable, MallocManaged:
		if o.Buf == "" {
			return errf("buf", "required by %s", o.Op)
		}
		if b, dup := c.bufs[o.Buf]; dup {
			return errf("buf", "buffer %q already defined on line %d", o.Buf, b.line)
		}
		if o.Op == Malloc {
			if e := InRange("gcd", o.GCD, c.gcds, "GCD", o.Op); e != nil {
				return e
			}
		} else {
			if e := InRange("numa", o.NUMA, c.numa, "NUMA domain", o.Op); e != nil {
				return e
			}
		}
		if o.Bytes <= 0 {
			return errf("bytes", "must be > 0, got %d", o.Bytes)
		}
		if o.Op == Malloc {
			return c.hbm.take(*o.GCD, o.Bytes)
		}
		return c.dram.take(*o.NUMA, o.Bytes)

	case Memcpy, MemcpyAsync, MemcpyPeer, MemcpyPeerAsy:
		src, e := c.buffer("src", o.Src, o.Op)
		if e != nil {
			return e
		}
		dst, e := c.buffer("dst", o.Dst, o.Op)
		if e != nil {
			return e
		}
		if o.IsPeer() {
			for _, b := range []struct {
				field string
				buf   Buffer
			}{{"src", src}, {"dst", dst}} {
				if b.buf.Host {
					return errf(b.field, "%s needs device buffers, but %q is a host buffer", o.Op, b.buf.Name)
				}
			}
		}
		if src.Host && dst.Host {
			return errf("dst", "host-to-host copies are not modelled (%q and %q are host buffers)", o.Src, o.Dst)
		}
		if e := c.nodes.same("dst", src, dst); e != nil {
			return e
		}
		if o.Bytes <= 0 {
			return errf("bytes", "must be > 0, got %d", o.Bytes)
		}
		if e := Fits("src_offset", "bytes", "copy", o.SrcOff, o.Bytes, src); e != nil {
			return e
		}
		if e := Fits("dst_offset", "bytes", "copy", o.DstOff, o.Bytes, dst); e != nil {
			return e
		}
		if e := CheckStream(o); e != nil {
			return e
		}

	case EventRecord:
		if e := CheckStream(o); e != nil {
			return e
		}
		if o.Event == "" {
			return errf("event", "required by %s", o.Op)
		}
		c.events[eventKey{o.Rank, o.Event}] = true

	case EventSync, StreamWait:
		if e := CheckStream(o); e != nil { // stream_wait only: event_sync has none
			return e
		}
		if o.Event == "" {
			return errf("event", "required by %s", o.Op)
		}
		if !c.events[eventKey{o.Rank, o.Event}] {
			if o.Rank > 0 {
				return errf("event", "event %q not recorded by rank %d on an earlier line (events belong to their rank)", o.Event, o.Rank)
			}
			return errf("event", "event %q not recorded on an earlier line", o.Event)
		}

	case StreamSync:
		if e := CheckStream(o); e != nil {
			return e
		}

	case HostAccess:
		if e := InRange("numa", o.NUMA, c.numa, "NUMA domain", o.Op); e != nil {
			return e
		}
		if o.Threads < 0 || o.Threads > MaxThreads {
			return errf("threads", "must be in 1..%d, got %d", MaxThreads, o.Threads)
		}
		if e := c.accesses(o); e != nil {
			return e
		}
		if o.NUMA != nil {
			if e := c.nodes.reach(o, c.bufs, c.nodes.numaNode(*o.NUMA), "the host threads run on NUMA domain %d", *o.NUMA); e != nil {
				return e
			}
		}
	case Kernel:
		if o.Name == "" {
			return errf("name", "required by %s", o.Op)
		}
		if e := InRange("gcd", o.GCD, c.gcds, "GCD", o.Op); e != nil {
			return e
		}
		if o.Grid <= 0 {
			return errf("grid", "must be > 0, got %d", o.Grid)
		}
		if o.Workgroup < 1 || o.Workgroup > MaxWorkgroup {
			return errf("workgroup", "must be in 1..%d, got %d", MaxWorkgroup, o.Workgroup)
		}
		if o.Grid%int64(o.Workgroup) != 0 {
			return errf("grid", "must be a multiple of workgroup %d, got %d", o.Workgroup, o.Grid)
		}
		if wgs := o.Grid / int64(o.Workgroup); wgs > MaxWorkgroups {
			return errf("grid", "%d workgroups of %d, more than %d (2^32)", wgs, o.Workgroup, int64(MaxWorkgroups))
		}
		if e := computeNs(o.ComputeNs, "one second per workgroup"); e != nil {
			return e
		}
		if o.InFlight != 0 && o.InFlight < MinInFlight {
			return errf("in_flight", "must be at least %d (a wavefront's 16-byte loads), got %d", MinInFlight, o.InFlight)
		}
		if o.DurationNs != 0 {
			switch {
			case math.IsNaN(o.DurationNs) || o.DurationNs < 0 || o.DurationNs > MaxDurationNs:
				return errf("duration_ns", "must be in 0..%g (an hour), got %v", float64(MaxDurationNs), o.DurationNs)
			case len(o.Access) > 0 || o.ComputeNs != 0:
				return errf("duration_ns", "a kernel held at its recorded time has no access or compute_ns beside it")
			}
		}
		if (o.WaitFlag == "" && o.DurationNs == 0) || len(o.Access) > 0 { // a delay kernel touches only its flag
			if e := c.accesses(o); e != nil {
				return e
			}
		}
		if e := c.nodes.reach(o, c.bufs, c.nodes.gcdNode(*o.GCD), "the kernel runs on GCD %d", *o.GCD); e != nil {
			return e
		}
		for i := range o.Access {
			if c.pageable(o.Access[i].Buf) {
				return errf(fmt.Sprintf("access[%d].buf", i), "%q is pageable (malloc_pageable) memory, which a kernel cannot reach in place: copy it to the GCD, register it (host_register) or allocate it with host_malloc", o.Access[i].Buf)
			}
		}
		if e := CheckStream(o); e != nil {
			return e
		}
		if o.WaitFlag != "" {
			if e := c.flags.wait(o.WaitFlag, c.line, o.Rank); e != nil {
				return e
			}
		}
		if o.SetFlag != "" {
			return c.flags.kernelSet(o, c.line)
		}
	case FlagSet:
		return c.flags.setFlag(o, c.line)
	case FlagWait:
		return c.flags.flagWait(o)
	case HostCompute:
		return computeNs(o.ComputeNs, "one second")
	}
	return nil
}

// accesses checks an op's access list: at least one entry, each valid.
func (c *checker) accesses(o *Op) *Error {
	if len(o.Access) == 0 {
		return errf("access", "must have at least one entry")
	}
	for i := range o.Access {
		// the entry's prefix is made only for an error: most accesses pass
		if e := c.access(&o.Access[i]); e != nil {
			e.Field = fmt.Sprintf("access[%d].", i) + e.Field
			return e
		}
		if p := o.Access[i].Passes; p != 0 && o.Op != Kernel {
			return errf(fmt.Sprintf("access[%d].passes", i), "not used by %s: host threads go over their bytes once", o.Op)
		}
		if w := o.Access[i].Workgroups; w != nil && o.Workgroup > 0 {
			n := o.Grid / int64(o.Workgroup)
			if len(w) != 2 || w[0] < 0 || w[0] >= w[1] || w[1] > n {
				return errf(fmt.Sprintf("access[%d].workgroups", i), "must be [first, end) with 0 <= first < end <= the kernel's %d workgroups, got %v", n, w)
			}
		}
	}
	return nil
}

// access checks one entry of a kernel's access list; its errors name the
// entry's own fields ("bytes"), which accesses prefixes ("access[I]."). Host
// buffers (zero-copy) and buffers on other GCDs (peer access) are allowed.
func (c *checker) access(a *Access) *Error {
	b, e := c.buffer("buf", a.Buf, Kernel)
	if e != nil {
		return e
	}
	if a.Mode != "read" && a.Mode != "write" {
		return errf("mode", `must be "read" or "write", got %q`, a.Mode)
	}
	if a.Bytes <= 0 {
		return errf("bytes", "must be > 0, got %d", a.Bytes)
	}
	if e := Fits("offset", "bytes", "access", a.Offset, a.Bytes, b); e != nil {
		return e
	}
	if a.Element < 0 {
		return errf("element", "must be > 0, got %d", a.Element)
	}
	if a.Passes < 0 {
		return errf("passes", "must be >= 1, got %d", a.Passes)
	}
	if a.Passes > MaxPassBytes/a.Bytes {
		return errf("passes", "bytes x passes must be at most %d (a PiB), got %d x %d", int64(MaxPassBytes), a.Bytes, a.Passes)
	}
	if a.Element > a.Bytes {
		return errf("element", "must be at most bytes (%d): an access moves whole elements, got %d", a.Bytes, a.Element)
	}
	switch a.Pattern {
	case "", "sequential", "random":
		if a.Stride != 0 {
			return errf("stride", "not used by pattern %q", patternName(a.Pattern))
		}
	case "strided":
		if a.Stride == 0 {
			return errf("stride", `required by pattern "strided"`)
		}
		if a.Stride < 0 {
			return errf("stride", "must be > 0, got %d", a.Stride)
		}
	default:
		return errf("pattern", `must be "sequential", "strided" or "random", got %q`, a.Pattern)
	}
	return nil
}

// computeNs checks a compute_ns: finite, 0..MaxComputeNs (what it bounds).
func computeNs(v float64, what string) *Error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return errf("compute_ns", "must be a finite number, got %v", v)
	}
	if v < 0 || v > MaxComputeNs {
		return errf("compute_ns", "must be in 0..%g (%s), got %g", float64(MaxComputeNs), what, v)
	}
	return nil
}

// patternName is how errors name an access pattern: "" is "sequential".
func patternName(p string) string {
	if p == "" {
		return "sequential"
	}
	return p
}

// unused refuses the first of fields (JSON names) that kind k does not
// use; allowed is fieldsOf[k]. "op", "label" and "rank" go with every kind.
func unused(k Kind, allowed, fields []string) *Error {
	for _, f := range fields {
		if f != "op" && f != "label" && f != "rank" && !contains(allowed, f) {
			return errf(f, "not used by %s", k)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// InRange checks field, required by k, holds an id of one of n things
// (what: "GCD").
func InRange(field string, v *int, n int, what string, k Kind) *Error {
	switch {
	case v == nil:
		return errf(field, "required by %s", k)
	case n <= 0:
		return errf(field, "%d given, but the node has no %ss", *v, what)
	case *v < 0 || *v >= n:
		return errf(field, "must be in 0..%d, got %d", n-1, *v)
	}
	return nil
}

func (c *checker) buffer(field, name string, k Kind) (Buffer, *Error) {
	if name == "" {
		return Buffer{}, errf(field, "required by %s", k)
	}
	b, ok := c.bufs[name]
	if !ok {
		return Buffer{}, errf(field, "unknown buffer %q", name)
	}
	if b.freed > 0 {
		return Buffer{}, errf(field, "buffer %q was freed on line %d", name, b.freed)
	}
	if b.rank != c.rank { // ranks run side by side: another's buffer may not exist yet, and is its own
		return Buffer{}, errf(field, "buffer %q belongs to rank %d (allocated on line %d): a rank reaches another's memory only through MPI", name, b.rank, b.line)
	}
	return b.Buffer, nil
}

// Fits checks that bytes starting at off lie inside b; bytes is > 0. An
// overrun is reported on bytesField if off is 0 and on offField otherwise;
// what ("copy", "access") names the operation in the message.
func Fits(offField, bytesField, what string, off, bytes int64, b Buffer) *Error {
	if off < 0 {
		return errf(offField, "must be >= 0, got %d", off)
	}
	if bytes > b.Bytes || off > b.Bytes-bytes {
		field := offField
		if off == 0 {
			field = bytesField
		}
		return errf(field, "%s of %d bytes at offset %d exceeds buffer %q of %d bytes", what, bytes, off, b.Name, b.Bytes)
	}
	return nil
}

// CheckStream checks the op's stream: in 0..MaxStream.
func CheckStream(o *Op) *Error {
	if o.Stream < 0 || o.Stream > MaxStream {
		return errf("stream", "must be in 0..%d, got %d", MaxStream, o.Stream)
	}
	return nil
}
