package trace

import (
	"strings"
	"testing"
)

// An access read again: passes round-trips, and bad passes are one-line
// errors naming the field.
func TestAccessPasses(t *testing.T) {
	ops := checked(t, kernelPre+`{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":96,"passes":7712},{"buf":"a","mode":"write","bytes":8}]}`)
	if a := ops[2].Access; a[0].Passes != 7712 || a[0].Times() != 7712 || a[1].Times() != 1 {
		t.Fatalf("passes %d, times %d and %d; want 7712, 7712 and 1", a[0].Passes, a[0].Times(), a[1].Times())
	}
	for _, c := range []struct{ in, want string }{
		{`{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"passes":0}]}`,
			`t.jsonl:3: access[0].passes: must be >= 1, got 0`},
		{`{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"passes":-3}]}`,
			`t.jsonl:3: access[0].passes: must be >= 1, got -3`},
		{`{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":100,"passes":11258999068427}]}`,
			`t.jsonl:3: access[0].passes: bytes x passes must be at most 1125899906842624 (a PiB), got 100 x 11258999068427`},
		{`{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"passes":"2"}]}`,
			`t.jsonl:3: access[0].passes: must be an integer, got string`},
		{`{"op":"host_access","numa":0,"access":[{"buf":"a","mode":"read","bytes":8,"passes":2}]}`,
			`t.jsonl:3: access[0].passes: not used by host_access: host threads go over their bytes once`},
	} {
		checkFails(t, kernelPre+c.in, c.want)
	}
}

// Written traces keep passes, and leave it out when it is not given.
func TestAccessPassesWritten(t *testing.T) {
	ops := checked(t, kernelPre+`{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"passes":3},{"buf":"a","mode":"write","bytes":8}]}`)
	var b strings.Builder
	if err := Write(&b, ops[2:]); err != nil {
		t.Fatal(err)
	}
	want := `{"op":"kernel","gcd":0,"name":"k","grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"passes":3},{"buf":"a","mode":"write","bytes":8}]}` + "\n"
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
}
