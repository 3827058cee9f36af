package figure

import (
	"regexp"
	"strings"

	"github.com/akisim/akisim/config"
)

// metricWords names a metric as its benchmark's users read it: rccl-tests
// prints algbw and busbw, where akisim's rows say bandwidth and busbw.
func metricWords(workload, metric string) string {
	base, inPlace := strings.CutSuffix(metric, "_inplace")
	w := base
	switch {
	case base == "busbw":
		w = "busbw, bus bandwidth"
	case base == "bandwidth" && workload == "rccl":
		w = "algbw, algorithm bandwidth"
	case base == "latency" && workload == "rccl":
		w = "time"
	}
	if inPlace {
		w += ", in place"
	}
	return w
}

// index matches a key's list index: [*], [0-2] or [3].
var index = regexp.MustCompile(`\[([^\]]*)\]`)

// keyWords is a swept key in words with its unit, then the key as -set
// takes it: "links in the bundle, every bundle" over
// "-set xgmi.bundle[*].lanes". A key config does not declare is itself.
func keyWords(key string) string {
	p := config.ParamOf(key)
	if p == nil {
		return key
	}
	w := p.Doc
	if i := strings.IndexAny(w, "(:;"); i > 0 { // the doc's first clause
		w = strings.TrimSpace(w[:i])
	}
	if m := index.FindAllStringSubmatch(key, -1); len(m) > 0 {
		list := key[:strings.IndexByte(key, '[')]
		list = list[strings.LastIndexByte(list, '.')+1:] // xgmi.bundle -> bundle
		switch at := m[len(m)-1][1]; {
		case at == "*":
			w += ", every " + list
		case strings.Contains(at, "-"):
			w += ", the " + list + " of GCDs " + at
		default:
			w += ", " + list + " " + at
		}
	}
	if p.Unit != "" && p.Unit != "share" {
		w += " (" + p.Unit + ")"
	}
	return w + "\n-set " + key
}
