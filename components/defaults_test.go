// Package components_test checks that the component builders hold no
// value of their own: the config is the one home of every number. node
// gives each builder its values from the config, and a builder used
// without them refuses to build, naming the keys (docs/config.md).
package components_test

import (
	"fmt"
	"reflect"
	"strings"
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
	"github.com/sarchlab/akita/v3/sim"
)

// Every field of a new builder is its zero value, but for what is not a
// number of the hardware: one link per bundle, one die per GCD, and the
// builders of a component's parts (checked on their own).
func TestBuildersHoldNoValues(t *testing.T) {
	for _, b := range []struct {
		name       string
		builder    any
		structural map[string]string // fields set, and why they are no config value
	}{
		{"sdma", sdma.MakeBuilder(), nil},
		{"xgmi", xgmi.MakeBuilder(), map[string]string{"lanes": "per bundle (xgmi.bundle.lanes): one link until told"}},
		{"dram", dram.MakeBuilder(), nil},
		{"mall", mall.MakeBuilder(), nil},
		{"gcd", gcd.MakeBuilder(), map[string]string{"sdma": "sdma's builder, checked above", "xcds": "one die until gcd.xcds splits it"}},
		{"cpu cores", cpu.MakeCoresBuilder(), nil},
		{"nic", nic.MakeBuilder(), map[string]string{"dma": "sdma's builder, checked above"}},
		{"cpu host", cpu.MakeBuilder(), nil},
		{"hub", hub.MakeBuilder(), nil},
		{"rosetta", rosetta.MakeBuilder(), nil},
	} {
		v := reflect.ValueOf(b.builder)
		for i := range v.NumField() {
			field, f := v.Type().Field(i).Name, v.Field(i)
			if _, ok := b.structural[field]; !ok && !f.IsZero() {
				t.Errorf("%s: %s holds %v: a builder's values come from the config", b.name, field, f)
			}
		}
		for field := range b.structural {
			if !v.FieldByName(field).IsValid() {
				t.Errorf("%s: no field %s", b.name, field)
			}
		}
	}
}

// A builder given none of its values refuses to build, naming what gives
// each: its setter and config key.
func TestBuildersRefuseWithoutValues(t *testing.T) {
	e := sim.NewSerialEngine()
	for _, c := range []struct {
		name  string
		build func()
		keys  []string
	}{
		{"sdma", func() { sdma.MakeBuilder().WithEngine(e).Build("E") }, []string{"sdma.clock_ghz", "sdma.bytes_per_cycle", "sim.sdma_transaction_bytes", "sdma.outstanding_bytes", "sdma.queues_per_engine"}},
		{"xgmi", func() { xgmi.MakeBuilder().WithEngine(e).Build("X") }, []string{"xgmi.lane_bandwidth_gbps", "packet_payload_bytes", "request_bytes", "credit_bytes"}},
		{"dram", func() { dram.MakeBuilder().WithEngine(e).Build("D") }, []string{"dram.channels_per_domain", "dram.channel_bandwidth_gbps", "dram.efficiency"}},
		{"mall", func() { mall.MakeBuilder().WithEngine(e).Build("M") }, []string{"mall.bytes", "mall.ways", "mall.line_bytes", "sim.l2_block_bytes", "mall.channels"}},
		{"gcd", func() { gcd.MakeBuilder().WithEngine(e).Build("G", 0) }, []string{"gcd.hbm_bandwidth_gbps", "sim.l2_block_bytes", "gcd.l2_slices"}},
		{"gcd's CUs", func() { gcd.MakeBuilder().WithEngine(e).BuildComputeUnits("C", 0) }, []string{"gcd.compute_units", "gcd.workgroup_slots", "sim.cu_transaction_bytes", "gcd.cu_outstanding_bytes", "gcd.cu_bytes_per_clock", "gcd.line_bytes"}},
		{"cpu cores", func() { cpu.MakeCoresBuilder().WithEngine(e).Build("C", nil) }, []string{"host.cores", "sim.core_transaction_bytes", "host.core_outstanding_bytes"}},
		{"nic", func() { nic.MakeBuilder().WithEngine(e).Build("N", 0) }, []string{"nic.engines"}},
	} {
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			c.build()
			return ""
		}()
		for _, k := range c.keys {
			if !strings.Contains(msg, k) {
				t.Errorf("%s built without values: %q, want it to name %s", c.name, msg, k)
			}
		}
	}
}
