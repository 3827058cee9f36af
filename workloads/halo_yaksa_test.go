package workloads

import (
	"fmt"
	"slices"
	"testing"

	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/trace"
)

// yaksa splits a type deeper than its kernels (3 levels) into pieces: a
// subarray into its primary, a resized into its child, an hvector into
// one piece per element of its outer axis; axes of extent 1 add no level.
func TestHaloYaksaSplit(t *testing.T) {
	for _, c := range []struct {
		dims          []int
		pieces, calls int
		levels        int
	}{
		{[]int{4}, 1, 2, 2},               // resized(contig)
		{[]int{4, 256}, 1, 2, 3},          // resized(hvector(contig))
		{[]int{4, 256, 256}, 1, 3, 3},     // its child hvector(hvector(contig))
		{[]int{256, 4, 1}, 1, 2, 3},       // the z axis of one plane adds nothing
		{[]int{1, 4, 4}, 1, 2, 3},         // nor a run of one element
		{[]int{4, 5, 6, 7}, 7, 10, 3},     // 7 pieces of hvector(hvector(contig))
		{[]int{2, 3, 4, 5, 6}, 30, 39, 3}, // 6 x 5 pieces
		{[]int{2, 3, 4, 1, 6}, 6, 9, 3},   // axis 3 of extent 1: 6 pieces
	} {
		seg := halo.Segment{Dims: c.dims, Offset: make([]int, len(c.dims))}
		pieces, calls := yaksaSplit(seg)
		if len(pieces) != c.pieces || calls != c.calls {
			t.Errorf("%v: %d pieces in %d calls, want %d in %d", c.dims, len(pieces), calls, c.pieces, c.calls)
			continue
		}
		var elems int64
		for i, p := range pieces {
			elems += p.seg.Elems()
			if p.levels != c.levels {
				t.Errorf("%v piece %d: %d levels, want %d", c.dims, i, p.levels, c.levels)
			}
			if i > 0 && slices.Compare(outerFirst(p.seg.Offset), outerFirst(pieces[i-1].seg.Offset)) <= 0 {
				t.Errorf("%v piece %d at %v after %v: want pack order", c.dims, i, p.seg.Offset, pieces[i-1].seg.Offset)
			}
		}
		if elems != seg.Elems() {
			t.Errorf("%v: pieces hold %d elements, want %d", c.dims, elems, seg.Elems())
		}
	}
}

// outerFirst is an offset with its outermost axis first, to compare
// positions in memory order.
func outerFirst(o []int) []int {
	r := slices.Clone(o)
	slices.Reverse(r)
	return r
}

// With MPICH_ENABLE_YAKSA=1 an MPI_Pack of a 3D segment is one yaksa
// kernel on yaksa's stream and a wait for it; its type's metadata (four
// 48-byte nodes: hvector, hvector, contig, double) is allocated managed on
// its first use and read by every kernel. mpi-pack-indexed packs the F
// fields' subarrays one after another, asking for the pointers' attributes
// at each of the 3 calls per field (MPI_BOTTOM).
func TestHaloYaksaOps(t *testing.T) {
	dims := []int{16, 12, 20}
	segs := halo.Segments(dims, 4)
	mm := halo.PaddedBox(dims, 4)
	const nf = 3
	h := haloPack(t, dims, HaloPackLabels, nf)
	h.Yaksa = true
	for _, c := range []struct {
		label          string
		calls, types   int
		queriesPerCall float64
	}{
		{"mpi-pack", 2 * 26 * nf, 26 * nf, 2}, // MPICH's queries, then yaksa's
		{"mpi-pack-indexed", 26 * nf, 26, 6},
	} {
		for _, first := range []bool{false, true} {
			ops := h.pack(c.label, nf, mm, segs, first)
			// the pointer queries per call, and the device switch before and after each kernel
			want := map[trace.Kind]int{trace.Kernel: 26 * nf, trace.StreamSync: 26 * nf, trace.HostCompute: c.calls + 2*26*nf, trace.HostAccess: 0, trace.MallocManaged: 0, trace.MemcpyAsync: 0}
			if first {
				want[trace.MallocManaged] = 4 * c.types
			}
			for k, n := range want {
				if got := count(ops, k); got != n {
					t.Errorf("%s first=%v: %d %s ops, want %d", c.label, first, got, k, n)
				}
			}
			for i, o := range ops {
				switch {
				case o.Op == trace.Kernel:
					if o.Stream != yaksaStream || ops[i+2].Op != trace.StreamSync || ops[i+2].Stream != yaksaStream {
						t.Errorf("%s: kernel %d on stream %d, then %+v: want yaksa's stream and a wait for it", c.label, i, o.Stream, ops[i+2])
					}
					if b, a := ops[i-1], ops[i+1]; b.Op != trace.HostCompute || b.ComputeNs != 2*h.QueryNs || a.Op != trace.HostCompute || a.ComputeNs != h.QueryNs {
						t.Errorf("%s: kernel %d between %+v and %+v: want hipGetDevice and hipSetDevice before, hipSetDevice after", c.label, i, b, a)
					}
				case o.Op == trace.HostCompute && ops[i+1].Op != trace.Kernel && (i == 0 || ops[i-1].Op != trace.Kernel):
					if o.ComputeNs != c.queriesPerCall*h.QueryNs {
						t.Errorf("%s: %.0f ns of pointer queries, want %.0f", c.label, o.ComputeNs, c.queriesPerCall*h.QueryNs)
					}
				}
			}
		}
	}
	// mpi-pack-indexed: field 1 of segment 4 (an x face) is the 5th kernel,
	// written after field 0's elements; its reads are the face's 32-byte
	// runs, then the metadata
	ops := h.pack("mpi-pack-indexed", nf, mm, segs, false)
	var kernels []trace.Op
	for _, o := range ops {
		if o.Op == trace.Kernel {
			kernels = append(kernels, o)
		}
	}
	k, seg := kernels[4*nf+1], segs[4]
	if k.Grid != roundUp(seg.Elems(), 256) || k.Workgroup != 256 {
		t.Errorf("x face kernel grid %d in %d, want %d in 256", k.Grid, k.Workgroup, roundUp(seg.Elems(), 256))
	}
	if len(k.Access) != 2+4 {
		t.Fatalf("x face kernel: accesses %+v, want a read, a write and 4 metadata nodes", k.Access)
	}
	if r := k.Access[0]; r.Buf != "in1" || r.Pattern != "strided" || r.Element != 32 || r.Bytes != seg.Elems()*8 {
		t.Errorf("x face read %+v: want field 1's 32-byte runs", r)
	}
	if w := k.Access[1]; w.Buf != "pack4" || w.Offset != seg.Elems()*8 || w.Bytes != seg.Elems()*8 {
		t.Errorf("x face write %+v: want pack4 after field 0", w)
	}
	for n, a := range k.Access[2:] {
		if a.Buf != fmt.Sprintf("md4.%d", n) || a.Mode != "read" || a.Bytes != 48 {
			t.Errorf("metadata access %+v", a)
		}
	}
}

