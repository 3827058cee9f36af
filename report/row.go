// Package report turns measurements into rows and rows into the formats
// users already read: tidy csv/json, the original tools' text layouts and
// Google Benchmark JSON. Formatters never compute; they only lay out rows.
package report

// Header is the exact csv header of the output contract.
const Header = "workload,case,src,dst,bytes,metric,value,unit"

// Row is one measurement. Src and Dst are GCD ids, NUMA ids or empty,
// as the workload defines them.
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
