package validate

import "testing"

// Sizes are named in the largest unit that divides them, as the
// benchmarks' figures label them.
func TestSizeName(t *testing.T) {
	for b, want := range map[int64]string{1 << 30: "1 GiB", 3 << 29: "1536 MiB", 64 << 10: "64 KiB", 8: "8 B", 4 << 30: "4 GiB"} {
		if got := sizeName(b); got != want {
			t.Errorf("sizeName(%d) = %q, want %q", b, got, want)
		}
	}
}
