package node

import (
	"fmt"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/trace"
)

// Run replays operations on the node until they are all done and returns
// what happened to each.
func (n *Node) Run(ops []trace.Op) ([]hip.OpResult, error) {
	n.Runtime.Load(ops)
	if err := n.Engine.Run(); err != nil {
		return nil, err
	}
	if n.Runtime.Err != nil {
		return nil, n.Runtime.Err
	}
	for i, r := range n.Runtime.Results {
		if r.End == 0 && i < len(ops) {
			return nil, fmt.Errorf("op %d (line %d, %s) never completed", i, ops[i].Line, ops[i].Op)
		}
	}
	return n.Runtime.Results, nil
}
