package rccl

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/akisim/akisim/commcheck"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// expandNode is the Frontier node after the -set overrides: RCCL's
// parameters and topology, and the trace limits.
func expandNode(t *testing.T, sets ...string) (Params, Topology, trace.Limits) {
	t.Helper()
	c, err := config.Load(filepath.Join("..", "configs", "frontier-node.toml"), sets)
	if err != nil {
		t.Fatal(err)
	}
	return ParamsFromConfig(c), FromConfig(c), trace.Limits{GCDs: 8, NUMADomains: 4, HBMBytes: 64 << 30, NUMABytes: 128 << 30, Libraries: commcheck.Libraries}
}

// callTrace is one process driving GCDs 0..n-1 (as rccl-tests -g n): a
// buffer per GCD, a communicator "w" over them, then for each call of
// calls one call per comm rank on stream r+1, in place; a send goes to
// the next rank and a receive comes from the previous one.
func callTrace(n int, calls ...string) string {
	var b strings.Builder
	for r := range n {
		fmt.Fprintf(&b, `{"op":"malloc","buf":"b%d","gcd":%d,"bytes":%d}`+"\n", r, r, 256<<20)
	}
	fmt.Fprintf(&b, `{"op":"rccl_comm_init","comm":"w","gcds":%s}`+"\n", strings.ReplaceAll(fmt.Sprint(all(n)), " ", ","))
	for _, c := range calls {
		kind, size, _ := strings.Cut(c, " ")
		for r := range n {
			switch trace.Kind(kind) {
			case trace.RCCLSend, trace.RCCLRecv:
				peer := (r + 1) % n
				if kind == string(trace.RCCLRecv) {
					peer = (r + n - 1) % n
				}
				fmt.Fprintf(&b, `{"op":%q,"comm":"w","gcd":%d,"buf":"b%d","bytes":%s,"peer":%d,"stream":%d}`+"\n", kind, r, r, size, peer, r+1)
			default:
				root := ""
				if trace.Kind(kind) == trace.RCCLBroadcast || trace.Kind(kind) == trace.RCCLReduce {
					root = `,"root":1`
				}
				fmt.Fprintf(&b, `{"op":%q,"comm":"w","gcd":%d,"src":"b%d","dst":"b%d","bytes":%s,"stream":%d%s}`+"\n", kind, r, r, r, size, r+1, root)
			}
		}
	}
	return b.String()
}

// expand parses, checks and expands a trace on the Frontier node.
func expand(t *testing.T, text string, sets ...string) (in []trace.Op, out []ir.Command) {
	t.Helper()
	p, top, lim := expandNode(t, sets...)
	in, err := trace.Parse(strings.NewReader(text), "t.jsonl")
	if err == nil {
		err = trace.Check(in, lim, "t.jsonl")
	}
	if err != nil {
		t.Fatal(err)
	}
	out, err = Expand(ir.FromTrace(in), p, top)
	if err != nil {
		t.Fatal(err)
	}
	return in, out
}

// kernels are the phased kernels of an expansion, in order.
func kernels(ops []ir.Command) []ir.Command {
	var k []ir.Command
	for _, o := range ops {
		if o.Op == trace.Kernel && o.Channels != nil {
			k = append(k, o)
		}
	}
	return k
}

// every collective and point-to-point call, small and large
var allCalls = []string{
	"rccl_all_reduce 8", "rccl_all_reduce 1048576", "rccl_all_gather 4096", "rccl_reduce_scatter 1048576",
	"rccl_broadcast 65536", "rccl_reduce 1048576", "rccl_all_to_all 1048576", "rccl_send 300000", "rccl_recv 300000",
}

