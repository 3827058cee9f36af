package workloads

import (
	"slices"
	"strconv"

	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/trace"
)

// MPI_Pack on device memory through yaksa's HIP backend
// (MPICH_ENABLE_YAKSA=1; docs/references.md [yaksa], [mpich]), as MPICH
// 4.x's typerep calls it
// (typerep_yaksa_pack.c: MPICH queries both pointers unless the buffer
// is MPI_BOTTOM, then a blocking yaksa_pack) and yaksa v0.2-v0.3 runs it
// (pmodels/yaksa; the 2022-2025 releases, when Cray MPICH 8.1.29 was
// built):
//
//   - a type the backend has no kernel for is split by the frontend
//     (yaksi_ipack_backend.c pack_backend): a subarray into its primary
//     type, resized(hvector per axis (contig of x)), and a type nested
//     deeper than the generated kernels (genpup.py --pup-max-nesting,
//     default 3 in v0.2-v0.3) into its children, an hvector into one call
//     per element of its outer axis;
//   - each piece (yaksuri_hipi_pup.c ipack): an average run of at least
//     16 KiB is one hipMemcpyAsync per run, else one pack kernel of
//     ceil(elements/256) blocks of 256 threads reading the type's metadata
//     (yaksuri_hipi_md_s, 48 bytes per node of the type tree, each node
//     hipMallocManaged on the piece's first use, yaksuri_hipi_md.c);
//   - around each kernel launch the backend switches to the buffer's
//     device and back (hipGetDevice, hipSetDevice twice), HIP calls of
//     runtime.api_call_ns each, as the pointer queries;
//   - a blocking request waits for each piece at once
//     (yaksuri_progress.c singlechunk_pack: hipStreamSynchronize of
//     yaksa's own stream);
//   - yaksa asks for both pointers' attributes (hipPointerGetAttributes):
//     with MPI_BOTTOM (hindexed over absolute addresses) at every call on
//     the way (yaksur_pup.c always_query_ptr_attr), else once, since
//     MPICH passes the attributes it found for CUDA and ZE only.
//
// A halo segment's subarray is resized to the whole padded box, so yaksa
// never sees it as contiguous (yaksa_subarray.c): even a single run goes
// the copy or kernel way.

// yaksaNesting is the deepest type yaksa's generated kernels handle:
// genpup.py's --pup-max-nesting default in yaksa v0.2-v0.3 (3; v0.4 of
// 2025-10 lowered it to 2), matched by YAKSI_ENV_DEFAULT_NESTING_LEVEL.
const yaksaNesting = 3

// yaksaIOVRun is YAKSURI_HIPI_INFO__DEFAULT_IOV_PUP_THRESHOLD: an average
// run this long or longer is copied run by run.
const yaksaIOVRun = 16384

// yaksaMDNode is sizeof(yaksuri_hipi_md_s) on LP64: a union of at most
// four 8-byte fields, extent and num_elements.
const yaksaMDNode = 48

// yaksaStream is the HIP stream yaksa creates per device (non-blocking,
// yaksuri_hip_init_hooks.c); it is not the null stream acm's kernels use.
const yaksaStream = 1

// yaksaPiece is one part of a subarray yaksa packs with one kernel (or
// one copy per run) and the depth of that part's type.
type yaksaPiece struct {
	seg    halo.Segment
	levels int // derived levels of the piece's type: resized, hvectors, contig
}

// yaksaSplit is how yaksa packs the subarray of seg: its pieces, in pack
// order, and the yaksur_ipack calls made on the way (each asks for the
// pointers' attributes when the buffer is MPI_BOTTOM). Axes of extent 1
// add no level (yaksa turns an hvector or contig of one into its child).
func yaksaSplit(seg halo.Segment) (pieces []yaksaPiece, calls int) {
	levels := 1 // resized
	for _, d := range seg.Dims {
		if d > 1 {
			levels++
		}
	}
	calls = 1 // the subarray type itself: no kernel kind, always split
	var split func(s halo.Segment, levels int, resized bool)
	split = func(s halo.Segment, levels int, resized bool) {
		calls++
		switch {
		case levels <= yaksaNesting:
			pieces = append(pieces, yaksaPiece{s, levels})
		case resized:
			split(s, levels-1, false)
		default: // the outermost hvector: one call per element of its axis
			i := len(s.Dims) - 1
			for s.Dims[i] == 1 {
				i--
			}
			for k := range s.Dims[i] {
				sub := halo.Segment{Dims: slices.Clone(s.Dims), Offset: slices.Clone(s.Offset)}
				sub.Dims[i], sub.Offset[i] = 1, s.Offset[i]+k
				split(sub, levels-1, false)
			}
		}
	}
	split(seg, levels, true)
	return pieces, calls
}

