package main

import (
	"strings"
	"testing"
)

// An MPI trace runs; one whose send is never received is bad input: one
// line naming the file, the send's line and what is wrong, exit 2.
func TestMPITrace(t *testing.T) {
	const good = `{"op":"malloc","buf":"s","gcd":0,"bytes":1048576}
{"op":"malloc","buf":"r","gcd":1,"bytes":1048576,"rank":1}
{"op":"mpi_send","buf":"s","bytes":1048576,"peer":1}
{"op":"mpi_recv","buf":"r","bytes":1048576,"peer":0,"rank":1}
`
	goodTrace(t, good)
	badTrace(t, `{"op":"malloc","buf":"s","gcd":0,"bytes":64}
{"op":"mpi_send","buf":"s","bytes":64,"peer":1}
`, `:2: op: this send (rank 0 -> 1, tag 0) is never matched`)
}

// The osu workload prints one row per size: case the benchmark, src the
// first rank's GCD, dst every rank's GCD; -sizes MIN:MAX doubles.
func TestOSUWorkload(t *testing.T) {
	code, out, errs := akisim(t, "osu", "-bench", "osu_latency", "-gcds", "0,6", "-sizes", "1024:4096", "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[1], "osu,osu_latency,gcd0,gcd0+gcd6,1024,latency,") ||
		!strings.HasPrefix(lines[3], "osu,osu_latency,gcd0,gcd0+gcd6,4096,latency,") {
		t.Errorf("output\n%s", out)
	}
}

// Two ranks each in a large blocking mpi_send before their mpi_recv wait
// for each other forever (the rendezvous needs the receiver): bad input,
// one line at the first call that never returns, exit 2.
func TestMPIDeadlock(t *testing.T) {
	badTrace(t, `{"op":"malloc","buf":"s0","gcd":0,"bytes":1048576}
{"op":"malloc","buf":"s1","gcd":1,"bytes":1048576,"rank":1}
{"op":"mpi_send","buf":"s0","bytes":1048576,"peer":1}
{"op":"mpi_recv","buf":"s0","bytes":1048576,"peer":1}
{"op":"mpi_send","buf":"s1","bytes":1048576,"peer":0,"rank":1}
{"op":"mpi_recv","buf":"s1","bytes":1048576,"peer":0,"rank":1}
`, `:3: op: this call never returns: what it waits for never comes (a flag no one sets, host threads waiting for each other, e.g. two ranks each in a large blocking mpi_send before its mpi_recv, or kernels waiting for each other, e.g. rccl_send before rccl_recv outside an rccl_group_start/end with more than a FIFO's worth of data)`)
}

// A replayed MPI trace reports its calls, not the library's own steps: the
// message's copy under the receive that queued it (mpi_irecv: it starts
// once the sender is ready), each call's return, and none of the
// library's flags or events.
func TestMPITraceRows(t *testing.T) {
	const tr = `{"op":"malloc","buf":"s","gcd":0,"bytes":67108864}
{"op":"malloc","buf":"r","gcd":2,"bytes":67108864,"rank":1}
{"op":"mpi_isend","buf":"s","bytes":67108864,"peer":1,"req":"x"}
{"op":"mpi_irecv","buf":"r","bytes":67108864,"peer":0,"req":"x","rank":1}
{"op":"mpi_wait","req":"x"}
{"op":"mpi_wait","req":"x","rank":1}
`
	out := goodTrace(t, tr)
	var cases []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Split(l, ",")
		cases = append(cases, f[1]+" "+f[5])
	}
	want := "line3:mpi_isend return,line4:mpi_irecv start,line4:mpi_irecv end,line4:mpi_irecv bandwidth," +
		"line4:mpi_irecv return,line5:mpi_wait return,line6:mpi_wait return"
	if got := strings.Join(cases, ","); got != want {
		t.Errorf("rows %s\nwant %s", got, want)
	}
}
