package workloads

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// Halo replicates the acm benchmarks of seed 001 (docs/references.md [seed-001], [acm];
// ToxPuro/astaroth acc-comm at 905d7c96). Bench "pack" is
// benchmarks/bm_pack.cc: one rank on one GCD packs the 3^D - 1 halo
// segments of F fields of doubles (device memory, local box Dims + 2
// Radius per axis) into device buffers, per label:
//
//   - mpi-pack: MPI_Pack of a subarray type, per segment and field;
//   - mpi-pack-indexed: MPI_Pack of one hindexed_block type over the F
//     fields (MPI_BOTTOM), per segment;
//   - acm-pack: a pack kernel per segment and field;
//   - acm-pack-packed: a pack kernel per segment, all fields;
//   - acm-pack-batched: one kernel, a 2-D grid of segments x elements.
//
// Every acm kernel launch is followed by hipDeviceSynchronize, as acm does.
// MPI_Pack on device memory is Cray MPICH's yaksa engine when Yaksa is set
// (MPICH_ENABLE_YAKSA=1, halo_yaksa.go: a pack kernel per call, or per
// piece of a deeply nested type, and a wait for it), else its dataloop
// engine: the calling CPU thread walks the type and copies each contiguous
// run with a CPU memcpy through the host mapping of the GCD's memory,
// blocked until done; a host_access (components/cpu: uncached loads of GPU
// memory, write-combined stores) plus the call's pointer queries. Per
// sample, as bm::benchmark: randomize the fields (a kernel per field),
// sync, start the clock, sync, pack, sync, stop (sync =
// hipDeviceSynchronize + MPI_Barrier, which one rank passes at once).
type Halo struct {
	Bench      string   // "pack"
	Dims       []int    // the local grid per axis, x first (its length is D)
	Radius     int      // halo radius
	Fields     []int    // field counts: one row per label and count
	Strategies []string // acm labels (HaloPackLabels)
	GCD        int      // the rank's GCD
	NUMA       int      // the NUMA domain of the rank's cores (its GCD's)
	// QueryNs is the host time of one pointer-attribute query (Cray's GTL
	// asks whether each buffer of an MPI call is GPU memory): a HIP
	// runtime call, runtime.api_call_ns.
	QueryNs float64
	// Yaksa is MPICH_ENABLE_YAKSA=1: MPI_Pack on device memory runs yaksa's
	// GPU pack kernels instead of the CPU's dataloop walk.
	Yaksa   bool
	Warmup  int // samples simulated and dropped (acm drops 5)
	Samples int // samples whose median is reported (acm keeps 95)

	// Bench "exchange" (halo_exchange.go): Dims is the global grid, cut
	// over Procs ranks by each of Decomps (Levels: the hierarchical
	// one's topology, fine to coarse); rank r runs on the GCD its
	// decomposition's placement gives, its cores on that GCD's NUMA
	// domain (GCDNUMA, by global GCD id). PostNs is the host time of
	// posting a request (mpi.post_ns), which acm's 0-byte messages to
	// itself cost.
	Procs       int
	Decomps     []string
	Levels      []int
	GCDNUMA     []int
	GCDsPerNode int
	PostNs      float64

	prefix string // of the rank's buffer names ("" for the one rank of pack)
}

// HaloBenchmarks are the benchmarks Halo replicates.
var HaloBenchmarks = []string{"pack", "exchange"}

// HaloPackLabels are bm_pack.cc's labels in its order.
var HaloPackLabels = []string{"mpi-pack", "mpi-pack-indexed", "acm-pack", "acm-pack-packed", "acm-pack-batched"}

// haloPackFields are the field counts acm's fused kernels are compiled
// for (pack.cu:85-102, pack_batched.cu); the other labels take any.
var haloPackFields = map[string][]int{
	"acm-pack-packed":  {1, 2, 3, 4, 8, 12, 16},
	"acm-pack-batched": {1, 2, 4, 8, 12, 16},
}

// HaloMaxFields bounds -fields for the labels that take any count.
const HaloMaxFields = 64

// haloMaxPoints bounds a padded field's points (2^40 doubles, far beyond
// a GCD's HBM, which the trace check then reports) so sizes stay in int64.
const haloMaxPoints = 1 << 40

// haloElem is the bytes of acm's element type, double.
const haloElem = 8

// haloTPB is acm's threads per block for every pack kernel.
const haloTPB = 256

