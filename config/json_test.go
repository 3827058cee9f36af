package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// decodeTree writes n as config.json and decodes it keeping numbers as
// written.
func decodeTree(t *testing.T, n *Node) (map[string]any, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := n.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return m, buf.String()
}

// leaf is one plain value of a Node: its key path, TOML key and field.
type leaf struct {
	path, key string
	v         reflect.Value
}

// nodeLeaves walks every plain value of n, tables and arrays of tables
// included.
func nodeLeaves(path string, v reflect.Value) []leaf {
	var out []leaf
	for _, f := range fieldsOf(v.Type()) {
		fv := v.Field(f.index)
		p := joinKey(path, f.name)
		switch {
		case fv.Kind() == reflect.Struct:
			out = append(out, nodeLeaves(p, fv)...)
		case isTable(fv.Type()):
			for i := 0; i < fv.Len(); i++ {
				out = append(out, nodeLeaves(fmt.Sprintf("%s[%d]", p, i), fv.Index(i))...)
			}
		default:
			out = append(out, leaf{p, f.name, fv})
		}
	}
	return out
}

// holds reports whether some object of the tree has a parameter named key
// (or ending in "_key") whose JSON text is want.
func holds(o map[string]any, key, want string) bool {
	for k, v := range o {
		if c, ok := v.(map[string]any); ok {
			if holds(c, key, want) {
				return true
			}
			continue
		}
		if k != key && !strings.HasSuffix(k, "_"+key) {
			continue
		}
		if b, _ := json.Marshal(v); string(b) == want {
			return true
		}
	}
	return false
}

// structural values shape the tree (how many objects there are), so they
// are checked as they are rather than replaced by a probe value.
var structural = map[string]bool{"gcd.count": true, "sdma.host_engines": true, "sdma.xgmi_engines": true,
	"host.numa_domains": true, "host.gcd_numa": true}

// Every value of config.Node is in config.json: each non-structural value
// is set in turn to a probe no other value has and must appear under its
// key; structural ones must appear as they are.
func TestWriteJSONHoldsEveryValue(t *testing.T) {
	n, err := Load(shippedPath(t, "frontier-node"), nil)
	if err != nil {
		t.Fatal(err)
	}
	all := nodeLeaves("", reflect.ValueOf(n).Elem())
	if len(all) < 60 {
		t.Fatalf("only %d values walked", len(all))
	}
	tree, _ := decodeTree(t, n)
	for i, l := range all {
		if structural[l.path] || strings.HasPrefix(l.path, "xgmi.bundle[") {
			want, _ := json.Marshal(jsonValue(l.v))
			if !holds(tree, l.key, string(want)) {
				t.Errorf("%s = %s is not in config.json", l.path, want)
			}
			continue
		}
		old := reflect.ValueOf(l.v.Interface())
		switch l.v.Kind() {
		case reflect.Int, reflect.Int64:
			l.v.SetInt(int64(900001 + i))
		case reflect.Float64:
			l.v.SetFloat(1234.5 + float64(i))
		case reflect.String:
			l.v.SetString(fmt.Sprintf("probe%d", i))
		case reflect.Bool:
			l.v.SetBool(!l.v.Bool())
		case reflect.Slice:
			switch l.v.Type().Elem().Kind() {
			case reflect.Float64:
				l.v.Set(reflect.ValueOf([]float64{1234.5 + float64(i)}))
			case reflect.Int:
				l.v.Set(reflect.ValueOf([]int{900001 + i}))
			default:
				t.Fatalf("%s: no probe for %s", l.path, l.v.Type())
			}
		default:
			t.Fatalf("%s: no probe for %s", l.path, l.v.Type())
		}
		want, _ := json.Marshal(jsonValue(l.v))
		got, _ := decodeTree(t, n)
		if !holds(got, l.key, string(want)) {
			t.Errorf("%s: probe %s is not in config.json", l.path, want)
		}
		l.v.Set(old)
	}
}

