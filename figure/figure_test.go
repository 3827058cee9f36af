package figure

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"
)

// p2pCSV is an 8-GCD p2p result with two cases: the values name their
// cells, so a drawn label can be traced to its pair.
func p2pCSV() string {
	var b strings.Builder
	b.WriteString("workload,case,src,dst,bytes,metric,value,unit\n")
	for _, c := range []string{"unidirectional", "latency"} {
		for s := range 8 {
			for d := range 8 {
				m, u := "bandwidth", "GB/s"
				if c == "latency" {
					m, u = "latency", "us"
				}
				fmt.Fprintf(&b, "p2p,%s,gcd%d,gcd%d,1000,%s,%d.%d,%s\n", c, s, d, m, 10+s, d, u)
			}
		}
	}
	return b.String()
}

func read(t *testing.T, csv string) *Table {
	t.Helper()
	tab, err := Read(strings.NewReader(csv), "results.csv")
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func render(t *testing.T, tab *Table, s Spec, ext string) []byte {
	t.Helper()
	p, err := Draw(tab, s)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(p, &b, "f"+ext); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestMatrix(t *testing.T) {
	tab := read(t, p2pCSV())
	if k := Auto(tab, tab.Rows); k != Matrix {
		t.Fatalf("auto kind %s, want matrix", k)
	}
	svg := string(render(t, tab, Spec{}, ".svg"))
	// the first case's cells, each labelled with its value; not the other case's title
	for _, want := range []string{"<svg", "p2p unidirectional: bandwidth", "destination GCD", "source GCD", ">10.0<", ">17.7<", ">13.5<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("matrix SVG lacks %q", want)
		}
	}
	if strings.Contains(svg, "latency") {
		t.Error("the unidirectional matrix shows the latency case")
	}
	if again := string(render(t, tab, Spec{}, ".svg")); again != svg {
		t.Error("the same rows draw different SVG")
	}
	img, err := png.Decode(bytes.NewReader(render(t, tab, Spec{Filter: Filter{Case: "latency"}}, ".png")))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 300 {
		t.Errorf("PNG of %v", b)
	}
	// a pair with two sizes is not a matrix cell
	dup := read(t, p2pCSV()+"p2p,unidirectional,gcd0,gcd1,2000,bandwidth,5,GB/s\n")
	if _, err := Draw(dup, Spec{Kind: Matrix, Filter: Filter{Case: "unidirectional"}}); err == nil || !strings.Contains(err.Error(), "-bytes") {
		t.Errorf("two sizes of one pair: %v", err)
	}
	if _, err := Draw(dup, Spec{Kind: Matrix, Filter: Filter{Case: "unidirectional"}, Bytes: 1000, Sized: true}); err != nil {
		t.Errorf("-bytes 1000: %v", err)
	}
}

func TestSizeFigure(t *testing.T) {
	var b strings.Builder
	b.WriteString("workload,case,src,dst,bytes,metric,value,unit\n")
	for _, c := range []string{"PinnedToGPU", "GPUToPinned"} {
		for e := 8; e <= 30; e += 2 {
			fmt.Fprintf(&b, "commscope,%s,numa0,gcd0,%d,bandwidth,%d,GB/s\n", c, 1<<e, e)
			fmt.Fprintf(&b, "commscope,%s,numa0,gcd0,%d,time,%d,us\n", c, 1<<e, 2*e)
		}
	}
	tab := read(t, b.String())
	if k := Auto(tab, tab.Rows); k != Size {
		t.Fatalf("auto kind %s, want size", k)
	}
	svg := string(render(t, tab, Spec{}, ".svg"))
	for _, want := range []string{"commscope numa0→gcd0: bandwidth", "bandwidth (GB/s)", "PinnedToGPU", "GPUToPinned", ">256 B<", ">2 KiB<", ">1 MiB<", ">512 MiB<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("size SVG lacks %q", want)
		}
	}
	if svg := string(render(t, tab, Spec{Filter: Filter{Metric: "time"}}, ".svg")); !strings.Contains(svg, "time (us)") {
		t.Error("-metric time does not draw time")
	}
	// too many lines for one legend
	var many strings.Builder
	many.WriteString("workload,case,src,dst,bytes,metric,value,unit\n")
	for s := range 20 {
		for _, n := range []int{1024, 2048} {
			fmt.Fprintf(&many, "w,c,gcd%d,gcd0,%d,bandwidth,1,GB/s\n", s+1, n)
		}
	}
	if _, err := Draw(read(t, many.String()), Spec{}); err == nil || !strings.Contains(err.Error(), "20 lines") {
		t.Errorf("20 lines: %v", err)
	}
}

