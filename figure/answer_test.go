package figure

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// cellFills are the colours of a figure's filled shapes other than white
// backgrounds: its heat map's cells.
func cellFills(svg string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<path d="[^"]*" style="fill:(#[0-9A-F]{6})" />`).FindAllStringSubmatch(svg, -1) {
		if m[1] != "#FFFFFF" {
			out = append(out, m[1])
		}
	}
	return out
}

// frontierP2P is a p2p matrix as frontier-node gives it: a GCD to itself
// at 1391 GB/s, a quad or dual pair at 49.8, the rest at 37.5.
func frontierP2P() string {
	var b strings.Builder
	b.WriteString("workload,case,src,dst,bytes,metric,value,unit\n")
	for s := range 8 {
		for d := range 8 {
			v := 37.5
			switch {
			case s == d:
				v = 1391
			case s/2 == d/2 || s^d == 6 || s^d == 7:
				v = 49.8
			}
			fmt.Fprintf(&b, "p2p,unidirectional,gcd%d,gcd%d,1000,bandwidth,%g,GB/s\n", s, d, v)
		}
	}
	return b.String()
}

// The colour scale spans the links' values, not a GCD's copy to itself:
// 37.5 and 49.8 GB/s are its two ends, the diagonal is grey, and text on
// the dark end is white.
func TestHeatScaleLeavesTheDiagonalOut(t *testing.T) {
	tab := read(t, frontierP2P())
	f, err := Draw(tab, Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Bar == nil || f.scale == nil {
		t.Fatal("a heat map without a colour bar")
	}
	if f.scale.Min() != 37.5 || f.scale.Max() != 49.8 {
		t.Errorf("colour scale %g..%g, want the links' 37.5..49.8", f.scale.Min(), f.scale.Max())
	}
	svg := string(render(t, tab, Spec{}, ".svg"))
	fills := cellFills(svg)
	grey := fmt.Sprintf("#%02X%02X%02X", selfColor.Y, selfColor.Y, selfColor.Y)
	if n := strings.Count(strings.Join(fills, " "), grey); n != 8 {
		t.Errorf("%d grey cells, want the 8 on the diagonal", n)
	}
	var colours []string
	for _, c := range fills {
		if c != grey && !slices.Contains(colours, c) {
			colours = append(colours, c)
		}
	}
	if len(colours) != 2 {
		t.Errorf("cells in %d colours %v, want two: 37.5 and 49.8 apart", len(colours), colours)
	}
	for _, want := range []string{"fill:#FFFFFF\">49.8<", ">1391<", ">37.5<", "off the colour scale"} {
		if !strings.Contains(svg, want) {
			t.Errorf("heat map SVG lacks %q", want)
		}
	}
	if strings.Contains(svg, "fill:#FFFFFF\">37.5<") {
		t.Error("white text on the light end of the scale")
	}
}

// twoKeys is a swept p2p row set from gcd0: four destinations by two
// policies, none alike.
func twoKeys() *Table {
	csv := "lanes,sdma,workload,case,src,dst,bytes,metric,value,unit\n"
	for _, l := range []int{1, 2, 4} {
		for si, s := range []string{"widest", "fewest"} {
			for _, d := range []int{1, 2, 3, 6} {
				csv += fmt.Sprintf("%d,%s,p2p,unidirectional,gcd0,gcd%d,100,bandwidth,%d,GB/s\n", l, s, d, 10*d+l+20*si)
			}
		}
	}
	tab, _ := Read(strings.NewReader(csv), "results.csv")
	return tab
}

// Every line has a style of its own; where a key takes two values, it
// picks the dash and the rest the colour.
func TestLinesHaveTheirOwnStyles(t *testing.T) {
	tab := twoKeys()
	rows, _ := tab.Select(Filter{})
	name := labeller(rows, tab.Keys, 0)
	var ls []line
	for _, r := range rows {
		parts := name(r)
		if !slices.ContainsFunc(ls, func(l line) bool { return slices.Equal(l.parts, parts) }) {
			ls = append(ls, line{parts: parts})
		}
	}
	if len(ls) != 8 {
		t.Fatalf("%d lines, want 4 destinations x 2 policies", len(ls))
	}
	st := styles(ls)
	for i := range ls {
		for j := range i {
			if st[i].colour == st[j].colour && st[i].dash == st[j].dash {
				t.Errorf("%q and %q share colour and dash", ls[i].label(), ls[j].label())
			}
		}
		if ls[i].parts[0] == ls[0].parts[0] && st[i].colour != st[0].colour {
			t.Errorf("%q: one destination in two colours", ls[i].label())
		}
	}
	// many lines of one part: colours cycle, then dashes
	var many []line
	for i := range maxLines {
		many = append(many, line{parts: []string{fmt.Sprint("to gcd", i)}})
	}
	st = styles(many)
	for i := range many {
		for j := range i {
			if st[i] == st[j] || st[i].colour == st[j].colour && st[i].dash == st[j].dash {
				t.Errorf("lines %d and %d look alike: %v", i, j, st[i])
			}
		}
	}
}

// The legend sits right of the data area, never on it.
func TestLegendBesideTheData(t *testing.T) {
	f, err := Draw(twoKeys(), Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Legend == nil {
		t.Fatal("8 lines without a legend")
	}
	w, h := f.Size()
	c := draw.New(vgimg.New(w, h))
	main, side := f.regions(c)
	data := f.Plot.DataCanvas(main)
	legend := f.Legend.Rectangle(side)
	if legend.Min.X < data.Max.X {
		t.Errorf("legend from x=%v overlaps the data up to x=%v", legend.Min.X, data.Max.X)
	}
	if legend.Max.X > c.Max.X || legend.Min.Y < c.Min.Y {
		t.Errorf("legend %v leaves the figure %v", legend, c.Rectangle)
	}
}

// Lines with the same values are one line, named by all its pairs.
func TestAlikeLinesAreOne(t *testing.T) {
	csv := "lanes,workload,case,src,dst,bytes,metric,value,unit\n"
	for _, l := range []int{1, 2, 4} {
		for _, d := range []int{0, 1, 2, 3, 6} {
			v := 37.5 + float64(min(l, 2)-1)*12.3
			if d == 0 {
				v = 1391
			}
			csv += fmt.Sprintf("%d,p2p,unidirectional,gcd0,gcd%d,100,bandwidth,%g,GB/s\n", l, d, v)
		}
	}
	tab := read(t, csv)
	svg := string(render(t, tab, Spec{}, ".svg"))
	if !strings.Contains(svg, ">to gcd1, gcd2, gcd3, gcd6<") || strings.Contains(svg, ">to gcd1<") {
		t.Errorf("four alike pairs are not one named line")
	}
	if strings.Contains(svg, "gcd0→gcd0") || strings.Contains(svg, "to gcd0") || strings.Contains(svg, ">1200<") {
		t.Error("a GCD's copy to itself is drawn among its links")
	}
	if svg := string(render(t, tab, Spec{Filter: Filter{Dst: "gcd0,gcd1"}}, ".svg")); !strings.Contains(svg, "to gcd0") {
		t.Error("-dst gcd0 does not draw the copy to itself")
	}
}

// Default figures' names are words a shell takes as typed.
func TestFileNamesAShellTypes(t *testing.T) {
	csv := "xgmi.bundle[*].lanes,env.NCCL_ALGO,workload,case,src,dst,bytes,metric,value,unit\n"
	for _, l := range []int{1, 2} {
		for _, a := range []string{"ring", "tree"} {
			csv += fmt.Sprintf("%d,%s,rccl,all_reduce_perf,gcd0,gcd0+gcd1,1024,busbw,%d,GB/s\n", l, a, l)
			csv += fmt.Sprintf("%d,%s,rccl,all_reduce_perf,gcd0,gcd0+gcd1,1024,bandwidth,%d,GB/s\n", l, a, l)
		}
	}
	ok := regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	var names []string
	for _, f := range Defaults(read(t, csv)) {
		names = append(names, f.Name)
		if !ok.MatchString(f.Name) || strings.Contains(f.Name, "--") {
			t.Errorf("figure name %q", f.Name)
		}
	}
	if want := "rccl-busbw-by-xgmi-bundle-all-lanes rccl-bandwidth-by-xgmi-bundle-all-lanes"; strings.Join(names, " ") != want {
		t.Errorf("names %v, want %s", names, want)
	}
	if got := safe("line8:h2d 1 GiB"); got != "line8-h2d-1-GiB" {
		t.Errorf("safe: %q", got)
	}
}

// Axes say in words what they show, with units; rccl figures draw busbw.
func TestLabelsInWords(t *testing.T) {
	if w := keyWords("xgmi.bundle[*].lanes"); w != "links in the bundle, every bundle\n-set xgmi.bundle[*].lanes" {
		t.Errorf("keyWords: %q", w)
	}
	if w := keyWords("xgmi.lane_bandwidth_gbps"); !strings.HasPrefix(w, "one xGMI link") || !strings.Contains(w, "(GB/s)") {
		t.Errorf("keyWords: %q", w)
	}
	if w := keyWords("nope.key"); w != "nope.key" {
		t.Errorf("an undeclared key: %q", w)
	}
	csv := "workload,case,src,dst,bytes,metric,value,unit\n"
	for _, n := range []int{1024, 2048} {
		for _, m := range []string{"latency", "bandwidth", "busbw"} {
			csv += fmt.Sprintf("rccl,all_reduce_perf,gcd0,gcd0+gcd1+gcd2+gcd3,%d,%s,%d,GB/s\n", n, m, n)
		}
	}
	svg := string(render(t, read(t, csv), Spec{}, ".svg"))
	for _, want := range []string{"rccl all_reduce_perf on 4 GCDs: busbw, bus bandwidth", "busbw, bus bandwidth (GB/s)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("rccl figure lacks %q", want)
		}
	}
}

// The same rows draw the same bytes, PNG as SVG.
func TestFiguresAreDeterministic(t *testing.T) {
	for _, tab := range []*Table{read(t, frontierP2P()), twoKeys()} {
		for _, ext := range []string{".png", ".svg"} {
			if !bytes.Equal(render(t, tab, Spec{}, ext), render(t, tab, Spec{}, ext)) {
				t.Errorf("%s: two renders differ", ext)
			}
		}
	}
}
