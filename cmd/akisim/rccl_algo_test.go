package main

import "testing"

// NCCL_ALGO=Tree leaves a Broadcast no algorithm: a trace that asks for one
// stops at the call's line, as RCCL's enqueue fails.
func TestRCCLTreeOnlyForAllReduce(t *testing.T) {
	badTrace(t, `{"op":"setenv","name":"NCCL_ALGO","value":"Tree"}
{"op":"malloc","buf":"a","gcd":0,"bytes":4096}
{"op":"malloc","buf":"b","gcd":1,"bytes":4096}
{"op":"rccl_comm_init","comm":"w","gcds":[0,1]}
{"op":"rccl_broadcast","comm":"w","gcd":0,"src":"a","dst":"a","bytes":4096,"root":0,"stream":1}
{"op":"rccl_broadcast","comm":"w","gcd":1,"src":"b","dst":"b","bytes":4096,"root":0,"stream":2}
`, ":5: op: NCCL_ALGO=Tree: RCCL has no tree algorithm for rccl_broadcast (only AllReduce); no algorithm is left")
}

// Two GCDs each sending 16 MiB before receiving, outside a group: each send
// fills the other's FIFO and waits for a receive queued behind the other's
// send, as in RCCL. The run stops at the first call that never returns.
func TestRCCLUngroupedSendRecvDeadlock(t *testing.T) {
	badTrace(t, `{"op":"malloc","buf":"a","gcd":0,"bytes":16777216}
{"op":"malloc","buf":"b","gcd":0,"bytes":16777216}
{"op":"malloc","buf":"c","gcd":1,"bytes":16777216}
{"op":"malloc","buf":"d","gcd":1,"bytes":16777216}
{"op":"rccl_comm_init","comm":"w","gcds":[0,1]}
{"op":"rccl_send","comm":"w","gcd":0,"buf":"a","bytes":16777216,"peer":1,"stream":1}
{"op":"rccl_recv","comm":"w","gcd":0,"buf":"b","bytes":16777216,"peer":1,"stream":1}
{"op":"rccl_send","comm":"w","gcd":1,"buf":"c","bytes":16777216,"peer":0,"stream":2}
{"op":"rccl_recv","comm":"w","gcd":1,"buf":"d","bytes":16777216,"peer":0,"stream":2}
{"op":"device_sync"}
`, ":10: op: this call never returns")
}