// Each call becomes exactly one phased kernel, on the call's GCD and
// stream, in the order of the calls; nothing else runs kernels.
func TestExpandOneKernelPerCall(t *testing.T) {
	for _, n := range []int{2, 8} {
		in, out := expand(t, callTrace(n, allCalls...))
		var calls []trace.Op
		for _, o := range in {
			if o.IsRCCL() && o.Op != trace.RCCLCommInit {
				calls = append(calls, o)
			}
		}
		ks := kernels(out)
		if len(ks) != len(calls) || len(calls) != n*len(allCalls) {
			t.Fatalf("%d GCDs: %d kernels for %d calls (want %d)", n, len(ks), len(calls), n*len(allCalls))
		}
		for i, k := range ks {
			c := calls[i]
			if *k.GCD != *c.GCD || k.Stream != c.Stream || k.Line != c.Line || k.Bytes != c.Bytes {
				t.Errorf("%d GCDs: kernel %d (%s) on GCD %d stream %d line %d, %d bytes; call %s on GCD %d stream %d line %d, %d bytes",
					n, i, k.Name, *k.GCD, k.Stream, k.Line, k.Bytes, c.Op, *c.GCD, c.Stream, c.Line, c.Bytes)
			}
			if !strings.HasPrefix(k.Name, "ncclDevKernel_") {
				t.Errorf("kernel %d named %q", i, k.Name)
			}
		}
		for _, o := range out {
			if o.IsRCCL() {
				t.Errorf("%d GCDs: line %d: %s left in the expansion", n, o.Line, o.Op)
			}
		}
	}
}

// The communicator's FIFOs are fine-grained memory on each rank's GCD
// (the previous rank stores into them, so they must not be cached), one
// per rank; every FIFO a kernel touches is one of them.
func TestExpandFIFOsFineGrained(t *testing.T) {
	for _, n := range []int{2, 8} {
		_, out := expand(t, callTrace(n, allCalls...))
		fifos := map[string]int{}
		for _, o := range out {
			if o.Op == trace.Malloc && strings.HasPrefix(o.Buf, "rccl.") && !strings.Contains(o.Buf, ".dev") {
				if !o.Fine {
					t.Errorf("%d GCDs: FIFO %q is coarse-grained", n, o.Buf)
				}
				fifos[o.Buf] = *o.GCD
			}
		}
		if len(fifos) != n {
			t.Fatalf("%d GCDs: %d FIFO buffers, want one per rank", n, len(fifos))
		}
		for r := range n {
			if g, ok := fifos[fmt.Sprintf("rccl.w.fifo%d", r)]; !ok || g != r {
				t.Errorf("%d GCDs: rank %d's FIFO on GCD %d (found %v)", n, r, g, ok)
			}
		}
		for _, k := range kernels(out) {
			for _, ch := range k.Channels {
				for _, ph := range ch {
					for _, s := range ph.Signals {
						if _, ok := fifos[s.Buf]; !ok {
							t.Errorf("%s stores flag %s into %q, not a FIFO", k.Name, s.Flag, s.Buf)
						}
					}
				}
			}
		}
	}
}

// flagUse is where a flag is stored and waited.
type flagUse struct {
	stores     int
	storeGCDs  map[int]bool // the GCDs of the kernels that store it
	storeBufs  map[string]bool
	waits      []int // counts waited, in order
	waitGCDs   map[int]bool
	waitPhases map[[2]int]bool // kernel, channel
}

func flagUses(ks []ir.Command) map[string]*flagUse {
	m := map[string]*flagUse{}
	get := func(f string) *flagUse {
		if m[f] == nil {
			m[f] = &flagUse{storeGCDs: map[int]bool{}, storeBufs: map[string]bool{}, waitGCDs: map[int]bool{}, waitPhases: map[[2]int]bool{}}
		}
		return m[f]
	}
	for i, k := range ks {
		for c, ch := range k.Channels {
			for _, ph := range ch {
				for _, w := range ph.Waits {
					u := get(w.Flag)
					u.waits = append(u.waits, w.Count)
					u.waitGCDs[*k.GCD] = true
					u.waitPhases[[2]int{i, c}] = true
				}
				for _, s := range ph.Signals {
					u := get(s.Flag)
					u.stores++
					u.storeGCDs[*k.GCD] = true
					u.storeBufs[s.Buf] = true
				}
			}
		}
	}
	return m
}

