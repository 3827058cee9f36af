package config

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestLoadShipped(t *testing.T) {
	for _, name := range shipped {
		t.Run(name, func(t *testing.T) {
			n, err := Load(shippedPath(t, name), nil)
			if err != nil {
				t.Fatal(err)
			}
			if n.Name != name {
				t.Errorf("name = %q, want %q", n.Name, name)
			}
			want := [3]int{8, 12, 8} // a Frontier or LUMI node
			switch name {
			case "gem5-mi200", "gem5-mi300x":
				want = [3]int{1, 0, 1} // gem5's one GPU
			case "mi300x-node":
				want = [3]int{8, 28, 8} // all-to-all single links
			case "mi300a-node":
				want = [3]int{4, 6, 4} // 4 APUs, a bundle between every two
			}
			if got := [3]int{n.GCD.Count, len(n.XGMI.Bundles), len(n.Host.GCDNUMA)}; got != want {
				t.Errorf("count, bundles, gcd_numa: %v, want %v", got, want)
			}
		})
	}
}

// gem5-mi200 must hold gem5's default MI200 device (its comments name the
// gem5 files).
func TestGem5Device(t *testing.T) {
	n, err := Load(shippedPath(t, "gem5-mi200"), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := []any{n.GCD.ComputeUnits, n.GCD.ClockGHz, n.GCD.HBMBytes, n.GCD.HBMBandwidthGBps, n.GCD.L2Bytes, n.SDMA.HostEngines, n.Host.NUMABytes, n.DRAM.ChannelBandwidthGBps}
	want := []any{4, 1.0, int64(16 << 30), 16.0, int64(256 << 10), 5, int64(8 << 30), 12.8}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CUs, clock, HBM bytes and GB/s, L2, SDMA engines, host bytes, DDR GB/s: %v, want %v", got, want)
	}
}

