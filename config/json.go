package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strings"
)

// WriteJSON writes the node as gem5 writes config.json: the instantiated
// object tree, each object with its type, name and path (the prefix of its
// statistics in stats.txt), the parameters it is built with, sorted, then
// its children, sorted, indented by four spaces. Parameters keep their
// TOML key names, so node.gcd0.hbm.hbm_latency_ns is gcd.hbm_latency_ns.
// Every value of the node appears: a key the tree does not place on a
// component stays on the object of its section.
func (n *Node) WriteJSON(w io.Writer) error {
	data, err := json.Marshal(n.tree())
	if err != nil {
		return fmt.Errorf("config: writing JSON: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, data, "", "    "); err != nil {
		return fmt.Errorf("config: writing JSON: %w", err)
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

// object is one SimObject of the tree.
type object struct {
	typ, name, path string
	params          map[string]any
	children        map[string]*object
}

func newObject(typ, name string) *object {
	return &object{typ: typ, name: name, path: name, params: map[string]any{}, children: map[string]*object{}}
}

// add makes a child named name.
func (o *object) add(typ, name string) *object {
	c := newObject(typ, name)
	c.path = o.path + "." + name
	o.children[name] = c
	return c
}

// set copies params onto o.
func (o *object) set(params map[string]any) *object {
	for k, v := range params {
		o.params[k] = v
	}
	return o
}

// MarshalJSON writes type, name, path, the parameters and the children,
// each group sorted by key as gem5's get_config_as_dict does.
func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	put := func(k string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", o.path, k, err)
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
		return nil
	}
	for _, kv := range [][2]string{{"type", o.typ}, {"name", o.name}, {"path", o.path}} {
		if err := put(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	for _, k := range sortedKeys(o.params) {
		if err := put(k, o.params[k]); err != nil {
			return nil, err
		}
	}
	for _, k := range sortedKeys(o.children) {
		if err := put(k, o.children[k]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// section holds the parameters of one config table not yet placed.
type section map[string]any

// leaves reads the plain values of struct v (tables are left out).
func leaves(v reflect.Value) section {
	s := section{}
	for _, f := range fieldsOf(v.Type()) {
		fv := v.Field(f.index)
		if isTable(fv.Type()) {
			continue
		}
		s[f.name] = jsonValue(fv)
	}
	return s
}

// take removes and returns the parameters whose key is listed or starts
// with a listed prefix (an entry ending in "_").
func (s section) take(keys ...string) map[string]any {
	out := map[string]any{}
	for k, v := range s {
		for _, want := range keys {
			if k == want || strings.HasSuffix(want, "_") && strings.HasPrefix(k, want) {
				out[k] = v
				delete(s, k)
				break
			}
		}
	}
	return out
}

// tree is the node as built by node.Build, with the values it is built from.
func (n *Node) tree() *object {
	root := newObject("Node", "node")
	root.params["config_name"] = n.Name
	root.params["gcd_count"] = n.GCD.Count

	// Tables that are not hardware (env, routing, runtime, sim, and any
	// new one) are objects of their own.
	v := reflect.ValueOf(n).Elem()
	hardware := map[string]bool{"name": true, "gcd": true, "sdma": true, "xgmi": true, "host_link": true, "host": true, "dram": true,
		"nic": true, "network": true}
	for _, f := range fieldsOf(v.Type()) {
		if !hardware[f.name] {
			fv := v.Field(f.index)
			o := root.add(fv.Type().Name(), f.name).set(leaves(fv))
			for _, lf := range fieldsOf(fv.Type()) { // lists of tables (the stack's releases): an object per entry, in file order
				if l := fv.Field(lf.index); l.Kind() == reflect.Slice && l.Type().Elem().Kind() == reflect.Struct {
					for i := range l.Len() {
						o.add(l.Type().Elem().Name(), fmt.Sprintf("%s%d", lf.name, i)).set(leaves(l.Index(i)))
					}
				}
			}
		}
	}

	gcd := leaves(v.FieldByName("GCD"))
	gcd.take("count")
	hub := gcd.take("hub_forward_ns", "reorder_ns")
	hbm := gcd.take("hbm_")
	l2 := gcd.take("l2_")
	cu := gcd.take("cu_", "compute_units", "workgroup_slots", "fp64_", "kernel_", "concurrent_kernels", "line_bytes")
	sdma := leaves(v.FieldByName("SDMA"))
	engines := sdma.take("host_engines", "xgmi_engines")
	for g := 0; g < n.GCD.Count; g++ {
		o := root.add("GCD", fmt.Sprintf("gcd%d", g)).set(gcd).set(engines)
		o.params["id"] = g
		o.add("Hub", "hub").set(hub).params["id"] = g
		o.add("HBMController", "hbm").set(hbm)
		o.add("L2Cache", "l2").set(l2)
		o.add("ComputeUnits", "cu").set(cu)
		for i := 0; i < n.SDMA.HostEngines+n.SDMA.XGMIEngines; i++ {
			kind := "host"
			if i >= n.SDMA.HostEngines {
				kind = "xgmi"
			}
			o.add("SDMAEngine", fmt.Sprintf("sdma%d", i)).set(sdma).params["kind"] = kind
		}
	}

	// Bundles are named by their GCD pair, lower id first; dir0 in
	// stats.txt goes from the lower id to the higher.
	xgmi := root.add("XGMI", "xgmi")
	lane := leaves(v.FieldByName("XGMI"))
	for _, b := range n.XGMI.Bundles {
		if b.Lanes == 0 {
			continue // removed: not instantiated
		}
		lo, hi := min(b.GCDs[0], b.GCDs[1]), max(b.GCDs[0], b.GCDs[1])
		o := xgmi.add("XGMIBundle", fmt.Sprintf("b%d_%d", lo, hi)).set(lane)
		o.params["gcds"] = []int{b.GCDs[0], b.GCDs[1]}
		o.params["lanes"] = b.Lanes
		o.params["ends"] = []string{fmt.Sprintf("node.gcd%d.hub", lo), fmt.Sprintf("node.gcd%d.hub", hi)}
	}

	// Host links: dir0 goes from the GCD to the host.
	links := root.add("HostLinks", "hostlink")
	link := leaves(v.FieldByName("HostLink"))
	for g := 0; g < n.GCD.Count; g++ {
		o := links.add("HostLink", fmt.Sprintf("gcd%d", g)).set(link)
		o.params["ends"] = []string{fmt.Sprintf("node.gcd%d.hub", g), "node.host.iodie"}
		if g < len(n.Host.GCDNUMA) {
			o.params["numa"] = n.Host.GCDNUMA[g]
		}
	}

	host := leaves(v.FieldByName("Host"))
	iodie := host.take("hub_latency_ns", "remote_numa_ns")
	cores := host.take("cores", "core_")
	h := root.add("Host", "host").set(host)
	h.add("IODie", "iodie").set(iodie)
	h.add("Cores", "cores").set(cores)

	// NICs of one node (every node has the same) and the network's links.
	nic := leaves(v.FieldByName("NIC"))
	place := nic.take("count", "gcds", "numa", "switch")
	pcie := leaves(v.FieldByName("NIC").FieldByName("PCIe"))
	nics := root.add("NICs", "nic").set(place)
	for k := range n.NIC.GCDs {
		o := nics.add("NIC", fmt.Sprintf("nic%d", k)).set(nic)
		o.params["id"] = k
		o.params["gcd"], o.params["numa"], o.params["switch"] = entry(n.NIC.GCDs, k), entry(n.NIC.NUMA, k), entry(n.NIC.Switch, k)
		o.add("PCIeLink", "pcie").set(pcie).params["ends"] = []string{fmt.Sprintf("node.gcd%v.hub", entry(n.NIC.GCDs, k)), fmt.Sprintf("node.nic.nic%d", k)}
	}
	net := root.add("Network", "network").set(leaves(v.FieldByName("Network")))
	net.add("NetworkLink", "link").set(leaves(v.FieldByName("Network").FieldByName("Link")))

	dram := leaves(v.FieldByName("DRAM"))
	if n.Host.Unified() { // an APU's NUMA domain is its GCD's HBM: no controller is built
		root.add("DRAM", "dram").set(dram)
	}
	for d := 0; d < n.Host.NUMADomains; d++ {
		o := root.add("NUMADomain", fmt.Sprintf("numa%d", d))
		o.params["id"] = d
		if n.Host.Unified() {
			o.params["memory"] = fmt.Sprintf("node.gcd%d.hbm", d)
			continue
		}
		o.add("DRAMController", "dram").set(dram)
	}
	return root
}

// entry is list[k], or nil when the list is short (a node not validated).
func entry(list []int, k int) any {
	if k < len(list) {
		return list[k]
	}
	return nil
}

// jsonValue converts a plain (non-table) value to one encoding/json
// writes; floats keep a decimal point, as Python's json writes them.
func jsonValue(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		a := make([]any, v.Len())
		for i := range a {
			a[i] = jsonValue(v.Index(i))
		}
		return a
	case reflect.Float32, reflect.Float64:
		if x := v.Float(); !math.IsNaN(x) && !math.IsInf(x, 0) {
			return json.Number(tomlFloat(x))
		}
	}
	return v.Interface()
}
