package profile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/akisim/akisim/trace"
)

// RCCL API records (rocprofv3 --rccl-trace: category RCCL_API, names as
// in rocprofiler-sdk's rccl/api_id.h, arguments as in rccl/api_args.h;
// docs/references.md [rocprofiler-sdk]) become the trace's rccl_* ops, so
// the rccl package re-simulates each collective. The library's own HIP
// calls and kernels run inside its calls: a HIP call nested in time in an
// RCCL call of the same process and thread is RCCL's, and is not replayed.

// rcclKinds maps RCCL's functions to the trace's kinds.
var rcclKinds = map[string]trace.Kind{
	"ncclAllReduce": trace.RCCLAllReduce, "ncclAllGather": trace.RCCLAllGather, "ncclReduceScatter": trace.RCCLReduceScatter,
	"ncclBroadcast": trace.RCCLBroadcast, "ncclReduce": trace.RCCLReduce, "ncclAllToAll": trace.RCCLAllToAll,
	"ncclSend": trace.RCCLSend, "ncclRecv": trace.RCCLRecv, "ncclGroupStart": trace.RCCLGroupStart, "ncclGroupEnd": trace.RCCLGroupEnd,
}

// rcclHostOnly are RCCL functions that launch nothing: host time.
var rcclHostOnly = []string{"ncclCommInitRank", "ncclCommInitAll", "ncclCommInitRankConfig", "ncclGetUniqueId", "ncclGetVersion",
	"ncclCommDestroy", "ncclCommFinalize", "ncclCommCount", "ncclCommCuDevice", "ncclCommUserRank", "ncclGetErrorString",
	"ncclGetLastError", "ncclCommGetAsyncError", "ncclRedOpCreatePreMulSum", "ncclRedOpDestroy", "ncclMemAlloc", "ncclMemFree",
	"ncclCommRegister", "ncclCommDeregister", "ncclCommAbort", "mscclLoadAlgo", "mscclUnloadAlgo"}

// rcclDatatypes are ncclDataType_t's values (rccl.h) by the trace's names;
// a record gives the enum's number or its name.
var rcclDatatypes = map[string]string{
	"0": "int8", "1": "uint8", "2": "int32", "3": "uint32", "4": "int64", "5": "uint64", "6": "half", "7": "float", "8": "double", "9": "bfloat16",
	"ncclInt8": "int8", "ncclChar": "int8", "ncclUint8": "uint8", "ncclInt32": "int32", "ncclInt": "int32", "ncclUint32": "uint32",
	"ncclInt64": "int64", "ncclUint64": "uint64", "ncclFloat16": "half", "ncclHalf": "half", "ncclFloat32": "float", "ncclFloat": "float",
	"ncclFloat64": "double", "ncclDouble": "double", "ncclBfloat16": "bfloat16",
}

// rcclRedOps are ncclRedOp_t's built-in values (rccl.h).
var rcclRedOps = map[string]string{"0": "sum", "1": "prod", "2": "max", "3": "min", "4": "avg",
	"ncclSum": "sum", "ncclProd": "prod", "ncclMax": "max", "ncclMin": "min", "ncclAvg": "avg"}

// rcclPlan is what the RCCL records give the trace: per RCCL call (by
// index in the sorted calls) its op, and the HIP calls folded into them.
type rcclPlan struct {
	ops    map[int]trace.Op // call index -> its rccl_* op (GCD, stream set later)
	folded map[int]bool     // HIP call indexes that are RCCL's own
	gcds   []int            // the communicator: GCDs of the collectives' kernels, in first-use order
	// hasInside are the RCCL calls with HIP calls inside them
	hasInside map[int]bool
	err       error
}