// The Frontier config must hold the node's documented hardware (hardware.md,
// values marked T); calibrated values are checked by akisim validate.
func TestFrontierHardware(t *testing.T) {
	n, err := Load(shippedPath(t, "frontier-node"), nil)
	if err != nil {
		t.Fatal(err)
	}
	bundles := []Bundle{
		{[2]int{0, 1}, 4}, {[2]int{2, 3}, 4}, {[2]int{4, 5}, 4}, {[2]int{6, 7}, 4},
		{[2]int{0, 6}, 2}, {[2]int{2, 4}, 2},
		{[2]int{0, 2}, 1}, {[2]int{1, 3}, 1}, {[2]int{1, 5}, 1},
		{[2]int{3, 7}, 1}, {[2]int{4, 6}, 1}, {[2]int{5, 7}, 1},
	}
	if !reflect.DeepEqual(n.XGMI.Bundles, bundles) {
		t.Errorf("bundles %v, want %v", n.XGMI.Bundles, bundles)
	}
	if !reflect.DeepEqual(n.Host.GCDNUMA, []int{3, 3, 1, 1, 0, 0, 2, 2}) {
		t.Errorf("gcd_numa %v", n.Host.GCDNUMA)
	}
	checks := []struct {
		name      string
		got, want float64
	}{
		{"gcd.count", float64(n.GCD.Count), 8},
		{"gcd.compute_units", float64(n.GCD.ComputeUnits), 110},
		{"gcd.hbm_bandwidth_gbps", n.GCD.HBMBandwidthGBps, 1600},
		{"sdma.host_engines", float64(n.SDMA.HostEngines), 2},
		{"sdma.xgmi_engines", float64(n.SDMA.XGMIEngines), 3},
		{"xgmi.lane_bandwidth_gbps", n.XGMI.LaneBandwidthGBps, 50},
		{"host_link.bandwidth_gbps", n.HostLink.BandwidthGBps, 36},
		{"host.numa_domains", float64(n.Host.NUMADomains), 4},
		{"dram.channels_per_domain", float64(n.DRAM.ChannelsPerDomain), 2},
		{"dram.channel_bandwidth_gbps", n.DRAM.ChannelBandwidthGBps, 25.6},
		{"dram.latency_ns", n.DRAM.LatencyNs, 96},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// The derived configs are frontier-node except for their overrides: lumi
// renames it, frontier-dual-xgmi also makes every single inter-package
// bundle dual.
func TestDerivedConfigs(t *testing.T) {
	base, err := Load(shippedPath(t, "frontier-node"), nil)
	if err != nil {
		t.Fatal(err)
	}

	lumi, err := Load(shippedPath(t, "lumi-node"), nil)
	if err != nil {
		t.Fatal(err)
	}
	lumi.Name = base.Name
	if !reflect.DeepEqual(lumi, base) {
		t.Errorf("lumi-node.toml differs from frontier-node.toml in more than its name:\n%s", diff(t, base, lumi))
	}

	dual, err := Load(shippedPath(t, "frontier-dual-xgmi"), nil)
	if err != nil {
		t.Fatal(err)
	}
	dual.Name = base.Name
	want := *base
	want.XGMI.Bundles = append([]Bundle(nil), base.XGMI.Bundles...)
	singles := 0
	for i, b := range want.XGMI.Bundles {
		samePackage := b.GCDs[0]/2 == b.GCDs[1]/2
		if b.Lanes == 1 && !samePackage {
			want.XGMI.Bundles[i].Lanes = 2
			singles++
		}
	}
	if singles != 6 {
		t.Errorf("frontier-node has %d single inter-package bundles, want 6", singles)
	}
	if !reflect.DeepEqual(dual, &want) {
		t.Errorf("frontier-dual-xgmi.toml is not frontier-node.toml with dual single links:\n%s", diff(t, &want, dual))
	}
}

func diff(t *testing.T, want, got *Node) string {
	t.Helper()
	var a, b bytes.Buffer
	if err := want.WriteTOML(&a); err != nil {
		t.Fatal(err)
	}
	if err := got.WriteTOML(&b); err != nil {
		t.Fatal(err)
	}
	al, bl := strings.Split(a.String(), "\n"), strings.Split(b.String(), "\n")
	var out []string
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			out = append(out, "  want: "+x+"\n   got: "+y)
		}
	}
	return strings.Join(out, "\n")
}

// Our strict decoder (which makes the error messages) and BurntSushi's
// (which makes the Node) must agree, on the shipped configs as resolved
// (a derived config's text alone is not a node).
func TestDecoderAgreesWithBurntSushi(t *testing.T) {
	texts := map[string]string{"mini": mini, "frontier-node file": readFile(t, shippedPath(t, "frontier-node"))}
	for _, name := range shipped {
		n, err := Load(shippedPath(t, name), nil)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := n.WriteTOML(&buf); err != nil {
			t.Fatal(err)
		}
		texts[name] = buf.String()
	}
	for name, text := range texts {
		var raw map[string]any
		if _, err := toml.Decode(text, &raw); err != nil {
			t.Fatal(err)
		}
		var ours, theirs Node
		d := &decoder{}
		d.assign(reflect.ValueOf(&ours).Elem(), raw, "")
		if len(d.errs) > 0 {
			t.Fatalf("%s: %v", name, d.errs)
		}
		if _, err := toml.Decode(text, &theirs); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ours, theirs) {
			t.Errorf("%s: decoders disagree:\n ours   %+v\n theirs %+v", name, ours, theirs)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		sets []string
	}{
		{"frontier-node", nil},
		{"lumi-node", nil},
		{"frontier-dual-xgmi", nil},
		{"frontier-node", []string{
			"xgmi.bundle[0-1].lanes=0", "xgmi.bundle[0-3].lanes=1", "name=\"odd \\\"name\\\" \\\\ é\"",
			"gcd.clock_ghz=1e-3", "dram.efficiency=1", "sdma.fence_ns=0.1",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, err := Load(shippedPath(t, c.name), c.sets)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := n.WriteTOML(&buf); err != nil {
				t.Fatal(err)
			}
			p := writeTemp(t, buf.String())
			m, err := Load(p, nil)
			if err != nil {
				t.Fatalf("reading back: %v\n%s", err, buf.String())
			}
			if !reflect.DeepEqual(n, m) {
				t.Errorf("round trip changed the node:\n%s", diff(t, n, m))
			}
		})
	}
}