func TestSweepFigure(t *testing.T) {
	csv := "lanes,sdma,workload,case,src,dst,bytes,metric,value,unit\n"
	for _, l := range []int{1, 2, 4} {
		for si, s := range []string{"widest", "fewest"} { // the policies apart: two lines, not one
			csv += fmt.Sprintf("%d,%s,p2p,unidirectional,gcd0,gcd2,100,bandwidth,%d,GB/s\n", l, s, 30+l+10*si)
			csv += fmt.Sprintf("%d,%s,p2p,unidirectional,gcd0,gcd1,100,bandwidth,50,GB/s\n", l, s)
		}
	}
	tab := read(t, csv)
	if strings.Join(tab.Keys, ",") != "lanes,sdma" {
		t.Fatalf("keys %v", tab.Keys)
	}
	svg := string(render(t, tab, Spec{Filter: Filter{Src: "gcd0", Dst: "gcd2"}}, ".svg"))
	for _, want := range []string{"p2p unidirectional gcd0→gcd2: bandwidth", ">lanes<", "sdma=widest", "sdma=fewest"} {
		if !strings.Contains(svg, want) {
			t.Errorf("sweep SVG lacks %q", want)
		}
	}
	svg = string(render(t, tab, Spec{X: "sdma", Filter: Filter{Src: "gcd0", Dst: "gcd2", Where: map[string]string{"lanes": "1"}}}, ".svg"))
	if !strings.Contains(svg, ">widest<") || !strings.Contains(svg, ">fewest<") {
		t.Error("a categorical key's values are not its ticks")
	}
	if _, err := Draw(tab, Spec{X: "nope"}); err == nil || !strings.Contains(err.Error(), "-x nope") {
		t.Errorf("-x nope: %v", err)
	}
	if _, err := Draw(tab, Spec{Filter: Filter{Where: map[string]string{"nope": "1"}}}); err == nil {
		t.Error("-where of an unknown key draws")
	}
	// a swept value that is no finite number is a name on the axis, not a
	// point no axis can place
	inf := read(t, "k,workload,case,src,dst,bytes,metric,value,unit\n1,w,c,gcd0,gcd1,1,bandwidth,3,GB/s\ninf,w,c,gcd0,gcd1,1,bandwidth,4,GB/s\n")
	if svg := string(render(t, inf, Spec{}, ".svg")); !strings.Contains(svg, ">inf<") {
		t.Error("a swept inf is not a tick of its own")
	}
	names := []string{}
	for _, f := range Defaults(tab) {
		names = append(names, f.Name)
	}
	if strings.Join(names, " ") != "p2p-bandwidth-by-lanes" {
		t.Errorf("defaults %v", names)
	}
}

