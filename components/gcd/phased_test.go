package gcd

import (
	"testing"

	"github.com/akisim/akisim/components/fabric"
)

// handoff is a kernel of two channels: channel 0 writes bytes and raises a
// flag, channel 1 waits for count stores of it, then reads the data.
func handoff(inData bool, count int) *KernelCmd {
	f := new(Flag)
	m := fabric.Memory{Index: 0}
	return &KernelCmd{ID: 1, Channels: [][]Phase{
		{{Writes: []MemStream{{Mem: m, Bytes: 64 << 10}}, Signals: []Signal{{Flag: f, Mem: m, Addr: 1 << 30, InData: inData}}}},
		{{Waits: []FlagWait{{Flag: f, Count: count}}, Reads: []MemStream{{Mem: m, Bytes: 64 << 10}}}},
	}}
}

// A flag carried in the data (LL) is seen when the data lands; a fenced
// one (Simple) only after the writes are acknowledged and a separate
// store lands: the hand-off costs more than one memory latency more.
func TestFlagInDataBeatsFence(t *testing.T) {
	e, _, q := cuRig(4, 1, 64<<10, 100, 10000)
	ll := runKernel(t, e, q, handoff(true, 1))
	e, _, q = cuRig(4, 1, 64<<10, 100, 10000)
	simple := runKernel(t, e, q, handoff(false, 1))
	t.Logf("fenced %.2f us, in-data %.2f us", simple*1e6, ll*1e6)
	if simple-ll < 10e-6 {
		t.Errorf("fenced hand-off %.2f us, in-data %.2f us: want at least a memory latency (10 us) more", simple*1e6, ll*1e6)
	}
	// in-data: the write lands as memory takes it (64 KiB at 100 GB/s),
	// the poll sees it a memory latency later, the read takes another
	if want := 2*10e-6 + 2*655e-9; ll < want {
		t.Errorf("in-data hand-off %.2f us, below the %.2f us its memory trips take", ll*1e6, want*1e6)
	}
}

// A channel whose flag never reaches its count never finishes: nothing
// lets it through early.
func TestFlagShortOfCountHolds(t *testing.T) {
	e, cus, q := cuRig(4, 1, 64<<10, 100, 1000)
	q.Send(0, handoff(false, 2))
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(q.Got) != 0 {
		t.Fatalf("kernel completed with its flag at 1 of 2")
	}
	if cus.BytesRead != 0 {
		t.Errorf("waiting channel read %d bytes", cus.BytesRead)
	}
}

// Channels go to CUs as workgroups do: channel i on CU i mod n.
func TestChannelsSpreadOverCUs(t *testing.T) {
	e, cus, q := cuRig(2, 1, 4096, 1000, 100)
	m := fabric.Memory{Index: 0}
	var chans [][]Phase
	for i := range int64(4) { // channel i reads i+1 lines a phase, so each CU's share tells which channels it ran
		r := []MemStream{{Mem: m, Bytes: (i + 1) * 4096}}
		chans = append(chans, []Phase{{Reads: r}, {Reads: r}})
	}
	runKernel(t, e, q, &KernelCmd{ID: 1, Channels: chans})
	if cus.Workgroups != 4 || cus.BytesRead != 20*4096 {
		t.Errorf("%d workgroups, %d bytes read; want 4 and %d", cus.Workgroups, cus.BytesRead, 20*4096)
	}
	// CU 0 runs channels 0 and 2, CU 1 channels 1 and 3 (not 0,1 and 2,3)
	for i, want := range []uint64{2 * (1 + 3) * 4096, 2 * (2 + 4) * 4096} {
		if got := cus.pipes[i].Bytes; got != want {
			t.Errorf("CU %d moved %d bytes, want %d", i, got, want)
		}
	}
}

// A phased kernel's stores are posted: a channel's next loads go out
// while its stores are in flight, so a phase that writes as much as its
// window over a slow memory takes about one trip per window of loads,
// plus the last stores' acknowledgement, not a load and a store trip per
// window.
func TestPhasedStoresArePosted(t *testing.T) {
	e, _, q := cuRig(4, 1, 16<<10, 1000, 10000)
	m := fabric.Memory{Index: 0}
	const n = 16 << 10 * 8 // 8 windows
	k := &KernelCmd{ID: 1, InFlight: 16 << 10, Channels: [][]Phase{{{
		Reads: []MemStream{{Mem: m, Bytes: n}}, Writes: []MemStream{{Mem: m, Addr: 1 << 30, Bytes: n}}}}}}
	got := runKernel(t, e, q, k)
	// loads: 8 trips of a 10 us latency (each window's loads return after it); the last stores' trip
	if lo, hi := 9*10e-6, 10*10e-6; got < lo || got > hi {
		t.Errorf("%.1f us, want %.0f..%.0f us (8 load trips and one store trip)", got*1e6, lo*1e6, hi*1e6)
	}
}

