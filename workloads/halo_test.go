package workloads

import (
	"fmt"
	"strings"
	"testing"

	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/trace"
)

// haloPack is a pack benchmark on GCD 0 of the Frontier node: one warm-up
// and one sample (the samples after the first agree, TestHaloSamplesAgree).
func haloPack(t *testing.T, dims []int, labels []string, fields ...int) Halo {
	c := frontier(t)
	return Halo{Bench: "pack", Dims: dims, Radius: 4, Fields: fields, Strategies: labels,
		NUMA: c.Host.GCDNUMA[0], QueryNs: c.Runtime.APICallNs, Yaksa: c.Env.EnableYaksa == 1, Warmup: 1, Samples: 1}
}

// haloTimes runs h and returns the median time of each case, in us.
func haloTimes(t *testing.T, h Halo) map[string]float64 {
	t.Helper()
	runs, err := h.Runs()
	res := mustExecute(t, frontier(t), runs, err)
	out := map[string]float64{}
	for _, r := range res.Rows {
		if r.Metric != "time" || r.Unit != "us" || r.Src != "gcd0" || r.Dst != "gcd0" {
			t.Errorf("row %+v: want time in us from gcd0 to gcd0", r)
		}
		out[r.Case] = r.Value
	}
	return out
}

// What each label's bench() calls: MPI_Pack per segment and field (or per
// segment), here the dataloop engine's CPU copies (yaksa's:
// TestHaloYaksaOps), kernels per segment and field, per segment, or one,
// each followed by a device synchronise.
func TestHaloPackOps(t *testing.T) {
	dims := []int{16, 12, 20}
	segs := halo.Segments(dims, 4)
	const nf = 3
	h := haloPack(t, dims, HaloPackLabels, nf)
	h.Yaksa = false
	mm := halo.PaddedBox(dims, 4)
	for _, c := range []struct {
		label                string
		access, calls, kerns int
	}{
		{"mpi-pack", 26 * nf, 26 * nf, 0},
		{"mpi-pack-indexed", 26 * nf, 26, 0},
		{"acm-pack", 0, 0, 26 * nf},
		{"acm-pack-packed", 0, 0, 26},
		{"acm-pack-batched", 0, 0, 1},
	} {
		ops := h.pack(c.label, nf, mm, segs, false)
		if got := count(ops, trace.HostAccess); got != c.access {
			t.Errorf("%s: %d host accesses, want %d", c.label, got, c.access)
		}
		if got := count(ops, trace.HostCompute); got != c.calls {
			t.Errorf("%s: %d MPI calls, want %d", c.label, got, c.calls)
		}
		if got := count(ops, trace.Kernel); got != c.kerns || count(ops, trace.DeviceSync) != c.kerns {
			t.Errorf("%s: %d kernels and %d syncs, want %d of each", c.label, got, count(ops, trace.DeviceSync), c.kerns)
		}
		for i, o := range ops {
			if o.Op == trace.Kernel && (i+1 == len(ops) || ops[i+1].Op != trace.DeviceSync) {
				t.Errorf("%s: kernel %d not followed by a device sync", c.label, i)
			}
		}
	}
	// the batched grid: ceil(largest segment / 256) blocks per segment,
	// every segment's F fields read as runs of the padded box
	k := h.pack("acm-pack-batched", nf, mm, segs, false)[0]
	var most int64
	for _, s := range segs {
		most = max(most, s.Elems())
	}
	if want := (most + 255) / 256 * 256 * 26; k.Grid != want || k.Workgroup != 256 {
		t.Errorf("batched grid %d in %d, want %d in 256", k.Grid, k.Workgroup, want)
	}
	if len(k.Access) != 26*(nf+1) {
		t.Fatalf("batched kernel: %d accesses, want %d", len(k.Access), 26*(nf+1))
	}
	xface := k.Access[(nf+1)*4] // segment 4 of 26: x left, y centre, z centre
	if xface.Pattern != "strided" || xface.Element != 4*8 || xface.Stride != int64(mm[0])*8 || xface.Bytes != 4*12*20*8 {
		t.Errorf("x face read %+v: want 32-byte runs a padded row apart", xface)
	}
	if got := HaloCase("acm-pack-batched", []int{256, 256, 256}, 4, 4); got != "acm-pack-batched/256x256x256/nf:4/r:4" {
		t.Errorf("case %q", got)
	}
}

