package trace

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// piecewise is ops as a Program whose makers hand out each rank's calls
// (ranks in order of first call) n at a time.
func piecewise(ops []Op, n int) Program {
	whole := ProgramOf(ops)
	return Program{Makers: whole.Makers, Rank: func(i int) func([]Op) []Op {
		mine := whole.Rank(i)(nil)
		return func(buf []Op) []Op {
			k := min(n, len(mine))
			buf, mine = append(buf, mine[:k]...), mine[k:]
			return buf
		}
	}}
}

// Interleaved takes up to quota calls of each rank in turn, ranks in
// order of first call, and keeps each rank's calls in their order.
func TestInterleaved(t *testing.T) {
	var ops []Op
	for _, rc := range [][2]int{{2, 5}, {0, 3}, {1, 6}} { // rank, calls: rank 2 first
		for k := range rc[1] {
			ops = append(ops, Op{Rank: rc[0], Stream: k})
		}
	}
	p := ProgramOf(ops)
	var got [][2]int
	read := p.Interleaved(2)
	for o := read(); o != nil; o = read() {
		got = append(got, [2]int{o.Rank, o.Stream})
	}
	want := [][2]int{{2, 0}, {2, 1}, {0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 2}, {2, 3}, {0, 2}, {1, 2}, {1, 3}, {2, 4}, {1, 4}, {1, 5}}
	if !slices.Equal(got, want) || !slices.Equal(p.Ranks(), []int{0, 1, 2}) {
		t.Errorf("interleaved %v, ranks %v; want %v, [0 1 2]", got, p.Ranks(), want)
	}
}

// However a rank's makers cut its calls into pieces (pieces longer and
// shorter than the quota, ranks with few calls), the interleaved order is
// the rounds of the whole trace's calls, and Ops is the trace.
func TestInterleavedPieces(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := range 50 {
		var ops []Op
		for r := range 1 + rng.Intn(6) {
			for k := range rng.Intn(30) {
				ops = append(ops, Op{Rank: r, Stream: k})
			}
		}
		rng.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
		slices.SortStableFunc(ops, func(a, b Op) int { return a.Stream - b.Stream }) // each rank's calls in order, ranks mixed
		quota, piece := 1+rng.Intn(5), 1+rng.Intn(9)
		p := piecewise(ops, piece)
		var got []Op
		read := p.Interleaved(quota)
		for o := read(); o != nil; o = read() {
			got = append(got, *o)
		}
		if want := rounds(ops, quota); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (quota %d, pieces of %d): interleaved %v, want %v", trial, quota, piece, got, want)
		}
		if whole := p.Ops(); len(whole) != len(ops) || !reflect.DeepEqual(whole, ProgramOf(ops).Ops()) {
			t.Fatalf("trial %d: Ops has %d calls, not the trace's %d by rank", trial, len(whole), len(ops))
		}
	}
}

// rounds is ops in rounds of up to quota calls of each rank, ranks in
// order of first call, by the positions of the whole trace.
func rounds(ops []Op, quota int) []Op {
	var order []int
	at := map[int][]Op{}
	for _, o := range ops {
		if at[o.Rank] == nil {
			order = append(order, o.Rank)
		}
		at[o.Rank] = append(at[o.Rank], o)
	}
	var out []Op
	for len(out) < len(ops) {
		for _, r := range order {
			n := min(quota, len(at[r]))
			out, at[r] = append(out, at[r][:n]...), at[r][n:]
		}
	}
	return out
}

// CheckProgram finds what Check finds in the program's whole trace, at
// the same line, however the calls come in pieces: problems in an op,
// against an earlier rank's or its own earlier calls, and at the end.
func TestCheckProgram(t *testing.T) {
	good := mpiS + mpiR +
		`{"op":"mpi_isend","buf":"s","bytes":4096,"peer":1,"tag":7,"req":"a"}` + "\n" +
		`{"op":"mpi_irecv","buf":"r","bytes":4096,"peer":0,"tag":7,"req":"b","rank":1}` + "\n" +
		`{"op":"mpi_wait","req":"a"}` + "\n" + `{"op":"mpi_wait","req":"b","rank":1}` + "\n" +
		`{"op":"kernel","name":"k","gcd":1,"grid":64,"workgroup":64,"access":[{"buf":"r","mode":"read","bytes":64}],"rank":1}` + "\n"
	bad := map[string]string{
		"a buffer of another rank":  strings.Replace(good, `"buf":"r","mode"`, `"buf":"s","mode"`, 1),
		"an unmatched send":         strings.Replace(good, `"peer":0,"tag":7`, `"peer":0,"tag":8`, 1),
		"a request never waited":    strings.Replace(good, `{"op":"mpi_wait","req":"a"}`+"\n", "", 1),
		"a size that differs":       strings.Replace(good, `"bytes":4096,"peer":0`, `"bytes":2048,"peer":0`, 1),
		"a grid of part of a group": strings.Replace(good, `"grid":64,`, `"grid":65,`, 1),
		"a flag never set":          strings.Replace(good, `"grid":64,`, `"grid":64,"wait_flag":"f",`, 1),
	}
	cases := map[string]string{"good": good}
	for name, in := range bad {
		if in == good {
			t.Fatalf("%s: the trace did not change", name)
		}
		cases[name] = in
	}
	for name, in := range cases {
		ops, err := Parse(strings.NewReader(in), "t.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		for i := range ops {
			ops[i].Line = 0 // made, as a program's calls are: errors name their positions
		}
		for _, piece := range []int{1, 2, 100} {
			p := piecewise(ops, piece)
			want := Check(p.Ops(), testNode, "t.jsonl")
			if (want == nil) != (name == "good") {
				t.Fatalf("%s: Check gives %v", name, want)
			}
			if got := CheckProgram(p, testNode, "t.jsonl", nil); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, pieces of %d: CheckProgram gives %v, Check %v", name, piece, got, want)
			}
		}
	}
}