// A swept p2p matrix has too many pairs for one figure: its defaults are a
// figure per source, each of its destinations and other keys' values.
func TestSweptMatrixDefaults(t *testing.T) {
	csv := "lanes,sdma,workload,case,src,dst,bytes,metric,value,unit\n"
	for _, l := range []int{1, 2, 4} {
		for _, sdma := range []string{"widest", "fewest"} {
			for s := range 8 {
				for d := range 8 {
					csv += fmt.Sprintf("%d,%s,p2p,unidirectional,gcd%d,gcd%d,100,bandwidth,%d,GB/s\n", l, sdma, s, d, 30+l+d)
				}
			}
		}
	}
	tab := read(t, csv)
	if _, err := Draw(tab, Spec{Kind: Sweep}); err == nil {
		t.Fatal("128 lines drew as one figure")
	}
	figs := Defaults(tab)
	if len(figs) != 8 {
		t.Fatalf("%d default figures, want one per source GCD: %v", len(figs), figs)
	}
	for s, f := range figs {
		if want := fmt.Sprintf("p2p-unidirectional-gcd%d-bandwidth-by-lanes", s); f.Name != want {
			t.Errorf("figure %d is %s, want %s", s, f.Name, want)
		}
		if _, err := Draw(tab, f.Spec); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, c := range []struct{ csv, want string }{
		{"", "results.csv:1: no header"},
		{"a,b\n", "does not end with akisim's columns"},
		{"workload,case,src,dst,bytes,metric,value,unit\n", "no rows"},
		{"workload,case,src,dst,bytes,metric,value,unit\np2p,c,gcd0,gcd1,x,bandwidth,1,GB/s\n", "results.csv:2: bytes"},
		{"workload,case,src,dst,bytes,metric,value,unit\np2p,c,gcd0,gcd1,1,bandwidth,fast,GB/s\n", "results.csv:2: value"},
		{"workload,case,src,dst,bytes,metric,value,unit\np2p,c,gcd0\n", "results.csv:2:"},
		// values a figure cannot place: refused, not drawn as empty axes
		{"workload,case,src,dst,bytes,metric,value,unit\np2p,c,gcd0,gcd1,1,bandwidth,NaN,GB/s\n", "results.csv:2: value: NaN is not a finite number"},
		{"workload,case,src,dst,bytes,metric,value,unit\np2p,c,gcd0,gcd1,1,bandwidth,1,GB/s\np2p,c,gcd0,gcd2,1,bandwidth,+Inf,GB/s\n", "results.csv:3: value: +Inf is not a finite number"},
		{"workload,case,src,dst,bytes,metric,value,unit\np2p,c,gcd0,gcd1,1,bandwidth,-inf,GB/s\n", "results.csv:2: value: -inf"},
	} {
		if _, err := Read(strings.NewReader(c.csv), "results.csv"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want %q", c.csv, err, c.want)
		}
	}
}

// A trace's outdir: its first rows are events with no endpoints, and its
// copy goes from a NUMA domain to a GCD; the default figure is the first
// case that forms a matrix, NUMA domains by GCDs.
func TestTraceMatrix(t *testing.T) {
	csv := "workload,case,src,dst,bytes,metric,value,unit\n" +
		"trace,line7:event_record,,,0,time,3,us\n" +
		"trace,line8:h2d 1 GiB,numa3,gcd0,1073741824,start,4,us\n" +
		"trace,line8:h2d 1 GiB,numa3,gcd0,1073741824,bandwidth,28.4377,GB/s\n" +
		"trace,line9:event_record,,,0,time,37762,us\n"
	svg := string(render(t, read(t, csv), Spec{}, ".svg"))
	for _, want := range []string{"trace line8:h2d 1 GiB numa3→gcd0: bandwidth", "source NUMA", "destination GCD", ">28.4<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("trace matrix SVG lacks %q", want)
		}
	}
	if cells := len(cellFills(svg)); cells != 1 {
		t.Errorf("trace matrix draws %d cells, want the one copy's", cells)
	}
	events := read(t, "workload,case,src,dst,bytes,metric,value,unit\ntrace,line1:event_record,,,0,time,3,us\n")
	if _, err := Draw(events, Spec{}); err == nil || !strings.Contains(err.Error(), `"" -> "" is not`) {
		t.Errorf("rows without endpoints: %v", err)
	}
}

// A line past MaxLineBytes is refused naming its line, wherever the
// reads split it.
func TestReadCapsALine(t *testing.T) {
	long := "x,a,gcd0,gcd1,1,bandwidth,1,GB/s," + strings.Repeat("y", MaxLineBytes) + "\n"
	csv := "workload,case,src,dst,bytes,metric,value,unit\nx,a,gcd0,gcd1,1,bandwidth,1,GB/s\n" + long
	_, err := Read(strings.NewReader(csv), "r.csv")
	if err == nil || err.Error() != "r.csv:3: a line longer than 1 MiB, the most a results line may be" {
		t.Errorf("a long third line: %v", err)
	}
	if ticks := (log2Ticks{}).Ticks(0, 2); ticks != nil { // gonum's ±1 around one size of 1 byte: no power of two to start from
		t.Errorf("log2 ticks from 0: %v", ticks)
	}
}
