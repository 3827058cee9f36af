package trace

import "testing"

// Every op may name its rank; a rank out of range is bad input. A host
// call that waits for the device is refused while one of its own rank's
// kernels waits on a flag only that rank sets, not when another rank sets
// it: that rank's thread runs side by side and will.
func TestRanks(t *testing.T) {
	const (
		dev   = `{"op":"malloc","buf":"d","gcd":0,"bytes":64,"rank":1}` + "\n"
		wait  = `{"op":"kernel","name":"delay","gcd":0,"stream":1,"grid":1,"workgroup":1,"wait_flag":"go","rank":1}` + "\n"
		sync1 = `{"op":"device_sync","rank":1}` + "\n"
	)
	checked(t, dev+wait+`{"op":"device_sync"}`+"\n"+`{"op":"flag_set","flag":"go","rank":2}`)
	checked(t, dev+wait+sync1+`{"op":"flag_set","flag":"go","rank":0}`)
	checkFails(t, dev+wait+sync1+`{"op":"flag_set","flag":"go","rank":1}`,
		`t.jsonl:3: op: device_sync blocks the host while the kernel on line 2 waits for flag "go", which only the host sets (flag_set): the run would hang`)
	checkFails(t, `{"op":"device_sync","rank":-1}`, `t.jsonl:1: rank: must be in 0..65535, got -1`)
	checkFails(t, `{"op":"device_sync","rank":65536}`, `t.jsonl:1: rank: must be in 0..65535, got 65536`)
	checkFails(t, `{"op":"device_sync","rank":"1"}`, `t.jsonl:1: rank: must be an integer, got string`)
}

// Events belong to their rank, as HIP events to their process: rank 1 may
// record an event of the same name as rank 0's, and cannot wait for rank
// 0's.
func TestEventsPerRank(t *testing.T) {
	checked(t, `{"op":"event_record","event":"e"}`+"\n"+`{"op":"event_record","event":"e","rank":1}`+"\n"+
		`{"op":"event_sync","event":"e","rank":1}`)
	checkFails(t, `{"op":"event_record","event":"e"}`+"\n"+`{"op":"event_sync","event":"e","rank":1}`,
		`t.jsonl:2: event: event "e" not recorded by rank 1 on an earlier line (events belong to their rank)`)
}

// A buffer belongs to the rank that allocated it: ranks run side by side,
// so another rank's buffer may not exist yet when it is used, and is its
// own; only MPI reaches it (package commcheck checks an MPI call's).
func TestBuffersBelongToTheirRank(t *testing.T) {
	const dev = `{"op":"malloc","buf":"d","gcd":0,"bytes":64}` + "\n"
	checkFails(t, dev+`{"op":"kernel","name":"k","gcd":0,"grid":1,"workgroup":1,"rank":1,"access":[{"buf":"d","mode":"read","bytes":64}]}`,
		`t.jsonl:2: access[0].buf: buffer "d" belongs to rank 0 (allocated on line 1): a rank reaches another's memory only through MPI`)
	checkFails(t, dev+`{"op":"free","buf":"d","rank":2}`,
		`t.jsonl:2: buf: buffer "d" belongs to rank 0 (allocated on line 1): a rank reaches another's memory only through MPI`)
}
