package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// GBenchContext is the "context" object of a Google Benchmark JSON file.
type GBenchContext struct {
	Date             string
	HostName         string
	Executable       string
	NumCPUs          int
	MHzPerCPU        int
	LibraryBuildType string
	Custom           [][2]string // benchmark::AddCustomContext's keys and values, after the others, in order
}

// GBenchRun is one benchmark instance. RealTimeNs is the time of one
// iteration in ns and Bytes the bytes moved by one iteration.
type GBenchRun struct {
	Name       string
	Iterations int64
	RealTimeNs float64
	Bytes      int64
	Counters   map[string]float64
}

type gbenchFile struct {
	Context    gbenchContext `json:"context"`
	Benchmarks []gbenchRun   `json:"benchmarks"`
}

type gbenchContext struct {
	Date              string     `json:"date"`
	HostName          string     `json:"host_name"`
	Executable        string     `json:"executable"`
	NumCPUs           int        `json:"num_cpus"`
	MHzPerCPU         int        `json:"mhz_per_cpu"`
	CPUScalingEnabled bool       `json:"cpu_scaling_enabled"`
	Caches            []struct{} `json:"caches"`
	LoadAvg           []float64  `json:"load_avg"`
	LibraryBuildType  string     `json:"library_build_type"`
	custom            [][2]string
}

// MarshalJSON writes the context's keys, then the custom ones, as Google
// Benchmark's JSON reporter does.
func (c gbenchContext) MarshalJSON() ([]byte, error) {
	type fixed gbenchContext // without this method
	b, err := json.Marshal(fixed(c))
	if err != nil {
		return nil, err
	}
	b = b[:len(b)-1] // drop the closing brace
	for _, kv := range c.custom {
		for i, s := range kv {
			sb, err := json.Marshal(s)
			if err != nil {
				return nil, err
			}
			b = append(b, ",:"[i])
			b = append(b, sb...)
		}
	}
	return append(b, '}'), nil
}

// gbenchFixed holds the keys every benchmark object has, in output order.
type gbenchFixed struct {
	Name                   string  `json:"name"`
	FamilyIndex            int     `json:"family_index"`
	PerFamilyInstanceIndex int     `json:"per_family_instance_index"`
	RunName                string  `json:"run_name"`
	RunType                string  `json:"run_type"`
	Repetitions            int     `json:"repetitions"`
	RepetitionIndex        int     `json:"repetition_index"`
	Threads                int     `json:"threads"`
	Iterations             int64   `json:"iterations"`
	RealTime               float64 `json:"real_time"`
	CPUTime                float64 `json:"cpu_time"`
	TimeUnit               string  `json:"time_unit"`
	BytesPerSecond         float64 `json:"bytes_per_second"`
}

// gbenchRun is a benchmark object: the fixed keys, then the counters.
type gbenchRun struct {
	gbenchFixed
	Counters map[string]float64
}

// gbenchKeys are the fixed keys a counter may not reuse.
var gbenchKeys = map[string]bool{
	"name": true, "family_index": true, "per_family_instance_index": true,
	"run_name": true, "run_type": true, "repetitions": true,
	"repetition_index": true, "threads": true, "iterations": true,
	"real_time": true, "cpu_time": true, "time_unit": true,
	"bytes_per_second": true,
}

// MarshalJSON writes the fixed keys in struct order, then the counters
// sorted by key.
func (r gbenchRun) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r.gbenchFixed); err != nil {
		return nil, err
	}
	b := bytes.TrimRight(buf.Bytes(), "\n")
	b = b[:len(b)-1] // drop the closing brace
	keys := make([]string, 0, len(r.Counters))
	for k := range r.Counters {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b = append(b, ',')
		b = append(b, kb...)
		vb, err := json.Marshal(r.Counters[k])
		if err != nil {
			return nil, err
		}
		b = append(b, ':')
		b = append(b, vb...)
	}
	return append(b, '}'), nil
}

// WriteGBench writes runs as a Google Benchmark JSON file the way Comm|Scope
// writes it: a context object and one "iteration" benchmark object per run,
// indented by two spaces. family_index numbers the distinct families (the
// name before its first "/") in order of first appearance and
// per_family_instance_index counts the runs within a family. cpu_time
// equals real_time, time_unit is "ns" and bytes_per_second is
// Bytes/(RealTimeNs/1e9). Counters follow bytes_per_second, sorted by key.
func WriteGBench(w io.Writer, ctx GBenchContext, runs []GBenchRun) error {
	f := gbenchFile{
		Context: gbenchContext{
			Date:             ctx.Date,
			HostName:         ctx.HostName,
			Executable:       ctx.Executable,
			NumCPUs:          ctx.NumCPUs,
			MHzPerCPU:        ctx.MHzPerCPU,
			Caches:           []struct{}{},
			LoadAvg:          []float64{},
			LibraryBuildType: ctx.LibraryBuildType,
			custom:           ctx.Custom,
		},
		Benchmarks: make([]gbenchRun, 0, len(runs)),
	}
	families := map[string]int{}
	instances := map[string]int{}
	for i, r := range runs {
		if !(r.RealTimeNs > 0) || math.IsInf(r.RealTimeNs, 0) {
			return fmt.Errorf("report: gbench run %d (%s): real time %v ns must be positive and finite", i, r.Name, r.RealTimeNs)
		}
		for k, v := range r.Counters {
			if gbenchKeys[k] {
				return fmt.Errorf("report: gbench run %d (%s): counter %q reuses a fixed key", i, r.Name, k)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("report: gbench run %d (%s): counter %q = %v is not a JSON number", i, r.Name, k, v)
			}
		}
		family, _, _ := strings.Cut(r.Name, "/")
		fi, ok := families[family]
		if !ok {
			fi = len(families)
			families[family] = fi
		}
		pi := instances[family]
		instances[family] = pi + 1
		f.Benchmarks = append(f.Benchmarks, gbenchRun{
			gbenchFixed: gbenchFixed{
				Name:                   r.Name,
				FamilyIndex:            fi,
				PerFamilyInstanceIndex: pi,
				RunName:                r.Name,
				RunType:                "iteration",
				Repetitions:            1,
				RepetitionIndex:        0,
				Threads:                1,
				Iterations:             r.Iterations,
				RealTime:               r.RealTimeNs,
				CPUTime:                r.RealTimeNs,
				TimeUnit:               "ns",
				BytesPerSecond:         float64(r.Bytes) / (r.RealTimeNs / 1e9),
			},
			Counters: r.Counters,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// CommScopeName returns the Comm|Scope benchmark name
// "Comm_<family>/<arg0>/<arg1>/log2(N):<log2n>/manual_time". family may
// carry the "Comm_" prefix or not; it is never doubled.
func CommScopeName(family string, arg0, arg1 int, log2n int) string {
	return fmt.Sprintf("Comm_%s/%d/%d/log2(N):%d/manual_time",
		strings.TrimPrefix(family, "Comm_"), arg0, arg1, log2n)
}