// The flag protocol is consistent: every tail a sender raises is waited
// by one channel of one receiver on another GCD, which waits for counts
// 1, 2, ... up to exactly the number of stores (each slice once, none
// missing, none extra), in the receiver's own FIFO; every head count a
// sender waits for is reached by the receiver's stores. A flag nobody
// stores is waited by nobody.
func TestExpandFlagProtocol(t *testing.T) {
	for _, tc := range []struct {
		n    int
		sets []string
	}{{2, nil}, {8, nil}, {8, []string{"env.NCCL_PROTO=LL"}}, {8, []string{"env.NCCL_PROTO=Simple"}}} {
		_, out := expand(t, callTrace(tc.n, allCalls...), tc.sets...)
		uses := flagUses(kernels(out))
		tails := 0
		for f, u := range uses {
			where := fmt.Sprintf("%d GCDs %v: flag %s", tc.n, tc.sets, f)
			if u.stores == 0 {
				t.Errorf("%s is waited (%v) but never stored", where, u.waits)
				continue
			}
			if len(u.storeGCDs) != 1 || len(u.waitGCDs) > 1 {
				t.Errorf("%s stored from GCDs %v, waited on %v: want one of each", where, u.storeGCDs, u.waitGCDs)
			}
			switch {
			case strings.HasSuffix(f, ".tail"):
				tails++
				for i, c := range u.waits {
					if c != i+1 {
						t.Errorf("%s: waits %v, want 1..%d in order", where, u.waits, u.stores)
						break
					}
				}
				if len(u.waits) != u.stores {
					t.Errorf("%s: %d stores, highest count waited %d", where, u.stores, len(u.waits))
				}
				if len(u.waitPhases) != 1 {
					t.Errorf("%s waited by %d channels, want one", where, len(u.waitPhases))
				}
				for g := range u.waitGCDs {
					if u.storeGCDs[g] {
						t.Errorf("%s stored and waited on GCD %d", where, g)
					}
					for b := range u.storeBufs {
						if want := fmt.Sprintf("rccl.w.fifo%d", g); b != want {
							t.Errorf("%s stored into %s, not the receiver's FIFO %s", where, b, want)
						}
					}
				}
			case strings.HasSuffix(f, ".head"):
				for _, c := range u.waits {
					if c > u.stores {
						t.Errorf("%s: a wait for %d of %d stores would hang", where, c, u.stores)
					}
				}
			default:
				t.Errorf("%s is neither a tail nor a head", where)
			}
		}
		if tails == 0 {
			t.Errorf("%d GCDs %v: no tail flags", tc.n, tc.sets)
		}
	}
}

// Big transfers run the senders ahead of the receivers until the FIFO
// is full: then the senders wait for heads, each count at most once.
func TestExpandHeadsWaited(t *testing.T) {
	_, out := expand(t, callTrace(8, "rccl_all_reduce 16777216", "rccl_send 16777216", "rccl_recv 16777216"))
	waited := 0
	for f, u := range flagUses(kernels(out)) {
		if !strings.HasSuffix(f, ".head") {
			continue
		}
		waited += len(u.waits)
		for i, c := range u.waits {
			if i > 0 && c <= u.waits[i-1] {
				t.Errorf("%s: waits %v not increasing", f, u.waits)
				break
			}
		}
	}
	if waited == 0 {
		t.Error("no sender ever waits for a head: the FIFO never fills")
	}
}

// channels is how many channels each kernel of the expansion runs.
func channelCounts(ks []ir.Command) []int {
	var c []int
	for _, k := range ks {
		c = append(c, len(k.Channels))
	}
	return c
}

