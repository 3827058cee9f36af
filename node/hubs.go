package node

import "github.com/akisim/akisim/config"

// Hubs numbers the hubs of a cluster. Global ids: the GCDs first (node*gcds
// + the GCD's id in its node, so one node keeps ids 0..gcds-1), then each
// node's host IO die, then the NICs (node*nics + the NIC's index), then the
// network's switches. Within a node a hub also has a local id, the same for
// every node: its GCDs, the host (gcds), its NICs (gcds+1+k); one node's
// route tables, in local ids, serve all.
type Hubs struct {
	GCDsPerNode, NICsPerNode, Nodes int
}

func hubsOf(c *config.Node) Hubs {
	return Hubs{GCDsPerNode: c.GCD.Count, NICsPerNode: c.NIC.Count, Nodes: c.Nodes()}
}

// GCD is the hub of GCD g (global id).
func (h Hubs) GCD(g int) int { return g }

// Host is the hub of a node's host IO die.
func (h Hubs) Host(node int) int { return h.Nodes*h.GCDsPerNode + node }

// NIC is the hub of NIC k of a node.
func (h Hubs) NIC(node, k int) int { return h.Nodes*(h.GCDsPerNode+1) + node*h.NICsPerNode + k }

// Switch is the hub of switch s of the network.
func (h Hubs) Switch(s int) int { return h.Nodes*(h.GCDsPerNode+1+h.NICsPerNode) + s }

// LocalCount is the number of hubs of one node.
func (h Hubs) LocalCount() int { return h.GCDsPerNode + 1 + h.NICsPerNode }

// Local is the node of a hub and its local id there; ok is false for a
// switch, which belongs to no node.
func (h Hubs) Local(hub int) (node, local int, ok bool) {
	g, hosts := h.Nodes*h.GCDsPerNode, h.Nodes*(h.GCDsPerNode+1)
	switch {
	case hub < g:
		return hub / h.GCDsPerNode, hub % h.GCDsPerNode, true
	case hub < hosts:
		return hub - g, h.GCDsPerNode, true
	case hub < hosts+h.Nodes*h.NICsPerNode:
		i := hub - hosts
		return i / h.NICsPerNode, h.GCDsPerNode + 1 + i%h.NICsPerNode, true
	}
	return 0, 0, false
}

// Global is the hub of local id l in a node.
func (h Hubs) Global(node, l int) int {
	switch {
	case l < h.GCDsPerNode:
		return node*h.GCDsPerNode + l
	case l == h.GCDsPerNode:
		return h.Host(node)
	}
	return h.NIC(node, l-h.GCDsPerNode-1)
}

// IsNIC says whether a hub is a NIC.
func (h Hubs) IsNIC(hub int) bool {
	_, l, ok := h.Local(hub)
	return ok && l > h.GCDsPerNode
}
