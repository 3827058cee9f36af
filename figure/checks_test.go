package figure

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

// A family's figure writes each point's two values, marks the one out of
// its band with the failure's colour and the one in its known gap's band
// with the gap's, and draws both bands.
func TestChecksShowTheBands(t *testing.T) {
	nan := math.NaN()
	f, err := Checks("E9 copies", "GB/s", []Check{
		{Name: "1 MiB", Published: 10, Model: 10.2, Lo: 9, Hi: 11, GapLo: nan, GapHi: nan, Within: true},
		{Name: "2 MiB", Published: 20, Model: 30, Lo: 18, Hi: 22, GapLo: 28, GapHi: 32, KnownGap: true},
		{Name: "4 MiB", Published: 40, Model: 80, Lo: math.Inf(-1), Hi: 44, GapLo: nan, GapHi: nan},
	})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(f, &b, "f.svg"); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	hex := func(c interface{ RGBA() (r, g, b, a uint32) }) string {
		r, g, bl, _ := c.RGBA()
		return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, bl>>8)
	}
	for _, want := range []string{">E9 copies<", ">1 MiB<", ">10.0 → 10.2 GB/s<", ">40.0 → 80.0 GB/s<", "model / published",
		"model, outside its band", "known gap", hex(failColour), hex(gapDotColour), hex(okColour), hex(bandColour), hex(gapColour)} {
		if !strings.Contains(svg, want) {
			t.Errorf("check figure lacks %q", want)
		}
	}
	if f.height <= 0 || f.Legend == nil {
		t.Error("a check figure without its legend beside it")
	}
	if _, err := Checks("E9", "us", []Check{{Name: "a", Published: 0, Model: 1}}); err == nil || !strings.Contains(err.Error(), "E9, a: published value 0") {
		t.Errorf("published 0: %v", err)
	}
	if _, err := Checks("E9", "us", nil); err == nil {
		t.Error("no points drew a figure")
	}
}

func TestFileNames(t *testing.T) {
	got := FileNames([]string{"E4 bandwidth", "Pearson Comm|Scope, Frontier", "E4-bandwidth", "   "})
	want := []string{"E4-bandwidth", "Pearson-Comm-Scope-Frontier", "E4-bandwidth-2", "figure"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("FileNames %v, want %v", got, want)
	}
}