// RCCL drops channels when a collective is too small to keep their
// threads busy: an 8-byte AllReduce runs on one, a 1 MiB one on all 16 of
// the Frontier node's channels; on 2 GCDs (their rings over 4 links,
// doubled and copied) 1 MiB is split over all the communicator's channels,
// but each part is aligned up, so the last ones get no data and no
// workgroup.
// NCCL_MAX_NCHANNELS caps them, NCCL_PROTO sets the protocol.
func TestExpandChannelsAndProtocol(t *testing.T) {
	p, top, _ := expandNode(t)
	two, _ := Channels(top.GPU, mustRings(t, top, all(2)), p.Channels)
	for _, tc := range []struct {
		n        int
		call     string
		sets     []string
		channels int
		proto    string // in the kernel's name
	}{
		{8, "rccl_all_reduce 8", nil, 1, "_LL_"},
		{8, "rccl_all_reduce 1048576", nil, 16, ""},
		{8, "rccl_all_reduce 268435456", nil, 16, "_Simple_"},
		{8, "rccl_all_reduce 1048576", []string{"env.NCCL_MAX_NCHANNELS=4"}, 4, ""},
		{8, "rccl_all_reduce 268435456", []string{"env.NCCL_MAX_NCHANNELS=2"}, 2, "_Simple_"},
		{8, "rccl_all_reduce 8", []string{"env.NCCL_PROTO=Simple"}, 1, "_Simple_"},
		{8, "rccl_all_reduce 268435456", []string{"env.NCCL_PROTO=LL"}, 16, "_LL_"},
		{8, "rccl_broadcast 1048576", []string{"env.NCCL_PROTO=LL"}, 16, "_LL_"},
		{2, "rccl_all_reduce 8", nil, 1, "_LL_"},
		// all the communicator's channels chosen, each part aligned up to
		// 8 KiB: the parts that hold the 1 MiB get a workgroup
		{2, "rccl_all_reduce 1048576", nil, int(divUp(1<<20, roundUp(divUp(1<<20, int64(len(two))), simpleAlign))), ""},
	} {
		_, out := expand(t, callTrace(tc.n, tc.call), tc.sets...)
		ks := kernels(out)
		for _, k := range ks {
			if len(k.Channels) != tc.channels || !strings.Contains(k.Name, tc.proto) {
				t.Errorf("%d GCDs %s %v: %s on %d channels, want %d channels, %q", tc.n, tc.call, tc.sets, k.Name, len(k.Channels), tc.channels, tc.proto)
				break
			}
		}
	}
}

// The protocols lay out the wire differently: LL stores a flag with each
// 8 bytes of data (twice the bytes, the tail in the data), Simple the data
// and a separate tail.
func TestExpandProtocolWire(t *testing.T) {
	for _, tc := range []struct {
		proto  string
		inData bool
		wire   int64 // FIFO bytes written per data byte
	}{{"LL", true, 2}, {"Simple", false, 1}} {
		_, out := expand(t, callTrace(2, "rccl_broadcast 65536"), "env.NCCL_PROTO="+tc.proto)
		var fifo int64
		for _, k := range kernels(out) {
			if *k.GCD != 1 { // the root sends
				continue
			}
			for _, ch := range k.Channels {
				for _, ph := range ch {
					for _, a := range ph.Access {
						if a.Mode == "write" && strings.HasPrefix(a.Buf, "rccl.w.fifo") {
							fifo += a.Bytes
						}
					}
					for _, s := range ph.Signals {
						if s.InData != tc.inData {
							t.Errorf("%s: flag %s InData %v", tc.proto, s.Flag, s.InData)
						}
					}
				}
			}
		}
		if fifo != tc.wire*65536 {
			t.Errorf("%s: the root stores %d FIFO bytes for 65536 data bytes, want %d", tc.proto, fifo, tc.wire*65536)
		}
	}
}

// Expansion is deterministic: two expansions of the same calls are equal.
func TestExpandDeterministic(t *testing.T) {
	for _, n := range []int{2, 8} {
		text := callTrace(n, allCalls...)
		_, a := expand(t, text)
		_, b := expand(t, text)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%d GCDs: two expansions differ", n)
		}
	}
}