// An average run of at least 16 KiB is one hipMemcpyAsync per run: the
// y faces of a 2048 x 16 grid (4 runs of 2048 doubles each), after
// yaksa's own queries of both pointers.
func TestHaloYaksaCopies(t *testing.T) {
	dims := []int{2048, 16}
	segs := halo.Segments(dims, 4)
	mm := halo.PaddedBox(dims, 4)
	h := haloPack(t, dims, []string{"mpi-pack"}, 1)
	h.Yaksa = true
	s := slices.IndexFunc(segs, func(s halo.Segment) bool { return s.Dims[0] == 2048 })
	ops := h.yaksa(nil, yaksaCall{seg: segs[s], buf: packBuf(s, 0), md: "md", first: true}, mm)
	if len(ops) != 6 || ops[0].Op != trace.HostCompute || ops[0].ComputeNs != 2*h.QueryNs || ops[5].Op != trace.StreamSync {
		t.Fatalf("y face: %d ops %+v, want yaksa's two pointer queries, 4 copies and a wait", len(ops), ops)
	}
	for r, o := range ops[1:5] {
		src := (int64(segs[s].Offset[1]+r)*int64(mm[0]) + 4) * 8
		if o.Op != trace.MemcpyAsync || o.Bytes != 2048*8 || o.SrcOff != src || o.DstOff != int64(r)*2048*8 || o.Stream != yaksaStream {
			t.Errorf("copy %d: %+v, want 16 KiB from %d", r, o, src)
		}
	}
	if err := job.Check(frontier(t), must(h.Runs())); err != nil {
		t.Errorf("trace check: %v", err)
	}
}

// runStarts lists a segment's runs as a walk over its elements does.
func TestRunStarts(t *testing.T) {
	mm := []int{10, 9, 8}
	for _, seg := range []halo.Segment{
		{Dims: []int{3, 4, 2}, Offset: []int{1, 2, 5}},
		{Dims: []int{1, 4, 2}, Offset: []int{9, 0, 0}},
		{Dims: []int{10, 1, 3}, Offset: []int{0, 4, 2}},
	} {
		var want []int64
		for z := range seg.Dims[2] {
			for y := range seg.Dims[1] {
				for x := range seg.Dims[0] {
					idx := int64(((seg.Offset[2]+z)*mm[1]+seg.Offset[1]+y)*mm[0] + seg.Offset[0] + x)
					if x == 0 && (seg.Dims[0] < mm[0] || y == 0) {
						want = append(want, idx)
					}
				}
			}
		}
		if got := runStarts(seg, mm); !slices.Equal(got, want) {
			t.Errorf("%+v: run starts %v, want %v", seg, got, want)
		}
	}
}

// The two engines are both selectable and differ: the dataloop's CPU
// copies against yaksa's kernels, at 2D 256^2.
func TestHaloPackEngines(t *testing.T) {
	dims := []int{256, 256}
	h := haloPack(t, dims, []string{"mpi-pack"}, 1)
	h.Yaksa = false
	dataloop := haloTimes(t, h)[HaloCase("mpi-pack", dims, 1, 4)]
	h.Yaksa = true
	yaksa := haloTimes(t, h)[HaloCase("mpi-pack", dims, 1, 4)]
	t.Logf("2D mpi-pack: dataloop %.1f us, yaksa %.1f us", dataloop, yaksa)
	if d := dataloop - yaksa; d < 0.01*yaksa && d > -0.01*yaksa {
		t.Errorf("dataloop %.1f us and yaksa %.1f us agree within 1%%", dataloop, yaksa)
	}
}
