// Package components_test checks the component builders' defaults
// against the node config: a builder's default is frontier-node.toml's
// value of the key it builds from, or it has none (its field's zero value,
// which node/ always sets), so no builder carries a number that disagrees
// with the config (docs/config.md).
package components_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/akisim/akisim/components/cpu"
	"github.com/akisim/akisim/components/dram"
	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/hub"
	"github.com/akisim/akisim/components/mall"
	"github.com/akisim/akisim/components/nic"
	"github.com/akisim/akisim/components/rosetta"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/components/xgmi"
	"github.com/akisim/akisim/config"
)

// builderDefault is a builder's field and what frontier-node.toml makes
// node/ pass for it.
type builderDefault map[string]any

func TestBuilderDefaultsAreFrontierNodes(t *testing.T) {
	path, err := config.Find("frontier-node")
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, h, m := c.GCD, c.Host, c.MALL
	for _, b := range []struct {
		name    string
		builder any
		want    builderDefault
		other   map[string]string // fields neither zero nor a key's value, and why
	}{
		{"sdma", sdma.MakeBuilder(), builderDefault{
			"clockGHz":      c.SDMA.ClockGHz,
			"bytesPerCycle": c.SDMA.BytesPerCycle,
			"txnBytes":      c.Sim.SDMATransactionBytes,
			"maxBytes":      c.SDMA.OutstandingBytes,
			"queues":        c.SDMA.QueuesPerEngine,
		}, nil},
		{"xgmi", xgmi.MakeBuilder(), builderDefault{
			"laneGBps": c.XGMI.LaneBandwidthGBps,
			"payload":  c.XGMI.PacketPayloadBytes,
			"request":  c.XGMI.RequestBytes,
			"credits":  c.XGMI.CreditBytes,
			"early":    c.Sim.EarlyBooking,
		}, map[string]string{"lanes": "per bundle (xgmi.bundle.lanes): one link"}},
		{"dram", dram.MakeBuilder(), builderDefault{
			"channels":    c.DRAM.ChannelsPerDomain,
			"channelGBps": c.DRAM.ChannelBandwidthGBps,
			"efficiency":  c.DRAM.Efficiency,
			"latencyNs":   c.DRAM.LatencyNs,
		}, nil},
		// its capacity (mall.bytes = 0: no MALL) has none
		{"mall", mall.MakeBuilder(), builderDefault{
			"ways":        m.Ways,
			"line":        m.LineBytes,
			"block":       c.Sim.L2BlockBytes,
			"channels":    m.Channels,
			"channelGBps": m.ChannelBandwidthGBps,
			"latencyNs":   m.LatencyNs,
			"policy":      mall.Policy{WriteAllocate: m.WriteAllocate, WriteBack: m.WriteBack},
		}, nil},
		{"gcd", gcd.MakeBuilder(), builderDefault{
			"hbmGBps":     g.HBMBandwidthGBps * g.HBMEfficiency,
			"hostEngines": c.SDMA.HostEngines,
			"xgmiEngines": c.SDMA.XGMIEngines,
			"cus":         g.ComputeUnits,
			"slots":       g.WorkgroupSlots,
			"xcds":        g.XCDs,
			"cuTxn":       c.Sim.CUTransactionBytes,
			"cuOut":       g.CUOutstandingBytes,
			"cuIssueGBps": float64(g.CUBytesPerClock) * g.ClockGHz,
			"spray":       c.Routing.KernelTies == config.TiesSpray,
			"l2Bytes":     g.L2Bytes,
			"l2Block":     c.Sim.L2BlockBytes,
			"l2GBps":      float64(g.L2Slices*g.L2BytesPerClock) * g.ClockGHz,
			"l2LatencyNs": g.L2LatencyNs,
			"line":        g.LineBytes,
		}, map[string]string{"sdma": "sdma's builder, checked above"}},
		{"cpu cores", cpu.MakeCoresBuilder(), builderDefault{
			"cores":    h.Cores,
			"txnBytes": c.Sim.CoreTransactionBytes,
			"maxBytes": h.CoreOutstandingBytes,
			"lines":    h.CoreLoadLines,
		}, nil},
		{"nic", nic.MakeBuilder(), builderDefault{"engines": c.NIC.Engines},
			map[string]string{"dma": "sdma's builder, checked above"}},
		{"cpu host", cpu.MakeBuilder(), nil, nil},
		{"hub", hub.MakeBuilder(), nil, nil},
		{"rosetta", rosetta.MakeBuilder(), nil, nil},
	} {
		check(t, b.name, b.builder, b.want, b.other)
	}
}

// check checks every field of builder b that is not its zero value
// against want, by field name; a field in neither want nor other fails,
// so a new default cannot go unchecked.
func check(t *testing.T, name string, b any, want builderDefault, other map[string]string) {
	v := reflect.ValueOf(b)
	for i := range v.NumField() {
		field, f := v.Type().Field(i).Name, v.Field(i)
		w, wanted := want[field]
		if _, ok := other[field]; ok {
			continue
		}
		switch {
		case wanted && fmt.Sprint(f) != fmt.Sprint(w):
			t.Errorf("%s: %s's default %v: frontier-node gives %v", name, field, f, w)
		case !wanted && !f.IsZero():
			t.Errorf("%s: %s has a default (%v) no key checks", name, field, f)
		}
	}
	for field := range want {
		if !v.FieldByName(field).IsValid() {
			t.Errorf("%s: no field %s", name, field)
		}
	}
}
