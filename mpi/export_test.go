package mpi

import (
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// ExpandCounted is Expand and the number of commands it counted before
// making them (-1: nothing to expand).
func ExpandCounted(ops []trace.Op, p Params) ([]ir.Command, int) {
	cmds, n, _ := expand(ops, p, false)
	return cmds, n
}
