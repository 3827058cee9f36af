package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// The percent is Small for a small heap, keeps the garbage between
// collections at Headroom above that, and never falls below Go's default.
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
		{16 << 30, 100},
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