// yaksaCall is one yaksa pack (or unpack) of field f's segment seg into
// (out of) buffer buf at byte offset at. md names the type's metadata,
// allocated when first is set (the type's first use); bottom says the
// buffer is MPI_BOTTOM.
type yaksaCall struct {
	f                     int
	seg                   halo.Segment
	buf                   string
	at                    int64
	md                    string
	first, bottom, unpack bool
	staged                bool // a pack whose wait is the staging's events (yaksaStage.out), not a stream sync
}

// yaksa appends the yaksa part of one MPI_Pack (or of the pack or unpack of
// a datatype message, halo_exchange.go): per piece, a copy per run or a
// kernel, then a wait. An unpack is the pack's mirror (yaksuri_hipi_pup.c
// iunpack): contiguous reads of buf, the segment's runs written.
func (h Halo) yaksa(ops []trace.Op, c yaksaCall, mm []int) []trace.Op {
	pieces, calls := yaksaSplit(c.seg)
	// yaksa asks for both pointers' attributes (yaksuri_hipi_get_ptr_attr):
	// at MPI_BOTTOM at every call on the way, else at the request's first
	// call, as MPICH hands a buffer's attributes on to yaksa for CUDA and
	// ZE only (MPII_yaksa_get_info, MPICH 4.0 to 4.3)
	queries := 2
	if c.bottom {
		queries *= calls
	}
	ops = append(ops, trace.Op{Op: trace.HostCompute, ComputeNs: float64(queries) * h.QueryNs})
	mode, name := "read", "yaksa_pack"
	if c.unpack {
		mode, name = "write", "yaksa_unpack"
	}
	at, first := c.at, c.first
	for _, p := range pieces {
		field := h.segAccess(c.f, p.seg, mm, mode)
		if _, elems, _ := p.seg.Runs(mm); elems*haloElem >= yaksaIOVRun {
			for r, start := range runStarts(p.seg, mm) {
				cp := trace.Op{Op: trace.MemcpyAsync, Src: field.Buf, Dst: c.buf, Bytes: elems * haloElem,
					SrcOff: start * haloElem, DstOff: at + int64(r)*elems*haloElem, Stream: yaksaStream}
				if c.unpack {
					cp.Src, cp.Dst, cp.SrcOff, cp.DstOff = cp.Dst, cp.Src, cp.DstOff, cp.SrcOff
				}
				ops = append(ops, cp)
			}
		} else {
			packed := trace.Access{Buf: c.buf, Mode: "write", Offset: at, Bytes: field.Bytes}
			if c.unpack {
				packed.Mode = "read"
			}
			acc := make([]trace.Access, 2, 2+p.levels+1) // and the metadata's nodes
			acc[0], acc[1] = field, packed
			if c.unpack {
				acc[0], acc[1] = packed, field
			}
			k := h.kernel(name, roundUp(p.seg.Elems(), haloTPB), acc...)
			k.Stream = yaksaStream
			for n := range p.levels + 1 { // and the builtin type's node
				buf := c.md + "." + strconv.Itoa(n)
				if first {
					ops = append(ops, trace.Op{Op: trace.MallocManaged, Buf: buf, NUMA: intp(h.NUMA), Bytes: yaksaMDNode})
				}
				k.Access = append(k.Access, trace.Access{Buf: buf, Mode: "read", Bytes: yaksaMDNode})
			}
			first = false // the pieces of a split type share their child's metadata
			// hipGetDevice and hipSetDevice(target) before the launch,
			// hipSetDevice back after it (yaksuri_hipi_pup.c)
			ops = append(ops, trace.Op{Op: trace.HostCompute, ComputeNs: 2 * h.QueryNs}, k,
				trace.Op{Op: trace.HostCompute, ComputeNs: h.QueryNs})
		}
		if !c.staged || c.unpack {
			ops = append(ops, trace.Op{Op: trace.StreamSync, Stream: yaksaStream})
		}
		at += field.Bytes
	}
	return ops
}