// The tree has gem5's shape: type, name and path first, paths that follow
// the nesting, one object per instantiated component.
func TestWriteJSONShape(t *testing.T) {
	n, err := Load(shippedPath(t, "frontier-node"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tree, out := decodeTree(t, n)
	if !strings.HasPrefix(out, "{\n    \"type\": \"Node\",\n    \"name\": \"node\",\n    \"path\": \"node\",\n    \"config_name\": \"frontier-node\",") {
		t.Errorf("unexpected layout:\n%.300s", out)
	}
	count := map[string]int{}
	var walk func(o map[string]any, path string)
	walk = func(o map[string]any, path string) {
		if o["path"] != path || !strings.HasSuffix(path, fmt.Sprint(o["name"])) {
			t.Errorf("object at %s: name %v, path %v", path, o["name"], o["path"])
		}
		count[fmt.Sprint(o["type"])]++
		for k, v := range o {
			if c, ok := v.(map[string]any); ok {
				walk(c, path+"."+k)
			}
		}
	}
	walk(tree, "node")
	want := map[string]int{"Node": 1, "GCD": 8, "Hub": 8, "HBMController": 8, "L2Cache": 8, "ComputeUnits": 8,
		"SDMAEngine": 40, "XGMI": 1, "XGMIBundle": 12, "HostLinks": 1, "HostLink": 8, "Host": 1, "IODie": 1,
		"Cores": 1, "NUMADomain": 4, "DRAMController": 4, "Env": 1, "Routing": 1, "Runtime": 1, "Stack": 1, "ROCmRelease": 3, "CrayMPICHRelease": 2, "RCCLRelease": 2, "MPI": 1, "RCCL": 1, "NICs": 1, "NIC": 4, "PCIeLink": 4, "Network": 1, "NetworkLink": 1, "Sim": 1, "MALL": 1}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("objects by type %v, want %v", count, want)
	}
	get := func(path ...string) map[string]any {
		o := tree
		for _, p := range path {
			o, _ = o[p].(map[string]any)
		}
		return o
	}
	if b := get("xgmi", "b0_1"); fmt.Sprint(b["lanes"]) != "4" || fmt.Sprint(b["ends"]) != "[node.gcd0.hub node.gcd1.hub]" {
		t.Errorf("bundle 0-1: %v", b)
	}
	if e := get("gcd3", "sdma4"); e["kind"] != "xgmi" || e["path"] != "node.gcd3.sdma4" {
		t.Errorf("gcd3.sdma4: %v", e)
	}
	if l := get("hostlink", "gcd6"); fmt.Sprint(l["numa"]) != fmt.Sprint(n.Host.GCDNUMA[6]) {
		t.Errorf("host link of GCD 6: %v", l)
	}
	if h := get("gcd0", "hbm"); fmt.Sprint(h["hbm_latency_ns"]) != tomlFloat(n.GCD.HBMLatencyNs) {
		t.Errorf("gcd0.hbm: %v", h)
	}
	removed, err := Load(shippedPath(t, "frontier-node"), []string{"xgmi.bundle[0-2].lanes=0"})
	if err != nil {
		t.Fatal(err)
	}
	if tree, _ := decodeTree(t, removed); tree["xgmi"].(map[string]any)["b0_2"] != nil {
		t.Error("a removed bundle is in the tree")
	}
}

// An APU node's NUMA domains are its GCDs' HBM: config.json names that
// memory and lists no DRAM controller; the [dram] values stay on their
// section's object.
func TestWriteJSONAPUMemory(t *testing.T) {
	n, err := Load(shippedPath(t, "mi300a-node"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := n.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "DRAMController") || !strings.Contains(out, `"memory": "node.gcd3.hbm"`) || !strings.Contains(out, `"channels_per_domain"`) {
		t.Errorf("APU node's config.json: DRAM controllers %v, domain 3 on GCD 3's HBM %v, [dram] kept %v",
			strings.Contains(out, "DRAMController"), strings.Contains(out, `"memory": "node.gcd3.hbm"`), strings.Contains(out, `"channels_per_domain"`))
	}
}
