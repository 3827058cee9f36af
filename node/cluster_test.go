package node

import (
	"errors"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Global ids: GCDs node by node, then hosts, NICs, switches; local ids are
// the same in every node.
func TestClusterHubs(t *testing.T) {
	n := build(t, "frontier-node.toml", "network.nodes=3")
	h := n.Routes.Hubs()
	if len(n.GCDs) != 24 || len(n.Hosts) != 3 || len(n.NICs) != 12 || len(n.DRAM) != 12 {
		t.Fatalf("%d GCDs, %d hosts, %d NICs, %d NUMA domains", len(n.GCDs), len(n.Hosts), len(n.NICs), len(n.DRAM))
	}
	if h.Host(1) != 25 || h.NIC(1, 2) != 27+4+2 || h.Switch(0) != 27+12 {
		t.Errorf("host 1 hub %d, NIC 1.2 hub %d, switch 0 hub %d", h.Host(1), h.NIC(1, 2), h.Switch(0))
	}
	for hub := 0; hub < h.Switch(0); hub++ {
		node, l, ok := h.Local(hub)
		if !ok || h.Global(node, l) != hub {
			t.Errorf("hub %d -> node %d local %d -> %d", hub, node, l, h.Global(node, l))
		}
	}
	n.Routes.DataRoutes(h.NIC(0, 0), 9) // builds node 1
	n.Routes.DataRoutes(h.NIC(0, 0), 17)
	if n.GCDs[9].Hub.ID != 9 || n.Hosts[2].ID != h.Host(2) || n.NICs[5].Hub.ID != h.NIC(1, 1) {
		t.Error("components carry the wrong hub ids")
	}
}

// Within a node a route is the node's local route with global ids; across
// nodes a NIC's data goes through its switch to the far node's NIC of the
// target GCD (its NUMA domain's) and on to the GCD.
func TestClusterRoutes(t *testing.T) {
	r := build(t, "frontier-node.toml", "network.nodes=2").Routes
	if got := r.DataRoutes(9, 15); !reflect.DeepEqual(got, []fabric.Route{{9, 8, 14, 15}}) {
		t.Errorf("node 1 data 1->7: %v", got)
	}
	h := r.Hubs()
	nic0, far := h.NIC(0, 0), h.NIC(1, 0) // GCD 8 is on NUMA 3: NIC 0, hanging on GCD 9
	sw0, sw1 := h.Switch(r.Network().SwitchOf(0, 0)), h.Switch(r.Network().SwitchOf(1, 0))
	if sw0 != sw1 {
		t.Fatalf("NIC 0 of nodes 0 and 1 on switches %d and %d: one chassis shares its switches", sw0, sw1)
	}
	want := fabric.Route{nic0, sw0, far, 9, 8}
	if got := r.DataRoutes(nic0, 8); !reflect.DeepEqual(got, []fabric.Route{want}) {
		t.Errorf("NIC 0.0 to GCD 8: %v, want %v", got, want)
	}
	if got := r.HubOf(fabric.Memory{Host: true, Index: 5}); got != h.Host(1) {
		t.Errorf("NUMA domain 5 behind hub %d, want node 1's host %d", got, h.Host(1))
	}
	defer func() {
		if recover() == nil {
			t.Error("a GCD reached another node's GCD without a NIC")
		}
	}()
	r.KernelRoutes(0, 8)
}

// Switches: one hop within a group, through gateways between groups.
func TestNetworkPaths(t *testing.T) {
	n := build(t, "frontier-node.toml", "network.nodes=300")
	w := n.Routes.Network()
	if w.Switches() != 3*32 {
		t.Fatalf("%d switches for 300 nodes, want 3 groups of 32", w.Switches())
	}
	if a, b := w.SwitchOf(0, 0), w.SwitchOf(20, 0); len(w.Path(a, b)) != 2 {
		t.Errorf("nodes 0 and 20 (one group, two chassis): path %v", w.Path(a, b))
	}
	if a, b := w.SwitchOf(0, 1), w.SwitchOf(200, 3); len(w.Path(a, b)) < 3 || len(w.Path(a, b)) > 4 {
		t.Errorf("nodes 0 and 200 (two groups): path %v", w.Path(a, b))
	}
	if len(n.Switches) != 96 || len(n.NetLinks) != 300*4+3*32*31/2+3 {
		t.Errorf("%d switches, %d network links", len(n.Switches), len(n.NetLinks))
	}
}

// A cluster builds node 0, then what a route first crosses: two ranks on
// a whole Frontier build their two nodes, their NICs' cables and the
// switches between, and nothing of the others.
func TestClusterBuildsWhatARunTouches(t *testing.T) {
	n := build(t, "frontier-node.toml", "network.nodes=9408")
	built := func() (nodes, switches, links int) {
		for k := range n.Hosts {
			if n.Built(k) != (n.Hosts[k] != nil) || (n.Hosts[k] != nil) != (n.GCDs[k*8] != nil) {
				t.Fatalf("node %d half built", k)
			}
			if n.Built(k) {
				nodes++
			}
		}
		for _, s := range n.Switches {
			if s != nil {
				switches++
			}
		}
		for _, l := range n.NetLinks {
			if l != nil {
				links++
			}
		}
		return
	}
	if nodes, switches, links := built(); nodes != 1 || switches != 0 || links != 0 {
		t.Fatalf("before any route: %d nodes, %d switches, %d network links built, want node 0 alone", nodes, switches, links)
	}
	h := n.Routes.Hubs()
	rs := n.Routes.DataRoutes(h.NIC(0, 0), 9000*8) // node 0 to node 9000, in another group
	nodes, switches, links := built()
	if nodes != 2 || switches < 2 || switches > 4 || links != 2+switches-1 {
		t.Errorf("route %v built %d nodes, %d switches, %d network links; want 2 nodes and the route's switches, cables and links", rs[0], nodes, switches, links)
	}
	if n.NetLinks[0] == nil || n.NICs[9000*4].Hub == nil || n.Switches[n.Routes.Network().SwitchOf(9000, 0)] == nil {
		t.Error("the route's cable, far NIC or switch is not built")
	}
}

// A run that touches a node beyond the memory left ends with the limit's
// error, not a crash: node 0 fits, node 1 would not.
func TestClusterNodeBeyondMemory(t *testing.T) {
	c, err := config.Load(filepath.Join("..", "configs", "frontier-node.toml"), []string{"network.nodes=2"})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AKISIM_MEMORY_BYTES", strconv.FormatInt(buildBytes(c, 1)+1, 10))
	n, err := Build(c)
	if err != nil {
		t.Fatalf("node 0 alone fits: %v", err)
	}
	nic, far := 0, 4
	_, err = n.RunCommands([]ir.Command{
		{Call: trace.Op{Op: trace.Malloc, Buf: "a", GCD: intp(0), Bytes: 4096}},
		{Call: trace.Op{Op: trace.Malloc, Buf: "b", GCD: intp(8), Bytes: 4096}},
		{Call: trace.Op{Op: trace.MemcpyAsync, Src: "a", Dst: "b", Bytes: 4096, Stream: 1, SetFlag: "done"}, NIC: &nic, RecvNIC: &far},
		{Call: trace.Op{Op: trace.FlagWait, Flag: "done"}},
	})
	var lim *limit.Error
	if !errors.As(err, &lim) || !strings.Contains(err.Error(), "the 2 nodes (of 8 GCDs) the run touched") {
		t.Errorf("error %v, want the memory limit of the run's two nodes", err)
	}
	if n.Built(1) {
		t.Error("node 1 was built past the limit")
	}
}
