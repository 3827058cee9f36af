package trace

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// testNode is a Frontier node: 8 GCDs of 64 GiB HBM, 4 NUMA domains of
// 128 GiB.
var testNode = Limits{GCDs: 8, NUMADomains: 4, HBMBytes: 64 << 30, NUMABytes: 128 << 30}

func ip(v int) *int { return &v }

// stripLines returns a copy of ops with Line zeroed, for comparisons.
func stripLines(ops []Op) []Op {
	out := make([]Op, len(ops))
	copy(out, ops)
	for i := range out {
		out[i].Line = 0
	}
	return out
}

func sampleTraces(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "traces", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("found %d sample traces in ../traces, want at least 3", len(files))
	}
	return files
}

func TestSampleTraces(t *testing.T) {
	for _, f := range sampleTraces(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			ops, err := ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(ops) == 0 {
				t.Fatal("no ops")
			}
			if err := Check(ops, testNode, f); err != nil {
				t.Fatal(err)
			}
			for i, o := range ops {
				if o.Line <= 0 || (i > 0 && o.Line <= ops[i-1].Line) {
					t.Errorf("op %d: bad Line %d", i, o.Line)
				}
			}
		})
	}
}

func TestH2DPinnedSample(t *testing.T) {
	ops, err := ReadFile(filepath.Join("..", "traces", "h2d-pinned-1gib.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Op{
		{Op: HostMalloc, Buf: "h", NUMA: ip(3), Bytes: 1 << 30, Label: "pinned host buffer"},
		{Op: Malloc, Buf: "d0", GCD: ip(0), Bytes: 1 << 30, Label: "device buffer on GCD 0"},
		{Op: EventRecord, Stream: 1, Event: "start"},
		{Op: MemcpyAsync, Src: "h", Dst: "d0", Bytes: 1 << 30, Stream: 1, Label: "h2d 1 GiB"},
		{Op: EventRecord, Stream: 1, Event: "stop"},
		{Op: EventSync, Event: "stop"},
	}
	if got := stripLines(ops); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if ops[0].Line != 5 || ops[5].Line != 10 {
		t.Errorf("lines %d..%d, want 5..10 (after the 4 comment lines)", ops[0].Line, ops[5].Line)
	}
	bufs := Buffers(ops)
	wantBufs := map[string]Buffer{
		"h":  {Name: "h", Host: true, GCD: -1, NUMA: 3, Bytes: 1 << 30},
		"d0": {Name: "d0", GCD: 0, NUMA: -1, Bytes: 1 << 30, Coarse: true}, // hipMalloc memory is coarse-grained
	}
	if !reflect.DeepEqual(bufs, wantBufs) {
		t.Errorf("Buffers = %+v, want %+v", bufs, wantBufs)
	}
}

func TestStreamCopySample(t *testing.T) {
	f := filepath.Join("..", "traces", "stream-copy-local.jsonl")
	ops, err := ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(ops, testNode, f); err != nil {
		t.Fatal(err)
	}
	want := []Op{
		{Op: Malloc, Buf: "a", GCD: ip(0), Bytes: 1 << 30, Label: "source array on GCD 0"},
		{Op: Malloc, Buf: "b", GCD: ip(0), Bytes: 1 << 30, Label: "destination array on GCD 0"},
		{Op: EventRecord, Stream: 1, Event: "start"},
		{Op: Kernel, Name: "stream_copy", GCD: ip(0), Stream: 1, Grid: 134217728, Workgroup: 128,
			Access: []Access{
				{Buf: "a", Mode: "read", Bytes: 1 << 30},
				{Buf: "b", Mode: "write", Bytes: 1 << 30},
			}, Label: "copy 1 GiB"},
		{Op: EventRecord, Stream: 1, Event: "stop"},
		{Op: EventSync, Event: "stop"},
	}
	if got := stripLines(ops); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	// One double (8 bytes) per work-item: the grid covers each array once.
	if k := ops[3]; k.Grid*8 != k.Access[0].Bytes || k.Line != 8 {
		t.Errorf("kernel: grid %d for %d bytes, line %d", k.Grid, k.Access[0].Bytes, k.Line)
	}
}

func TestParseKernel(t *testing.T) {
	in := `{"op":"kernel","name":"k","gcd":3,"stream":2,"grid":1024,"workgroup":256,"compute_ns":12.5,"in_flight":16384,` +
		`"access":[ {"buf":"a","mode":"read","bytes":64,"offset":8,"pattern":"strided","stride":16} ,` +
		`{"pattern":"random","offset":0,"bytes":1,"mode":"write","buf":"b"}]}` + "\n" +
		`{"op":"kernel","name":"empty","access":[]}`
	ops, err := Parse(strings.NewReader(in), "t")
	if err != nil {
		t.Fatal(err)
	}
	want := []Op{
		{Op: Kernel, Name: "k", GCD: ip(3), Stream: 2, Grid: 1024, Workgroup: 256, ComputeNs: 12.5, InFlight: 16384,
			Access: []Access{
				{Buf: "a", Mode: "read", Bytes: 64, Offset: 8, Pattern: "strided", Stride: 16},
				{Buf: "b", Mode: "write", Bytes: 1, Pattern: "random"},
			}},
		{Op: Kernel, Name: "empty"}, // "access":[] reads as nil, as Write would leave it out
	}
	if got := stripLines(ops); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestParseSkipsBlankAndComments(t *testing.T) {
	in := "\xef\xbb\xbf# header\r\n\r\n   \n  # indented comment\n" +
		`  {"op":"device_sync"}  ` + "\r\n" +
		"\t\n" +
		`{"op":"device_sync","label":"last, no newline"}`
	ops, err := Parse(strings.NewReader(in), "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].Line != 5 || ops[1].Line != 7 || ops[1].Label != "last, no newline" {
		t.Fatalf("got %+v", ops)
	}
	ops, err = Parse(strings.NewReader(""), "t")
	if err != nil || len(ops) != 0 {
		t.Fatalf("empty input: %v, %v", ops, err)
	}
}

func TestRoundTrip(t *testing.T) {
	generated := []Op{
		{Op: HostMalloc, Buf: "h", NUMA: ip(0), Bytes: 4096, Label: `quotes " and <html> & newline` + "\n"},
		{Op: Malloc, Buf: "d", GCD: ip(0), Bytes: 8192},
		{Op: Malloc, Buf: "e", GCD: ip(7), Bytes: 8192, Label: "ünïcode ✓"},
		{Op: Memcpy, Src: "h", Dst: "d", Bytes: 4096, DstOff: 4096},
		{Op: MemcpyAsync, Src: "d", Dst: "h", Bytes: 1, SrcOff: 8191, Stream: 3},
		{Op: MemcpyPeer, Src: "d", Dst: "e", Bytes: 8192},
		{Op: MemcpyPeerAsy, Src: "e", Dst: "d", Bytes: 100, Stream: 2},
		{Op: EventRecord, Event: "ev", Stream: 2},
		{Op: StreamWait, Event: "ev", Stream: 0},
		{Op: EventSync, Event: "ev"},
		{Op: StreamSync, Stream: 2},
		{Op: Kernel, Name: "stream_triad", GCD: ip(0), Stream: 1, Grid: 1024, Workgroup: 256, ComputeNs: 0.25,
			Access: []Access{
				{Buf: "d", Mode: "read", Bytes: 4096},
				{Buf: "d", Mode: "read", Bytes: 4096, Offset: 4096, Pattern: "sequential"},
				{Buf: "e", Mode: "write", Bytes: 8192}, // peer access to GCD 7
			}},
		{Op: Kernel, Name: "gather ✓", GCD: ip(7), Grid: 1, Workgroup: 1, Label: "zero-copy",
			Access: []Access{
				{Buf: "h", Mode: "read", Bytes: 4096, Pattern: "random"}, // host memory
				{Buf: "e", Mode: "write", Bytes: 100, Offset: 8092, Pattern: "strided", Stride: 12},
			}},
		{Op: DeviceSync},
	}
	if err := Check(generated, testNode, "generated"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, generated); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != len(generated) {
		t.Fatalf("Write produced %d lines for %d ops:\n%s", n, len(generated), buf.String())
	}
	if !strings.Contains(buf.String(), `"compute_ns":0.25,"access":[{"buf":"d","mode":"read","bytes":4096},`) {
		t.Errorf("kernel fields not written as expected:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), `"gcd":0`) {
		t.Errorf("gcd 0 must be written (it is a pointer):\n%s", buf.String())
	}
	back, err := Parse(&buf, "written")
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range back {
		if o.Line != i+1 {
			t.Errorf("op %d: Line %d, want %d", i, o.Line, i+1)
		}
	}
	if got := stripLines(back); !reflect.DeepEqual(got, generated) {
		t.Errorf("round trip:\ngot  %+v\nwant %+v", got, generated)
	}

	// The sample traces survive a round trip too.
	for _, f := range sampleTraces(t) {
		ops, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Write(&b, ops); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(&b, f)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(stripLines(back), stripLines(ops)) {
			t.Errorf("%s: round trip differs", f)
		}
	}
}

func TestWriteFormat(t *testing.T) {
	var b bytes.Buffer
	err := Write(&b, []Op{
		{Op: Malloc, Buf: "d", GCD: ip(0), Bytes: 10, Line: 99},
		{Op: EventRecord, Event: "e", Stream: 1, Label: "a<b"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"op":"malloc","buf":"d","gcd":0,"bytes":10}` + "\n" +
		`{"op":"event_record","stream":1,"event":"e","label":"a<b"}` + "\n"
	if b.String() != want {
		t.Errorf("got\n%swant\n%s", b.String(), want)
	}
	b.Reset()
	err = Write(&b, []Op{{Op: Kernel, Name: "k", GCD: ip(1), Stream: 2, Grid: 256, Workgroup: 64,
		Access: []Access{{Buf: "d", Mode: "read", Bytes: 10, Offset: 2, Pattern: "strided", Stride: 4}}}})
	if err != nil {
		t.Fatal(err)
	}
	want = `{"op":"kernel","gcd":1,"stream":2,"name":"k","grid":256,"workgroup":64,` +
		`"access":[{"buf":"d","mode":"read","bytes":10,"offset":2,"pattern":"strided","stride":4}]}` + "\n"
	if b.String() != want {
		t.Errorf("got\n%swant\n%s", b.String(), want)
	}
	for _, o := range []Op{
		{Op: DeviceSync, Label: "bad \xff"},
		{Op: Kernel, Name: "bad \xff"},
		{Op: Kernel, Access: []Access{{Buf: "d"}, {Buf: "d", Mode: "bad \xff"}}},
	} {
		if err := Write(&b, []Op{o}); err == nil {
			t.Errorf("Write accepted invalid UTF-8 in %+v", o)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		if err := Write(&b, []Op{{Op: Kernel, ComputeNs: v}}); err == nil {
			t.Errorf("Write accepted compute_ns %v", v)
		}
	}
}

// Each case is a whole trace; the error must name the exact line and say
// exactly what is wrong. check=false cases fail in Parse, the others in
// Check (after Parse succeeds).
var errorCases = []struct {
	name  string
	check bool
	in    string
	line  int
	field string
	want  string // full error text
}{
	{
		name: "malformed JSON",
		in:   "# c\n" + `{"op":"malloc","buf":"a","gcd":0,"bytes":1}` + "\n" + `{"op":"device_sync",}`,
		line: 3, want: `t.jsonl:3: malformed JSON at column 21: invalid character '}' looking for beginning of object key string`,
	},
	{
		name: "truncated JSON",
		in:   "\n\n" + `{"op":"device_sync"`,
		line: 3, want: `t.jsonl:3: malformed JSON: line ends before the JSON value is complete`,
	},
	{
		name: "two objects on a line",
		in:   `{"op":"device_sync"} {"op":"device_sync"}`,
		line: 1, want: `t.jsonl:1: malformed JSON at column 22: invalid character '{' after top-level value`,
	},
	{
		name: "not an object",
		in:   "[1, 2]",
		line: 1, want: `t.jsonl:1: expected a JSON object, got an array`,
	},
	{
		name: "unknown field",
		in:   `{"op":"device_sync"}` + "\n" + `{"op":"malloc","buf":"a","gpu":0,"bytes":1}`,
		line: 2, field: "gpu", want: `t.jsonl:2: gpu: unknown field`,
	},
	{
		name: "field name in wrong case",
		in:   `{"op":"malloc","buf":"a","GCD":0,"bytes":1}`,
		line: 1, field: "GCD", want: `t.jsonl:1: GCD: unknown field (names are lower case: "gcd")`,
	},
	{
		name: "duplicate field",
		in:   `{"op":"malloc","buf":"a","gcd":0,"gcd":1,"bytes":1}`,
		line: 1, field: "gcd", want: `t.jsonl:1: gcd: field given twice`,
	},
	{
		name: "null field",
		in:   `{"op":"malloc","buf":"a","gcd":null,"bytes":1}`,
		line: 1, field: "gcd", want: `t.jsonl:1: gcd: must not be null`,
	},
	{
		name: "string size",
		in:   `{"op":"malloc","buf":"a","gcd":0,"bytes":"1GiB"}`,
		line: 1, field: "bytes", want: `t.jsonl:1: bytes: must be an integer, got string`,
	},
	{
		name: "fractional size",
		in:   `{"op":"malloc","buf":"a","gcd":0,"bytes":1.5}`,
		line: 1, field: "bytes", want: `t.jsonl:1: bytes: must be an integer, got number 1.5`,
	},
	{
		name: "size out of range",
		in:   `{"op":"malloc","buf":"a","gcd":0,"bytes":9223372036854775808}`,
		line: 1, field: "bytes", want: `t.jsonl:1: bytes: integer 9223372036854775808 out of range`,
	},
	{
		name: "invalid UTF-8",
		in:   "{\"op\":\"device_sync\",\"label\":\"\xff\"}",
		line: 1, want: `t.jsonl:1: invalid UTF-8`,
	},
	{
		name: "missing op", check: true,
		in:   `{"op":"device_sync"}` + "\n" + `{"label":"x"}`,
		line: 2, field: "op", want: `t.jsonl:2: op: missing: every line needs an op kind`,
	},
	{
		name: "unknown op", check: true,
		in:   `{"op":"device_sync"}` + "\n\n" + `{"op":"memset_2d","buf":"a"}`,
		line: 3, field: "op", want: `t.jsonl:3: op: unknown op kind "memset_2d"`,
	},
	{
		name: "field not used by the op",
		in:   `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" + `{"op":"memcpy","src":"a","dst":"a","bytes":8,"stream":1}`,
		line: 2, field: "stream", want: `t.jsonl:2: stream: not used by memcpy`,
	},
	{
		name: "malloc without buf", check: true,
		in:   `{"op":"malloc","gcd":0,"bytes":16}`,
		line: 1, field: "buf", want: `t.jsonl:1: buf: required by malloc`,
	},
	{
		name: "malloc without gcd", check: true,
		in:   `{"op":"malloc","buf":"a","bytes":16}`,
		line: 1, field: "gcd", want: `t.jsonl:1: gcd: required by malloc`,
	},
	{
		name: "unknown buffer", check: true,
		in: `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" +
			`{"op":"memcpy","src":"a","dst":"x","bytes":8}`,
		line: 2, field: "dst", want: `t.jsonl:2: dst: unknown buffer "x"`,
	},
	{
		name: "memset past its buffer", check: true,
		in:   `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" + `{"op":"memset","buf":"a","bytes":32,"gcd":0}`,
		line: 2, field: "bytes", want: `t.jsonl:2: bytes: memset of 32 bytes at offset 0 exceeds buffer "a" of 16 bytes`,
	},
	{
		name: "memset without a gcd", check: true,
		in:   `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" + `{"op":"memset","buf":"a","bytes":16}`,
		line: 2, field: "gcd", want: `t.jsonl:2: gcd: required by memset`,
	},
	{
		name: "memset of no bytes", check: true,
		in:   `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" + `{"op":"memset","buf":"a","gcd":0}`,
		line: 2, field: "bytes", want: `t.jsonl:2: bytes: must be > 0, got 0`,
	},
	{
		name: "buffer used before its malloc", check: true,
		in: `{"op":"memcpy","src":"a","dst":"b","bytes":8}` + "\n" +
			`{"op":"malloc","buf":"a","gcd":0,"bytes":16}`,
		line: 1, field: "src", want: `t.jsonl:1: src: unknown buffer "a"`,
	},
	{
		name: "negative size", check: true,
		in:   "# c\n" + `{"op":"host_malloc","buf":"h","numa":0,"bytes":-5}`,
		line: 2, field: "bytes", want: `t.jsonl:2: bytes: must be > 0, got -5`,
	},
	{
		name: "zero size", check: true,
		in: `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" +
			`{"op":"malloc","buf":"b","gcd":1,"bytes":16}` + "\n" +
			`{"op":"memcpy_peer","src":"a","dst":"b","bytes":0}`,
		line: 3, field: "bytes", want: `t.jsonl:3: bytes: must be > 0, got 0`,
	},
	{
		name: "negative copy size", check: true,
		in: `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" +
			`{"op":"memcpy_async","src":"a","dst":"a","bytes":-1,"stream":1}`,
		line: 2, field: "bytes", want: `t.jsonl:2: bytes: must be > 0, got -1`,
	},
	{
		name: "copy larger than its buffer", check: true,
		in: `{"op":"malloc","buf":"a","gcd":0,"bytes":100}` + "\n" +
			`{"op":"malloc","buf":"b","gcd":1,"bytes":50}` + "\n" +
			`{"op":"memcpy_peer_async","src":"a","dst":"b","bytes":100,"stream":1}`,
		line: 3, field: "bytes", want: `t.jsonl:3: bytes: copy of 100 bytes at offset 0 exceeds buffer "b" of 50 bytes`,
	},
	{
		name: "offset beyond the buffer", check: true,
		in: `{"op":"malloc","buf":"a","gcd":0,"bytes":100}` + "\n" +
			`{"op":"memcpy","src":"a","dst":"a","bytes":10,"src_offset":95}`,
		line: 2, field: "src_offset", want: `t.jsonl:2: src_offset: copy of 10 bytes at offset 95 exceeds buffer "a" of 100 bytes`,
	},
	{
		name: "negative offset", check: true,
		in: `{"op":"malloc","buf":"a","gcd":0,"bytes":100}` + "\n" +
			`{"op":"memcpy","src":"a","dst":"a","bytes":10,"dst_offset":-1}`,
		line: 2, field: "dst_offset", want: `t.jsonl:2: dst_offset: must be >= 0, got -1`,
	},
	{
		name: "huge offset does not overflow", check: true,
		in: `{"op":"malloc","buf":"a","gcd":0,"bytes":100}` + "\n" +
			`{"op":"memcpy","src":"a","dst":"a","bytes":10,"dst_offset":9223372036854775807}`,
		line: 2, field: "dst_offset", want: `t.jsonl:2: dst_offset: copy of 10 bytes at offset 9223372036854775807 exceeds buffer "a" of 100 bytes`,
	},
	{
		name: "duplicate buffer", check: true,
		in: `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" +
			"# another\n" +
			`{"op":"host_malloc","buf":"a","numa":1,"bytes":16}`,
		line: 3, field: "buf", want: `t.jsonl:3: buf: buffer "a" already defined on line 1`,
	},
	{
		name: "gcd out of range", check: true,
		in:   `{"op":"malloc","buf":"a","gcd":8,"bytes":16}`,
		line: 1, field: "gcd", want: `t.jsonl:1: gcd: must be in 0..7, got 8`,
	},
	{
		name: "negative gcd", check: true,
		in:   `{"op":"malloc","buf":"a","gcd":-1,"bytes":16}`,
		line: 1, field: "gcd", want: `t.jsonl:1: gcd: must be in 0..7, got -1`,
	},
	{
		name: "numa out of range", check: true,
		in: `{"op":"host_malloc","buf":"h0","numa":3,"bytes":16}` + "\n" +
			`{"op":"host_malloc","buf":"h1","numa":4,"bytes":16}`,
		line: 2, field: "numa", want: `t.jsonl:2: numa: must be in 0..3, got 4`,
	},
	{
		name: "negative stream", check: true,
		in: `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" +
			`{"op":"memcpy_async","src":"a","dst":"a","bytes":8,"stream":-2}`,
		line: 2, field: "stream", want: `t.jsonl:2: stream: must be in 0..1073741823, got -2`,
	},
	{
		name: "event_record without event", check: true,
		in:   `{"op":"event_record","stream":1}`,
		line: 1, field: "event", want: `t.jsonl:1: event: required by event_record`,
	},
	{
		name: "event_sync of unrecorded event", check: true,
		in: `{"op":"event_record","stream":1,"event":"start"}` + "\n" +
			`{"op":"event_sync","event":"stop"}`,
		line: 2, field: "event", want: `t.jsonl:2: event: event "stop" not recorded on an earlier line`,
	},
	{
		name: "stream_wait before the record", check: true,
		in: `{"op":"stream_wait","stream":2,"event":"e"}` + "\n" +
			`{"op":"event_record","stream":1,"event":"e"}`,
		line: 1, field: "event", want: `t.jsonl:1: event: event "e" not recorded on an earlier line`,
	},
	{
		name: "peer copy with host buffer", check: true,
		in: `{"op":"host_malloc","buf":"h","numa":3,"bytes":64}` + "\n" +
			`{"op":"malloc","buf":"d","gcd":0,"bytes":64}` + "\n" +
			`{"op":"memcpy_peer","src":"d","dst":"h","bytes":64}`,
		line: 3, field: "dst", want: `t.jsonl:3: dst: memcpy_peer needs device buffers, but "h" is a host buffer`,
	},
	{
		name: "host-to-host copy", check: true,
		in: `{"op":"host_malloc","buf":"h","numa":3,"bytes":64}` + "\n" +
			`{"op":"host_malloc","buf":"g","numa":0,"bytes":64}` + "\n" +
			`{"op":"memcpy","src":"h","dst":"g","bytes":64}`,
		line: 3, field: "dst", want: `t.jsonl:3: dst: host-to-host copies are not modelled ("h" and "g" are host buffers)`,
	},

	// Fields the op does not use are errors even at their zero value,
	// which only the parser, seeing the keys, can tell from absent.
	{
		name: "zero stream on a blocking copy",
		in: `{"op":"malloc","buf":"a","gcd":0,"bytes":16}` + "\n" +
			`{"op":"memcpy","src":"a","dst":"a","bytes":8,"stream":0}`,
		line: 2, field: "stream", want: `t.jsonl:2: stream: not used by memcpy`,
	},
	{
		name: "zero numa on a malloc",
		in:   `{"op":"malloc","buf":"a","gcd":0,"numa":0,"bytes":16}`,
		line: 1, field: "numa", want: `t.jsonl:1: numa: not used by malloc`,
	},
	{
		name: "zero offset on an allocation",
		in:   `{"op":"host_malloc","buf":"a","numa":0,"bytes":16,"src_offset":0}`,
		line: 1, field: "src_offset", want: `t.jsonl:1: src_offset: not used by host_malloc`,
	},
	{
		name: "empty name on a malloc",
		in:   `{"op":"malloc","buf":"a","gcd":0,"bytes":16,"name":""}`,
		line: 1, field: "name", want: `t.jsonl:1: name: not used by malloc`,
	},
	{
		name: "empty access on a copy",
		in:   `{"op":"memcpy","src":"a","dst":"a","bytes":8,"access":[]}`,
		line: 1, field: "access", want: `t.jsonl:1: access: not used by memcpy`,
	},
	{
		name: "zero threads on device_sync",
		in:   `{"op":"device_sync","threads":0}`,
		line: 1, field: "threads", want: `t.jsonl:1: threads: not used by device_sync`,
	},
	{
		name: "unknown kind with a zero field is left to Check", check: true,
		in:   `{"op":"memset_2d","gcd":0}`,
		line: 1, field: "op", want: `t.jsonl:1: op: unknown op kind "memset_2d"`,
	},

	// Capacity: allocations must fit in the GCD's HBM or the NUMA
	// domain's memory, counting earlier allocations there.
	{
		name: "2^62-byte malloc", check: true,
		in:   `{"op":"malloc","buf":"a","gcd":0,"bytes":4611686018427387904}`,
		line: 1, field: "bytes", want: `t.jsonl:1: bytes: 4611686018427387904 bytes do not fit in GCD 0's HBM: 68719476736 of 68719476736 bytes (gcd.hbm_bytes) free`,
	},
	{
		name: "mallocs beyond HBM together", check: true,
		in: `{"op":"malloc","buf":"a","gcd":3,"bytes":34359738368}` + "\n" +
			`{"op":"malloc","buf":"b","gcd":4,"bytes":68719476736}` + "\n" +
			`{"op":"malloc","buf":"c","gcd":3,"bytes":34359738368}` + "\n" +
			`{"op":"malloc","buf":"d","gcd":3,"bytes":1}`,
		line: 4, field: "bytes", want: `t.jsonl:4: bytes: 1 bytes do not fit in GCD 3's HBM: 0 of 68719476736 bytes (gcd.hbm_bytes) free`,
	},
	{
		name: "host_malloc beyond the NUMA domain", check: true,
		in: `{"op":"host_malloc","buf":"a","numa":1,"bytes":137438953472}` + "\n" +
			`{"op":"host_malloc","buf":"b","numa":2,"bytes":137438953472}` + "\n" +
			`{"op":"malloc","buf":"c","gcd":1,"bytes":4096}` + "\n" +
			`{"op":"host_malloc","buf":"d","numa":2,"bytes":9223372036854775807}`,
		line: 4, field: "bytes", want: `t.jsonl:4: bytes: 9223372036854775807 bytes do not fit in NUMA domain 2's memory: 0 of 137438953472 bytes (host.numa_bytes) free`,
	},
}

// kernelPre allocates buffers a (100 bytes on GCD 0) and b (50 bytes on
// GCD 1) on lines 1 and 2, for the kernel error cases.
const kernelPre = `{"op":"malloc","buf":"a","gcd":0,"bytes":100}` + "\n" +
	`{"op":"malloc","buf":"b","gcd":1,"bytes":50}` + "\n"

// kernelErrorCases are errorCases for kernel ops.
var kernelErrorCases = []struct {
	name  string
	check bool
	in    string
	line  int
	field string
	want  string
}{
	// Parse: the access array is decoded as strictly as the op.
	{
		name: "kernel: unknown key in an access object",
		in: kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,` +
			`"access":[{"buf":"a","mode":"read","bytes":8},{"buf":"b","mode":"write","size":8}]}`,
		line: 3, field: "access[1].size", want: `t.jsonl:3: access[1].size: unknown field`,
	},
	{
		name: "kernel: access key in wrong case",
		in:   `{"op":"kernel","access":[{"buf":"a","Mode":"read","bytes":8}]}`,
		line: 1, field: "access[0].Mode", want: `t.jsonl:1: access[0].Mode: unknown field (names are lower case: "mode")`,
	},
	{
		name: "kernel: access key given twice",
		in:   `{"op":"kernel","access":[{"buf":"a","mode":"read","bytes":8,"mode":"write"}]}`,
		line: 1, field: "access[0].mode", want: `t.jsonl:1: access[0].mode: field given twice`,
	},
	{
		name: "kernel: null in an access object",
		in:   `{"op":"kernel","access":[{"buf":"a","mode":"read","bytes":8},{"buf":"a","mode":"read","bytes":8,"pattern":null}]}`,
		line: 1, field: "access[1].pattern", want: `t.jsonl:1: access[1].pattern: must not be null`,
	},
	{
		name: "kernel: null access object",
		in:   `{"op":"kernel","access":[{"buf":"a","mode":"read","bytes":8},null]}`,
		line: 1, field: "access[1]", want: `t.jsonl:1: access[1]: must not be null`,
	},
	{
		name: "kernel: null access",
		in:   `{"op":"kernel","access":null}`,
		line: 1, field: "access", want: `t.jsonl:1: access: must not be null`,
	},
	{
		name: "kernel: access not an array",
		in:   `{"op":"kernel","access":{"buf":"a","mode":"read","bytes":8}}`,
		line: 1, field: "access", want: `t.jsonl:1: access: must be an array of objects, got object`,
	},
	{
		name: "kernel: access entry not an object",
		in:   `{"op":"kernel","access":[{"buf":"a","mode":"read","bytes":8},["a","read",8]]}`,
		line: 1, field: "access[1]", want: `t.jsonl:1: access[1]: must be an object, got array`,
	},
	{
		name: "kernel: access bytes of the wrong type",
		in:   `{"op":"kernel","access":[{"buf":"a","mode":"read","bytes":"8"}]}`,
		line: 1, field: "access[0].bytes", want: `t.jsonl:1: access[0].bytes: must be an integer, got string`,
	},
	{
		name: "kernel: access mode of the wrong type",
		in:   `{"op":"kernel","access":[{"buf":"a","mode":true,"bytes":8}]}`,
		line: 1, field: "access[0].mode", want: `t.jsonl:1: access[0].mode: must be a string, got bool`,
	},
	{
		name: "kernel: fractional stride",
		in:   `{"op":"kernel","access":[{"buf":"a","mode":"read","bytes":8,"pattern":"strided","stride":2.5}]}`,
		line: 1, field: "access[0].stride", want: `t.jsonl:1: access[0].stride: must be an integer, got number 2.5`,
	},
	{
		name: "kernel: compute_ns of the wrong type",
		in:   `{"op":"kernel","compute_ns":"5ns"}`,
		line: 1, field: "compute_ns", want: `t.jsonl:1: compute_ns: must be a number, got string`,
	},
	{
		name: "kernel: compute_ns out of range",
		in:   `{"op":"kernel","compute_ns":1e400}`,
		line: 1, field: "compute_ns", want: `t.jsonl:1: compute_ns: number 1e400 out of range`,
	},
	{
		name: "kernel: fractional grid",
		in:   `{"op":"kernel","grid":1e9}`,
		line: 1, field: "grid", want: `t.jsonl:1: grid: must be an integer, got number 1e9`,
	},

	// Check.
	{
		name: "kernel: missing name", check: true,
		in:   kernelPre + `{"op":"kernel","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "name", want: `t.jsonl:3: name: required by kernel`,
	},
	{
		name: "kernel: missing gcd", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "gcd", want: `t.jsonl:3: gcd: required by kernel`,
	},
	{
		name: "kernel: unknown GCD", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":8,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "gcd", want: `t.jsonl:3: gcd: must be in 0..7, got 8`,
	},
	{
		name: "kernel: zero grid", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":0,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "grid", want: `t.jsonl:3: grid: must be > 0, got 0`,
	},
	{
		name: "kernel: negative grid", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":-64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "grid", want: `t.jsonl:3: grid: must be > 0, got -64`,
	},
	{
		name: "kernel: missing workgroup", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "workgroup", want: `t.jsonl:3: workgroup: must be in 1..1024, got 0`,
	},
	{
		name: "kernel: workgroup too large", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":2048,"workgroup":2048,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "workgroup", want: `t.jsonl:3: workgroup: must be in 1..1024, got 2048`,
	},
	{
		name: "kernel: grid not a multiple of workgroup", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":1000,"workgroup":128,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "grid", want: `t.jsonl:3: grid: must be a multiple of workgroup 128, got 1000`,
	},
	{
		name: "kernel: negative compute_ns", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"compute_ns":-0.5,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "compute_ns", want: `t.jsonl:3: compute_ns: must be in 0..1e+09 (one second per workgroup), got -0.5`,
	},
	{
		name: "kernel: in_flight below a wavefront's loads", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"in_flight":512,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "in_flight", want: `t.jsonl:3: in_flight: must be at least 1024 (a wavefront's 16-byte loads), got 512`,
	},
	{
		name: "kernel: negative in_flight", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"in_flight":-4096,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "in_flight", want: `t.jsonl:3: in_flight: must be at least 1024 (a wavefront's 16-byte loads), got -4096`,
	},
	{
		name: "in_flight on a copy",
		in:   kernelPre + `{"op":"memcpy","src":"a","dst":"a","bytes":8,"in_flight":4096}`,
		line: 3, field: "in_flight", want: `t.jsonl:3: in_flight: not used by memcpy`,
	},
	{
		name: "kernel: no access", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64}`,
		line: 3, field: "access", want: `t.jsonl:3: access: must have at least one entry`,
	},
	{
		name: "kernel: empty access", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[]}`,
		line: 3, field: "access", want: `t.jsonl:3: access: must have at least one entry`,
	},
	{
		name: "kernel: unknown buffer", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8},{"buf":"x","mode":"write","bytes":8}]}`,
		line: 3, field: "access[1].buf", want: `t.jsonl:3: access[1].buf: unknown buffer "x"`,
	},
	{
		name: "kernel: buffer allocated after the kernel", check: true,
		in: `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8}]}` + "\n" +
			`{"op":"malloc","buf":"a","gcd":0,"bytes":100}`,
		line: 1, field: "access[0].buf", want: `t.jsonl:1: access[0].buf: unknown buffer "a"`,
	},
	{
		name: "kernel: access without buf", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"mode":"read","bytes":8}]}`,
		line: 3, field: "access[0].buf", want: `t.jsonl:3: access[0].buf: required by kernel`,
	},
	{
		name: "kernel: bad mode", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"rw","bytes":8}]}`,
		line: 3, field: "access[0].mode", want: `t.jsonl:3: access[0].mode: must be "read" or "write", got "rw"`,
	},
	{
		name: "kernel: missing mode", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","bytes":8}]}`,
		line: 3, field: "access[0].mode", want: `t.jsonl:3: access[0].mode: must be "read" or "write", got ""`,
	},
	{
		name: "kernel: zero access bytes", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read"}]}`,
		line: 3, field: "access[0].bytes", want: `t.jsonl:3: access[0].bytes: must be > 0, got 0`,
	},
	{
		name: "kernel: access beyond the buffer", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":50},{"buf":"b","mode":"write","bytes":51}]}`,
		line: 3, field: "access[1].bytes", want: `t.jsonl:3: access[1].bytes: access of 51 bytes at offset 0 exceeds buffer "b" of 50 bytes`,
	},
	{
		name: "kernel: access at an offset beyond the buffer", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":10,"offset":95}]}`,
		line: 3, field: "access[0].offset", want: `t.jsonl:3: access[0].offset: access of 10 bytes at offset 95 exceeds buffer "a" of 100 bytes`,
	},
	{
		name: "kernel: huge access offset does not overflow", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":10,"offset":9223372036854775807}]}`,
		line: 3, field: "access[0].offset", want: `t.jsonl:3: access[0].offset: access of 10 bytes at offset 9223372036854775807 exceeds buffer "a" of 100 bytes`,
	},
	{
		name: "kernel: negative offset", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"offset":-8}]}`,
		line: 3, field: "access[0].offset", want: `t.jsonl:3: access[0].offset: must be >= 0, got -8`,
	},
	{
		name: "kernel: bad pattern", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"pattern":"zigzag"}]}`,
		line: 3, field: "access[0].pattern", want: `t.jsonl:3: access[0].pattern: must be "sequential", "strided" or "random", got "zigzag"`,
	},
	{
		name: "kernel: strided without stride", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"pattern":"strided"}]}`,
		line: 3, field: "access[0].stride", want: `t.jsonl:3: access[0].stride: required by pattern "strided"`,
	},
	{
		name: "kernel: negative stride", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"pattern":"strided","stride":-4}]}`,
		line: 3, field: "access[0].stride", want: `t.jsonl:3: access[0].stride: must be > 0, got -4`,
	},
	{
		name: "kernel: stride on sequential",
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"stride":4}]}`,
		line: 3, field: "access[0].stride", want: `t.jsonl:3: access[0].stride: not used by pattern "sequential"`,
	},
	{
		name: "kernel: stride on random",
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"pattern":"random","stride":4}]}`,
		line: 3, field: "access[0].stride", want: `t.jsonl:3: access[0].stride: not used by pattern "random"`,
	},
	{
		name: "kernel: zero stride on sequential",
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"pattern":"sequential","stride":0}]}`,
		line: 3, field: "access[0].stride", want: `t.jsonl:3: access[0].stride: not used by pattern "sequential"`,
	},
	{
		name: "kernel: zero stride without pattern",
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8},{"buf":"a","mode":"read","bytes":8,"stride":0}]}`,
		line: 3, field: "access[1].stride", want: `t.jsonl:3: access[1].stride: not used by pattern "sequential"`,
	},
	{
		name: "kernel: zero numa",
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"numa":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "numa", want: `t.jsonl:3: numa: not used by kernel`,
	},
	{
		name: "kernel: zero element",
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"element":0}]}`,
		line: 3, field: "access[0].element", want: `t.jsonl:3: access[0].element: must be > 0, got 0`,
	},
	{
		name: "kernel: element larger than bytes", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"element":9223372036854775807,"pattern":"random"}]}`,
		line: 3, field: "access[0].element", want: `t.jsonl:3: access[0].element: must be at most bytes (8): an access moves whole elements, got 9223372036854775807`,
	},
	{
		name: "kernel: access workgroups past the grid", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":128,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"workgroups":[1,3]}]}`,
		line: 3, field: "access[0].workgroups", want: `t.jsonl:3: access[0].workgroups: must be [first, end) with 0 <= first < end <= the kernel's 2 workgroups, got [1 3]`,
	},
	{
		name: "kernel: access workgroups empty range", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":128,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"workgroups":[1,1]}]}`,
		line: 3, field: "access[0].workgroups", want: `t.jsonl:3: access[0].workgroups: must be [first, end) with 0 <= first < end <= the kernel's 2 workgroups, got [1 1]`,
	},
	{
		name: "kernel: access workgroups one number", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":128,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8,"workgroups":[1]}]}`,
		line: 3, field: "access[0].workgroups", want: `t.jsonl:3: access[0].workgroups: must be [first, end) with 0 <= first < end <= the kernel's 2 workgroups, got [1]`,
	},
	{
		name: "kernel: more than 2^32 workgroups", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":9223372036854775807,"workgroup":1,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "grid", want: `t.jsonl:3: grid: 9223372036854775807 workgroups of 1, more than 4294967296 (2^32)`,
	},
	{
		name: "kernel: compute_ns above a second", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"compute_ns":1e300,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "compute_ns", want: `t.jsonl:3: compute_ns: must be in 0..1e+09 (one second per workgroup), got 1e+300`,
	},
	{
		name: "kernel: negative stream", check: true,
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"stream":-1,"grid":64,"workgroup":64,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "stream", want: `t.jsonl:3: stream: must be in 0..1073741823, got -1`,
	},
	{
		name: "kernel: field not used by kernel",
		in:   kernelPre + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"bytes":8,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "bytes", want: `t.jsonl:3: bytes: not used by kernel`,
	},
	{
		name: "kernel field on a copy",
		in:   kernelPre + `{"op":"memcpy","src":"a","dst":"b","bytes":8,"access":[{"buf":"a","mode":"read","bytes":8}]}`,
		line: 3, field: "access", want: `t.jsonl:3: access: not used by memcpy`,
	},
}