// A deterministic model: the samples after the first are all the same.
// The first differs (its pack buffers are not in the L2 yet), one reason
// acm drops warm-up samples.
func TestHaloSamplesAgree(t *testing.T) {
	h := haloPack(t, []int{32, 32, 32}, []string{"mpi-pack", "acm-pack-batched"}, 2)
	one := haloTimes(t, h)
	h.Warmup, h.Samples = 2, 3
	for c, v := range haloTimes(t, h) {
		if d := v - one[c]; d > 1e-6*v || d < -1e-6*v {
			t.Errorf("%s: median of 3 after 2 warm-ups %.4f us, one sample after one %.4f us", c, v, one[c])
		}
	}
	h.Warmup, h.Samples = 0, 1
	cold := haloTimes(t, h)["acm-pack-batched/32x32x32/nf:2/r:4"]
	if warm := one["acm-pack-batched/32x32x32/nf:2/r:4"]; cold <= warm {
		t.Errorf("batched: first sample %.2f us, later ones %.2f us: want the first slower (cold L2)", cold, warm)
	}
}

// The paper's first claim, as the model produces it with the default
// engine, yaksa (docs/references.md [seed-001], [acm]): custom kernels beat MPI
// datatypes by one to two orders of magnitude in 2D and above. In 3D at
// 256^3 the model is inside the band. In 2D it is not: an MPI_Pack is one
// kernel cycle, so mpi-pack / acm-pack-batched is about the 8 calls
// (8.4x, docs/model/halo.md "Halo packing"); the test holds that floor, one
// kernel cycle per call, and logs the shortfall.
func TestHaloPackMPIAgainstFused(t *testing.T) {
	ratio := func(dims []int) float64 {
		got := haloTimes(t, haloPack(t, dims, []string{"mpi-pack", "acm-pack-batched"}, 1))
		mpi := got[HaloCase("mpi-pack", dims, 1, 4)]
		fused := got[HaloCase("acm-pack-batched", dims, 1, 4)]
		t.Logf("%dD: mpi-pack %.1f us, acm-pack-batched %.2f us: %.1fx", len(dims), mpi, fused, mpi/fused)
		return mpi / fused
	}
	if c := frontier(t); c.Env.EnableYaksa != 1 {
		t.Fatalf("the shipped config's MPICH_ENABLE_YAKSA is %d, want 1", c.Env.EnableYaksa)
	}
	if r := ratio([]int{256, 256, 256}); r < 10 || r > 100 {
		t.Errorf("3D 256^3: mpi-pack / acm-pack-batched = %.1f, want 10..100", r)
	}
	calls := float64(len(halo.Segments([]int{256, 256}, 4)))
	if r := ratio([]int{256, 256}); r < calls {
		t.Errorf("2D 256^2: mpi-pack / acm-pack-batched = %.1f, want at least a kernel cycle per call (%.0f)", r, calls)
	} else if r < 10 {
		t.Logf("2D 256^2: %.1fx, short of the claim's 10x", r)
	}
	// 1D: two segments of one run each, no datatype walk worth the name
	got := haloTimes(t, haloPack(t, []int{256}, []string{"mpi-pack", "acm-pack-batched"}, 1))
	if mpi, fused := got["mpi-pack/256/nf:1/r:4"], got["acm-pack-batched/256/nf:1/r:4"]; mpi > 3*fused {
		t.Errorf("1D: mpi-pack %.1f us, acm-pack-batched %.2f us: want them within 3x", mpi, fused)
	}
}

// The second claim: as nf grows 1..16 the fully fused kernel's time grows
// least, the unfused one's (a launch per segment and field) most. Checked
// where launches matter (2D 256^2 and 3D 64^3); at 256^3 both fused
// kernels are HBM-bound and grow alike (logged).
func TestHaloPackFieldsGrowth(t *testing.T) {
	labels := []string{"acm-pack", "acm-pack-packed", "acm-pack-batched"}
	for _, dims := range [][]int{{256, 256}, {64, 64, 64}, {256, 256, 256}} {
		got := haloTimes(t, haloPack(t, dims, labels, 1, 16))
		grow := map[string]float64{}
		for _, l := range labels {
			grow[l] = got[HaloCase(l, dims, 16, 4)] - got[HaloCase(l, dims, 1, 4)]
		}
		t.Logf("%v: growth nf 1 -> 16: unfused %.1f us, packed %.1f us, batched %.1f us", dims, grow["acm-pack"], grow["acm-pack-packed"], grow["acm-pack-batched"])
		if len(dims) == 3 && dims[0] == 256 {
			if b, p := got[HaloCase("acm-pack-batched", dims, 16, 4)], got[HaloCase("acm-pack-packed", dims, 16, 4)]; b >= p {
				t.Errorf("256^3 nf 16: batched %.1f us, not below packed %.1f us", b, p)
			}
			continue
		}
		if !(grow["acm-pack-batched"] < grow["acm-pack-packed"] && grow["acm-pack-packed"] < grow["acm-pack"]) {
			t.Errorf("%v: growth batched %.1f, packed %.1f, unfused %.1f us: want increasing", dims, grow["acm-pack-batched"], grow["acm-pack-packed"], grow["acm-pack"])
		}
	}
}

