package report

import (
	"encoding/json"
	"io"
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
	jw := NewJSONWriter(w)
	for _, r := range rows {
		if err := jw.Write(r); err != nil {
			return err
		}
	}
	return jw.Close()
}
