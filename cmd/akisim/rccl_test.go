package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Bad rccl input exits 2 with one line naming the flag, before anything
// is simulated and with nothing on stdout.
func TestRCCLBadInput(t *testing.T) {
	noSimulation(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"rccl", "-bench", "allreduce_perf"}, `-bench: unknown rccl-tests benchmark "allreduce_perf" (want all_reduce_perf, all_gather_perf, reduce_scatter_perf, broadcast_perf, reduce_perf, alltoall_perf, sendrecv_perf)`},
		{[]string{"rccl", "-gcds", "0,1,0"}, "-gcds: 0 given twice"},
		{[]string{"rccl", "-gcds", "0,8"}, `-gcds: want GCD ids 0..7, comma separated, got "0,8"`},
		{[]string{"rccl", "-gcds", "-1"}, "-gcds: want GCD ids 0..7"},
		{[]string{"rccl", "-bench", "sendrecv_perf", "-gcds", "3"}, "-gcds: sendrecv_perf needs at least 2 GCDs, got 1"},
		{[]string{"rccl", "-iters", "0"}, "-iters: want 1..1048576 timed iterations, got 0"},
		{[]string{"rccl", "-warmup", "-1"}, "-warmup: want 0..1048576 iterations, got -1"},
		{[]string{"rccl", "-datatype", "bogus"}, `-datatype: unknown type "bogus" (want int8, uint8, int32, uint32, int64, uint64, half, float, double or bfloat16)`},
		{[]string{"rccl", "-bench", "broadcast_perf", "-root", "8"}, "-root: rank 8 is outside the 8 GCDs"},
		{[]string{"rccl", "-bench", "reduce_perf", "-gcds", "0,1", "-root", "2"}, "-root: rank 2 is outside the 2 GCDs"},
		{[]string{"rccl", "-bench", "reduce_perf", "-root", "-1"}, "-root: rank -1 is outside the 8 GCDs"},
		{[]string{"rccl", "-bench", "all_gather_perf", "-gcds", "0,1", "-sizes", "4"}, "-sizes: 4 bytes is less than one float element per rank (8 bytes)"},
		{[]string{"rccl", "-sizes", "0"}, `-sizes: want byte counts 1..2^40 or MIN:MAX, got "0"`},
		{[]string{"rccl", "-env", "NCCL_PROTO=LL128"}, "-env NCCL_PROTO=LL128: LL128 is not enabled on gfx90a (MI250X): RCCL runs LL and Simple only"},
		// issue 43: the node's own GPU is named
		{[]string{"rccl", "-config", "mi300x-node.toml", "-env", "NCCL_PROTO=LL128"}, "-env NCCL_PROTO=LL128: LL128 is not modelled on gfx942 (MI300X): the model runs RCCL's LL and Simple only"},
		{[]string{"rccl", "-config", "mi300a-node.toml", "-env", "NCCL_PROTO=LL128"}, "-env NCCL_PROTO=LL128: LL128 is not modelled on gfx942 (MI300A): the model runs RCCL's LL and Simple only"},
		{[]string{"rccl", "-bench", "broadcast_perf", "-env", "NCCL_ALGO=Tree"}, "-env NCCL_ALGO=Tree: RCCL has no tree algorithm for broadcast_perf"},
		{[]string{"rccl", "-env", "NCCL_ALGO=Bogus"}, "-env NCCL_ALGO=Bogus: "},
		{[]string{"rccl", "-env", "NCCL_PROTO=bogus"}, `-env NCCL_PROTO=bogus: must be "", "LL" or "Simple", got "bogus"`},
		{[]string{"-workload", "p2p", "-iters", "3"}, "-iters: applies to -workload rccl only, not to p2p"},
		{[]string{"-workload", "osu", "-warmup", "3"}, "-warmup: applies to -workload rccl only, not to osu"},
		{[]string{"stream", "-datatype", "half"}, "-datatype: applies to -workload rccl only, not to stream"},
		{[]string{"osu", "-root", "1"}, "-root: applies to -workload rccl only, not to osu"},
	} {
		code, out, errs := akisim(t, tc.args...)
		if code != 2 || strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0 || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, one line containing %q", tc.args, code, out, errs, tc.want)
		}
	}
}

