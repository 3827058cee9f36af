package fabric

import "github.com/sarchlab/akita/v3/sim"

// Server is a resource that serves work one after another at a fixed rate,
// such as a link direction serialising bytes or a memory controller's
// channels: work queues behind earlier work (contention) and its busy
// time is counted.
type Server struct {
	BytesPerSec float64
	free        sim.VTimeInSec
	Busy        sim.VTimeInSec // total time spent serving
	Bytes       uint64         // total bytes served
}

// Serve queues bytes of work arriving at now and returns when it is done.
func (s *Server) Serve(now sim.VTimeInSec, bytes int) sim.VTimeInSec {
	start := now
	if s.free > start {
		start = s.free
	}
	d := sim.VTimeInSec(float64(bytes) / s.BytesPerSec)
	s.free = start + d
	s.Busy += d
	s.Bytes += uint64(bytes)
	return s.free
}

// Interleave serves a small packet that travels in its own virtual channel:
// it does not wait behind queued bulk work, which it delays by its own
// serialisation time instead (packet-level interleaving on the wire).
func (s *Server) Interleave(now sim.VTimeInSec, bytes int) sim.VTimeInSec {
	d := sim.VTimeInSec(float64(bytes) / s.BytesPerSec)
	if s.free > now {
		s.free += d
	} else {
		s.free = now + d
	}
	s.Busy += d
	s.Bytes += uint64(bytes)
	return now + d
}

// Ns converts nanoseconds to simulated seconds.
func Ns(ns float64) sim.VTimeInSec { return sim.VTimeInSec(ns * 1e-9) }

// GBps converts GB/s (1e9 B/s) to bytes per second.
func GBps(g float64) float64 { return g * 1e9 }
