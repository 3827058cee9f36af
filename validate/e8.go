package validate

import (
	"fmt"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/workloads"
)

// E8: collectives of 1 MiB on 2..8 GCDs, ranks added in the order
// 0,1,6,7,2,3,4,5: OSU's MPI collectives (Cray MPICH, one rank per GCD)
// against rccl-tests (one process driving the GCDs), both as the seed
// paper ran them.

// e8Order is the order GCDs join the communicator.
var e8Order = []int{0, 1, 6, 7, 2, 3, 4, 5}

// e8Ops pairs each collective's OSU test and rccl-tests binary; twoPass
// says whether its lower bound is two p2p latencies (17.4 us) or one (8.7).
var e8Ops = []struct {
	name, osu, rccl string
	twoPass         bool
}{
	{"Reduce", "osu_reduce", "reduce_perf", false},
	{"Broadcast", "osu_bcast", "broadcast_perf", false},
	{"AllReduce", "osu_allreduce", "all_reduce_perf", true},
	{"ReduceScatter", "osu_reduce_scatter", "reduce_scatter_perf", true},
	{"AllGather", "osu_allgather", "all_gather_perf", true},
}

// The published lower bounds (us): the smallest p2p latency of E4, once
// or twice.
const e8OnePass, e8TwoPass = 8.7, 17.4

// e8Points are E8's claims, each a comparison the model makes.
func e8Points(c *config.Node) ([]Point, error) {
	var pts []Point
	for _, op := range e8Ops {
		rcclAt := map[int]float64{}
		for n := 2; n <= len(e8Order) && n <= c.GCD.Count; n++ {
			gcds := e8Order[:n]
			r, err := e8RCCL(c, op.rccl, gcds)
			if err != nil {
				return nil, err
			}
			m, err := osu(c, op.osu, gcds, 1<<20)
			if err != nil {
				return nil, err
			}
			rcclAt[n] = r
			bound := e8OnePass
			if op.twoPass {
				bound = e8TwoPass
			}
			for _, x := range []struct {
				lib string
				v   float64
			}{{"RCCL", r}, {"MPI", m}} {
				p := Point{Experiment: "E8 lower bound", Name: fmt.Sprintf("%s %s, %d GCDs, >= %.1f us", x.lib, op.name, n, bound),
					Simulated: x.v, Published: bound, AtLeast: true, Unit: "us"}
				if x.lib == "RCCL" && op.twoPass && n == 2 && op.name != "AllReduce" {
					p.Gap = "one ring step and the kernel's fixed costs give about 13 us; the seed's 17.4 us needs a per-collective cost not yet found (docs/model.md, RCCL)"
				}
				pts = append(pts, p)
			}
			if op.twoPass && n == 2 {
				p := Point{Experiment: "E8 RCCL 2 GCDs", Name: "RCCL " + op.name + ", 2 GCDs",
					Simulated: r, Published: e8TwoPass, Tolerance: 0.20, Unit: "us"}
				if op.name != "AllReduce" {
					p.Gap = "see the lower bound above"
				}
				pts = append(pts, p)
			}
			p := Point{Experiment: "E8 RCCL vs MPI", Name: fmt.Sprintf("RCCL / MPI %s, %d GCDs, < 1", op.name, n),
				Simulated: r / m, Published: 1, AtMost: true, Unit: "x"}
			if op.name == "Broadcast" {
				p.Name = fmt.Sprintf("RCCL / MPI %s, %d GCDs, >= 1", op.name, n)
				p.AtMost, p.AtLeast = false, true
				p.Gap = "RCCL's pipelined ring broadcast beats one IPC copy per tree edge here; what slows RCCL's Broadcast on the real node is not modelled (docs/model.md, MPI collectives)"
			}
			pts = append(pts, p)
		}
		if op.name != "ReduceScatter" && op.name != "AllGather" {
			pts = append(pts, Point{Experiment: "E8 RCCL 7 -> 8 GCDs", Name: "RCCL " + op.name + ", 8 GCDs / 7 GCDs, < 1",
				Simulated: rcclAt[8] / rcclAt[7], Published: 1, AtMost: true, Unit: "x"})
		}
	}
	return pts, nil
}

// e8RCCL is rccl-tests' out-of-place time (us) of bench on gcds at 1 MiB,
// with its default 5 warm-up and 20 timed iterations: its first row.
func e8RCCL(c *config.Node, bench string, gcds []int) (float64, error) {
	runs, err := workloads.RCCLTests{Bench: bench, GCDs: gcds, Sizes: []int64{1 << 20}, Datatype: "float",
		Warmup: 5, Iterations: 20}.Runs()
	if err != nil {
		return 0, err
	}
	return firstValue(c, runs)
}