// receiver is a kernel of two channels: channel 0 computes for sendNs,
// writes a line and raises a flag in the data; channel 1 waits for it (a Recv wait), reads
// a line of it and its own input of inBytes, which it preloads or not.
func receiver(preload bool, sendNs float64, inBytes int64) *KernelCmd {
	f := new(Flag)
	m := fabric.Memory{Index: 0}
	in := []MemStream{{Mem: m, Addr: 1 << 30, Bytes: inBytes}}
	recv := Phase{Waits: []FlagWait{{Flag: f, Count: 1, InData: true, Recv: true}}, Reads: []MemStream{{Mem: m, Bytes: 64}}}
	if preload {
		recv.Preload = in
	} else {
		recv.Reads = append(recv.Reads, in...)
	}
	return &KernelCmd{ID: 1, Channels: [][]Phase{
		{{ComputeNs: sendNs, Writes: []MemStream{{Mem: m, Bytes: 64}}, Signals: []Signal{{Flag: f, Mem: m, Addr: 0, InData: true}}}},
		{recv},
	}}
}

// Preloads go out before the wait for received data (LL's input loads
// ahead of its poll): the input's trip overlaps the sender's work, where
// loads issued after the flag pay it in series.
func TestPreloadOverlapsTheWait(t *testing.T) {
	const send, in = 30000, 1 << 20 // 30 us of compute; 10.5 us of transfer at 100 GB/s
	e, _, q := cuRig(4, 16, 64<<10, 100, 10000)
	after := runKernel(t, e, q, receiver(false, send, in))
	e, cus, q := cuRig(4, 16, 64<<10, 100, 10000)
	ahead := runKernel(t, e, q, receiver(true, send, in))
	t.Logf("input loaded after the flag %.2f us, preloaded %.2f us", after*1e6, ahead*1e6)
	if saved := after - ahead; saved < 0.8*float64(in)/100e9 {
		t.Errorf("preloading saved %.2f us of the input's %.2f us transfer: want most of it hidden", saved*1e6, float64(in)/100e9*1e6)
	}
	if ahead < send*1e-9 {
		t.Errorf("preloaded: %.2f us, before the sender's flag (%.0f us of compute)", ahead*1e6, send*1e-3)
	}
	if cus.BytesRead != 64+in {
		t.Errorf("read %d bytes, want %d (the line and the preloaded input)", cus.BytesRead, 64+in)
	}
}

// A phase computes only once its preloads are in: a large preload holds
// the phase past the received data's arrival.
func TestPreloadHoldsTheCompute(t *testing.T) {
	e, _, q := cuRig(4, 16, 64<<10, 100, 10000)
	small := runKernel(t, e, q, receiver(true, 0, 64))
	e, _, q = cuRig(4, 16, 64<<10, 100, 10000)
	large := runKernel(t, e, q, receiver(true, 0, 4<<20)) // 4 MiB at 100 GB/s: 42 us of transfer
	t.Logf("64 B preload %.2f us, 4 MiB %.2f us", small*1e6, large*1e6)
	if want := 10e-6 + float64(4<<20)/100e9; large < want {
		t.Errorf("4 MiB preload: kernel %.2f us, below the %.2f us the preload alone takes", large*1e6, want*1e6)
	}
}

// A step's preloads go out as soon as the step before it has issued its
// stores, not once they are acknowledged: channel 0 stores a line (its
// acknowledgement takes a memory latency), then receives from channel 1
// with 1 MiB of its own input to load, which is in before the store's
// acknowledgement plus the input's own trip.
func TestPreloadFollowsTheStores(t *testing.T) {
	f := new(Flag)
	m := fabric.Memory{Index: 0}
	const in = 1 << 20
	k := &KernelCmd{ID: 1, Channels: [][]Phase{
		{{Writes: []MemStream{{Mem: m, Addr: 2 << 30, Bytes: 64}}},
			{Waits: []FlagWait{{Flag: f, Count: 1, InData: true, Recv: true}}, Reads: []MemStream{{Mem: m, Bytes: 64}},
				Preload: []MemStream{{Mem: m, Addr: 1 << 30, Bytes: in}}}},
		{{ComputeNs: 15000, Writes: []MemStream{{Mem: m, Bytes: 64}}, Signals: []Signal{{Flag: f, Mem: m, Addr: 0, InData: true}}}},
	}}
	e, _, q := cuRig(4, 16, 64<<10, 100, 10000)
	got := runKernel(t, e, q, k)
	serial := 10e-6 + 10e-6 + float64(in)/100e9 // the store's acknowledgement, then the input's trip
	t.Logf("kernel %.2f us; the input loaded after the store's acknowledgement would end at %.2f us", got*1e6, serial*1e6)
	if got >= serial {
		t.Errorf("kernel %.2f us: the preload waited for the previous step's acknowledgement (%.2f us)", got*1e6, serial*1e6)
	}
}