// rcclDebug runs an 8-byte all_reduce_perf with NCCL_DEBUG=INFO and more
// flags, and returns stdout and stderr.
func rcclDebug(t *testing.T, more ...string) (string, string) {
	t.Helper()
	args := append([]string{"rccl", "-sizes", "8", "-iters", "1", "-warmup", "1", "-env", "NCCL_DEBUG=INFO"}, more...)
	code, out, errs := akisim(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	return out, errs
}

var channelLine = regexp.MustCompile(`^\S+ \[0\] NCCL INFO Channel (\d\d)/(\d\d) :((?:\s+\d+)+)$`)

// channelRings are the rings of the "NCCL INFO Channel xx/nn :" lines of
// out, in order, after checking their numbering.
func channelRings(t *testing.T, out string) []string {
	t.Helper()
	var rings []string
	for _, l := range strings.Split(out, "\n") {
		m := channelLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rings = append(rings, strings.Join(strings.Fields(m[3]), " "))
		if m[1] != twoDigits(len(rings)-1) {
			t.Errorf("line %q: channel %s, want %s", l, m[1], twoDigits(len(rings)-1))
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if m := channelLine.FindStringSubmatch(l); m != nil && m[2] != twoDigits(len(rings)) {
			t.Errorf("line %q: of %s channels, but %d lines", l, m[2], len(rings))
		}
	}
	return rings
}

func twoDigits(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }

// NCCL_DEBUG=INFO prints, where RCCL does (while the communicator is
// created, before the table), one line per channel: on the Frontier node
// 16 channels running RCCL's four rings in turn.
func TestRCCLDebugRings(t *testing.T) {
	out, _ := rcclDebug(t)
	rings := channelRings(t, out)
	four := []string{"0 1 3 2 4 5 7 6", "0 6 7 5 4 2 3 1", "0 1 5 4 6 7 3 2", "0 2 3 7 6 4 5 1"}
	if len(rings) != 16 {
		t.Fatalf("%d Channel lines, want 16:\n%s", len(rings), out)
	}
	for c, r := range rings {
		if r != four[c%4] {
			t.Errorf("channel %d runs ring %s, want %s", c, r, four[c%4])
		}
	}
	first, table := strings.Index(out, "NCCL INFO Channel 00/16"), strings.Index(out, "#       size")
	if devices := strings.Index(out, "# Using devices"); !(devices >= 0 && devices < first && first < table) {
		t.Errorf("the Channel lines are not between the device lines and the table:\n%s", out)
	}
	if n := strings.Count(out, "NCCL INFO Channel"); n != 16 {
		t.Errorf("%d Channel lines in all, want 16", n)
	}
}

// The rings follow the links: the node with doubled xGMI between GCDs of
// a package gets other rings, still each a ring through all 8 GCDs from
// rank 0.
func TestRCCLDebugRingsDualXGMI(t *testing.T) {
	out, _ := rcclDebug(t)
	dualOut, _ := rcclDebug(t, "-config", "frontier-dual-xgmi.toml")
	frontier, dual := channelRings(t, out), channelRings(t, dualOut)
	if len(dual) == 0 {
		t.Fatalf("no Channel lines on frontier-dual-xgmi.toml:\n%s", dualOut)
	}
	for _, r := range dual {
		g := strings.Fields(r)
		sorted := slices.Clone(g)
		slices.Sort(sorted)
		if g[0] != "0" || strings.Join(sorted, " ") != "0 1 2 3 4 5 6 7" {
			t.Errorf("dual-xgmi ring %q: not a ring through GCDs 0..7 from rank 0", r)
		}
	}
	set := func(rings []string) string {
		s := slices.Clone(rings)
		slices.Sort(s)
		return strings.Join(slices.Compact(s), "; ")
	}
	if set(frontier) == set(dual) {
		t.Errorf("the dual-xgmi node has the Frontier node's rings: %s", set(dual))
	}
}

// -format csv keeps stdout pure CSV with NCCL_DEBUG=INFO: the header and
// rows only; RCCL's lines go to stderr (the process's: run as a binary).
func TestRCCLDebugCSV(t *testing.T) {
	r := exe(t, "../..", nil, nil, "rccl", "-sizes", "8", "-iters", "1", "-warmup", "1", "-env", "NCCL_DEBUG=INFO", "-format", "csv")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	out, errs := r.stdout, r.stderr
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "workload,case,src,dst,bytes,metric,value,unit" || len(lines) != 7 {
		t.Fatalf("stdout is not the header and 6 rows:\n%s", out)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "rccl,all_reduce_perf,gcd0,gcd0+gcd1+gcd2+gcd3+gcd4+gcd5+gcd6+gcd7,8,") || strings.Count(l, ",") != 7 {
			t.Errorf("row %q", l)
		}
	}
	if strings.Contains(out, "NCCL") || strings.Count(errs, "NCCL INFO Channel") != 16 {
		t.Errorf("stdout %q\nstderr %q: want RCCL's 16 Channel lines on stderr only", out, errs)
	}
}

// An RCCL trace replays (a rank that leaves the datatype out calls with
// float, so it matches one that writes it); one where a comm rank never joins a collective
// is bad input: one line at the collective's line, exit 2.
func TestRCCLTrace(t *testing.T) {
	const bufs = `{"op":"malloc","buf":"a0","gcd":0,"bytes":1048576}
{"op":"malloc","buf":"a1","gcd":1,"bytes":1048576,"rank":1}
{"op":"rccl_comm_init","comm":"w","gcds":[0,1]}
{"op":"rccl_all_reduce","comm":"w","gcd":0,"src":"a0","dst":"a0","bytes":1048576,"stream":1}
`
	out := goodTrace(t, bufs+`{"op":"rccl_all_reduce","comm":"w","gcd":1,"src":"a1","dst":"a1","bytes":1048576,"datatype":"float","stream":1,"rank":1}
{"op":"device_sync"}
{"op":"device_sync","rank":1}
`)
	if !strings.Contains(out, ",line4:ncclDevKernel_AllReduce_") || !strings.Contains(out, ",line5:ncclDevKernel_AllReduce_") {
		t.Errorf("no kernel rows for the two calls:\n%s", out)
	}
	badTrace(t, bufs, `:4: op: rank 1 (GCD 1) of communicator "w" never calls this rccl_all_reduce: it would wait forever`)
}
