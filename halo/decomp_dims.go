package halo

import (
	"fmt"
	"sort"
)

// DimsCreate is MPI_Dims_create(nnodes, ndims, dims) with every dims[i] = 0,
// as MPICH computes it (src/mpi/topo/dims_create.c, MPIR_Dims_create_impl):
// primes larger than the square root of what is left are set aside first,
// then the trivial cases, then a round-robin first guess improved by
// optbalance's pruned search. Cray MPICH derives from MPICH; acm calls it
// with zeros (acc-comm/acm/detail/mpi_utils.cc:111). The result is in MPI's
// order (non-increasing; MPI dimension 0 is the slowest-varying axis).
func DimsCreate(nnodes, ndims int) ([]int, error) {
	if nnodes < 1 {
		return nil, fmt.Errorf("procs: %d, want at least 1", nnodes)
	}
	if ndims < 1 {
		return nil, fmt.Errorf("dims: %d axes, want at least 1", ndims)
	}
	chosen := make([]int, ndims)
	if ndims == 1 {
		chosen[0] = nnodes
		return chosen, nil
	}
	f, nprimes := primePowers(nnodes)
	n := nnodes

	// A prime above sqrt(n) can share a dimension with nothing: it takes one
	// of its own, from the largest down (MPICH never removes f[0]).
	next := 0
	for j := len(f) - 1; j > 0 && next < ndims-1; j-- {
		if f[j].cnt != 1 || f[j].val*f[j].val <= n {
			break
		}
		chosen[next] = f[j].val
		next++
		n /= f[j].val
		nprimes--
		f = f[:j]
	}

	switch {
	case nprimes+next <= ndims: // one prime per dimension, the largest first
		i := next + nprimes
		for _, p := range f {
			for m := 0; m < p.cnt; m++ {
				i--
				chosen[i] = p.val
			}
		}
		for i = next + nprimes; i < ndims; i++ {
			chosen[i] = 1
		}
		return chosen, nil
	case ndims-next == 1:
		chosen[next] = n
		return chosen, nil
	case len(f) == 1: // a power of one prime: deal it round robin
		for k := next; k < ndims; k++ {
			chosen[k] = 1
		}
		k := next
		for c := f[0].cnt; c > 0; c-- {
			if k >= ndims {
				k = next
			}
			chosen[k] *= f[0].val
			k++
		}
		return chosen, nil
	}
	left := ndims - next
	if even := equalPowers(f, left); even > 0 {
		for j := next; j < ndims; j++ {
			chosen[j] = even
		}
		return chosen, nil
	}

	divs := properDivisors(f)
	roundRobinGuess(f, chosen[next:])
	// MPICH takes the first balance over all of chosen (its own comment
	// says this is not quite right when large primes were set aside).
	curbal := chosen[0] - chosen[ndims-1]
	try := make([]int, left)
	try[left-1] = divs[0]
	optBalance(n, left-1, left, divs, try, &curbal, chosen[next:])
	return chosen, nil
}

type primePower struct{ val, cnt int }

// primePowers factors n into primes in increasing order with their
// multiplicities, and the number of primes counted with multiplicity.
func primePowers(n int) ([]primePower, int) {
	var f []primePower
	all := 0
	for p := 2; p*p <= n; p++ {
		if n%p != 0 {
			continue
		}
		c := 0
		for n%p == 0 {
			n /= p
			c++
		}
		f = append(f, primePower{p, c})
		all += c
	}
	if n > 1 {
		f = append(f, primePower{n, 1})
		all++
	}
	return f, all
}

// equalPowers is the product of p^(cnt/parts) when every multiplicity
// divides into parts equal shares, else 0.
func equalPowers(f []primePower, parts int) int {
	v := 1
	for _, p := range f {
		if p.cnt%parts != 0 {
			return 0
		}
		for k := 0; k < p.cnt/parts; k++ {
			v *= p.val
		}
	}
	return v
}

// properDivisors lists the divisors of prod(f) other than 1 and itself, in
// increasing order.
func properDivisors(f []primePower) []int {
	divs := []int{1}
	for _, p := range f {
		cur := len(divs)
		pk := 1
		for k := 1; k <= p.cnt; k++ {
			pk *= p.val
			for _, d := range divs[:cur] {
				divs = append(divs, d*pk)
			}
		}
	}
	sort.Ints(divs)
	return divs[1 : len(divs)-1]
}

// roundRobinGuess is MPICH's factor_to_dims_by_rr: the largest primes first,
// one per dimension, then each remaining prime to the last dimension that
// stays no larger than the one before it (or to dims[0]).
func roundRobinGuess(f []primePower, dims []int) {
	for i := range dims {
		dims[i] = 1
	}
	k := 0
	for i := len(f) - 1; i >= 0; i-- {
		for j := 0; j < f[i].cnt; j++ {
			if k < len(dims) {
				dims[k] = f[i].val
				k++
				continue
			}
			kk := len(dims) - 1
			for ; kk > 0; kk-- {
				if dims[kk]*f[i].val <= dims[kk-1] {
					break
				}
			}
			dims[kk] *= f[i].val
		}
	}
}

// optBalance is MPICH's optbalance: it fills try[idx], try[idx-1], ... with
// divisors of n from the smallest up, pruning when a choice cannot beat the
// balance (largest - smallest) known on entry, and copies an improvement
// into opt. The pruning and the ties (an equal balance replaces the current
// choice) decide which of several equally balanced answers MPICH returns.
func optBalance(n, idx, nd int, divs, try []int, curbalP *int, opt []int) {
	min := try[nd-1]
	curbal := *curbalP // the bound on entry, not updated by deeper calls
	switch {
	case idx > 1:
		newdivs := make([]int, len(divs))
		for k, f := range divs {
			if idx < nd-1 && f-min > curbal {
				break
			}
			q := n / f
			nn := 0
			var sf int
			switch {
			case q%f == 0:
				newdivs[nn] = f
				nn++
				sf = f
			case k+1 < len(divs):
				sf = divs[k+1]
			default:
				return
			}
			if idx < nd-1 && sf-min > curbal {
				break
			}
			ff := sf * sf // at least two more divisors, each >= sf
			ii := idx - 1
			for ; ii > 0 && ff <= q; ii-- {
				ff *= sf
			}
			if ii > 0 {
				break
			}
			try[idx] = f
			for _, g := range divs[k+1:] {
				if g*g > q {
					break
				}
				if q%g == 0 {
					newdivs[nn] = g
					nn++
				}
			}
			if nn > 0 {
				optBalance(q, idx-1, nd, newdivs[:nn], try, curbalP, opt)
			}
		}
	case idx == 1:
		qprev := -1
		k := 1
		for ; k < len(divs); k++ {
			q := n / divs[k]
			if q < divs[k] {
				break
			}
			qprev = q
		}
		f := divs[k-1]
		q := n / f
		if qprev > 0 {
			q = qprev
		}
		if q < f {
			return
		}
		testbal := q - min
		if nd == 2 {
			testbal = q - f
		}
		if testbal <= curbal {
			copy(opt[2:nd], try[2:nd])
			opt[0], opt[1] = q, f
			*curbalP = q - min
		}
	default:
		if n-min <= curbal {
			copy(opt[1:nd], try[1:nd])
			opt[0] = n
			*curbalP = n - min
		}
	}
}
