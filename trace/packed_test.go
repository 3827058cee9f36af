package trace

import (
	"fmt"
	"reflect"
	"testing"
)

// full is an op with every field set, each to a value of its own (k makes
// them differ between ops): a field Packed leaves out comes back zero.
func full(t *testing.T, k int) Op {
	var o Op
	v := reflect.ValueOf(&o).Elem()
	for i := range v.NumField() {
		f, n := v.Field(i), int64(1000*k+i+1)
		switch f.Kind() {
		case reflect.String:
			f.SetString(fmt.Sprintf("s%d", n))
		case reflect.Int, reflect.Int64:
			f.SetInt(n)
		case reflect.Float64:
			f.SetFloat(float64(n) + 0.25)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Pointer:
			p := reflect.New(f.Type().Elem())
			p.Elem().SetInt(-n)
			f.Set(p)
		case reflect.Slice:
			s := reflect.MakeSlice(f.Type(), 2, 2)
			if f.Type().Elem().Kind() == reflect.Int {
				s.Index(0).SetInt(n)
			} else {
				s.Index(0).FieldByName("Buf").SetString(fmt.Sprintf("a%d", n))
			}
			f.Set(s)
		default:
			t.Fatalf("field %s: kind %s has no value here; Packed must learn it too", v.Type().Field(i).Name, f.Kind())
		}
	}
	return o
}

func TestPackedGivesBackEveryField(t *testing.T) {
	ops := []Op{full(t, 1), {Op: DeviceSync}, full(t, 2), {Op: Kernel, Rank: 3, ComputeNs: 1.5}, {}}
	var p Packed
	for i := range ops {
		p.Append(&ops[i])
	}
	if p.Len() != len(ops) {
		t.Fatalf("Len %d, want %d", p.Len(), len(ops))
	}
	var o Op
	for i := range ops {
		if !p.Next(&o) {
			t.Fatalf("op %d: Next gave none", i)
		}
		if !reflect.DeepEqual(o, ops[i]) {
			t.Errorf("op %d:\n got %+v\nwant %+v", i, o, ops[i])
		}
	}
	if p.Next(&o) {
		t.Error("Next gave an op past the last")
	}
}

func TestPackedSharesListsAndDropsThemAfterTheirLastOp(t *testing.T) {
	shared := []Access{{Buf: "a", Mode: "read", Bytes: 8}}
	own := []Access{{Buf: "b", Mode: "write", Bytes: 8}}
	ops := []Op{{Op: Kernel, Access: shared}, {Op: Kernel, Access: own}, {Op: Kernel, Access: shared[:1:1]}, {Op: Kernel, Access: shared}}
	var p Packed
	for i := range ops {
		p.Append(&ops[i])
	}
	if len(p.access.tab) != 2 {
		t.Fatalf("%d lists kept, want 2 (one shared)", len(p.access.tab))
	}
	var o Op
	for i := range ops {
		p.Next(&o)
		if &o.Access[0] != &ops[i].Access[0] {
			t.Errorf("op %d: its list was copied, not shared", i)
		}
		if i == 1 && p.access.tab[1] != nil {
			t.Error("a list no later op names is still held")
		}
		if i == 2 && p.access.tab[0] == nil {
			t.Error("a list dropped before its last op")
		}
	}
}

func TestPackedDropsTheBlocksItRead(t *testing.T) {
	var p Packed
	o := Op{Op: Kernel, Name: "k"}
	for len(p.blocks) < 3 {
		p.Append(&o)
	}
	for p.Next(&o) {
	}
	for k, b := range p.blocks[:len(p.blocks)-1] {
		if b != nil {
			t.Errorf("block %d still held after every op was read", k)
		}
	}
}

func TestPackedNamesEachFieldOnce(t *testing.T) {
	tables := len(packedStrings) + len(packedInt64s) + len(packedInts) + len(packedPointers) + len(packedFloats) + len(packedBools)
	if n := reflect.TypeFor[Op]().NumField(); tables+3 != n { // and Op, Access and GCDs
		t.Errorf("the tables name %d fields and Op, Access and GCDs 3 more, against Op's %d", tables, n)
	}
	if tables+2 > 64 {
		t.Errorf("%d fields need more bits than a mask has", tables+2)
	}
}

func BenchmarkPacked(b *testing.B) {
	g, peer := 3, 5
	ops := []Op{{Op: DeviceSync, Rank: 7}, {Op: Kernel, Name: "k", Grid: 1 << 20, Workgroup: 256, GCD: &g, Rank: 7, Access: []Access{{Buf: "a"}}},
		{Op: MPIIsend, Buf: "b", Bytes: 1 << 20, Peer: &peer, Tag: 3, Req: "r1", Rank: 7}, {Op: MPIWait, Req: "r1", Rank: 7}}
	var p Packed
	var o Op
	for i := range b.N {
		p.Append(&ops[i%len(ops)])
	}
	for p.Next(&o) {
	}
}

func TestPackedKeepsEachStringOnce(t *testing.T) {
	var p Packed
	name := "buf"
	same := string([]byte("buf")) // other bytes, the same string
	for _, b := range []string{name, same, name, "other", same} {
		p.Append(&Op{Op: Free, Buf: b})
	}
	if len(p.strs) != 3 { // free, buf, other
		t.Errorf("table %q, want each string once", p.strs)
	}
	var o Op
	for _, want := range []string{"buf", "buf", "buf", "other", "buf"} {
		if p.Next(&o); o.Buf != want {
			t.Errorf("buf %q, want %q", o.Buf, want)
		}
	}
}
