package mpi

import (
	"fmt"
	"strings"
	"testing"
)

// A name built without fmt is the text fmt printed: long prefixes,
// negative and many-digit numbers included.
func TestNameIsWhatFmtWrote(t *testing.T) {
	for _, prefix := range []string{"mpi.", "_mpi.", strings.Repeat("_", 80) + "mpi."} {
		for _, v := range []int{0, 7, -3, 99, 100, 123456789012} {
			var b [64]byte
			got := newName(&b, prefix).c('c').d(v).c('.').d(-v).s(".rts").String()
			if want := fmt.Sprintf("%sc%d.%d.rts", prefix, v, -v); got != want {
				t.Errorf("name %q, fmt wrote %q", got, want)
			}
		}
	}
	x, m := &expander{prefix: "_mpi."}, &message{n: 1234}
	if got := x.flag(m, landed); got != "_mpi.1234.landed" {
		t.Errorf("flag %q", got)
	}
	if x.flag(m, rts) != "_mpi.1234.rts" || x.flag(m, fin) != "_mpi.1234.fin" || m.flags[landed] != "_mpi.1234.landed" {
		t.Errorf("flags %q", m.flags)
	}
}
