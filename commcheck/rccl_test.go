package commcheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/akisim/akisim/trace"
)

// rcclBufs are a 2-rank communicator "w" on GCDs 0 and 1 (lines 1-3),
// each rank with a 4 KiB device buffer.
const rcclBufs = `{"op":"malloc","buf":"a0","gcd":0,"bytes":4096}` + "\n" +
	`{"op":"malloc","buf":"a1","gcd":1,"bytes":4096,"rank":1}` + "\n" +
	`{"op":"rccl_comm_init","comm":"w","gcds":[0,1]}` + "\n"

// rcclCall is a call of kind k by rank r (on GCD r, buffer a<r>) with
// the extra JSON fields more.
func rcclCall(k trace.Kind, r int, more string) string {
	return fmt.Sprintf(`{"op":%q,"comm":"w","gcd":%d,"rank":%d,%s}`+"\n", k, r, r, more)
}

// rcclColl is a collective of kind k by rank r on a<r> in place.
func rcclColl(k trace.Kind, r int, more string) string {
	return rcclCall(k, r, fmt.Sprintf(`"src":"a%d","dst":"a%d",%s`, r, r, more))
}

// Every collective, with and without datatype and reduction, and a send
// and its receive, check out when both ranks make them in the same order.
func TestRCCLCalls(t *testing.T) {
	var b strings.Builder
	b.WriteString(rcclBufs)
	for _, k := range trace.RCCLCollectives {
		more := `"bytes":4096,"stream":1`
		switch k {
		case trace.RCCLBroadcast:
			more += `,"root":1`
		case trace.RCCLReduce:
			more += `,"root":0,"redop":"max","datatype":"double"`
		case trace.RCCLAllReduce:
			more += `,"redop":"sum","datatype":"bfloat16"`
		}
		b.WriteString(rcclColl(k, 0, more) + rcclColl(k, 1, more))
	}
	b.WriteString(rcclCall(trace.RCCLSend, 0, `"buf":"a0","bytes":64,"peer":1`) +
		rcclCall(trace.RCCLRecv, 1, `"buf":"a1","bytes":64,"peer":0`) +
		rcclCall(trace.RCCLRecv, 0, `"buf":"a0","bytes":128,"peer":1`) +
		rcclCall(trace.RCCLSend, 1, `"buf":"a1","bytes":128,"peer":0`))
	ops := checked(t, b.String())
	for _, o := range ops[3:] {
		if !o.IsRCCL() {
			t.Errorf("line %d: %s is not an RCCL call", o.Line, o.Op)
		}
	}
}