// Runs lists one run per label and field count (and, for exchange, per
// decomposition).
func (h Halo) Runs() ([]job.Run, error) {
	if !slices.Contains(HaloBenchmarks, h.Bench) {
		return nil, fmt.Errorf("-bench: unknown halo benchmark %q (want %s)", h.Bench, strings.Join(HaloBenchmarks, ", "))
	}
	if len(h.Strategies) == 0 || len(h.Fields) == 0 {
		return nil, fmt.Errorf("-strategy and -fields: want at least one label and one field count")
	}
	if h.Samples < 1 || h.Warmup < 0 {
		return nil, fmt.Errorf("halo: want at least one sample, got %d (warm-up %d)", h.Samples, h.Warmup)
	}
	if h.Bench == "exchange" {
		return h.exchangeRuns()
	}
	if err := halo.CheckSegmentBox(h.Dims, h.Radius); err != nil {
		return nil, fmt.Errorf("-dims %s -radius %d: %v", haloDims(h.Dims, ","), h.Radius, err)
	}
	if err := checkPadded(h.Dims, h.Radius); err != nil {
		return nil, err
	}
	if err := checkLabels(h.Bench, h.Strategies, h.Fields, HaloPackLabels, haloPackFields); err != nil {
		return nil, err
	}
	var runs []job.Run
	for _, l := range h.Strategies {
		for _, f := range h.Fields {
			runs = append(runs, h.packRun(l, f))
		}
	}
	return runs, nil
}

// checkPadded bounds the padded box of the local box nn.
func checkPadded(nn []int, r int) error {
	points := int64(1)
	for _, m := range halo.PaddedBox(nn, r) {
		if points *= int64(m); points > haloMaxPoints {
			return fmt.Errorf("-dims %s: the padded box has more than 2^40 points", haloDims(nn, ","))
		}
	}
	return nil
}

// checkLabels checks -strategy against the bench's labels and -fields
// against the counts the fused kernels are built for.
func checkLabels(bench string, labels []string, fields []int, known []string, built map[string][]int) error {
	for _, l := range labels {
		if !slices.Contains(known, l) {
			return fmt.Errorf("-strategy: unknown %s label %q (want %s)", bench, l, strings.Join(known, ", "))
		}
		for _, f := range fields {
			allowed, fixed := built[l]
			switch {
			case f < 1 || f > HaloMaxFields:
				return fmt.Errorf("-fields: want 1..%d fields, got %d", HaloMaxFields, f)
			case fixed && !slices.Contains(allowed, f):
				return fmt.Errorf("-fields: %s is built for %s fields, not %d", l, haloInts(allowed), f)
			}
		}
	}
	return nil
}

// haloDims joins a grid's axes, x first.
func haloDims(d []int, sep string) string {
	s := make([]string, len(d))
	for i, v := range d {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, sep)
}

func haloInts(v []int) string { return haloDims(v, ", ") }

// HaloCase is a row's case: the label and its arguments, as Google
// Benchmark names them (acm-pack-batched/256x256x256/nf:4/r:4).
func HaloCase(label string, dims []int, fields, radius int) string {
	return fmt.Sprintf("%s/%s/nf:%d/r:%d", label, haloDims(dims, "x"), fields, radius)
}

// Labels of the host clock readings (timer.reset, timer.lap).
const haloStart, haloStop = "halo.t_start", "halo.t_end"

