package trace

import "testing"

// A flag_wait needs its flag set before it or by another rank; a flag
// set only later by the waiting rank itself would never come. host_compute
// takes a compute_ns of 0..1e9.
func TestHostSync(t *testing.T) {
	checked(t, `{"op":"flag_wait","flag":"go"}`+"\n"+`{"op":"flag_set","flag":"go","rank":1}`)
	checked(t, `{"op":"flag_wait","flag":"go","rank":2}`+"\n"+`{"op":"flag_set","flag":"go","rank":0}`+"\n"+`{"op":"flag_wait","flag":"go"}`)
	checked(t, `{"op":"host_compute","compute_ns":2500.5}`)
	checked(t, `{"op":"kernel","name":"recorded","gcd":0,"grid":64,"workgroup":64,"duration_ns":12.5}`)
	for _, tc := range []struct{ in, want string }{
		{`{"op":"flag_wait","flag":"go"}`, `t.jsonl:1: flag: flag "go" is not set before this line nor by another rank (flag_set): the host would wait forever`},
		{`{"op":"flag_wait","flag":"go"}` + "\n" + `{"op":"flag_set","flag":"go"}`,
			`t.jsonl:1: flag: flag "go" is not set before this line nor by another rank (flag_set): the host would wait forever`},
		{`{"op":"flag_wait"}`, `t.jsonl:1: flag: required by flag_wait`},
		{`{"op":"flag_wait","flag":"go","stream":1}`, `t.jsonl:1: stream: not used by flag_wait`},
		{`{"op":"host_compute","compute_ns":-1}`, `t.jsonl:1: compute_ns: must be in 0..1e+09 (one second), got -1`},
		{`{"op":"host_compute","compute_ns":2e9}`, `t.jsonl:1: compute_ns: must be in 0..1e+09 (one second), got 2e+09`},
		{`{"op":"host_compute","compute_ns":5,"gcd":0}`, `t.jsonl:1: gcd: not used by host_compute`},
		{`{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"duration_ns":-5}`, `t.jsonl:1: duration_ns: must be in 0..3.6e+12 (an hour), got -5`},
		{`{"op":"malloc","buf":"a","gcd":0,"bytes":64}` + "\n" + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"duration_ns":5,"access":[{"buf":"a","mode":"read","bytes":64}]}`,
			`t.jsonl:2: duration_ns: a kernel held at its recorded time has no access or compute_ns beside it`},
		{`{"op":"host_compute","duration_ns":5}`, `t.jsonl:1: duration_ns: not used by host_compute`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}
