package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// jsonRow fixes the key order of WriteJSON and carries the rounded value.
type jsonRow struct {
	Workload string      `json:"workload"`
	Case     string      `json:"case"`
	Src      string      `json:"src"`
	Dst      string      `json:"dst"`
	Bytes    int64       `json:"bytes"`
	Metric   string      `json:"metric"`
	Value    json.Number `json:"value"`
	Unit     string      `json:"unit"`
}

// WriteJSON writes rows as a JSON array of objects with the keys workload,
// case, src, dst, bytes, metric, value and unit in that order, indented by
// two spaces and followed by a newline. value is a JSON number rounded to
// four decimals exactly as WriteCSV prints it. An empty slice writes "[]".
// NaN and infinite values are an error since JSON cannot hold them.
func WriteJSON(w io.Writer, rows []Row) error {
	out := make([]jsonRow, 0, len(rows))
	for i, r := range rows {
		if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
			return fmt.Errorf("report: row %d (%s/%s/%s): value %v is not a JSON number",
				i, r.Workload, r.Case, r.Metric, r.Value)
		}
		out = append(out, jsonRow{
			Workload: r.Workload,
			Case:     r.Case,
			Src:      r.Src,
			Dst:      r.Dst,
			Bytes:    r.Bytes,
			Metric:   r.Metric,
			Value:    json.Number(FormatValue(r.Value)),
			Unit:     r.Unit,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
