package figure

import (
	"fmt"
	"strings"
	"testing"
)

// A published value is drawn where the figure shows its collective, rank
// count, size and metric, and nowhere else.
func TestReferenceMatchesItsRows(t *testing.T) {
	csv := "lanes,workload,case,src,dst,bytes,metric,value,unit\n"
	for _, l := range []int{1, 2} {
		for _, n := range []int64{1 << 20, 64 << 20} {
			for _, m := range []string{"busbw", "latency"} {
				csv += fmt.Sprintf("%d,rccl,all_reduce_perf,gcd0,gcd0+gcd1+gcd2+gcd3,%d,%s,%d,GB/s\n", l, n, m, l*int(n>>20))
			}
		}
	}
	tab := read(t, csv)
	ref := Reference{Case: "all_reduce_perf", Ranks: 4, Bytes: 64 << 20, Metric: "busbw", Value: 200, Unit: "GB/s", AtLeast: true, Source: "a paper"}
	for _, c := range []struct {
		ref  Reference
		spec Spec
		want bool
	}{
		{ref, Spec{}, true}, // a sweep: a horizontal line at 200
		{ref, Spec{Kind: Size, Filter: Filter{Where: map[string]string{"lanes": "1"}}}, true},
		{ref, Spec{Filter: Filter{Metric: "latency"}}, false},
		{Reference{Case: "all_reduce_perf", Ranks: 8, Bytes: 64 << 20, Metric: "busbw", Value: 200, Unit: "GB/s"}, Spec{}, false},
		{Reference{Case: "all_reduce_perf", Ranks: 4, Bytes: 8, Metric: "busbw", Value: 200, Unit: "GB/s"}, Spec{}, false},
		{Reference{Case: "all_gather_perf", Ranks: 4, Bytes: 64 << 20, Metric: "busbw", Value: 200, Unit: "GB/s"}, Spec{}, false},
	} {
		c.spec.Published = []Reference{c.ref}
		svg := string(render(t, tab, c.spec, ".svg"))
		if got := strings.Contains(svg, "published busbw at 64 MiB: at least 200 GB/s (a paper)"); got != c.want {
			t.Errorf("%+v in %+v: drawn %v, want %v", c.ref, c.spec, got, c.want)
		}
	}
}
