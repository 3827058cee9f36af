package trace

import "fmt"

// nodeMap tells which node a GCD, NUMA domain or buffer belongs to: global
// ids number the nodes' GCDs (and NUMA domains) node by node. Nodes share
// no memory: only the network (MPI, RCCL) moves data between them.
type nodeMap struct{ gcds, numa int }

func newNodeMap(n Limits) nodeMap {
	m := nodeMap{gcds: n.GCDsPerNode, numa: n.NUMAPerNode}
	if m.gcds <= 0 {
		m.gcds = max(n.GCDs, 1)
	}
	if m.numa <= 0 {
		m.numa = max(n.NUMADomains, 1)
	}
	return m
}

func (m nodeMap) gcdNode(g int) int  { return g / m.gcds }
func (m nodeMap) numaNode(d int) int { return d / m.numa }

// of is the node of buffer b.
func (m nodeMap) of(b Buffer) int {
	if b.Host {
		return m.numaNode(b.NUMA)
	}
	return m.gcdNode(b.GCD)
}

// where names a buffer's memory and its node.
func (m nodeMap) where(b Buffer) string {
	if b.Host {
		return fmt.Sprintf("NUMA domain %d of node %d", b.NUMA, m.of(b))
	}
	return fmt.Sprintf("GCD %d of node %d", b.GCD, m.of(b))
}

// same checks a copy's two buffers are on one node.
func (m nodeMap) same(field string, src, dst Buffer) *Error {
	if m.of(src) != m.of(dst) {
		return errf(field, "%q is on %s, %q on %s: nodes share no memory, send it with MPI or RCCL",
			src.Name, m.where(src), dst.Name, m.where(dst))
	}
	return nil
}

// reach checks every buffer op o accesses is on node: what, a format of
// id (the kernel's GCD or the host threads' domain), says where it runs;
// it is formatted only for an error, not for every kernel.
func (m nodeMap) reach(o *Op, bufs map[string]allocated, node int, what string, id int) *Error {
	for i, a := range o.Access {
		if b, ok := bufs[a.Buf]; ok && m.of(b.Buffer) != node {
			return errf(fmt.Sprintf("access[%d].buf", i), "%q is on %s, but %s of node %d: nodes share no memory, send it with MPI or RCCL",
				a.Buf, m.where(b.Buffer), fmt.Sprintf(what, id), node)
		}
	}
	return nil
}