// planRCCL maps the RCCL calls of calls (sorted by process and start).
// Every collective needs its count and datatype; when any lacks them (the
// records carry no arguments) no call is mapped, and the library's HIP
// calls and kernels replay as recorded, reported as approximated.
func (b *builder) planRCCL(calls []Call, kernels map[[2]uint64][]Kernel) rcclPlan {
	plan := rcclPlan{ops: map[int]trace.Op{}, folded: map[int]bool{}}
	var rcs []int
	for i, c := range calls {
		if c.RCCL {
			rcs = append(rcs, i)
		}
	}
	if len(rcs) == 0 {
		return plan
	}
	// nested: the HIP calls inside each RCCL call, and their kernels
	inside := map[int][]int{}
	for _, r := range rcs {
		rc := calls[r]
		for j := r + 1; j < len(calls) && calls[j].Process == rc.Process && calls[j].Start <= rc.End; j++ {
			if c := calls[j]; !c.RCCL && c.Thread == rc.Thread && c.End <= rc.End {
				inside[r] = append(inside[r], j)
			}
		}
	}
	plan.hasInside = map[int]bool{}
	for r := range inside {
		plan.hasInside[r] = true
	}
	var missing []string
	var pending []int // a group's collectives: they get the kernels launched in its ncclGroupEnd, in order
	for _, r := range rcs {
		c := calls[r]
		var ks []Kernel
		ks = append(ks, kernels[[2]uint64{uint64(c.Process), c.Corr}]...)
		for _, j := range inside[r] {
			ks = append(ks, kernels[[2]uint64{uint64(calls[j].Process), calls[j].Corr}]...)
		}
		kind, known := rcclKinds[c.Name]
		switch {
		case known && kind == trace.RCCLGroupStart:
			plan.ops[r] = trace.Op{Op: kind}
		case known && kind == trace.RCCLGroupEnd:
			plan.ops[r] = trace.Op{Op: kind}
			for i, p := range pending {
				if i < len(ks) {
					plan.assign(b, p, ks[i])
				}
			}
			pending = nil
		case known:
			o, err := rcclOp(c, kind)
			if err != nil {
				plan.err = fmt.Errorf("%s: %v", b.p.Source, err)
				return plan
			}
			if o == nil {
				missing = append(missing, c.Name)
				continue
			}
			plan.ops[r] = *o
			if len(ks) > 0 {
				plan.assign(b, r, ks[0])
			} else {
				pending = append(pending, r)
			}
		case slices.Contains(rcclHostOnly, c.Name):
		default:
			plan.err = fmt.Errorf("%s: process %d: RCCL call %s at %d ns is not one the import maps", b.p.Source, c.Process, c.Name, c.Start)
			return plan
		}
	}
	for _, r := range rcs { // in call order: the first such call is named
		if o, ok := plan.ops[r]; ok && o.Op != trace.RCCLGroupStart && o.Op != trace.RCCLGroupEnd && o.GCD == nil {
			plan.err = fmt.Errorf("%s: process %d: RCCL call %s at %d ns launched no kernel the records hold: its GCD is unknown",
				b.p.Source, calls[r].Process, calls[r].Name, calls[r].Start)
			return plan
		}
	}
	if len(missing) > 0 {
		for _, m := range missing {
			b.p.Report.approx("RCCL calls without count and datatype arguments kept as their kernels (" + m + ")")
		}
		return rcclPlan{ops: map[int]trace.Op{}, folded: map[int]bool{}, hasInside: plan.hasInside}
	}
	for _, js := range inside {
		for _, j := range js {
			plan.folded[j] = true
		}
	}
	return plan
}

// assign puts call r's op on the GCD and stream of kernel k.
func (plan *rcclPlan) assign(b *builder, r int, k Kernel) {
	g, ok := b.am.gcd[k.Agent]
	if !ok {
		return
	}
	o := plan.ops[r]
	o.GCD = &g
	o.Stream = b.stream(k.Process, g, k.Stream, k.Queue)
	plan.ops[r] = o
	if !slices.Contains(plan.gcds, g) {
		plan.gcds = append(plan.gcds, g)
	}
}

// rcclOp is the op of a collective, send or receive from its arguments;
// nil if the record has no count or datatype.
func rcclOp(c Call, kind trace.Kind) (*trace.Op, error) {
	count, ok := c.Args["count"]
	for _, k := range []string{"sendcount", "recvcount"} {
		if v, has := c.Args[k]; has && !ok {
			count, ok = v, true
		}
	}
	dt, okT := c.Args["datatype"]
	if !ok || !okT {
		return nil, nil
	}
	bad := func(field, v, want string) error {
		return fmt.Errorf("process %d: RCCL call %s (correlation id %d): %s %q is not %s", c.Process, c.Name, c.Corr, field, v, want)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(count), 10, 64)
	if err != nil || n <= 0 || n > maxWorkItems {
		return nil, bad("count", count, "a positive element count")
	}
	typ, okT := rcclDatatypes[strings.TrimSpace(dt)]
	if !okT {
		return nil, bad("datatype", dt, "an ncclDataType_t akisim models")
	}
	o := &trace.Op{Op: kind, Datatype: typ, Bytes: n * trace.Datatypes[typ]}
	if slices.Contains([]trace.Kind{trace.RCCLAllReduce, trace.RCCLReduceScatter, trace.RCCLReduce}, kind) {
		v := c.Args["op"]
		if o.RedOp, ok = rcclRedOps[strings.TrimSpace(v)]; !ok {
			return nil, bad("op", v, "a built-in ncclRedOp_t")
		}
	}
	rank := map[trace.Kind]string{trace.RCCLBroadcast: "root", trace.RCCLReduce: "root", trace.RCCLSend: "peer", trace.RCCLRecv: "peer"}
	if field, ok := rank[kind]; ok {
		v := c.Args[field]
		x, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || x < 0 {
			return nil, bad(field, v, "a rank")
		}
		if field == "root" {
			o.Root = &x
		} else {
			o.Peer = &x
		}
	}
	return o, nil
}

// finishRCCL sizes the collectives over the communicator's ranks and
// gives each its rank's buffer on its GCD; calls with a per-rank count
// (all-gather, reduce-scatter, all-to-all) move count x ranks elements.
func (b *builder) finishRCCL(o *trace.Op, proc int, nranks int) {
	if o.Op == trace.RCCLAllGather || o.Op == trace.RCCLReduceScatter || o.Op == trace.RCCLAllToAll {
		o.Bytes *= int64(nranks)
	}
	agent := uint64(0)
	for id, g := range b.am.gcd {
		if g == *o.GCD {
			agent = id
		}
	}
	name, _ := b.buffer(proc, agent, "rccl", o.Bytes)
	if o.Op == trace.RCCLSend || o.Op == trace.RCCLRecv {
		o.Buf = name
	} else {
		o.Src, o.Dst = name, name
	}
	o.Comm = "rccl"
}