func TestSetEnv(t *testing.T) {
	good := `{"op":"setenv","name":"HSA_ENABLE_SDMA","value":"0"}` + "\n" + `{"op":"device_sync"}`
	checked(t, good)
	for _, c := range []struct{ in, want string }{
		{`{"op":"device_sync"}` + "\n" + `{"op":"setenv","name":"HSA_ENABLE_SDMA","value":"0"}`,
			"t.jsonl:2: op: setenv must come before every other operation: the environment is set when the program starts"},
		{`{"op":"setenv","name":"PATH","value":"0"}`, `t.jsonl:1: name: want a ROCm, Cray MPICH or RCCL variable such as HSA_ENABLE_SDMA, MPICH_GPU_IPC_THRESHOLD or NCCL_PROTO, got "PATH"`},
		{`{"op":"setenv","name":"HSA_XNACK"}`, "t.jsonl:1: value: required by setenv"},
		{`{"op":"setenv","name":"HSA_XNACK","value":"1","stream":2}`, "t.jsonl:1: stream: not used by setenv"},
	} {
		checkFails(t, c.in, c.want)
	}
}

func TestHostAccess(t *testing.T) {
	head := `{"op":"malloc","buf":"d","gcd":0,"bytes":4096}` + "\n"
	// stores and loads of mapped GCD memory, and of pinned host memory
	checked(t, head+`{"op":"host_malloc","buf":"h","numa":1,"bytes":4096}
{"op":"host_access","numa":3,"threads":2,"access":[{"buf":"d","mode":"write","bytes":4096}]}
{"op":"host_access","numa":3,"access":[{"buf":"d","mode":"read","bytes":4096},{"buf":"h","mode":"read","bytes":64}]}`)
	for _, c := range []struct{ in, want string }{
		{`{"op":"host_access","numa":4,"access":[{"buf":"d","mode":"write","bytes":64}]}`, "t.jsonl:2: numa: must be in 0..3, got 4"},
		{`{"op":"host_access","numa":0,"access":[{"buf":"d","mode":"load","bytes":64}]}`, `t.jsonl:2: access[0].mode: must be "read" or "write", got "load"`},
		{`{"op":"host_access","numa":0,"access":[{"buf":"x","mode":"write","bytes":64}]}`, `t.jsonl:2: access[0].buf: unknown buffer "x"`},
		{`{"op":"host_access","numa":0,"access":[{"buf":"d","mode":"write","bytes":8192}]}`, `t.jsonl:2: access[0].bytes: access of 8192 bytes at offset 0 exceeds buffer "d" of 4096 bytes`},
		{`{"op":"host_access","numa":0,"threads":-1,"access":[{"buf":"d","mode":"write","bytes":64}]}`, "t.jsonl:2: threads: must be in 1..65536, got -1"},
		{`{"op":"host_access","numa":0,"threads":65537,"access":[{"buf":"d","mode":"write","bytes":64}]}`, "t.jsonl:2: threads: must be in 1..65536, got 65537"},
		{`{"op":"host_access","numa":0,"threads":0,"access":[{"buf":"d","mode":"write","bytes":64}]}`, "t.jsonl:2: threads: must be >= 1, got 0"},
		{`{"op":"host_access","numa":0,"stream":0,"access":[{"buf":"d","mode":"write","bytes":64}]}`, "t.jsonl:2: stream: not used by host_access"},
		{`{"op":"host_access","numa":0}`, "t.jsonl:2: access: must have at least one entry"},
	} {
		checkFails(t, head+c.in, c.want)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range append(errorCases, kernelErrorCases...) {
		t.Run(tc.name, func(t *testing.T) {
			ops, err := Parse(strings.NewReader(tc.in), "t.jsonl")
			if tc.check {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				err = Check(ops, testNode, "t.jsonl")
			} else if ops != nil {
				t.Errorf("Parse returned %d ops with its error", len(ops))
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got: %s\nwant: %s", err, tc.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T, want *Error", err)
			}
			if e.File != "t.jsonl" || e.Line != tc.line || e.Field != tc.field {
				t.Errorf("File, Line, Field = %q, %d, %q; want %q, %d, %q", e.File, e.Line, e.Field, "t.jsonl", tc.line, tc.field)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Error("error text spans lines")
			}
		})
	}
}

