package trace

import "testing"

// A kernel may set a flag with its last store (set_flag): a kernel on
// another GCD may wait for it before or after it in the file, and a host
// thread of another rank may poll it; a flag is still set only once.
func TestKernelSetsFlag(t *testing.T) {
	const (
		d0    = `{"op":"malloc","buf":"a","gcd":0,"bytes":64}` + "\n"
		d1    = `{"op":"malloc","buf":"b","gcd":1,"bytes":64}` + "\n"
		wait0 = `{"op":"kernel","name":"w","gcd":0,"stream":1,"grid":1,"workgroup":1,"wait_flag":"go","access":[{"buf":"a","mode":"read","bytes":64}]}` + "\n"
		set1  = `{"op":"kernel","name":"s","gcd":1,"stream":2,"grid":1,"workgroup":1,"set_flag":"go","access":[{"buf":"b","mode":"write","bytes":64}]}` + "\n"
	)
	checked(t, d0+d1+wait0+set1+`{"op":"device_sync"}`)
	checked(t, d0+d1+set1+wait0+`{"op":"device_sync"}`)
	checked(t, d1+set1+`{"op":"flag_wait","flag":"go","rank":1}`)
	for _, tc := range []struct{ in, want string }{
		{d0 + d1 + wait0 + `{"op":"device_sync"}` + "\n" + set1,
			`t.jsonl:4: op: device_sync blocks the host while the kernel on line 3 waits for flag "go", which only the host sets (flag_set): the run would hang`},
		{d0 + d1 + wait0 + set1 + set1, `t.jsonl:5: set_flag: flag "go" already set on line 4`},
		{d0 + d1 + wait0 + set1 + `{"op":"flag_set","flag":"go"}`, `t.jsonl:5: flag: flag "go" already set on line 4`},
		{d1 + `{"op":"kernel","name":"s","gcd":1,"grid":1,"workgroup":1,"set_flag":"","access":[{"buf":"b","mode":"write","bytes":64}]}`,
			`t.jsonl:2: set_flag: must be a flag name, got ""`},
		{d1 + `{"op":"memcpy","src":"b","dst":"b","bytes":64,"set_flag":"go"}`, `t.jsonl:2: set_flag: not used by memcpy`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}
