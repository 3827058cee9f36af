package commcheck

import "github.com/akisim/akisim/trace"

import "testing"

// ncclGroupStart and ncclGroupEnd pair up per host thread: a group may
// nest, an end needs an open start, and a start must end.
func TestRCCLGroups(t *testing.T) {
	checked(t, rcclBufs+`{"op":"rccl_group_start"}`+"\n"+`{"op":"rccl_group_start"}`+"\n"+
		rcclCall(trace.RCCLSend, 0, `"buf":"a0","bytes":64,"peer":1`)+`{"op":"rccl_group_end"}`+"\n"+
		rcclCall(trace.RCCLRecv, 1, `"buf":"a1","bytes":64,"peer":0`)+`{"op":"rccl_group_end"}`+"\n")
	for _, tc := range []struct{ in, want string }{
		{`{"op":"rccl_group_end"}`, `t.jsonl:1: op: rccl_group_end without an rccl_group_start of rank 0 before it`},
		{`{"op":"rccl_group_start","rank":1}` + "\n" + `{"op":"rccl_group_end"}`,
			`t.jsonl:2: op: rccl_group_end without an rccl_group_start of rank 0 before it`},
		{`{"op":"rccl_group_start"}` + "\n" + `{"op":"rccl_group_start"}` + "\n" + `{"op":"rccl_group_end"}`,
			`t.jsonl:1: op: this rccl_group_start is never ended (rccl_group_end): its calls would never launch`},
		{`{"op":"rccl_group_start","comm":"w"}`, `t.jsonl:1: comm: not used by rccl_group_start`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}
