package hugepages

import (
	"strings"
	"testing"
)

// The mode is the bracketed word, whichever it is.
func TestMode(t *testing.T) {
	for in, want := range map[string]string{
		"always [madvise] never\n": "madvise",
		"[always] madvise never\n": "always",
		"always madvise [never]\n": "never",
		"":                         "",
		"always madvise never":     "",
	} {
		if got := mode(in); got != want {
			t.Errorf("mode(%q) = %q, want %q", in, got, want)
		}
	}
}

// Only private, writable, anonymous mappings of at least a huge page are
// advised: the Go heap (named or not) and its metadata, not files, shared
// or read-only memory, the main stack or the brk heap.
func TestAnonymous(t *testing.T) {
	maps := `00400000-00c80000 r-xp 00000000 fe:00 247278                             /usr/bin/akisim
013af000-018e8000 rw-p 00000000 00:00 0                                  [heap]
3fa5d0000000-3fa5d0800000 rw-p 00000000 00:00 0                          [anon: Go: heap]
3fa5d0800000-3fa5d0a00000 rw-p 00000000 00:00 0
3fa5d0a00000-3fa5d0b00000 rw-p 00000000 00:00 0
7f0000000000-7f0000400000 rw-s 00000000 00:05 12                         /dev/shm/x
7f0000400000-7f0000800000 r--p 00000000 00:00 0
7f0000800000-7f0000c00000 rw-p 00001000 fe:00 99                         /usr/lib/libc.so
7ffd00000000-7ffd00400000 rw-p 00000000 00:00 0                          [stack]
`
	got := anonymous(strings.NewReader(maps), 2<<20)
	want := []span{{0x3fa5d0000000, 0x3fa5d0800000}, {0x3fa5d0800000, 0x3fa5d0a00000}}
	if len(got) != len(want) {
		t.Fatalf("anonymous = %x, want %x", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("span %d = %x, want %x", i, got[i], want[i])
		}
	}
}