// packRun is bm_pack.cc's benchmark of one label with nf fields.
func (h Halo) packRun(label string, nf int) job.Run {
	mm := halo.PaddedBox(h.Dims, h.Radius)
	segs := halo.Segments(h.Dims, h.Radius)
	field := halo.Segment{Dims: mm}.Elems() * haloElem
	var ops []trace.Op
	// acm allocates inputs, outputs and references (bm_pack.cc:419-424)
	for f := range nf {
		for _, b := range []string{"in", "out", "ref"} {
			ops = append(ops, alloc(fmt.Sprintf("%s%d", b, f), h.GCD, field))
		}
	}
	perField := label == "mpi-pack" || label == "acm-pack" // a pack buffer per segment and field
	for s, seg := range segs {
		if perField {
			for f := range nf {
				ops = append(ops, alloc(packBuf(s, f), h.GCD, seg.Elems()*haloElem))
			}
		} else {
			ops = append(ops, alloc(packBuf(s, -1), h.GCD, int64(nf)*seg.Elems()*haloElem))
		}
	}
	sync := trace.Op{Op: trace.DeviceSync} // MPI_Barrier of one rank returns at once
	for i := range h.Warmup + h.Samples {
		// init(), acm's randomize kernel per field, is left out: in the GCD
		// model a kernel that only writes ends before HBM has taken its
		// writes (147 MB in 30 us at 256^3), and their write-back would run
		// into the timed pack (docs/model/halo.md, "Halo packing")
		ops = append(ops, sync, trace.Op{Op: trace.HostCompute, Label: fmt.Sprintf("%s.%d", haloStart, i)}, sync)
		ops = append(ops, h.pack(label, nf, mm, segs, i == 0)...)
		ops = append(ops, sync, trace.Op{Op: trace.HostCompute, Label: fmt.Sprintf("%s.%d", haloStop, i)})
	}
	name := HaloCase(label, h.Dims, nf, h.Radius)
	var points int64 // halo points per field
	for _, seg := range segs {
		points += seg.Elems()
	}
	return job.Run{Name: name, Ops: ops, Rows: func(r *job.Replay) []report.Row {
		at := map[string]float64{}
		for _, res := range r.Ops {
			if strings.HasPrefix(res.Op.Label, "halo.t_") {
				at[res.Op.Label] = float64(res.Issue)
			}
		}
		var us []float64
		for i := h.Warmup; i < h.Warmup+h.Samples; i++ {
			us = append(us, (at[fmt.Sprintf("%s.%d", haloStop, i)]-at[fmt.Sprintf("%s.%d", haloStart, i)])*1e6)
		}
		return []report.Row{{Workload: "halo", Case: name, Src: report.GCD(h.GCD), Dst: report.GCD(h.GCD),
			Bytes: int64(nf) * points * haloElem, Metric: "time", Value: Median(us), Unit: "us"}}
	}}
}

// pack is one timed bench() of a label: what its host thread calls; first
// is the first sample's (MPI types are built before it, used first in it).
func (h Halo) pack(label string, nf int, mm []int, segs []halo.Segment, first bool) []trace.Op {
	var ops []trace.Op
	sync := trace.Op{Op: trace.DeviceSync}
	switch {
	case label == "mpi-pack" && h.Yaksa: // MPICH asks for both pointers' attributes, then yaksa packs
		for s, seg := range segs {
			for f := range nf {
				ops = append(ops, trace.Op{Op: trace.HostCompute, ComputeNs: 2 * h.QueryNs})
				ops = h.yaksa(ops, yaksaCall{f: f, seg: seg, buf: packBuf(s, f), md: segBuf("md", s, f), first: first}, mm)
			}
		}
	case label == "mpi-pack-indexed" && h.Yaksa: // MPI_BOTTOM: yaksa asks, per piece; the F fields share one subarray type
		for s, seg := range segs {
			for f := range nf {
				ops = h.yaksa(ops, yaksaCall{f: f, seg: seg, buf: packBuf(s, -1), at: int64(f) * seg.Elems() * haloElem,
					md: segBuf("md", s, -1), first: first && f == 0, bottom: true}, mm)
			}
		}
	case label == "mpi-pack":
		for s, seg := range segs {
			for f := range nf {
				ops = h.mpiPack(ops, []trace.Access{h.segAccess(f, seg, mm, "read"), packWrite(s, f, seg, 1)})
			}
		}
	case label == "mpi-pack-indexed":
		for s, seg := range segs {
			var copies [][]trace.Access // the type's blocks, one field's subarray each, in order
			for f := range nf {
				w := packWrite(s, -1, seg, 1)
				w.Offset = int64(f) * w.Bytes
				copies = append(copies, []trace.Access{h.segAccess(f, seg, mm, "read"), w})
			}
			ops = h.mpiPack(ops, copies...)
		}
	case label == "acm-pack":
		for s, seg := range segs {
			for f := range nf {
				ops = append(ops, h.kernel("pack", roundUp(seg.Elems(), haloTPB), h.segAccess(f, seg, mm, "read"), packWrite(s, f, seg, 1)), sync)
			}
		}
	case label == "acm-pack-packed":
		for s, seg := range segs {
			var acc []trace.Access
			for f := range nf {
				acc = append(acc, h.segAccess(f, seg, mm, "read"))
			}
			ops = append(ops, h.kernel("pack", roundUp(seg.Elems(), haloTPB), append(acc, packWrite(s, -1, seg, nf))...), sync)
		}
	case label == "acm-pack-batched":
		// grid x sized by the largest segment, y by the segments: blocks
		// past a small segment's end exit at once (pack_batched.cu:49-87)
		groups := make([][]trace.Access, len(segs))
		elems := make([]int64, len(segs))
		for s, seg := range segs {
			elems[s] = seg.Elems()
			for f := range nf {
				groups[s] = append(groups[s], h.segAccess(f, seg, mm, "read"))
			}
			groups[s] = append(groups[s], packWrite(s, -1, seg, nf))
		}
		ops = append(ops, h.batchedKernel("pack_batched", elems, groups), sync)
	}
	return ops
}

