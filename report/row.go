// Package report turns measurements into rows and rows into the formats
// users already read: tidy csv/json, the original tools' text layouts and
// Google Benchmark JSON. Formatters never compute; they only lay out rows.
package report

// Header is the exact csv header of the output contract.
const Header = "workload,case,src,dst,bytes,metric,value,unit"

// Row is one measurement. Src and Dst name where the data comes from and
// goes to, the same way in every workload: "gcd2", "numa3", a list
// "gcd0+gcd4" (see GCD, NUMA, GCDs), or empty where a row has none.
type Row struct {
	Workload string  `json:"workload"`
	Case     string  `json:"case"`
	Src      string  `json:"src"`
	Dst      string  `json:"dst"`
	Bytes    int64   `json:"bytes"`
	Metric   string  `json:"metric"`
	Value    float64 `json:"value"`
	Unit     string  `json:"unit"`
}
