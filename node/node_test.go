package node

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/config"
)

func build(t *testing.T, name string, sets ...string) *Node {
	t.Helper()
	c, err := config.Load(filepath.Join("..", "configs", name), sets)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestFrontierWiring(t *testing.T) {
	n := build(t, "frontier-node.toml")
	if len(n.GCDs) != 8 || len(n.Bundles) != 12 || len(n.HostLinks) != 8 || len(n.DRAM) != 4 {
		t.Fatalf("%d GCDs, %d bundles, %d host links, %d NUMA domains", len(n.GCDs), len(n.Bundles), len(n.HostLinks), len(n.DRAM))
	}
	for pair, lanes := range map[[2]int]int{{0, 1}: 4, {6, 0}: 2, {2, 0}: 1} {
		if b := n.BundleOf[pair]; b == nil || b.Lanes() != lanes {
			t.Errorf("bundle %v: %v, want %d lanes", pair, b, lanes)
		}
	}
	if n.BundleOf[[2]int{0, 3}] != nil {
		t.Error("0-3 has a bundle")
	}
}

// SDMA data takes the widest route, completion signals the fewest-hop one.
func TestRouteTables(t *testing.T) {
	r := build(t, "frontier-node.toml").Routes
	if got := r.DataRoutes(1, 7); !reflect.DeepEqual(got, []fabric.Route{{1, 0, 6, 7}}) {
		t.Errorf("data 1->7: %v", got)
	}
	if got := r.SignalRoute(1, 7); got.Hops() != 2 {
		t.Errorf("signal 1->7: %v, want a 2-hop route", got)
	}
	if got := r.DataRoutes(0, 8); !reflect.DeepEqual(got, []fabric.Route{{0, 8}}) {
		t.Errorf("GCD 0 to host: %v", got)
	}
	if h := r.HubOf(fabric.Memory{Host: true, Index: 2}); h != 8 {
		t.Errorf("host memory behind hub %d, want 8", h)
	}
}

// Widening the single inter-package bundles changes the routes: 0->3 no
// longer ties, 1->7 no longer needs three hops.
func TestDualConfigRoutes(t *testing.T) {
	r := build(t, "frontier-dual-xgmi.toml").Routes
	if got := r.DataRoutes(1, 7); len(got) != 2 || got[0].Hops() != 2 {
		t.Errorf("data 1->7 on the dual node: %v, want the two 2-hop routes", got)
	}
	removed := build(t, "frontier-node.toml", "xgmi.bundle[0-2].lanes=0").Routes
	for _, rt := range removed.DataRoutes(0, 2) {
		if rt.Hops() < 2 {
			t.Errorf("0->2 without its bundle still direct: %v", rt)
		}
	}
}

// An MI300X platform: 8 devices of 8 XCDs, each XCD its own L2, one MALL
// per device in front of its HBM, 2 + 14 SDMA engines, one xGMI link
// between every two devices, a PCIe link each to its socket; Frontier's
// GCDs are one XCD each and have no MALL, and mall.bytes=0 removes it.
func TestMI300XWiring(t *testing.T) {
	n := build(t, "mi300x-node.toml")
	if len(n.GCDs) != 8 || len(n.Bundles) != 28 || len(n.HostLinks) != 8 || len(n.DRAM) != 2 {
		t.Fatalf("%d devices, %d bundles, %d host links, %d NUMA domains", len(n.GCDs), len(n.Bundles), len(n.HostLinks), len(n.DRAM))
	}
	for _, g := range n.GCDs {
		if len(g.L2s) != 8 || g.MALL == nil || g.CUs.Count() != 304 || len(g.HostEngines) != 2 || len(g.XGMIEngines) != 14 {
			t.Fatalf("device %d: %d L2s, MALL %v, %d CUs, %d+%d engines", g.ID, len(g.L2s), g.MALL != nil, g.CUs.Count(), len(g.HostEngines), len(g.XGMIEngines))
		}
		if got := g.MALL.Capacity(); got != 256<<20 {
			t.Errorf("device %d: MALL of %d bytes", g.ID, got)
		}
	}
	for a := 0; a < 8; a++ {
		for b := a + 1; b < 8; b++ {
			if l := n.BundleOf[[2]int{a, b}]; l == nil || l.Lanes() != 1 {
				t.Errorf("%d-%d: %v, want one link", a, b, l)
			}
		}
	}
	if g := build(t, "mi300x-node.toml", "mall.bytes=0").GCDs[0]; g.MALL != nil {
		t.Error("mall.bytes=0 left a MALL")
	}
	if g := build(t, "frontier-node.toml").GCDs[0]; g.MALL != nil || len(g.L2s) != 1 || g.L2 != g.L2s[0] {
		t.Errorf("Frontier GCD: MALL %v, %d L2s", g.MALL != nil, len(g.L2s))
	}
}

// An MI300A node: 4 APUs of 6 XCDs (228 CUs), a MALL each, 2 xGMI links
// between every two; no DDR: each NUMA domain is its APU's HBM, so host
// memory's hub is the APU's own; a Frontier node's is the IO die.
func TestMI300AWiring(t *testing.T) {
	n := build(t, "mi300a-node.toml")
	if len(n.GCDs) != 4 || len(n.Bundles) != 6 || len(n.HostLinks) != 4 || len(n.DRAM) != 0 || len(n.NICs) != 4 {
		t.Fatalf("%d APUs, %d bundles, %d host links, %d DRAM controllers, %d NICs", len(n.GCDs), len(n.Bundles), len(n.HostLinks), len(n.DRAM), len(n.NICs))
	}
	for g, d := range n.GCDs {
		if len(d.L2s) != 6 || d.MALL == nil || d.CUs.Count() != 228 {
			t.Fatalf("APU %d: %d L2s, MALL %v, %d CUs", g, len(d.L2s), d.MALL != nil, d.CUs.Count())
		}
		if hub := n.Routes.HubOf(fabric.Memory{Host: true, Index: g}); hub != g {
			t.Errorf("NUMA domain %d's memory is behind hub %d, want APU %d's", g, hub, g)
		}
	}
	for a := 0; a < 4; a++ {
		for b := a + 1; b < 4; b++ {
			if l := n.BundleOf[[2]int{a, b}]; l == nil || l.Lanes() != 2 {
				t.Errorf("%d-%d: %v, want two links", a, b, l)
			}
		}
	}
	f := build(t, "frontier-node.toml")
	if hub := f.Routes.HubOf(fabric.Memory{Host: true, Index: 0}); hub != f.Host.ID || len(f.DRAM) != 4 {
		t.Errorf("Frontier: NUMA 0 behind hub %d (IO die %d), %d DRAM controllers", hub, f.Host.ID, len(f.DRAM))
	}
}

// CPX/NPS4 on the MI300X platform: 64 devices of one XCD; partition 0 of
// each GPU carries its xGMI links, the others reach it over the IOD.
func TestPartitionWiring(t *testing.T) {
	n := build(t, "mi300x-node.toml", "gcd.compute_partition=CPX", "gcd.memory_partition=NPS4")
	if len(n.GCDs) != 64 || len(n.HostLinks) != 64 || len(n.Bundles) != 28+8*7 {
		t.Fatalf("%d devices, %d host links, %d bundles", len(n.GCDs), len(n.HostLinks), len(n.Bundles))
	}
	for pair, lanes := range map[[2]int]int{{0, 8}: 1, {8, 0}: 1, {56, 48}: 1, {0, 7}: 16, {9, 8}: 16} {
		if b := n.BundleOf[pair]; b == nil || b.Lanes() != lanes {
			t.Errorf("bundle %v: %v, want %d lanes", pair, b, lanes)
		}
	}
	for _, pair := range [][2]int{{1, 9}, {1, 2}} {
		if n.BundleOf[pair] != nil {
			t.Errorf("%v has a bundle", pair)
		}
	}
	if d := n.GCDs[9]; len(d.L2s) != 1 || d.CUs.Count() != 38 || len(d.Engines()) != 2 || d.MALL == nil {
		t.Errorf("device 9: %d L2s, %d CUs, %d engines, MALL %v", len(d.L2s), d.CUs.Count(), len(d.Engines()), d.MALL)
	}
	if rt := n.Routes.DataRoutes(1, 9); len(rt) == 0 || !reflect.DeepEqual(rt[0], fabric.Route{1, 0, 8, 9}) {
		t.Errorf("device 1 to 9: %v, want through 0 and 8", rt)
	}
}
