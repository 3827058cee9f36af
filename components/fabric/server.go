package fabric

import (
	"math"

	"github.com/sarchlab/akita/v3/sim"
)

// Server is a resource that serves work one piece at a time at a fixed
// rate, such as a link direction serialising bytes or a memory's channels:
// work waits while the resource is busy (contention) and its busy time is
// counted. Work may be handed over before it logically arrives (packets
// carry latency as lag), so the server keeps a short calendar of busy
// intervals and fits each piece into the first gap at or after its arrival.
type Server struct {
	BytesPerSec float64
	busy        []interval     // sorted, disjoint, merged when touching
	Busy        sim.VTimeInSec // total time spent serving
	Bytes       uint64         // total bytes served
	// buf is busy's array from its start: prune drops intervals by
	// moving busy's start on, and room is made again only when busy
	// reaches the array's end (a copy on every prune was a tenth of it)
	buf []interval
}

type interval struct{ start, end sim.VTimeInSec }

// eps is how close bookings merge and how little work is none.
const eps = 1e-15

// Serve books bytes of work that arrives at time at (handed over at now)
// and returns when it is done.
func (s *Server) Serve(now, at sim.VTimeInSec, bytes int) sim.VTimeInSec {
	_, done := s.serve(now, at, bytes)
	return done
}

// serve books the work into the gaps of the calendar from at on, as many
// as it needs: the resource interleaves work at a fine grain (bursts, wire
// packets), so a piece handed over late still fills an earlier gap, and
// how big the simulation's pieces are does not change the throughput. It
// returns when the work starts and when it is done.
func (s *Server) serve(now, at sim.VTimeInSec, bytes int) (start, done sim.VTimeInSec) {
	d := sim.VTimeInSec(float64(bytes) / s.BytesPerSec)
	s.Busy += d
	s.Bytes += uint64(bytes)
	s.prune(now)
	if d <= eps { // no work: done as it arrives
		return at, at
	}
	if n := len(s.busy); n == 0 || s.busy[n-1].start <= at {
		// at or after the start of the last booking, as most work comes:
		// what the loop below does then, without it
		if n > 0 && s.busy[n-1].end > at { // behind the last booking
			start = s.busy[n-1].end
			s.busy[n-1].end = start + d
			return start, start + d
		}
		done = at + d
		if n > 0 && s.busy[n-1].end >= at-eps {
			s.busy[n-1].end = done
		} else {
			s.grow()
			s.busy[n] = interval{at, done}
		}
		return at, done
	}
	return s.fill(at, d)
}

// fill books d of work from at on into the gaps, returning when it
// starts and when it is done.
func (s *Server) fill(at, d sim.VTimeInSec) (start, done sim.VTimeInSec) {
	t, left := at, d
	start = -1
	i := 0
	for left > eps {
		for i < len(s.busy) && s.busy[i].end <= t {
			i++
		}
		if i < len(s.busy) && s.busy[i].start <= t {
			t = s.busy[i].end
			continue
		}
		gapEnd := sim.VTimeInSec(math.Inf(1))
		if i < len(s.busy) {
			gapEnd = s.busy[i].start
		}
		take := min(left, gapEnd-t)
		if start < 0 {
			start = t
		}
		s.insert(i, interval{t, t + take})
		i = max(0, i-1) // the insert may have merged neighbours: rescan from the one before
		t += take
		left -= take
	}
	if start < 0 {
		start = at
	}
	return start, max(t, at)
}

// Stream serves bytes that arrive as a stream: the first at time at (handed
// over at now), the last spread later. The resource passes them on as they
// come (cut-through): it returns when the first byte leaves and how long
// after it the last follows, never before the last has arrived.
func (s *Server) Stream(now, at sim.VTimeInSec, bytes int, spread sim.VTimeInSec) (first, after sim.VTimeInSec) {
	start, done := s.serve(now, at, bytes)
	last := max(done, at+spread)
	return start, last - start
}

// Interleave serves a small packet that travels in its own virtual channel:
// it does not wait behind booked bulk work, which it delays by its own
// serialisation time instead (packet-level interleaving on the wire).
func (s *Server) Interleave(now, at sim.VTimeInSec, bytes int) sim.VTimeInSec {
	d := sim.VTimeInSec(float64(bytes) / s.BytesPerSec)
	s.Busy += d
	s.Bytes += uint64(bytes)
	s.prune(now)
	if n := len(s.busy); n > 0 && s.busy[n-1].end > at {
		s.busy[n-1].end += d
	} else {
		s.insert(n, interval{at, at + d})
	}
	return at + d
}

// Backlog is the work booked from now on: how long the resource stays
// busy with what it already holds (a queue's depth in time).
func (s *Server) Backlog(now sim.VTimeInSec) sim.VTimeInSec {
	var b sim.VTimeInSec
	for _, iv := range s.busy {
		if iv.end > now {
			b += iv.end - max(iv.start, now)
		}
	}
	return b
}

// prune forgets intervals that ended before now: nothing can arrive earlier.
func (s *Server) prune(now sim.VTimeInSec) {
	k := 0
	for k < len(s.busy) && s.busy[k].end < now {
		k++
	}
	if k > 0 {
		s.busy = s.busy[k:]
	}
}

// grow adds an interval at busy's end, moving busy to the start of its
// array first when it has reached the array's end.
func (s *Server) grow() {
	if len(s.busy) == cap(s.busy) && cap(s.busy) < cap(s.buf) {
		s.busy = s.buf[:copy(s.buf[:cap(s.buf)], s.busy)]
	}
	full := len(s.busy) == cap(s.busy)
	s.busy = append(s.busy, interval{})
	if full { // a new array
		s.buf = s.busy[:0]
	}
}

// insert puts iv at index i, merging it with neighbours it touches.
func (s *Server) insert(i int, iv interval) {
	if i > 0 && s.busy[i-1].end >= iv.start-eps {
		s.busy[i-1].end = iv.end
		if i < len(s.busy) && s.busy[i].start <= iv.end+eps {
			s.busy[i-1].end = s.busy[i].end
			s.busy = append(s.busy[:i], s.busy[i+1:]...)
		}
		return
	}
	if i < len(s.busy) && s.busy[i].start <= iv.end+eps {
		s.busy[i].start = iv.start
		return
	}
	s.grow()
	if i < len(s.busy)-1 {
		copy(s.busy[i+1:], s.busy[i:])
	}
	s.busy[i] = iv
}

// Ns converts nanoseconds to simulated seconds.
func Ns(ns float64) sim.VTimeInSec { return sim.VTimeInSec(ns * 1e-9) }

// GBps converts GB/s (1e9 B/s) to bytes per second.
func GBps(g float64) float64 { return g * 1e9 }
