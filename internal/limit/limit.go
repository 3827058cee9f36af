// Package limit checks that a run's large allocations fit in the memory
// the machine has before they are made: running out is neither bad input
// nor a bug, and Go's own out-of-memory death would look like bad input
// (exit 2). akisim reports an *Error as a resource limit (exit 4).
package limit

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Error is an allocation that does not fit.
type Error struct {
	What        string // what would be allocated
	Need, Avail int64  // bytes
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s needs up to %s of memory, more than the %s this machine has free (AKISIM_MEMORY_BYTES sets the limit)",
		e.What, size(e.Need), size(e.Avail))
}

// size is bytes in GiB or MiB, one decimal.
func size(b int64) string {
	if b >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}

var (
	once  sync.Once
	avail int64 // 0: unknown, no limit
)

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

// Available is the memory a run may take: AKISIM_MEMORY_BYTES if set,
// else MemAvailable of /proc/meminfo at the first call (0 if neither).
func Available() int64 {
	// unset, the usual case, is not parsed: a failed parse allocates its
	// error, and a run asks at every managed allocation
	if s := os.Getenv("AKISIM_MEMORY_BYTES"); s != "" {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil && v > 0 {
			return v
		}
	}
	once.Do(func() { avail = memAvailable() })
	return avail
}

// memAvailable reads MemAvailable (kB) of /proc/meminfo; 0 if it cannot.
func memAvailable() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// Memory returns an *Error if need bytes (what for) do not fit in the
// memory available; need < 0 stands for a count that overflowed.
func Memory(what string, need int64) error {
	a := Available()
	if a > 0 && (need < 0 || need > a) || need < 0 {
		if need < 0 {
			need = 1<<63 - 1
		}
		return &Error{What: what, Need: need, Avail: a}
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
