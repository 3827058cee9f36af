package limit

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestMemory(t *testing.T) {
	t.Setenv("AKISIM_MEMORY_BYTES", "1048576")
	if err := Memory("small", 1<<20); err != nil {
		t.Errorf("1 MiB of 1 MiB: %v", err)
	}
	var e *Error
	for _, need := range []int64{1<<20 + 1, -1, Product(1<<40, 1<<40)} {
		err := Memory("big", need)
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "big needs up to") {
			t.Errorf("need %d: %v", need, err)
		}
	}
	if err := CheckEnv(); err != nil {
		t.Errorf("AKISIM_MEMORY_BYTES=1048576: %v", err)
	}
	for _, v := range []string{"", "abc", "0", "-5", "1e9", "8GB", "99999999999999999999"} {
		t.Setenv("AKISIM_MEMORY_BYTES", v)
		if err := CheckEnv(); err == nil || !strings.Contains(err.Error(), "AKISIM_MEMORY_BYTES="+`"`+v+`"`) {
			t.Errorf("AKISIM_MEMORY_BYTES=%q: %v, want an error naming it", v, err)
		}
	}
	if Product(1<<62, 2) != -1 || Product(3, 4) != 12 || Product(0, 1<<62) != 0 {
		t.Error("Product")
	}
}

// The limits are read again once they are Refresh old: memory another
// process takes while a run goes on is no longer counted on, and no read
// happens between refreshes.
func TestLimitsAreReadAgain(t *testing.T) {
	t.Setenv("AKISIM_MEMORY_BYTES", "")
	saved, savedNow := readers, now
	t.Cleanup(func() { readers, now = saved, savedNow; read = time.Time{} })
	clock := time.Unix(1000, 0)
	now = func() time.Time { return clock }
	avail, reads := int64(8<<30), 0
	readers.free = func() int64 { reads++; return avail }
	readers.addrSpace, readers.cgroup = func() int64 { return 0 }, func() int64 { return 0 }
	read = time.Time{}
	if err := Memory("a run", 6<<30); err != nil {
		t.Fatalf("6 GiB of 8 free: %v", err)
	}
	avail = 4 << 30 // another process takes half
	clock = clock.Add(Refresh / 2)
	if err := Memory("a run", 6<<30); err != nil || reads != 1 {
		t.Errorf("within %v of the last read: %v after %d reads, want the 8 GiB read once", Refresh, err, reads)
	}
	clock = clock.Add(Refresh)
	var e *Error
	if err := Memory("a run", 6<<30); !errors.As(err, &e) || e.Avail != 4<<30 || reads != 2 {
		t.Errorf("after %v: %v after %d reads, want the 4 GiB now free to bind", Refresh, err, reads)
	}
}
