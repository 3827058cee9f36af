package trace

import (
	"slices"
)

// RCCL calls, as a program makes them: a communicator over GCDs
// (ncclCommInitAll / ncclCommInitRank: comm rank i on GCDs[i]), then
// collectives, each called once per comm rank with that rank's device
// (gcd), buffers and stream. Every comm rank makes the same sequence of
// collectives on a communicator; the k-th call of each rank is one
// collective (RCCL requires it), so traces match statically. Package
// rccl turns the calls into the library's kernels.

// RCCL kinds.
const (
	RCCLCommInit      Kind = "rccl_comm_init"
	RCCLAllReduce     Kind = "rccl_all_reduce"
	RCCLAllGather     Kind = "rccl_all_gather"
	RCCLReduceScatter Kind = "rccl_reduce_scatter"
	RCCLBroadcast     Kind = "rccl_broadcast"
	RCCLReduce        Kind = "rccl_reduce"
	RCCLAllToAll      Kind = "rccl_all_to_all"
	RCCLSend          Kind = "rccl_send"
	RCCLRecv          Kind = "rccl_recv"
	// ncclGroupStart / ncclGroupEnd of the calling thread: the sends and
	// receives between them launch together, one kernel per GCD and stream
	RCCLGroupStart Kind = "rccl_group_start"
	RCCLGroupEnd   Kind = "rccl_group_end"
)

// RCCLCollectives are the collective kinds, in rccl-tests' order.
var RCCLCollectives = []Kind{RCCLAllReduce, RCCLAllGather, RCCLReduceScatter, RCCLBroadcast, RCCLReduce, RCCLAllToAll}

func init() {
	fieldsOf[RCCLCommInit] = []string{"comm", "gcds"}
	for _, k := range RCCLCollectives {
		fieldsOf[k] = []string{"comm", "gcd", "src", "dst", "src_offset", "dst_offset", "bytes", "datatype", "redop", "stream"}
	}
	fieldsOf[RCCLBroadcast] = append(fieldsOf[RCCLBroadcast], "root")
	fieldsOf[RCCLReduce] = append(fieldsOf[RCCLReduce], "root")
	// a send reads its buffer from src_offset, a receive writes it from dst_offset
	fieldsOf[RCCLSend] = []string{"comm", "gcd", "buf", "src_offset", "bytes", "datatype", "peer", "stream"}
	fieldsOf[RCCLRecv] = []string{"comm", "gcd", "buf", "dst_offset", "bytes", "datatype", "peer", "stream"}
	fieldsOf[RCCLGroupStart] = []string{}
	fieldsOf[RCCLGroupEnd] = []string{}
}

// IsRCCL says whether the op is an RCCL call.
func (o *Op) IsRCCL() bool {
	return o.Op == RCCLCommInit || o.Op == RCCLSend || o.Op == RCCLRecv || o.Op == RCCLGroupStart || o.Op == RCCLGroupEnd ||
		slices.Contains(RCCLCollectives, o.Op)
}

// BufOff is where in its buffer an rccl_send reads (src_offset) or an
// rccl_recv writes (dst_offset).
func (o *Op) BufOff() int64 {
	if o.Op == RCCLRecv {
		return o.DstOff
	}
	return o.SrcOff
}

// BufOffField is the field BufOff reads.
func (o *Op) BufOffField() string {
	if o.Op == RCCLRecv {
		return "dst_offset"
	}
	return "src_offset"
}

// Reduces says whether the collective reduces (needs a reduction).
func (o *Op) Reduces() bool {
	return o.Op == RCCLAllReduce || o.Op == RCCLReduceScatter || o.Op == RCCLReduce
}

// Datatypes are RCCL's element types (ncclDataType_t, by rccl-tests'
// names) and their sizes in bytes.
var Datatypes = map[string]int64{
	"int8": 1, "uint8": 1, "int32": 4, "uint32": 4, "int64": 8, "uint64": 8,
	"half": 2, "float": 4, "double": 8, "bfloat16": 2,
}

// RedOps are RCCL's reductions (ncclRedOp_t, by rccl-tests' names).
var RedOps = []string{"sum", "prod", "max", "min", "avg"}

// Type is the op's datatype, "float" when unset (rccl-tests' default), so
// a rank that leaves it out matches one that writes it.
func (o *Op) Type() string {
	if o.Datatype == "" {
		return "float"
	}
	return o.Datatype
}

// Reduction is the op's reduction, "sum" when a reducing collective
// leaves it out (RCCL's and rccl-tests' default), so a rank that leaves it
// out matches one that writes it.
func (o *Op) Reduction() string {
	if o.RedOp == "" && o.Reduces() {
		return "sum"
	}
	return o.RedOp
}

// CollectiveBytes are the bytes a collective of "bytes" (rccl-tests' size)
// reads from src and writes to dst on each of n ranks.
func (o *Op) CollectiveBytes(n int) (in, out int64) {
	switch o.Op {
	case RCCLAllGather:
		return o.Bytes / int64(n), o.Bytes
	case RCCLReduceScatter:
		return o.Bytes, o.Bytes / int64(n)
	}
	return o.Bytes, o.Bytes
}
