package trace

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRankOf(t *testing.T) {
	for _, c := range []struct {
		line string
		rank int
		ok   bool
	}{
		{`{"op":"device_sync"}`, 0, true},
		{`{"op":"device_sync","rank":3}`, 3, true},
		{`{"rank" : 12 , "op":"device_sync"}`, 12, true},
		{`{"op":"device_sync","rank":7}`, 7, true},
		{`{"op":"device_sync","rank":-1}`, 0, false},
		{`{"op":"device_sync","rank":"1"}`, 0, false},
		{`{"op":"device_sync","rank":1.5}`, 0, false},
		{`{"op":"device_sync","label":"rank"}`, 0, false},
		{`{"op":"device_sync","rank":1,"rank":2}`, 0, false},
		{`{"op":"device_sync","rank":99999999999999999999}`, 0, false},
	} {
		r, ok := rankOf([]byte(c.line))
		if r != c.rank || ok != c.ok {
			t.Errorf("%s: rank %d, %v; want %d, %v", c.line, r, ok, c.rank, c.ok)
		}
	}
}

// A stream hands out the ops ReadFile reads, in chunks of one length but
// the last; traces that need reading whole do not stream.
func TestStreamChunks(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("# a comment\n{\"op\":\"malloc\",\"buf\":\"a\",\"gcd\":0,\"bytes\":1048576}\n\n")
	for i := range 3*parseBatchLines + 5 {
		fmt.Fprintf(&b, `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"duration_ns":%d,"rank":%d}`+"\n", 10+i, i%3)
	}
	path := filepath.Join(dir, "t.jsonl")
	os.WriteFile(path, []byte(b.String()), 0o644)
	lim := Limits{GCDs: 8, NUMADomains: 4, GCDsPerNode: 8, NUMAPerNode: 4, HBMBytes: 1 << 34, NUMABytes: 1 << 36}
	want, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenStream(path, lim)
	if err != nil || s == nil {
		t.Fatalf("stream %v, %v", s, err)
	}
	defer s.Close()
	if !reflect.DeepEqual(s.Ranks(), []int{0, 1, 2}) {
		t.Errorf("ranks %v", s.Ranks())
	}
	var got []Op
	var lens []int
	for {
		ops, err := s.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ops == nil {
			break
		}
		got, lens = append(got, ops...), append(lens, len(ops))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("streamed ops differ from ReadFile's (%d and %d ops)", len(got), len(want))
	}
	for i, n := range lens[:len(lens)-1] {
		if n != lens[0] {
			t.Errorf("chunk %d has %d ops, the first %d", i, n, lens[0])
		}
	}
	for _, whole := range []string{
		`{"op":"flag_set","flag":"f"}`,
		`{"op":"setenv","name":"HSA_ENABLE_SDMA","value":"0"}`,
		`{"op":"mpi_wait","req":"r"}`,
		`{"op":"device_sync","label":"\u0041"}`,
	} {
		p := filepath.Join(dir, "w.jsonl")
		os.WriteFile(p, []byte(whole+"\n"), 0o644)
		if s, err := OpenStream(p, lim); s != nil || err != nil {
			t.Errorf("%s: streams (%v); it needs the whole trace", whole, err)
		}
	}
	if _, err := OpenStream(filepath.Join(dir, "missing.jsonl"), lim); err == nil {
		t.Error("a missing file opens")
	}
}