// A bad call, or a pattern that would hang, is one line: file:line:
// field: what.
func TestRCCLErrors(t *testing.T) {
	ar := func(r int, more string) string { return rcclColl(trace.RCCLAllReduce, r, more) }
	for _, tc := range []struct{ in, want string }{
		// communicators
		{rcclBufs + `{"op":"rccl_all_reduce","gcd":0,"src":"a0","dst":"a0","bytes":64}`,
			`t.jsonl:4: comm: required by rccl_all_reduce`},
		{rcclBufs + `{"op":"rccl_all_reduce","comm":"x","gcd":0,"src":"a0","dst":"a0","bytes":64}`,
			`t.jsonl:4: comm: unknown communicator "x" (no rccl_comm_init before)`},
		{rcclBufs + `{"op":"rccl_comm_init","comm":"w","gcds":[2,3]}`,
			`t.jsonl:4: comm: communicator "w" already created on line 3`},
		{`{"op":"rccl_comm_init","comm":"v"}`, `t.jsonl:1: gcds: required by rccl_comm_init: the GCD of each comm rank`},
		{`{"op":"rccl_comm_init","comm":"v","gcds":[]}`, `t.jsonl:1: gcds: required by rccl_comm_init: the GCD of each comm rank`},
		{`{"op":"rccl_comm_init","comm":"v","gcds":[0,8]}`, `t.jsonl:1: gcds: rank 1 is bound to GCD 8, but the node has GCDs 0..7`},
		{`{"op":"rccl_comm_init","comm":"v","gcds":[-1]}`, `t.jsonl:1: gcds: rank 0 is bound to GCD -1, but the node has GCDs 0..7`},
		{`{"op":"rccl_comm_init","comm":"v","gcds":[0,1,0]}`, `t.jsonl:1: gcds: GCD 0 holds ranks 0 and 2: one rank per GCD`},
		{`{"op":"rccl_comm_init","comm":"v","gcds":[0],"gcd":0}`, `t.jsonl:1: gcd: not used by rccl_comm_init`},
		// the calling GCD
		{rcclBufs + `{"op":"rccl_all_reduce","comm":"w","src":"a0","dst":"a0","bytes":64}`,
			`t.jsonl:4: gcd: required by rccl_all_reduce`},
		{rcclBufs + `{"op":"rccl_all_reduce","comm":"w","gcd":9,"src":"a0","dst":"a0","bytes":64}`,
			`t.jsonl:4: gcd: must be in 0..7, got 9`},
		{rcclBufs + `{"op":"rccl_all_reduce","comm":"w","gcd":2,"src":"a0","dst":"a0","bytes":64}`,
			`t.jsonl:4: gcd: GCD 2 is not in communicator "w" (GCDs [0 1])`},
		// type, reduction, size
		{rcclBufs + ar(0, `"bytes":64,"datatype":"fp8"`),
			`t.jsonl:4: datatype: unknown type "fp8" (want one of [bfloat16 double float half int32 int64 int8 uint32 uint64 uint8])`},
		{rcclBufs + ar(0, `"bytes":64,"redop":"xor"`),
			`t.jsonl:4: redop: unknown reduction "xor" (want one of [sum prod max min avg])`},
		{rcclBufs + rcclColl(trace.RCCLAllGather, 0, `"bytes":64,"redop":"sum"`),
			`t.jsonl:4: redop: rccl_all_gather does not reduce`},
		{rcclBufs + rcclColl(trace.RCCLBroadcast, 0, `"bytes":64,"root":0,"redop":"sum"`),
			`t.jsonl:4: redop: rccl_broadcast does not reduce`},
		{rcclBufs + rcclCall(trace.RCCLSend, 0, `"buf":"a0","bytes":64,"peer":1,"redop":"sum"`),
			`t.jsonl:4: redop: not used by rccl_send`},
		{rcclBufs + ar(0, `"bytes":0`), `t.jsonl:4: bytes: must be > 0, got 0`},
		{rcclBufs + ar(0, `"bytes":-4`), `t.jsonl:4: bytes: must be > 0, got -4`},
		{rcclBufs + ar(0, `"bytes":6,"datatype":"float"`),
			`t.jsonl:4: bytes: 6 is not a whole number of 4-byte float elements`},
		{rcclBufs + ar(0, `"bytes":6`), // the type left out is float
			`t.jsonl:4: bytes: 6 is not a whole number of 4-byte float elements`},
		{rcclBufs + ar(0, `"bytes":12,"datatype":"double"`),
			`t.jsonl:4: bytes: 12 is not a whole number of 8-byte double elements`},
		{rcclBufs + rcclColl(trace.RCCLAllGather, 0, `"bytes":4`),
			`t.jsonl:4: bytes: rccl_all_gather over 2 ranks moves 4 bytes: not a whole number of elements per rank`},
		{rcclBufs + rcclColl(trace.RCCLReduceScatter, 0, `"bytes":12`),
			`t.jsonl:4: bytes: rccl_reduce_scatter over 2 ranks moves 12 bytes: not a whole number of elements per rank`},
		{rcclBufs + rcclColl(trace.RCCLAllToAll, 0, `"bytes":6,"datatype":"half"`),
			`t.jsonl:4: bytes: rccl_all_to_all over 2 ranks moves 6 bytes: not a whole number of elements per rank`},
		{rcclBufs + ar(0, `"bytes":64,"stream":-1`), `t.jsonl:4: stream: must be in 0..1073741823, got -1`},
		// roots
		{rcclBufs + rcclColl(trace.RCCLBroadcast, 0, `"bytes":64`), `t.jsonl:4: root: required by rccl_broadcast`},
		{rcclBufs + rcclColl(trace.RCCLReduce, 0, `"bytes":64`), `t.jsonl:4: root: required by rccl_reduce`},
		{rcclBufs + rcclColl(trace.RCCLReduce, 0, `"bytes":64,"root":2`),
			`t.jsonl:4: root: rank 2 is outside communicator "w" of 2 ranks`},
		{rcclBufs + rcclColl(trace.RCCLBroadcast, 0, `"bytes":64,"root":-1`),
			`t.jsonl:4: root: rank -1 is outside communicator "w" of 2 ranks`},
		{rcclBufs + ar(0, `"bytes":64,"root":0`), `t.jsonl:4: root: not used by rccl_all_reduce`},
		// peers
		{rcclBufs + rcclCall(trace.RCCLSend, 0, `"buf":"a0","bytes":64`), `t.jsonl:4: peer: required by rccl_send`},
		{rcclBufs + rcclCall(trace.RCCLRecv, 0, `"buf":"a0","bytes":64,"peer":2`),
			`t.jsonl:4: peer: rank 2 is outside communicator "w" of 2 ranks`},
		{rcclBufs + rcclCall(trace.RCCLSend, 0, `"buf":"a0","bytes":64,"peer":-1`),
			`t.jsonl:4: peer: rank -1 is outside communicator "w" of 2 ranks`},
		{rcclBufs + rcclCall(trace.RCCLSend, 1, `"buf":"a1","bytes":64,"peer":1`), `t.jsonl:4: peer: rank 1 sends to itself`},
		// buffers
		{rcclBufs + rcclCall(trace.RCCLAllReduce, 0, `"dst":"a0","bytes":64`), `t.jsonl:4: src: required by rccl_all_reduce`},
		{rcclBufs + rcclCall(trace.RCCLAllReduce, 0, `"src":"a0","bytes":64`), `t.jsonl:4: dst: required by rccl_all_reduce`},
		{rcclBufs + rcclCall(trace.RCCLAllReduce, 0, `"src":"zz","dst":"a0","bytes":64`), `t.jsonl:4: src: unknown buffer "zz"`},
		{rcclBufs + rcclCall(trace.RCCLAllReduce, 0, `"src":"a0","dst":"a1","bytes":64`),
			`t.jsonl:4: dst: buffer "a1" belongs to rank 1 (allocated on line 2): a rank reaches another's memory only through MPI`},
		{rcclBufs + `{"op":"malloc","buf":"b","gcd":1,"bytes":4096}` + "\n" + rcclCall(trace.RCCLAllReduce, 0, `"src":"b","dst":"a0","bytes":64`),
			`t.jsonl:5: src: buffer "b" is not device memory of GCD 0`},
		{rcclBufs + `{"op":"host_malloc","buf":"h","numa":0,"bytes":4096}` + "\n" + rcclCall(trace.RCCLAllReduce, 0, `"src":"a0","dst":"h","bytes":64`),
			`t.jsonl:5: dst: buffer "h" is not device memory of GCD 0`},
		{rcclBufs + `{"op":"free","buf":"a0"}` + "\n" + ar(0, `"bytes":64`), `t.jsonl:5: src: buffer "a0" was freed on line 4`},
		{rcclBufs + ar(0, `"bytes":8192`),
			`t.jsonl:4: bytes: rccl_all_reduce buffer of 8192 bytes at offset 0 exceeds buffer "a0" of 4096 bytes`},
		// all-gather reads bytes/n, writes bytes: the output is too small
		{rcclBufs + `{"op":"malloc","buf":"s","gcd":0,"bytes":2048}` + "\n" + rcclCall(trace.RCCLAllGather, 0, `"src":"s","dst":"s","bytes":4096`),
			`t.jsonl:5: bytes: rccl_all_gather buffer of 4096 bytes at offset 0 exceeds buffer "s" of 2048 bytes`},
		// reduce-scatter reads bytes: the input is too small
		{rcclBufs + `{"op":"malloc","buf":"s","gcd":0,"bytes":2048}` + "\n" + rcclCall(trace.RCCLReduceScatter, 0, `"src":"s","dst":"a0","bytes":4096`),
			`t.jsonl:5: bytes: rccl_reduce_scatter buffer of 4096 bytes at offset 0 exceeds buffer "s" of 2048 bytes`},
		// rccl-tests' shifted iterations: the collective at an offset must fit
		{rcclBufs + ar(0, `"bytes":64,"src_offset":4064`),
			`t.jsonl:4: src_offset: rccl_all_reduce buffer of 64 bytes at offset 4064 exceeds buffer "a0" of 4096 bytes`},
		{rcclBufs + ar(0, `"bytes":64,"dst_offset":-64`), `t.jsonl:4: dst_offset: must be >= 0, got -64`},
		{rcclBufs + rcclCall(trace.RCCLSend, 0, `"buf":"a0","bytes":64,"peer":1,"src_offset":4096`),
			`t.jsonl:4: src_offset: message of 64 bytes at offset 4096 exceeds buffer "a0" of 4096 bytes`},
		{rcclBufs + rcclCall(trace.RCCLRecv, 1, `"buf":"a1","bytes":64,"peer":0,"dst_offset":4033`),
			`t.jsonl:4: dst_offset: message of 64 bytes at offset 4033 exceeds buffer "a1" of 4096 bytes`},
		{rcclBufs + rcclCall(trace.RCCLSend, 0, `"buf":"a0","bytes":64,"peer":1,"dst_offset":64`), `t.jsonl:4: dst_offset: not used by rccl_send`},
		{rcclBufs + rcclCall(trace.RCCLRecv, 1, `"buf":"a1","bytes":64,"peer":0,"src_offset":64`), `t.jsonl:4: src_offset: not used by rccl_recv`},
		{rcclBufs + rcclCall(trace.RCCLSend, 0, `"bytes":64,"peer":1`), `t.jsonl:4: buf: required by rccl_send`},
		{rcclBufs + rcclCall(trace.RCCLSend, 0, `"buf":"a0","bytes":8192,"peer":1`),
			`t.jsonl:4: bytes: message of 8192 bytes at offset 0 exceeds buffer "a0" of 4096 bytes`},
		{rcclBufs + `{"op":"malloc","buf":"b","gcd":1,"bytes":4096}` + "\n" + rcclCall(trace.RCCLSend, 0, `"buf":"b","bytes":64,"peer":1`),
			`t.jsonl:5: buf: buffer "b" is not device memory of GCD 0`},
		{rcclBufs + rcclCall(trace.RCCLSend, 0, `"src":"a0","buf":"a0","bytes":64,"peer":1`), `t.jsonl:4: src: not used by rccl_send`},
		// ranks disagreeing on a collective: kind, size, type, reduction, root
		{rcclBufs + ar(0, `"bytes":64`) + rcclColl(trace.RCCLReduce, 1, `"bytes":64,"root":0`),
			`t.jsonl:5: op: collective 1 of communicator "w" on rank 1 (rccl_reduce 64 bytes float sum root 0) does not match rank 0's on line 4 (rccl_all_reduce 64 bytes float sum)`},
		{rcclBufs + ar(0, `"bytes":64`) + ar(1, `"bytes":128`),
			`t.jsonl:5: op: collective 1 of communicator "w" on rank 1 (rccl_all_reduce 128 bytes float sum) does not match rank 0's on line 4 (rccl_all_reduce 64 bytes float sum)`},
		{rcclBufs + ar(0, `"bytes":64,"datatype":"int32"`) + ar(1, `"bytes":64,"datatype":"float"`),
			`t.jsonl:5: op: collective 1 of communicator "w" on rank 1 (rccl_all_reduce 64 bytes float sum) does not match rank 0's on line 4 (rccl_all_reduce 64 bytes int32 sum)`},
		{rcclBufs + ar(0, `"bytes":64,"redop":"sum"`) + ar(1, `"bytes":64,"redop":"max"`),
			`t.jsonl:5: op: collective 1 of communicator "w" on rank 1 (rccl_all_reduce 64 bytes float max) does not match rank 0's on line 4 (rccl_all_reduce 64 bytes float sum)`},
		{rcclBufs + rcclColl(trace.RCCLBroadcast, 0, `"bytes":64,"root":0`) + rcclColl(trace.RCCLBroadcast, 1, `"bytes":64,"root":1`),
			`t.jsonl:5: op: collective 1 of communicator "w" on rank 1 (rccl_broadcast 64 bytes float root 1) does not match rank 0's on line 4 (rccl_broadcast 64 bytes float root 0)`},
		// the second collective of rank 1 is compared with rank 0's second
		{rcclBufs + ar(0, `"bytes":64`) + ar(0, `"bytes":128`) + ar(1, `"bytes":64`) + ar(1, `"bytes":64`),
			`t.jsonl:7: op: collective 2 of communicator "w" on rank 1 (rccl_all_reduce 64 bytes float sum) does not match rank 0's on line 5 (rccl_all_reduce 128 bytes float sum)`},
		// patterns that would hang
		{rcclBufs + ar(0, `"bytes":64`),
			`t.jsonl:4: op: rank 1 (GCD 1) of communicator "w" never calls this rccl_all_reduce: it would wait forever`},
		{rcclBufs + ar(0, `"bytes":64`) + ar(1, `"bytes":64`) + ar(1, `"bytes":64`),
			`t.jsonl:6: op: rank 0 (GCD 0) of communicator "w" never calls this rccl_all_reduce: it would wait forever`},
		{rcclBufs + rcclCall(trace.RCCLSend, 0, `"buf":"a0","bytes":64,"peer":1`),
			`t.jsonl:4: op: this rccl_send (comm rank 0 -> 1) is never matched`},
		{rcclBufs + rcclCall(trace.RCCLRecv, 1, `"buf":"a1","bytes":64,"peer":0`),
			`t.jsonl:4: op: this rccl_recv (comm rank 0 -> 1) is never matched`},
		{rcclBufs + rcclCall(trace.RCCLSend, 0, `"buf":"a0","bytes":64,"peer":1`) + rcclCall(trace.RCCLRecv, 1, `"buf":"a1","bytes":32,"peer":0`),
			`t.jsonl:5: bytes: 32 bytes, but its match on line 4 has 64`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}

// Communicators are separate: the same ranks' calls on two communicators
// match per communicator, and a send on one is not received on the other.
func TestRCCLCommsApart(t *testing.T) {
	two := rcclBufs + `{"op":"rccl_comm_init","comm":"v","gcds":[1,0]}` + "\n"
	// v's rank 0 is GCD 1: its all-gather pairs with GCD 0's, not with w's all-reduces.
	checked(t, two+ar2("w", 0, 0)+
		`{"op":"rccl_all_gather","comm":"v","gcd":1,"rank":1,"src":"a1","dst":"a1","bytes":64}`+"\n"+
		ar2("w", 1, 1)+
		`{"op":"rccl_all_gather","comm":"v","gcd":0,"src":"a0","dst":"a0","bytes":64}`+"\n")
	checkFails(t, two+
		`{"op":"rccl_send","comm":"w","gcd":0,"buf":"a0","bytes":64,"peer":1}`+"\n"+
		`{"op":"rccl_recv","comm":"v","gcd":0,"buf":"a0","bytes":64,"peer":0}`+"\n",
		`t.jsonl:5: op: this rccl_send (comm rank 0 -> 1) is never matched`)
}

// ar2 is an in-place 64-byte all-reduce on communicator comm by the
// process of rank r on GCD g.
func ar2(comm string, r, g int) string {
	return fmt.Sprintf(`{"op":"rccl_all_reduce","comm":%q,"gcd":%d,"rank":%d,"src":"a%d","dst":"a%d","bytes":64}`+"\n", comm, g, r, r, r)
}

// A rank that leaves the datatype out calls with float, as rccl-tests'
// default: it matches a rank that writes "float", and not one that
// writes another type.
func TestRCCLDefaultType(t *testing.T) {
	checked(t, rcclBufs+rcclColl(trace.RCCLAllReduce, 0, `"bytes":64`)+rcclColl(trace.RCCLAllReduce, 1, `"bytes":64,"datatype":"float"`))
	checkFails(t, rcclBufs+rcclColl(trace.RCCLAllReduce, 0, `"bytes":64`)+rcclColl(trace.RCCLAllReduce, 1, `"bytes":64,"datatype":"int32"`),
		`t.jsonl:5: op: collective 1 of communicator "w" on rank 1 (rccl_all_reduce 64 bytes int32 sum) does not match rank 0's on line 4 (rccl_all_reduce 64 bytes float sum)`)
}

// Issue 21: a reducing collective without redop reduces with sum, as
// RCCL's default: it matches a rank that writes "sum" (it was refused as
// a mismatch), and not one that writes another reduction.
func TestRCCLDefaultRedOp(t *testing.T) {
	for _, k := range []trace.Kind{trace.RCCLAllReduce, trace.RCCLReduceScatter} {
		checked(t, rcclBufs+rcclColl(k, 0, `"bytes":64`)+rcclColl(k, 1, `"bytes":64,"redop":"sum"`))
		checked(t, rcclBufs+rcclColl(k, 0, `"bytes":64,"redop":"sum"`)+rcclColl(k, 1, `"bytes":64`))
		checkFails(t, rcclBufs+rcclColl(k, 0, `"bytes":64`)+rcclColl(k, 1, `"bytes":64,"redop":"max"`),
			`t.jsonl:5: op: collective 1 of communicator "w" on rank 1 (`+string(k)+` 64 bytes float max) does not match rank 0's on line 4 (`+string(k)+` 64 bytes float sum)`)
	}
	checked(t, rcclBufs+rcclColl(trace.RCCLReduce, 0, `"bytes":64,"root":1`)+rcclColl(trace.RCCLReduce, 1, `"bytes":64,"redop":"sum","root":1`))
}

// Inspect says whether a trace holds RCCL calls: a communicator alone is
// one, plain allocations are not.
func TestInspectSeesRCCL(t *testing.T) {
	for in, want := range map[string]bool{
		rcclBufs: true,
		`{"op":"malloc","buf":"a0","gcd":0,"bytes":4096}` + "\n": false,
	} {
		ops, err := trace.Parse(strings.NewReader(in), "t.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		got, err := trace.Inspect(ops, testNode, "t.jsonl")
		if err != nil || got.RCCL != want {
			t.Errorf("%q: RCCL %v, error %v; want %v", in, got.RCCL, err, want)
		}
	}
}
