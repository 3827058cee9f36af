package workloads

import (
	"fmt"
	"slices"
	"strings"

	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// MHD is the time step of Astaroth's tfm-mpi (samples/tfm-mpi/tfm.cc,
// tfm_pipeline, at 905d7c96; facts with file:line in
// docs/model/mhd.md "MHD step"): the 6th-order (radius 3) MHD solver with test fields, 4 hydro
// fields and 12 test fields, each group with its own halo exchange of
// Strategy (acm-batched-he; acm-packed-he or mpi-he as a baseline). Per step, three
// RK3 substeps, each:
//
//	wait hydro exchange; hydro kernel on the outer shell; launch hydro exchange;
//	wait test-field exchange; 4 test-field kernels on the shell; launch it;
//	hydro and test-field kernels on the inner box; the xy-average reduction;
//
// every group of kernel launches between device syncs (tfm.cc compute()).
// The exchanges of a substep fly while the inner box is computed. The
// stencil kernels are costed by the GCD's kernel model from their bytes
// per point (each field read once: the stencil's other reads come from
// cache) and their flops per point at the GCD's FP64 peak.
type MHD struct {
	Halo          // Dims (the global grid), Procs, Levels, GCDNUMA, GCDsPerNode, PostNs, QueryNs, Yaksa
	Strategy      string
	Decomp        string
	FP64GFlops    float64 // the GCD's vector FP64 peak (gcd.fp64_gflops)
	ComputeUnits  int     // CUs per GCD
	WorkgroupSlot int     // workgroups a CU runs at once (gcd.workgroup_slots)
	Warmup, Steps int     // steps simulated and dropped; steps timed (the median is reported)
}

// MHDStrategies are the exchanges the MHD step runs with: the paper's
// optimised one (fully fused, tfm-mpi's from ToxPuro/astaroth e040459c,
// April 2025, "Switched to batched comm by default"), the pipelined one
// tfm-mpi ran before it (ac::comm::async_halo_exchange_task: a pack kernel
// and a send per packet, halo_exchange_packed.h), and MPI datatypes.
var MHDStrategies = []string{"acm-batched-he", "acm-packed-he", "mpi-he"}

// MHDDefaultDecomp is each strategy's decomposition unless -decomp names
// one: the optimised configuration places hierarchically, the baseline as
// MPI_Cart_create with reorder does.
// tfm-mpi created its communicator hierarchically with both of its own
// exchanges (cart_comm_create's default, mpi_utils.h, March 2025).
var MHDDefaultDecomp = map[string]string{"acm-batched-he": halo.Hierarchical, "acm-packed-he": halo.Hierarchical, "mpi-he": halo.MPIDefault}

// MHDRadius is tfm-mpi's halo: its stencils reach 3 points (mhd.ac:184-317).
const MHDRadius = 3

// mhdHydroFields and mhdTFMFields are the two exchanged groups
// (tfm_utils.h:41-53).
const mhdHydroFields, mhdTFMFields = 4, 12

// mhdKernel is one stencil kernel's cost per grid point: fields read (the
// input buffer), fields read from the output buffer (RK3's previous()),
// fields written, and flops (stencil points as one FMA each, plus the
// pointwise arithmetic counted from mhd.ac).
type mhdKernel struct {
	name           string
	reads          int // fields of the group's input buffer read
	prev, writes   int // fields of the group's output buffer read (previous()) and written
	uu             int // hydro fields read by a test-field kernel (UU)
	extra          int // other fields written (u x b): buffers of their own
	flops          float64
	substep2Flops  float64 // substep 2 only: forcing
	substep2Writes int     // substep 2 only: curl(UU) and UU.curl(UU), or b
}

// mhdHydro: singlepass_solve_step{0,1,2} (mhd.ac:845-1055). Stencils: 3
// first and 3 upwind derivatives of lnrho, 9 first, 9 second and 6 mixed
// of UU: 234 points, 468 flops; continuity, momentum (stress tensor,
// viscosity, pressure) and RK3 about 150 more. Substep 2 adds the forcing
// (sin, cos, sqrt: about 150) and writes curl(UU) and UU.curl(UU).
var mhdHydro = mhdKernel{name: "singlepass_solve_step", reads: 4, prev: 4, writes: 4,
	flops: 618, substep2Flops: 160, substep2Writes: 4}

// mhdTFM: singlepass_solve_step{0,1,2}_tfm_b{11,12,21,22} (mhd.ac:580-770),
// one per test field (3 components). Stencils: 6 first, 9 second and 6
// mixed derivatives of a: 177 points, 354 flops; roc_tf's cross products,
// diffusion and RK3 about 100 more. Writes a, u x b, and in substep 2 b.
var mhdTFM = mhdKernel{name: "singlepass_solve_step%d_tfm_b%s", reads: 3, prev: 3, writes: 3, uu: 3,
	extra: 3, flops: 454, substep2Writes: 3}

// mhdTFMNames are the four test fields.
var mhdTFMNames = []string{"11", "12", "21", "22"}

// mhdReduceFields are the fields acDeviceReduceXYAverages reads: UU and
// the 12 u x b (tfm.cc:1401-1423, 15 profiles).
const mhdReduceFields = 15

// mhdMaxSteps bounds -steps (each step is three substeps of every rank).
const mhdMaxSteps = 100

// MHDCase is an MHD row's case: mhd/128x128x128/p:64/acm-batched-he/hierarchical.
func MHDCase(dims []int, procs int, strategy, decomp string) string {
	return fmt.Sprintf("mhd/%s/p:%d/%s/%s", haloDims(dims, "x"), procs, strategy, decomp)
}

// Runs checks the step's arguments and lists its one run.
func (m MHD) Runs() ([]job.Run, error) {
	if !slices.Contains(MHDStrategies, m.Strategy) {
		return nil, fmt.Errorf("-strategy: the MHD step runs with %s, not %q", strings.Join(MHDStrategies, ", "), m.Strategy)
	}
	if len(m.Dims) != 3 {
		return nil, fmt.Errorf("-dims: the MHD solver's grid has 3 axes, got %d", len(m.Dims))
	}
	if m.FP64GFlops <= 0 || m.ComputeUnits < 1 || m.WorkgroupSlot < 1 {
		return nil, fmt.Errorf("mhd: want the GCD's FP64 peak, CUs and workgroup slots, got %g, %d, %d", m.FP64GFlops, m.ComputeUnits, m.WorkgroupSlot)
	}
	if m.Warmup < 0 || m.Steps < 1 || m.Warmup+m.Steps > mhdMaxSteps {
		return nil, fmt.Errorf("mhd: want 1..%d steps in all, got %d warm-up and %d timed", mhdMaxSteps, m.Warmup, m.Steps)
	}
	p, err := halo.PlacementOn(m.Decomp, m.GCDsPerNode)
	if err != nil {
		return nil, fmt.Errorf("-decomp %s: %v", m.Decomp, err)
	}
	if need := (m.Procs + m.GCDsPerNode - 1) / m.GCDsPerNode; len(m.GCDNUMA) < need*m.GCDsPerNode {
		return nil, fmt.Errorf("-procs %d: %d ranks at %d per node need %d nodes, the run has %d (-nodes)",
			m.Procs, m.Procs, m.GCDsPerNode, need, len(m.GCDNUMA)/m.GCDsPerNode)
	}
	d, err := halo.Decompose(m.Decomp, m.Dims, m.Procs, m.Levels)
	if err != nil {
		return nil, fmt.Errorf("-decomp %s -dims %s -procs %d: %v", m.Decomp, haloDims(m.Dims, ","), m.Procs, err)
	}
	for i, n := range d.Local {
		if n < 2*MHDRadius {
			return nil, fmt.Errorf("-dims %s -procs %d: the local box has %d points on axis %d, the stencils need at least %d",
				haloDims(m.Dims, ","), m.Procs, n, i, 2*MHDRadius)
		}
	}
	if err := checkPadded(d.Local, MHDRadius); err != nil {
		return nil, err
	}
	return []job.Run{m.run(d, p)}, nil
}

// Labels of rank 0's clock at each step's start.
const mhdStep = "mhd.step"

// run is the MHD step over decomposition d placed by p.
func (m MHD) run(d *halo.Decomposition, p halo.Placement) job.Run {
	m.Radius = MHDRadius
	rankOps := func(ops []trace.Op, rank int) []trace.Op {
		g := p.GCD(rank)
		mr := m
		mr.GCD, mr.NUMA = g, m.GCDNUMA[g]
		start := len(ops)
		ops = mr.rank(ops, d, p, rank)
		for i := start; i < len(ops); i++ {
			ops[i].Rank = rank
		}
		return ops
	}
	build := func() []trace.Op {
		var ops []trace.Op
		for rank := range d.Procs() {
			ops = rankOps(ops, rank)
			if rank == 0 { // every other rank calls as many, rank 0's clock aside: grow once
				ops = slices.Grow(ops, len(ops)*(d.Procs()-1))
			}
		}
		return ops
	}
	// rank 0's count per rank: the memory is checked before any op is made
	count := limit.Product(int64(len(rankOps(nil, 0))), int64(d.Procs()))
	name := MHDCase(m.Dims, d.Procs(), m.Strategy, d.Name)
	var points int64 = 1
	for _, n := range d.Local {
		points *= int64(n)
	}
	keep := func(o *trace.Op) bool { return o.Rank == 0 && o.Op == trace.HostCompute && len(o.Label) > len(mhdStep) }
	return job.Run{Name: name, Build: build, BuildCount: count, Keep: keep, Rows: func(r *job.Replay) []report.Row {
		at := map[string]float64{}
		for _, res := range r.Ops {
			if keep(res.Op) {
				at[res.Op.Label] = float64(res.Issue)
			}
		}
		var us []float64
		for k := m.Warmup; k < m.Warmup+m.Steps; k++ {
			us = append(us, (at[fmt.Sprintf("%s.%d", mhdStep, k+1)]-at[fmt.Sprintf("%s.%d", mhdStep, k)])*1e6)
		}
		return []report.Row{{Workload: "halo", Case: name, Src: report.GCD(p.GCD(0)), Bytes: points * haloElem,
			Metric: "time", Value: Median(us), Unit: "us"}}
	}}
}

// mhdGroup is one exchanged group of a rank: its exchange geometry and,
// per buffer (input, output: they swap every substep), the Halo whose
// buffer names the exchange uses.
type mhdGroup struct {
	x   exchange
	buf [2]Halo
}

// rank appends what one rank calls to ops: allocations, then the steps,
// its clock read (rank 0) at each step's start and after the last.
func (m MHD) rank(ops []trace.Op, d *halo.Decomposition, p halo.Placement, rank int) []trace.Op {
	mm := halo.PaddedBox(d.Local, MHDRadius)
	field := halo.Segment{Dims: mm}.Elems() * haloElem
	packets := halo.Packets(d.Local, MHDRadius)
	var groups [2]mhdGroup
	for g, nf := range []int{mhdHydroFields, mhdTFMFields} {
		groups[g].x = exchange{d: d, mm: mm, packets: packets, label: m.Strategy, nf: nf, waits: new([]trace.Op), place: p}
		for b := range 2 {
			h := m.Halo
			h.prefix = fmt.Sprintf("r%d.g%d.b%d.", rank, g, b)
			groups[g].buf[b] = h
			for f := range nf {
				ops = append(ops, alloc(h.fieldBuf(f), m.GCD, field))
			}
			ops = h.exchangeBufs(ops, groups[g].x, rank) // acm's send and receive buffers, or MPICH's staging
		}
	}
	// fields no exchange needs: u x b and b (test fields), curl(UU) and
	// UU.curl(UU) (hydro), and the xy profiles
	for _, b := range []string{"uxb", "bb"} {
		for f := range mhdTFMFields {
			ops = append(ops, alloc(m.extraBuf(rank, b, f), m.GCD, field))
		}
	}
	for f := range mhdHydro.substep2Writes {
		ops = append(ops, alloc(m.extraBuf(rank, "oo", f), m.GCD, field))
	}
	ops = append(ops, alloc(m.extraBuf(rank, "profiles", 0), m.GCD, int64(mhdReduceFields*mm[2])*haloElem))

	sync := trace.Op{Op: trace.DeviceSync}
	clock := func(k int) {
		if rank == 0 {
			ops = append(ops, trace.Op{Op: trace.HostCompute, Label: fmt.Sprintf("%s.%d", mhdStep, k)})
		}
	}
	// an exchange's ops, made once per group and buffer: the first (its
	// datatypes' metadata made) and every later one, one and the same
	// without datatypes (its kernels' access lists then made once)
	var made [2][2][2][]trace.Op
	var pending [2][2]int // which of made a launched exchange's wait takes
	ops4 := func(g, b, first int) []trace.Op {
		if !groups[g].x.datatypes() {
			first = 0
		}
		if made[g][b][first] == nil {
			made[g][b][first] = groups[g].buf[b].exchange(nil, groups[g].x, rank, first == 1)
		}
		return made[g][b][first]
	}
	used := [2][2]bool{}
	launch := func(g, b int) []trace.Op {
		first := 0
		if !used[g][b] {
			used[g][b], first = true, 1
		}
		pending[g][b] = first
		l, _ := split(ops4(g, b, first))
		return l
	}
	wait := func(g, b int) []trace.Op {
		_, w := split(ops4(g, b, pending[g][b]))
		return w
	}
	in := 0 // the input buffer
	ops = append(ops, sync, trace.Op{Op: trace.MPIBarrier})
	ops = append(ops, launch(0, in)...)
	ops = append(ops, launch(1, in)...)
	shell, inner := mhdRegions(d.Local)
	for k := range m.Warmup + m.Steps {
		clock(k)
		for s := range 3 {
			ops = append(ops, wait(0, in)...)
			ops = append(ops, sync)
			ops = append(ops, m.hydro(rank, s, in, shell)...)
			ops = append(ops, sync)
			ops = append(ops, launch(0, 1-in)...)
			ops = append(ops, wait(1, in)...)
			ops = append(ops, sync)
			ops = append(ops, m.tfm(rank, s, in, shell)...)
			ops = append(ops, sync)
			ops = append(ops, launch(1, 1-in)...)
			ops = append(ops, sync)
			if inner > 0 {
				ops = append(ops, m.hydro(rank, s, in, inner)...)
			}
			ops = append(ops, sync, sync)
			if inner > 0 {
				ops = append(ops, m.tfm(rank, s, in, inner)...)
			}
			ops = append(ops, sync)
			in = 1 - in // acDeviceSwapBuffers
			ops = append(ops, sync, m.reduce(rank, in, shell+inner), sync)
		}
	}
	clock(m.Warmup + m.Steps)
	ops = append(ops, wait(0, in)...)
	ops = append(ops, wait(1, in)...)
	return append(ops, sync, trace.Op{Op: trace.MPIBarrier})
}

// split cuts an exchange at its first MPI_Wait into acm's launch() (pack,
// post) and wait() (waits, unpack) (halo_exchange_batched.h:176-195).
func split(ops []trace.Op) (launch, wait []trace.Op) {
	i := slices.IndexFunc(ops, func(o trace.Op) bool { return o.Op == trace.MPIWait })
	if i < 0 {
		return ops, nil
	}
	return ops[:i], ops[i:]
}

// mhdRegions are the points of the outer shell (radius deep inside the
// computational box: what the neighbours' halos need) and of the inner box
// (tfm.cc:835-856).
func mhdRegions(nn []int) (shell, inner int64) {
	all, inner := int64(1), int64(1)
	for _, n := range nn {
		all *= int64(n)
		inner *= int64(max(n-2*MHDRadius, 0))
	}
	return all - inner, inner
}

func (m MHD) extraBuf(rank int, what string, f int) string {
	return fmt.Sprintf("r%d.%s%d", rank, what, f)
}

// hydro is the hydro kernel of substep s over points (input buffer in).
func (m MHD) hydro(rank, s, in int, points int64) []trace.Op {
	k, b := mhdHydro, [2]Halo{m.Halo, m.Halo}
	b[0].prefix, b[1].prefix = fmt.Sprintf("r%d.g0.b%d.", rank, in), fmt.Sprintf("r%d.g0.b%d.", rank, 1-in)
	flops := k.flops
	var acc []trace.Access
	for f := range k.reads {
		acc = append(acc, field(b[0].fieldBuf(f), "read", points))
	}
	for f := range k.prev {
		acc = append(acc, field(b[1].fieldBuf(f), "read", points))
	}
	for f := range k.writes {
		acc = append(acc, field(b[1].fieldBuf(f), "write", points))
	}
	if s == 2 {
		flops += k.substep2Flops
		for f := range k.substep2Writes {
			acc = append(acc, field(m.extraBuf(rank, "oo", f), "write", points))
		}
	}
	return []trace.Op{m.stencil(fmt.Sprintf("%s%d", k.name, s), points, flops, acc)}
}

// tfm is the four test-field kernels of substep s over points.
func (m MHD) tfm(rank, s, in int, points int64) []trace.Op {
	k := mhdTFM
	src, dst, uu := m.Halo, m.Halo, m.Halo
	src.prefix, dst.prefix = fmt.Sprintf("r%d.g1.b%d.", rank, in), fmt.Sprintf("r%d.g1.b%d.", rank, 1-in)
	uu.prefix = fmt.Sprintf("r%d.g0.b%d.", rank, in)
	var ops []trace.Op
	for t, tf := range mhdTFMNames {
		var acc []trace.Access
		for c := range k.reads {
			acc = append(acc, field(src.fieldBuf(3*t+c), "read", points))
		}
		for c := range k.prev {
			acc = append(acc, field(dst.fieldBuf(3*t+c), "read", points))
		}
		for c := range k.uu {
			acc = append(acc, field(uu.fieldBuf(1+c), "read", points))
		}
		for c := range k.writes {
			acc = append(acc, field(dst.fieldBuf(3*t+c), "write", points))
		}
		for c := range k.extra {
			acc = append(acc, field(m.extraBuf(rank, "uxb", 3*t+c), "write", points))
		}
		if s == 2 {
			for c := range k.substep2Writes {
				acc = append(acc, field(m.extraBuf(rank, "bb", 3*t+c), "write", points))
			}
		}
		ops = append(ops, m.stencil(fmt.Sprintf(k.name, s, tf), points, k.flops, acc))
	}
	return ops
}

// reduce is acDeviceReduceXYAverages: UU and the 12 u x b read once, a
// sum per point, the profiles written.
func (m MHD) reduce(rank, in int, points int64) trace.Op {
	uu := m.Halo
	uu.prefix = fmt.Sprintf("r%d.g0.b%d.", rank, in)
	var acc []trace.Access
	for c := range 3 {
		acc = append(acc, field(uu.fieldBuf(1+c), "read", points))
	}
	for f := range mhdTFMFields {
		acc = append(acc, field(m.extraBuf(rank, "uxb", f), "read", points))
	}
	acc = append(acc, trace.Access{Buf: m.extraBuf(rank, "profiles", 0), Mode: "write", Bytes: mhdReduceFields * haloElem})
	return m.stencil("reduce_xy_averages", points, mhdReduceFields, acc)
}

// field is a kernel's pass over points of one field buffer: contiguous,
// as the x rows of a region are.
func field(buf, mode string, points int64) trace.Access {
	return trace.Access{Buf: buf, Mode: mode, Bytes: points * haloElem}
}

// stencil is a kernel of one work-item per point in acm's blocks of 256
// (Astaroth tunes its blocks; the size is assumed), its compute per
// workgroup the workgroup's flops at the CU's share of the FP64 peak while
// a CU runs its slots of workgroups together.
func (m MHD) stencil(name string, points int64, flops float64, acc []trace.Access) trace.Op {
	perCU := m.FP64GFlops / float64(m.ComputeUnits) // flops per ns
	ns := flops * haloTPB * float64(m.WorkgroupSlot) / perCU
	return trace.Op{Op: trace.Kernel, Name: name, GCD: intp(m.GCD), Grid: roundUp(points, haloTPB), Workgroup: haloTPB,
		ComputeNs: ns, Access: acc}
}