func TestCheckGeneratedOpsUsePosition(t *testing.T) {
	ops := []Op{
		{Op: Malloc, Buf: "a", GCD: ip(0), Bytes: 8},
		{Op: Memcpy, Src: "a", Dst: "nope", Bytes: 8},
	}
	err := Check(ops, testNode, "gen")
	if err == nil || err.Error() != `gen:2: dst: unknown buffer "nope"` {
		t.Fatalf("got %v", err)
	}
	if err := Check(nil, testNode, "gen"); err != nil {
		t.Fatalf("empty trace: %v", err)
	}
}

// Generated ops have no keys: Check finds misplaced fields by their
// non-zero values, as the parser finds them by their keys.
func TestCheckGeneratedMisplacedFields(t *testing.T) {
	a := Op{Op: Malloc, Buf: "a", GCD: ip(0), Bytes: 64}
	for _, c := range []struct {
		op   Op
		want string
	}{
		{Op{Op: Memcpy, Src: "a", Dst: "a", Bytes: 8, Stream: 1}, "gen:2: stream: not used by memcpy"},
		{Op{Op: Kernel, Name: "k", GCD: ip(0), NUMA: ip(0), Grid: 1, Workgroup: 1,
			Access: []Access{{Buf: "a", Mode: "read", Bytes: 8}}}, "gen:2: numa: not used by kernel"},
		{Op{Op: HostMalloc, Buf: "h", NUMA: ip(0), Bytes: 64, Threads: 2}, "gen:2: threads: not used by host_malloc"},
		{Op{Op: Kernel, Name: "k", GCD: ip(0), Grid: 1, Workgroup: 1,
			Access: []Access{{Buf: "a", Mode: "read", Bytes: 8, Stride: 8}}}, `gen:2: access[0].stride: not used by pattern "sequential"`},
	} {
		if err := Check([]Op{a, c.op}, testNode, "gen"); err == nil || err.Error() != c.want {
			t.Errorf("%+v: error %v, want %s", c.op, err, c.want)
		}
	}
}