// count is how many of ops are of kind k.
func count(ops []trace.Op, k trace.Kind) int {
	n := 0
	for _, o := range ops {
		if o.Op == k {
			n++
		}
	}
	return n
}

// Bad arguments: one error each, nothing run.
func TestHaloPackErrors(t *testing.T) {
	ok := func() Halo { return haloPack(t, []int{16, 16}, HaloPackLabels, 1, 2) }
	for _, c := range []struct {
		name string
		edit func(h *Halo)
		want string
	}{
		{"bench", func(h *Halo) { h.Bench = "unpack" }, "-bench: unknown halo benchmark"},
		{"no axes", func(h *Halo) { h.Dims = nil }, "want 1..5 axes"},
		{"six axes", func(h *Halo) { h.Dims = []int{4, 4, 4, 4, 4, 4} }, "want 1..5 axes"},
		{"empty axis", func(h *Halo) { h.Dims = []int{16, 0} }, "axis 1: want at least 1 point"},
		{"radius 0", func(h *Halo) { h.Radius = 0 }, "radius: want at least 1"},
		{"radius > dims", func(h *Halo) { h.Dims = []int{16, 3} }, "radius 4 is larger than axis 1"},
		{"huge", func(h *Halo) { h.Dims = []int{1 << 20, 1 << 20, 1 << 20} }, "more than 2^40 points"},
		{"label", func(h *Halo) { h.Strategies = []string{"acm-pack-fused"} }, `unknown pack label "acm-pack-fused"`},
		{"no labels", func(h *Halo) { h.Strategies = nil }, "want at least one label"},
		{"no fields", func(h *Halo) { h.Fields = nil }, "want at least one label and one field count"},
		{"nf 0", func(h *Halo) { h.Fields = []int{0} }, "-fields: want 1..64 fields, got 0"},
		{"packed nf 5", func(h *Halo) { h.Fields = []int{5} }, "acm-pack-packed is built for 1, 2, 3, 4, 8, 12, 16 fields, not 5"},
		{"batched nf 3", func(h *Halo) { h.Fields = []int{3} }, "acm-pack-batched is built for 1, 2, 4, 8, 12, 16 fields, not 3"},
	} {
		h := ok()
		c.edit(&h)
		runs, err := h.Runs()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || runs != nil {
			t.Errorf("%s: error %v, want one line with %q", c.name, err, c.want)
		}
	}
	// nf 3 is fine for labels without fixed counts and for acm-pack-packed
	h := ok()
	h.Strategies, h.Fields = []string{"mpi-pack", "acm-pack", "acm-pack-packed"}, []int{3}
	if _, err := h.Runs(); err != nil {
		t.Error(err)
	}
	if err := job.Check(frontier(t), must(h.Runs())); err != nil {
		t.Errorf("trace check: %v", err)
	}
}

func must(runs []job.Run, err error) []job.Run {
	if err != nil {
		panic(err)
	}
	return runs
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{7}, 7}} {
		if got := Median(c.v); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.v, got, c.want)
		}
	}
}

// Halo buffers are named by concatenation (segName), as fmt would write
// them: a rank's prefix, what, the segment, and the field after a dot
// when there is one; a field's box is "in" and its number.
func TestHaloBufferNames(t *testing.T) {
	h := Halo{prefix: "r12."}
	for k := range 30 {
		for f := -1; f < 17; f++ {
			want := fmt.Sprintf("r12.rq.send%d.%d", k, f)
			if f < 0 {
				want = fmt.Sprintf("r12.rq.send%d", k)
			}
			if got := h.buf("rq.send", k, f); got != want {
				t.Fatalf("buf(rq.send, %d, %d) = %q, want %q", k, f, got, want)
			}
		}
	}
	for _, c := range []struct{ got, want string }{
		{segBuf("md", 2, -1), "md2"}, {packBuf(25, 16), "pack25.16"}, {h.fieldBuf(15), "r12.in15"}, {Halo{}.fieldBuf(0), "in0"},
	} {
		if c.got != c.want {
			t.Errorf("name %q, want %q", c.got, c.want)
		}
	}
}
