// Package commcheck checks what a trace's MPI and RCCL calls mean
// together, across its ranks, as package trace checks each call's own
// fields: every message matched, requests waited, the ranks' collectives
// the same in the same order, communicators known, buffers the calls'
// own device memory and large enough. trace.Check uses it through
// trace.Limits.Libraries (job.Limits sets it).
package commcheck

import (
	"fmt"

	"github.com/akisim/akisim/trace"
)

// Libraries are MPI's and RCCL's checks, for trace.Limits.Libraries.
var Libraries = &trace.Libraries{New: func(ranks []int) []trace.Semantics { return []trace.Semantics{New(ranks)} }}

// checker is what the check knows of a trace's MPI and RCCL calls so far.
type checker struct {
	msgs mpiState  // MPI requests and unmatched messages so far
	coll rcclState // RCCL communicators and calls so far
	at   *trace.At // the trace at the call being checked
	line int       // that call's line
	gcds int       // the node's GCDs
}

// New checks the MPI and RCCL calls of a trace of the given ranks (the
// communicator of its MPI collectives).
func New(ranks []int) trace.Semantics {
	return &checker{msgs: newMPIStateOf(ranks), coll: newRCCLState()}
}

// Owns says whether o is an MPI or RCCL call.
func (c *checker) Owns(o *trace.Op) bool { return o.IsMPI() || o.IsRCCL() }

// Check checks one MPI or RCCL call, in trace order.
func (c *checker) Check(o *trace.Op, at *trace.At) *trace.Error {
	c.at, c.line, c.gcds = at, at.Line(), at.GCDs()
	if o.IsMPI() {
		return c.mpi(o)
	}
	return c.rccl(o)
}

// Finish reports, after the last op, the first message never matched,
// request never waited or collective some rank never joins.
func (c *checker) Finish(name string) *trace.Error {
	if e := c.msgs.matchLeft(name); e != nil {
		return e
	}
	return c.coll.rcclLeft(name)
}

func errf(field, format string, args ...any) *trace.Error {
	return &trace.Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}