// A trace without RCCL calls comes back as it is.
func TestExpandNoCalls(t *testing.T) {
	in, out := expand(t, `{"op":"malloc","buf":"b","gcd":0,"bytes":64}`)
	if !reflect.DeepEqual(ir.FromTrace(in), out) {
		t.Errorf("got %+v, want %+v", out, in)
	}
}

// Every channel of a collective starts with the kernel's prologue (the
// work descriptor from the host's work FIFO with the communicator and
// channel, then the connections, then the counters they name, each
// waiting for the one before) and ends storing its steps back.
func TestExpandPrologueAndEpilogue(t *testing.T) {
	_, out := expand(t, callTrace(8, allCalls...))
	kernels := 0
	for _, o := range out {
		if o.Op != trace.Kernel {
			continue
		}
		kernels++
		for ch, phases := range o.Channels {
			if len(phases) < 5 {
				t.Fatalf("%s channel %d: %d phases, want the prologue's 3, work and the epilogue", o.Name, ch, len(phases))
			}
			first := phases[0].Access
			if len(first) != 3 || !strings.Contains(first[0].Buf, ".work") || !strings.Contains(first[1].Buf, ".dev") || !strings.Contains(first[2].Buf, ".dev") {
				t.Errorf("%s channel %d: first phase %+v, want the work descriptor, communicator and channel loads", o.Name, ch, first)
			}
			if a := phases[1].Access; len(a) != 1 || a[0].Mode != "read" || !strings.Contains(a[0].Buf, ".dev") {
				t.Errorf("%s channel %d: second phase %+v, want the connections' load", o.Name, ch, a)
			}
			if a := phases[2].Access; len(a) != 1 || a[0].Mode != "read" || !strings.Contains(a[0].Buf, ".fifo") {
				t.Errorf("%s channel %d: third phase %+v, want the FIFO counters' load", o.Name, ch, a)
			}
			if a := phases[len(phases)-1].Access; len(a) != 1 || a[0].Mode != "write" || !strings.Contains(a[0].Buf, ".dev") {
				t.Errorf("%s channel %d: last phase %+v, want the steps stored back", o.Name, ch, a)
			}
		}
	}
	if kernels == 0 {
		t.Fatal("no kernels")
	}
}

// A call's src_offset and dst_offset (rccl-tests' shifted iterations)
// move every access of its user buffers by that much and nothing else:
// the FIFOs, flags and prologue stay where they were.
func TestExpandOffsetsMoveOnlyTheUserData(t *testing.T) {
	const off = 64 << 20
	p, top, lim := expandNode(t)
	in, base := expand(t, callTrace(8, allCalls...))
	moved := slices.Clone(in)
	for i := range moved {
		o := &moved[i]
		switch {
		case o.Op == trace.RCCLSend:
			o.SrcOff = off
		case o.Op == trace.RCCLRecv:
			o.DstOff = off
		case o.IsRCCL() && o.Op != trace.RCCLCommInit:
			o.SrcOff, o.DstOff = off, off
		}
	}
	if err := trace.Check(moved, lim, "t.jsonl"); err != nil {
		t.Fatal(err)
	}
	shifted, err := Expand(ir.FromTrace(moved), p, top)
	if err != nil {
		t.Fatal(err)
	}
	a, b := kernels(base), kernels(shifted)
	if len(a) != len(b) {
		t.Fatalf("%d kernels, %d with offsets", len(a), len(b))
	}
	user := 0
	for i := range a {
		if len(a[i].Channels) != len(b[i].Channels) {
			t.Fatalf("kernel %d: %d channels, %d with offsets", i, len(a[i].Channels), len(b[i].Channels))
		}
		for c := range a[i].Channels {
			pa, pb := a[i].Channels[c], b[i].Channels[c]
			if len(pa) != len(pb) {
				t.Fatalf("kernel %d channel %d: %d phases, %d with offsets", i, c, len(pa), len(pb))
			}
			for j := range pa {
				for _, l := range [][2][]trace.Access{{pa[j].Access, pb[j].Access}, {pa[j].Preload, pb[j].Preload}} {
					if len(l[0]) != len(l[1]) {
						t.Fatalf("kernel %d channel %d phase %d: accesses differ in number", i, c, j)
					}
					for x, acc := range l[0] {
						want := acc
						if strings.HasPrefix(acc.Buf, "b") { // the calls' own buffers
							want.Offset += off
							user++
						}
						if got := l[1][x]; !reflect.DeepEqual(got, want) {
							t.Errorf("kernel %d (%s) channel %d phase %d: access %+v with offsets, want %+v", i, a[i].Name, c, j, got, want)
						}
					}
				}
			}
		}
	}
	if user == 0 {
		t.Fatal("no access of a call's buffer found")
	}
}