// mpiPack appends one MPI_Pack on device memory to ops: the GTL's pointer queries of
// the input and output buffers, then the dataloop walk on the calling
// thread, one CPU copy per contiguous run, block after block of the type
// (each block a read of one field's runs and a write of the pack buffer):
// one thread's miss buffers serve one block at a time.
func (h Halo) mpiPack(ops []trace.Op, blocks ...[]trace.Access) []trace.Op {
	ops = append(ops, trace.Op{Op: trace.HostCompute, ComputeNs: 2 * h.QueryNs})
	for _, acc := range blocks {
		ops = append(ops, trace.Op{Op: trace.HostAccess, NUMA: intp(h.NUMA), Threads: 1, Access: acc})
	}
	return ops
}

// kernel is an acm kernel of grid work-items in blocks of 256 on the null
// stream: no compute time is given, the GCD's kernel model costs it.
func (h Halo) kernel(name string, grid int64, acc ...trace.Access) trace.Op {
	return trace.Op{Op: trace.Kernel, Name: name, GCD: intp(h.GCD), Grid: grid, Workgroup: haloTPB, Access: acc}
}

func roundUp(n, to int64) int64 { return (n + to - 1) / to * to }

// batchedKernel is acm's batched kernel over segments: a 2-D grid, x sized
// by the largest segment, y by the segments; row y's blocks touch only
// segment y's accesses (groups[y], elems[y] elements), and its blocks past
// the segment's end exit at once (pack_batched.cu:49-87).
func (h Halo) batchedKernel(name string, elems []int64, groups [][]trace.Access) trace.Op {
	per := roundUp(slices.Max(elems), haloTPB) / haloTPB
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	acc := make([]trace.Access, 0, n)
	for y, g := range groups {
		rows := []int64{int64(y) * per, int64(y)*per + roundUp(elems[y], haloTPB)/haloTPB} // read only: the group's accesses share it
		for _, a := range g {
			a.Workgroups = rows
			acc = append(acc, a)
		}
	}
	return h.kernel(name, per*haloTPB*int64(len(groups)), acc...)
}

// packBuf names segment s's pack buffer (of field f, or of all, f < 0).
func packBuf(s, f int) string { return segBuf("pack", s, f) }

// segBuf names what belongs to segment s (and field f, if f >= 0).
func segBuf(what string, s, f int) string { return segName("", what, s, f) }

// segName is prefix and segBuf's name, made in one concatenation: the
// exchange names every rank's buffers, requests and metadata this way,
// hundreds of thousands of names per run.
func segName(prefix, what string, s, f int) string {
	if f < 0 {
		return prefix + what + strconv.Itoa(s)
	}
	return prefix + what + strconv.Itoa(s) + "." + strconv.Itoa(f)
}

// fieldBuf names field f's buffer (the padded local box).
func (h Halo) fieldBuf(f int) string { return h.prefix + "in" + strconv.Itoa(f) }

// segAccess is the read or write (mode) of field f's segment: its
// contiguous runs (x fastest), one element of the access per run, a row
// (or plane) apart.
func (h Halo) segAccess(f int, seg halo.Segment, mm []int, mode string) trace.Access {
	a := trace.Access{Buf: h.fieldBuf(f), Mode: mode, Offset: seg.Start(mm) * haloElem, Bytes: seg.Elems() * haloElem}
	if runs, elems, pitch := seg.Runs(mm); runs > 1 {
		a.Pattern, a.Stride, a.Element = "strided", pitch*haloElem, elems*haloElem
	}
	return a
}

// packWrite is the contiguous write of nf fields of a segment into its
// pack buffer.
func packWrite(s, f int, seg halo.Segment, nf int) trace.Access {
	return trace.Access{Buf: packBuf(s, f), Mode: "write", Bytes: int64(nf) * seg.Elems() * haloElem}
}

// Median is the middle sample, or the mean of the two middle ones (as
// pandas' describe()['50%'], which acm's bm_plot.py reports).
func Median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
