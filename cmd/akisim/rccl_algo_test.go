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
