package node

import "github.com/akisim/akisim/config"

// Network places the nodes' NICs on switches and finds the switches a
// packet crosses: a dragonfly of groups whose switches are all joined, the
// groups joined pairwise by global links (minimal routes only: at most one
// hop within the source group, the global link, one hop within the
// destination group).
type Network struct {
	hubs                    Hubs
	nodesPerSet, perSet     int
	nodesPerGroup, perGroup int
	nicSwitch               []int // by NIC: its switch within the node's set
	groups                  int
	adaptive                int // paths a transfer within a group may take (network.adaptive_paths)
}

func newNetwork(c *config.Node, h Hubs) *Network {
	w := &c.Network
	return &Network{hubs: h, nodesPerSet: w.NodesPerSet, perSet: w.SwitchesPerSet,
		nodesPerGroup: w.NodesPerGroup, perGroup: c.SwitchesPerGroup(), nicSwitch: c.NIC.Switch, groups: c.Groups(),
		adaptive: w.AdaptivePaths}
}

// Switches is the number of switches built: every switch of each group
// that holds nodes of the run.
func (w *Network) Switches() int { return w.groups * w.perGroup }

// SwitchOf is the switch (index) NIC k of a node is cabled to.
func (w *Network) SwitchOf(node, k int) int {
	group, at := node/w.nodesPerGroup, node%w.nodesPerGroup
	return group*w.perGroup + at/w.nodesPerSet*w.perSet + w.nicSwitch[k]
}

// group is the group of switch s.
func (w *Network) group(s int) int { return s / w.perGroup }

// Gateway is the switch of group g that holds g's global link to group h.
func (w *Network) Gateway(g, h int) int { return g*w.perGroup + h%w.perGroup }

// Path is the switches from a to b, both included.
func (w *Network) Path(a, b int) []int {
	if a == b {
		return []int{a}
	}
	ga, gb := w.group(a), w.group(b)
	if ga == gb {
		return []int{a, b}
	}
	p := []int{a}
	for _, s := range []int{w.Gateway(ga, gb), w.Gateway(gb, ga), b} {
		if s != p[len(p)-1] {
			p = append(p, s)
		}
	}
	return p
}

// Paths are the switch paths a transfer from a to b takes in turn: the
// minimal one, and within a group up to adaptive-1 paths through another
// switch of the group (the ones after b), as adaptive routing spreads
// traffic off a busy direct link.
func (w *Network) Paths(a, b int) [][]int {
	paths := [][]int{w.Path(a, b)}
	if a == b || w.group(a) != w.group(b) {
		return paths
	}
	base := w.group(a) * w.perGroup
	for j := 1; len(paths) < w.adaptive && j < w.perGroup; j++ {
		m := base + (b-base+j)%w.perGroup
		if m != a && m != b {
			paths = append(paths, []int{a, m, b})
		}
	}
	return paths
}

// Links lists the switch pairs joined by a link: all pairs within a group,
// and the global link of every pair of groups.
func (w *Network) Links() [][2]int {
	var l [][2]int
	for g := 0; g < w.groups; g++ {
		for i := 0; i < w.perGroup; i++ {
			for j := i + 1; j < w.perGroup; j++ {
				l = append(l, [2]int{g*w.perGroup + i, g*w.perGroup + j})
			}
		}
	}
	for g := 0; g < w.groups; g++ {
		for h := g + 1; h < w.groups; h++ {
			l = append(l, [2]int{w.Gateway(g, h), w.Gateway(h, g)})
		}
	}
	return l
}

// LinkCount is the number of links Links lists.
func (w *Network) LinkCount() int {
	return w.groups*w.perGroup*(w.perGroup-1)/2 + w.groups*(w.groups-1)/2
}

// IsGlobal says whether the link a-b joins two groups.
func (w *Network) IsGlobal(a, b int) bool { return w.group(a) != w.group(b) }
