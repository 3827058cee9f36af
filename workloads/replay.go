package workloads

import (
	"strconv"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// TraceRun replays a trace file's operations and reports, for every
// copy, its start, end and achieved bandwidth, for every event its time,
// and for every blocking call when the host returned.
func TraceRun(name string, ops []trace.Op) job.Run {
	// MPI calls run as the library's copies, flags and host time (package
	// mpi), each carrying its call's line: rows name the call, report its
	// copies and when it returned, and leave out the library's own flags
	// and events.
	mpiCall := map[[2]int]trace.Kind{} // (line, rank) -> the MPI call made there
	for i := range ops {
		if ops[i].IsMPI() {
			mpiCall[[2]int{ops[i].Line, ops[i].Rank}] = ops[i].Op
		}
	}
	return job.Run{Name: name, Ops: ops, Rows: func(r *job.Replay) []report.Row {
		t := traceRows{bufs: map[string]trace.Buffer{}, mpiCall: mpiCall}
		rows := make([]report.Row, 0, 2*len(r.Ops)) // most ops make two rows or three
		for i, o := range r.Ops {
			last := i+1 == len(r.Ops) || r.Ops[i+1].Op.Line != o.Op.Line || r.Ops[i+1].Op.Rank != o.Op.Rank
			rows = t.add(rows, o, last)
		}
		return rows
	}}
}

// StreamRows turns a streamed trace's results into rows, op by op, as
// TraceRun's Rows do (for run.ExecuteStream): each call appends op o's rows
// to rows. A streamed trace has no MPI calls.
func StreamRows() func(rows []report.Row, o job.OpResult) []report.Row {
	t := traceRows{bufs: map[string]trace.Buffer{}}
	return func(rows []report.Row, o job.OpResult) []report.Row { return t.add(rows, o, false) }
}

// traceRows turns a trace's results into rows, one op after another.
type traceRows struct {
	bufs    map[string]trace.Buffer // allocated so far (the MPI library's bounce buffers too)
	mpiCall map[[2]int]trace.Kind   // (line, rank) -> the MPI call made there
}

// where is where buffer b lives, as rows name it.
func (t *traceRows) where(b string) string {
	x, ok := t.bufs[b]
	switch {
	case !ok:
		return ""
	case x.Host:
		return report.NUMA(x.NUMA)
	default:
		return report.GCD(x.GCD)
	}
}

// add appends op o's rows; last says whether o is its MPI call's last op.
func (t *traceRows) add(rows []report.Row, o job.OpResult, last bool) []report.Row {
	if b, ok := o.Op.Allocates(); ok {
		if _, dup := t.bufs[b.Name]; !dup {
			t.bufs[b.Name] = b
		}
	}
	c := string(o.Op.Op)
	call, isMPI := t.mpiCall[[2]int{o.Op.Line, o.Op.Rank}]
	if isMPI {
		c = string(call)
	}
	if o.Op.Label != "" {
		c = o.Op.Label
	}
	line := strconv.Itoa(o.Op.Line)
	row := func(src, dst string, bytes int64, metric string, v float64, unit string) {
		rows = append(rows, report.Row{Workload: "trace", Case: "line" + line + ":" + c, Src: src, Dst: dst,
			Bytes: bytes, Metric: metric, Value: v, Unit: unit})
	}
	us := func(t float64) float64 { return t * 1e6 }
	switch {
	case o.Op.IsCopy():
		s, d := t.where(o.Op.Src), t.where(o.Op.Dst)
		row(s, d, o.Op.Bytes, "start", us(float64(o.Start)), "us")
		row(s, d, o.Op.Bytes, "end", us(float64(o.End)), "us")
		row(s, d, o.Op.Bytes, "bandwidth", gbps(float64(o.Op.Bytes), float64(o.End-o.Start)), "GB/s")
	case o.Op.Op == trace.Kernel || o.Op.Op == trace.HostAccess:
		n := o.Op.Bytes // a library's phased kernel: its call's size (algbw)
		for _, a := range o.Op.Access {
			n += a.Bytes * a.Times() // every pass moves its bytes
		}
		var g string
		if o.Op.Op == trace.Kernel {
			g = report.GCD(*o.Op.GCD)
		} else {
			g = report.NUMA(*o.Op.NUMA)
		}
		if o.Op.Label == "" && o.Op.Name != "" {
			c = o.Op.Name
		}
		// a kernel runs from its first workgroup to its end, as rocprofv3's
		// dispatch records (and -rocprof) time it: not from its launch
		start := float64(o.Start)
		if o.Op.Op == trace.Kernel && o.Begin > start {
			start = o.Begin
		}
		row(g, "", n, "start", us(start), "us")
		row(g, "", n, "end", us(float64(o.End)), "us")
		if n > 0 { // a kernel held at its recorded time, or one that only waits, moves no bytes
			row(g, "", n, "bandwidth", gbps(float64(n), float64(o.End)-start), "GB/s")
		}
	case o.Op.Op == trace.Prefetch: // the host waits: start and end of the migration
		d := "host"
		if g, _ := trace.PrefetchGCD(o.Op.Dst); g >= 0 {
			d = report.GCD(g)
		}
		row("", d, 0, "start", us(float64(o.Start)), "us")
		row("", d, 0, "end", us(float64(o.End)), "us")
	case isMPI: // the library's flags, events and host time: only the call's return, below
	case o.Op.Op == trace.EventRecord:
		row("", "", 0, "time", us(float64(o.End)), "us")
	case o.Op.Op == trace.EventSync || o.Op.Op == trace.StreamSync || o.Op.Op == trace.DeviceSync:
		row("", "", 0, "return", us(float64(o.End)), "us")
	}
	if isMPI && last {
		row("", "", 0, "return", us(float64(o.End)), "us") // the call's last op: the host goes on
	}
	return rows
}
