package rccl

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// ringIndex names each channel's ring by its place in rings.
func ringIndex(rings, channels []Ring) []int {
	var idx []int
	for _, c := range channels {
		idx = append(idx, slices.IndexFunc(rings, func(r Ring) bool { return slices.Equal(r.Ranks, c.Ranks) }))
	}
	return idx
}

func TestChannels(t *testing.T) {
	frontier := mustRings(t, load(t, "frontier-node.toml"), all(8))
	quad := mustRings(t, load(t, "frontier-node.toml"), []int{0, 1})
	seven := mustRings(t, load(t, "frontier-node.toml"), []int{0, 1, 6, 7, 2, 3, 4})
	one := mustRings(t, load(t, "frontier-node.toml"), []int{0})
	repeat := func(n, period int) string {
		var s []string
		for c := range n {
			s = append(s, fmt.Sprint(c%period))
		}
		return "[" + strings.Join(s, " ") + "]"
	}
	for _, tc := range []struct {
		name     string
		rings    []Ring
		min, max *int
		want     string // ring of each channel
		note     string
	}{
		{"default", frontier, nil, nil, repeat(16, 4), ""},
		{"-2 is unset", frontier, intp(-2), intp(-2), repeat(16, 4), ""},
		{"max 4", frontier, nil, intp(4), "[0 1 2 3]", ""},
		{"max 6", frontier, nil, intp(6), "[0 1 2 3 0 1]", ""},
		{"max 2", frontier, nil, intp(2), "[0 1]", ""},
		// The default minimum of 2 copies the one channel left.
		{"max 1", frontier, nil, intp(1), "[0 0]", ""},
		{"max 1 min 0", frontier, intp(0), intp(1), "[0]", ""},
		{"max 0", frontier, nil, intp(0), "[0 0]", "NCCL_MAX_NCHANNELS=0 below 1"},
		{"max 5 min 7", frontier, intp(7), intp(5), "[0 1 2 3 0 0 1]", ""},
		{"max 100", frontier, nil, intp(100), repeat(16, 4), ""},
		{"min 20", frontier, intp(20), nil, repeat(20, 4), ""},
		{"min 32", frontier, intp(32), nil, repeat(32, 4), ""},
		{"min 33", frontier, intp(33), nil, repeat(16, 4), "NCCL_MIN_NCHANNELS=33 ignored: above the 32"},
		{"min 200", frontier, intp(200), nil, repeat(16, 4), "NCCL_MIN_NCHANNELS=200 above 128"},
		{"min 100, 7 ranks", seven, intp(100), nil, repeat(8, 2), "above 64 with fewer than 8 GPUs"},
		{"min -5", frontier, intp(-5), nil, repeat(16, 4), ""},
		{"3 rings", quad, nil, nil, fmt.Sprint(make([]int, 24)), ""}, // the same ring 6 times (3, doubled by the search)
		{"2 rings", seven, nil, nil, repeat(8, 2), ""},
		{"64 rings", one, nil, nil, fmt.Sprint(make([]int, 32)), ""},
	} {
		channels, notes := Channels(GPU{}, tc.rings, Options{MinChannels: tc.min, MaxChannels: tc.max})
		if got := fmt.Sprint(ringIndex(tc.rings, channels)); got != tc.want {
			t.Errorf("%s: channels run rings %s, want %s", tc.name, got, tc.want)
		}
		if all := strings.Join(notes, "|"); (tc.note == "") != (all == "") || !strings.Contains(all, tc.note) {
			t.Errorf("%s: notes %q, want %q", tc.name, notes, tc.note)
		}
	}
}

func TestChannelsNoRings(t *testing.T) {
	if c, n := Channels(GPU{}, nil, Options{}); c != nil || n != nil {
		t.Errorf("no rings: %v %v", c, n)
	}
}
