package commcheck

import "testing"

const (
	mpiS = `{"op":"malloc","buf":"s","gcd":0,"bytes":4096}` + "\n"
	mpiR = `{"op":"malloc","buf":"r","gcd":1,"bytes":4096,"rank":1}` + "\n"
)

// Sends and receives match in order per (source, destination, tag); the
// calls' requests are waited; blocking forms need no request.
func TestMPICalls(t *testing.T) {
	checked(t, mpiS+mpiR+
		`{"op":"mpi_isend","buf":"s","bytes":4096,"peer":1,"tag":7,"req":"a"}`+"\n"+
		`{"op":"mpi_irecv","buf":"r","bytes":4096,"peer":0,"tag":7,"req":"b","rank":1}`+"\n"+
		`{"op":"mpi_wait","req":"a"}`+"\n"+`{"op":"mpi_waitall","rank":1}`+"\n"+
		`{"op":"mpi_recv","buf":"r","bytes":64,"peer":0,"rank":1}`+"\n"+
		`{"op":"mpi_send","buf":"s","bytes":64,"peer":1}`)
}

// Requests belong to their rank: two ranks may use one name at once.
func TestMPIRequestsPerRank(t *testing.T) {
	checked(t, mpiS+mpiR+
		`{"op":"mpi_isend","buf":"s","bytes":4096,"peer":1,"req":"a"}`+"\n"+
		`{"op":"mpi_irecv","buf":"r","bytes":4096,"peer":0,"req":"a","rank":1}`+"\n"+
		`{"op":"mpi_wait","req":"a","rank":1}`+"\n"+`{"op":"mpi_wait","req":"a"}`)
}

func TestMPIErrors(t *testing.T) {
	isend := `{"op":"mpi_isend","buf":"s","bytes":4096,"peer":1,"req":"a"}` + "\n"
	irecv := `{"op":"mpi_irecv","buf":"r","bytes":4096,"peer":0,"req":"b","rank":1}` + "\n"
	for _, tc := range []struct{ in, want string }{
		{mpiS + mpiR + isend + `{"op":"mpi_wait","req":"a"}`,
			`t.jsonl:3: op: this send (rank 0 -> 1, tag 0) is never matched`},
		{mpiS + mpiR + isend + irecv + `{"op":"mpi_wait","req":"a"}`,
			`t.jsonl:4: op: request "b" is never waited (mpi_wait or mpi_waitall)`},
		{mpiS + mpiR + isend + `{"op":"mpi_irecv","buf":"r","bytes":2048,"peer":0,"req":"b","rank":1}`,
			`t.jsonl:4: bytes: 2048 bytes, but its match on line 3 has 4096 (message 0 -> 1, tag 0)`},
		{mpiS + mpiR + isend + `{"op":"mpi_irecv","buf":"r","bytes":4096,"peer":0,"tag":1,"req":"b","rank":1}` + "\n" + `{"op":"mpi_waitall"}` + "\n" + `{"op":"mpi_waitall","rank":1}`,
			`t.jsonl:3: op: this send (rank 0 -> 1, tag 0) is never matched`},
		{mpiS + `{"op":"mpi_send","buf":"s","bytes":64,"peer":0}`, `t.jsonl:2: peer: rank 0 sends to itself: not modelled`},
		{mpiS + `{"op":"mpi_send","buf":"s","bytes":64}`, `t.jsonl:2: peer: required by mpi_send`},
		{mpiS + `{"op":"mpi_send","buf":"s","bytes":64,"peer":70000}`, `t.jsonl:2: peer: must be in 0..65535, got 70000`},
		{mpiS + `{"op":"mpi_send","buf":"s","bytes":64,"peer":1,"tag":-1}`, `t.jsonl:2: tag: must be >= 0, got -1`},
		{mpiS + `{"op":"mpi_send","buf":"s","bytes":8192,"peer":1}`, `t.jsonl:2: bytes: message of 8192 bytes at offset 0 exceeds buffer "s" of 4096 bytes`},
		{`{"op":"host_malloc","buf":"h","numa":0,"bytes":64}` + "\n" + `{"op":"mpi_send","buf":"h","bytes":64,"peer":1}`,
			`t.jsonl:2: buf: "h" is host memory: MPI on host buffers is not modelled yet (GPU buffers only)`},
		{mpiS + `{"op":"mpi_isend","buf":"s","bytes":64,"peer":1}`, `t.jsonl:2: req: required by mpi_isend`},
		{mpiS + isend + isend, `t.jsonl:3: req: request "a" is still pending from line 2`},
		{mpiS + isend + `{"op":"mpi_wait","req":"a","rank":1}`, `t.jsonl:3: req: no request "a" of rank 1 is pending (started by mpi_isend or mpi_irecv and not waited yet)`},
		{`{"op":"mpi_wait"}`, `t.jsonl:1: req: required by mpi_wait`},
		{mpiS + `{"op":"mpi_send","buf":"s","bytes":64,"peer":1,"req":"x"}`, `t.jsonl:2: req: not used by mpi_send`},
		{mpiS + `{"op":"kernel","name":"k","gcd":0,"stream":1073741824,"grid":1,"workgroup":1,"access":[{"buf":"s","mode":"read","bytes":64}]}`,
			`t.jsonl:2: stream: must be in 0..1073741823, got 1073741824`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}

// mpi_sendrecv sends src to peer and receives dst from it: its two halves
// match like a send and a receive; a ring of sendrecvs (each rank to the
// next, from the previous, one partner each here) checks out.
func TestMPISendrecv(t *testing.T) {
	bufs := mpiS + `{"op":"malloc","buf":"t","gcd":0,"bytes":4096}` + "\n" + mpiR +
		`{"op":"malloc","buf":"u","gcd":1,"bytes":4096,"rank":1}` + "\n"
	checked(t, bufs+
		`{"op":"mpi_sendrecv","src":"s","dst":"t","bytes":4096,"peer":1}`+"\n"+
		`{"op":"mpi_sendrecv","src":"r","dst":"u","bytes":4096,"peer":0,"rank":1}`)
	for _, tc := range []struct{ in, want string }{
		{bufs + `{"op":"mpi_sendrecv","src":"s","dst":"t","bytes":4096,"peer":1}`,
			`t.jsonl:5: op: this send (rank 0 -> 1, tag 0) is never matched`},
		{bufs + `{"op":"mpi_sendrecv","src":"s","dst":"h","bytes":64,"peer":1}`, `t.jsonl:5: dst: unknown buffer "h"`},
		{bufs + `{"op":"mpi_sendrecv","src":"s","dst":"t","bytes":64,"peer":1,"buf":"s"}`, `t.jsonl:5: buf: not used by mpi_sendrecv`},
		{bufs + `{"op":"mpi_sendrecv","src":"s","dst":"t","bytes":64}`, `t.jsonl:5: peer: required by mpi_sendrecv`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}

// An MPI call's buffer is its own rank's, as any op's (trace's
// TestBuffersBelongToTheirRank): the check asks trace for it.
func TestMPIBufferBelongsToItsRank(t *testing.T) {
	checkFails(t, `{"op":"malloc","buf":"d","gcd":0,"bytes":64}`+"\n"+`{"op":"mpi_send","buf":"d","bytes":64,"peer":0,"rank":1}`,
		`t.jsonl:2: buf: buffer "d" belongs to rank 0 (allocated on line 1): a rank reaches another's memory only through MPI`)
}