// The largest values Check accepts: a whole HBM in one buffer, 2^32
// workgroups, a second of compute per workgroup, one-byte elements.
func TestCheckLargestAccepted(t *testing.T) {
	ops := []Op{
		{Op: Malloc, Buf: "a", GCD: ip(7), Bytes: testNode.HBMBytes},
		{Op: HostMalloc, Buf: "h", NUMA: ip(3), Bytes: testNode.NUMABytes},
		{Op: Memcpy, Src: "a", Dst: "h", Bytes: testNode.HBMBytes, DstOff: testNode.NUMABytes - testNode.HBMBytes},
		{Op: Kernel, Name: "k", GCD: ip(0), Grid: MaxWorkgroups * MaxWorkgroup, Workgroup: MaxWorkgroup, ComputeNs: MaxComputeNs,
			Access: []Access{{Buf: "a", Mode: "read", Bytes: testNode.HBMBytes, Pattern: "random", Element: 1}}},
		{Op: HostAccess, NUMA: ip(0), Threads: MaxThreads, Access: []Access{{Buf: "a", Mode: "write", Bytes: 1}}},
	}
	if err := Check(ops, testNode, "gen"); err != nil {
		t.Fatal(err)
	}
}

func TestErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{File: "f", Line: 3, Field: "bytes", Msg: "m"}, "f:3: bytes: m"},
		{Error{File: "f", Line: 3, Msg: "m"}, "f:3: m"},
		{Error{File: "f", Msg: "m"}, "f: m"},
		{Error{Line: 2, Msg: "a\nb"}, "trace:2: a b"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestLongLine(t *testing.T) {
	long := `{"op":"device_sync","label":"` + strings.Repeat("x", MaxLineBytes) + `"}`
	_, err := Parse(strings.NewReader("{\"op\":\"device_sync\"}\n"+long+"\n"), "t")
	want := "t:2: line longer than 1048576 bytes"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	// Just under the cap is fine, with or without "\r\n".
	ok := `{"op":"device_sync","label":"` + strings.Repeat("x", MaxLineBytes-31) + `"}`
	for _, end := range []string{"", "\n", "\r\n"} {
		if ops, err := Parse(strings.NewReader(ok+end), "t"); err != nil || len(ops) != 1 {
			t.Fatalf("line of %d bytes + %q: %v", len(ok), end, err)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadErrors(t *testing.T) {
	_, err := Parse(failingReader{}, "t")
	if err == nil || err.Error() != "t:1: read: disk on fire" {
		t.Fatalf("got %v", err)
	}
	_, err = ReadFile(filepath.Join(t.TempDir(), "missing.jsonl"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("got %v, want not-exist", err)
	}
}

func TestKinds(t *testing.T) {
	for _, k := range Kinds() {
		if !k.Valid() {
			t.Errorf("%q not Valid", k)
		}
		if _, ok := fieldsOf[k]; !ok {
			t.Errorf("%q has no field list in Check", k)
		}
	}
	if Kind("memset_2d").Valid() || Kind("").Valid() {
		t.Error("bogus kind Valid")
	}
}

func FuzzParse(f *testing.F) {
	for _, file := range sampleTraces(f) {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, tc := range append(errorCases, kernelErrorCases...) {
		f.Add([]byte(tc.in))
	}
	// accepted traces near the bounds, for mutations to cross them
	f.Add([]byte(`{"op":"malloc","buf":"a","gcd":7,"bytes":68719476736}` + "\n" +
		`{"op":"host_malloc","buf":"h","numa":3,"bytes":137438953472}` + "\n" +
		`{"op":"memcpy","src":"a","dst":"h","bytes":68719476736,"dst_offset":68719476736}` + "\n" +
		`{"op":"kernel","name":"k","gcd":0,"grid":4398046511104,"workgroup":1024,"compute_ns":1e9,` +
		`"access":[{"buf":"a","mode":"read","bytes":68719476736,"pattern":"random","element":1},` +
		`{"buf":"h","mode":"write","bytes":8,"offset":137438953464,"pattern":"strided","stride":9223372036854775807,"element":8}]}` + "\n" +
		`{"op":"host_access","numa":0,"threads":65536,"access":[{"buf":"a","mode":"write","bytes":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ops, err := Parse(bytes.NewReader(data), "fuzz")
		if err != nil {
			if ops != nil {
				t.Fatal("ops returned with an error")
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error: %q", err)
			}
			return
		}
		err = Check(ops, testNode, "fuzz")
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error: %q", err)
		}
		if err == nil {
			accepted(t, ops)
		}
		var b bytes.Buffer
		if err := Write(&b, ops); err != nil {
			t.Fatalf("Write of parsed ops: %v", err)
		}
		back, err := Parse(&b, "rewritten")
		if err != nil {
			t.Fatalf("reparse: %v\n%s", err, b.String())
		}
		if !reflect.DeepEqual(stripLines(back), stripLines(ops)) {
			t.Fatalf("round trip differs:\n%+v\n%+v", ops, back)
		}
	})
}

// accepted re-derives, independently of Check, what an accepted trace
// promises the model: allocations within capacity, copies and accesses
// inside their buffers, kernel sizes within the bounds.
func accepted(t *testing.T, ops []Op) {
	t.Helper()
	bufs := Buffers(ops)
	used := map[[2]int]int64{}
	inside := func(what string, off, n int64, b Buffer) {
		if off < 0 || n <= 0 || off > b.Bytes || n > b.Bytes-off {
			t.Fatalf("accepted %s of %d bytes at %d in %q of %d bytes", what, n, off, b.Name, b.Bytes)
		}
	}
	for _, o := range ops {
		switch {
		case o.Op == Malloc || o.Op == HostMalloc:
			b := bufs[o.Buf]
			key, capacity := [2]int{0, b.GCD}, testNode.HBMBytes
			if b.Host {
				key, capacity = [2]int{1, b.NUMA}, testNode.NUMABytes
			}
			if used[key] += b.Bytes; used[key] > capacity || used[key] < 0 {
				t.Fatalf("accepted %d bytes of allocations in %v, capacity %d", used[key], key, capacity)
			}
		case o.IsCopy():
			inside("copy", o.SrcOff, o.Bytes, bufs[o.Src])
			inside("copy", o.DstOff, o.Bytes, bufs[o.Dst])
		case o.Op == Kernel || o.Op == HostAccess:
			if o.Op == Kernel && (o.Workgroup < 1 || o.Grid/int64(o.Workgroup) > MaxWorkgroups || o.ComputeNs > MaxComputeNs) {
				t.Fatalf("accepted kernel %+v", o)
			}
			for _, a := range o.Access {
				inside("access", a.Offset, a.Bytes, bufs[a.Buf])
				if a.Element > a.Bytes {
					t.Fatalf("accepted element %d > bytes %d", a.Element, a.Bytes)
				}
			}
		}
	}
}