// LL loads a step's input before it polls for the data it receives: in
// LL, a phase that waits for received data preloads its reads of the
// call's own buffers (and reads them nowhere else); Simple preloads
// nothing.
func TestExpandLLPreloadsItsInput(t *testing.T) {
	for _, proto := range []string{"LL", "Simple"} {
		_, out := expand(t, callTrace(8, "rccl_all_reduce 65536", "rccl_reduce_scatter 65536", "rccl_reduce 65536"), "env.NCCL_PROTO="+proto)
		preloads := 0
		for _, k := range kernels(out) {
			for c, ch := range k.Channels {
				for j, ph := range ch {
					recv := slices.ContainsFunc(ph.Waits, func(w ir.FlagCount) bool { return w.Recv })
					where := fmt.Sprintf("%s %s channel %d phase %d", proto, k.Name, c, j)
					for _, a := range ph.Preload {
						preloads++
						if !recv || a.Mode != "read" || !strings.HasPrefix(a.Buf, "b") {
							t.Errorf("%s: preload %+v (waits for received data: %v), want only reads of the call's buffers before a receive", where, a, recv)
						}
					}
					for _, a := range ph.Access {
						if proto == "LL" && recv && a.Mode == "read" && strings.HasPrefix(a.Buf, "b") {
							t.Errorf("%s: reads its input %+v after the receive, not ahead of it", where, a)
						}
					}
				}
			}
		}
		if proto == "LL" && preloads == 0 {
			t.Errorf("LL: no preloads in a reduction's receive steps")
		}
		if proto == "Simple" && preloads > 0 {
			t.Errorf("Simple: %d preloads; its threads load only after the wait", preloads)
		}
	}
}

// RCCL 2.17.1 (ROCm 5.7) sends a chained Broadcast's or Reduce's channel
// part as one chunk: one slice stored and its tail raised per channel;
// RCCL 2.20.5 (ROCm 6.2) cuts 1 MiB over 16 channels into 32 KiB chunks.
func TestExpandChainChunksByRelease(t *testing.T) {
	for _, tc := range []struct {
		rocm string
		want int // tail stores of the busiest channel
	}{{"2.17.1", 1}, {"2.20.5", 2}} {
		for _, call := range []string{"rccl_broadcast 1048576", "rccl_reduce 1048576"} {
			_, out := expand(t, callTrace(8, call), "stack.rccl="+tc.rocm, "env.NCCL_PROTO=Simple")
			most := 0
			for _, k := range kernels(out) {
				for _, ch := range k.Channels {
					tails := 0
					for _, ph := range ch {
						for _, s := range ph.Signals {
							if strings.HasSuffix(s.Flag, ".tail") {
								tails++
							}
						}
					}
					most = max(most, tails)
				}
			}
			if most != tc.want {
				t.Errorf("RCCL %s %s: a channel raises its tail %d times, want %d", tc.rocm, call, most, tc.want)
			}
		}
	}
}
