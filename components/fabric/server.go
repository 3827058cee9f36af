package fabric

import "github.com/sarchlab/akita/v3/sim"

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
}

type interval struct{ start, end sim.VTimeInSec }

// Serve books bytes of work that arrives at time at (handed over at now)
// and returns when it is done.
func (s *Server) Serve(now, at sim.VTimeInSec, bytes int) sim.VTimeInSec {
	d := sim.VTimeInSec(float64(bytes) / s.BytesPerSec)
	s.Busy += d
	s.Bytes += uint64(bytes)
	s.prune(now)
	start := at
	i := 0
	for ; i < len(s.busy); i++ {
		iv := s.busy[i]
		if iv.end <= start {
			continue
		}
		if iv.start >= start+d {
			break
		}
		start = iv.end
	}
	s.insert(i, interval{start, start + d})
	return start + d
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

// prune forgets intervals that ended before now: nothing can arrive earlier.
func (s *Server) prune(now sim.VTimeInSec) {
	k := 0
	for k < len(s.busy) && s.busy[k].end < now {
		k++
	}
	if k > 0 {
		s.busy = append(s.busy[:0], s.busy[k:]...)
	}
}

// insert puts iv at index i, merging it with neighbours it touches.
func (s *Server) insert(i int, iv interval) {
	const eps = 1e-15
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
	s.busy = append(s.busy, interval{})
	copy(s.busy[i+1:], s.busy[i:])
	s.busy[i] = iv
}

// Ns converts nanoseconds to simulated seconds.
func Ns(ns float64) sim.VTimeInSec { return sim.VTimeInSec(ns * 1e-9) }

// GBps converts GB/s (1e9 B/s) to bytes per second.
func GBps(g float64) float64 { return g * 1e9 }
