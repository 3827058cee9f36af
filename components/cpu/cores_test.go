package cpu

import (
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/akisim/akisim/components/gcd"
	"github.com/sarchlab/akita/v3/sim"
)

// hostOnly routes everything within the host hub (id 0).
type hostOnly struct{}

func (hostOnly) KernelRoutes(from, to int) []fabric.Route { return []fabric.Route{{0}} }
func (hostOnly) HubOf(m fabric.Memory) int                { return 0 }

// A host access runs on the cores and is counted in their own words:
// one access, its threads, the bytes it stored, which reach DRAM.
func TestCoresRunAHostAccess(t *testing.T) {
	e := sim.NewSerialEngine()
	host := MakeBuilder().WithEngine(e).WithGCDNUMA([]int{0}).WithLatencies(100, 50).Build("Host")
	mem := testDRAM().WithEngine(e).Build("DRAM")
	fabric.Wire(host.MemoryPort(0), mem.Port)
	cores := testCores().WithEngine(e).WithRoutes(hostOnly{}).WithCores(4, 65536, 262144).Build("Cores", host)
	threads := fabrictest.NewAgent("Threads", e, 4)
	fabric.Wire(threads.Port, cores.CtrlPort)
	const bytes = 1 << 20
	threads.Send(0, &gcd.KernelCmd{ID: 7, Workgroups: 3,
		Writes: []gcd.MemStream{{Mem: fabric.Memory{Host: true}, Bytes: bytes}}})
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(threads.Got) != 1 {
		t.Fatalf("got %d messages, want the access's completion", len(threads.Got))
	}
	if d, ok := threads.Got[0].(*gcd.KernelDone); !ok || d.ID != 7 || d.End <= d.Start {
		t.Errorf("completion %#v", threads.Got[0])
	}
	if cores.Count() != 4 || cores.Accesses() != 1 || cores.Threads() != 3 || cores.BytesWritten() != bytes ||
		cores.BytesRead() != 0 || cores.Transactions() == 0 {
		t.Errorf("%d cores, %d accesses, %d threads, %d B written, %d B read, %d transactions; want 4, 1, 3, %d, 0, some",
			cores.Count(), cores.Accesses(), cores.Threads(), cores.BytesWritten(), cores.BytesRead(), cores.Transactions(), bytes)
	}
	if mem.BytesWrite != bytes || cores.Name() != "Cores" {
		t.Errorf("DRAM got %d B, want %d; name %q", mem.BytesWrite, bytes, cores.Name())
	}
}

// Stores fill their lines only beyond the L3's reach, only in host memory,
// and not where the same access loads the bytes first (acc += in).
func TestAddStoreFills(t *testing.T) {
	e := sim.NewSerialEngine()
	host := MakeBuilder().WithEngine(e).WithGCDNUMA([]int{0}).Build("Host")
	cores := testCores().WithEngine(e).WithRoutes(hostOnly{}).WithStoreAllocate(true, 1<<20).Build("Cores", host)
	h, g := fabric.Memory{Host: true}, fabric.Memory{Index: 3}
	const big = 4 << 20
	for _, c := range []struct {
		name          string
		reads, writes []gcd.MemStream
		fills         int
	}{
		{"stores to host DRAM", nil, []gcd.MemStream{{Mem: h, Bytes: big}}, 1},
		{"within the L3", nil, []gcd.MemStream{{Mem: h, Bytes: 1 << 20}}, 0},
		{"to GPU memory", nil, []gcd.MemStream{{Mem: g, Bytes: big}}, 0},
		{"acc += in", []gcd.MemStream{{Mem: h, Addr: 0, Bytes: big}, {Mem: h, Addr: big, Bytes: big}},
			[]gcd.MemStream{{Mem: h, Addr: big, Bytes: big}}, 0},
		{"a copy", []gcd.MemStream{{Mem: h, Addr: 0, Bytes: big}}, []gcd.MemStream{{Mem: h, Addr: big, Bytes: big}}, 1},
	} {
		k := &gcd.KernelCmd{Reads: c.reads, Writes: c.writes}
		cores.AddStoreFills(k)
		if got := len(k.Reads) - len(c.reads); got != c.fills {
			t.Errorf("%s: %d fills, want %d", c.name, got, c.fills)
		}
	}
}
