package config

import (
	"bytes"
	"reflect"
	"testing"
)

// Partition modes a GPU does not have, or that do not fit together, are
// one-line errors naming the key.
func TestPartitionErrors(t *testing.T) {
	path := shippedPath(t, "mi300x-node.toml")
	for _, c := range []struct {
		sets []string
		want string
	}{
		{[]string{"gcd.compute_partition=XPX"}, `-set gcd.compute_partition=XPX: must be "SPX", "DPX", "TPX", "QPX" or "CPX", got "XPX"`},
		{[]string{"gcd.memory_partition=NPS2"}, `-set gcd.memory_partition=NPS2: must be "NPS1" or "NPS4", got "NPS2"`},
		{[]string{"gcd.compute_partition=TPX"}, `-set gcd.compute_partition=TPX: TPX makes 3 devices, which must divide gcd.xcds (8)`},
		{[]string{"gcd.memory_partition=NPS4"}, `-set gcd.memory_partition=NPS4: NPS4 makes 4 memory partitions: AMD pairs NPS4 with CPX only, and its partitions must divide the devices (1 with SPX)`},
		{[]string{"gcd.compute_partition=QPX", "gcd.memory_partition=NPS4"}, `-set gcd.memory_partition=NPS4: NPS4 makes 4 memory partitions: AMD pairs NPS4 with CPX only, and its partitions must divide the devices (4 with QPX)`},
		{[]string{"gcd.compute_partition=DPX", "gcd.memory_partition=NPS4"}, `-set gcd.memory_partition=NPS4: NPS4 makes 4 memory partitions: AMD pairs NPS4 with CPX only, and its partitions must divide the devices (2 with DPX)`},
		{[]string{"gcd.compute_partition=CPX", "gcd.memory_partition=NPS4", "mall.channels=126"}, `-set mall.channels=126: must split into 4 memory partitions with NPS4, got 126`},
	} {
		_, err := Load(path, c.sets)
		if err == nil || !matches(err.Error(), c.want) {
			t.Errorf("%v:\n got %v\nwant %s", c.sets, err, c.want)
		}
	}
	// MI300A's 6 XCDs: TPX is 3 devices of 2, NPS4 does not divide them
	a := shippedPath(t, "mi300a-node.toml")
	if _, err := Load(a, []string{"gcd.compute_partition=TPX"}); err != nil {
		t.Errorf("MI300A TPX: %v", err)
	}
	if _, err := Load(a, []string{"gcd.compute_partition=DPX"}); err == nil || err.Error() != `-set gcd.compute_partition=DPX: DPX is not a mode AMD names for a device of 6 XCDs (SPX, TPX, CPX)` {
		t.Errorf("MI300A DPX: %v", err)
	}
	want := `-set gcd.memory_partition=NPS4: NPS4 makes 4 memory partitions: AMD pairs NPS4 with CPX only, and its partitions must divide the devices (6 with CPX)`
	if _, err := Load(a, []string{"gcd.compute_partition=CPX", "gcd.memory_partition=NPS4"}); err == nil || err.Error() != want {
		t.Errorf("MI300A CPX/NPS4:\n got %v\nwant %s", err, want)
	}
}