// runStarts are the first elements of seg's contiguous runs in the padded
// box mm, in memory order.
func runStarts(seg halo.Segment, mm []int) []int64 {
	_, elems, _ := seg.Runs(mm)
	k, in := 0, int64(1) // the axes a run covers: 0..k-1
	for ; in < elems; k++ {
		in *= int64(seg.Dims[k])
	}
	starts := []int64{seg.Start(mm)}
	pitch := int64(1)
	for i := range mm {
		if i >= k {
			var next []int64
			for j := range int64(seg.Dims[i]) {
				for _, s := range starts {
					next = append(next, s+j*pitch)
				}
			}
			starts = next
		}
		pitch *= int64(mm[i])
	}
	return starts
}

// yaksaChunk is YAKSURI_TMPBUF_EL_SIZE (yaksuri.h): yaksa stages a message
// through host memory in chunks of this size, each its own copy and event.
const yaksaChunk = 1 << 20

// yaksaChunkPool is yaksa's pinned host pool: YAKSURI_TMPBUF_NUM_EL (16)
// chunks; a message's chunks take its elements in turn.
const yaksaChunkPool = 16 * yaksaChunk

// yaksaStage is how a datatype message on device memory reaches the
// library's host pack buffer, as upstream MPICH's OFI netmod sends one
// (ofi_send.h, ofi_recv.h: a non-contiguous buffer is packed into, or
// received into and unpacked from, an MPL_malloc buffer) and yaksa moves
// it there (yaksuri_progress.c pack_d2urh, unpack_urh2d): per chunk of
// yaksaChunk, a copy between yaksa's device and pinned bounce buffers on
// yaksa's stream and a CPU copy between the pinned and the host buffer.
type yaksaStage struct {
	dev, pinned, host, event string // the device staging buffer, yaksa's pinned chunk buffer, MPICH's buffer, the chunks' events
	bytes                    int64
	numa                     int // the host thread's domain
}

// yaksaChunks are the byte sizes of s's chunks.
func (s yaksaStage) chunks() []int64 {
	var c []int64
	for at := int64(0); at < s.bytes; at += yaksaChunk {
		c = append(c, min(yaksaChunk, s.bytes-at))
	}
	return c
}

// out appends the pack's way out after its kernel (pack_d2urh): per chunk
// a device-to-pinned copy and an event (event_record: hipGetDevice,
// hipEventCreate, hipEventRecord); then the wait polls each event
// (hipEventQuery, then hipEventDestroy) and copies the chunk on the CPU.
func (s yaksaStage) out(ops []trace.Op, queryNs float64) []trace.Op {
	cs := s.chunks()
	var at int64
	for i, n := range cs {
		ops = append(ops, trace.Op{Op: trace.MemcpyAsync, Src: s.dev, Dst: s.pinned, Bytes: n, SrcOff: at, DstOff: at % yaksaChunkPool, Stream: yaksaStream},
			trace.Op{Op: trace.HostCompute, ComputeNs: 2 * queryNs},
			trace.Op{Op: trace.EventRecord, Event: s.event + "." + strconv.Itoa(i), Stream: yaksaStream})
		at += n
	}
	at = 0
	for i, n := range cs {
		ops = append(ops, trace.Op{Op: trace.EventSync, Event: s.event + "." + strconv.Itoa(i)},
			trace.Op{Op: trace.HostCompute, ComputeNs: queryNs},
			s.cpuCopy(s.pinned, at%yaksaChunkPool, s.host, at, n))
		at += n
	}
	return ops
}

// in appends the unpack's way in before its kernel (unpack_urh2d): per
// chunk a CPU copy from the host buffer to the pinned one and a
// pinned-to-device copy on yaksa's stream, which the unpack kernel then
// follows in stream order.
func (s yaksaStage) in(ops []trace.Op) []trace.Op {
	var at int64
	for _, n := range s.chunks() {
		ops = append(ops, s.cpuCopy(s.host, at, s.pinned, at%yaksaChunkPool, n),
			trace.Op{Op: trace.MemcpyAsync, Src: s.pinned, Dst: s.dev, Bytes: n, SrcOff: at % yaksaChunkPool, DstOff: at, Stream: yaksaStream})
		at += n
	}
	return ops
}

// cpuCopy is one memcpy of n bytes by the host thread (yaksuri_seq_ipack
// of bytes).
func (s yaksaStage) cpuCopy(src string, srcOff int64, dst string, dstOff, n int64) trace.Op {
	return trace.Op{Op: trace.HostAccess, NUMA: intp(s.numa), Threads: 1, Access: []trace.Access{
		{Buf: src, Mode: "read", Offset: srcOff, Bytes: n}, {Buf: dst, Mode: "write", Offset: dstOff, Bytes: n}}}
}
