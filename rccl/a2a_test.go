package rccl

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
)

// The 8 MI300X of mi300x-node.toml match RCCL's model 79: its 14 rings,
// listed twice, each directed link under 4 of the 28; doubled to 56
// channels (gfx942 asks for 2 copies within 128 channels).
func TestAllToAllNodeTakesModel79(t *testing.T) {
	top := load(t, "mi300x-node.toml")
	if !top.GPU.GFX942 || top.GPU.CUs != 304 {
		t.Fatalf("GPU %+v, want gfx942 of 304 CUs", top.GPU)
	}
	rings := mustRings(t, top, all(8))
	if len(rings) != 28 {
		t.Fatalf("%d rings, want 28", len(rings))
	}
	use := map[[2]int]int{}
	for _, r := range rings {
		for i, g := range r.GCDs {
			use[[2]int{g, r.GCDs[(i+1)%8]}]++
		}
		if r.GBps != 16 {
			t.Errorf("ring %v at %g GB/s, want a quarter of a 64 GB/s link", r.Ranks, r.GBps)
		}
	}
	if len(use) != 56 {
		t.Errorf("rings cross %d directed links, want all 56", len(use))
	}
	for l, n := range use {
		if n != 4 {
			t.Errorf("link %v under %d rings, want 4", l, n)
		}
	}
	chans, _ := Channels(top.GPU, rings, Options{})
	lines := DebugLines(chans)
	if len(lines) != 56 || lines[0] != "Channel 00/56 :    0   1   2   3   4   5   6   7" ||
		lines[7] != "Channel 07/56 :    0   7   6   5   4   3   2   1" || !slices.Equal(chans[55].Ranks, chans[13].Ranks) {
		t.Errorf("%d channels: %q ... %q", len(lines), lines[0], lines[len(lines)-1])
	}
	// Ranks follow the communicator's order: rank i is on its i-th GCD.
	perm := []int{3, 1, 0, 2, 7, 6, 5, 4}
	for _, r := range mustRings(t, top, perm) {
		if r.Ranks[0] != 0 || !slices.Equal(ranksToGCDs(r.Ranks, perm), r.GCDs) {
			t.Fatalf("ring %v over GCDs %v", r.Ranks, r.GCDs)
		}
	}
	if got := mustRings(t, top, perm)[0].GCDs; fmt.Sprint(got) != "[3 4 5 6 7 0 1 2]" {
		t.Errorf("first ring of %v: GCDs %v, want the model's 0..7 from rank 0's GCD", perm, got)
	}
}

// The model matches only 8 GPUs, four on each of two NUMA domains, joined
// all to all by equal links.
func TestAllToAllMatchNeeds8GPUsOnTwoDomains(t *testing.T) {
	top := load(t, "mi300x-node.toml")
	if n := len(mustRings(t, top, all(4))); n == 28 {
		t.Errorf("4 GPUs took the 8-GPU model")
	}
	for name, sets := range map[string][]string{
		"one NUMA domain": {"host.gcd_numa=[0,0,0,0,0,0,0,0]"},
		"a missing link":  {"xgmi.bundle[0].lanes=0"},
		"a wider link":    {"xgmi.bundle[0].lanes=2"},
	} {
		if n := len(mustRings(t, load(t, "mi300x-node.toml", sets...), all(8))); n == 28 {
			t.Errorf("%s: took model 79's 28 rings", name)
		}
	}
}

// gfx942's channel counts (init.cc, connect.cc): 16 copies for 2 ranks, 4
// for 4; the channel limit is the CU count of a 20-, 38- or 80-CU
// partition, else 128.
func TestChannelsGfx942(t *testing.T) {
	top := load(t, "mi300x-node.toml")
	two := mustRings(t, top, []int{0, 1})
	chans, _ := Channels(top.GPU, two, Options{})
	if want := min(16*len(two), 128); len(chans) != want {
		t.Errorf("2 MI300X: %d channels over %d rings, want %d", len(chans), len(two), want)
	}
	four := mustRings(t, top, all(4))
	if chans, _ := Channels(top.GPU, four, Options{}); len(chans) != 4*len(four) {
		t.Errorf("4 MI300X: %d channels over %d rings, want 4 copies", len(chans), len(four))
	}
	cpx := GPU{GFX942: true, CUs: 38}
	if chans, notes := Channels(cpx, four, Options{MinChannels: intp(40)}); len(chans) > 38 ||
		!strings.Contains(strings.Join(notes, "|"), "above the 38 channels gfx942 allows") {
		t.Errorf("a 38-CU partition: %d channels, notes %q", len(chans), notes)
	}
}

func TestFromConfigReadsTheGPU(t *testing.T) {
	c, err := config.Load("../configs/frontier-node.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := FromConfig(c).GPU; g.GFX942 || g.CUs != 110 {
		t.Errorf("frontier: %+v, want gfx90a of 110 CUs", g)
	}
}

// TestUnrollByDevice: a collective's window is threads x unroll x 16 B,
// with RCCL's unroll 2 on gfx94x devices of more than 80 CUs (MI300X in
// SPX and DPX) and the config's gfx90a value elsewhere (QPX's 76 CUs).
func TestUnrollByDevice(t *testing.T) {
	for _, tc := range []struct {
		name string
		sets []string
		want int64
	}{
		{"frontier-node.toml", nil, 256 * 4 * 16},
		{"frontier-node.toml", []string{"rccl.unroll=8"}, 256 * 8 * 16},
		{"mi300x-node.toml", nil, 256 * 2 * 16},
		{"mi300x-node.toml", []string{"gcd.compute_partition=DPX"}, 256 * 2 * 16},
		{"mi300x-node.toml", []string{"gcd.compute_partition=QPX"}, 256 * 4 * 16},
		{"mi300a-node.toml", nil, 256 * 2 * 16},
		{"mi300a-node.toml", []string{"gcd.compute_partition=TPX"}, 256 * 4 * 16},
	} {
		c, err := config.Load("../configs/"+tc.name, tc.sets)
		if err != nil {
			t.Fatal(err)
		}
		if got := ParamsFromConfig(c).InFlight; got != tc.want {
			t.Errorf("%s %v: %d bytes in flight per channel, want %d", tc.name, tc.sets, got, tc.want)
		}
	}
}
