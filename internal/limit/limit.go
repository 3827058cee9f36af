// Package limit checks that a run's large allocations fit in the memory
// it may take before they are made: running out is neither bad input nor
// a bug, and Go's own out-of-memory death would look like bad input
// (exit 2). akisim reports an *Error as a resource limit (exit 4).
//
// The memory a run may take is the least of what binds it: the machine's
// free memory (or AKISIM_MEMORY_BYTES in its place), the address space
// left under RLIMIT_AS (ulimit -v), and the memory left under its cgroup's
// limit. They are read at the first ask and again at an ask a second or
// more after the last read: a second heavy process that starts while a
// run goes on takes memory the run then no longer counts on.
package limit

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// Error is an allocation that does not fit.
type Error struct {
	What        string // what would be allocated
	Need, Avail int64  // bytes
	By          Bound  // the limit that binds
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s needs up to %s of memory, more than the %s %s; %s, or make the run smaller",
		e.What, size(e.Need), size(e.Avail), e.By.leaves(), e.By.raise())
}

// Bound is a source of the memory limit.
type Bound int

const (
	Free      Bound = iota // MemAvailable of /proc/meminfo
	Env                    // AKISIM_MEMORY_BYTES
	AddrSpace              // RLIMIT_AS (ulimit -v), less what is mapped
	Cgroup                 // the cgroup's memory limit, less its usage
)

func (b Bound) leaves() string {
	switch b {
	case Env:
		return "AKISIM_MEMORY_BYTES allows"
	case AddrSpace:
		return "of address space the limit of ulimit -v (RLIMIT_AS) leaves"
	case Cgroup:
		return "the cgroup's memory limit leaves"
	}
	return "this machine has free"
}

func (b Bound) raise() string {
	switch b {
	case Env:
		return "raise AKISIM_MEMORY_BYTES"
	case AddrSpace:
		return "raise ulimit -v"
	case Cgroup:
		return "ask the batch system for more memory"
	}
	return "free memory or set AKISIM_MEMORY_BYTES to allow more"
}

// size is bytes in GiB or MiB, one decimal.
func size(b int64) string {
	if b >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}

var (
	mu sync.Mutex
	// the limits as last read, and when; 0: none known
	free, addrSpace, cgroup int64
	read                    time.Time
	// how they are read and what time it is: tests stand in for the machine
	readers = struct{ free, addrSpace, cgroup func() int64 }{memAvailable, addrSpaceLeft, cgroupLeft}
	now     = time.Now
)

// Refresh is how old the limits may be at an ask.
const Refresh = time.Second

// CheckEnv says what is wrong with AKISIM_MEMORY_BYTES, if it is set and
// not a positive whole number of bytes; a value Available cannot read
// would otherwise leave the limit at the machine's free memory unnoticed.
func CheckEnv() error {
	s, set := os.LookupEnv("AKISIM_MEMORY_BYTES")
	if !set {
		return nil
	}
	if v, err := strconv.ParseInt(s, 10, 64); err != nil || v <= 0 {
		return fmt.Errorf("environment AKISIM_MEMORY_BYTES=%q: want a positive whole number of bytes (e.g. 8000000000), or unset it to use the machine's free memory", s)
	}
	return nil
}

// Available is the memory a run may take (0 if no limit is known).
func Available() int64 { a, _ := Binding(); return a }

// Binding is the memory a run may take and the limit that sets it.
func Binding() (int64, Bound) {
	mu.Lock()
	if t := now(); read.IsZero() || t.Sub(read) >= Refresh {
		free, addrSpace, cgroup, read = readers.free(), readers.addrSpace(), readers.cgroup(), t
	}
	a, by, as, cg := free, Free, addrSpace, cgroup
	mu.Unlock()
	// unset, the usual case, is not parsed: a failed parse allocates its
	// error, and a run asks at every managed allocation
	if s := os.Getenv("AKISIM_MEMORY_BYTES"); s != "" {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil && v > 0 {
			a, by = v, Env // in place of free memory: the user may allow more
		}
	}
	for _, l := range []struct {
		v  int64
		by Bound
	}{{as, AddrSpace}, {cg, Cgroup}} {
		if l.v > 0 && (a == 0 || l.v < a) {
			a, by = l.v, l.by
		}
	}
	return a, by
}

// Holdable is the memory a process that holds held bytes may hold: those
// and what is left to it now, or the whole of AKISIM_MEMORY_BYTES, which
// counts what the process holds; 0 if no limit is known.
func Holdable(held uint64) int64 {
	a, by := Binding()
	if a <= 0 {
		return 0
	}
	if by != Env {
		a += int64(held)
	}
	return a
}

// Memory returns an *Error if need bytes (what for) do not fit in the
// memory available; need < 0 stands for a count that overflowed.
func Memory(what string, need int64) error {
	a, by := Binding()
	if a > 0 && (need < 0 || need > a) || need < 0 {
		if need < 0 {
			need = 1<<63 - 1
		}
		return &Error{What: what, Need: need, Avail: a, By: by}
	}
	return nil
}

// Product is a*b, or -1 if it overflows int64 (a, b >= 0).
func Product(a, b int64) int64 {
	if a != 0 && b > (1<<63-1)/a {
		return -1
	}
	return a * b
}