// CPX/NPS4 on 8 MI300X: 64 devices of one XCD, each with an eighth of
// the HBM's capacity and of the MALL, the channels of its quarter, one
// host and one xGMI engine; partition 0 of each GPU carries its links.
func TestPartitionDevices(t *testing.T) {
	path := shippedPath(t, "mi300x-node.toml")
	spx, err := Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := spx.Partitioning(); p != (Partitioning{GPUs: 8, Devices: 1, Memory: 1}) || spx.parts != nil {
		t.Errorf("SPX/NPS1: %+v, %v", p, spx.parts)
	}
	n, err := Load(path, []string{"gcd.compute_partition=CPX", "gcd.memory_partition=NPS4"})
	if err != nil {
		t.Fatal(err)
	}
	g := n.GCD
	if g.Count != 64 || g.XCDs != 1 || g.ComputeUnits != spx.GCD.ComputeUnits || g.HBMBytes != spx.GCD.HBMBytes/8 ||
		g.HBMBandwidthGBps != spx.GCD.HBMBandwidthGBps/4 || g.FP64GFlops != spx.GCD.FP64GFlops/8 {
		t.Errorf("devices: %+v", g)
	}
	if n.MALL.Bytes != spx.MALL.Bytes/8 || n.MALL.Channels != spx.MALL.Channels/4 || n.SDMA.HostEngines != 1 || n.SDMA.XGMIEngines != 1 {
		t.Errorf("MALL %+v, SDMA %d+%d", n.MALL, n.SDMA.HostEngines, n.SDMA.XGMIEngines)
	}
	p := n.Partitioning()
	if p != (Partitioning{GPUs: 8, Devices: 8, Memory: 4}) {
		t.Errorf("partitioning %+v", p)
	}
	for dev, group := range map[int]int{0: 0, 1: 0, 2: 1, 7: 3, 8: 4, 63: 31} {
		if got := p.MemoryGroup(dev); got != group {
			t.Errorf("device %d: memory partition %d, want %d", dev, got, group)
		}
	}
	if len(n.XGMI.Bundles) != 28+8*7 || n.XGMI.Bundles[0] != (Bundle{GCDs: [2]int{0, 8}, Lanes: 1}) ||
		n.XGMI.Bundles[28] != (Bundle{GCDs: [2]int{0, 1}, Lanes: iodLanes}) || n.Routing.MaxHops != 3 {
		t.Errorf("%d bundles, first %v, 29th %v, max_hops %d", len(n.XGMI.Bundles), n.XGMI.Bundles[0], n.XGMI.Bundles[28], n.Routing.MaxHops)
	}
	if len(n.Host.GCDNUMA) != 64 || n.Host.GCDNUMA[31] != 0 || n.Host.GCDNUMA[32] != 1 {
		t.Errorf("gcd_numa %v", n.Host.GCDNUMA)
	}
	if err := n.validateReachable(); err != "" {
		t.Error(err)
	}
	// written back, it is the physical config: loading it again gives the same devices
	var buf bytes.Buffer
	if err := n.WriteTOML(&buf); err != nil {
		t.Fatal(err)
	}
	m, err := Parse("written.toml", buf.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m, n) {
		t.Errorf("written and loaded again: %+v\nwant %+v", m.GCD, n.GCD)
	}
}

// An APU's partitions: each device's host memory is its share of the HBM.
func TestPartitionAPU(t *testing.T) {
	n, err := Load(shippedPath(t, "mi300a-node.toml"), []string{"gcd.compute_partition=CPX"})
	if err != nil {
		t.Fatal(err)
	}
	h := n.Host
	if n.GCD.Count != 24 || h.NUMADomains != 24 || h.NUMABytes != n.GCD.HBMBytes || h.GCDNUMA[23] != 23 {
		t.Errorf("%d devices, %d NUMA domains of %d bytes (HBM %d), gcd_numa %v", n.GCD.Count, h.NUMADomains, h.NUMABytes, n.GCD.HBMBytes, h.GCDNUMA)
	}
	if p := n.Partitioning(); p != (Partitioning{GPUs: 4, Devices: 6, Memory: 1}) || p.MemoryGroup(5) != 0 || p.MemoryGroup(6) != 1 {
		t.Errorf("partitioning %+v", p)
	}
	for i, k := range n.NIC.GCDs {
		if k%6 != 0 || n.NIC.NUMA[i] != h.GCDNUMA[k] {
			t.Errorf("NIC %d on device %d (not a partition 0?), NUMA domain %d, the device's %d", i, k, n.NIC.NUMA[i], h.GCDNUMA[k])
		}
	}
}

// validateReachable runs the reach check over a (partitioned) node.
func (n *Node) validateReachable() string {
	v := &validator{}
	n.validateReach(v)
	if len(v.errs) > 0 {
		return v.errs[0].key + ": " + v.errs[0].msg
	}
	return ""
}

// Rows call an MI250X's devices gcd and MI300 devices gpu, partitioned
// or not; the name follows the config, not its file name.
func TestDeviceName(t *testing.T) {
	for _, c := range []struct {
		config string
		set    []string
		want   string
	}{
		{"frontier-node.toml", nil, "gcd"},
		{"mi300x-node.toml", nil, "gpu"},
		{"mi300x-node.toml", []string{"gcd.compute_partition=CPX"}, "gpu"},
		{"mi300a-node.toml", nil, "gpu"},
		{"frontier-node.toml", []string{"gcd.xcds=2"}, "gpu"},
	} {
		n, err := Load(shippedPath(t, c.config), c.set)
		if err != nil {
			t.Fatalf("%s %v: %v", c.config, c.set, err)
		}
		if got := n.DeviceName(); got != c.want {
			t.Errorf("%s %v: %q, want %q", c.config, c.set, got, c.want)
		}
	}
}
