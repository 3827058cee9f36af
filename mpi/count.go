package mpi

import "github.com/akisim/akisim/trace"

// count is how many commands the expansion makes, found before making
// them so that out is made at its size: a large trace's commands are a
// good part of a run's memory, and room to spare (or a slice copied each
// time it grew) was a tenth of the expansion's bytes. It follows start and
// finish (mpi.go, net.go) command for command; TestCountIsExact holds
// the two together.
func (x *expander) count() int {
	n := len(x.eager) // each staged pair's bounce buffer, allocated with its first message
	cache := map[int][]string{}
	for i, o := range x.ops {
		switch o.Op {
		case trace.MPIIsend, trace.MPIIrecv:
			sds, _ := x.sides(i)
			n += x.startCount(i, sds[0], cache)
		case trace.MPISend, trace.MPIRecv, trace.MPISendrecv:
			sds, k := x.sides(i)
			for _, sd := range sds[:k] {
				n += x.startCount(i, sd, cache)
			}
			n += x.finishCount(sds[:k])
		case trace.MPIWait, trace.MPIWaitall, waitReqs:
			n += x.finishCount(x.finished(i))
		default:
			n++
		}
	}
	return n
}

// startCount is how many commands start makes for side sd of call i
// (its bounce buffer aside), opening IPC handles in cache as open does.
func (x *expander) startCount(i int, sd side, cache map[int][]string) int {
	m := x.message(sd)
	switch {
	case m.net && sd.send: // the set-up, the put, and for an inline put from GPU memory the CPU's copy
		if !x.rendezvous(m) && m.bytes <= x.p.Net.InjectBytes && !x.bufs[x.buf(m.send)].Host {
			return 3
		}
		return 2
	case m.net: // the set-up, and a rendezvous' get
		if x.rendezvous(m) {
			return 2
		}
		return 1
	case !sd.send && m.ipc: // the set-up, the handle's open on a miss, the async copy
		n := 1
		if !x.mapped(cache, x.rank(sd), x.buf(m.send)) {
			n++
		}
		if !m.cpuCopy {
			n++
		}
		return n
	case !sd.send:
		return 1
	case m.ipc: // the set-up and the ready flag
		return 2
	}
	return 3 // the set-up, the copy into the bounce buffer, the ready flag
}

// finishCount is how many commands finish makes for sides sds.
func (x *expander) finishCount(sds []side) int {
	n := 0
	for _, sd := range sds {
		m := x.message(sd)
		switch {
		case !sd.send && m.cpuCopy:
			n += 3
		case sd.send || m.ipc:
		case m.net:
			n++
		default:
			n += 2
		}
		if m.ipc || (sd.send && m.net) {
			n++
		}
	}
	return max(n, 1)
}
