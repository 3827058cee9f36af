package workloads

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// Stream replicates the seed paper's STREAM (HIP, doubles, workgroup 128):
// Copy c=a, Scale b=q*c, Add c=a+b, Triad a=b+q*c, each kernel timed with
// events around it, run Iterations times and the best time reported, as
// STREAM does. With several GCDs (the E3 host variant) one kernel per GCD
// is launched back to back and all are synchronised; bandwidth then counts
// every GCD's bytes over the common time.
type Stream struct {
	GCDs       []int   // executing GCDs
	Alloc      string  // "local", "host" or a GCD id: where the arrays live; "SRC:DST" puts a on SRC and b, c on DST
	Sizes      []int64 // array sizes in bytes
	Kernels    []string
	Iterations int
	Workgroup  int
	NUMA       []int // NUMA domain of each GCD (for host arrays: nearest domain)
	// Passes has each kernel go over its arrays this many times (0: once),
	// one work-item per element per pass, as gpu-l2-stream's index modulo
	// the length does: the later passes find arrays that fit in the caches.
	Passes int64
	// InFlight is the bytes each CU keeps in flight for a kernel (trace
	// in_flight; 0: the CU's own window): a kernel whose threads each have
	// one load out at a time keeps its resident threads x 8 B.
	InFlight int64
}

// streamKernels gives, per STREAM kernel, the arrays it reads and writes.
var streamKernels = map[string][2][]string{
	"copy":  {{"a"}, {"c"}},
	"scale": {{"c"}, {"b"}},
	"add":   {{"a", "b"}, {"c"}},
	"triad": {{"b", "c"}, {"a"}},
}

// StreamKernels lists the STREAM kernels in STREAM's order.
var StreamKernels = []string{"copy", "scale", "add", "triad"}

// E6Sizes are the seed paper's array sizes: 1 MB to 8 GB, doubling.
func E6Sizes() []int64 {
	var s []int64
	for b := int64(1 << 20); b <= 8<<30; b *= 2 {
		s = append(s, b)
	}
	return s
}

// places splits Alloc into the place of array a (the copy kernel's
// source) and of arrays b and c (its destination).
func (st Stream) places() (src, dst string) {
	if a, b, ok := strings.Cut(st.Alloc, ":"); ok {
		return a, b
	}
	return st.Alloc, st.Alloc
}

// placeOf is where an array placed at place lives for executing GCD g.
func (st Stream) placeOf(place string, g int) string {
	switch place {
	case "local", "":
		return report.GCD(g)
	case "host":
		return report.NUMA(st.NUMA[g])
	}
	peer, _ := strconv.Atoi(place)
	return report.GCD(peer)
}

// allocAt allocates array buf of n bytes at place for executing GCD g.
func (st Stream) allocAt(place, buf string, g int, n int64) trace.Op {
	switch place {
	case "host":
		return hostAlloc(buf, st.NUMA[g], n)
	case "local", "":
		return alloc(buf, g, n)
	}
	peer, _ := strconv.Atoi(place)
	return alloc(buf, peer, n)
}

// Runs lists one run per size.
func (st Stream) Runs() ([]job.Run, error) {
	src, dst := st.places()
	for _, p := range []string{src, dst} {
		if p == "local" || p == "host" || (p == "" && !strings.Contains(st.Alloc, ":")) {
			continue
		}
		if g, err := strconv.Atoi(p); err != nil || g < 0 || g >= len(st.NUMA) {
			return nil, fmt.Errorf("-alloc: want local, host, a GCD id (0..%d) or SRC:DST of those, got %q", len(st.NUMA)-1, st.Alloc)
		}
	}
	seen := map[int]bool{}
	for _, g := range st.GCDs {
		if seen[g] {
			return nil, fmt.Errorf("-gcds: GCD %d given twice", g) // its bytes would count twice
		}
		seen[g] = true
	}
	for _, k := range st.Kernels {
		if _, ok := streamKernels[k]; !ok {
			return nil, fmt.Errorf("-kernels: unknown STREAM kernel %q (want copy, scale, add, triad)", k)
		}
	}
	if st.Passes < 0 {
		return nil, fmt.Errorf("-passes: want a count >= 1, got %d", st.Passes)
	}
	var runs []job.Run
	for _, n := range st.Sizes {
		if p := max(1, st.Passes); n/8*p/int64(max(1, st.Workgroup)) > trace.MaxWorkgroups {
			return nil, fmt.Errorf("-passes: %d passes over %d-byte arrays need more than %d workgroups", p, n, int64(trace.MaxWorkgroups))
		}
		runs = append(runs, st.run(n))
	}
	return runs, nil
}

func (st Stream) run(n int64) job.Run {
	var ops []trace.Op
	src, dst := st.places()
	for _, g := range st.GCDs {
		for _, a := range []string{"a", "b", "c"} {
			place := dst
			if a == "a" {
				place = src
			}
			ops = append(ops, st.allocAt(place, fmt.Sprintf("%s%d", a, g), g, n))
		}
	}
	wg := st.Workgroup
	grid := n / 8 / int64(wg) * int64(wg)
	if grid == 0 {
		grid = int64(wg)
	}
	var passes int64 // the accesses' passes: 0 for one, so one-pass traces stay as they were
	if st.Passes > 1 {
		passes = st.Passes
	}
	for it := 0; it < st.Iterations; it++ {
		for _, k := range st.Kernels {
			start, stop := fmt.Sprintf("%s.%d.start", k, it), fmt.Sprintf("%s.%d.stop", k, it)
			ops = append(ops, record(start, 1))
			for _, g := range st.GCDs {
				op := trace.Op{Op: trace.Kernel, Name: "stream_" + k, GCD: intp(g), Stream: 1 + g,
					Grid: grid * max(1, passes), Workgroup: wg, InFlight: st.InFlight}
				io := streamKernels[k]
				for _, r := range io[0] {
					op.Access = append(op.Access, trace.Access{Buf: fmt.Sprintf("%s%d", r, g), Mode: "read", Bytes: grid * 8, Passes: passes})
				}
				for _, w := range io[1] {
					op.Access = append(op.Access, trace.Access{Buf: fmt.Sprintf("%s%d", w, g), Mode: "write", Bytes: grid * 8, Passes: passes})
				}
				ops = append(ops, op)
			}
			ops = append(ops, trace.Op{Op: trace.DeviceSync}, record(stop, 1), trace.Op{Op: trace.EventSync, Event: stop})
		}
	}
	return job.Run{Name: fmt.Sprintf("stream/%d", n), Ops: ops, Rows: func(r *job.Replay) []report.Row {
		// every kernel's row has the same endpoints
		// src is where the source array a lives, dst the executing GCDs
		where := make([]string, len(st.GCDs))
		for i, g := range st.GCDs {
			where[i] = st.placeOf(src, g)
		}
		src, dst := report.List(where...), report.GCDs(st.GCDs)
		var rows []report.Row
		for _, k := range st.Kernels {
			best := 0.0
			for it := 0; it < st.Iterations; it++ {
				t := r.Elapsed(fmt.Sprintf("%s.%d.start", k, it), fmt.Sprintf("%s.%d.stop", k, it))
				if it == 0 || t < best {
					best = t
				}
			}
			io := streamKernels[k]
			bytes := float64(len(st.GCDs)*(len(io[0])+len(io[1]))) * float64(grid*8) * float64(max(1, passes))
			rows = append(rows, report.Row{Workload: "stream", Case: k, Src: src, Dst: dst, Bytes: n, Metric: "bandwidth", Value: gbps(bytes, best), Unit: "GB/s"})
		}
		return rows
	}}
}
