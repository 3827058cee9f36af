package profile

import (
	"cmp"
	"fmt"
	"slices"
)

// Line is one kernel or copy of a profile beside its replay's: times in ns
// (a kernel from its first workgroup to its end, as rocprofv3 records it).
type Line struct {
	Kind      string // "kernel" or "copy"
	Rank, GCD int    // GCD: the kernel's, or the copy's device side (-1: none)
	Name      string // the profile's kernel name, or the copy's direction
	Bytes     int64
	Profile   int64 // ns recorded
	Simulated int64 // ns in the replay
	Start     int64 // the profile's start, for the order
}

// Compare lines up a profile's kernels and copies with a replay's
// (run.WithCalls's record of the same trace): kernels per rank and GCD in
// start order, copies per rank in start order. The replay runs each
// collective as RCCL's kernels, one per GCD, as RCCL launched them.
func Compare(real, sim *Profile) ([]Line, error) {
	type key struct{ rank, gcd int }
	kernels := func(p *Profile) map[key][]Kernel {
		am := p.agentMap()
		m := map[key][]Kernel{}
		for _, k := range p.Kernels {
			g, ok := am.gcd[k.Agent]
			if !ok {
				g = -1
			}
			m[key{k.Process, g}] = append(m[key{k.Process, g}], k)
		}
		for _, ks := range m {
			slices.SortStableFunc(ks, func(a, b Kernel) int { return cmp.Compare(a.Start, b.Start) })
		}
		return m
	}
	rk, sk := kernels(real), kernels(sim)
	var out []Line
	for k, ks := range rk {
		if len(sk[k]) != len(ks) {
			return nil, fmt.Errorf("rank %d, GCD %d: the profile has %d kernels, the replay %d", k.rank, k.gcd, len(ks), len(sk[k]))
		}
		for i, x := range ks {
			y := sk[k][i]
			out = append(out, Line{Kind: "kernel", Rank: k.rank, GCD: k.gcd, Name: x.Name, Profile: x.End - x.Start, Simulated: y.End - y.Start, Start: x.Start})
		}
	}
	copies := func(p *Profile) map[int][]Copy {
		m := map[int][]Copy{}
		for _, c := range p.Copies {
			m[c.Process] = append(m[c.Process], c)
		}
		for _, cs := range m {
			slices.SortStableFunc(cs, func(a, b Copy) int { return cmp.Compare(a.Start, b.Start) })
		}
		return m
	}
	rc, sc := copies(real), copies(sim)
	ram, sam := real.agentMap(), sim.agentMap()
	for rank, cs := range rc {
		if len(sc[rank]) != len(cs) {
			return nil, fmt.Errorf("rank %d: the profile has %d copies, the replay %d", rank, len(cs), len(sc[rank]))
		}
		for i, x := range cs {
			y := sc[rank][i]
			if x.Bytes != y.Bytes && x.Bytes > 0 {
				return nil, fmt.Errorf("rank %d: copy %d moves %d bytes in the profile, %d in the replay", rank, i+1, x.Bytes, y.Bytes)
			}
			out = append(out, Line{Kind: "copy", Rank: rank, GCD: copyGCD(ram, x), Name: direction(ram, x), Bytes: y.Bytes,
				Profile: x.End - x.Start, Simulated: y.End - y.Start, Start: x.Start})
			if d := direction(sam, y); d != direction(ram, x) {
				return nil, fmt.Errorf("rank %d: copy %d is %s in the profile, %s in the replay", rank, i+1, direction(ram, x), d)
			}
		}
	}
	slices.SortFunc(out, func(a, b Line) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Start, b.Start), cmp.Compare(a.GCD, b.GCD))
	})
	return out, nil
}

// direction names a copy's kind: H2D, D2H, D2D (between GCDs) or H2H.
func direction(am agents, c Copy) string {
	_, s := am.gcd[c.Src]
	_, d := am.gcd[c.Dst]
	return map[[2]bool]string{{false, true}: "H2D", {true, false}: "D2H", {true, true}: "D2D", {false, false}: "H2H"}[[2]bool{s, d}]
}

// copyGCD is a copy's source GCD, or its destination's, or -1.
func copyGCD(am agents, c Copy) int {
	if g, ok := am.gcd[c.Src]; ok {
		return g
	}
	if g, ok := am.gcd[c.Dst]; ok {
		return g
	}
	return -1
}
