package workloads

import (
	"math"
	"testing"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// withoutDelay is a run's trace without the delay kernel and its release,
// as the replica was before it followed the sample.
func withoutDelay(r job.Run) job.Run {
	var ops []trace.Op
	for _, o := range r.Ops {
		if o.WaitFlag == "" && o.Op != trace.FlagSet {
			ops = append(ops, o)
		}
	}
	r.Ops = ops
	return r
}

// The delay kernel keeps the host's cost of queuing out of the timed
// interval: with a host slower than the copies (20 us per HIP call), every
// case reports what it reports with the default host, within 1%. Without
// the delay kernel the latency follows the host instead.
func TestP2PHostCostDoesNotLeak(t *testing.T) {
	p := DefaultP2P(8)
	var runs []job.Run
	for _, c := range p.Cases {
		runs = append(runs, p.run(c, 0, 0), p.run(c, 0, 1))
	}
	fast, err := run.Execute(frontier(t), runs)
	if err != nil {
		t.Fatal(err)
	}
	slowHost := frontier(t, "runtime.api_call_ns=20000")
	slow, err := run.Execute(slowHost, runs)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range fast.Rows {
		s := slow.Rows[k]
		if math.Abs(s.Value-r.Value) > 0.01*r.Value {
			t.Errorf("%s %s->%s: %.4g %s with a 20 us host call, %.4g with the default", r.Case, r.Src, r.Dst, s.Value, r.Unit, r.Value)
		}
	}
	// control: the test would see a leak
	lat := p.run("latency", 0, 0)
	leak, err := run.Execute(slowHost, []job.Run{withoutDelay(lat)})
	if err != nil {
		t.Fatal(err)
	}
	held := fast.Rows[4] // latency 0->0
	if held.Case != "latency" || held.Src != held.Dst {
		t.Fatalf("row 4 is %s %s->%s, want latency within GCD 0", held.Case, held.Src, held.Dst)
	}
	if got := leak.Rows[0].Value; got < 10*held.Value {
		t.Errorf("control: without the delay kernel a 20 us host gives %.3g us per copy, want well above %.3g us", got, held.Value)
	}
}

// The rows compute what the sample computes from the events: GB moved
// over start..stop, both directions for bidirectional, doubled within one
// GCD (read and write); latency per copy, never doubled.
func TestP2PArithmetic(t *testing.T) {
	p := P2P{GCDs: 2, Bytes: 1000, Repeat: 3, LatencyBytes: 16, LatencyIters: 4}
	rp := &job.Replay{Events: map[string]float64{"start": 1, "stop": 3}} // 2 s
	for _, c := range []struct {
		c    string
		i, j int
		want float64
	}{
		{"unidirectional", 0, 1, 1000 * 3 / 2. / 1e9},
		{"unidirectional", 1, 1, 2 * 1000 * 3 / 2. / 1e9},
		{"bidirectional", 1, 0, 2 * 1000 * 3 / 2. / 1e9},
		{"bidirectional", 0, 0, 2 * 2 * 1000 * 3 / 2. / 1e9},
		{"latency", 0, 1, 2e6 / 4},
		{"latency", 1, 1, 2e6 / 4},
	} {
		r := p.run(c.c, c.i, c.j)
		if got := r.Rows(rp)[0].Value; math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("%s: %g, want %g", r.Name, got, c.want)
		}
	}
}

// Each measurement has the sample's shape: the delay kernel on GCD i, then
// start, the copies, stop, the release and the synchronisation, and the
// copies sit between start and stop on the streams the events are on.
func TestP2PShape(t *testing.T) {
	p := DefaultP2P(8)
	for _, c := range p.Cases {
		r := p.run(c, 2, 5)
		var kinds []trace.Kind
		for _, o := range r.Ops {
			if len(kinds) == 0 || kinds[len(kinds)-1] != o.Op {
				kinds = append(kinds, o.Op)
			}
		}
		want := []trace.Kind{trace.Malloc, trace.Kernel, trace.EventRecord, trace.MemcpyPeerAsy, trace.EventRecord, trace.FlagSet, trace.StreamSync}
		if c == "bidirectional" {
			want = []trace.Kind{trace.Malloc, trace.Kernel, trace.EventRecord, trace.StreamWait, trace.MemcpyPeerAsy,
				trace.EventRecord, trace.StreamWait, trace.EventRecord, trace.FlagSet, trace.StreamSync}
		}
		if len(kinds) != len(want) {
			t.Fatalf("%s: ops %v, want %v", c, kinds, want)
		}
		for k := range want {
			if kinds[k] != want[k] {
				t.Fatalf("%s: ops %v, want %v", c, kinds, want)
			}
		}
		if k := r.Ops[2]; k.WaitFlag == "" || *k.GCD != 2 || k.Grid != 1 || k.Workgroup != 1 {
			t.Errorf("%s: delay kernel %+v, want <<<1, 1>>> on GCD 2 waiting on a flag", c, k)
		}
	}
}
