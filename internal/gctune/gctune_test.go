package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// The percent is Small for a small heap, keeps the garbage between
// collections at Headroom above that, then Go's default up to
// LargeHeadroom of garbage, then LargeHeadroom down to Floor.
func TestPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, Small},
		{64 << 20, Small},
		{Headroom * 100 / Small, Small},
		{128 << 20, 200},
		{1 << 30, 100},
		{LargeHeadroom, 100},
		{4 << 30, 50},
		{8 << 30, Floor},
		{16 << 30, Floor},
	} {
		if got := Percent(c.live); got != c.want {
			t.Errorf("Percent(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

// With GOGC in the environment start changes nothing; without, it sets
// Small for a small heap, and keeps it over collections.
func TestStart(t *testing.T) {
	t.Setenv("GOGC", "100")
	start()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Fatalf("with GOGC set, start set the percent to %d", p)
	}
	os.Unsetenv("GOGC") // t.Setenv puts it back after the test
	Start()
	Start() // once
	for range 3 {
		runtime.GC()
	}
	if p := debug.SetGCPercent(100); p != Small {
		t.Fatalf("percent %d after Start and three collections, want %d", p, Small)
	}
}

// The tuner changes the percent when the live heap moves it by more than
// a tenth, and only then.
func TestSet(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	tu := &tuner{percent: Small}
	tu.set(128 << 20)
	if tu.percent != 200 || debug.SetGCPercent(200) != 200 {
		t.Fatalf("128 MiB live: percent %d, want 200", tu.percent)
	}
	tu.set(125 << 20) // 204%: within a tenth
	if tu.percent != 200 {
		t.Fatalf("125 MiB live: percent %d, want 200 kept", tu.percent)
	}
	tu.set(1 << 20)
	if tu.percent != Small {
		t.Fatalf("1 MiB live: percent %d, want %d", tu.percent, Small)
	}
}

// Go's soft limit sits an eighth below the memory a run may take: all of
// AKISIM_MEMORY_BYTES whatever the heap holds, and nothing is changed
// under GOMEMLIMIT.
func TestMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(old) })
	t.Setenv("AKISIM_MEMORY_BYTES", "8000000000")
	memoryLimit(3 << 30)
	if got := debug.SetMemoryLimit(-1); got != 7000000000 {
		t.Errorf("AKISIM_MEMORY_BYTES=8000000000, 3 GiB held: limit %d, want 7000000000", got)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(123 << 20)
	if memoryLimit(1 << 30); debug.SetMemoryLimit(-1) != 123<<20 {
		t.Error("GOMEMLIMIT set: the limit changed")
	}
}
