package rccl

import "github.com/akisim/akisim/trace"

// A collective's ring program: what a rank does at each step of a ring
// (RCCL's primitives, src/device/all_reduce.h and its siblings), for one
// piece of data. Steps receive from the previous rank of the ring, reduce
// or copy, and send to the next one.

// action is one primitive step of a rank on one piece.
type action struct {
	piece  int  // which of the n pieces of a loop (allreduce-like) or 0
	recv   bool // reads a slice the previous rank stored into this rank's FIFO
	input  bool // reads this rank's input (to send it, or reduce into what it received)
	output bool // writes this rank's output
	send   bool // stores the result into the next rank's FIFO
	// fromOutput: the input read is of the call's output buffer (the
	// tree's top sends down what it reduced)
	fromOutput bool
}

// ringSteps is the program of the rank at position pos of a ring of n
// ranks for one loop of collective k; root is the ring position of the
// root (rooted collectives). Pieces are indexed by ring position.
func ringSteps(k trace.Kind, n, pos, rootPos int, outOfPlace bool) []action {
	piece := func(s int) int { return ((pos-s)%n + n) % n }
	var a []action
	switch k {
	case trace.RCCLAllReduce:
		a = append(a, action{piece: piece(0), input: true, send: true})
		for s := 1; s < n-1; s++ {
			a = append(a, action{piece: piece(s), recv: true, input: true, send: true})
		}
		a = append(a, action{piece: piece(n - 1), recv: true, input: true, output: true, send: n > 1})
		for s := n; s < 2*n-2; s++ {
			a = append(a, action{piece: piece(s), recv: true, output: true, send: true})
		}
		if n > 1 {
			a = append(a, action{piece: piece(2*n - 2), recv: true, output: true})
		}
	case trace.RCCLReduceScatter:
		a = append(a, action{piece: piece(0), input: true, send: n > 1})
		for s := 1; s < n-1; s++ {
			a = append(a, action{piece: piece(s), recv: true, input: true, send: true})
		}
		if n > 1 {
			a = append(a, action{piece: piece(n - 1), recv: true, input: true, output: true})
		} else {
			a[0].output = true
		}
	case trace.RCCLAllGather:
		a = append(a, action{piece: pos, input: true, output: outOfPlace, send: n > 1})
		for s := 1; s < n; s++ {
			a = append(a, action{piece: piece(s), recv: true, output: true, send: s < n-1})
		}
	case trace.RCCLBroadcast:
		switch q := ((pos-rootPos)%n + n) % n; {
		case q == 0:
			a = append(a, action{input: true, output: outOfPlace, send: n > 1})
		default:
			a = append(a, action{recv: true, output: true, send: q < n-1})
		}
	case trace.RCCLReduce:
		switch q := ((pos-rootPos-1)%n + 2*n) % n; {
		case n == 1:
			a = append(a, action{input: true, output: true})
		case q == 0:
			a = append(a, action{input: true, send: true})
		case q < n-1:
			a = append(a, action{recv: true, input: true, send: true})
		default: // the root
			a = append(a, action{recv: true, input: true, output: true})
		}
	}
	return a
}

// pieces is how many pieces a loop of collective k splits into: the ring
// collectives that pass every rank's share around (allreduce, allgather,
// reduce-scatter) one per rank, the chain ones (broadcast, reduce) one.
func pieces(k trace.Kind, n int) int {
	if k == trace.RCCLBroadcast || k == trace.RCCLReduce {
		return 1
	}
	return n
}

// ringSendSteps is RCCL's nsteps for its latency estimate: the sends a
// rank makes around the ring per loop.
func ringSendSteps(k trace.Kind, n int) int {
	switch k {
	case trace.RCCLAllReduce:
		return 2 * (n - 1)
	case trace.RCCLAllGather, trace.RCCLReduceScatter:
		return n - 1
	}
	return n
}