// A one-GCD node has no bundles; it must still round-trip.
func TestRoundTripNoBundles(t *testing.T) {
	text := mini
	text = replace(t, text, "count = 4", "count = 1")
	text = replace(t, text, "gcd_numa = [0, 0, 1, 1]", "gcd_numa = [0]")
	text = replace(t, text, "count = 2\nengines = 8\ngcds = [ 1, 3 ]\nnuma = [0, 1]\nswitch = [0, 1]", "count = 1\nengines = 8\ngcds = [0]\nnuma = [0]\nswitch = [0]")
	i := strings.Index(text, "[[xgmi.bundle]]")
	j := strings.Index(text, "[host_link]")
	text = text[:i] + "[host_link]" + text[j+len("[host_link]"):]
	text = replace(t, text, "credit_bytes = 4194304\n\n[host_link]", "credit_bytes = 4194304\nbundle = []\n\n[host_link]")
	n, err := Load(writeTemp(t, text), nil)
	if err != nil {
		t.Fatal(err)
	}
	if n.XGMI.Bundles != nil {
		t.Fatalf("bundles = %#v, want nil", n.XGMI.Bundles)
	}
	var buf bytes.Buffer
	if err := n.WriteTOML(&buf); err != nil {
		t.Fatal(err)
	}
	m, err := Load(writeTemp(t, buf.String()), nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if !reflect.DeepEqual(n, m) {
		t.Errorf("round trip changed the node:\n%s", diff(t, n, m))
	}
}

func TestSet(t *testing.T) {
	path := shippedPath(t, "frontier-node")
	load := func(t *testing.T, sets ...string) *Node {
		t.Helper()
		n, err := Load(path, sets)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	findBundle := func(n *Node, a, b int) (Bundle, bool) {
		for _, x := range n.XGMI.Bundles {
			if pair(x.GCDs[0], x.GCDs[1]) == pair(a, b) {
				return x, true
			}
		}
		return Bundle{}, false
	}

	t.Run("scalars", func(t *testing.T) {
		n := load(t, "sim.sdma_transaction_bytes=16384", "xgmi.lane_bandwidth_gbps=25", "dram.efficiency=0.5")
		if n.Sim.SDMATransactionBytes != 16384 || n.XGMI.LaneBandwidthGBps != 25 || n.DRAM.Efficiency != 0.5 {
			t.Errorf("got %d %v %v", n.Sim.SDMATransactionBytes, n.XGMI.LaneBandwidthGBps, n.DRAM.Efficiency)
		}
	})
	t.Run("array", func(t *testing.T) {
		n := load(t, "host.gcd_numa=[0,0,1,1,2,2,3,3]")
		if !reflect.DeepEqual(n.Host.GCDNUMA, []int{0, 0, 1, 1, 2, 2, 3, 3}) {
			t.Errorf("gcd_numa = %v", n.Host.GCDNUMA)
		}
		n = load(t, "host.gcd_numa[7]=0")
		if !reflect.DeepEqual(n.Host.GCDNUMA, []int{3, 3, 1, 1, 0, 0, 2, 0}) {
			t.Errorf("gcd_numa = %v", n.Host.GCDNUMA)
		}
	})
	t.Run("strings", func(t *testing.T) {
		n := load(t, `routing.sdma="fewest"`, "routing.kernel=widest", "name=my-node")
		if n.Routing.SDMA != "fewest" || n.Routing.Kernel != "widest" || n.Name != "my-node" {
			t.Errorf("got %q %q %q", n.Routing.SDMA, n.Routing.Kernel, n.Name)
		}
	})
	t.Run("table merges", func(t *testing.T) {
		n := load(t, "routing={max_hops = 4, kernel = \"widest\"}")
		if n.Routing.MaxHops != 4 || n.Routing.Kernel != "widest" || n.Routing.SDMA != "widest" {
			t.Errorf("routing = %+v", n.Routing)
		}
	})
	t.Run("bundle by index", func(t *testing.T) {
		n := load(t, "xgmi.bundle[3].lanes=2")
		if n.XGMI.Bundles[3] != (Bundle{[2]int{6, 7}, 2}) {
			t.Errorf("bundle[3] = %+v", n.XGMI.Bundles[3])
		}
	})
	t.Run("bundle by pair", func(t *testing.T) {
		n := load(t, "xgmi.bundle[0-2].lanes=2", "xgmi.bundle[7-5].lanes=4")
		if b, _ := findBundle(n, 0, 2); b.Lanes != 2 {
			t.Errorf("0-2: %+v", b)
		}
		if b, _ := findBundle(n, 5, 7); b.Lanes != 4 {
			t.Errorf("5-7: %+v", b)
		}
		if len(n.XGMI.Bundles) != 12 {
			t.Errorf("%d bundles, want 12", len(n.XGMI.Bundles))
		}
	})
	t.Run("every bundle", func(t *testing.T) {
		n := load(t, "xgmi.bundle[*].lanes=1")
		if len(n.XGMI.Bundles) != 12 {
			t.Fatalf("%d bundles, want 12", len(n.XGMI.Bundles))
		}
		for i, b := range n.XGMI.Bundles {
			if b.Lanes != 1 {
				t.Errorf("bundle[%d] = %+v", i, b)
			}
		}
	})
	t.Run("add bundle", func(t *testing.T) {
		n := load(t, "xgmi.bundle[0-3].lanes=1")
		if len(n.XGMI.Bundles) != 13 || n.XGMI.Bundles[12] != (Bundle{[2]int{0, 3}, 1}) {
			t.Errorf("bundles = %+v", n.XGMI.Bundles)
		}
		// Once added, the pair is that bundle (either order), given once.
		_, err := Load(path, []string{"xgmi.bundle[0-3].lanes=1", "xgmi.bundle[3-0].lanes=2"})
		if got, want := asError(t, err).Error(), "-set xgmi.bundle[0-3].lanes=1 and -set xgmi.bundle[3-0].lanes=2: both set xgmi.bundle[12].lanes; give one"; got != want {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	})
	t.Run("remove bundle", func(t *testing.T) {
		n := load(t, "xgmi.bundle[1-0].lanes=0", "xgmi.bundle[11].lanes=0")
		if len(n.XGMI.Bundles) != 10 {
			t.Errorf("%d bundles, want 10", len(n.XGMI.Bundles))
		}
		if _, ok := findBundle(n, 0, 1); ok {
			t.Error("bundle 0-1 still there")
		}
		if _, ok := findBundle(n, 5, 7); ok {
			t.Error("bundle 5-7 still there")
		}
		// Indices keep the file's order after a removal.
		n = load(t, "xgmi.bundle[0].lanes=0", "xgmi.bundle[1].lanes=2")
		if b, _ := findBundle(n, 2, 3); b.Lanes != 2 {
			t.Errorf("2-3: %+v", b)
		}
		// Removing a pair that has no bundle does nothing.
		n = load(t, "xgmi.bundle[0-7].lanes=0")
		if len(n.XGMI.Bundles) != 12 {
			t.Errorf("%d bundles, want 12", len(n.XGMI.Bundles))
		}
	})
}

func TestValidateGoNode(t *testing.T) {
	n, err := Load(shippedPath(t, "frontier-node"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Validate(); err != nil {
		t.Fatal(err)
	}
	n.XGMI.Bundles[2].Lanes = 5
	n.Routing.Kernel = "random"
	e := asError(t, n.Validate())
	if e.Error() != "routing.kernel: must be \"widest\" or \"fewest\", got \"random\"" {
		t.Errorf("got %q", e.Error())
	}
}
